"""Fewer LLM calls (issue 25, point 3): query rows that fit the question answer it with no second
KG-Linker round and no answer call; the agentic traversal waits while a query runs and runs in
the round that comes when none answered; the hybrid strategy keeps a confident offline answer
with no LLM call and asks the KG-Linker otherwise."""

from __future__ import annotations

import pytest

from benchmarks.scripted_llm import Plan, ScriptedServer, demo_plans, typed_plans
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine


def test_rows_that_fit_answer_in_one_call(festivals, festival_store):
    """Every generated question of the festival graph (lookups, lists, dates, counts, top-k)
    whose query has rows: one LLM call, the gold cells as answers, no agentic call."""
    fx = festivals["camel"]
    store = festival_store("camel")
    with ScriptedServer(typed_plans(fx.questions)) as srv:
        eng = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options()))
        for gq in fx.questions:
            if not gq.rows:
                continue
            a = eng.ask(gq.question)
            assert [c.purpose for c in a.trace.llm_calls] == ["kg-linker"], gq.question
            assert a.trace.counts.get("kg-linker.rows_answer") == 1
            assert a.answers and set(a.answers) <= set(gq.answers), (gq.question, a.answers)
            if gq.template in ("lineup", "genre-list", "headliner"):
                assert set(a.answers) == {str(r[0]) for r in gq.rows}
            if a.entities and any(m.candidates for m in a.entities):  # else nothing to do
                assert any(ev.source == "agentic" and ev.message.startswith("deferred")
                           for ev in a.trace.events), gq.question


def test_no_rows_means_a_second_round_where_the_traversal_runs(festival_store):
    store = festival_store("camel")
    q = "Which artists from Ashgrove played at Echo Fest 2012?"
    empty = ("MATCH (a:Artist)-[:PERFORMED_AT]->(f:Festival {title: 'Echo Fest 2012'}) "
             "WHERE a.genre = 'polka' RETURN a.stageName")  # every name exists; no rows
    plans = {q: Plan(entities=["Echo Fest 2012"], relation_paths=[["PERFORMED_AT"]],
                     cypher=empty, answers=["no such artist"])}
    with ScriptedServer(plans) as srv:
        a = Engine(store, RunConfig(llm="openai:scripted",
                                    llm_options=srv.llm_options())).ask(q)
    stages = [c.stage for c in a.trace.llm_calls]
    assert stages[0] == "kg-linker" and stages.count("kg-linker") == 2
    assert "tool:agentic" in stages  # deferred in round 1, run in round 2
    deferred = [ev for ev in a.trace.events if ev.source == "agentic"
                and ev.message.startswith("deferred")]
    assert [ev.iteration for ev in deferred] == [0]
    assert not a.trace.counts.get("kg-linker.rows_answer")


def test_agentic_always_runs_when_asked(festival_store):
    store = festival_store("camel")
    q = "Who headlined Meadow Fest 2016?"
    query = ("MATCH (a:Artist)-[r:PERFORMED_AT]->(f:Festival {title: 'Meadow Fest 2016'}) "
             "WHERE r.slot = 'headliner' RETURN a.stageName")
    plans = {q: Plan(entities=["Meadow Fest 2016"], relation_paths=[["PERFORMED_AT"]],
                     cypher=query, answers=["Pia Static"])}
    with ScriptedServer(plans) as srv:
        cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                        params={"agentic": {"when": "always"}})
        a = Engine(store, cfg).ask(q)
    assert "tool:agentic" in [c.stage for c in a.trace.llm_calls]
    assert a.answers == ["Pia Static"]


@pytest.fixture
def offline_confidence(monkeypatch):
    """The offline answerer's real answers with a confidence set as a calibrated answerer would
    (``level[0]``): the field the hybrid strategy reads."""
    from byokg.plugins.offline import OfflineAnswerer

    level = [0.9]
    real = OfflineAnswerer.answer

    def answer(self, request):
        res = real(self, request)
        res.confidence = level[0] if res.answers else None
        return res

    monkeypatch.setattr(OfflineAnswerer, "answer", answer)
    return level


def test_hybrid_keeps_a_confident_offline_answer_without_a_call(offline_confidence):
    from byokg.demo import DEMO_QUESTIONS
    from byokg.graph.open import open_graph

    plans = demo_plans(DEMO_QUESTIONS)
    q = "Where was Wynton Marsalis born?"
    store = open_graph("memory:demo")
    try:
        with ScriptedServer(plans) as srv:
            cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                            offline_first=0.8)
            eng = Engine(store, cfg)
            a = eng.ask(q)
            assert a.trace.llm_calls == [] and srv.calls == 0
            assert a.answers[0] == "New Orleans" and a.confidence == 0.9
            assert a.trace.counts["hybrid_offline"] == 1
            assert "offline" in a.trace.stage_seconds()
            offline_confidence[0] = 0.5  # below the threshold: the KG-Linker answers
            b = eng.ask(q)
            assert b.trace.llm_calls and b.trace.llm_calls[0].stage == "kg-linker"
            assert b.trace.counts["hybrid_fallback"] == 1
            note = next(ev for ev in b.trace.events if ev.message.startswith("hybrid:"))
            assert "confidence 0.50 below 0.8" in note.message
            assert note.data["offline_answers"][0] == "New Orleans"
            assert b.answers and b.answers[0] == "New Orleans"
    finally:
        store.close()


