"""Backend benchmark: the same measurements on every store byokg writes with ``byokg load``.

    python -m benchmarks.bench_backends --scale 100000 [--quick] [--parts kuzu,ladybug,…]

Parts: ``kuzu`` and ``ladybug`` (embedded files), ``falkordb`` (a real FalkorDB server,
tests/servers.py) and ``bolt`` (the ArcadeDB Bolt server, tests/servers.py). Each part runs in
its own interpreter (``--part NAME`` prints its JSON), so Kùzu and LadybugDB both run in-process
(their native modules cannot share one) and one part's memory does not weigh on the next.

Per part, with ``benchmarks.synthetic`` triplets at ``scale`` loaded through ``byokg load``
(keys prefixed with the part's name):

* ``load_s`` — ``byokg load`` of the synthetic CSV; ``northwind_load_s`` — the Northwind CSVs
  (``../shared/data/northwind``) with the packaged mapping;
* ``link_p50_ms`` — one mention linked to nodes: the store's full-text index where it has one
  (``link_method`` = ``fulltext``), else byokg's own name index built from
  ``iter_node_names`` (``name-index``; ``name_index_build_s`` is that build) plus a
  ``get_nodes`` of the hits;
* ``one_hop_batch100_p50_ms`` — ``neighbors()`` of 100 ids, cap 100 per node;
* ``two_hop_p50_ms`` — a 2-relation ``follow_paths`` (one batched ``neighbors()`` per hop);
* ``shortest_hit_p50_ms`` — a connected pair, 3 hops at most;
* ``cypher_roundtrip_p50_ms`` — ``execute()`` of a parameterised one-hop Cypher query: guard,
  worker process, engine, rows back (the worker is started before timing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.synthetic import write_csv
from benchmarks.timing import p50_ms

REPO = Path(__file__).resolve().parent.parent
NORTHWIND = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data")) / \
    "northwind" / "graph" / "import"
PARTS = ("kuzu", "ladybug", "falkordb", "bolt")


def _servers() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("byokg_test_servers",
                                                  REPO / "tests" / "servers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _targets(part: str, tmp: str) -> tuple[Callable[[str], str], Any]:
    """(name -> a new target URI, server to stop or None) for a part."""
    if part in ("kuzu", "ladybug"):
        suffix = ".kz" if part == "kuzu" else ".lbug"
        return (lambda name: f"{part}:{Path(tmp) / (name + suffix)}"), None
    srv = _servers().FalkorDBServer() if part == "falkordb" else _servers().ArcadeDBServer()
    srv.start()
    if part == "falkordb":
        return srv.uri_for, srv
    return (lambda name: srv.uri_for(srv.create_database(name))), srv


def _two_hops(store: Any, ids: list[str], rng: random.Random, n: int) -> list[tuple]:
    """``n`` (a, r1, r2, c) walks along outgoing edges, found with batched neighbours."""
    out: list[tuple] = []
    for _ in range(50):
        if len(out) >= n:
            break
        starts = rng.sample(ids, min(100, len(ids)))
        first = store.neighbors(starts, direction="out", limit_per_node=5)
        mids = {t.tail: (a, t.relation) for a, h in first.items() for t in h.triplets}
        second = store.neighbors(list(mids), direction="out", limit_per_node=5)
        for b, h in second.items():
            for t in h.triplets:
                a, r1 = mids[b]
                if t.tail != a:
                    out.append((a, r1, t.relation, t.tail))
    return out[:n]


def _link(store: Any, results: dict, p: str, names: list[tuple[str, str]], reps: int,
          rng: random.Random) -> None:
    mentions = [n for _, n in rng.sample(names, min(reps, len(names)))]
    it = iter(mentions * 2)
    if "fulltext" in store.capabilities:
        results[f"{p}_link_method"] = "fulltext"
        results[f"{p}_link_p50_ms"] = p50_ms(lambda: store.fulltext_search([next(it)], k=3),
                                             len(mentions))
        return
    from byokg.linking.fuzzy import NameIndex

    t0 = time.perf_counter()
    index = NameIndex.from_store(store)
    results[f"{p}_name_index_build_s"] = round(time.perf_counter() - t0, 2)
    results[f"{p}_link_method"] = "name-index"

    def link() -> None:
        found = index.search([next(it)], top_k=3)[0]
        store.get_nodes(found.ids)

    results[f"{p}_link_p50_ms"] = p50_ms(link, len(mentions))


def run_part(part: str, scale: int, results: dict, *, quick: bool = False) -> None:
    """One store: load, link, one-hop, two-hop, shortest path, Cypher round trip, Northwind."""
    from byokg.cypher.execute import Status
    from byokg.cypher.execute import execute
    from byokg.graph.open import open_graph
    from byokg.graph.paths import follow_paths
    from byokg.io.loading import load_into
    from byokg.io.pgmapping import load_northwind

    reps, p = (5 if quick else 20), part
    with tempfile.TemporaryDirectory(prefix=f"byokg-bench-{part}-") as tmp:
        target, server = _targets(part, tmp)
        try:
            csv_path = str(Path(tmp) / "kg.csv")
            write_csv(csv_path, scale, seed=0)
            uri = target("synthetic")
            t0 = time.perf_counter()
            summary = load_into([csv_path], uri)
            results[f"{p}_load_s"] = round(time.perf_counter() - t0, 2)
            results[f"{p}_triplets"] = summary.triplets
            store = open_graph(uri, timeout_s=120)
            try:
                if hasattr(store, "hosted"):  # the embedded engines
                    results[f"{p}_in_process"] = not store.hosted
                rng = random.Random(0)
                names = next(iter(store.iter_node_names(2000)))
                ids = list(dict.fromkeys(i for i, _ in names))
                _link(store, results, p, names, reps, rng)
                batches = [rng.sample(ids, 100) for _ in range(reps)]
                it = iter(batches)
                results[f"{p}_one_hop_batch100_p50_ms"] = p50_ms(
                    lambda: store.neighbors(next(it), limit_per_node=100), reps)
                walks = _two_hops(store, ids, rng, reps)
                rels = store.relation_types()
                it2 = iter(walks)

                def follow() -> None:
                    a, r1, r2, _ = next(it2)
                    assert follow_paths(store, [a], [r1, r2], schema_relations=rels).paths

                results[f"{p}_two_hop_p50_ms"] = p50_ms(follow, len(walks))
                it3 = iter(walks)
                results[f"{p}_shortest_hit_p50_ms"] = p50_ms(
                    lambda: store.shortest_paths([(lambda w: (w[0], w[3]))(next(it3))],
                                                 max_hops=3), len(walks))
                q = {"kuzu": "MATCH (a:Entity {id: $id})-[r:REL]->(b) RETURN b.id, r.type",
                     "ladybug": "MATCH (a:Entity {id: $id})-[r:REL]->(b) RETURN b.id, r.type",
                     }.get(part, "MATCH (a:Entity {id: $id})-[r]->(b) RETURN b.id, type(r)")
                warm = execute(store, q, {"id": ids[0]})
                assert warm.status in (Status.OK, Status.EMPTY), warm.error
                it4 = iter(rng.choices(ids, k=reps))
                results[f"{p}_cypher_roundtrip_p50_ms"] = p50_ms(
                    lambda: execute(store, q, {"id": next(it4)}), reps)
            finally:
                store.close()
            if NORTHWIND.is_dir():
                t0 = time.perf_counter()
                load_northwind(target("northwind"), NORTHWIND)
                results[f"{p}_northwind_load_s"] = round(time.perf_counter() - t0, 2)
        finally:
            if server is not None:
                server.stop()


def run(scale: int, results: dict, *, quick: bool = False,
        parts: tuple[str, ...] | None = None) -> None:
    """perf.py section hook: every part in its own interpreter (``BYOKG_BENCH_BACKENDS`` picks
    them, default all); a part that fails is reported as ``<part>_error``."""
    chosen = parts or tuple(x for x in os.environ.get("BYOKG_BENCH_BACKENDS",
                                                      ",".join(PARTS)).split(",") if x)
    for part in chosen:
        cmd = [sys.executable, "-m", "benchmarks.bench_backends", "--part", part,
               "--scale", str(scale)] + (["--quick"] if quick else [])
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=3600)
        try:
            results.update(json.loads(proc.stdout.strip().splitlines()[-1]))
        except (IndexError, ValueError):
            results[f"{part}_error"] = (proc.stderr.strip().splitlines() or ["no output"])[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=int, default=100_000)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--part", choices=PARTS, help="run one part here, print its JSON")
    ap.add_argument("--parts", help=f"comma-separated parts (default {','.join(PARTS)})")
    args = ap.parse_args()
    results: dict = {}
    if args.part:
        run_part(args.part, args.scale, results, quick=args.quick)
        print(json.dumps(results))
        return
    parts = tuple(args.parts.split(",")) if args.parts else None
    results["scale"] = args.scale
    run(args.scale, results, quick=args.quick, parts=parts)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
