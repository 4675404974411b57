"""MemoryGraph as a GraphStore: both directions, every node findable, filters, caps, schema."""

from __future__ import annotations

import numpy as np
import pytest
from byokg.backends.memory import MemoryGraph
from byokg.backends.memory import _normalize
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from byokg.contracts import Direction
from byokg.contracts import Neighborhood
from byokg.contracts import Node
from byokg.contracts import Triplet
from byokg.graph.store import GraphStore
from byokg.language.text import normalize
from byokg.testing import triples

TRIPLES = triples("""
    Ada Lovelace | people.person.spouse | William King
    Ada Lovelace | people.person.nationality | United Kingdom
    Ada Lovelace | people.person.parents | Lord Byron
    Lord Byron | people.person.nationality | United Kingdom
    Charles Babbage | people.person.nationality | United Kingdom
    Charles Babbage | influenced | Ada Lovelace
    London | location.location.containedby | United Kingdom
""")


@pytest.fixture
def g() -> MemoryGraph:
    return MemoryGraph.from_triplets(TRIPLES, uri="memory:test")


def test_is_a_graphstore(g):
    assert isinstance(g, GraphStore)
    assert g.uri == "memory:test"
    assert len(g) == 7
    st = g.stats()
    assert (st.nodes, st.triplets, st.relations) == (6, 7, 5)


def test_out_in_both_directions(g):
    out = g.neighbors(["Ada Lovelace"], direction=Direction.OUT)["Ada Lovelace"]
    assert isinstance(out, Neighborhood)
    assert {t.key for t in out.triplets} == {t for t in TRIPLES if t[0] == "Ada Lovelace"}
    inn = g.neighbors(["Ada Lovelace"], direction="in")["Ada Lovelace"]
    assert [t.key for t in inn.triplets] == [("Charles Babbage", "influenced", "Ada Lovelace")]
    both = g.neighbors(["Ada Lovelace"])["Ada Lovelace"]
    assert {t.key for t in both.triplets} == {t.key for t in out.triplets + inn.triplets}
    assert both.total == 4 and not both.truncated
    # triplets keep their stored direction whichever side they were found from
    assert all(isinstance(t, Triplet) for t in both.triplets)


def test_every_node_kind_is_findable(g):
    # heads only (Charles Babbage, London), tails only (United Kingdom, William King), both (Ada)
    for node in ("Charles Babbage", "London", "United Kingdom", "William King", "Ada Lovelace"):
        assert g.has_node(node)
        assert g.neighbors([node])[node].total > 0
        assert g.get_nodes([node])[node] == Node(id=node, name=node, labels=("Entity",))
    uk = g.neighbors(["United Kingdom"], direction="in")["United Kingdom"]
    assert {t.head for t in uk.triplets} == {
        "Ada Lovelace",
        "Lord Byron",
        "Charles Babbage",
        "London",
    }
    assert g.neighbors(["United Kingdom"], direction="out")["United Kingdom"].total == 0
    assert g.neighbors(["London"], direction="in")["London"].total == 0


def test_batch_and_unknown_ids(g):
    res = g.neighbors(["Ada Lovelace", "nobody", "London"])
    assert list(res) == ["Ada Lovelace", "nobody", "London"]
    assert res["nobody"].triplets == () and res["nobody"].total == 0
    assert g.get_nodes(["nobody"]) == {"nobody": None}
    assert g.degrees(["Ada Lovelace", "nobody"]) == {"Ada Lovelace": 4, "nobody": 0}
    assert g.degrees(["United Kingdom"], direction="in") == {"United Kingdom": 4}
    assert g.degrees(["United Kingdom"], direction="out") == {"United Kingdom": 0}
    assert not g.has_node("nobody")


def test_relation_filter(g):
    res = g.neighbors(["United Kingdom", "Ada Lovelace"], relations=["people.person.nationality"])
    assert {t.head for t in res["United Kingdom"].triplets} == {
        "Ada Lovelace",
        "Lord Byron",
        "Charles Babbage",
    }
    assert [t.key for t in res["Ada Lovelace"].triplets] == [
        ("Ada Lovelace", "people.person.nationality", "United Kingdom")
    ]
    # several relations, one unknown
    res = g.neighbors(["Ada Lovelace"], relations=["influenced", "people.person.spouse", "nope"])
    assert {t.relation for t in res["Ada Lovelace"].triplets} == {
        "influenced",
        "people.person.spouse",
    }
    assert g.neighbors(["Ada Lovelace"], relations=["nope"])["Ada Lovelace"].total == 0
    assert g.neighbors(["Ada Lovelace"], relations=[])["Ada Lovelace"].total == 0


