"""Routing questions Cypher-first, and arithmetic over returned rows in Python.

A question that counts, sums, averages, compares or ranks (``QuestionAnalysis.aggregate``) is
best answered by a query. The routed proposer (``routed-linker``) asks for K candidate queries,
runs each through the guarded, isolated execution, and keeps the one whose rows fit the
question's shape (:func:`fit`: one number for "how many", names with numbers for "which … the
most"). The ``rows-answer`` answerer then does the arithmetic in Python (:func:`compute`): the
LLM never adds up numbers, and the rows are the evidence.

Also here: the prompts of the routing step and of the optional query critic
(:func:`critique`: one short call that checks generated queries before they run).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg.contracts import ContextItem
from byokg.contracts import QueryResult
from byokg.language import lexicon as lx

if TYPE_CHECKING:
    from byokg.plugins.kglinker.prompt import Prompt

    from byokg.language.analysis import QuestionAnalysis
    from byokg.pipeline.tools import StageOutput

__all__ = ["Computed", "compute", "does_arithmetic", "grouped", "critic_checked", "critic_prompt", "critique", "fit", "format_number",
           "route_prompt", "wants_rows"]

MAX_LIST = 50  # answers listed from grouped rows at most

# what each aggregate asks the candidate queries to return (generic; no graph's names)
SHAPE_HINTS = {
    "count": "The question asks how many: each query returns the count as one number "
             "(RETURN count(...) AS n), or the distinct rows to count.",
    "sum": "The question asks for a total: each query returns the total as one number "
           "(sum(...)), or the rows with the numbers to add up.",
    "avg": "The question asks for an average: each query returns it as one number (avg(...)), "
           "or the rows with the numbers to average.",
    "min": "The question asks for the lowest value: each query returns it as one number "
           "(min(...)).",
    "max": "The question asks for the highest value: each query returns it as one number "
           "(max(...)).",
    "rank": "The question asks for the top items: each query returns every item's name with "
            "the number it is ranked by, ordered by that number, with a LIMIT.",
    "compare": "The question compares items: each query returns every compared item's name "
               "with the number it is compared by.",
    None: "Each query returns the answer nodes' names (and the values the question asks for).",
}


class Computed(BaseModel):
    """The answer computed from a query's rows, and how."""

    model_config = ConfigDict(frozen=True)

    op: str
    answers: list[str] = Field(default_factory=list)
    value: float | None = None
    how: str = ""  # one line: what was computed from which rows


# --------------------------------------------------------------------------- rows


