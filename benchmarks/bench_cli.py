"""CLI benchmark: one ``byokg ask`` on the shared Freebase sample, as a user runs it.

``byokg ask "Where was Wynton Marsalis born?" --graph memory:<freebase_tiny_kg.csv>`` in a fresh
process, first with an empty cache folder (``BYOKG_CACHE_DIR``: profile, name index and text
vectors are built and written) and then with that cache (the median of ``reps`` runs):

* ``cli_default_first_s`` / ``cli_default_cached_s``: the install this runs in, or
  ``$BYOKG_BENCH_DEFAULT_PYTHON``'s (MiniLM's weights installed: the ``minilm`` model of
  meaning; goal ≤ 2 s once its cache exists);
* ``cli_core_first_s`` / ``cli_core_cached_s``: the core install (``pip install byokg``: no
  MiniLM; goal ≤ 1 s). Its interpreter is ``$BYOKG_BENCH_CORE_PYTHON``, else a core virtual
  environment is made in a temporary folder (``python -m venv`` then ``pip install -c
  constraints.txt .``); ``core_env_mb`` is that environment's size (goal ≤ 250 MB);
* ``cli_<install>_cached_cpu_s``: the CPU time (user + system) of the cached runs, what their
  wall time is on an idle machine (the wall time on a shared machine is mostly waiting);
* ``*_right``: 1 when the first answer is New Orleans;
* where the time goes, per install and cache state, from the same question run phase by phase
  in a fresh process (``<install>_<first|cached>_<phase>_s``): ``imports`` (byokg, the engine,
  the memory backend and the built-in plugins), ``open`` (reading the CSV), ``profile``,
  ``index`` (the fuzzy name index), ``model`` (loading the model of meaning) and ``ask`` (the
  question, embeddings included); ``startup`` is the rest of the process's wall time
  (interpreter start, exit). The phase run sets the collector as the command's process does
  (``byokg.cli.run``: higher thresholds, objects frozen at exit).

Timings on a shared machine vary with its load: the JSON records the load average. Run alone:
``.venv/bin/python -m benchmarks.perf --only cli [--quick]``.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
FREEBASE = SHARED / "freebase" / "freebase_tiny_kg.csv"
QUESTION = "Where was Wynton Marsalis born?"
GOLD = "New Orleans"

REFERENCE = {
    "cli_default_cached_s": {"goal": 2.0, "unit": " s", "note": "MiniLM installed, cache exists"},
    "cli_core_cached_s": {"goal": 1.0, "unit": " s", "note": "core install, cache exists"},
    "core_env_mb": {"goal": 250.0, "unit": " MB", "note": "fresh core virtual environment"},
}

PHASES = r"""
import json, sys, time
t = time.perf_counter()
out = {}
def lap(name):
    global t
    now = time.perf_counter(); out[name] = now - t; t = now
