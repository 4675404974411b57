"""Offline reasoning benchmark: ``Engine.ask`` without an LLM on generated multi-hop graphs.

Metrics (flat, numeric):

* ``cinema_134k_p50_ms`` / ``_p95_ms``: latency per question on the film-centric generated graph
  (benchmarks/reasoning_graphs.py) at about 134k triples, default offline stages and tools
  (MiniLM similarity when installed), after one warm-up question;
* ``cinema_134k_hit1_{1,2,3}hop``: Hit@1 per hop count there (gold: the template's chain);
* ``cinema_scale_*``: the same at ``scale`` triples when ``scale`` is larger (1.5M in
  ``make bench``);
* ``synthetic_scale_*``: latency (and a sanity Hit@1) on the Freebase-like synthetic graph of
  benchmarks/synthetic.py at ``scale`` triplets (hubs, 2,000 dotted relations, CVT-like ids);
* ``library_untyped_hit1_{1,2,3}hop``: Hit@1 on the second generated graph (other names,
  directions), without its labels;
* ``moviekb_hit1_{1,2,3}hop`` / ``moviekb_p50_ms`` / ``_p95_ms``: the movie graph written the
  way a public movie-QA knowledge base is (``head|relation|tail``, no labels, relations such as
  ``directed_by`` / ``starred_actors`` / ``has_tags``, about 135k triples) with that benchmark's
  style of wording (lower case, no question mark, many phrasings per chain);
* ``*_lexical_*``: the same without the similarity model (``embedder="lexical"``).

Run alone: ``.venv/bin/python -m benchmarks.bench_reasoning [--quick] [--scale N] [--moviekb]``
(``--moviekb``: only the movie-QA-style section).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import defaultdict

from benchmarks import reasoning_graphs as rg
from benchmarks.timing import timed_asks

TRIPLES_PER_FILM = 10.4  # distinct triples per film, measured on the generator
BASE = 134_000

REFERENCE = {
    "cinema_134k_p50_ms": {"goal": 100.0, "unit": "ms"},
    "cinema_scale_p50_ms": {"goal": 300.0, "unit": "ms"},
    "synthetic_scale_p50_ms": {"goal": 300.0, "unit": "ms"},
}


def _evaluate(store, questions, *, embedder: str | None = None) -> dict[str, float]:
    from byokg.config import RunConfig
    from byokg.pipeline.engine import Engine

    eng = Engine(store, RunConfig(embedder=embedder) if embedder else RunConfig())
    eng.ask(questions[0].text)  # warm-up: profile, name index, model
    lat: list[float] = []
    hits: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for q in questions:
        t0 = time.perf_counter()
        a = eng.ask(q.text)
        lat.append(1000 * (time.perf_counter() - t0))
        first = (a.answer_ids.get(a.answers[0]) or [a.answers[0]])[0] if a.answers else None
        hits[q.n_hops][0] += first in q.answers
        hits[q.n_hops][1] += 1
    lat.sort()
    out = {"p50_ms": round(statistics.median(lat), 2),
           "p95_ms": round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 2)}
    for h, (n, t) in sorted(hits.items()):
        out[f"hit1_{h}hop"] = round(n / t, 3)
    return out


def _cinema(triples: int, questions: int):
    from byokg.backends.memory import MemoryGraph

    g = rg.cinema(max(50, int(triples / TRIPLES_PER_FILM)), questions=questions)
    return g, MemoryGraph.from_triplets(g.triples, uri=f"memory:cinema-{triples}")


def _synthetic(scale: int, results: dict, n: int) -> None:
    """Latency on the Freebase-like synthetic graph (2,000 dotted relations, power-law hubs,
    CVT-like ids): questions "What is the <relation words> of <head>?" from sampled triplets."""
    import random

    from byokg.backends.memory import MemoryGraph

    from benchmarks.synthetic import generate
    from byokg.config import RunConfig
    from byokg.graph.profile import is_unnamed
    from byokg.pipeline.engine import Engine

    store = MemoryGraph.from_triplets(generate(scale, seed=0), uri=f"memory:synthetic-{scale}")
    rng = random.Random(0)
    qs: list[tuple[str, str]] = []
    while len(qs) < n:
        t = store._triplet(rng.randrange(len(store)))
        if is_unnamed(t.head) or is_unnamed(t.tail):
            continue
        qs.append((f"What is the {t.relation.split('.')[-1].replace('_', ' ')} of {t.head}?",
                   t.tail))
    eng = Engine(store, RunConfig())
    eng.ask(qs[0][0])
    lat, hits = timed_asks(eng, qs)
    results["synthetic_scale_triples"] = scale
    results["synthetic_scale_p50_ms"] = round(statistics.median(lat), 2)
    results["synthetic_scale_p95_ms"] = round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 2)
    results["synthetic_scale_hit1"] = round(hits / len(qs), 3)


MOVIEKB_TRIPLES = 135_000


def _moviekb(questions: int):
    from byokg.backends.memory import MemoryGraph

    g = rg.moviekb(int(MOVIEKB_TRIPLES / rg.MOVIEKB_TRIPLES_PER_FILM), questions=questions)
    return g, MemoryGraph.from_triplets(g.triples, uri="memory:moviekb")


def run_moviekb(results: dict, n: int) -> None:
    """The movie-QA-style graph: ``n`` questions per hop count, with and without MiniLM."""
    g, store = _moviekb(n)
    results["moviekb_triples"] = len(g.triples)
    for k, v in _evaluate(store, g.questions).items():
        results[f"moviekb_{k}"] = v
    for k, v in _evaluate(store, g.questions, embedder="lexical").items():
        results[f"moviekb_lexical_{k}"] = v


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    n = 10 if quick else 30
    run_moviekb(results, 30 if quick else 100)
    g, store = _cinema(BASE, n)
    results["cinema_134k_triples"] = len(g.triples)
    for k, v in _evaluate(store, g.questions).items():
        results[f"cinema_134k_{k}"] = v
    for k, v in _evaluate(store, g.questions, embedder="lexical").items():
        results[f"cinema_134k_lexical_{k}"] = v
    del store
    if scale > BASE * 1.5:
        g, store = _cinema(scale, n)
        results["cinema_scale_triples"] = len(g.triples)
        for k, v in _evaluate(store, g.questions).items():
            results[f"cinema_scale_{k}"] = v
        del store
    _synthetic(scale, results, n)
    from byokg.backends.memory import MemoryGraph

    lib = rg.library(300, questions=n)
    store = MemoryGraph.from_triplets(lib.triples, uri="memory:library")
    for k, v in _evaluate(store, lib.questions).items():
        if k.startswith("hit1"):
            results[f"library_untyped_{k}"] = v


if __name__ == "__main__":
    res: dict = {}
    scale = int(sys.argv[sys.argv.index("--scale") + 1]) if "--scale" in sys.argv else BASE
    if "--moviekb" in sys.argv:  # that section alone
        run_moviekb(res, 30 if "--quick" in sys.argv else 100)
    else:
        run(scale, res, quick="--quick" in sys.argv)
    for key, val in res.items():
        print(f"{key:<34} {val}")
