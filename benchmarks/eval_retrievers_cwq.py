"""Scoring retrievers on the CWQ questions of the tiny Freebase graph (gold topic entities).

    .venv/bin/python benchmarks/eval_retrievers_cwq.py [--limit N] [--json out.json]
        [--index-dir DIR] [--reranker-path DIR]

Linking is not measured: each question's ``topic_entities`` values are node names, which are
the node ids of ``freebase_tiny_kg.csv`` loaded as ``memory:``. For every question:

* ``eq10``: embedding triplet retrieval (Appendix A.1, Eq. 10) with precomputed MiniLM node-
  and relation-name vectors; candidates = edges of the 50 names nearest the question plus the
  topic entities' edges (the ``triplet-retrieval`` tool's defaults).
* ``eq10_unlinked``: the same without the topic entities (pure text retrieval).
* ``reranker``: the graph reranker (Appendix A.2): 2-hop subgraph of the topic entities,
  relations pruned to 20, triplets to 100 by MiniLM cosine, final order by a cross-encoder when
  ``--reranker-path`` names a local bge-reranker folder, else by MiniLM.

Reported: recall of a gold answer among the top 10 and top 50 triplets (a triplet "has" an
answer when its head or tail, by name after ``normalize``, is gold; gold = ``answers`` plus
``rog_answers``), p50/p95 latency per question, the share of questions whose 2-hop subgraph
(the reranker's own caps) contains a gold answer at all, and the one-off index build time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
KG = SHARED / "freebase" / "freebase_tiny_kg.csv"
QUESTIONS = SHARED / "freebase" / "cwq_tinykg_subset.jsonl"
KS = (10, 50)


def _hits(store, triplets, gold: set[str], cache: dict[str, str]) -> list[bool]:
    from byokg.language.text import normalize

    ids = [x for t in triplets for x in (t.head, t.tail) if x not in cache]
    if ids:
        for i, name in store.display_names(list(dict.fromkeys(ids))).items():
            cache[i] = normalize(name)
    return [cache[t.head] in gold or cache[t.tail] in gold for t in triplets]


def _summary(name: str, recall: dict[int, int], lat: list[float], n: int) -> dict[str, float]:
    lat = sorted(lat)
    out = {f"{name}_recall_at_{k}": recall[k] / n for k in KS}
    out[f"{name}_p50_ms"] = 1000 * statistics.median(lat)
    out[f"{name}_p95_ms"] = 1000 * lat[min(n - 1, int(0.95 * n))]
    return out


def evaluate(limit: int | None = None, *, index_dir: str | None = None,
             reranker_path: str | None = None) -> dict[str, float]:
    from byokg.plugins.scoring.scorers import get_triplet_index
    from byokg.plugins.scoring.scorers import rank_subgraph

    from byokg.config import RunConfig
    from byokg.graph.open import open_graph
    from byokg.graph.paths import expand
    from byokg.language.text import normalize
    from byokg.models.services import Services

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    store = open_graph(f"memory:{KG}")
    rows = [json.loads(x) for x in QUESTIONS.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = rows[:limit] if limit else rows
    cfg = RunConfig(embedder="minilm", index_dir=index_dir,
                    reranker="flag" if reranker_path else None)
    services = Services(cfg)
    reranker = None
    if reranker_path:
        from byokg import registry

        reranker = registry.rerankers().create("flag", path=reranker_path)
    t0 = time.perf_counter()
    index = get_triplet_index(store, services)
    build_s = time.perf_counter() - t0
    names: dict[str, str] = {}
    rec = {m: dict.fromkeys(KS, 0) for m in ("eq10", "eq10_unlinked", "reranker")}
    lat: dict[str, list[float]] = {m: [] for m in rec}
    reachable = 0
    seeds_missing = 0
    for row in rows:
        gold = {normalize(a) for a in row.get("answers", []) + row.get("rog_answers", [])}
        seeds = [s for s in row["topic_entities"].values() if store.has_node(s)]
        seeds_missing += len(row["topic_entities"]) - len(seeds)
        runs = {
            "eq10": lambda q=row["question"], s=seeds: index.search(q, seeds=s, k=max(KS)),
            "eq10_unlinked": lambda q=row["question"]: index.search(q, seeds=[], k=max(KS)),
            "reranker": lambda q=row["question"], s=seeds: rank_subgraph(
                q, store, s, embedder=services.embedder, reranker=reranker, k=max(KS)),
        }
        for m, fn in runs.items():
            t = time.perf_counter()
            ranked = fn()
            lat[m].append(time.perf_counter() - t)
            hits = _hits(store, ranked.triplets, gold, names)
            for k in KS:
                rec[m][k] += any(hits[:k])
        sub = expand(store, seeds, hops=2, per_node=200, max_triplets=5000)
        reachable += any(_hits(store, sub.triplets, gold, names))
    n = len(rows)
    out: dict[str, float] = {"questions": n}
    for m in rec:
        out.update(_summary(m, rec[m], lat[m], n))
    out["answer_in_2hop_subgraph"] = reachable / n
    out["topic_entities_not_in_graph"] = seeds_missing
    out["index_build_s"] = build_s
    out["index_names"] = len(index.dense)
    out["reranker_scorer_cross_encoder"] = float(reranker is not None)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", default=None, help="also write the metrics here")
    ap.add_argument("--index-dir", default=None, help="cache the MiniLM name index here")
    ap.add_argument("--reranker-path", default=None, help="local bge-reranker folder")
    args = ap.parse_args(argv)
    if not KG.exists() or not QUESTIONS.exists():
        sys.exit(f"data not found under {SHARED} (set BYOKG_SHARED_DATA)")
    res = evaluate(args.limit, index_dir=args.index_dir, reranker_path=args.reranker_path)
    for k, v in res.items():
        print(f"{k:40s} {v:.4g}" if isinstance(v, float) else f"{k:40s} {v}")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
