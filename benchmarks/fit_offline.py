"""Fit the offline reasoner's combination weights and its confidence on the *fit* split of the
generated paraphrase graphs (benchmarks/paraphrase_graphs.py: music, academia, sports), never
on the report split.

1. **Chains.** Every question of the fit split is asked once; the proposer's scored chains
   (their named features, :meth:`ChainScorer.features`) are kept with their *value*: the share
   of the chain's end nodes that are gold answers (what Hit@1 of the chain's end set is worth).
   Coordinate ascent then picks the combination weights of
   :class:`~byokg.plugins.offline.weights.ChainWeights` that maximise the mean value of the
   top-scored chain per question (each weight tried on a grid around its value, a few passes;
   thresholds and caps are not fitted).
2. **Confidence.** With the fitted weights, every question is asked again; the answerer's
   confidence features (:func:`byokg.plugins.offline.confidence.features`) and whether the
   first answer is right fit a logistic model (:class:`ConfidenceModel`), L2-regularised.

The chain weights in the package are hand-set for the unit alignment: this fit (``--joint
--half``) raised the fit split's figure and lost the film graph's 2- and 3-hop questions, so
it was not adopted; the confidence coefficients in the package are this script's
(``--no-fit --confidence-rows`` per install, then ``--fit-confidence``). The chains' features
are collected under the weights in force and the alignment inside them is chosen with those
weights, so a fit far from them is only approximate.

Run: ``.venv/bin/python -m benchmarks.fit_offline --embedder core|minilm --cache`` collects
one install's chains (kept in ``~/.cache/byokg/fit-offline`` with ``--cache``); ``--joint`` then fits one
set of weights for both installs (``--half``: the paraphrase questions and the other graphs
weighted half and half; ``--start W.json``: chain weights to start from; ``--only a,b``: the
weights to fit); ``--no-fit --confidence-rows OUT.json`` dumps the answers'
confidence features (``--confidence-splits fit,report,holdout``: the questions of these
paraphrase splits too), and ``--fit-confidence CORE.json MINILM.json`` fits the confidence
from them. It prints the weights and coefficients to paste into plugins/offline/weights.py;
nothing is written into the package.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import sys
import time
from collections.abc import Sequence
from typing import Any

from benchmarks import paraphrase_graphs as pg

FITTED = ("said", "type", "meaning", "step", "order", "idle", "led", "weak", "leftover",
          "leftover_said", "converse", "voice", "mirror", "conjunction", "unnamed_end")
GRID = (0.0, 0.5, 0.75, 0.9, 1.1, 1.33, 2.0, 3.0)
KEEP = 150  # chains kept per question (the typed ones)


def engine_config(embedder: str):
    """``core``: the install without MiniLM (the static model); ``minilm``: MiniLM installed;
    ``lexical``: no model of meaning."""
    from byokg.config import RunConfig

    if embedder == "core":
        import byokg.models.embedders as emb

        emb.minilm_available = lambda: False  # as a core install: the weights are not there
    return RunConfig(embedder="lexical") if embedder == "lexical" else RunConfig()


class DevSet:
    """A development graph with its questions (a paraphrase variant or a reasoning graph)."""

    def __init__(self, name: str, store: Any, questions: Sequence[Any]) -> None:
        self.name, self._store, self.questions = name, store, list(questions)

    def store(self) -> Any:
        return self._store() if callable(self._store) else self._store


def development_sets(per_kind: int = 16) -> list[DevSet]:
    """The fit split: the paraphrase graphs' fit domains in their naming styles, and the film
    graphs and library graph of benchmarks/reasoning_graphs.py (our own naming)."""
    from benchmarks import reasoning_graphs as rg
    from byokg import graph_from_triplets

    out = [DevSet(v.name, v.store, v.questions) for v in pg.variants("fit", per_kind=per_kind)]
    film = rg.filmkb(1500, questions=24)
    out.append(DevSet("filmkb", lambda: graph_from_triplets(film.triples, uri="memory:filmkb"),
                      film.questions))
    cin = rg.cinema(400, questions=16)
    out.append(DevSet("cinema", lambda: graph_from_triplets(cin.triples, uri="memory:cinema"),
                      cin.questions))
    lib = rg.library(300, questions=16)

    def lib_store() -> Any:
        import tempfile

        from byokg.graph.open import open_graph

        path = os.path.join(tempfile.mkdtemp(prefix="byokg-library-"), "library.jsonl")
        lib.write_jsonl(path, typed=True)
        return open_graph(f"memory:{path}")

    out.append(DevSet("library", lib_store, lib.questions))
    return out


def collect(variants: Sequence[Any], config: Any) -> list[list[tuple[dict, float, int]]]:
    """Per question, ``(features, value, hops)`` of its scored chains."""
    import byokg.plugins.offline.chains as chains

    from byokg.pipeline.engine import Engine

    seen: list[Any] = []
    real = chains.enumerate_chains

    def spy(*args: Any, **kwargs: Any) -> Any:
        got = real(*args, **kwargs)
        seen.append(got)
        return got

    chains.enumerate_chains = spy
    import byokg.plugins.offline.weights as weights

    kept = weights.WEIGHTS
    if kept.chain.meaning == 0.0:  # computed only when weighed: weigh it a hair to see it
        weights.WEIGHTS = kept.model_copy(update={"chain": kept.chain.model_copy(
            update={"meaning": 1e-9})})
    out: list[list[tuple[dict, float, int]]] = []
    texts: list[str] = []
    try:
        for v in variants:
            eng = Engine(v.store(), config)
            for q in v.questions:
                seen.clear()
                eng.ask(q.text)
                gold = set(q.answers)
                rows = []
                for walked in seen[:1]:
                    for c in walked.chains[:KEEP]:
                        if not c.ends or not c.features:
                            continue
                        value = len(gold & set(c.ends)) / len(c.ends)
                        rows.append((dict(c.features), value, len(c.hops),
                                     str(c.relation_path)))
                out.append(rows)
                texts.append(q.text)
    finally:
        chains.enumerate_chains = real
        weights.WEIGHTS = kept
    collect.texts = texts  # type: ignore[attr-defined]
    return out


def objective(data: list[list[tuple[dict, float, int]]], w: Any, extra: dict | None = None
              ) -> float:
    total = 0.0
    extra = extra or {}
    for rows in data:
        if not rows:
            continue
        best = max(rows, key=lambda r: (w.combine(r[0]) + sum(
            c * r[0].get(k, 0.0) for k, c in extra.items()), -r[2]))
        total += best[1]
    return total / max(1, len(data))


SIGN = {"step": -1.0, "order": -1.0, "idle": -1.0, "led": -1.0, "weak": -1.0,
        "leftover": -1.0, "leftover_said": -1.0, "converse": -1.0, "unnamed_end": -1.0}
FEATURE = {"step": "extra_steps"}


def fit_softmax(data: list[list[tuple[dict, float, int]]], l2: float = 1e-3,
                steps: int = 1500, lr: float = 0.5) -> Any:
    """Combination weights by a listwise softmax fit: per question, the chains' scores are a
    softmax whose target is the chains' values (normalised); L2-regularised, gradient descent.
    Returns the weights model (signs as :meth:`ChainWeights.combine` reads them)."""
    import numpy as np
    from byokg.plugins.offline.weights import WEIGHTS

    names = list(FITTED)
    qs = []
    for rows in data:
        vals = np.array([r[1] for r in rows])
        if not rows or vals.sum() <= 0 or vals.min() == vals.max():
            continue  # nothing to learn from: no right chain, or all alike
        x = np.array([[SIGN.get(k, 1.0) * r[0].get(FEATURE.get(k, k), 0.0) for k in names]
                      for r in rows])
        fixed = np.zeros(len(rows))
        qs.append((x, fixed, vals / vals.sum()))
    w = np.array([getattr(WEIGHTS.chain, k) for k in names], dtype=np.float64)
    for _ in range(steps):
        g = np.zeros_like(w)
        for x, fixed, t in qs:
            s = x @ w + fixed
            s -= s.max()
            p = np.exp(s * 10.0)
            p /= p.sum()
            g += 10.0 * (x.T @ (p - t))
        w -= lr * (g / len(qs) + l2 * w)
    return WEIGHTS.chain.model_copy(update={k: round(float(v), 4) for k, v in zip(names, w,
                                                                                   strict=True)})


def joint(sets: Sequence[list[list[tuple[dict, float, int]]]]) -> Any:
    """The objective averaged over several collections (one per model of meaning)."""
    return lambda _data, w: sum(objective(d, w) for d in sets) / len(sets)


def half_and_half(sets: Sequence[list[list[tuple[dict, float, int]]]], n: int) -> Any:
    """The objective with the first ``n`` questions (the paraphrase ones) and the rest (the
    film, cinema and library graphs) weighted half and half, averaged over the collections."""
    return lambda _data, w: sum(0.5 * objective(d[:n], w) + 0.5 * objective(d[n:], w)
                                for d in sets) / len(sets)


def fit_chains(data: list[list[tuple[dict, float, int]]], passes: int = 4,
               value: Any = None, start: dict | None = None,
               names: Sequence[str] = FITTED) -> Any:
    from byokg.plugins.offline.weights import WEIGHTS

    objective_ = value or objective
    w = WEIGHTS.chain.model_copy(update=start or {})
    best = objective_(data, w)
    print(f"start: {best:.4f}", flush=True)
    for p in range(passes):
        improved = False
        for name in names:
            cur = getattr(w, name)
            base = cur if cur != 0 else 0.1
            for f in GRID:
                cand = w.model_copy(update={name: round(base * f, 4)})
                val = objective_(data, cand)
                if val > best + 1e-9:
                    best, w, improved = val, cand, True
            print(f"  pass {p} {name:12} {getattr(w, name):7.4f}  {best:.4f}", flush=True)
        if not improved:
            break
    return w, best


def fit_confidence(rows: list[tuple[dict, bool]], l2: float = 0.01, steps: int = 3000) -> Any:
    """Logistic regression by gradient descent (numpy), features standardised inside and the
    coefficients mapped back."""
    import numpy as np
    from byokg.plugins.offline.confidence import FEATURES
    from byokg.plugins.offline.weights import ConfidenceModel

    x = np.array([[r[0].get(k, 0.0) for k in FEATURES] for r in rows], dtype=np.float64)
    y = np.array([1.0 if r[1] else 0.0 for r in rows])
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mu) / sd
    coef = np.zeros(z.shape[1])
    b = math.log((y.mean() + 1e-6) / (1 - y.mean() + 1e-6))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ coef + b)))
        g = z.T @ (p - y) / len(y) + l2 * coef
        coef -= 0.5 * g
        b -= 0.5 * float(np.mean(p - y))
    real = coef / sd
    intercept = b - float(np.sum(coef * mu / sd))
    return ConfidenceModel(intercept=round(intercept, 4),
                           coefficients={k: round(float(c), 4) for k, c in zip(FEATURES, real,
                                                                                strict=True)})


def answered(variants: Sequence[Any], config: Any) -> list[tuple[dict, bool]]:
    """``(confidence features, first answer right)`` per question."""
    from byokg.pipeline.engine import Engine

    out = []
    for v in variants:
        eng = Engine(v.store(), config)
        for q in v.questions:
            a = eng.ask(q.text)
            first = (a.answer_ids.get(a.answers[0]) or [a.answers[0]])[0] if a.answers else None
            feats = next((e.data.get("confidence_features") for e in a.trace.events
                          if e.source == "offline-answer" and e.data.get("confidence_features")),
                         None) or {}
            out.append((feats, first in q.answers))
    return out


def _cache(embedder: str) -> str:
    """Where ``--cache`` keeps one install's collected chains: the user's own cache folder
    (``$XDG_CACHE_HOME`` or ``~/.cache``), made private, never the shared temporary folder,
    where another user could leave a pickle for this run to load."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(root, "byokg", "fit-offline")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, f"chains-{embedder}.pkl")


