"""Offline linker on the CWQ questions of the tiny Freebase graph (memory backend, no LLM).

    .venv/bin/python benchmarks/eval_offline_cwq.py [--limit N] [--json out.json] [--data F]

``--data`` takes another file of the same shape (``webqsp_test.jsonl``); questions without
gold answers are skipped.

Reports Hit@1 (first answer is gold), Hit (any returned answer is gold), answer recall in the
retrieved context (a gold answer is a node of the final context), LLM calls per question, p50 /
p95 latency per question, and the first KG-Linker prompt size for this 968-relation graph.
Gold = the question's ``answers`` (ToG) plus ``rog_answers``; names compared after normalize().

It also reports what the graph itself allows (``ceiling_*``, no byokg code involved): an oracle
that knows each question's gold topic entities *and* its gold relation paths (RoG), follows
those paths in the graph (stored direction, or either direction) and answers with the end set.
``ceiling_hit`` counts questions where the end set holds a gold answer; ``ceiling_hit1`` is the
expected Hit@1 of picking one member of the smallest such end set at random.
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


def first_prompt_chars(store, question: str) -> int:
    from byokg.plugins.kglinker.prompt import linker_prompt
    from byokg.plugins.kglinker.prompt import render_schema_for

    from byokg.language.analysis import analyze
    from byokg.models.similarity import Similarity

    schema_text = render_schema_for(store.schema(samples=1), Similarity(analyze(question)))
    return linker_prompt(question, schema_text).chars


def ceiling(rows: list[dict]) -> dict[str, float]:
    """The gold-path oracle of the module doc, over the same questions (ToG ``answers`` only)."""
    import csv
    from collections import defaultdict

    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    back: dict[tuple[str, str], set[str]] = defaultdict(set)
    with KG.open(encoding="utf-8", newline="") as fh:
        for h, r, t in csv.reader(fh):
            out[(h, r)].add(t)
            back[(t, r)].add(h)

    def follow(start: str, path: list[str], either: bool) -> set[str]:
        cur = {start}
        for r in path:
            cur = {x for n in cur for x in out.get((n, r), ())} | (
                {x for n in cur for x in back.get((n, r), ())} if either else set())
        return cur

    res: dict[str, float] = {}
    for either, tag in ((False, "directed"), (True, "either")):
        hit = exp = 0.0
        for row in rows:
            gold, topics = {a for a in row["answers"] if a}, set(row["topic_entities"].values())
            sizes = [len(ends) for p in row.get("gold_relation_paths") or [] for t in topics
                     if (ends := follow(t, p, either) - topics) & gold]
            hit += bool(sizes)
            exp += 1.0 / min(sizes) if sizes else 0.0
        res[f"ceiling_{tag}_hit"] = hit / len(rows)
        res[f"ceiling_{tag}_hit1"] = exp / len(rows)
    return res


def evaluate(limit: int | None = None, data: Path = QUESTIONS) -> dict[str, float]:
    from byokg.graph.open import open_graph
    from byokg.graph.profile import display_names
    from byokg.language.text import normalize
    from byokg.pipeline.engine import Engine

    t0 = time.perf_counter()
    store = open_graph(f"memory:{KG}")
    load_s = time.perf_counter() - t0
    rows = [json.loads(x) for x in data.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = [r for r in rows if any(r.get("answers") or [])]
    rows = rows[:limit] if limit else rows
    eng = Engine(store)
    hit1 = hit = recall = calls = 0
    lat = []
    for row in rows:
        gold = {normalize(a) for a in (row.get("answers") or []) + (row.get("rog_answers") or [])
                if a}
        t = time.perf_counter()
        ans = eng.ask(row["question"])
        lat.append(time.perf_counter() - t)
        got = [normalize(a) for a in ans.answers]
        hit1 += bool(got) and got[0] in gold
        hit += any(g in gold for g in got)
        ids = {
            n
            for it in ans.context
            for n in (list(it.nodes) + [x for tr in it.triplets for x in (tr.head, tr.tail)])
        }
        names = {normalize(v) for v in display_names(store, list(ids)).values()} if ids else set()
        recall += bool(names & gold)
        calls += len(ans.trace.llm_calls)
    n = len(rows)
    lat.sort()
    return {
        "questions": n,
        "hit_at_1": hit1 / n,
        "hit": hit / n,
        "context_answer_recall": recall / n,
        "llm_calls_per_question": calls / n,
        "latency_p50_ms": 1000 * statistics.median(lat),
        "latency_p95_ms": 1000 * lat[min(n - 1, int(0.95 * n))],
        "graph_load_s": load_s,
        "first_prompt_chars": first_prompt_chars(store, rows[0]["question"]),
        **ceiling(rows),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", dest="out", default=None)
    ap.add_argument("--data", type=Path, default=QUESTIONS)
    args = ap.parse_args(argv)
    res = evaluate(args.limit, args.data)
    for k, v in res.items():
        print(f"{k:<26} {v:.3f}" if isinstance(v, float) else f"{k:<26} {v}")
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=2))


if __name__ == "__main__":
    sys.exit(main())
