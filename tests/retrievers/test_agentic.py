"""Agentic traversal (Algorithm 1) with scripted LLM replies on the demo graph."""

from __future__ import annotations

import re

import pytest

from byokg import registry
from byokg.config import RunConfig
from byokg.contracts import Candidate
from byokg.contracts import MentionLinks
from byokg.contracts import Triplet
from byokg.models.base import prompt_checksum
from byokg.models.embedders import LexicalEmbedder
from byokg.models.services import Services
from byokg.pipeline.tools import ToolRequest

REL = "<selected-relations>"
ENT = "<next-entities>"


def linked(*ids: str) -> list[MentionLinks]:
    return [MentionLinks(mention=i, candidates=(Candidate(id=i, name=i, score=1.0, method="exact"),))
            for i in ids]


def run_tool(store, question, seeds, llm, services=None, **params):
    tool = registry.tools().create("agentic")
    services = services or Services(RunConfig(), llm=llm, embedder=LexicalEmbedder())
    req = ToolRequest(question=question, store=store, services=services,
                      params=tool.Params(**params), entities=linked(*seeds))
    return tool.run(req)


def by_rules(rules):
    """Script: the first (predicate, reply) whose predicate matches the prompt."""
    def script(prompt, n):
        for pred, reply in rules:
            if pred(prompt):
                return reply
        raise AssertionError(f"unexpected prompt #{n}: {prompt[:300]}")
    return script


def entity_block(prompt: str) -> str:
    return prompt.split("Question:")[1]


def select_for(entity: str, *relations: str):
    """Rule: the relation prompt about ``entity`` is answered by selecting ``relations``."""
    return (lambda p: REL in p and f"Entity: {entity}" in entity_block(p),
            f"{REL}\n" + "\n".join(relations) + "\n</selected-relations>")


def next_until(seen: str, *names: str):
    """Rule: an entity prompt that does not yet show ``seen`` is answered with ``names``."""
    return (lambda p: ENT in p and seen not in p,
            f"{ENT}\n" + "\n".join(names) + "\n</next-entities>")


def test_two_step_traversal_reaches_the_answer(counting_demo, make_llm):
    llm = make_llm(by_rules([
        select_for("Amélie", "Amélie | directed_by"),
        select_for("Jean-Pierre Jeunet", "born_in"),
        next_until("Roanne", "Jean-Pierre Jeunet"),
        (lambda p: ENT in p and "Roanne" in p, "The facts suffice.\nFINISH"),
    ]))
    res = run_tool(counting_demo, "Where was the director of Amélie born?", ["Amélie"], llm,
                   max_calls=5)
    triplets = {t for it in res.items for t in it.triplets}
    assert Triplet(head="Amélie", relation="directed_by", tail="Jean-Pierre Jeunet") in triplets
    assert Triplet(head="Jean-Pierre Jeunet", relation="born_in", tail="Roanne") in triplets
    # only the selected relations were kept
    assert {t.relation for t in triplets} == {"directed_by", "born_in"}
    assert any("Roanne" in it.nodes for it in res.items)
    born = next(it for it in res.items if "Roanne" in it.text)
    assert born.metadata["step"] == 1 and born.metadata["finished"] is True
    # Fig. 8 prompt: question, entity and its candidate relations
    first = llm.prompts[0]
    assert "Where was the director of Amélie born?" in first
    assert re.search(r"Entity: Amélie\nRelations: directed_by, genre, set_in\n", first)
    # 4 LLM calls (relations, entities, relations, entities->FINISH), all recorded
    assert len(res.llm_calls) == 4 == len(llm.prompts)
    assert [c.purpose for c in res.llm_calls] == [
        "agentic:relations", "agentic:entities", "agentic:relations", "agentic:entities"]
    assert [c.prompt_checksum for c in res.llm_calls] == [prompt_checksum(p) for p in llm.prompts]
    assert all(c.prompt_tokens > 0 and c.completion_tokens > 0 for c in res.llm_calls)
    # one batched neighbors call per round, nothing else touched the neighbourhoods
    assert res.counts["fetches"] == 2
    assert [ids for ids, _ in counting_demo.neighbor_calls] == [["Amélie"], ["Jean-Pierre Jeunet"]]


def test_finish_stops_after_one_round(counting_demo, make_llm):
    llm = make_llm(by_rules([
        (lambda p: REL in p, f"{REL}\ndirected_by\n</selected-relations>"),
        (lambda p: ENT in p, "FINISH"),
    ]))
    res = run_tool(counting_demo, "Who directed Amélie?", ["Amélie"], llm, iterations=3,
                   max_calls=3)
    assert len(res.llm_calls) == 2
    assert res.counts["fetches"] == 1 and len(counting_demo.neighbor_calls) == 1
    assert any(e.message == "LLM: FINISH" for e in res.events)
    assert [t for it in res.items for t in it.triplets] == [
        Triplet(head="Amélie", relation="directed_by", tail="Jean-Pierre Jeunet")]
    assert res.items[0].metadata["finished"] is True