def main(argv: Sequence[str]) -> None:
    if "--fit-confidence" in argv:  # from rows dumped by --confidence-rows (one per model)
        rows = []
        for path in argv[argv.index("--fit-confidence") + 1:]:
            with open(path, encoding="utf-8") as fh:
                rows += [(f, ok) for f, ok in json.load(fh)]
        print(json.dumps(fit_confidence(rows).model_dump(), indent=1))
        return
    embedder = argv[argv.index("--embedder") + 1] if "--embedder" in argv else "core"
    config = engine_config(embedder)
    fit = development_sets()
    t0 = time.time()
    cache = _cache(embedder) if "--cache" in argv else None
    if cache and os.path.exists(cache):
        with open(cache, "rb") as fh:
            data = pickle.load(fh)
    else:
        data = collect(fit, config)
        if cache:
            with open(cache, "wb") as fh:
                pickle.dump(data, fh)
            with open(cache + ".txt", "w", encoding="utf-8") as fh:
                fh.write("\n".join(collect.texts))  # type: ignore[attr-defined]
    print(f"collected {len(data)} questions in {time.time() - t0:.0f}s", flush=True)
    if "--joint" in argv:  # one set of weights for both models of meaning
        sets = []
        for name in ("core", "minilm"):
            with open(_cache(name), "rb") as fh:
                sets.append(pickle.load(fh))
        value_fn = joint(sets)
        if "--half" in argv:  # the paraphrase questions and the other graphs' count alike
            n = sum(len(v.questions) for v in fit if v.name.split("-")[0] in pg.FIT)
            value_fn = half_and_half(sets, n)
        start = None
        if "--start" in argv:  # a JSON file of chain weights to start from
            with open(argv[argv.index("--start") + 1], encoding="utf-8") as fh:
                start = json.load(fh)
        only = tuple(argv[argv.index("--only") + 1].split(",")) if "--only" in argv else FITTED
        w, value = fit_chains(data, value=value_fn, start=start, names=only)
        for name, d in zip(("core", "minilm"), sets, strict=True):
            print(f"{name}: {objective(d, w):.4f}")
    elif "--softmax" in argv:
        w = fit_softmax(data)
        value = objective(data, w)
        print(f"softmax: {value:.4f}")
    elif "--no-fit" in argv:
        from byokg.plugins.offline.weights import WEIGHTS

        w, value = WEIGHTS.chain, objective(data, WEIGHTS.chain)
    else:
        w, value = fit_chains(data)
    out: dict[str, Any] = {"embedder": embedder, "chain_value": round(value, 4),
                           "chain": {k: getattr(w, k) for k in FITTED}}
    print(json.dumps(out, indent=1))
    if "--confidence-rows" in argv:  # the answers' confidence features, for --fit-confidence
        sets: list[Any] = list(fit)
        if "--confidence-splits" in argv:  # more wording than the fit split's
            for split in argv[argv.index("--confidence-splits") + 1].split(","):
                if split != "fit":
                    sets += pg.variants(split)
        rows = answered(sets, config)
        with open(argv[argv.index("--confidence-rows") + 1], "w", encoding="utf-8") as fh:
            json.dump(rows, fh)
    if "--json" in argv:
        with open(argv[argv.index("--json") + 1], "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