def test_hybrid_without_a_confidence_asks_the_llm():
    """The offline answerer sets no confidence: the hybrid strategy never keeps its answer."""
    from byokg.demo import DEMO_QUESTIONS
    from byokg.graph.open import open_graph

    store = open_graph("memory:demo")
    try:
        with ScriptedServer(demo_plans(DEMO_QUESTIONS)) as srv:
            a = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                                        offline_first=0.0)).ask("Who directed Alien?")
    finally:
        store.close()
    if a.confidence is None:  # an uncalibrated offline answerer: the LLM path ran
        assert a.trace.llm_calls and a.trace.counts["hybrid_fallback"] == 1
    else:  # a calibrated one: any confidence passes a threshold of 0
        assert a.trace.counts["hybrid_offline"] == 1 and not a.trace.llm_calls


def test_the_hybrid_preset():
    from byokg.eval.runner import strategy_config

    cfg = strategy_config("hybrid", RunConfig(), "openai:x")
    assert cfg.offline_first == 0.8 and cfg.tools is None
    assert cfg.stage_names() == ("kg-linker", "llm-answer")


def test_rows_answer_reads_the_column_the_question_does_not_name(festivals, festival_store):
    """A lookup query that returns the named subject beside the asked-for value ("the capacity
    of X" -> X, capacity) is answered with the value, not with X again."""
    fx = festivals["camel"]
    store = festival_store("camel")
    gq = next(q for q in fx.questions if q.template == "capacity")
    name = gq.question.split(" of ", 1)[1].rstrip("?")
    both = gq.cypher.replace(" RETURN f.", " RETURN f.title, f.")
    assert both != gq.cypher
    plans = {gq.question: Plan(entities=[name], relation_paths=[], cypher=both, answers=[])}
    with ScriptedServer(plans) as srv:
        a = Engine(store, RunConfig(llm="openai:scripted",
                                    llm_options=srv.llm_options())).ask(gq.question)
    assert a.trace.counts.get("kg-linker.rows_answer") == 1
    assert a.answers == [str(r[0]) for r in gq.rows]


def test_the_offline_confidence_is_withheld_where_the_offline_stages_cannot_answer():
    """However confident the model, no confidence for arithmetic, for a value the question
    filters on outside a linked name, or for a person or place answered with bare values."""
    from byokg.plugins.offline.confidence import beyond_offline

    from byokg.contracts import Candidate, MentionLinks
    from byokg.language.analysis import analyze

    def named(*mentions):
        return [MentionLinks(mention=m, candidates=(Candidate(id=m, name=m, score=1.0,
                                                              method="exact"),)) for m in mentions]

    assert "arithmetic" in beyond_offline(analyze("How many films did Ridley Scott direct?"),
                                          ["3"], named("Ridley Scott"))
    assert "(1980)" in beyond_offline(
        analyze("Which artists from Calderbank were born before 1980?"), ["Oz"], named("Calderbank"))
    assert "bare values" in beyond_offline(analyze("Who headlined Meadow Fest 2016?"), ["29356"],
                                           named("Meadow Fest 2016"))
    assert "(2016)" in beyond_offline(analyze("Who headlined Meadow Fest 2016?"), ["Pia"], [])
    assert beyond_offline(analyze("Where was Wynton Marsalis born?"), ["New Orleans"],
                          named("Wynton Marsalis")) is None


def test_hybrid_asks_the_llm_when_the_offline_confidence_is_withheld(monkeypatch):
    from byokg.plugins.offline import confidence as conf_mod

    from byokg.demo import DEMO_QUESTIONS
    from byokg.graph.open import open_graph

    monkeypatch.setattr(conf_mod, "beyond_offline", lambda analysis, answers, entities: "a reason")
    store = open_graph("memory:demo")
    try:
        offline = Engine(store, RunConfig(llm="none")).ask("Where was Wynton Marsalis born?")
        assert offline.answers[0] == "New Orleans" and offline.confidence is None
        assert any(ev.message == "no confidence: a reason" for ev in offline.trace.events)
        with ScriptedServer(demo_plans(DEMO_QUESTIONS)) as srv:
            eng = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                                          offline_first=0.0))
            a = eng.ask("Where was Wynton Marsalis born?")
    finally:
        store.close()
    assert a.trace.llm_calls and a.trace.counts["hybrid_fallback"] == 1
    note = next(ev for ev in a.trace.events if ev.message.startswith("hybrid: the offline answer has"))
    assert "no confidence (a reason)" in note.message, note.message
