"""Backend benchmark: Kùzu (embedded) at a given scale, plus the Bolt part when asked.

    python -m benchmarks.bench_backends --scale 100000 [--quick] [--bolt]

``run(scale, results, quick=False)`` (the perf.py section hook) writes ``benchmarks.synthetic``
triplets to CSV, loads them with ``byokg load --into kuzu:…`` (``load_kuzu``: Parquet + COPY
FROM, one ``REL`` table, FTS index on names) and measures p50 latencies with the same method as
``benchmarks.bench_bolt``: one-hop batch of 100 ids (cap 100), 2-hop follow-path
(``byokg.graph.paths.follow_paths``: one batched ``neighbors()`` per hop), native shortest path
(``* SHORTEST 1..3``) for connected (hit) and unconnected (miss) pairs.

The Bolt numbers come from ``benchmarks.bench_bolt.run_bolt``. perf.py already runs
``bench_bolt`` as its own section, so ``run`` calls it only with ``BYOKG_BENCH_BOLT_IN_BACKENDS=1``
(or ``--bolt`` on the command line); its metrics are then prefixed ``bolt_``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

from benchmarks.synthetic import write_csv
from benchmarks.timing import p50_ms


def _run_kuzu(scale: int, results: dict, *, quick: bool = False) -> None:
    from byokg.backends.kuzu import load_kuzu, open_kuzu

    from byokg.graph.paths import follow_paths

    reps = 5 if quick else 20
    with tempfile.TemporaryDirectory(prefix="byokg-bench-kuzu-") as tmp:
        csv_path = str(Path(tmp) / "kg.csv")
        write_csv(csv_path, scale, seed=0)
        uri = f"kuzu:{Path(tmp) / 'kg.kz'}"
        t0 = time.perf_counter()
        summary = load_kuzu([csv_path], uri)
        results["kuzu_load_s"] = round(time.perf_counter() - t0, 2)
        results["kuzu_triplets"] = summary.triplets
        results["kuzu_nodes"] = summary.nodes
        results["kuzu_db_mb"] = round(
            sum(f.stat().st_size for f in Path(tmp).glob("kg.kz*") if f.is_file()) / 2**20, 1
        )
        store = open_kuzu(uri, timeout_s=120)
        try:
            rng = random.Random(0)
            ids = [r[0] for r in store.query(
                "MATCH (n:Entity) RETURN n.id SKIP $s LIMIT 2000", {"s": rng.randrange(1000)}).rows]
            batches = [rng.sample(ids, 100) for _ in range(reps)]
            it = iter(batches)
            results["kuzu_one_hop_batch100_p50_ms"] = p50_ms(
                lambda: store.neighbors(next(it), limit_per_node=100), reps)
            two = store.query(
                "MATCH (a:Entity)-[r1:REL]->(b:Entity)-[r2:REL]->(c:Entity) "
                "RETURN a.id, r1.type, r2.type LIMIT 200").rows
            rels = store.relation_types()
            paths = [two[rng.randrange(len(two))] for _ in range(reps)]
            it2 = iter(paths)

            def follow():
                a, r1, r2 = next(it2)
                res = follow_paths(store, [a], [r1, r2], schema_relations=rels)
                assert res.paths, (a, r1, r2)

            results["kuzu_follow_2hop_p50_ms"] = p50_ms(follow, reps)
            hits = [tuple(r) for r in store.query(
                "MATCH (a:Entity)-[:REL]-(b:Entity)-[:REL]-(c:Entity) WHERE a <> c "
                "RETURN a.id, c.id LIMIT 500").rows]
            hit_pairs = [hits[rng.randrange(len(hits))] for _ in range(reps)]
            misses: list[tuple[str, str]] = []
            tries = 0
            while len(misses) < reps and tries < 50 * reps:
                tries += 1
                a, b = rng.sample(ids, 2)
                if not store.shortest_paths([(a, b)], max_hops=3)[(a, b)]:
                    misses.append((a, b))
            ith, itm = iter(hit_pairs), iter(misses)
            results["kuzu_shortest_hit_p50_ms"] = p50_ms(
                lambda: store.shortest_paths([next(ith)], max_hops=3), reps)
            if misses:
                results["kuzu_shortest_miss_p50_ms"] = p50_ms(
                    lambda: store.shortest_paths([next(itm)], max_hops=3), len(misses))
        finally:
            store.close()


def run(scale: int, results: dict, *, quick: bool = False, bolt: bool | None = None) -> None:
    """perf.py section hook: Kùzu, then (when enabled) the Bolt part with ``bolt_`` keys."""
    _run_kuzu(scale, results, quick=quick)
    if bolt is None:
        bolt = os.environ.get("BYOKG_BENCH_BOLT_IN_BACKENDS") == "1"
    if not bolt:
        return
    try:
        from benchmarks.bench_bolt import run_bolt
    except ImportError:
        return
    part: dict = {}
    run_bolt(scale, part, quick=quick)
    results.update({f"bolt_{k}": v for k, v in part.items()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=int, default=100_000)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--bolt", action="store_true", help="also run the Bolt (ArcadeDB) part")
    args = ap.parse_args()
    results: dict = {"scale": args.scale}
    run(args.scale, results, quick=args.quick, bolt=args.bolt)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
