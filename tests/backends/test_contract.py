"""GraphStore contract suite: the SAME small graph in every backend, the SAME answers expected.

Every check compares a backend's answer with ground truth computed here, in plain Python, from
``TRIPLES`` (so all backends agree with each other by construction). Orders are compared
sorted; capped neighbourhoods by size, total, truncation flag and subset of the full one.

Backends: a backend NAME takes part when a fixture ``NAME_store_from_triples`` exists (a factory
``triples -> GraphStore``). Built in: memory, kuzu (tests/backends/conftest.py) and bolt
(tests/conftest.py, a real ArcadeDB Bolt server). ``BYOKG_CONTRACT_BACKENDS=a,b`` picks the
backends (default ``memory,kuzu,bolt``). A third-party backend runs the suite by copying this
file (it only imports byokg and pytest) next to a conftest that defines
``NAME_store_from_triples`` and setting ``BYOKG_CONTRACT_BACKENDS=NAME`` (see docs/backends.md).
"""

from __future__ import annotations

import os
from collections import defaultdict, deque

import pytest

from byokg.contracts import Direction

BACKENDS = [
    b.strip() for b in os.environ.get("BYOKG_CONTRACT_BACKENDS", "memory,kuzu,bolt").split(",") if b.strip()
]
BOLT_LIKE = {"bolt", "neo4j"}

# Branching, both directions, dotted (Freebase-style) relation names, a relation used between
# different kinds of node, parallel edges with different relations, a hub, an isolated pair.
TRIPLES: list[tuple[str, str, str]] = [
    ("alice", "knows", "bob"),
    ("bob", "knows", "carol"),
    ("carol", "knows", "alice"),
    ("alice", "knows", "dave"),
    ("dave", "knows", "erin"),
    ("erin", "knows", "frank"),
    ("alice", "works_at", "acme"),
    ("bob", "works_at", "acme"),
    ("carol", "works_at", "globex"),
    ("dave", "works_at", "initech"),
    ("acme", "located.in", "paris"),
    ("globex", "located.in", "berlin"),
    ("initech", "located.in", "paris"),
    ("paris", "located.in", "france"),
    ("berlin", "located.in", "germany"),
    ("france", "borders", "germany"),
    ("germany", "borders", "france"),
    ("alice", "people.person.place_of_birth", "paris"),
    ("bob", "people.person.place_of_birth", "berlin"),
    ("carol", "people.person.place_of_birth", "paris"),
    ("frank", "people.person.place_of_birth", "berlin"),
    ("alice", "likes", "bob"),  # parallel to alice-knows->bob
    ("erin", "likes", "alice"),
    ("frank", "likes", "carol"),
    ("hub", "links", "n1"),
    ("hub", "links", "n2"),
    ("hub", "links", "n3"),
    ("hub", "links", "n4"),
    ("hub", "links", "n5"),
    ("hub", "links", "n6"),
    ("n1", "links", "hub"),  # both directions between the same pair
    ("n6", "links", "n5"),
    ("acme", "film.film.directed_by", "erin"),
    ("globex", "film.film.directed_by", "frank"),
    ("paris", "capital_of", "france"),
    ("berlin", "capital_of", "germany"),
    ("france", "member.of", "eu"),
    ("germany", "member.of", "eu"),
    ("island", "knows", "islander"),  # isolated pair
    ("islander", "likes", "island"),
]
NODES = sorted({x for h, _, t in TRIPLES for x in (h, t)})
RELATIONS = sorted({r for _, r, _ in TRIPLES})
UNKNOWN = "no-such-node"


# ----------------------------------------------------------------------------- ground truth
def expected_neighbors(node: str, direction: Direction, relations=None) -> list[tuple[str, str, str]]:
    out = []
    for h, r, t in TRIPLES:
        if relations is not None and r not in relations:
            continue
        if direction in (Direction.OUT, Direction.BOTH) and h == node:
            out.append((h, r, t))
        if direction in (Direction.IN, Direction.BOTH) and t == node:
            out.append((h, r, t))
    return sorted(out)


