"""shortest_paths: bidirectional BFS, k paths, hubs, bounds, unreachable targets, batching."""

from __future__ import annotations

import random
import time

import networkx as nx
import pytest

from byokg.contracts import Path
from byokg.graph.paths import shortest_paths
from byokg.graph.store import Capability

NO_CAPS = {"hub_degree": 10**9, "max_expansions": 10**9}


@pytest.fixture(scope="module")
def undirected(tiny_rows):
    g = nx.Graph()
    g.add_edges_from((h, t) for h, _, t in tiny_rows if h != t)
    return g


@pytest.fixture(scope="module")
def edge_set(tiny_rows):
    return set(tiny_rows)


def _sample_pairs(undirected, n, seed=0):
    rng = random.Random(seed)
    nodes = sorted(undirected)
    pairs = []
    while len(pairs) < n:
        s = rng.choice(nodes)
        dist = nx.single_source_shortest_path_length(undirected, s, cutoff=3)
        far = sorted(t for t, d in dist.items() if d >= 1)
        if far:
            t = rng.choice(far)
            pairs.append((s, t, dist[t]))
    return pairs


def _valid(path: Path, edge_set) -> bool:
    return all(t.key in edge_set for t in path.triplets())


@pytest.mark.parametrize("generic", [False, True], ids=["csr", "generic"])
def test_shortest_lengths_match_networkx(freebase_store, undirected, edge_set, counting, generic):
    store = counting(freebase_store) if generic else freebase_store
    pairs = _sample_pairs(undirected, 40)
    res = shortest_paths(store, [(s, t) for s, t, _ in pairs], max_hops=3, k=3, **NO_CAPS)
    for (s, t, d), pp in zip(pairs, res.pairs, strict=True):
        assert (pp.source, pp.target) == (s, t)
        assert pp.hops == d, (s, t)
        assert 1 <= len(pp.paths) <= 3
        for p in pp.paths:
            assert p.start == s and p.end == t and p.hops == d
            assert len(set(p.nodes)) == len(p.nodes)
            assert _valid(p, edge_set), p


def test_generic_and_csr_agree(freebase_store, undirected, counting):
    pairs = [(s, t) for s, t, _ in _sample_pairs(undirected, 30, seed=5)]
    fast = shortest_paths(freebase_store, pairs, max_hops=3, k=1000, **NO_CAPS)
    slow = shortest_paths(counting(freebase_store), pairs, max_hops=3, k=1000, **NO_CAPS)
    for a, b in zip(fast.pairs, slow.pairs, strict=True):
        assert a.hops == b.hops
        assert {(p.nodes, p.relations, p.inverted) for p in a.paths} == {
            (p.nodes, p.relations, p.inverted) for p in b.paths
        }


def test_k_paths_and_direction_flags(make_graph):
    g = make_graph(
        ("a", "r", "b1"),
        ("a", "r", "b2"),
        ("c", "s", "b3"),
        ("a", "r", "b3"),
        ("b1", "s", "c"),
        ("b2", "s", "c"),
        ("x", "r", "y"),
    )
    for store in (g,):
        two = shortest_paths(store, [("a", "c")], k=2)
        assert len(two.pairs[0].paths) == 2 and two.pairs[0].hops == 2
        allp = shortest_paths(store, [("a", "c")], k=10).pairs[0].paths
        assert {p.nodes for p in allp} == {("a", "b1", "c"), ("a", "b2", "c"), ("a", "b3", "c")}
        via_b3 = next(p for p in allp if p.nodes[1] == "b3")
        assert via_b3.inverted == (False, True)  # c -s-> b3 is walked b3 -> c
        assert via_b3.triplets()[1].key == ("c", "s", "b3")


def test_unreachable_is_fast_empty_and_exhausted(make_graph, counting):
    chain = [(f"n{i}", "next", f"n{i + 1}") for i in range(2000)]
    g = make_graph(*chain, ("island", "r", "other"))
    for store in (g, counting(g)):
        t0 = time.perf_counter()
        res = shortest_paths(store, [("n0", "island"), ("n1000", "other")], max_hops=3)
        assert time.perf_counter() - t0 < 1.0
        assert res.all_paths == [] and res.exhausted and not res.bounded
        assert all(p.expansions <= 8 for p in res.pairs)  # a handful of edges, not the chain
    res = shortest_paths(g, [("n0", "n3"), ("n0", "n4")], max_hops=3)
    assert res.pairs[0].hops == 3 and res.pairs[1].paths == []


def test_unknown_nodes(freebase_store, counting):
    for store in (freebase_store, counting(freebase_store)):
        res = shortest_paths(store, [("Wynton Marsalis", "no such node")])
        assert res.all_paths == [] and res.pairs[0].exhausted


