"""The GraphStore contract suite, for any backend: the SAME small graph, the SAME answers.

A backend passes when it answers like every built-in one on :data:`TRIPLES` (branching, both
directions, dotted Freebase-style relation names, a relation between different kinds of node,
parallel and anti-parallel edges, a hub, an isolated pair). Every check compares the store's
answer with ground truth computed here in plain Python from the triples; orders are compared
sorted, capped neighbourhoods by size, total, truncation flag and subset of the full one.

Run it on your own backend from any pytest module (docs/backends.md, "Contract suite")::

    from byokg.testing import contract_suite

    def make_store(triples):                 # [(head, relation, tail), ...] -> GraphStore
        return open_my_store(triples)

    TestMyStore = contract_suite(make_store)              # or the name of a pytest fixture
    TestMyLoaded = contract_suite("mydb_store_from_triples")

``byokg.testing`` imports pytest only when :func:`contract_suite` is called, and no backend.

It also holds :class:`ScriptedLLM`, an LLM that replies from a Python function, for testing a
proposer, answerer or tool without a model.
"""

from __future__ import annotations

import csv
import functools
from collections import defaultdict
from collections import deque
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from byokg.graph.store import GraphStore

from .contracts import Direction

__all__ = [
    "CHECKS",
    "ScriptedLLM",
    "NODES",
    "RELATIONS",
    "SHORTEST_PAIRS",
    "TRIPLES",
    "UNKNOWN",
    "contract_suite",
    "expected_neighbors",
    "expected_shortest",
    "loaded_store",
    "write_triples_csv",
]

StoreFactory = Callable[[Sequence[tuple[str, str, str]]], GraphStore]

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
RELATION_FILTERS = [
    ["knows"], ["located.in", "people.person.place_of_birth"], ["links"], [], ["no.such.relation"]
]


# ----------------------------------------------------------------------------- ground truth


def expected_neighbors(
    node: str, direction: Direction, relations: set[str] | None = None
) -> list[tuple[str, str, str]]:
    """The one-hop triples of ``node`` in :data:`TRIPLES`, sorted."""
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
    """All shortest walks ``(nodes, relations, inverted)`` over both edge directions (one per
    edge sequence), sorted."""
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


def _keys(triplets: Sequence[Any]) -> list[tuple[str, str, str]]:
    return sorted(t.key for t in triplets)


# ----------------------------------------------------------------------------- store helpers


def write_triples_csv(path: Path, triples: Sequence[tuple[str, str, str]]) -> Path:
    """Write ``triples`` as a ``head,relation,tail`` CSV with a header; return the path."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["head", "relation", "tail"])
        w.writerows(triples)
    return path


def loaded_store(triples: Sequence[tuple[str, str, str]], uri: str, folder: Path,
                 **options: Any) -> GraphStore:
    """``triples`` written as a CSV in ``folder``, loaded into ``uri`` through ``byokg load``
    (the ``loader`` the backend registered), then opened with ``open_graph(uri, **options)``."""
    from byokg.graph.open import open_graph
    from byokg.io.loading import load_into

    src = write_triples_csv(Path(folder) / "triples.csv", triples)
    load_into([str(src)], uri)
    return open_graph(uri, **options)


@contextmanager
def store_factory(build: Callable[..., GraphStore]) -> Iterator[Callable[..., GraphStore]]:
    """A factory over ``build`` that closes every store it built when the block ends: a
    session fixture's body is ``with store_factory(build) as make: yield make``."""
    opened: list[GraphStore] = []

    def make(*args: Any, **options: Any) -> GraphStore:
        store = build(*args, **options)
        opened.append(store)
        return store

    try:
        yield make
    finally:
        for store in opened:
            store.close()


def stop_process(proc: Any, timeout: float = 30.0) -> tuple[str | None, str | None]:
    """Stop a child process (a server a test or benchmark started): terminate, wait up to
    ``timeout`` seconds, then kill; returns what it wrote to piped stdout and stderr."""
    import subprocess

    proc.terminate()
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


