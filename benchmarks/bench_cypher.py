"""Cypher tool benchmark: guard / rewrite / LIMIT-injection cost over every gold query, and the
Northwind dev gold queries executed on Kùzu through the tool's path (latency, agreement).

    python -m benchmarks.perf --only cypher [--quick]

``scale`` is ignored (the Northwind graph has a fixed size); ``quick`` runs every 5th gold query
on Kùzu.
"""

from __future__ import annotations

import csv
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
NW = SHARED / "northwind"


def _gold_queries() -> list[str]:
    out: list[str] = []
    for f in sorted((NW / "text2cypher").glob("*.csv")):
        with open(f, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            if "cypher" in (reader.fieldnames or []):
                out += [r["cypher"] for r in reader]
    cb = SHARED / "cypherbench" / "cypherbench_test_sample_192_original.jsonl"
    with open(cb, encoding="utf-8") as fh:
        out += [json.loads(line)["gold_cypher"] for line in fh if line.strip()]
    return out


def norm_value(v: Any) -> Any:
    """A value in a comparable form: numbers rounded, nodes as sorted items, dates as text."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int | float):
        f = float(v)
        return round(f, 4) if not math.isfinite(f) or f != int(f) else int(f)
    if isinstance(v, dict):
        # "_…" are engine internals; "id" is the key the byokg Northwind mapping adds on Bolt
        return tuple(sorted((k, norm_value(x)) for k, x in v.items()
                            if not str(k).startswith("_") and k != "id"))
    if isinstance(v, list | tuple):
        return tuple(norm_value(x) for x in v)
    s = str(v)
    if len(s) >= 19 and s[4] == "-" and s[10] == "T":  # ISO datetime -> str(datetime) form
        s = s[:10] + " " + s[11:]
    return s


def rows_key(rows: Any) -> list[tuple]:
    """Rows as a sorted list of value-sorted tuples (column order ignored)."""
    return sorted((tuple(sorted((norm_value(x) for x in r), key=repr)) for r in rows), key=repr)


def same_rows(ours: Any, gold: Any, gold_cap: int = 50) -> bool:
    """Set equality on values, column order ignored; gold files keep only the first 50 rows,
    so a capped gold must be contained in ours."""
    a, b = rows_key(ours), rows_key(gold)
    if len(b) >= gold_cap:
        ca, cb = Counter(a), Counter(b)
        return all(ca[k] >= n for k, n in cb.items())
    return a == b


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    from byokg.cypher.dialects import rewrite
    from byokg.cypher.execute import Status
    from byokg.cypher.execute import execute
    from byokg.cypher.execute import inject_limit
    from byokg.cypher.guard import check_query

    queries = _gold_queries()
    t0 = time.perf_counter()
    accepted = sum(check_query(q, dialect="neo4j").allowed for q in queries)
    results["guard_us_per_query"] = (time.perf_counter() - t0) / len(queries) * 1e6
    results["guard_gold_accepted"] = accepted
    results["guard_gold_total"] = len(queries)
    t0 = time.perf_counter()
    for q in queries:
        rewrite(q, "kuzu")
    results["rewrite_kuzu_us_per_query"] = (time.perf_counter() - t0) / len(queries) * 1e6
    t0 = time.perf_counter()
    for q in queries:
        inject_limit(q, 51)
    results["inject_limit_us_per_query"] = (time.perf_counter() - t0) / len(queries) * 1e6

    from byokg.graph.open import open_graph
    from byokg.io.pgmapping import load_northwind

    with open(NW / "kuzu_gold_results.jsonl", encoding="utf-8") as fh:
        gold = [json.loads(line) for line in fh if line.strip()]
    if quick:
        gold = gold[::5]
    with tempfile.TemporaryDirectory() as tmp:
        uri = f"kuzu:{Path(tmp) / 'nw.kz'}"
        t0 = time.perf_counter()
        load_northwind(uri, NW / "graph" / "import")
        results["kuzu_northwind_load_s"] = time.perf_counter() - t0
        store = open_graph(uri)
        try:
            lat, runs, same, ok_total, newly = [], 0, 0, 0, 0
            for rec in gold:
                ex = execute(store, rec["cypher"], timeout_s=20, row_limit=5000)
                lat.append(ex.seconds * 1000)
                ran = ex.status in (Status.OK, Status.EMPTY)
                if rec["kuzu_status"] == "ok":
                    ok_total += 1
                    runs += ran
                    if ran:
                        same += same_rows(ex.result.rows, rec["kuzu_rows"])
                else:
                    newly += ran
        finally:
            store.close()
    lat.sort()
    results["kuzu_exec_p50_ms"] = statistics.median(lat)
    results["kuzu_exec_p95_ms"] = lat[int(0.95 * (len(lat) - 1))]
    results["kuzu_gold_run"] = runs
    results["kuzu_gold_same_rows"] = same
    results["kuzu_gold_total"] = ok_total
    results["kuzu_gold_errors_now_run"] = newly


if __name__ == "__main__":
    out: dict = {}
    run(0, out, quick="--quick" in sys.argv)
    for k, v in out.items():
        print(f"{k:32s} {v:.3f}" if isinstance(v, float) else f"{k:32s} {v}")