def test_hubs_not_expanded_but_reported_and_usable(make_graph, counting):
    spokes = [("hub", "r", f"s{i}") for i in range(50)] + [
        ("hub2", "r", f"t{i}") for i in range(50)
    ]
    g = make_graph(
        *spokes, ("a", "r", "s1"), ("s2", "r", "b"), ("hub", "link", "m"), ("m", "link", "hub2")
    )
    for store in (g, counting(g)):
        # a hub joins two paths without being expanded
        via = shortest_paths(store, [("a", "b")], max_hops=4, hub_degree=10)
        assert [p.nodes for p in via.all_paths] == [("a", "s1", "hub", "s2", "b")]
        # a hub is still a path endpoint
        end = shortest_paths(store, [("a", "hub")], hub_degree=10)
        assert [p.nodes for p in end.all_paths] == [("a", "s1", "hub")]
        # hub to hub needs a hub expanded: capped, reported, no path
        capped = shortest_paths(store, [("hub", "hub2")], hub_degree=10)
        assert capped.all_paths == [] and sorted(capped.hubs_capped) == ["hub", "hub2"]
        assert capped.pairs[0].hubs_capped and capped.notes
        found = shortest_paths(store, [("hub", "hub2")], hub_degree=100)
        assert [p.nodes for p in found.all_paths] == [
            ("hub", "m", "hub2")
        ] and not found.hubs_capped


def test_hubs_on_freebase(freebase_store, counting):
    hub = "United States of America"
    assert freebase_store.degrees([hub])[hub] > 2000
    for store in (freebase_store, counting(freebase_store)):
        res = shortest_paths(store, [("Wynton Marsalis", "Canada"), (hub, "Canada")], hub_degree=50)
        assert hub in res.hubs_capped
        degrees = freebase_store.degrees(res.hubs_capped)
        assert all(d > 50 for d in degrees.values())
        for p in res.all_paths:
            assert p.start == "Wynton Marsalis" and p.end == "Canada"


def test_budget_bounds_the_search(freebase_store, counting):
    for store in (freebase_store, counting(freebase_store)):
        res = shortest_paths(store, [("Wynton Marsalis", "Harry S. Truman")], max_expansions=5)
        assert res.bounded and res.pairs[0].bounded and not res.pairs[0].exhausted
        assert res.pairs[0].expansions <= 5


def test_one_neighbors_call_per_level_for_all_pairs(freebase_store, undirected, counting):
    pairs = [(s, t) for s, t, _ in _sample_pairs(undirected, 12, seed=9)]
    store = counting(freebase_store)
    res = shortest_paths(store, pairs, max_hops=3, **NO_CAPS)
    assert store.calls["neighbors"] <= 3  # levels, not pairs x levels
    assert res.neighbor_calls == store.calls["neighbors"]
    assert any(len(b) > 1 for b in store.neighbor_batches)


def test_native_shortest_path_dispatch(freebase_store, counting):
    class Native(counting):
        def shortest_paths(self, pairs, *, max_hops=3, k=1):
            self.calls["native"] += 1
            return {pairs[0]: [Path(nodes=("a", "b"), relations=("r",))]}

    store = Native(freebase_store, capabilities={Capability.SHORTEST_PATH})
    res = shortest_paths(store, [("a", "b"), ("c", "d")], k=2)
    assert res.native and store.calls["native"] == 1 and store.calls["neighbors"] == 0
    assert res.paths_for("a", "b")[0].nodes == ("a", "b") and res.paths_for("c", "d") == []


def test_same_node_and_bad_args(freebase_store):
    res = shortest_paths(freebase_store, [("Jazz", "Jazz")])
    assert res.pairs[0].hops == 0
    with pytest.raises(ValueError):
        shortest_paths(freebase_store, [("a", "b")], k=0)


def test_unexpanded_hub_still_met_after_other_side_went_deeper(make_graph, counting):
    """The target side reaches a hub at depth 1 and cannot expand it; the search goes on from
    the source side until it meets the hub, instead of stopping on the level count."""
    leaves = [("s", "r", f"leaf{i}") for i in range(5)]
    spokes = [("hub", "r", f"spoke{i}") for i in range(10)]
    g = make_graph(
        *leaves, *spokes, ("s", "r", "hub"), ("hub", "q", "t"), ("t", "q", "y"), ("y", "q", "z")
    )
    for store in (g, counting(g)):
        res = shortest_paths(store, [("s", "t")], max_hops=3, hub_degree=10)
        assert [p.nodes for p in res.all_paths] == [("s", "hub", "t")], type(store)
        assert res.pairs[0].hops == 2 and res.hubs_capped == ["hub"]


@pytest.mark.parametrize("hub_degree", [20, 200])
def test_generic_and_csr_agree_with_hubs_and_budget(
    freebase_store, undirected, counting, hub_degree
):
    pairs = [(s, t) for s, t, _ in _sample_pairs(undirected, 30, seed=11)]
    kw = {"max_hops": 3, "k": 1000, "hub_degree": hub_degree, "max_expansions": 3000}
    fast = shortest_paths(freebase_store, pairs, **kw)
    slow = shortest_paths(counting(freebase_store), pairs, **kw)
    assert fast.hubs_capped  # the caps are exercised
    for a, b in zip(fast.pairs, slow.pairs, strict=True):
        assert (a.hops, a.bounded, sorted(a.hubs_capped)) == (
            b.hops,
            b.bounded,
            sorted(b.hubs_capped),
        )
        assert {(p.nodes, p.relations) for p in a.paths} == {
            (p.nodes, p.relations) for p in b.paths
        }
