"""LLM calls and KG tokens per question, per eval strategy, with a scripted careful-reader LLM.

``python -m benchmarks.perf --only llmpath`` (or ``python -m benchmarks.bench_llmpath`` for a
table; every strategy, about 5–15 minutes on two cores; ``--quick``: ``multi`` only, 12 questions
per graph). The LLM is :mod:`benchmarks.scripted_llm` behind a local OpenAI-compatible server, so
the figures count what byokg asks for, not what a model happens to say: on the CWQ questions of
the tiny Freebase graph and the demo graph (memory), and on Northwind (Kùzu, loaded into a
temporary folder).

Metrics per ``<graph>.<strategy>``: ``calls_per_q`` (LLM calls), ``kg_tokens_per_q`` (tokens of
the context handed to the answer stage), ``repeat_prompts_per_q`` (prompts sent twice within one
question), ``tool_repeats_per_q`` (tool runs skipped as repeats), ``finish_q`` (share of
questions answered from the KG-Linker's FINISH answers), ``max_calls_finish_q`` (the most calls
any of those took) and ``hit`` (answer accuracy).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
STRATEGIES = ("vanilla-llm", "graph-query", "text-retrieval", "graph-reranker", "agentic", "multi")


def _per_question(preds: list[dict[str, Any]]) -> dict[str, float]:
    n = max(len(preds), 1)
    repeats = tools = finish = 0
    finish_calls = [p["metrics"].get("llm_calls", 0) for p in preds
                    if ((p.get("trace") or {}).get("counts") or {}).get("finish_answers")]
    for p in preds:
        calls = (p.get("trace") or {}).get("llm_calls") or []
        seen = Counter(c["prompt_checksum"] for c in calls)
        repeats += sum(v - 1 for v in seen.values())
        counts = (p.get("trace") or {}).get("counts") or {}
        tools += sum(v for k, v in counts.items() if k.startswith("tool_repeats."))
        finish += int(counts.get("finish_answers", 0) > 0)
    m = lambda k: sum(p["metrics"].get(k, 0) for p in preds) / n  # noqa: E731
    return {"calls_per_q": round(m("llm_calls"), 3), "kg_tokens_per_q": round(m("kg_tokens"), 1),
            "repeat_prompts_per_q": round(repeats / n, 3), "tool_repeats_per_q": round(tools / n, 3),
            "finish_q": round(finish / n, 3), "max_calls_finish_q": max(finish_calls, default=0),
            "hit": round(m("hit"), 3),
            "errors": sum(1 for p in preds if p.get("error"))}


def eval_strategy(graph: str, dataset: str, data: str, strategy: str, server: Any, out: Path,
                  *, limit: int, store: Any = None, workers: int = 1,
                  dataset_options: dict[str, Any] | None = None,
                  config: dict[str, Any] | None = None) -> dict[str, float]:
    """One eval run of ``strategy`` with the scripted server; per-question figures."""
    from byokg.config import RunConfig
    from byokg.eval.runner import EvalSettings, run_eval

    cfg = RunConfig(llm_options=server.llm_options(), **(config or {}))
    settings = EvalSettings(dataset=dataset, data=data, graph=graph, llm="openai:scripted",
                            strategy=strategy, limit=limit, workers=workers, config=cfg,
                            dataset_options=dataset_options or {})
    run_eval(settings, out, store=store, progress=False)
    preds = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines() if x]
    return _per_question(preds)


def northwind_store(folder: Path) -> Any:
    from byokg.graph.open import open_graph
    from byokg.io.pgmapping import load_northwind

    path = folder / "northwind.kz"
    load_northwind(f"kuzu:{path}", SHARED / "northwind" / "graph" / "import")
    return open_graph(f"kuzu:{path}")


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    from benchmarks.scripted_llm import ScriptedServer, cwq_plans, demo_plans, northwind_plans
    from byokg.demo import DEMO_QUESTIONS

    limit = 12 if quick else 30
    strategies = ("multi",) if quick else STRATEGIES  # the others embed a whole graph: slow
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        cwq = SHARED / "freebase" / "cwq_tinykg_subset.jsonl"
        with ScriptedServer(cwq_plans(cwq)) as srv:
            for s in strategies:
                if s == "graph-query":
                    continue
                got = eval_strategy(f"memory:{SHARED / 'freebase' / 'freebase_tiny_kg.csv'}",
                                    "cwq", str(cwq), s, srv, t / f"cwq-{s}", limit=limit)
                results.update({f"cwq.{s}.{k}": v for k, v in got.items()})
        with ScriptedServer(demo_plans(DEMO_QUESTIONS)) as srv:
            for s in strategies:
                if s == "graph-query":
                    continue  # the memory store has no Cypher
                got = eval_strategy("memory:demo", "jsonl", str(DEMO_QUESTIONS), s, srv,
                                    t / f"demo-{s}", limit=limit)
                results.update({f"demo.{s}.{k}": v for k, v in got.items()})
        store = northwind_store(t)
        try:
            plans = northwind_plans(SHARED / "northwind" / "kuzu_gold_results.jsonl")
            with ScriptedServer(plans) as srv:
                for s in strategies:
                    got = eval_strategy(store.uri, "northwind", str(SHARED / "northwind" / "text2cypher"),
                                        s, srv, t / f"nw-{s}", limit=limit // 2, store=store,
                                        dataset_options={"gold_source": "file"})
                    results.update({f"northwind.{s}.{k}": v for k, v in got.items()})
        finally:
            store.close()


if __name__ == "__main__":
    res: dict[str, Any] = {}
    run(1, res, quick="--quick" in sys.argv)
    for k, v in res.items():
        print(f"{k:50s} {v}")
