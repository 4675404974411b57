"""The LLM path on Northwind in Kùzu with the scripted careful reader: the `multi` strategy spends
one call on a question the first round's query answers (its rows fit the question: no second
KG-Linker round, no answer call), sends no prompt twice and runs no tool request twice; the
Cypher result reaches the answer."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import northwind_plans
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine


@pytest.fixture(scope="module")
def northwind(northwind_kuzu):
    return northwind_kuzu


@pytest.mark.slow
def test_multi_on_northwind_first_round_answers_in_one_call(northwind, shared_data, tool_runs):
    gold_file = shared_data / "northwind" / "kuzu_gold_results.jsonl"
    plans = northwind_plans(gold_file)
    cells: dict[str, set[str]] = {}
    for line in gold_file.read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        # a whole node's answer is one of its property values (its name or key)
        cells.setdefault(obj["question"].strip(), {
            str(x) for r in obj.get("kuzu_rows") or [] for v in r
            for x in ([v, *v.values()] if isinstance(v, dict) else [v])})
    ran = tool_runs
    with ScriptedServer(plans) as srv:
        eng = Engine(northwind, RunConfig(llm="openai:scripted", llm_options=srv.llm_options()))
        finished = 0
        for question in list(plans)[:15]:
            a = eng.ask(question)
            calls = a.trace.llm_calls
            assert max(Counter(c.prompt_checksum for c in calls).values()) == 1, question
            if a.trace.counts.get("finish_answers"):
                finished += 1
                assert len(calls) <= 2, (question, [c.purpose for c in calls])
                assert "answer" not in {c.stage for c in calls}
                # the gold query's rows as this engine ran them: "top 3 categories" cuts a tie
                # (12 products: three categories) where the engine happens to order it
                ran_cells = {str(v) for it in a.context if it.kind == "query" and it.rows
                             for r in it.rows.rows for v in r}
                assert ran_cells, question
                assert set(a.answers) <= cells[question] | ran_cells, question
                assert set(a.answers) & cells[question], question
            summary = a.trace.stage_summary()
            assert sum(s.calls for s in summary.values()) == len(calls)
    assert finished >= 10
    assert max(Counter(ran).values()) == 1
    assert not [r for r in ran if r[1] == "agentic" and r[2] is None]