def expected_shortest(s: str, t: str, max_hops: int) -> list[tuple[tuple, tuple, tuple]]:
    """All shortest walks over both edge directions (one per edge sequence)."""
    adj: dict[str, list[tuple[str, str, bool]]] = defaultdict(list)
    for h, r, tl in TRIPLES:
        adj[h].append((tl, r, False))
        adj[tl].append((h, r, True))
    if s == t:
        return [((s,), (), ())] if s in adj else []
    dist = {s: 0}
    q = deque([s])
    while q:
        u = q.popleft()
        for v, _, _ in adj[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                q.append(v)
    if t not in dist or dist[t] > max_hops:
        return []
    paths = []

    def walk(node, nodes, rels, inv):
        if node == t:
            paths.append((tuple(nodes), tuple(rels), tuple(inv)))
            return
        for v, r, flipped in adj[node]:
            if dist.get(v) == dist[node] + 1 and v not in nodes:
                walk(v, nodes + [v], rels + [r], inv + [flipped])

    walk(s, [s], [], [])
    return sorted(paths)


# ----------------------------------------------------------------------------- fixture
@pytest.fixture(
    scope="module",
    params=[pytest.param(b, marks=pytest.mark.server) if b in BOLT_LIKE else b for b in BACKENDS],
)
def store(request):
    name = request.param
    try:
        factory = request.getfixturevalue(f"{name}_store_from_triples")
    except pytest.FixtureLookupError:
        pytest.skip(f"no fixture {name}_store_from_triples: backend {name!r} not available here")
    return factory(TRIPLES)


def keys(triplets) -> list[tuple[str, str, str]]:
    return sorted(t.key for t in triplets)


# ----------------------------------------------------------------------------- checks
def test_relation_names(store):
    assert sorted(store.relation_types()) == RELATIONS
    assert sorted(store.schema(samples=0).relation_names) == RELATIONS
    assert sorted(store.schema(samples=2).relation_names) == RELATIONS


def test_stats(store):
    st = store.stats()
    assert (st.nodes, st.triplets, st.relations) == (len(NODES), len(TRIPLES), len(RELATIONS))


@pytest.mark.parametrize("direction", list(Direction))
def test_neighbors_every_node(store, direction):
    got = store.neighbors(NODES + [UNKNOWN], direction=direction)
    assert set(got) == set(NODES) | {UNKNOWN}
    for n in NODES:
        exp = expected_neighbors(n, direction)
        assert keys(got[n].triplets) == exp, (n, direction)
        assert got[n].total == len(exp) and not got[n].truncated
        assert got[n].node == n
    assert got[UNKNOWN].triplets == () and got[UNKNOWN].total == 0


@pytest.mark.parametrize(
    "relations",
    [["knows"], ["located.in", "people.person.place_of_birth"], ["links"], [], ["no.such.relation"]],
)
@pytest.mark.parametrize("direction", list(Direction))
def test_neighbors_relation_filter(store, direction, relations):
    got = store.neighbors(NODES, direction=direction, relations=relations)
    for n in NODES:
        exp = expected_neighbors(n, direction, set(relations))
        assert keys(got[n].triplets) == exp, (n, direction, relations)
        assert got[n].total == len(exp)


@pytest.mark.parametrize("limit", [0, 1, 2, 3])
@pytest.mark.parametrize("direction", list(Direction))
def test_neighbors_caps(store, direction, limit):
    got = store.neighbors(NODES, direction=direction, limit_per_node=limit)
    for n in NODES:
        exp = expected_neighbors(n, direction)
        nb = got[n]
        assert nb.total == len(exp), n
        assert len(nb.triplets) == min(limit, len(exp)), n
        assert nb.truncated == (len(exp) > limit), n
        assert set(keys(nb.triplets)) <= set(exp), n


def test_neighbors_cap_with_filter(store):
    got = store.neighbors(["hub", "n1"], direction=Direction.BOTH, relations=["links"], limit_per_node=2)
    assert got["hub"].total == 7 and len(got["hub"].triplets) == 2 and got["hub"].truncated
    assert got["n1"].total == 2 and len(got["n1"].triplets) == 2 and not got["n1"].truncated


@pytest.mark.parametrize("direction", list(Direction))
def test_degrees(store, direction):
    got = store.degrees(NODES + [UNKNOWN], direction=direction)
    assert got == {**{n: len(expected_neighbors(n, direction)) for n in NODES}, UNKNOWN: 0}


def test_get_nodes(store):
    got = store.get_nodes(NODES + [UNKNOWN])
    assert set(got) == set(NODES) | {UNKNOWN}
    assert got[UNKNOWN] is None
    for n in NODES:
        assert got[n] is not None and got[n].id == n
        assert got[n].display == n  # no names in a triple file: the id is the display name


def test_iter_node_names(store):
    pairs = [p for batch in store.iter_node_names(batch_size=7) for p in batch]
    assert sorted(pairs) == sorted((n, n) for n in NODES)


def test_follow_paths(store):
    from byokg.paths import follow_paths

    res = follow_paths(store, ["alice", "bob"], "works_at -> located.in -> located.in")
    assert res.complete
    assert res.reached == ["france"]
    assert sorted((p.nodes, p.relations) for p in res.paths) == [
        (("alice", "acme", "paris", "france"), ("works_at", "located.in", "located.in")),
        (("bob", "acme", "paris", "france"), ("works_at", "located.in", "located.in")),
    ]
    # a relation that only exists the other way round is walked inverted (mode auto)
    res = follow_paths(store, ["paris"], ["people.person.place_of_birth"])
    assert sorted(p.nodes for p in res.paths) == [("paris", "alice"), ("paris", "carol")]
    assert all(p.inverted == (True,) for p in res.paths)
    # unknown relation and unknown source
    res = follow_paths(store, ["alice"], ["no.such.relation"])
    assert not res.complete and "no.such.relation" in res.unknown_relations
    assert follow_paths(store, [UNKNOWN], ["knows"]).paths == []


def test_follow_paths_fanout_cap(store):
    from byokg.paths import follow_paths

    res = follow_paths(store, ["hub"], ["links"], fanout_per_hop=2, mode="forward")
    assert len(res.paths) == 2 and res.truncated


SHORTEST_PAIRS = [
    ("alice", "germany"),
    ("erin", "eu"),
    ("n5", "n1"),
    ("frank", "paris"),
    ("bob", "carol"),
    ("alice", "island"),  # different components
    ("alice", "alice"),
    ("alice", UNKNOWN),
    ("island", "islander"),
]


@pytest.mark.parametrize("max_hops", [1, 2, 3])
def test_shortest_paths(store, max_hops):
    """Same node/relation sequences everywhere. Where an edge exists both ways with the same
    relation (france-borders-germany), which direction a hop is reported in may differ (the
    in-memory BFS keeps one), so direction flags are checked against the stored edges."""
    from byokg.paths import shortest_paths

    stored = set(TRIPLES)
    res = shortest_paths(store, SHORTEST_PAIRS, max_hops=max_hops, k=50, hub_degree=10**6)
    for s, t in SHORTEST_PAIRS:
        exp = sorted({(nodes, rels) for nodes, rels, _ in expected_shortest(s, t, max_hops)})
        paths = res.paths_for(s, t)
        assert sorted({(p.nodes, p.relations) for p in paths}) == exp, (s, t, max_hops)
        for p in paths:
            assert all(tr.key in stored for tr in p.triplets()), p
        if exp:
            assert all(p.hops == len(exp[0][1]) for p in paths)


def test_shortest_paths_k_limits(store):
    from byokg.paths import shortest_paths

    exp = expected_shortest("alice", "germany", 3)
    assert len(exp) > 1
    res = shortest_paths(store, [("alice", "germany")], max_hops=3, k=1, hub_degree=10**6)
    got = res.paths_for("alice", "germany")
    assert len(got) == 1
    assert (got[0].nodes, got[0].relations) in {(e[0], e[1]) for e in exp}


def test_unknown_ids_everywhere(store):
    assert store.get_nodes([UNKNOWN]) == {UNKNOWN: None}
    assert store.degrees([UNKNOWN]) == {UNKNOWN: 0}
    nb = store.neighbors([UNKNOWN], relations=["knows"], limit_per_node=3)[UNKNOWN]
    assert (nb.triplets, nb.total, nb.truncated) == ((), 0, False)
    assert store.neighbors([]) == {}