def triples(text: str) -> list[tuple[str, str, str]]:
    """Triples written one a line as ``head | relation | tail`` (blank lines skipped): the
    compact way tests write small graphs."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) != 3:
                raise ValueError(f"line {n}: {line!r} is not 'head | relation | tail'")
            out.append((parts[0], parts[1], parts[2]))
    return out


# ----------------------------------------------------------------------------- the checks
# Each check takes the store (and its parameters) and asserts; contract_suite turns them into
# pytest tests, parametrized as CHECKS says. They can also be called directly.


def check_relation_names(store: GraphStore) -> None:
    assert sorted(store.relation_types()) == RELATIONS
    assert sorted(store.schema(samples=0).relation_names) == RELATIONS
    assert sorted(store.schema(samples=2).relation_names) == RELATIONS


def check_stats(store: GraphStore) -> None:
    st = store.stats()
    got = (st.nodes, st.triplets, st.relations)
    assert got == (len(NODES), len(TRIPLES), len(RELATIONS)), got


def check_neighbors_every_node(store: GraphStore, direction: Direction) -> None:
    got = store.neighbors(NODES + [UNKNOWN], direction=direction)
    assert set(got) == set(NODES) | {UNKNOWN}
    for n in NODES:
        exp = expected_neighbors(n, direction)
        assert _keys(got[n].triplets) == exp, (n, direction, _keys(got[n].triplets))
        assert got[n].total == len(exp) and not got[n].truncated, (n, got[n].total)
        assert got[n].node == n
    assert got[UNKNOWN].triplets == () and got[UNKNOWN].total == 0


def check_neighbors_relation_filter(store: GraphStore, direction: Direction,
                                    relations: list[str]) -> None:
    got = store.neighbors(NODES, direction=direction, relations=relations)
    for n in NODES:
        exp = expected_neighbors(n, direction, set(relations))
        assert _keys(got[n].triplets) == exp, (n, direction, relations)
        assert got[n].total == len(exp), (n, got[n].total, len(exp))


def check_neighbors_caps(store: GraphStore, direction: Direction, limit: int) -> None:
    got = store.neighbors(NODES, direction=direction, limit_per_node=limit)
    for n in NODES:
        exp = expected_neighbors(n, direction)
        nb = got[n]
        assert nb.total == len(exp), (n, nb.total, len(exp))
        assert len(nb.triplets) == min(limit, len(exp)), (n, len(nb.triplets))
        assert nb.truncated == (len(exp) > limit), (n, nb.truncated)
        assert set(_keys(nb.triplets)) <= set(exp), n


def check_neighbors_cap_with_filter(store: GraphStore) -> None:
    got = store.neighbors(["hub", "n1"], direction=Direction.BOTH, relations=["links"],
                          limit_per_node=2)
    hub, n1 = got["hub"], got["n1"]
    assert hub.total == 7 and len(hub.triplets) == 2 and hub.truncated, hub
    assert n1.total == 2 and len(n1.triplets) == 2 and not n1.truncated, n1


def check_degrees(store: GraphStore, direction: Direction) -> None:
    got = store.degrees(NODES + [UNKNOWN], direction=direction)
    exp = {**{n: len(expected_neighbors(n, direction)) for n in NODES}, UNKNOWN: 0}
    assert got == exp, got


def check_get_nodes(store: GraphStore) -> None:
    got = store.get_nodes(NODES + [UNKNOWN])
    assert set(got) == set(NODES) | {UNKNOWN}
    assert got[UNKNOWN] is None
    for n in NODES:
        node = got[n]
        assert node is not None and node.id == n, (n, node)
        assert node.display == n  # no names in a triple file: the id is the display name


def check_iter_node_names(store: GraphStore) -> None:
    pairs = [p for batch in store.iter_node_names(batch_size=7) for p in batch]
    assert sorted(pairs) == sorted((n, n) for n in NODES), pairs


def check_follow_paths(store: GraphStore) -> None:
    from byokg.graph.paths import follow_paths

    res = follow_paths(store, ["alice", "bob"], "works_at -> located.in -> located.in")
    assert res.complete and res.reached == ["france"], res
    assert sorted((p.nodes, p.relations) for p in res.paths) == [
        (("alice", "acme", "paris", "france"), ("works_at", "located.in", "located.in")),
        (("bob", "acme", "paris", "france"), ("works_at", "located.in", "located.in")),
    ], res.paths
    # a relation that only exists the other way round is walked inverted (mode auto)
    res = follow_paths(store, ["paris"], ["people.person.place_of_birth"])
    assert sorted(p.nodes for p in res.paths) == [("paris", "alice"), ("paris", "carol")]
    assert all(p.inverted == (True,) for p in res.paths), res.paths
    # unknown relation and unknown source
    res = follow_paths(store, ["alice"], ["no.such.relation"])
    assert not res.complete and "no.such.relation" in res.unknown_relations
    assert follow_paths(store, [UNKNOWN], ["knows"]).paths == []


def check_follow_paths_fanout_cap(store: GraphStore) -> None:
    from byokg.graph.paths import follow_paths

    res = follow_paths(store, ["hub"], ["links"], fanout_per_hop=2, mode="forward")
    assert len(res.paths) == 2 and res.truncated, res


def check_shortest_paths(store: GraphStore, max_hops: int) -> None:
    """Same node/relation sequences everywhere. Where an edge exists both ways with the same
    relation (france-borders-germany), which direction a hop is reported in may differ (the
    in-memory BFS keeps one), so direction flags are checked against the stored edges."""
    from byokg.graph.paths import shortest_paths

    stored = set(TRIPLES)
    res = shortest_paths(store, SHORTEST_PAIRS, max_hops=max_hops, k=50, hub_degree=10**6)
    for s, t in SHORTEST_PAIRS:
        exp = sorted({(nodes, rels) for nodes, rels, _ in expected_shortest(s, t, max_hops)})
        paths = res.paths_for(s, t)
        got = sorted({(p.nodes, p.relations) for p in paths})
        assert got == exp, (s, t, max_hops, got)
        for p in paths:
            assert all(tr.key in stored for tr in p.triplets()), p
        if exp:
            assert all(p.hops == len(exp[0][1]) for p in paths), paths


def check_shortest_paths_k_limits(store: GraphStore) -> None:
    from byokg.graph.paths import shortest_paths

    exp = expected_shortest("alice", "germany", 3)
    assert len(exp) > 1
    res = shortest_paths(store, [("alice", "germany")], max_hops=3, k=1, hub_degree=10**6)
    got = res.paths_for("alice", "germany")
    assert len(got) == 1, got
    assert (got[0].nodes, got[0].relations) in {(e[0], e[1]) for e in exp}, got


def check_unknown_ids_everywhere(store: GraphStore) -> None:
    assert store.get_nodes([UNKNOWN]) == {UNKNOWN: None}
    assert store.degrees([UNKNOWN]) == {UNKNOWN: 0}
    nb = store.neighbors([UNKNOWN], relations=["knows"], limit_per_node=3)[UNKNOWN]
    assert (nb.triplets, nb.total, nb.truncated) == ((), 0, False), nb
    assert store.neighbors([]) == {}


def check_profile(store: GraphStore) -> None:
    """A store with the ``profile`` capability samples its catalogue (every relation type with
    its count and label pair), fingerprints itself stably, and its profile names the nodes of
    a triple graph by their ids."""
    from byokg.graph.profile import profile_graph
    from byokg.graph.store import Capability

    if Capability.PROFILE not in store.capabilities:
        return
    sample = store.profile_sample(nodes_per_label=5, edges_per_type=5, examples=1)  # type: ignore[attr-defined]
    counts = {r.name: r.count for r in sample.relations}
    assert sorted(counts) == RELATIONS, counts
    want = {r: sum(1 for _, rel, _ in TRIPLES if rel == r) for r in RELATIONS}
    assert counts == want, counts
    assert all(len(r.edges) <= 5 and r.pairs for r in sample.relations), sample.relations
    assert store.profile_fingerprint() == store.profile_fingerprint()  # type: ignore[attr-defined]
    prof = profile_graph(store)
    assert sorted(prof.relation_names) == RELATIONS
    assert store.get_nodes(["alice"])["alice"].display == "alice"  # type: ignore[union-attr]


_DIRECTIONS = list(Direction)
# test name -> (check, {parameter: values}); every combination of the values is one test
CHECKS: dict[str, tuple[Callable[..., None], dict[str, list[Any]]]] = {
    "test_relation_names": (check_relation_names, {}),
    "test_stats": (check_stats, {}),
    "test_neighbors_every_node": (check_neighbors_every_node, {"direction": _DIRECTIONS}),
    "test_neighbors_relation_filter": (
        check_neighbors_relation_filter, {"relations": RELATION_FILTERS, "direction": _DIRECTIONS}
    ),
    "test_neighbors_caps": (
        check_neighbors_caps, {"limit": [0, 1, 2, 3], "direction": _DIRECTIONS}
    ),
    "test_neighbors_cap_with_filter": (check_neighbors_cap_with_filter, {}),
    "test_degrees": (check_degrees, {"direction": _DIRECTIONS}),
    "test_get_nodes": (check_get_nodes, {}),
    "test_iter_node_names": (check_iter_node_names, {}),
    "test_follow_paths": (check_follow_paths, {}),
    "test_follow_paths_fanout_cap": (check_follow_paths_fanout_cap, {}),
    "test_shortest_paths": (check_shortest_paths, {"max_hops": [1, 2, 3]}),
    "test_shortest_paths_k_limits": (check_shortest_paths_k_limits, {}),
    "test_unknown_ids_everywhere": (check_unknown_ids_everywhere, {}),
    "test_profile": (check_profile, {}),
}


# ----------------------------------------------------------------------------- the suite


def contract_suite(factory: StoreFactory | str, *, marks: Sequence[Any] = ()) -> type:
    """A pytest test class running every check of :data:`CHECKS` on ``factory(TRIPLES)``.

    :param factory: a callable ``triples -> GraphStore``, or the name of a pytest fixture
        returning one (such as ``kuzu_store_from_triples``); a missing fixture skips the class.
    :param marks: pytest marks for every test (e.g. ``pytest.mark.server``).

    Assign the result to a module-level name starting with ``Test`` so pytest collects it. A
    store built from a callable is closed after the class; a fixture closes its own.
    """
    import pytest

    def store(cls: type, request: Any) -> Any:
        if isinstance(factory, str):
            try:
                make = request.getfixturevalue(factory)
            except pytest.FixtureLookupError:
                pytest.skip(f"no fixture {factory}: this backend is not available here")
            yield make(TRIPLES)
            return
        built = factory(TRIPLES)
        yield built
        close = getattr(built, "close", None)
        if callable(close):
            close()

    body: dict[str, Any] = {
        "__doc__": "The GraphStore contract (byokg.testing).",
        "store": pytest.fixture(scope="class", name="store")(classmethod(store)),
    }
    for name, (check, params) in CHECKS.items():
        body[name] = staticmethod(_as_test(check, params, pytest))
    suite = type("GraphStoreContract", (), body)
    for mark in marks:
        suite = mark(suite)
    return suite


def _as_test(check: Callable[..., None], params: dict[str, list[Any]], pytest: Any) -> Any:
    """A new test function calling ``check`` (same signature, so pytest passes the ``store``
    fixture and the parameters), parametrized with ``params``."""

    @functools.wraps(check)
    def test(*args: Any, **kwargs: Any) -> None:
        check(*args, **kwargs)

    for argname, values in params.items():
        test = pytest.mark.parametrize(argname, values)(test)
    return test


class ScriptedLLM:
    """An :class:`byokg.models.base.LLM` replying ``script(prompt, call_index)``; keeps every prompt
    (thread-safe, so tools running side by side can share it)."""

    def __init__(self, script: Callable[[str, int], str], name: str = "script") -> None:
        import threading

        self.name = name
        self.script = script
        self.prompts: list[str] = []
        self._lock = threading.Lock()

    def complete(self, prompt: str, *, system: str | None = None, max_tokens: int | None = None,
                 temperature: float | None = None) -> Any:
        from byokg.models.base import LLMResponse

        with self._lock:
            self.prompts.append(prompt)
            n = len(self.prompts) - 1
        text = self.script(prompt, n)
        return LLMResponse(text=text, model=self.name, prompt_tokens=len(prompt) // 4,
                           completion_tokens=max(1, len(text) // 4))
