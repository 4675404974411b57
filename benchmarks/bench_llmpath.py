"""LLM calls, prompt sizes and KG tokens per question, per eval strategy, with a scripted
careful-reader LLM.

``python -m benchmarks.perf --only llmpath`` (or ``python -m benchmarks.bench_llmpath`` for a
table; every strategy, about 15–25 minutes on two busy cores; ``--quick``: ``multi`` only, 12
questions per graph; ``--strategies multi,hybrid`` and ``--graphs northwind,typed`` choose;
``--json FILE`` writes the figures; ``--keep DIR`` keeps each run's folder, its
``predictions.jsonl`` with every question's trace, for reading). The LLM is :mod:`benchmarks.scripted_llm` behind a local
OpenAI-compatible server, so the figures count what byokg asks for, not what a model happens to
say: on the CWQ questions of the tiny Freebase graph and the demo graph (memory), on Northwind
(Kùzu, loaded into a temporary folder), and on the typed festival graph of
:mod:`benchmarks.llmpath_graph` built in Kùzu in two naming styles (``camel``: ``Artist.stageName``,
dates as ``'2016-05-06 00:00:00.000'`` text; ``spaced``: ``Performer.`Known As```, dates as
``'2016/05/06'`` text).

Metrics per ``<graph>.<strategy>``: ``calls_per_q`` (LLM calls), ``prompt_tokens_per_q``,
``kg_tokens_per_q`` (tokens of the context handed to the answer stage), ``max_prompt_chars``
and ``prompts_over_8k`` (prompts longer than 8,000 characters, of ``prompts``),
``repeat_prompts_per_q`` (prompts sent twice within one question), ``tool_repeats_per_q``
(tool runs skipped as repeats), ``finish_q`` (share of questions answered from the KG-Linker's
FINISH answers), ``max_calls_finish_q`` (the most calls any of those took), ``hit`` and ``f1``
(answer accuracy), ``silent_cuts`` (questions whose answer list is shorter than the gold answers
the retrieved query rows hold, or whose reply lost answers to a cap, without the answer saying
it was cut: ``truncated``) and ``errors``. For ``hybrid``: ``kept_offline`` (questions answered
by the offline pass alone, no LLM call), ``offline_answerable`` (questions whose offline answer
is right: a hit among its first five answers) and ``calls_offline_answerable`` (LLM calls per
question on those: the issue's "≤ 1.0 on questions the offline path can answer"; it needs an
offline answerer that sets ``confidence`` — without one every question goes to the LLM).
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from byokg.eval.metrics import hit
from byokg.eval.metrics import normalize_answer

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
STRATEGIES = ("vanilla-llm", "graph-query", "text-retrieval", "graph-reranker", "agentic", "multi",
              "hybrid")
GRAPHS = ("cwq", "demo", "northwind", "typed")
TYPED_STYLES = ("camel", "spaced")
PROMPT_GOAL = 8000  # characters


def _prompts(p: dict[str, Any]) -> list[int]:
    """Characters of every prompt the question sent (the trace's prompt events)."""
    return [int(ev["data"]["chars"]) for ev in (p.get("trace") or {}).get("events") or []
            if isinstance((ev.get("data") or {}).get("chars"), int)]


def _silent_cut(p: dict[str, Any]) -> bool:
    """The answer lost answers the context held (or a reply lost items to a cap) and does not
    say it was cut."""
    if p.get("truncated"):
        return False
    answers = p.get("answers") or []
    gold = {normalize_answer(g) for g in p.get("gold") or []} - {""}
    # rows of the first query result that hold a gold answer: one answer each is expected
    held = {tuple(map(str, r)) for r in p.get("rows") or []
            if any(normalize_answer(v) in gold for v in r if v is not None)}
    if len(held) > 1 and len(answers) < len(held):
        return True
    events = (p.get("trace") or {}).get("events") or []
    return any("<answers>" in ev.get("message", "") and "kept the first" in ev.get("message", "")
               for ev in events)


OFFLINE_SHOWN = 5  # offline answers the hybrid note of a question sent to the LLM keeps


def _offline_answers(p: dict[str, Any]) -> list[str] | None:
    """The hybrid strategy's offline answers of a question (None: no offline pass ran): the
    first five, whether kept or not (the note of a question sent to the LLM keeps five, so a
    kept answer is judged on as many)."""
    counts = (p.get("trace") or {}).get("counts") or {}
    if counts.get("hybrid_offline"):
        return list(p.get("answers") or [])[:OFFLINE_SHOWN]
    for ev in (p.get("trace") or {}).get("events") or []:
        if ev.get("message", "").startswith("hybrid:") and "offline_answers" in ev.get("data", {}):
            return list(ev["data"]["offline_answers"])
    return None


def _hybrid(preds: list[dict[str, Any]]) -> dict[str, float]:
    """For the hybrid strategy: questions kept offline (no LLM call), questions the offline
    pass answers right (``offline_answerable``) and the LLM calls spent on those."""
    offline = [(p, _offline_answers(p)) for p in preds]
    if all(a is None for _, a in offline):
        return {}
    ok = [p for p, a in offline if a is not None and hit(a, p.get("gold") or [])]
    kept = sum(1 for p in preds if ((p.get("trace") or {}).get("counts") or {})
               .get("hybrid_offline"))
    return {"kept_offline": kept, "offline_answerable": len(ok),
            "calls_offline_answerable": round(sum(p["metrics"].get("llm_calls", 0) for p in ok)
                                              / max(len(ok), 1), 3)}


def _per_question(preds: list[dict[str, Any]]) -> dict[str, float]:
    n = max(len(preds), 1)
    repeats = tools = finish = 0
    finish_calls = [p["metrics"].get("llm_calls", 0) for p in preds
                    if ((p.get("trace") or {}).get("counts") or {}).get("finish_answers")]
    chars: list[int] = []
    prompt_tokens = 0
    for p in preds:
        calls = (p.get("trace") or {}).get("llm_calls") or []
        prompt_tokens += sum(int(c.get("prompt_tokens") or 0) for c in calls)
        seen = Counter(c["prompt_checksum"] for c in calls)
        repeats += sum(v - 1 for v in seen.values())
        counts = (p.get("trace") or {}).get("counts") or {}
        tools += sum(v for k, v in counts.items() if k.startswith("tool_repeats."))
        finish += int(counts.get("finish_answers", 0) > 0)
        chars += _prompts(p)
    m = lambda k: sum(p["metrics"].get(k, 0) for p in preds) / n  # noqa: E731
    hybrid = _hybrid(preds)
    return {**hybrid,"calls_per_q": round(m("llm_calls"), 3),
            "prompt_tokens_per_q": round(prompt_tokens / n, 1),
            "kg_tokens_per_q": round(m("kg_tokens"), 1),
            "max_prompt_chars": max(chars, default=0),
            "prompts_over_8k": sum(1 for c in chars if c > PROMPT_GOAL), "prompts": len(chars),
            "repeat_prompts_per_q": round(repeats / n, 3), "tool_repeats_per_q": round(tools / n, 3),
            "finish_q": round(finish / n, 3), "max_calls_finish_q": max(finish_calls, default=0),
            "hit": round(m("hit"), 3), "f1": round(m("f1"), 3),
            "silent_cuts": sum(1 for p in preds if _silent_cut(p)),
            "errors": sum(1 for p in preds if p.get("error"))}


def eval_strategy(graph: str, dataset: str, data: str, strategy: str, server: Any, out: Path,
                  *, limit: int, store: Any = None, workers: int = 1,
                  dataset_options: dict[str, Any] | None = None,
                  config: dict[str, Any] | None = None) -> dict[str, float]:
    """One eval run of ``strategy`` with the scripted server; per-question figures."""
    from byokg.config import RunConfig
    from byokg.eval.runner import EvalSettings
    from byokg.eval.runner import run_eval

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


def typed_graph(folder: Path, style: str) -> tuple[Any, Path, dict[str, Any]]:
    """The festival graph in ``style`` (Kùzu), its questions as a JSONL dataset, their plans."""
    from benchmarks.llmpath_graph import build
    from benchmarks.scripted_llm import typed_plans
    from byokg.graph.open import open_graph

    uri, qs = build(folder / f"festivals-{style}.kz", style)
    data = folder / f"festivals-{style}.jsonl"
    data.write_text("".join(json.dumps({"id": q.id, "question": q.question,
                                        "answers": q.answers or ["none"]}) + "\n" for q in qs),
                    encoding="utf-8")
    return open_graph(uri), data, typed_plans(qs)


def _known(strategies: tuple[str, ...]) -> tuple[str, ...]:
    from byokg.eval.runner import STRATEGIES as KNOWN

    missing = [s for s in strategies if s not in KNOWN]
    if missing:
        print(f"note: strategies not in this byokg: {', '.join(missing)} (skipped)",
              file=sys.stderr)
    return tuple(s for s in strategies if s in KNOWN)


def run(scale: int, results: dict, *, quick: bool = False,
        strategies: tuple[str, ...] | None = None, graphs: tuple[str, ...] = GRAPHS,
        keep: Path | None = None) -> None:
    from benchmarks.scripted_llm import ScriptedServer
    from benchmarks.scripted_llm import cwq_plans
    from benchmarks.scripted_llm import demo_plans
    from benchmarks.scripted_llm import northwind_plans
    from byokg.demo import DEMO_QUESTIONS

    limit = 12 if quick else 30
    if strategies is None:  # the others embed a whole graph: slow
        strategies = ("multi",) if quick else STRATEGIES
    strategies = _known(strategies)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        if keep is not None:  # the runs' predictions stay there (the graphs stay temporary)
            keep.mkdir(parents=True, exist_ok=True)
            t = keep
        cwq = SHARED / "freebase" / "cwq_tinykg_subset.jsonl"
        if "cwq" in graphs:
            with ScriptedServer(cwq_plans(cwq)) as srv:
                for s in strategies:
                    if s == "graph-query":
                        continue
                    got = eval_strategy(f"memory:{SHARED / 'freebase' / 'freebase_tiny_kg.csv'}",
                                        "cwq", str(cwq), s, srv, t / f"cwq-{s}", limit=limit)
                    results.update({f"cwq.{s}.{k}": v for k, v in got.items()})
        if "demo" in graphs:
            with ScriptedServer(demo_plans(DEMO_QUESTIONS)) as srv:
                for s in strategies:
                    if s == "graph-query":
                        continue  # the memory store has no Cypher
                    got = eval_strategy("memory:demo", "jsonl", str(DEMO_QUESTIONS), s, srv,
                                        t / f"demo-{s}", limit=limit)
                    results.update({f"demo.{s}.{k}": v for k, v in got.items()})
        if "northwind" in graphs:
            store = northwind_store(t)
            try:
                plans = northwind_plans(SHARED / "northwind" / "kuzu_gold_results.jsonl")
                with ScriptedServer(plans) as srv:
                    for s in strategies:
                        got = eval_strategy(store.uri, "northwind",
                                            str(SHARED / "northwind" / "text2cypher"), s, srv,
                                            t / f"nw-{s}", limit=limit // 2, store=store,
                                            dataset_options={"gold_source": "file"})
                        results.update({f"northwind.{s}.{k}": v for k, v in got.items()})
            finally:
                store.close()
        if "typed" in graphs:
            for style in TYPED_STYLES:
                store, data, plans = typed_graph(t, style)
                try:
                    with ScriptedServer(plans) as srv:
                        for s in strategies:
                            got = eval_strategy(store.uri, "jsonl", str(data), s, srv,
                                                t / f"typed-{style}-{s}", limit=limit,
                                                store=store)
                            results.update({f"typed-{style}.{s}.{k}": v for k, v in got.items()})
                finally:
                    store.close()


def main(argv: list[str] | None = None) -> None:
    """The command line: a table of ``<graph>.<strategy>.<metric>`` figures."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_llmpath",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="multi only, 12 questions per graph")
    ap.add_argument("--strategies", help=f"comma-separated, of {','.join(STRATEGIES)}")
    ap.add_argument("--graphs", help=f"comma-separated, of {','.join(GRAPHS)}")
    ap.add_argument("--json", type=Path, help="write the figures to this file")
    ap.add_argument("--keep", type=Path,
                    help="keep each run's folder (predictions.jsonl) under this folder")
    args = ap.parse_args(argv)
    res: dict[str, Any] = {}
    run(1, res, quick=args.quick,
        strategies=tuple(args.strategies.split(",")) if args.strategies else None,
        graphs=tuple(args.graphs.split(",")) if args.graphs else GRAPHS, keep=args.keep)
    for k, v in res.items():
        print(f"{k:50s} {v}")
    if args.json:
        args.json.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
