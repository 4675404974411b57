"""Context without noise (issue 25, point 2): prompts within ``RunConfig.prompt_chars``, what
is cut said in the prompt, property values only of properties the question names, and linked
candidates the KG-Linker did not choose left unexpanded."""

from __future__ import annotations

from benchmarks.scripted_llm import Plan
from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import cwq_plans
from byokg.config import RunConfig
from byokg.contracts import ContextItem
from byokg.language.analysis import analyze
from byokg.models.similarity import Similarity
from byokg.pipeline.context import Context
from byokg.pipeline.context import Relevance
from byokg.pipeline.engine import Engine


def _spy(srv: ScriptedServer) -> list[str]:
    prompts: list[str] = []
    real = srv.reader.reply

    def spy(prompt: str, system: str | None = None) -> str:
        prompts.append(prompt)
        return real(prompt, system)

    srv.reader.reply = spy
    return prompts


def test_prompts_fit_the_budget_and_say_what_they_left_out(freebase_store, shared_data):
    """CWQ questions on the tiny Freebase graph drew round-2 prompts of 15,000 characters;
    each prompt now fits the budget (default and a smaller one) and says what it left out."""
    plans = cwq_plans(shared_data / "freebase" / "cwq_tinykg_subset.jsonl")
    questions = list(plans)[:6]
    for budget in (8000, 3000):
        with ScriptedServer(plans) as srv:
            prompts = _spy(srv)
            cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                            prompt_chars=budget)
            eng = Engine(freebase_store, cfg)
            cut_said = 0
            for q in questions:
                a = eng.ask(q)
                said = [ev for ev in a.trace.events if ev.source == "context"
                        and "character budget" in ev.message]
                cut_said += bool(said)
        assert prompts and max(map(len, prompts)) <= budget, max(map(len, prompts))
        if budget == 3000:
            assert cut_said and any("left out for the character budget" in p for p in prompts)


def test_property_values_only_for_properties_the_question_names():
    analysis = analyze("Which festivals started after June 1, 2014?")
    ctx = Context(4000, Relevance(Similarity(analysis)))

    def prop(name: str, value: str, kind: str) -> ContextItem:
        return ContextItem(text=f"Echo Fest 2016 · {name}: {value}", tool="node-properties",
                           kind="property", metadata={"property": name, "value": value,
                                                      "value_type": kind})

    ctx.add([prop("startsAt", "2016-05-06", "date"), prop("capacity", "24000", "number"),
             prop("festivalCode", "F021", "text"),
             ContextItem(text="Echo Fest 2016 -> HELD_IN -> Ashgrove", tool="one-hop")])
    sel = ctx.for_prompt(2000)
    texts = [it.text for it in sel.items]
    assert any("startsAt" in t for t in texts) and any("HELD_IN" in t for t in texts)
    assert not any("capacity" in t or "festivalCode" in t for t in texts)
    assert sel.cut is not None and sel.cut.unnamed == 2
    assert "2 property value(s) of properties the question does not name left out" in \
        sel.render().splitlines()[-1]
    # the token-budgeted selection (the offline answerer's) keeps them all
    assert len(ctx.select().items) == 4


def test_candidates_the_kg_linker_did_not_choose_are_not_expanded(festival_store):
    """"Echo Fest 2012" links exactly, and fuzzily to Echo Fest 2014 and 2016; "Upper Vale" is
    a region the query reads as a town's name; "ambient" a value the query compares with a
    property. None brings other nodes' neighbours into the context, and none is a warning."""
    store = festival_store("camel")
    q = "Which artists performed at Echo Fest 2012?"
    query = ("MATCH (a:Artist)-[:PERFORMED_AT]->(f:Festival {title: 'Echo Fest 2012'}) "
             "WHERE a.genre = 'ambient' RETURN a.stageName")
    odd = "MATCH (t:Town) WHERE t.label = 'Upper Vale' RETURN t.label"
    plans = {q: Plan(entities=["Echo Fest 2012", "ambient", "Upper Vale"],
                     cypher=query + "\n\n" + odd, relation_paths=[["PERFORMED_AT"]])}
    with ScriptedServer(plans) as srv:
        cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(), iterations=1)
        a = Engine(store, cfg).ask(q)
    ents = {m.mention: m for m in a.entities}
    assert [c.name for c in ents["Echo Fest 2012"].candidates] == ["Echo Fest 2012"]
    assert {c.name for c in ents["Echo Fest 2012"].dropped} >= {"Echo Fest 2014"}
    assert not any("Echo Fest 2014" in it.text or "Echo Fest 2016" in it.text
                   for it in a.context)
    assert ents["Upper Vale"].candidates == () and ents["ambient"].candidates == ()
    assert [c.name for c in ents["Upper Vale"].dropped] == ["Upper Vale"]
    moved = next(ev for ev in a.trace.events if ev.source == "linker"
                 and "not expanded" in ev.message)
    assert list(moved.data["not_expanded"]) == ["Upper Vale"]
    assert not any("IN_REGION" in it.text for it in a.context)  # the region's edges
    assert not any("not found in the graph" in w.message for w in a.trace.warnings)
