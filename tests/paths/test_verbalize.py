"""Verbalizers: formats, merged tails, inverted hops, display names, CVT descriptions, budget."""

from __future__ import annotations

from byokg.backends.memory import GraphBuilder
from byokg.backends.memory import MemoryGraph
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from byokg.contracts import Path
from byokg.contracts import Triplet
from byokg.graph.paths import follow_paths
from byokg.graph.paths import shortest_paths
from byokg.graph.verbalize import is_cvt_id
from byokg.graph.verbalize import verbalize_paths
from byokg.graph.verbalize import verbalize_triplets
from byokg.language.text import count_tokens


def _named_graph():
    b = GraphBuilder()
    b.add_node("Q1", name="Johnny Cash")
    b.add_node("Q2", name="June Carter")
    b.add_node("Q3", name="Kingsland")
    b.add_node("m.0abc", properties={"from": 1968})
    b.add("Q1", "spouse_s", "m.0abc")
    b.add("m.0abc", "spouse", "Q2")
    b.add("Q1", "born_in", "Q3")
    for i in range(8):
        b.add_node(f"G{i}", name=f"Genre {i}")
        b.add("Q1", "genre", f"G{i}")
    return b.build()


def test_triplet_format_with_names_and_merged_tails():
    g = _named_graph()
    ts = [Triplet(head="Q1", relation="genre", tail=f"G{i}") for i in range(8)]
    ts.append(Triplet(head="Q1", relation="born_in", tail="Q3"))
    v = verbalize_triplets(g, ts, max_tokens=500, max_tails=3)
    assert v.lines == [
        "Johnny Cash -> genre -> Genre 0 | Genre 1 | Genre 2 (+5 more)",
        "Johnny Cash -> born_in -> Kingsland",
    ]
    assert v.omitted == 5 and v.sources[1] == [8]
    assert v.used_tokens == count_tokens(v.text)


def test_cvt_shown_with_one_hop_description():
    g = _named_graph()
    v = verbalize_triplets(
        g, [Triplet(head="Q1", relation="spouse_s", tail="m.0abc")], max_tokens=200
    )
    assert v.lines == ["Johnny Cash -> spouse_s -> m.0abc (spouse: June Carter; from: 1968)"]
    p = Path(nodes=("Q1", "m.0abc", "Q2"), relations=("spouse_s", "spouse"))
    line = verbalize_paths(g, [p], max_tokens=200).lines[0]
    # the path already shows both neighbours; the description keeps the property
    assert line == "Johnny Cash -> spouse_s -> m.0abc (from: 1968) -> spouse -> June Carter"
    assert is_cvt_id("m.0abc") and is_cvt_id("g.11bc_x") and not is_cvt_id("Johnny Cash")


def test_inverted_hops_use_reversed_arrows(make_graph):
    g = make_graph(("Wynton", "born_in", "New Orleans"), ("Louisiana", "contains", "New Orleans"))
    res = follow_paths(g, ["Wynton"], ["born_in", "contains"])
    v = verbalize_paths(g, res.paths, max_tokens=100)
    assert v.lines == ["Wynton -> born_in -> New Orleans <- contains <- Louisiana"]


def test_freebase_cvt_path(freebase_store):
    res = shortest_paths(freebase_store, [("Wynton Marsalis", "Harry S. Truman")], k=3)
    text = verbalize_paths(freebase_store, res.all_paths, max_tokens=400).text
    cvts = [n for p in res.all_paths for n in p.nodes if is_cvt_id(n)]
    assert cvts
    for c in cvts:
        assert f"{c} (" in text  # described, not a bare id


def test_budget_respected_and_greedy():
    g = _named_graph()
    ts = [Triplet(head="Q1", relation="genre", tail=f"G{i}") for i in range(8)]
    assert verbalize_triplets(g, ts, max_tokens=0).text == ""
    small = verbalize_triplets(g, ts, max_tokens=12, max_tails=5)
    assert small.lines and count_tokens(small.text) <= 12
    assert "(+" in small.lines[0]  # fewer tails shown rather than nothing


_name = st.text(
    alphabet=st.characters(codec="utf-8", categories=("L", "N", "Zs", "P")), min_size=1, max_size=30
)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(_name, st.sampled_from(["r", "rel.x.y", "a much longer relation name"]), _name),
        min_size=0,
        max_size=40,
    ),
    budget=st.integers(min_value=0, max_value=300),
    max_tails=st.integers(min_value=1, max_value=6),
)
def test_triplet_budget_never_exceeded(rows, budget, max_tails):
    rows = [r for r in rows if r[0].strip() and r[2].strip()]
    g = MemoryGraph.from_triplets(rows or [("x", "r", "y")])
    ts = [Triplet(head=h, relation=r, tail=t) for h, r, t in rows]
    v = verbalize_triplets(g, ts, max_tokens=budget, max_tails=max_tails)
    assert count_tokens(v.text) <= budget
    assert v.used_tokens == count_tokens(v.text)
    shown = {i for s in v.sources for i in s}
    assert v.omitted == len(ts) - len(shown)


@settings(max_examples=60, deadline=None)
@given(budget=st.integers(min_value=0, max_value=600), k=st.integers(min_value=1, max_value=8))
def test_path_budget_never_exceeded(freebase_store, budget, k):
    res = shortest_paths(freebase_store, [("Wynton Marsalis", "Canada"), ("Jazz", "Drama")], k=k)
    v = verbalize_paths(freebase_store, res.all_paths, max_tokens=budget)
    assert count_tokens(v.text) <= budget
    assert len({i for s in v.sources for i in s}) + v.omitted == len(res.all_paths)
    assert v.lines == [line for line in v.lines if line]  # no empty lines
