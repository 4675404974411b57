"""Answer metrics: Hit, Hit@1, exact match, F1, Recall@k, execution accuracy, bootstrap CIs.

String answers are compared after :func:`normalize_answer` (case, accents, punctuation, articles,
whitespace). ``Hit`` is lenient by default (a gold answer equals a prediction or occurs in it as
whole words, as in the KGQA literature); ``lenient=False`` makes it exact (``Kansas`` does not
match ``Kansas City``). Exact match and F1 are strict set comparisons.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from byokg.language.text import normalize

_ARTICLES = re.compile(r"\b(a|an|the)\b")


def normalize_answer(text: Any) -> str:
    """Normalised form of an answer for comparison (numbers keep their value)."""
    if isinstance(text, bool):
        return str(text).lower()
    if isinstance(text, int | float):
        return _num(text)
    s = normalize(str(text))
    stripped = " ".join(_ARTICLES.sub(" ", s).split())
    return stripped or s  # "A" (a grade, a letter) stays an answer


def _num(x: float) -> str:
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    f = float(x)
    return str(int(f)) if f.is_integer() else f"{f:.6g}"


def _gold_forms(gold: Sequence[str | Sequence[str]]) -> list[set[str]]:
    """Each gold answer as the set of its normalised forms (an answer may carry aliases)."""
    out = []
    for g in gold:
        forms = [g] if isinstance(g, str) else list(g)
        normed = {normalize_answer(f) for f in forms} - {""}
        if normed:
            out.append(normed)
    return out


def _contains(hay: str, needle: str) -> bool:
    if not needle or not hay:
        return False
    if hay == needle:
        return True
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", hay) is not None


def answer_matches(pred: str, gold_forms: set[str], *, lenient: bool = True) -> bool:
    p = normalize_answer(pred)
    if p in gold_forms:
        return True
    return lenient and any(_contains(p, g) for g in gold_forms)


def hit(preds: Sequence[str], gold: Sequence[str | Sequence[str]], *,
        lenient: bool = True) -> float:
    """1.0 when any gold answer matches any prediction, else 0.0: ``lenient`` (the default) also
    counts a gold answer occurring in a prediction as whole words, else only equal normalised
    forms count."""
    golds = _gold_forms(gold)
    return float(any(answer_matches(p, g, lenient=lenient) for p in preds for g in golds))


def hit_at_1(preds: Sequence[str], gold: Sequence[str | Sequence[str]], *,
             lenient: bool = True) -> float:
    """:func:`hit` of the first prediction alone."""
    return hit(preds[:1], gold, lenient=lenient)


def exact_match(preds: Sequence[str], gold: Sequence[str | Sequence[str]]) -> float:
    """1.0 when the prediction set equals the gold set (strict, after normalisation)."""
    golds = _gold_forms(gold)
    pset = {normalize_answer(p) for p in preds} - {""}
    if not golds:
        return float(not pset)
    matched = {i for i, g in enumerate(golds) if pset & g}
    extra = [p for p in pset if not any(p in g for g in golds)]
    return float(len(matched) == len(golds) and not extra)


def f1(preds: Sequence[str], gold: Sequence[str | Sequence[str]]) -> float:
    """Set F1 between predictions and gold answers (strict matching)."""
    golds = _gold_forms(gold)
    pset = list(dict.fromkeys(normalize_answer(p) for p in preds if normalize_answer(p)))
    if not golds or not pset:
        return float(not golds and not pset)
    tp_pred = sum(1 for p in pset if any(p in g for g in golds))
    tp_gold = sum(1 for g in golds if any(p in g for p in pset))
    precision, recall = tp_pred / len(pset), tp_gold / len(golds)
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def recall_at_k(context: Sequence[str], gold: Sequence[str | Sequence[str]], k: int) -> float:
    """Fraction of gold answers that occur (as whole words) in the top-k context texts."""
    golds = _gold_forms(gold)
    if not golds:
        return 0.0
    texts = [normalize_answer(t) for t in context[:k]]
    found = sum(1 for g in golds if any(_contains(t, form) for t in texts for form in g))
    return found / len(golds)


# ---------------------------------------------------------------- execution accuracy (Cypher)


def _cell(v: Any, ignore: frozenset[str] = frozenset()) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int | float):
        return _num(v)
    if isinstance(v, str):
        try:
            return _num(float(v)) if v.strip() and re.fullmatch(r"-?\d+(\.\d+)?", v.strip()) else normalize(v)
        except ValueError:
            return normalize(v)
    if isinstance(v, list | tuple):
        return "[" + ",".join(sorted(_cell(x, ignore) for x in v)) + "]"
    if isinstance(v, dict):  # a node/relationship: its properties (backend keys like _label ignored)
        items = sorted(
            (k, x) for k, x in v.items() if not str(k).startswith("_") and k not in ignore
        )
        return "{" + ",".join(f"{k}:{_cell(x, ignore)}" for k, x in items) + "}"
    return normalize(str(v))


def _row_key(row: Iterable[Any], ignore: frozenset[str] = frozenset()) -> tuple[str, ...]:
    return tuple(sorted(_cell(v, ignore) for v in row))  # column order ignored


class ExecScore(BaseModel):
    exact: float  # 1.0 when the row sets are equal (column order ignored)
    partial: float  # F1 over rows; a predicted row covers a gold row when it holds its values


def execution_accuracy(
    pred_rows: Sequence[Sequence[Any]],
    gold_rows: Sequence[Sequence[Any]],
    *,
    gold_truncated: bool = False,
    ignore_node_keys: Iterable[str] = (),
) -> ExecScore:
    """Compare result rows as sets of value-multisets (column order and names ignored).

    Partial credit: a predicted row matches a gold row when the gold row's values are a
    sub-multiset of the predicted row's (extra columns allowed); score is F1 over rows.
    ``gold_truncated``: the gold rows are only the first N of a longer result (the shared gold
    file keeps 50), so exact means every gold row is among the predicted rows and partial is the
    recall of gold rows. ``ignore_node_keys``: node properties left out of the comparison (e.g.
    a key property a loader added that the dataset's own schema does not have).
    """
    ignore = frozenset(ignore_node_keys)
    gold = list(dict.fromkeys(_row_key(r, ignore) for r in gold_rows))
    pred = list(dict.fromkeys(_row_key(r, ignore) for r in pred_rows))
    if not gold and not pred:
        return ExecScore(exact=1.0, partial=1.0)
    if not gold or not pred:
        return ExecScore(exact=0.0, partial=0.0)
    if gold_truncated:
        found = set(pred)
        recall = sum(1 for g in gold if g in found) / len(gold)
        return ExecScore(exact=float(recall == 1.0), partial=recall)
    exact = float(set(gold) == set(pred))

    def covers(p: tuple[str, ...], g: tuple[str, ...]) -> bool:
        rest = list(p)
        for v in g:
            if v in rest:
                rest.remove(v)
            else:
                return False
        return True

    matched_gold = sum(1 for g in gold if any(covers(p, g) for p in pred))
    matched_pred = sum(1 for p in pred if any(covers(p, g) for g in gold))
    prec, rec = matched_pred / len(pred), matched_gold / len(gold)
    partial = 0.0 if prec + rec == 0 else 2 * prec * rec / (prec + rec)
    return ExecScore(exact=exact, partial=max(partial, exact))


# ---------------------------------------------------------------- aggregation


class MetricSummary(BaseModel):
    mean: float
    ci_low: float
    ci_high: float
    n: int


def bootstrap_ci(
    values: Sequence[float], *, resamples: int = 1000, alpha: float = 0.05, seed: int = 0
) -> MetricSummary:
    """Mean with a percentile bootstrap confidence interval (deterministic for a seed)."""
    vals = [float(v) for v in values]
    n = len(vals)
    if n == 0:
        return MetricSummary(mean=float("nan"), ci_low=float("nan"), ci_high=float("nan"), n=0)
    mean = sum(vals) / n
    if n == 1:
        return MetricSummary(mean=mean, ci_low=mean, ci_high=mean, n=1)
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(vals, k=n)) / n for _ in range(resamples))
    lo = means[int(math.floor(alpha / 2 * resamples))]
    hi = means[min(resamples - 1, int(math.ceil((1 - alpha / 2) * resamples)) - 1)]
    return MetricSummary(mean=mean, ci_low=lo, ci_high=hi, n=n)