def test_cap_per_node_reports_total_and_truncation(g):
    res = g.neighbors(["United Kingdom", "London"], limit_per_node=2)
    uk = res["United Kingdom"]
    assert len(uk.triplets) == 2 and uk.total == 4 and uk.truncated
    # insertion order: the first two stored edges into the UK
    assert [t.head for t in uk.triplets] == ["Ada Lovelace", "Lord Byron"]
    assert res["London"].total == 1 and not res["London"].truncated
    capped = g.neighbors(
        ["United Kingdom"], relations=["people.person.nationality"], limit_per_node=1
    )
    assert capped["United Kingdom"].total == 3 and len(capped["United Kingdom"].triplets) == 1
    zero = g.neighbors(["United Kingdom"], limit_per_node=0)["United Kingdom"]
    assert zero.triplets == () and zero.total == 4 and zero.truncated


def test_triplets_are_real_models(g):
    t = g.neighbors(["London"])["London"].triplets[0]
    assert t == Triplet(
        head="London", relation="location.location.containedby", tail="United Kingdom"
    )
    assert t.model_dump() == {
        "head": "London",
        "relation": "location.location.containedby",
        "tail": "United Kingdom",
        "properties": {},
    }
    with pytest.raises(ValidationError):  # frozen
        t.head = "x"  # type: ignore[misc]
    assert Triplet.model_validate_json(t.model_dump_json()) == t


def test_names_display_iteration(g):
    assert g.display_names(["London", "nobody"]) == {"London": "London", "nobody": "nobody"}
    pairs = [p for batch in g.iter_node_names(batch_size=3) for p in batch]
    assert sorted(n for n, _ in pairs) == sorted({x for t in TRIPLES for x in (t[0], t[2])})
    assert all(len(b) <= 3 for b in g.iter_node_names(batch_size=3))
    assert g.relation_types() == list(dict.fromkeys(r for _, r, _ in TRIPLES))


def test_node_ids_by_name_normalized():
    g = MemoryGraph.from_networkx(_nx_with_names(), uri="memory:nx")
    found = g.node_ids_by_name(["beyonce knowles", "Queen B", "SASHA FIERCE!", "Houston", "nope"])
    assert found["beyonce knowles"] == ["m.01"]
    assert found["Queen B"] == ["m.01"]
    assert found["SASHA FIERCE!"] == ["m.01"]
    assert found["Houston"] == ["m.02"]
    assert found["nope"] == []
    # two nodes with the same name are both returned
    g2 = MemoryGraph.from_triplets([("Paris", "r", "x"), ("paris", "r", "y")])
    assert sorted(g2.node_ids_by_name(["PARIS"])["PARIS"]) == ["Paris", "paris"]


def _nx_with_names():
    nx = pytest.importorskip("networkx")
    G = nx.DiGraph()
    G.add_node("m.01", name="Beyoncé Knowles", aliases=["Queen B", "Sasha Fierce"], label="Person")
    G.add_node("m.02", name="Houston", label="City", population=2_300_000)
    G.add_edge("m.01", "m.02", relation="people.person.place_of_birth", since=1981)
    return G


def test_schema_samples_and_patterns():
    g = MemoryGraph.from_networkx(_nx_with_names())
    sch = g.schema(samples=2)
    labels = {lab.name: lab for lab in sch.node_labels}
    assert set(labels) == {"Person", "City"}
    city_props = {p.name: p.samples for p in labels["City"].properties}
    assert city_props["name"] == ("Houston",) and city_props["population"] == (2_300_000,)
    (rel,) = sch.relation_types
    assert rel.name == "people.person.place_of_birth" and rel.count == 1
    assert [(p.src, p.dst) for p in rel.patterns] == [("Person", "City")]
    assert rel.samples == (("Beyoncé Knowles", "Houston"),)
    assert g.neighbors(["m.01"])["m.01"].triplets[0].properties == {"since": 1981}
    assert g.stats().labels == 2


def test_from_triplets_validates_and_dedups():
    g = MemoryGraph.from_triplets(
        [("a", "r", "b"), Triplet(head="a", relation="r", tail="b"), ("b", "r", "a")]
    )
    assert len(g) == 2 and g.stats().duplicates_skipped == 1
    from byokg.errors import InputError

    with pytest.raises(InputError, match=r"triplet #2 .*three non-empty strings"):
        MemoryGraph.from_triplets([("a", "r", "b"), ("a", "", "b")])


@given(st.text(max_size=30))
def test_fast_normalize_equals_text_normalize(text):
    assert _normalize(text) == normalize(text)