def test_last_round_asks_no_next_entities(demo_store, make_llm):
    llm = make_llm(by_rules([(lambda p: REL in p, f"{REL}\ndirected_by\n</selected-relations>")]))
    res = run_tool(demo_store, "Who directed Amélie?", ["Amélie"], llm, iterations=1)
    assert len(llm.prompts) == 1 and res.items


def test_misspelt_next_entity_is_relinked(counting_demo, make_llm):
    llm = make_llm(by_rules([
        select_for("Amélie", "directed_by"),
        select_for("Jean-Pierre Jeunet", "born_in"),
        # misspelt, and not as the facts write it: only the linker can resolve it
        next_until("Roanne", "Jean Pierre Jeunett"),
        (lambda p: ENT in p, "FINISH"),
    ]))
    res = run_tool(counting_demo, "Where was the director of Amélie born?", ["Amélie"], llm,
                   max_calls=4)
    assert Triplet(head="Jean-Pierre Jeunet", relation="born_in", tail="Roanne") in {
        t for it in res.items for t in it.triplets}
    assert res.counts.get("relinked") == 1
    ev = next(e for e in res.events if "linked to node" in e.message)
    assert ev.data == {"name": "Jean Pierre Jeunett", "node": "Jean-Pierre Jeunet"}
    # the raw string was never used as a node id
    assert all("Jean Pierre Jeunett" not in ids for ids, _ in counting_demo.neighbor_calls)


def test_alias_of_a_reached_node_and_unknown_name(demo_store, make_llm):
    llm = make_llm(by_rules([
        select_for("New Orleans", "born_in"),
        select_for("Louis Armstrong", "instrument"),
        next_until("trumpet", "Satchmo", "Qqqqxz Zzzzvw"),
        (lambda p: ENT in p, "FINISH"),
    ]))
    res = run_tool(demo_store, "Which instrument does Satchmo, born in New Orleans, play?",
                   ["New Orleans"], llm, max_calls=4)
    triplets = {t for it in res.items for t in it.triplets}
    assert Triplet(head="Louis Armstrong", relation="instrument", tail="trumpet") in triplets
    unlinked = [e for e in res.events if "not found in the graph" in e.message]
    assert unlinked and unlinked[0].level == "warning"
    assert unlinked[0].data["names"] == ["Qqqqxz Zzzzvw"]


def test_replies_without_tags_leave_warnings_not_crashes(demo_store, make_llm):
    llm = make_llm(by_rules([
        (lambda p: REL in p, "I would follow directed_by here, it names the director."),
        (lambda p: ENT in p, "Let me think about who that is."),
    ]))
    res = run_tool(demo_store, "Who directed Amélie?", ["Amélie"], llm, max_calls=3)
    warnings = [e for e in res.events if e.level == "warning"]
    assert any("no <selected-relations> tag" in e.message for e in warnings)
    assert any("neither <next-entities> nor FINISH" in e.message for e in warnings)
    assert res.counts["replies_without_tag"] == 2
    # the relation named in the untagged reply was still followed
    assert {t.relation for it in res.items for t in it.triplets} == {"directed_by"}


def test_reply_with_nothing_usable(demo_store, make_llm):
    llm = make_llm(lambda p, n: "no idea")
    res = run_tool(demo_store, "Who directed Amélie?", ["Amélie"], llm)
    assert res.items == [] and len(res.llm_calls) == 1
    assert any("no relation selected" in e.message for e in res.events)


def test_caps_honoured(demo_store, make_llm):
    llm = make_llm(by_rules([
        (lambda p: REL in p, f"{REL}\nborn_in\n</selected-relations>"),
    ]))
    res = run_tool(demo_store, "Who was born in New Orleans?", ["New Orleans"], llm,
                   iterations=1, per_relation=2)
    assert len({t for it in res.items for t in it.triplets}) == 2


def test_not_offered_without_llm(demo_store):
    tool = registry.tools().create("agentic")
    assert tool.needs_llm and tool.default
    assert not tool.applicable(demo_store, Services(RunConfig()))


def test_bad_params_are_a_clear_error():
    from byokg.errors import ConfigError

    tool = registry.tools().create("agentic")
    with pytest.raises(ConfigError, match="params.agentic.iterations"):
        RunConfig(params={"agentic": {"iterations": 0}}).tool_params("agentic", tool.Params)


