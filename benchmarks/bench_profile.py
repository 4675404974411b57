"""Graph-profile benchmark: how long byokg takes to learn a graph it never saw.

* ``profile_memory_s``: profiling the synthetic graph of ``scale`` triplets in memory (labels,
  display choice, relation counts, domain/range pairs and exact cardinality over the edge
  arrays; goal ≤ 2 s at 1.5M), with ``profile_memory_load_s`` for the load itself;
* ``profile_northwind_kuzu_s`` / ``_queries`` and ``profile_northwind_bolt_s`` / ``_queries``:
  Northwind loaded with the packaged mapping minus its display-name hints, profiled from the
  catalogue and bounded samples (the query count does not grow with the graph);
  ``profile_cache_kuzu_s``: the same profile read back from the disk cache;
* ``typed_hit_at_1``: offline Hit@1 on the 25 one-fact lookups of the typed test graph
  (tests/typed/typed_graph.py, Kùzu) — answers in display names; ``first_prompt_chars``: the
  first KG-Linker prompt (with Cypher) for its first question.

Run alone: ``.venv/bin/python -m benchmarks.perf --only profile [--scale N] [--quick]``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
NORTHWIND = SHARED / "northwind" / "graph" / "import"

REFERENCE = {
    "profile_memory_s": {"goal": 2.0, "unit": " s", "note": "1.5M triplets in memory"},
}


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _unhinted_mapping(folder: Path) -> str:
    from byokg.io.pgmapping import northwind_mapping_path

    data = json.loads(northwind_mapping_path().read_text(encoding="utf-8"))
    for node in data["nodes"]:
        node.pop("name", None)
    path = folder / "northwind_unhinted.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _timed_profile(store, results: dict, key: str, *, cache_dir: str | None = None) -> None:
    from byokg.graph.profile import profile_graph

    t0 = time.perf_counter()
    prof = profile_graph(store, refresh=cache_dir is None, cache_dir=cache_dir)
    results[f"{key}_s"] = round(time.perf_counter() - t0, 3)
    results[f"{key}_queries"] = prof.queries


def _memory(scale: int, results: dict, tmp: Path) -> None:
    from byokg.backends.memory import load_path

    from benchmarks.synthetic import write_csv
    from byokg.graph.profile import profile_graph

    csv_path = write_csv(tmp / "kg.csv", scale, seed=0)
    t0 = time.perf_counter()
    graph, _ = load_path(csv_path)
    results["profile_memory_load_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    prof = profile_graph(graph, refresh=True)
    results["profile_memory_s"] = round(time.perf_counter() - t0, 3)
    results["profile_memory_relations"] = len(prof.relations)
    del graph


def _northwind_kuzu(results: dict, tmp: Path, mapping: str) -> None:
    from byokg.graph.open import open_graph
    from byokg.io.loading import load_into

    uri = f"kuzu:{tmp / 'nw.kz'}"
    load_into([str(NORTHWIND)], uri, mapping=mapping)
    store = open_graph(uri)
    try:
        _timed_profile(store, results, "profile_northwind_kuzu", cache_dir=None)
    finally:
        store.close()
    store = open_graph(uri)
    try:  # written by the profile above (BYOKG_CACHE_DIR points into tmp)
        t0 = time.perf_counter()
        from byokg.graph.profile import profile_graph

        prof = profile_graph(store)
        results["profile_cache_kuzu_s"] = round(time.perf_counter() - t0, 3)
        results["profile_cache_kuzu_hit"] = int(prof.source == "cache")
    finally:
        store.close()


def _northwind_bolt(results: dict, mapping: str) -> None:
    from byokg.graph.open import open_graph
    from byokg.io.loading import load_into

    servers = _module("byokg_test_servers", REPO / "tests" / "servers.py")
    with servers.ArcadeDBServer() as srv:
        db = srv.create_database("nw_profile")
        load_into([str(NORTHWIND)], srv.uri_for(db), mapping=mapping)
        store = open_graph(srv.uri_for(db))
        try:
            _timed_profile(store, results, "profile_northwind_bolt")
        finally:
            store.close()


def _typed(results: dict, tmp: Path) -> None:
    from byokg.plugins.kglinker.prompt import linker_prompt
    from byokg.plugins.kglinker.prompt import render_schema_for

    from byokg.config import RunConfig
    from byokg.graph.open import open_graph
    from byokg.graph.profile import profile_graph
    from byokg.language.analysis import analyze
    from byokg.models.similarity import Similarity
    from byokg.pipeline.engine import Engine

    typed = _module("typed_graph", REPO / "tests" / "typed" / "typed_graph.py")
    store = open_graph(typed.build_kuzu(tmp / "typed.kz"))
    try:
        eng = Engine(store, RunConfig())
        hits = sum(bool(a.answers) and a.answers[0] == gold
                   for a, gold in ((eng.ask(q), g) for q, g in typed.QUESTIONS))
        results["typed_hit_at_1"] = round(hits / len(typed.QUESTIONS), 3)
        prof = profile_graph(store)
        q = typed.QUESTIONS[0][0]
        prompt = linker_prompt(q, render_schema_for(prof, Similarity(analyze(q))), cypher=True,
                               dialect="kuzu", store=store, profile=prof)
        results["first_prompt_chars"] = prompt.chars
    finally:
        store.close()


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    with tempfile.TemporaryDirectory(prefix="byokg-bench-profile-") as tmp_name:
        tmp = Path(tmp_name)
        old = os.environ.get("BYOKG_CACHE_DIR")
        os.environ["BYOKG_CACHE_DIR"] = str(tmp / "cache")
        try:
            _memory(min(scale, 200_000) if quick else scale, results, tmp)
            if NORTHWIND.is_dir():
                mapping = _unhinted_mapping(tmp)
                _northwind_kuzu(results, tmp, mapping)
                if not quick:
                    _northwind_bolt(results, mapping)
                else:
                    print("[profile] --quick: the Northwind-on-Bolt figures are not taken",
                          file=sys.stderr)
            else:
                print(f"[profile] {NORTHWIND} not found (set BYOKG_SHARED_DATA): the Northwind "
                      "figures are not taken", file=sys.stderr)
            _typed(results, tmp)
        finally:
            if old is None:
                os.environ.pop("BYOKG_CACHE_DIR", None)
            else:
                os.environ["BYOKG_CACHE_DIR"] = old


if __name__ == "__main__":  # pragma: no cover
    out: dict = {}
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 1_500_000, out, quick="--quick" in sys.argv)
    print(json.dumps(out, indent=2))