@pytest.mark.parametrize("seed", range(6))
def test_batched_neighbors_match_a_naive_scan(seed):
    rng = np.random.default_rng(seed)
    n_nodes, n_edges = 40, 300
    rows = [
        (f"n{h}", f"r{r}", f"n{t}")
        for h, r, t in zip(
            rng.zipf(1.6, n_edges) % n_nodes,
            rng.integers(0, 6, n_edges),
            rng.integers(0, n_nodes, n_edges),
            strict=True,
        )
    ]
    g = MemoryGraph.from_triplets(rows)
    edges = list(dict.fromkeys(rows))  # file order, first occurrences
    ids = [f"n{i}" for i in rng.permutation(n_nodes + 5)]  # includes unknown ids
    ids += ids[:3]  # and repeats
    for direction in ("out", "in", "both"):
        for relations in (None, ["r1", "r3"], ["nope"]):
            for cap in (None, 0, 1, 4):
                got = g.neighbors(ids, direction=direction, relations=relations, limit_per_node=cap)
                assert list(got) == list(dict.fromkeys(ids))
                for nid in ids:
                    outs = [e for e in edges if e[0] == nid] if direction != "in" else []
                    ins = [e for e in edges if e[2] == nid] if direction != "out" else []
                    want = [e for e in outs + ins if relations is None or e[1] in relations]
                    nb = got[nid]
                    assert nb.total == len(want)
                    assert [t.key for t in nb.triplets] == (want[:cap] if cap is not None else want)
                    assert nb.truncated == (cap is not None and len(want) > cap)


@pytest.mark.parametrize("grouped", [False, True])
def test_csr_index_is_a_stable_grouping(grouped):
    """Edges grouped by node in insertion order, whether the ends come grouped already (a
    dump sorted by subject: no sort needed) or not."""
    from byokg.backends.memory import _csr

    rng = np.random.default_rng(7)
    src = rng.integers(0, 50, 2_000).astype(np.int32)
    if grouped:
        src.sort()
    ptr, order = _csr(src, 60)
    assert order.tolist() == np.argsort(src, kind="stable").tolist()
    assert ptr.tolist() == [0, *np.cumsum(np.bincount(src, minlength=60)).tolist()]
    empty_ptr, empty = _csr(np.zeros(0, dtype=np.int32), 3)
    assert empty.tolist() == [] and empty_ptr.tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("labels", [1, 7, 2_000])
def test_end_stats_match_a_naive_count(labels):
    """Per relation and end: several edges at one node, and distinct nodes per label (with few
    labels a counting table, with many a sort)."""
    rng = np.random.default_rng(labels)
    rows = list(dict.fromkeys(
        (f"n{h}", f"r{r}", f"n{t}") for h, r, t in zip(
            rng.integers(0, 2_000, 6_000).tolist(), rng.integers(0, 40, 6_000).tolist(),
            rng.integers(0, 2_000, 6_000).tolist(), strict=True)))
    g = MemoryGraph.from_triplets(rows)
    label_of = {nid: f"L{int(nid[1:]) % labels}" for nid in g._ids}
    if labels > 1:
        for i, nid in enumerate(g._ids):
            g._labels[i] = (label_of[nid],)
    for end, pos in ((g.heads, 0), (g.tails, 2)):
        many, counts = g._end_stats(end)
        for r, rel in enumerate(g._rels):
            ends = [row[pos] for row in rows if row[1] == rel]
            assert bool(many[r]) == (len(ends) > len(set(ends)))
            want: dict[str, int] = {}
            for nid in set(ends):
                lab = label_of[nid] if labels > 1 else "Entity"
                want[lab] = want.get(lab, 0) + 1
            assert counts.get(r, {}) == want


def test_schema_patterns_cover_every_edge_not_only_samples():
    from byokg.backends.memory import GraphBuilder

    b = GraphBuilder()
    b.add_node("p", labels=["Person"])
    b.add_node("b", labels=["Band"])
    b.add_node("f", labels=["Film"])
    b.add_node("jazz", labels=["MusicGenre"])
    b.add_node("noir", labels=["FilmGenre"])
    for _ in range(1):
        b.add("b", "genre", "jazz")
        b.add("p", "genre", "jazz")
        b.add("f", "genre", "noir")
    g = b.build("memory:t")
    for samples in (0, 1):
        rel = next(r for r in g.schema(samples=samples).relation_types if r.name == "genre")
        assert {(p.src, p.dst) for p in rel.patterns} == {
            ("Band", "MusicGenre"), ("Person", "MusicGenre"), ("Film", "FilmGenre")
        }