def test_in_the_engine_llm_calls_counted(demo_store, make_llm):
    from byokg.pipeline.engine import Engine

    def script(prompt, n):
        if prompt.startswith("Answer the question"):
            return "<answers>\nRoanne\n</answers>"
        if REL in prompt:
            if "Entity: Amélie" in entity_block(prompt):
                return f"{REL}\ndirected_by\n</selected-relations>"
            return f"{REL}\nborn_in\n</selected-relations>"
        if ENT in prompt:
            return "FINISH" if "Roanne" in prompt else f"{ENT}\nJean-Pierre Jeunet\n</next-entities>"
        return "<entities>\nAmélie\n</entities>\n<relation-paths>\n</relation-paths>\nFINISH"

    llm = make_llm(script)
    cfg = RunConfig(tools=["agentic"], iterations=1, params={"agentic": {"max_calls": 5}})
    ans = Engine(demo_store, cfg, Services(cfg, llm=llm)).ask(
        "Where was the director of Amélie born?")
    purposes = [c.purpose for c in ans.trace.llm_calls]
    assert purposes.count("agentic:relations") == 2 and purposes.count("agentic:entities") == 2
    assert ans.trace.counts["llm_calls"] == len(ans.trace.llm_calls) == len(llm.prompts)
    assert ans.answers == ["Roanne"]
    assert any("Roanne" in it.text and it.tool == "agentic" for it in ans.context)


# --------------------------------------------------------------------------- call budget


def _two_hop_llm(make_llm):
    return make_llm(by_rules([
        select_for("Amélie", "directed_by"),
        (lambda p: REL in p, f"{REL}\nborn_in\n</selected-relations>"),
        next_until("Roanne", "Jean-Pierre Jeunet"),
        (lambda p: ENT in p, "FINISH"),
    ]))


@pytest.mark.parametrize(("max_calls", "purposes"), [
    (1, ["relations"]),
    (2, ["relations"]),  # asking for next entities only pays when a relation step can follow
    (3, ["relations", "entities", "relations"]),
    (5, ["relations", "entities", "relations", "entities"]),
])
def test_max_calls_bounds_the_traversal(demo_store, make_llm, max_calls, purposes):
    llm = _two_hop_llm(make_llm)
    res = run_tool(demo_store, "Where was the director of Amélie born?", ["Amélie"], llm,
                   max_calls=max_calls)
    assert [c.purpose for c in res.llm_calls] == [f"agentic:{p}" for p in purposes]
    assert len(llm.prompts) == len(purposes) <= max_calls
    if len(purposes) < 4:
        assert res.counts.get("budget_stops") == 1
        assert any("no LLM call left" in e.message for e in res.events)


def test_calls_already_made_and_the_question_budget_count(demo_store, make_llm):
    tool = registry.tools().create("agentic")
    llm = _two_hop_llm(make_llm)
    services = Services(RunConfig(), llm=llm, embedder=LexicalEmbedder())
    req = ToolRequest(question="Where was the director of Amélie born?", store=demo_store,
                      services=services, params=tool.Params(max_calls=5), entities=linked("Amélie"),
                      llm_calls_used=4)
    res = tool.run(req)  # one call left: a single relation step
    assert [c.purpose for c in res.llm_calls] == ["agentic:relations"]
    req = ToolRequest(question="Where was the director of Amélie born?", store=demo_store,
                      services=services, params=tool.Params(max_calls=5), entities=linked("Amélie"),
                      llm_calls_left=1)  # the one call left is the answer's
    res = tool.run(req)
    assert res.llm_calls == [] and res.items == [] and res.counts["budget_stops"] == 1


def test_a_step_that_adds_no_new_fact_stops(demo_store, make_llm):
    llm = make_llm(by_rules([
        (lambda p: REL in p, f"{REL}\ndirected_by\n</selected-relations>"),
        # names the entity already explored: the next step can only find the same fact again
        (lambda p: ENT in p, f"{ENT}\nJean-Pierre Jeunet\n</next-entities>"),
    ]))
    res = run_tool(demo_store, "Who directed Amélie?", ["Amélie"], llm, max_calls=9)
    # step 1 from Amélie, step 2 from Jeunet finds the same directed_by edge: no new fact
    assert [c.purpose for c in res.llm_calls] == [
        "agentic:relations", "agentic:entities", "agentic:relations"]
    assert any("added no new fact" in e.message for e in res.events)


def test_relations_listed_in_a_fixed_order(demo_store, make_llm):
    llm = _two_hop_llm(make_llm)
    run_tool(demo_store, "Where was the director of Amélie born?", ["Amélie"], llm, max_calls=1)
    rels = re.search(r"Entity: Amélie\nRelations: (.+)\n", llm.prompts[0]).group(1).split(", ")
    assert sorted(rels) == ["directed_by", "genre", "set_in"]
    again = _two_hop_llm(make_llm)
    run_tool(demo_store, "Where was the director of Amélie born?", ["Amélie"], again, max_calls=1)
    assert again.prompts[0] == llm.prompts[0]
