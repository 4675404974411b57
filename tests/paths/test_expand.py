"""expand: L-hop triplets with per-node and total caps, relation filters, one call per hop."""

from __future__ import annotations

import pytest

from byokg.contracts import Direction
from byokg.graph.paths import expand


def test_expand_two_hops_matches_oracle(make_graph):
    g = make_graph(("a", "r", "b"), ("b", "s", "c"), ("c", "t", "d"), ("e", "r", "a"))
    one = expand(g, ["a"], hops=1)
    assert {t.key for t in one.triplets} == {("a", "r", "b"), ("e", "r", "a")}
    two = expand(g, ["a"], hops=2)
    assert {t.key for t in two.triplets} == {("a", "r", "b"), ("e", "r", "a"), ("b", "s", "c")}
    assert two.per_hop == [2, 1] and not two.truncated
    assert set(two.reached) == {"a", "b", "e", "c"}


def test_direction_and_relation_filter(make_graph):
    g = make_graph(("a", "r", "b"), ("b", "s", "c"), ("e", "r", "a"), ("b", "r", "f"))
    out = expand(g, ["a"], hops=2, direction=Direction.OUT)
    assert {t.key for t in out.triplets} == {("a", "r", "b"), ("b", "s", "c"), ("b", "r", "f")}
    only_r = expand(g, ["a"], hops=2, relations=["r"])
    assert {t.relation for t in only_r.triplets} == {"r"}
    assert ("b", "s", "c") not in {t.key for t in only_r.triplets}


@pytest.mark.parametrize(
    ("per_node", "max_triplets"), [(1, 1000), (5, 1000), (50, 30), (50, 1000), (3, 7)]
)
def test_caps_respected_on_hub(freebase_store, counting, per_node, max_triplets):
    store = counting(freebase_store)
    hub = "United States of America"
    res = expand(store, [hub], hops=2, per_node=per_node, max_triplets=max_triplets)
    assert len(res.triplets) <= max_triplets
    assert sum(res.per_hop) == len(res.triplets)
    assert len({t.key for t in res.triplets}) == len(res.triplets)
    assert res.truncated and hub in res.capped_nodes
    assert store.calls["neighbors"] <= 2  # one per hop, whole frontier at once
    per_head: dict[str, int] = {}
    assert res.per_hop[0] <= per_node
    for t in res.triplets[: res.per_hop[0]]:
        per_head[t.head] = per_head.get(t.head, 0) + 1
    # the hub's own hop-1 edges never exceed per_node
    assert sum(per_head.values()) <= per_node


def test_total_cap_is_shared_fairly(make_graph):
    star = [("s", "r", f"n{i}") for i in range(10)]
    leaves = [(f"n{i}", "q", f"leaf{i}_{j}") for i in range(10) for j in range(20)]
    g = make_graph(*star, *leaves)
    res = expand(g, ["s"], hops=2, per_node=50, max_triplets=30)
    assert len(res.triplets) == 30 and res.truncated
    hop2_heads = {t.head for t in res.triplets[10:]}
    assert len(hop2_heads) == 10  # every hop-1 node contributes, none eats the budget


def test_zero_hops_and_bad_args(make_graph):
    g = make_graph(("a", "r", "b"))
    assert expand(g, ["a"], hops=0).triplets == []
    with pytest.raises(ValueError):
        expand(g, ["a"], per_node=0)
