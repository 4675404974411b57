"""Bolt (Neo4j backend) benchmark against a real ArcadeDB Bolt server, and the Northwind gold check.

    python -m benchmarks.bench_bolt --scale 100000 [--quick]      # load + query latencies
    python -m benchmarks.bench_bolt --northwind [--limit N]       # gold Cypher agreement

``run_bolt(scale, results, quick=False)`` (also ``run``, the perf.py section hook) starts ArcadeDB
(tests/servers.py) in a child process, loads ``benchmarks.synthetic`` triplets through
``byokg load`` (``load_neo4j``), and measures p50 latencies: one-hop batch of 100 ids (cap 100),
2-hop follow-path (byokg.graph.paths.follow_paths, one batched neighbors() call per hop), native
shortest path (``shortestPath``, max 3 hops) for connected (hit) and unconnected (miss) pairs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.timing import p50_ms

REPO = Path(__file__).resolve().parent.parent


def _servers():
    spec = importlib.util.spec_from_file_location(
        "byokg_test_servers", REPO / "tests" / "servers.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_bolt(scale: int, results: dict, *, quick: bool = False, heap: str = "4g") -> None:
    import random

    from byokg.backends.neo4j import load_neo4j
    from byokg.backends.neo4j import open_neo4j

    from benchmarks.synthetic import write_csv
    from byokg.graph.paths import follow_paths

    reps = 5 if quick else 20
    with _servers().ArcadeDBServer(heap=heap) as srv, tempfile.TemporaryDirectory() as tmp:
        csv_path = str(Path(tmp) / "kg.csv")
        write_csv(csv_path, scale, seed=0)
        db = srv.create_database("bench")
        t0 = time.perf_counter()
        summary = load_neo4j([csv_path], srv.uri_for(db))
        results["load_s"] = round(time.perf_counter() - t0, 2)
        results["triplets"] = summary.triplets
        results["nodes"] = summary.nodes
        store = open_neo4j(srv.uri_for(db), timeout_s=120)
        try:
            rng = random.Random(0)
            # node ids and real 2-hop relation paths, read back from the server
            ids = [
                r[0]
                for r in store.query(
                    "MATCH (n:Entity) RETURN n.id SKIP $s LIMIT 2000", {"s": rng.randrange(1000)}
                ).rows
            ]
            batches = [rng.sample(ids, 100) for _ in range(reps)]
            it = iter(batches)
            results["one_hop_batch100_p50_ms"] = p50_ms(
                lambda: store.neighbors(next(it), limit_per_node=100), reps
            )
            two = store.query(
                "MATCH (a:Entity)-[r1]->(b:Entity)-[r2]->(c:Entity) "
                "RETURN a.id, type(r1), type(r2) LIMIT 200"
            ).rows
            paths = [two[rng.randrange(len(two))] for _ in range(reps)]
            it2 = iter(paths)

            def follow():
                a, r1, r2 = next(it2)
                res = follow_paths(store, [a], [r1, r2], schema_relations=store.relation_types())
                assert res.paths, (a, r1, r2)

            results["follow_2hop_p50_ms"] = p50_ms(follow, reps)
            hits = [
                tuple(r)
                for r in store.query(
                    "MATCH (a:Entity)-[]-(b:Entity)-[]-(c:Entity) WHERE a <> c "
                    "RETURN a.id, c.id LIMIT 500"
                ).rows
            ]
            hit_pairs = [hits[rng.randrange(len(hits))] for _ in range(reps)]
            misses: list[tuple[str, str]] = []
            while len(misses) < reps:
                a, b = rng.sample(ids, 2)
                if not store.shortest_paths([(a, b)], max_hops=3)[(a, b)]:
                    misses.append((a, b))
            ith, itm = iter(hit_pairs), iter(misses)
            found = []

            def hit():
                pair = next(ith)
                found.append(bool(store.shortest_paths([pair], max_hops=3)[pair]))

            results["shortest_hit_p50_ms"] = p50_ms(hit, reps)
            if not all(found):
                raise AssertionError(f"shortest path missed a connected pair: {found}")
            results["shortest_miss_p50_ms"] = p50_ms(
                lambda: store.shortest_paths([next(itm)], max_hops=3), reps
            )
            # cross-check hop counts with the memory backend's exhaustive BFS on the same CSV
            from byokg.backends.memory import load_path

            from byokg.graph.paths import shortest_paths as bfs

            mem, _ = load_path(csv_path)
            pairs = hit_pairs + misses
            ref = bfs(mem, pairs, max_hops=3, k=1, hub_degree=10**9, max_expansions=10**9)
            got = store.shortest_paths(pairs, max_hops=3)
            agree = sum(
                len(ref.paths_for(a, b)[:1]) == len(got[(a, b)][:1])
                and all(x.hops == y.hops for x, y in zip(ref.paths_for(a, b)[:1], got[(a, b)][:1],
                                                          strict=False))
                for a, b in pairs
            )
            results["shortest_agree_with_memory"] = agree
            results["shortest_pairs_checked"] = len(pairs)
        finally:
            store.close()


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    """perf.py section hook."""
    run_bolt(scale, results, quick=quick)


# ------------------------------------------------------------------------- Northwind gold


# `byokg load` adds ``id = "Label:key"`` to property-graph nodes (byokg's node id); the Northwind
# CSVs have no ``id`` column, so whole-node rows are compared without it
_IGNORED_KEYS = frozenset({"id"})
_LIMIT = re.compile(r"\bLIMIT\b", re.I)
_ORDER = re.compile(r"\bORDER\s+BY\b", re.I)


def _norm(v: Any) -> Any:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int | float):
        f = float(v)
        return round(f, 4) if math.isfinite(f) else str(f)
    if isinstance(v, list | tuple):
        return tuple(_norm(x) for x in v)
    if isinstance(v, dict):  # a node/relationship: its properties, minus byokg's bookkeeping
        return tuple(sorted(
            (str(k), _norm(x)) for k, x in v.items()
            if not str(k).startswith("_") and str(k) not in _IGNORED_KEYS
        ))
    return str(v)


def rows_agree(a: list[list[Any]], b: list[list[Any]]) -> bool:
    """Same multiset of rows; values compared loosely (numbers rounded), column order ignored."""

    def key(rows):
        return Counter(tuple(sorted((_norm(v) for v in r), key=repr)) for r in rows)

    return key(a) == key(b)


def northwind_gold(
    store, gold_path: str | Path, *, limit: int | None = None, timeout_s: float = 20.0
) -> dict[str, int]:
    """Run each gold record's ORIGINAL ``cypher`` on ``store`` and compare with ``kuzu_rows``."""
    from byokg.errors import ByokgError

    out = Counter()
    with open(gold_path, encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    for rec in records[:limit]:
        out["total"] += 1
        kuzu_ok = rec["kuzu_status"] == "ok"
        out["kuzu_ok"] += kuzu_ok
        try:
            res = store.query(rec["cypher"], timeout_s=timeout_s, row_limit=10_000)
        except ByokgError:
            out["bolt_error"] += 1
            out["bolt_error_kuzu_ok"] += kuzu_ok
            continue
        out["bolt_ok"] += 1
        if kuzu_ok:
            out["both_ok"] += 1
            if rows_agree([list(r) for r in res.rows], rec["kuzu_rows"]):
                out["agree"] += 1
            elif _LIMIT.search(rec["cypher"]) and not _ORDER.search(rec["cypher"]):
                out["disagree_limit_without_order_by"] += 1  # any rows may be returned
            elif _LIMIT.search(rec["cypher"]):
                out["disagree_order_by_limit"] += 1  # often ties at the cut
        else:
            out["bolt_ok_kuzu_error"] += 1
    return dict(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=100_000)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--northwind", action="store_true")
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args(argv)
    if args.northwind:
        from byokg.backends.neo4j import mapping_name_properties
        from byokg.backends.neo4j import open_neo4j

        from byokg.io.pgmapping import load_northwind
        from byokg.io.pgmapping import northwind_mapping_path

        shared = REPO.parent / "shared" / "data" / "northwind"
        with _servers().ArcadeDBServer() as srv:
            db = srv.create_database("northwind")
            t0 = time.perf_counter()
            s = load_northwind(srv.uri_for(db), shared / "graph" / "import")
            print(f"loaded {s.nodes} nodes, {s.triplets} edges in {time.perf_counter() - t0:.1f}s")
            store = open_neo4j(
                srv.uri_for(db), name_properties=mapping_name_properties(northwind_mapping_path())
            )
            t0 = time.perf_counter()
            print(
                json.dumps(
                    northwind_gold(store, shared / "kuzu_gold_results.jsonl", limit=args.limit),
                    indent=1,
                )
            )
            print(f"gold queries ran in {time.perf_counter() - t0:.1f}s")
            store.close()
        return 0
    results: dict[str, Any] = {}
    run_bolt(args.scale, results, quick=args.quick)
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
