"""Answers (issue 25, points 4, 6, 7): complete lists or a cut that every output states; node
ids for answers read from query rows (a node cell, its key, its display name); no warning for
what the prompts allow (empty sections, draft answers that are numbers or dates)."""

from __future__ import annotations

import json

from byokg.plugins.cypher import cell_ids

from benchmarks.scripted_llm import Plan
from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import typed_plans
from byokg.config import RunConfig
from byokg.graph.profile import profile_graph
from byokg.pipeline.engine import Engine
from byokg.pipeline.engine import explain

GENRE = "Which artists play ambient?"


def _genre(fx):
    return next(q for q in fx.questions if q.question == GENRE)


def test_forty_answers_are_complete_by_default_and_cut_with_a_word(festivals, festival_store):
    fx = festivals["camel"]
    gold = _genre(fx)
    assert len(gold.rows) == 40
    store = festival_store("camel")
    with ScriptedServer(typed_plans(fx.questions)) as srv:
        full = Engine(store, RunConfig(llm="openai:scripted",
                                       llm_options=srv.llm_options())).ask(GENRE)
        cut = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                                      max_answers=25)).ask(GENRE)
    assert sorted(full.answers) == sorted(gold.answers) and not full.truncated
    assert full.total is None
    assert len(cut.answers) == 25 and cut.truncated and cut.total == 40
    assert any("answer list cut: 25 of 40 kept (max_answers=25)" in w.message
               for w in cut.trace.warnings)
    assert "(25 of 40 answers: the list was cut)" in explain(cut)
    # every output says it: ask --json, the CLI note, a batch line, the HTTP and MCP models
    from byokg.commands.ask import answer_json
    from byokg.commands.ask import cut_note
    from byokg.commands.batch import Item
    from byokg.commands.batch import answer_row
    from byokg.serve.core import AskOut

    data = json.loads(json.dumps(answer_json(cut), default=str))
    assert data["truncated"] is True and data["total"] == 40
    assert cut_note(cut).startswith("note: 25 of 40 answers shown") and cut_note(full) is None
    row = answer_row(Item(key="q:x", id="x", question=GENRE), cut, None, 1.0)
    assert row["truncated"] is True and row["total"] == 40
    assert any("answer list cut" in t for t in row["warning_texts"])
    out = AskOut.of(cut)
    assert out.truncated and out.total == 40
    assert json.loads(cut.model_dump_json())["truncated"] is True  # POST /ask returns Answer


def test_an_llm_reply_with_a_total_is_a_cut(script_llm, festival_store):
    """The answer LLM lists 30 and says TOTAL: 61 (as the prompt asks): the answer says so."""
    names = [f"Artist {i}" for i in range(30)]

    def script(prompt: str, n: int) -> str:
        if "You are KG-Linker" in prompt:
            return "<entities>\n</entities>\n<answers>\n</answers>"
        assert "List every answer, at most 50" in prompt
        return "<answers>\n" + "\n".join(names) + "\nTOTAL: 61\n</answers>"

    script_llm.scripts["cap"] = script
    a = Engine(festival_store("camel"), RunConfig(llm="script:cap", tools=["one-hop"],
                                                  iterations=1)).ask("Which artists exist?")
    assert a.answers == names and a.truncated and a.total == 61


def test_node_ids_for_answers_from_rows(festival_store):
    store = festival_store("camel")
    prof = profile_graph(store)
    from byokg.cypher.execute import execute

    def ids(query: str) -> dict[str, list[str]]:
        ex = execute(store, query, row_limit=50)
        return cell_ids(store, prof, ex.executed or query, ex.result)

    by_name = ids("MATCH (f:Festival)-[:HELD_IN]->(t:Town {label: 'Ashgrove'}) RETURN f.title")
    assert by_name == {"Echo Fest 2012": ["Festival:F001"], "Echo Fest 2014": ["Festival:F011"],
                       "Echo Fest 2016": ["Festival:F021"]}
    by_key = ids("MATCH (f:Festival {title: 'Echo Fest 2012'}) RETURN f.festivalCode")
    assert by_key == {"F001": ["Festival:F001"]}
    whole = ids("MATCH (t:Town {label: 'Ashgrove'}) RETURN t")
    assert whole == {"Ashgrove": ["Town:T-001"]}
    assert ids("MATCH (t:Town) RETURN t.population LIMIT 3") == {}  # values, no nodes
    assert ids("MATCH (f:Festival) RETURN f.title AS x LIMIT 2") == {}  # the label is unknown


def test_answers_read_from_rows_carry_node_ids(festivals, festival_store):
    fx = festivals["spaced"]
    store = festival_store("spaced")
    q = next(q for q in fx.questions if q.template == "lineup")
    with ScriptedServer(typed_plans(fx.questions)) as srv:
        a = Engine(store, RunConfig(llm="openai:scripted",
                                    llm_options=srv.llm_options())).ask(q.question)
    assert len(a.answers) == len(q.rows) and set(a.answer_ids) == set(a.answers)
    assert all(v[0].startswith("Performer:") for v in a.answer_ids.values())


def test_no_warning_for_what_the_prompt_allows(festival_store):
    """Empty entities and answers, draft answers "12" and "1918", a country the query filters
    by: nothing to warn about."""
    store = festival_store("camel")
    q = "How many festivals were held in Upper Vale?"
    query = ("MATCH (f:Festival)-[:HELD_IN]->(:Town)-[:IN_REGION]->(r:Region {regionLabel: "
             "'Upper Vale'}) RETURN count(f)")
    plans = {q: Plan(entities=["Upper Vale"], relation_paths=[["HELD_IN", "IN_REGION"]],
                     cypher=query, drafts=["12", "1918"], answers=["6"])}
    with ScriptedServer(plans) as srv:
        a = Engine(store, RunConfig(llm="openai:scripted",
                                    llm_options=srv.llm_options())).ask(q)
    assert a.answers == ["6"]
    assert a.trace.warnings == [], [w.message for w in a.trace.warnings]
    assert any("2 draft answers are values" in ev.message for ev in a.trace.events)
