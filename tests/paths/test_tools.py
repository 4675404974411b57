"""The path tools as plugins: registration, params from the run config, ContextItems, events."""

from __future__ import annotations

import json

import pytest

from byokg import registry
from byokg.config import RunConfig
from byokg.contracts import Artifacts
from byokg.contracts import Candidate
from byokg.contracts import MentionLinks
from byokg.contracts import RelationPath
from byokg.errors import ConfigError
from byokg.models.services import Services
from byokg.pipeline.tools import ToolRequest

TOOLS = {"follow-paths": True, "shortest-paths": True, "one-hop": True, "expand": False}


def _links(*ids: str) -> list[MentionLinks]:
    return [
        MentionLinks(mention=i, candidates=(Candidate(id=i, name=i, score=1.0, method="exact"),))
        for i in ids
    ]


def _run(
    store, tool_name, *, question="", entities=(), answers=(), paths=(), params=None, iteration=1
):
    """Run the registered tool ``tool_name`` on one request; its ToolResult."""
    tool = registry.tools().create(tool_name)
    config = RunConfig(params={tool_name: params or {}})
    return tool.run(ToolRequest(
        question=question,
        store=store,
        services=Services(config),
        params=config.tool_params(tool_name, tool.Params),
        iteration=iteration,
        artifacts=Artifacts(relation_paths=tuple(RelationPath.parse(p) for p in paths)),
        entities=_links(*entities),
        answers=_links(*answers),
    ))


@pytest.fixture(scope="module")
def demo_questions():
    from byokg.demo import DEMO_QUESTIONS

    return [json.loads(line) for line in DEMO_QUESTIONS.open(encoding="utf-8")]


def test_registered_with_defaults():
    reg = registry.tools()
    for name, default in TOOLS.items():
        entry = reg.get(name)
        assert entry.plugin == "byokg.plugins.paths"
        tool = entry.factory()
        assert tool.name == name and tool.default is default and tool.kind == "retrieval"


def test_params_validated_from_config():
    tool = registry.tools().create("follow-paths")
    p = RunConfig(params={"follow-paths": {"fanout_per_hop": 3}}).tool_params(
        "follow-paths", tool.Params
    )
    assert p.fanout_per_hop == 3 and p.max_paths == 200
    with pytest.raises(ConfigError, match="fanout"):
        RunConfig(params={"follow-paths": {"fanout": 3}}).tool_params("follow-paths", tool.Params)


def test_follow_paths_demo_questions(demo_store, demo_questions):
    multi = [q for q in demo_questions if q["hops"] >= 2]
    assert multi
    for q in multi:
        res = _run(demo_store, "follow-paths", question=q["question"],
                   entities=q["topic_entities"], paths=[" -> ".join(q["relation_path"])])
        assert res.items, q["id"]
        ends = {n for item in res.items for n in item.nodes}
        assert set(q["answers"]) <= ends, q["id"]
        for item in res.items:
            assert item.kind == "path" and item.tool == "follow-paths" and item.iteration == 1
            assert item.path is not None and item.nodes == (item.path.end,)
            assert item.triplets == tuple(item.path.triplets())
            assert item.text.count(" -> ") + item.text.count(" <- ") == 2 * item.path.hops
        if any(q["inverted"]):
            assert any("against the stored direction" in e.message for e in res.events), q["id"]


def test_follow_paths_unknown_relation_event(demo_store):
    res = _run(demo_store, "follow-paths", entities=["Wynton Marsalis"],
               paths=["born_at -> capital"])
    warn = [e for e in res.events if e.level == "warning"]
    assert warn and warn[0].data["relation"] == "born_at"
    assert "born_in" in warn[0].data["suggestions"]
    assert warn[0].iteration == 1


def _usa_divisions(store, **params):
    """follow-paths from the USA along its administrative divisions, with ``params``."""
    return _run(store, "follow-paths", entities=["United States of America"],
                paths=["location.country.administrative_divisions"], params=params)


def test_follow_paths_caps_event(freebase_store):
    res = _usa_divisions(freebase_store, fanout_per_hop=2)
    assert len(res.items) == 2
    assert any("caps hit" in e.message for e in res.events)


def test_follow_paths_budget(freebase_store):
    res = _usa_divisions(freebase_store, max_tokens=40)
    from byokg.language.text import count_tokens

    assert res.items and count_tokens("\n".join(i.text for i in res.items)) <= 40
    assert res.counts["paths_omitted"] > 0


def test_shortest_paths_tool(demo_store, freebase_store):
    res = _run(demo_store, "shortest-paths", entities=["Wynton Marsalis"], answers=["Louisiana"])
    assert res.items
    for item in res.items:
        assert item.path.start == "Wynton Marsalis" and item.path.end == "Louisiana"
        assert (
            item.nodes == ("Louisiana",) and item.kind == "path" and item.tool == "shortest-paths"
        )
    res = _run(freebase_store, "shortest-paths", entities=["Wynton Marsalis", "Jazz"],
               answers=["Canada"], params={"hub_degree": 50})
    assert any(
        "hub" in e.message and "United States of America" in e.data.get("hubs", [])
        for e in res.events
    )
    assert _run(demo_store, "shortest-paths", entities=["Wynton Marsalis"]).items == []


def test_one_hop_ranks_relations_by_question(demo_store):
    res = _run(demo_store, "one-hop", question="Where was Wynton Marsalis born?",
               entities=["Wynton Marsalis"])
    assert res.items[0].text.startswith("Wynton Marsalis -> born_in -> ")
    assert res.items[0].score > 0 and all(i.kind == "triplets" for i in res.items)
    assert "New Orleans" in res.items[0].nodes


def test_one_hop_hub_fetches_matching_relations(freebase_store):
    res = _run(freebase_store, "one-hop",
               question="Which military commanders did the country have?",
               entities=["United States of America"], params={"per_node": 5})
    assert any("military_commanders" in i.text for i in res.items)
    assert any("cut" in e.message for e in res.events)


def test_expand_tool(freebase_store):
    res = _run(freebase_store, "expand", question="What genre is Jazz?", entities=["Jazz"],
               params={"max_triplets": 40, "per_node": 5})
    assert res.items and res.counts["triplets"] <= 40
    assert all(i.tool == "expand" and i.triplets for i in res.items)
    assert any(e.source == "expand" for e in res.events)
