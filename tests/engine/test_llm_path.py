"""The LLM path with a scripted careful-reader LLM behind the local OpenAI-compatible server:
FINISH answers without an answer call, no repeated tool request, the call budget, the per-stage
trace summary, and the ≤ 4 calls the `multi` strategy may spend on a question the first round
answers (demo graph here; Northwind on Kùzu in test_llm_path_northwind.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchmarks.scripted_llm import Plan
from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import demo_plans
from byokg.config import RunConfig
from byokg.demo import DEMO_QUESTIONS
from byokg.pipeline.engine import Engine

QUESTIONS = [json.loads(x) for x in DEMO_QUESTIONS.read_text(encoding="utf-8").splitlines() if x]


@pytest.fixture(scope="module")
def demo_server():
    with ScriptedServer(demo_plans(DEMO_QUESTIONS)) as srv:
        yield srv


WYNTON = "<entities>\nWynton Marsalis\n</entities>\n<relation-paths>\nborn_in\n</relation-paths>"


def _finishing(finish: str, answer: str = "New Orleans"):
    """A script: link Wynton Marsalis and born_in, reply ``finish`` to the iterative prompt and
    ``answer`` to the answer prompt."""

    def script(prompt, n):
        if prompt.startswith("Answer the question"):
            return f"<answers>\n{answer}\n</answers>"
        return finish if "Graph context retrieved so far" in prompt else WYNTON

    return script


def _engine(store, srv, **cfg):
    return Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options(), **cfg))


def test_multi_spends_at_most_four_calls_when_the_first_round_answers(demo_store, demo_server,
                                                                     tool_runs):
    ran = tool_runs
    eng = _engine(demo_store, demo_server)  # the multi strategy: every tool that applies
    finished = 0
    for row in QUESTIONS[:20]:
        a = eng.ask(row["question"])
        calls = a.trace.llm_calls
        # no prompt sent twice within a question
        assert max(Counter(c.prompt_checksum for c in calls).values()) == 1, row["id"]
        if a.trace.counts.get("finish_answers"):
            finished += 1
            assert len(calls) <= 4, (row["id"], [c.purpose for c in calls])
            assert "answer" not in {c.purpose for c in calls}  # no extra answer call
            assert set(a.answers) <= set(row["answers"]), row["id"]
            assert a.evidence
    assert finished >= 15
    # no tool ran twice on the same request within a question
    assert ran and max(Counter(ran).values()) == 1


def test_finish_answers_are_the_answer_without_a_call(script_llm, demo_store):
    def script(prompt, n):
        if "Graph context retrieved so far" in prompt:
            return "FINISH\n<answers>\nnew orleans\n</answers>"  # written loosely: matched exactly
        return ("<entities>\nWynton Marsalis\n</entities>\n<relation-paths>\nborn_in\n"
                "</relation-paths>\n<answers>\n</answers>")

    script_llm.scripts["finish"] = script
    cfg = RunConfig(llm="script:finish", tools=["follow-paths"])
    a = Engine(demo_store, cfg).ask("Where was Wynton Marsalis born?")
    assert [c.purpose for c in a.trace.llm_calls] == ["kg-linker", "kg-linker"]
    assert a.answers == ["New Orleans"] and a.answer_ids == {"New Orleans": ["New Orleans"]}
    assert a.evidence and a.trace.counts["finish_answers"] == 1
    assert any("no answer call" in e.message for e in a.trace.events)
    # the stage summary names who spent what
    summary = a.trace.stage_summary()
    assert summary["kg-linker"].calls == 2 and "answer" not in summary
    assert summary["tool:follow-paths"].runs == 1 and summary["tool:follow-paths"].context_tokens > 0


def test_finish_with_an_answer_the_context_does_not_name_asks_the_answerer(script_llm, demo_store):
    script = _finishing("FINISH\n<answers>\nNew Orleans\nParis\n</answers>")
    script_llm.scripts["unsupported"] = script
    a = Engine(demo_store, RunConfig(llm="script:unsupported", tools=["follow-paths"])).ask(
        "Where was Wynton Marsalis born?")
    assert [c.purpose for c in a.trace.llm_calls] == ["kg-linker", "kg-linker", "answer"]
    ev = next(e for e in a.trace.events if "does not name" in e.message)
    assert ev.data["unsupported"] == ["Paris"]
    assert a.answers == ["New Orleans"] and "finish_answers" not in a.trace.counts


def test_finish_answers_can_be_turned_off(script_llm, demo_store):
    script = _finishing("FINISH\n<answers>\nNew Orleans\n</answers>")
    script_llm.scripts["off"] = script
    a = Engine(demo_store, RunConfig(llm="script:off", tools=["follow-paths"],
                                     finish_answers=False)).ask("Where was Wynton Marsalis born?")
    assert [c.purpose for c in a.trace.llm_calls][-1] == "answer"


def test_a_repeated_tool_request_is_not_run_again(script_llm, demo_store):
    first = ("<entities>\nWynton Marsalis\n</entities>\n<relation-paths>\neducated_at\n"
             "</relation-paths>\n<answers>\n</answers>")
    again = first.replace("<answers>\n", "<answers>\nJuilliard School\n")  # a new draft answer

    def script(prompt, n):
        if prompt.startswith("Answer the question"):
            return "<answers>\nJuilliard School\n</answers>"
        return again if "Graph context retrieved so far" in prompt else first

    script_llm.scripts["repeat"] = script
    cfg = RunConfig(llm="script:repeat", tools=["follow-paths", "one-hop", "shortest-paths"])
    a = Engine(demo_store, cfg).ask("Which school did Wynton Marsalis attend?")
    runs = Counter(s.stage for s in a.trace.stages if s.stage.startswith("tool:"))
    # round 2 changed only the draft answers: only shortest-paths (which reads them) runs again
    assert runs == {"tool:follow-paths": 1, "tool:one-hop": 1, "tool:shortest-paths": 2}
    assert a.trace.counts["tool_repeats.follow-paths"] == 1
    assert a.trace.counts["tool_repeats.one-hop"] == 1
    assert any(e.source == "one-hop" and "same request as in round 1" in e.message
               for e in a.trace.events)
    summary = a.trace.stage_summary()
    assert summary["tool:one-hop"].repeats == 1 and summary["tool:one-hop"].runs == 1


def test_the_call_budget_stops_rounds_keeps_the_answer_call_and_says_so(script_llm, demo_store):
    def script(prompt, n):
        if prompt.startswith("Answer the question"):
            return "<answers>\nNew York City\n</answers>"
        if "Select the relations" in prompt:
            return "<selected-relations>\neducated_at\n</selected-relations>"
        if "choose the entities" in prompt:
            return "<next-entities>\nJuilliard School\n</next-entities>"
        return ("<entities>\nWynton Marsalis\n</entities>\n<relation-paths>\neducated_at -> "
                "located_in\n</relation-paths>\n<answers>\n</answers>")

    script_llm.scripts["budget"] = script
    cfg = RunConfig(llm="script:budget", max_llm_calls=3, iterations=3,
                    tools=["follow-paths", "agentic"], params={"agentic": {"max_calls": 9}})
    a = Engine(demo_store, cfg).ask("In which city is the school Wynton Marsalis attended?")
    purposes = [c.purpose for c in a.trace.llm_calls]
    assert len(purposes) <= 3 and purposes[0] == "kg-linker" and purposes[-1] == "answer"
    hits = [e for e in a.trace.events if e.source == "budget"]
    assert hits and all(e.level == "warning" and e.data["limit"] == 3 for e in hits)
    assert a.trace.counts["llm_budget_hit"] >= 1
    assert a.answers == ["New York City"]


def test_budget_of_two_is_a_proposal_and_an_answer(script_llm, demo_store):
    script = _finishing(WYNTON)
    script_llm.scripts["two"] = script
    cfg = RunConfig(llm="script:two", max_llm_calls=2, iterations=3)  # every default tool
    a = Engine(demo_store, cfg).ask("Where was Wynton Marsalis born?")
    assert [c.purpose for c in a.trace.llm_calls] == ["kg-linker", "answer"]
    assert a.answers == ["New Orleans"]
    assert any("no call left for round 2" in e.message for e in a.trace.events)
    with pytest.raises(ValueError):
        RunConfig(max_llm_calls=1)


def test_stage_summary_in_ask_json(demo_server, monkeypatch):
    from click.testing import CliRunner

    from byokg.cli import cli

    monkeypatch.setenv("OPENAI_BASE_URL", demo_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "scripted")
    r = CliRunner().invoke(cli, ["ask", "Where was Wynton Marsalis born?", "--graph",
                                 "memory:demo", "--llm", "openai:scripted", "--json"])
    assert r.exit_code == 0, r.output
    trace = json.loads(r.output)["trace"]
    summary = trace["stage_summary"]
    assert sum(s["calls"] for s in summary.values()) == len(trace["llm_calls"])
    assert summary["kg-linker"]["calls"] >= 1 and summary["kg-linker"]["prompt_tokens"] > 0
    assert {c["stage"] for c in trace["llm_calls"]} <= set(summary)


def test_scripted_reader_is_a_careful_reader():
    from benchmarks.scripted_llm import ScriptedReader

    r = ScriptedReader({"Q?": Plan(entities=["A"], relation_paths=[["r"]], answers=["B"])})
    first = r.reply("You are KG-Linker\nGraph schema:\nx\nQuestion: Q?")
    assert "<entities>\nA\n</entities>" in first and "r" in first
    seen = r.reply("You are KG-Linker\nGraph context retrieved so far:\nA -> r -> B\n"
                   "If the graph context above ...\nQuestion: Q?")
    assert seen.startswith("FINISH") and "B" in seen
    unseen = r.reply("You are KG-Linker\nGraph context retrieved so far:\nA -> r -> C\n"
                     "If the graph context above ...\nQuestion: Q?")
    assert "FINISH" not in unseen and "C" in unseen  # follows the context towards the answer
