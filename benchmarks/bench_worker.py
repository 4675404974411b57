"""Isolated execution: what running untrusted Cypher in a worker process costs.

    python -m benchmarks.perf --only worker [--quick]

On the Northwind graph in Kùzu, the same read queries run through ``byokg.cypher.execute``
in-process (``isolated=False``) and in the store's worker process, interleaved so both see the
same cache state; the overhead is the median over queries of (worker p50 - in-process p50).
Also: the EXPLAIN second opinion's cost, a worker's start time and how long a crashed worker
takes to be replaced. ``scale`` is ignored (the graph has a fixed size).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
NW = SHARED / "northwind"

REFERENCE = {
    "worker_overhead_p50_ms": {"goal": 2.0, "unit": " ms",
                               "note": "added per query by the worker process (p50)"},
}

QUERIES = [
    "MATCH (p:Product {productName: 'Chai'}) RETURN p.unitPrice",
    "MATCH (c:Category) RETURN c.categoryName ORDER BY c.categoryName",
    "MATCH (p:Product)-[:PART_OF]->(c:Category) RETURN c.categoryName, count(p) AS n",
    "MATCH (s:Supplier)-[:SUPPLIES]->(p:Product) WHERE p.unitPrice > 50 RETURN s.companyName",
    "MATCH (c:Customer) WHERE c.country = 'Germany' RETURN c.companyName LIMIT 10",
    "MATCH (c:Customer)-[:PURCHASED]->(o:`Order`) RETURN c.companyName, count(o) AS n "
    "ORDER BY n DESC LIMIT 5",
    "MATCH (o:`Order`)-[r:ORDERS]->(p:Product) RETURN p.productName, sum(r.quantity) AS q "
    "ORDER BY q DESC LIMIT 5",
    "MATCH (p:Product) WHERE p.discontinued = true RETURN count(p)",
]


def _p50(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    from byokg.cypher.execute import Status
    from byokg.cypher.execute import execute
    from byokg.cypher.worker import pool_for
    from byokg.graph.open import open_graph
    from byokg.io.pgmapping import load_northwind

    reps = 20 if quick else 100
    with tempfile.TemporaryDirectory() as tmp:
        uri = f"kuzu:{Path(tmp) / 'nw.kz'}"
        load_northwind(uri, NW / "graph" / "import")
        store = open_graph(uri)
        try:
            t0 = time.perf_counter()
            first = execute(store, QUERIES[0], confirm=False)
            results["worker_first_query_ms"] = (time.perf_counter() - t0) * 1000
            assert first.status is Status.OK, first.error
            inproc, iso, iso_confirm = [], [], []
            for q in QUERIES:
                for _ in range(3):  # warm both paths
                    execute(store, q, isolated=False, confirm=False)
                    execute(store, q, confirm=False)
                a = b = c = 0.0
                for _ in range(2):  # interleave: the same cache state for each mode
                    a += _p50(lambda q=q: execute(store, q, isolated=False, confirm=False), reps)
                    b += _p50(lambda q=q: execute(store, q, confirm=False), reps)
                    c += _p50(lambda q=q: execute(store, q), reps)
                inproc.append(a / 2)
                iso.append(b / 2)
                iso_confirm.append(c / 2)
            results["inprocess_p50_ms"] = round(statistics.median(inproc), 3)
            results["worker_p50_ms"] = round(statistics.median(iso), 3)
            results["worker_overhead_p50_ms"] = round(
                statistics.median(b - a for a, b in zip(inproc, iso, strict=True)), 3)
            results["explain_check_p50_ms"] = round(
                statistics.median(c - b for b, c in zip(iso, iso_confirm, strict=True)), 3)
            crash = "RETURN " + "size([" * 400 + "1" + "])" * 400
            t0 = time.perf_counter()
            ex = execute(store, crash, confirm=False)
            results["crash_detected_ms"] = (time.perf_counter() - t0) * 1000
            assert ex.error_kind == "crashed", (ex.status, ex.error)
            t0 = time.perf_counter()
            execute(store, QUERIES[0], confirm=False)  # starts the replacement worker
            results["worker_replaced_ms"] = (time.perf_counter() - t0) * 1000
            results["workers_started"] = pool_for(store).started
        finally:
            store.close()


if __name__ == "__main__":
    out: dict = {}
    run(0, out, quick="--quick" in sys.argv)
    for k, v in out.items():
        print(f"{k:28s} {v:.3f}" if isinstance(v, float) else f"{k:28s} {v}")
