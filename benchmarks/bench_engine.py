"""Engine benchmark: offline ``ask`` latency on a synthetic Freebase-like graph, prompt size with
2,000 relations, parser and context-merge throughput.

Metrics (flat, numeric):

* ``engine_offline_p50_ms`` / ``engine_offline_p95_ms``: ``Engine.ask`` with the offline linker
  (2 rounds max, default tools) on ``scale`` synthetic triplets, questions made from sampled
  triplets (``What is the <relation words> of <head name>?``);
* ``engine_offline_hit1``: share of those questions whose first answer is the triplet's tail
  (a sanity figure: synthetic relation names carry little meaning);
* ``engine_first_prompt_chars``: KG-Linker round-1 prompt size for the synthetic schema;
* ``parser_replies_per_s``: ``parse_reply`` on a 2 kB reply with broken tags;
* ``context_merge_items_per_s``: ``Context.add`` + ``select`` on 5,000 items, half duplicates.

Run alone: ``.venv/bin/python -m benchmarks.bench_engine [--quick]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from benchmarks.timing import timed_asks


def _store(scale: int):
    from byokg.backends.memory import MemoryGraph

    from benchmarks.synthetic import generate

    return MemoryGraph.from_triplets(generate(scale, seed=0), uri=f"memory:synthetic-{scale}")


def _questions(store, n: int, seed: int = 0) -> list[tuple[str, str]]:
    from byokg.graph.profile import is_unnamed as unnamed

    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    m = len(store)
    tries = 0
    while len(out) < n and tries < n * 50:
        tries += 1
        e = rng.randrange(m)
        t = store._triplet(e)
        if unnamed(t.head, t.head) or unnamed(t.tail, t.tail):
            continue
        words = t.relation.split(".")[-1].replace("_", " ")
        out.append((f"What is the {words} of {t.head}?", t.tail))
    return out


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    from byokg.plugins.kglinker.prompt import linker_prompt
    from byokg.plugins.kglinker.prompt import parse_reply
    from byokg.plugins.kglinker.prompt import render_schema_for

    from byokg.contracts import ContextItem
    from byokg.language.analysis import analyze
    from byokg.models.similarity import Similarity
    from byokg.pipeline.context import Context
    from byokg.pipeline.engine import Engine

    store = _store(scale)
    eng = Engine(store)
    qs = _questions(store, 20 if quick else 100)
    lat, hits = timed_asks(eng, qs)
    results["engine_offline_p50_ms"] = round(statistics.median(lat), 2)
    results["engine_offline_p95_ms"] = round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 2)
    results["engine_offline_hit1"] = round(hits / len(qs), 3)
    schema = render_schema_for(store.schema(samples=1), Similarity(analyze(qs[0][0]), eng.services))
    results["engine_first_prompt_chars"] = linker_prompt(qs[0][0], schema).chars

    reply = (
        "<|im_start|><entities>\n"
        + "\n".join(f"- entity {i}" for i in range(40))
        + "\n<relation-paths>\n```\n"
        + "\n".join(f"a.b.r{i} -> c.d.r{i}" for i in range(40))
        + "\n</relation-paths><answers>x\n"
    )
    n = 200 if quick else 1000
    t0 = time.perf_counter()
    for _ in range(n):
        parse_reply(reply)
    results["parser_replies_per_s"] = round(n / (time.perf_counter() - t0), 1)

    items = [
        ContextItem(text=f"fact {i % 2500}", tool=f"t{i % 3}", score=(i % 7) / 7)
        for i in range(5000)
    ]
    t0 = time.perf_counter()
    ctx = Context(4000)
    ctx.add(items)
    ctx.select()
    results["context_merge_items_per_s"] = round(len(items) / (time.perf_counter() - t0), 1)


if __name__ == "__main__":
    res: dict = {}
    run(100_000, res, quick="--quick" in sys.argv)
    for k, v in res.items():
        print(f"{k:<30} {v}")