import gc, byokg.cli, byokg.pipeline.engine
gc.set_threshold(*byokg.cli.GC_THRESHOLDS)  # as the command's process (byokg.cli.run)
from byokg import registry
registry.backends(); registry.tools()
lap("imports")
from byokg.graph.open import open_graph
store = open_graph(sys.argv[1]); lap("open")
from byokg.graph.profile import profile_graph
profile_graph(store); lap("profile")
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine
engine = Engine(store, RunConfig())
from byokg.linking.indexes import get_name_index
get_name_index(store, engine.services); lap("index")
from byokg.models.similarity import semantic_model
model = semantic_model(engine.services); lap("model")
answer = engine.ask(sys.argv[2]); lap("ask")
out["answer"] = (answer.answers or [""])[0]
out["model_name"] = getattr(model, "name", None) or "none (lexical)"
print(json.dumps(out))
gc.freeze()
"""


def _env(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "BYOKG_CACHE_DIR": str(cache)}


def _cpu() -> float:
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _cli(python: str, cache: Path) -> tuple[float, str, float]:
    """Wall time of one ``byokg ask`` process, its first answer line and its CPU time."""
    c0 = _cpu()
    t0 = time.perf_counter()
    done = subprocess.run([python, "-m", "byokg.cli", "ask", QUESTION, "--graph",
                           f"memory:{FREEBASE}"], capture_output=True, text=True,
                          env=_env(cache), cwd=cache.parent, timeout=600, check=False)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"byokg ask failed: {done.stderr.strip()[-400:]}")
    return wall, (done.stdout.splitlines() or [""])[0], _cpu() - c0


def _phases(python: str, cache: Path) -> dict:
    t0 = time.perf_counter()
    done = subprocess.run([python, "-c", PHASES, f"memory:{FREEBASE}", QUESTION],
                          capture_output=True, text=True, env=_env(cache), timeout=600,
                          cwd=cache.parent, check=False)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"phase run failed: {done.stderr.strip()[-400:]}")
    got = json.loads(done.stdout.strip().splitlines()[-1])
    timed = sum(v for v in got.values() if isinstance(v, float))
    got["startup"] = max(0.0, wall - timed)
    return got


def _measure(python: str, tag: str, reps: int, results: dict, notes: dict) -> None:
    with tempfile.TemporaryDirectory(prefix=f"byokg-bench-cli-{tag}-") as tmp:
        cache = Path(tmp) / "cache"  # the processes run in tmp: no source tree on their path
        first, answer, _ = _cli(python, cache)  # builds and writes the caches
        runs = [_cli(python, cache) for _ in range(reps)]
        results[f"cli_{tag}_first_s"] = round(first, 2)
        results[f"cli_{tag}_cached_s"] = round(statistics.median(r[0] for r in runs), 2)
        # CPU seconds (user + system) of the same runs: what the wall time is on an idle core
        results[f"cli_{tag}_cached_cpu_s"] = round(statistics.median(r[2] for r in runs), 2)
        results[f"cli_{tag}_right"] = int(answer == GOLD)
        notes[f"{tag}_answer"] = answer
        cold = _phases(python, Path(tmp) / "cold")
        warm = _phases(python, cache)
        notes[f"{tag}_model"] = warm.get("model_name")
        for state, got in (("first", cold), ("cached", warm)):
            for k, v in got.items():
                if isinstance(v, float):
                    results[f"{tag}_{state}_{k}_s"] = round(v, 3)


def _core_python(tmp: Path) -> tuple[str, float | None]:
    """A core install's interpreter and its environment's size in MB (None: not measured)."""
    given = os.environ.get("BYOKG_BENCH_CORE_PYTHON")
    if given:
        prefix = Path(given).absolute().parent.parent  # the venv (its python is a symlink)
        return given, _size_mb(prefix)
    venv = tmp / "core-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "-c", str(REPO / "constraints.txt"),
                    str(REPO)], check=True, timeout=1200, capture_output=True)
    return str(py), _size_mb(venv)


def _size_mb(folder: Path) -> float:
    """Bytes of the files under ``folder`` (symbolic links not followed), in MB."""
    total = 0
    for root, _dirs, files in os.walk(folder):
        for f in files:
            p = Path(root) / f
            if not p.is_symlink():
                total += p.stat().st_size
    return round(total / 2**20, 1)


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    if not FREEBASE.is_file():
        raise FileNotFoundError(f"{FREEBASE} not found (set BYOKG_SHARED_DATA)")
    reps = 1 if quick else 3
    notes: dict[str, str | None] = {}
    try:
        results["load_avg_1m_before"] = round(os.getloadavg()[0], 2)
    except OSError:
        pass
    _measure(os.environ.get("BYOKG_BENCH_DEFAULT_PYTHON") or sys.executable, "default", reps,
             results, notes)
    tmp = Path(tempfile.mkdtemp(prefix="byokg-bench-core-"))
    try:
        python, size = _core_python(tmp)
        if size is not None:
            results["core_env_mb"] = size
        _measure(python, "core", reps, results, notes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    try:
        results["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    except OSError:
        pass
    print("bench_cli:", json.dumps(notes), file=sys.stderr)
