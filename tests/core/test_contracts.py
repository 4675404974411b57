"""Contracts: validation, identity, helpers and immutability of the values passed at every seam."""

from __future__ import annotations

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byokg.contracts import Artifacts
from byokg.contracts import Candidate
from byokg.contracts import ContextItem
from byokg.contracts import Direction
from byokg.contracts import GraphSchema
from byokg.contracts import LLMCall
from byokg.contracts import MentionLinks
from byokg.contracts import Node
from byokg.contracts import NodeLabel
from byokg.contracts import Path
from byokg.contracts import RelationPath
from byokg.contracts import RelationType
from byokg.contracts import StageTiming
from byokg.contracts import Trace
from byokg.contracts import Triplet
from byokg.pipeline.answer import Answer


def test_path_validation():
    p = Path(nodes=("a", "b", "c"), relations=("r1", "r2"))
    assert (p.hops, p.start, p.end) == (2, "a", "c")
    with pytest.raises(ValueError, match="one more node than relations"):
        Path(nodes=("a", "b"), relations=("r1", "r2"))
    with pytest.raises(ValueError, match="one more node than relations"):
        Path(nodes=(), relations=())
    with pytest.raises(ValueError, match="one flag per relation"):
        Path(nodes=("a", "b", "c"), relations=("r1", "r2"), inverted=(True,))
    assert Path(nodes=("a",)).hops == 0


def test_path_triplets_turn_inverted_hops_round():
    # Björk -born_in-> Reykjavík <-capital- Iceland, walked from Björk to Iceland
    p = Path(nodes=("Björk", "Reykjavík", "Iceland"), relations=("born_in", "capital"),
             inverted=(False, True))
    assert p.is_inverted(1) and not p.is_inverted(0)
    assert p.triplets() == [
        Triplet(head="Björk", relation="born_in", tail="Reykjavík"),
        Triplet(head="Iceland", relation="capital", tail="Reykjavík"),
    ]
    plain = Path(nodes=("a", "b"), relations=("r",))
    assert not plain.is_inverted(0)
    assert plain.triplets()[0].key == ("a", "r", "b")


def test_triplet_identity_ignores_properties():
    a = Triplet(head="h", relation="r", tail="t", properties={"since": 1990})
    b = Triplet(head="h", relation="r", tail="t")
    c = Triplet(head="t", relation="r", tail="h")
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    assert a != ("h", "r", "t")  # only triplets compare equal to triplets
    assert a.key == ("h", "r", "t")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("born_in -> located_in", ("born_in", "located_in")),
        ("born_in→located_in → capital", ("born_in", "located_in", "capital")),
        ("  genre  ", ("genre",)),
        ("a -> -> b ->", ("a", "b")),
        ("", ()),
    ],
)
def test_relation_path_parse(text, expected):
    rp = RelationPath.parse(text)
    assert rp.relations == expected
    assert str(rp) == " -> ".join(expected)
    assert RelationPath.parse(str(rp)) == rp


@pytest.mark.parametrize(
    "value, change",
    [
        (Node(id="n"), {"name": "x"}),
        (Triplet(head="h", relation="r", tail="t"), {"head": "x"}),
        (Path(nodes=("a",)), {"nodes": ("b",)}),
        (RelationPath(relations=("r",)), {"relations": ()}),
        (Artifacts(), {"finish": True}),
        (Candidate(id="n", name="n", score=1.0, method="exact"), {"score": 0.0}),
        (MentionLinks(mention="m"), {"mention": "x"}),
        (ContextItem(text="t", tool="x"), {"text": "u"}),
        (GraphSchema(), {"node_labels": ()}),
    ],
)
def test_values_are_frozen(value, change):
    (field, new), = change.items()
    with pytest.raises(pydantic.ValidationError):
        setattr(value, field, new)


def test_unknown_fields_are_rejected():
    with pytest.raises(pydantic.ValidationError, match="nickname"):
        Node(id="n", nickname="x")
    with pytest.raises(pydantic.ValidationError):
        Artifacts(entity=("x",))


def test_node_display_and_defaults():
    assert Node(id="Q1").display == "Q1"
    assert Node(id="Q1", name="Björk").display == "Björk"
    assert Node(id="x").labels == () and Node(id="x").properties == {}


def test_schema_and_links_helpers():
    sch = GraphSchema(node_labels=(NodeLabel(name="Person"),),
                      relation_types=(RelationType(name="born_in"), RelationType(name="genre")))
    assert sch.label_names == ["Person"] and sch.relation_names == ["born_in", "genre"]
    ml = MentionLinks(mention="satchmo", candidates=(
        Candidate(id="Louis Armstrong", name="Louis Armstrong", score=0.9, method="alias"),
        Candidate(id="Satchmo (film)", name="Satchmo", score=0.5, method="fuzzy"),
    ))
    assert ml.ids == ["Louis Armstrong", "Satchmo (film)"]
    assert Direction("in") is Direction.IN and str(Direction.BOTH) == "both"


def test_trace_helpers():
    tr = Trace()
    tr.event("linker", "parsed", iteration=0)
    tr.event("cypher", "query came back empty", level="warning", iteration=1, query="MATCH …")
    tr.event("engine", "failed", level="error")
    tr.count("triplets")
    tr.count("triplets", 4)
    tr.stages += [StageTiming(stage="link", seconds=0.25), StageTiming(stage="link", seconds=0.5),
                  StageTiming(stage="answer", seconds=1.0, count=2)]
    tr.llm_calls += [
        LLMCall(purpose="linker", model="m", prompt_checksum="abc", prompt_tokens=10,
                completion_tokens=3),
        LLMCall(purpose="answer", model="m", prompt_checksum="def", prompt_tokens=7,
                completion_tokens=2),
    ]
    assert tr.counts == {"triplets": 5}
    assert [e.message for e in tr.warnings] == ["query came back empty", "failed"]
    assert tr.events[1].data == {"query": "MATCH …"} and tr.events[1].iteration == 1
    assert tr.stage_seconds() == {"link": 0.75, "answer": 1.0}
    assert (tr.prompt_tokens, tr.completion_tokens) == (17, 5)


def test_answer_round_trips_through_json():
    item = ContextItem(
        text="Björk born_in Reykjavík", tool="follow-paths", iteration=1, score=0.8,
        kind="path", triplets=(Triplet(head="Björk", relation="born_in", tail="Reykjavík"),),
        path=Path(nodes=("Björk", "Reykjavík"), relations=("born_in",)), nodes=("Reykjavík",),
    )
    ans = Answer(question="Where was Björk born?", answers=["Reykjavík"], evidence=[item],
                 context=[item])
    ans.trace.count("items", 1)
    again = Answer.model_validate_json(ans.model_dump_json())
    assert again == ans
    assert again.evidence[0].path.triplets() == list(item.triplets)


_ids = st.text(min_size=1, max_size=6)


@given(st.lists(st.tuples(_ids, _ids, st.booleans()), min_size=1, max_size=5), _ids)
def test_path_triplets_property(hops, start):
    """Walking a path and turning inverted hops round gives edges that chain node to node."""
    nodes = (start, *(h[0] for h in hops))
    rels = tuple(h[1] for h in hops)
    inv = tuple(h[2] for h in hops)
    path = Path(nodes=nodes, relations=rels, inverted=inv)
    trips = path.triplets()
    assert len(trips) == path.hops == len(hops)
    for i, t in enumerate(trips):
        a, b = nodes[i], nodes[i + 1]
        assert t.relation == rels[i]
        assert (t.head, t.tail) == ((b, a) if inv[i] else (a, b))
