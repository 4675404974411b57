"""Shortest paths without noise: only strongly linked ends are connected, and paths through hub or
low-information relations (judged from the graph's own statistics, never from their names) are
pushed down or dropped unless the question asks about them."""

from __future__ import annotations

import pytest
from byokg.backends.memory import MemoryGraph

from byokg import registry
from byokg.config import RunConfig
from byokg.contracts import Candidate
from byokg.contracts import MentionLinks
from byokg.graph.profile import relation_stats
from byokg.graph.profile import relation_weights
from byokg.language.literals import is_literal_like
from byokg.models.services import Services
from byokg.pipeline.tools import ToolRequest


def _graph() -> MemoryGraph:
    rows = [(f"Citizen {i:03d}", "zq_member", "Freedonia") for i in range(150)]  # a hub tail
    rows += [(f"Citizen {i:03d}", "zq_knows", f"Citizen {i + 1:03d}") for i in range(0, 150, 2)]
    rows += [
        ("Alice", "zq_member", "Freedonia"), ("Bob", "zq_member", "Freedonia"),
        ("Alice", "zq_pic", "alice-and-bob.jpg"), ("Bob", "zq_pic", "alice-and-bob.jpg"),
        ("Carol", "zq_pic", "carol.png"), ("Dan", "zq_pic", "https://example.org/dan"),
        ("Alice", "zq_knows", "Carol"), ("Carol", "zq_knows", "Bob"),
    ]
    return MemoryGraph.from_triplets(rows)


def _linked(mention: str, node: str, score: float = 1.0) -> MentionLinks:
    method = "exact" if score == 1.0 else "fuzzy"
    return MentionLinks(mention=mention, candidates=(Candidate(id=node, name=node, score=score,
                                                               method=method),))


def _run(store, question, entities, answers, **params):
    tool = registry.tools().create("shortest-paths")
    req = ToolRequest(question=question, store=store, services=Services(RunConfig()),
                      params=tool.Params(**params), entities=entities, answers=answers)
    return tool.run(req)


def test_relation_statistics_come_from_the_graph():
    stats = relation_stats(_graph())
    assert stats["zq_pic"].literal_tails == 1.0 and stats["zq_pic"].noise == 1.0
    assert stats["zq_member"].tail_degree >= 150 and stats["zq_member"].noise > 0.5
    assert stats["zq_knows"].noise < 0.2
    w = relation_weights(stats, {"zq_pic": 0.0, "zq_member": 0.0, "zq_knows": 0.0, "x": 0.0})
    assert w["zq_pic"] < 0.2 < w["zq_member"] < w["zq_knows"] == 1.0 and w["x"] == 1.0
    asked = relation_weights(stats, {"zq_member": 1.0})
    assert asked["zq_member"] == 1.0  # a hub relation the question asks about keeps its weight
    assert is_literal_like("united-states.jpg") and is_literal_like("1961-08-04")
    assert not is_literal_like("United States of America") and not is_literal_like("m.0abc")


def test_paths_through_hubs_and_values_are_pushed_down():
    store = _graph()
    res = _run(store, "How are Alice and Bob related?", [_linked("Alice", "Alice")],
               [_linked("Bob", "Bob")], k=3)
    paths = [it.path for it in res.items]
    assert paths and paths[0].nodes == ("Alice", "Carol", "Bob")
    assert all("alice-and-bob.jpg" not in p.nodes for p in paths)  # a file name is no link
    dropped = next(e for e in res.events if "low-information" in e.message)
    assert dropped.data["relations"] == {"zq_pic": 1}
    scores = {it.path.nodes[1]: it.score for it in res.items}
    assert scores["Carol"] > scores["Freedonia"]


def test_only_strongly_linked_ends_are_connected():
    store = _graph()
    res = _run(store, "How are Alice and Bob related?", [_linked("Alise", "Alice", 0.8)],
               [_linked("Bob", "Bob")])
    assert res.items == []
    assert any("linked too loosely" in e.message for e in res.events)
    ok = _run(store, "How are Alice and Bob related?", [_linked("Alise", "Alice", 0.8)],
              [_linked("Bob", "Bob")], min_link_score=0.75)
    assert ok.items


@pytest.mark.parametrize("reads,changed,repeat", [
    ("entities", "answers", False),
    ("answers", "relation_paths", True),
])
def test_request_key_reads_only_what_the_tool_uses(reads, changed, repeat):
    from byokg.contracts import Artifacts
    from byokg.contracts import RelationPath

    tool = registry.tools().create("shortest-paths")
    store = _graph()
    base = ToolRequest(question="q", store=store, services=Services(RunConfig()),
                       params=tool.Params(), entities=[_linked("Alice", "Alice")],
                       answers=[_linked("Bob", "Bob")])
    other = ToolRequest(question="q", store=store, services=Services(RunConfig()),
                        params=tool.Params(), entities=[_linked("Alice", "Alice")],
                        answers=[_linked("Bob", "Bob")] if changed != "answers" else
                        [_linked("Carol", "Carol")],
                        artifacts=Artifacts(relation_paths=(RelationPath.parse("zq_knows"),))
                        if changed == "relation_paths" else Artifacts())
    assert reads in tool.reads
    assert (tool.request_key(base) == tool.request_key(other)) is repeat
