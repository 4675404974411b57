"""Memory backend: load time and RSS growth at scale, plus batched neighbour lookups.

Each load runs in a fresh subprocess (so earlier sections' allocations and imports don't
pollute RSS): RSS is read with psutil after ``import byokg.backends.memory`` (baseline) and
after ``load_path`` returns (``rss_mb`` = the difference: the resident cost of the loaded graph,
including any reader library the load imports). ``peak_rss_mb`` is the high-water mark over the
same baseline (``VmHWM``). ``cpu_s`` is the process CPU time of the load (all threads), which shows how
much of ``load_s`` was waiting for a shared CPU.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REFERENCE = {
    "load_s": {"anchor": 11.5, "goal": 5.0, "unit": " s", "note": "anchor indexes heads only"},
    "load_s_rerun": {"anchor": 11.5, "goal": 5.0, "unit": " s"},
    "rss_mb": {"anchor": 864, "goal": 400, "unit": " MB", "note": "every node, both directions"},
    "rss_mb_rerun": {"anchor": 864, "goal": 400, "unit": " MB"},
}

_CHILD = r"""
import gc, json, resource, sys, time
import psutil
proc = psutil.Process()
import numpy as np
import byokg.backends.memory as mem
from byokg.contracts import Direction
path, engine, quick = sys.argv[1], sys.argv[2], sys.argv[3] == "1"


def peak_mb():
    # VmHWM is this process image's high-water mark; ru_maxrss would include the parent's
    # RSS at fork time (Linux keeps it across exec).
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


gc.collect()
base = proc.memory_info().rss
c0 = proc.cpu_times()
t0 = time.perf_counter()
if engine == "auto":
    g, rep = mem.load_path(path)
else:
    from byokg.io.readers import load_csv, trim_heap
    b, rep = load_csv(path, builder=mem.GraphBuilder(), engine=engine)
    g = b.build("memory:" + path, rep)
    del b
    trim_heap()
load_s = time.perf_counter() - t0
c1 = proc.cpu_times()
gc.collect()
out = {
    "load_s": load_s,
    "cpu_s": (c1.user + c1.system) - (c0.user + c0.system),
    "rss_mb": (proc.memory_info().rss - base) / 2**20,
    "peak_rss_mb": peak_mb() - base / 2**20,
    "nodes": len(g._ids),
    "triplets": len(g),
    "relations": len(g._rels),
    "duplicates": rep.duplicates,
}
if engine == "auto":
    rng = np.random.default_rng(0)
    ids = [g._ids[i] for i in rng.choice(len(g._ids), size=min(1000, len(g._ids)), replace=False)]
    deg = np.bincount(g.heads, minlength=len(g._ids)) + np.bincount(g.tails, minlength=len(g._ids))
    hub = g._ids[int(deg.argmax())]
    rels = g._rels[:20]
    reps = 1 if quick else 5

    def best(fn):
        times = []
        for _ in range(reps):
            t = time.perf_counter(); r = fn(); times.append(time.perf_counter() - t)
        return min(times) * 1000, r

    ms, res = best(lambda: g.neighbors(ids, limit_per_node=100))
    out["nbr_batch1000_cap100_ms"] = ms
    out["nbr_batch1000_triplets"] = sum(len(n.triplets) for n in res.values())
    ms, res = best(lambda: g.neighbors(ids, relations=rels, limit_per_node=100))
    out["nbr_batch1000_rel20_ms"] = ms
    ms, res = best(lambda: g.neighbors([hub], direction=Direction.BOTH))
    out["nbr_hub_uncapped_ms"] = ms
    out["nbr_hub_triplets"] = len(res[hub].triplets)
    ms, _ = best(lambda: g.degrees(ids))
    out["degrees_batch1000_ms"] = ms
    t = time.perf_counter(); g.node_ids_by_name(["x"]); out["name_index_build_s"] = time.perf_counter() - t
print("RESULT " + json.dumps(out))
"""


def _child(path: str, engine: str, quick: bool) -> dict:
    repo = Path(__file__).resolve().parent.parent
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, path, engine, "1" if quick else "0"],
        capture_output=True,
        text=True,
        cwd=repo,
        timeout=1800,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise RuntimeError(f"load subprocess failed (exit {proc.returncode}): {proc.stderr[-800:]}")


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    from benchmarks.synthetic import write_csv

    with tempfile.TemporaryDirectory(prefix="byokg-bench-mem-") as tmp:
        path = str(Path(tmp) / f"synthetic_{scale}.csv")
        t0 = time.perf_counter()
        write_csv(path, scale, seed=0)
        results["generate_csv_s"] = round(time.perf_counter() - t0, 3)
        results["csv_mb"] = round(Path(path).stat().st_size / 2**20, 1)
        first = _child(path, "auto", quick)
        results["triplets"] = first["triplets"]
        results["nodes"] = first["nodes"]
        results["relations"] = first["relations"]
        results["load_s"] = round(first["load_s"], 3)
        results["cpu_s"] = round(first["cpu_s"], 3)
        results["rss_mb"] = round(first["rss_mb"], 1)
        results["peak_rss_mb"] = round(first["peak_rss_mb"], 1)
        for key in (
            "nbr_batch1000_cap100_ms",
            "nbr_batch1000_triplets",
            "nbr_batch1000_rel20_ms",
            "nbr_hub_uncapped_ms",
            "nbr_hub_triplets",
            "degrees_batch1000_ms",
            "name_index_build_s",
        ):
            v = first[key]
            results[key] = round(v, 3) if isinstance(v, float) else v
        if not quick:  # CPU is often shared: a second fresh process shows the spread
            again = _child(path, "auto", quick)
            results["load_s_rerun"] = round(again["load_s"], 3)
            results["cpu_s_rerun"] = round(again["cpu_s"], 3)
            results["rss_mb_rerun"] = round(again["rss_mb"], 1)
            # the pure-Python reader (used without pyarrow, and for quoted or irregular files)
            py = _child(path, "python", quick)
            results["load_s_python_reader"] = round(py["load_s"], 3)
            results["cpu_s_python_reader"] = round(py["cpu_s"], 3)
            results["rss_mb_python_reader"] = round(py["rss_mb"], 1)