def number(v: Any) -> float | None:
    """A cell as a number (ints, floats, numeric text such as "32.38"); None otherwise."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int | float):
        return float(v) if math.isfinite(float(v)) else None
    if isinstance(v, str):
        try:
            f = float(v.strip().replace(",", ""))
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    return None


def format_number(v: float | int, raw: Any = None) -> str:
    """A number as an answer: the database's own value when one cell is passed through,
    integers without a decimal point, other values to 10 significant digits."""
    if raw is not None and not isinstance(raw, bool) and isinstance(raw, int | float | str):
        return str(raw) if not isinstance(raw, float) else repr(raw)
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.10g}"


def _label(v: Any) -> str | None:
    if isinstance(v, str) and v.strip() and number(v) is None:
        return v
    if isinstance(v, dict):  # a whole node: its name-like property, else its first text
        texts = [(str(k), x) for k, x in v.items() if not str(k).startswith("_")
                 and isinstance(x, str) and x.strip() and number(x) is None]
        named = [x for k, x in texts if k.lower().endswith("name") or k.lower() == "title"]
        return (named or [x for _, x in texts] or [None])[0]
    return None


def _columns(result: QueryResult) -> tuple[list[int], list[int]]:
    """(name columns, number columns): a column is numeric when every non-null cell is; columns
    of typed numbers come last in the list (the value column is the last one), numeric text
    (ids, numbers stored as text) before them."""
    width = max((len(r) for r in result.rows), default=0)
    names, typed, text = [], [], []
    for i in range(width):
        cells = [r[i] for r in result.rows if i < len(r) and r[i] is not None]
        if not cells:
            continue
        if all(number(c) is not None for c in cells):
            (text if any(isinstance(c, str) for c in cells) else typed).append(i)
        elif all(_label(c) is not None for c in cells):
            names.append(i)
    return names, text + typed


def _colname(result: QueryResult, i: int) -> str:
    return str(result.columns[i]) if i < len(result.columns) else f"column {i + 1}"


def grouped(analysis: QuestionAnalysis) -> bool:
    """True when the question asks for one value per group ("per supplier", "each customer")."""
    return bool(lx.GROUP_WORDS & set(analysis.words))


_LIST_WORDS = lx.LIST_WORDS


def lists_rows(analysis: QuestionAnalysis) -> bool:
    """True when the question asks for a list of things ("Display the products whose price is
    above the average …"), not for one computed value."""
    return bool(analysis.words) and analysis.words[0] in _LIST_WORDS and analysis.kind not in (
        "count", "number")


def wants_rows(analysis: QuestionAnalysis) -> bool:
    """True when the question asks for arithmetic over rows."""
    return analysis.aggregate is not None


def fit(analysis: QuestionAnalysis, result: QueryResult | None) -> float:
    """How well ``result`` has the shape the question asks for, in [0, 1] (0: no rows)."""
    if result is None or not result.rows:
        return 0.0
    op = analysis.aggregate
    n = len(result.rows)
    names, nums = _columns(result)
    width = max(len(r) for r in result.rows)
    if op in ("count", "sum", "avg", "min", "max"):
        if n == 1 and nums:
            if isinstance(result.rows[0][nums[-1]], str):
                return 0.5  # one number written as text: an id as often as a value
            return 1.0 if width == 1 else 0.8
        if names and nums and grouped(analysis):
            return 0.7  # grouped ("per customer"): one number per name
        if result.truncated:
            return 0.1  # the cap cut the rows: arithmetic over them would be wrong
        if op == "count":
            return 0.5 if n > 1 else 0.3  # rows to count (one row and no number: doubtful)
        return 0.5 if nums else 0.1
    if op == "rank":
        if names and nums:
            return 1.0
        return 0.6 if names else 0.3
    if op == "compare":
        if n >= 2 and names and nums:
            return 1.0
        if n == 1 and (len(nums) >= 2 or isinstance(result.rows[0][0], bool)):
            return 0.8
        return 0.3
    return 0.6 if names or nums else 0.5


_DOES = {"count": r"\bcount\s*\(", "sum": r"\bsum\s*\(", "avg": r"\bavg\s*\(",
         "min": r"\bmin\s*\(|\border\s+by\b", "max": r"\bmax\s*\(|\border\s+by\b",
         "rank": r"\border\s+by\b"}


def does_arithmetic(analysis: QuestionAnalysis, query: str) -> bool:
    """True when the query itself does the arithmetic the question asks for (``count(`` for
    "how many", ``ORDER BY`` for "top k"…): a tie-break between candidates of equal fit."""
    import re

    rx = _DOES.get(analysis.aggregate or "")
    return bool(rx and re.search(rx, query, re.I))


def compute(analysis: QuestionAnalysis, result: QueryResult) -> Computed | None:
    """The question's arithmetic over ``result``'s rows, in Python (None: nothing to compute)."""
    op = analysis.aggregate
    if op is None or not result.rows:
        return None
    if op in ("count", "sum", "avg", "min", "max"):
        return _compute_aggregate(op, analysis, result)
    if op == "rank":
        return _compute_rank(analysis, result)
    if op == "compare":
        return _compute_compare(analysis, result)
    return None


def _compute_aggregate(op: str, analysis: QuestionAnalysis, result: QueryResult) -> Computed | None:
    """count/sum/avg/min/max: the query's one value, a per-name grouping, or computed over rows."""
    rows = result.rows
    names, nums = _columns(result)
    if len(rows) == 1 and nums:
        raw = rows[0][nums[-1]]
        v = number(raw) or 0.0
        return Computed(op=op, answers=[format_number(v, raw)], value=v,
                        how=f"{op}: the query returned it as one value ({format_number(v, raw)})")
    if names and nums and grouped(analysis):  # one number per name, largest first
        pairs = _pairs(rows, names[0], nums[-1], descending=True)
        numbers_asked = analysis.kind in ("count", "number")  # "how many … per supplier"
        return Computed(op=op, answers=[f"{nm}: {format_number(v)}" if numbers_asked else nm
                                        for nm, v in pairs[:MAX_LIST]],
                        how=f"{op} per {_colname(result, names[0])} as the query grouped "
                            f"it ({len(pairs)} groups)")
    if result.truncated or (names and lists_rows(analysis)):
        return None  # cut rows; or "display the products above the average": a list
    if op == "count":
        distinct = len(dict.fromkeys(tuple(map(repr, r)) for r in rows))
        return Computed(op=op, answers=[str(distinct)], value=float(distinct),
                        how=f"count: {distinct} distinct rows of {len(rows)} counted in Python")
    if not nums:
        return None
    col = nums[-1]
    vals = [v for v in (number(r[col]) for r in rows) if v is not None]
    if not vals:
        return None
    v = {"sum": math.fsum(vals), "avg": math.fsum(vals) / len(vals), "min": min(vals),
         "max": max(vals)}[op]
    cname = _colname(result, col)
    return Computed(op=op, answers=[format_number(v)], value=v,
                    how=f"{op} of {cname} over {len(vals)} rows computed in Python = "
                        f"{format_number(v)}")


def _compute_rank(analysis: QuestionAnalysis, result: QueryResult) -> Computed | None:
    """Top k by the last number column (ties at the cut kept), or the query's first k rows."""
    rows = result.rows
    names, nums = _columns(result)
    k = analysis.top_k or (min(len(rows), 10) if analysis.plural else 1)
    if names and nums:
        pairs = _pairs(rows, names[0], nums[-1], descending=analysis.descending)
        cut = pairs[min(k, len(pairs)) - 1][1]
        keep = [p for i, p in enumerate(pairs) if i < k or p[1] == cut]  # ties at the cut
        return Computed(op="rank", answers=list(dict.fromkeys(nm for nm, _ in keep)),
                        how=f"top {k} by {_colname(result, nums[-1])}"
                            f" ({'largest' if analysis.descending else 'smallest'} first) of "
                            f"{len(pairs)} rows, sorted in Python"
                            + (f"; {len(keep) - k} tied at the cut" if len(keep) > k else ""))
    if names:
        got = list(dict.fromkeys(_label(r[names[0]]) or "" for r in rows))[:k]
        return Computed(op="rank", answers=[g for g in got if g],
                        how=f"the first {k} rows in the query's order")
    return None


def _compute_compare(analysis: QuestionAnalysis, result: QueryResult) -> Computed | None:
    """A yes/no verdict or the winner(s) of a comparison; or the query's own true/false."""
    rows = result.rows
    names, nums = _columns(result)
    if len(rows) >= 2 and names and nums:
        pairs = _pairs(rows, names[0], nums[-1], descending=analysis.descending)
        how = "compared in Python: " + ", ".join(f"{nm} = {format_number(v)}"
                                                 for nm, v in pairs[:10])
        verdict = _yes_no(analysis, pairs)
        if verdict is not None:
            return Computed(op="compare", answers=[verdict], how=how)
        best = pairs[0]
        tied = [p for p in pairs if p[1] == best[1]]
        return Computed(op="compare", answers=[nm for nm, _ in tied], value=best[1], how=how)
    if len(rows) == 1 and len(rows[0]) == 1 and isinstance(rows[0][0], bool):
        verdict = "yes" if rows[0][0] else "no"  # the query compared: one true/false
        return Computed(op="compare", answers=[verdict], how=f"the query's comparison: {verdict}")
    return None


_AUX = lx.AUXILIARIES


def _yes_no(analysis: QuestionAnalysis, pairs: list[tuple[str, float]]) -> str | None:
    """"yes"/"no" for "Is A longer than B?": A is the compared name the question writes first;
    None when the question is not a yes/no one or does not name two of the rows."""
    if not analysis.words or analysis.words[0] not in _AUX:
        return None
    text = analysis.question.casefold()
    found = sorted((text.find(nm.casefold()), nm, v) for nm, v in pairs
                   if nm and nm.casefold() in text)
    if len(found) < 2:
        return None
    (_, _, a), (_, _, b) = found[0], found[1]
    return "yes" if (a > b if analysis.descending else a < b) else "no"


def _pairs(rows: Sequence[Sequence[Any]], name_col: int, num_col: int, *,
           descending: bool) -> list[tuple[str, float]]:
    """(name, number) per row, sorted by the number (stable: ties keep the query's order)."""
    pairs = []
    for r in rows:
        nm, v = _label(r[name_col]), number(r[num_col])
        if nm is not None and v is not None:
            pairs.append((nm, v))
    return sorted(pairs, key=lambda p: -p[1] if descending else p[1])


def computed_item(comp: Computed, source: ContextItem) -> ContextItem:
    """The computation as an evidence item: the line that says what was computed, with the
    query and the rows it was computed from."""
    return ContextItem(
        text=f"Computed from the rows of: {source.query}\n{comp.how}\n"
             f"Answer: {'; '.join(comp.answers)}",
        tool=source.tool, iteration=source.iteration, kind="computed", query=source.query,
        rows=source.rows, score=source.score,
        metadata={"op": comp.op, "value": comp.value, "computed_in": "python"},
    )


# --------------------------------------------------------------------------- prompts


def _dialect_hints(store: Any) -> str:
    dialect = store.dialect if store is not None else None
    hints = ""
    if dialect:
        from byokg.cypher.dialects import dialect_hints

        hints = dialect_hints(dialect, store=store) or ""
    return f"Dialect ({dialect}): {hints}\n" if hints else ""


def route_prompt(analysis: QuestionAnalysis, schema_text: str, *, k: int,
                 store: Any = None, profile: Any = None) -> Prompt:
    """The routing step's prompt: K different candidate queries for the question's shape (with
    the graph's naming properties when its profile is given)."""
    from byokg.plugins.kglinker.prompt import _prompt
    from byokg.plugins.kglinker.prompt import naming_text

    return _prompt("route_cypher", question=analysis.question, schema=schema_text, k=k,
                   shape_hint=SHAPE_HINTS.get(analysis.aggregate, SHAPE_HINTS[None]),
                   dialect_hints=_dialect_hints(store), naming=naming_text(profile))


def critic_prompt(question: str, queries: Sequence[str], schema_text: str,
                  store: Any = None) -> Prompt:
    """The query critic's prompt: the question, the schema and the queries to check."""
    from byokg.plugins.kglinker.prompt import _prompt

    return _prompt("query_critic", question=question, schema=schema_text,
                   queries="\n\n".join(q.strip() for q in queries),
                   dialect_hints=_dialect_hints(store))


def critic_checked(services: Any, question: str) -> set[str]:
    """The queries the critic already passed for this question (checked once, not per stage):
    kept on the question's services view, so the same question asked again is checked again."""
    checked = getattr(services, "_critic_checked", None)
    if checked is None or checked[0] != question:
        checked = (question, set())
        services._critic_checked = checked
    return checked[1]


def critique(llm: Any, question: str, queries: Sequence[str], schema_text: str, *,
             out: StageOutput, store: Any = None, source: str = "critic",
             services: Any = None) -> list[str]:
    """One short LLM call that checks ``queries`` before they run: the reply OK keeps them,
    corrected queries replace them. A reply that is neither keeps them (with a warning).
    With ``services``, queries the critic already passed for this question are not sent again."""
    queries = [q for q in queries if q and q.strip()]
    done = critic_checked(services, question) if services is not None else set()
    if not queries or all(q.strip() in done for q in queries):
        return queries
    from byokg.models.budget import BudgetExhausted

    try:
        fixed = _critique(llm, question, queries, schema_text, out=out, store=store,
                          source=source)
    except BudgetExhausted as exc:  # the critic is optional: the queries run unchecked
        out.event(source, f"query critic skipped: {exc}", level="warning")
        out.counts["critic_skipped"] = out.counts.get("critic_skipped", 0) + 1
        return queries
    done.update(q.strip() for q in fixed)
    return fixed


def _critique(llm: Any, question: str, queries: list[str], schema_text: str, *,
              out: StageOutput, store: Any, source: str) -> list[str]:
    from byokg.plugins.kglinker.prompt import parse_reply

    from byokg.pipeline.stages import complete

    prompt = critic_prompt(question, queries, schema_text, store)
    reply = complete(llm, prompt.text, purpose="query-critic", out=out, template=prompt.template)
    text = (reply or "").strip()
    out.counts["critic_calls"] = out.counts.get("critic_calls", 0) + 1
    if text.upper().rstrip(".! ") == "OK" or (text.upper().startswith("OK") and "<cypher>"
                                               not in text.lower()):
        out.event(source, f"query critic: OK ({len(queries)} query(ies) unchanged)")
        return list(queries)
    fixed = list(parse_reply(text).cypher)
    if not fixed:
        out.event(source, "query critic reply was neither OK nor corrected queries; the "
                  "queries run unchanged", level="warning", reply=text[:300])
        return list(queries)
    changed = [q for q in fixed if q.strip() not in {x.strip() for x in queries}]
    out.counts["critic_changed"] = out.counts.get("critic_changed", 0) + len(changed)
    out.event(source, f"query critic corrected {len(changed)} query(ies)",
              before=list(queries), after=fixed)
    return fixed
