"""Routing and the query critic on the Northwind question set (Kùzu), with the scripted LLM.

``python -m benchmarks.perf --only routing`` (or ``python -m benchmarks.bench_routing [--quick]
[--limit N]`` for a table). The LLM is :mod:`benchmarks.scripted_llm` in its noisy mode behind a
local OpenAI-compatible server: its queries are the gold query, with a misspelt-label copy of it
written first — so what is measured is what byokg does with a model's mistakes (repair calls,
candidates checked by execution, the critic), not what a model knows.

Rows per ``northwind.<strategy>``: ``exec_acc`` (rows of the first query in the context equal the
gold rows), ``hit`` (an answer is a gold cell), ``calls_per_q`` (LLM calls), ``critic_per_q``,
``cypher_first`` (share answered by a routing winner), ``computed`` (share answered by Python
arithmetic, no answer call), on the aggregation questions (``agg.``: the question asks to count,
sum, average, compare or rank) and on all questions.

Strategies: ``graph-query`` (routing off, critic off), ``graph-query-critic`` (critic on),
``routed-query`` (routing on), ``routed-critic`` (both on); ``--strategies multi,routed`` runs
others (every default tool, routing off / on). ``--shape``: the copy written first runs but has
the wrong shape (the first matched label's nodes) instead of a misspelt label.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
STRATEGIES = ("graph-query", "graph-query-critic", "routed-query", "routed-critic")


def _figures(preds: list[dict[str, Any]]) -> dict[str, float]:
    n = max(len(preds), 1)

    def mean(key: str) -> float:
        return round(sum(float(p["metrics"].get(key, 0) or 0) for p in preds) / n, 3)

    return {"n": len(preds), "exec_acc": mean("exec_acc"), "hit": mean("hit"),
            "calls_per_q": mean("llm_calls"), "critic_per_q": mean("critic_calls"),
            "cypher_first": mean("cypher_first"), "computed": mean("computed_answer"),
            "errors": sum(1 for p in preds if p.get("error"))}


def run(scale: int, results: dict, *, quick: bool = False, limit: int | None = None,
        strategies: tuple[str, ...] = STRATEGIES, noisy: bool | str = True) -> None:
    from benchmarks.bench_llmpath import northwind_store
    from benchmarks.scripted_llm import ScriptedServer
    from benchmarks.scripted_llm import northwind_plans
    from byokg.config import RunConfig
    from byokg.eval.runner import EvalSettings
    from byokg.eval.runner import run_eval
    from byokg.language.analysis import analyze

    limit = limit or (60 if quick else None)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        store = northwind_store(t)
        try:
            plans = northwind_plans(SHARED / "northwind" / "kuzu_gold_results.jsonl")
            with ScriptedServer(plans, noisy=noisy) as srv:
                for s in strategies:
                    out = t / f"nw-{s}"
                    cfg = RunConfig(llm_options=srv.llm_options())
                    settings = EvalSettings(
                        dataset="northwind", data=str(SHARED / "northwind" / "text2cypher"),
                        graph=store.uri, llm="openai:scripted", strategy=s, limit=limit,
                        config=cfg, dataset_options={"gold_source": "file"})
                    run_eval(settings, out, store=store, progress=False)
                    preds = [json.loads(x) for x in
                             (out / "predictions.jsonl").read_text().splitlines() if x]
                    agg = [p for p in preds if analyze(p["question"]).aggregate is not None]
                    for k, v in _figures(preds).items():
                        results[f"northwind.{s}.{k}"] = v
                    for k, v in _figures(agg).items():
                        results[f"northwind.{s}.agg.{k}"] = v
        finally:
            store.close()


if __name__ == "__main__":
    res: dict[str, Any] = {}
    lim = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else None
    only = tuple(sys.argv[sys.argv.index("--strategies") + 1].split(",")) \
        if "--strategies" in sys.argv else STRATEGIES
    noise: bool | str = "shape" if "--shape" in sys.argv else True
    run(1, res, quick="--quick" in sys.argv, limit=lim, strategies=only, noisy=noise)
    for k, v in res.items():
        print(f"{k:50s} {v}")
