"""follow_paths: multi-hop walks, inverse relations, name matching, unknown names, caps, batching."""

from __future__ import annotations

import json
import random

import pytest

from byokg.contracts import Path
from byokg.contracts import RelationPath
from byokg.graph.paths import follow_paths
from byokg.graph.paths import resolve_relations
from byokg.graph.store import Capability


def _two_hop_chains(rows, n, seed=0):
    """(a, r1, b, r2, c) chains read from the CSV (the test's own oracle)."""
    out_edges = {}
    for h, r, t in rows:
        out_edges.setdefault(h, []).append((r, t))
    rng = random.Random(seed)
    chains = []
    heads = sorted(out_edges)
    while len(chains) < n:
        a = rng.choice(heads)
        r1, b = rng.choice(out_edges[a])
        if b not in out_edges or b == a:
            continue
        r2, c = rng.choice(out_edges[b])
        chains.append((a, r1, b, r2, c))
    return chains


def test_known_two_hop_paths_found(freebase_store, tiny_rows):
    for a, r1, b, r2, c in _two_hop_chains(tiny_rows, 25):
        res = follow_paths(freebase_store, [a], [r1, r2], fanout_per_hop=10_000, max_paths=100_000)
        assert res.complete and not res.unknown_relations
        assert (a, b, c) in {p.nodes for p in res.paths}, (a, r1, b, r2, c)
        assert c in res.reached
        for p in res.paths:
            assert p.relations == (r1, r2) and p.start == a


def test_wynton_marsalis_place_of_birth(freebase_store, tiny_rows):
    births = {
        t for h, r, t in tiny_rows if h == "Wynton Marsalis" and r == "people.person.place_of_birth"
    }
    res = follow_paths(
        freebase_store, ["Wynton Marsalis"], RelationPath.parse("people.person.place_of_birth")
    )
    assert set(res.reached) == births and births
    assert res.paths[0].triplets()[0].key[1] == "people.person.place_of_birth"


def test_relation_path_given_as_text(freebase_store, tiny_rows):
    a, r1, b, r2, c = _two_hop_chains(tiny_rows, 1, seed=3)[0]
    res = follow_paths(
        freebase_store, [a], f"{r1} -> {r2}", fanout_per_hop=10_000, max_paths=100_000
    )
    assert c in res.reached


def test_inverse_relation_walked_and_flagged(make_graph):
    g = make_graph(
        ("Wynton", "place_of_birth", "New Orleans"),
        ("Louisiana", "contains", "New Orleans"),
        ("Louisiana", "capital", "Baton Rouge"),
    )
    # New Orleans has no outgoing "contains": the walk goes against the stored direction
    res = follow_paths(g, ["Wynton"], ["place_of_birth", "contains", "capital"])
    assert [p.nodes for p in res.paths] == [("Wynton", "New Orleans", "Louisiana", "Baton Rouge")]
    assert res.paths[0].inverted == (False, True, False)
    assert res.inverted_hops == [1]
    assert any("against stored direction" in n for n in res.notes)
    # the path's triplets come back in stored direction
    assert res.paths[0].triplets()[1].key == ("Louisiana", "contains", "New Orleans")
    forward = follow_paths(g, ["Wynton"], ["place_of_birth", "contains", "capital"], mode="forward")
    assert forward.reached == [] and forward.hops_completed == 1


def test_auto_prefers_stored_direction(make_graph):
    g = make_graph(("a", "r", "b"), ("c", "r", "a"))
    auto = follow_paths(g, ["a"], ["r"])
    assert auto.reached == ["b"] and auto.inverted_hops == []
    either = follow_paths(g, ["a"], ["r"], mode="either")
    assert sorted(either.reached) == ["b", "c"] and either.inverted_hops == [0]


def test_inverse_on_freebase(freebase_store, tiny_rows):
    h, r, t = next(row for row in tiny_rows if row[1] == "people.person.place_of_birth")
    res = follow_paths(freebase_store, [t], [r], fanout_per_hop=10_000, max_paths=100_000)
    assert h in res.reached
    assert all(p.inverted == (True,) for p in res.paths)


@pytest.mark.parametrize(
    ("proposed", "how"),
    [
        ("PEOPLE.PERSON.PLACE_OF_BIRTH", "normalized"),
        ("people person place of birth", "normalized"),
        ("place_of_birth", "last-segment"),
        ("Place of birth", "last-segment"),
        ("film.actor.place_of_birth", "last-segment"),
    ],
)
def test_relation_name_matching(freebase_store, proposed, how):
    res = follow_paths(freebase_store, ["Wynton Marsalis"], [proposed])
    assert res.resolved[0].how == how
    assert "people.person.place_of_birth" in res.resolved[0].matches
    assert res.reached == ["New Orleans"]
    assert not res.unknown_relations


def test_unknown_relation_reported_with_suggestions(freebase_store):
    res = follow_paths(
        freebase_store, ["Wynton Marsalis"], ["people.person.place_of_birth", "birthplace_genre"]
    )
    assert "birthplace_genre" in res.unknown_relations
    assert len(res.unknown_relations["birthplace_genre"]) == 5
    assert res.reached == []
    # the known prefix is still walked and returned, marked incomplete
    assert res.hops_completed == 1 and not res.complete
    assert [p.nodes for p in res.paths] == [("Wynton Marsalis", "New Orleans")]
    assert any("not in the graph" in n for n in res.notes)


def test_unknown_suggestions_are_nearest(freebase_store):
    [m] = resolve_relations(["people.person.birth_place"], freebase_store.relation_types())
    assert m.how == "unknown"
    assert "people.person.place_of_birth" in m.suggestions


def test_caps_respected(freebase_store):
    hub = "United States of America"
    total = freebase_store.degrees([hub])[hub]
    assert total > 100
    one = follow_paths(
        freebase_store,
        [hub],
        ["location.country.administrative_divisions"],
        fanout_per_hop=1,
        mode="forward",
    )
    assert len(one.paths) == 1 and one.truncated and one.capped_nodes == [hub]
    few = follow_paths(
        freebase_store,
        [hub],
        ["location.country.administrative_divisions"],
        fanout_per_hop=500,
        max_paths=7,
    )
    assert len(few.paths) == 7 and few.truncated
    two = follow_paths(
        freebase_store,
        [hub],
        ["location.country.administrative_divisions", "location.location.contains"],
        fanout_per_hop=3,
        max_paths=5,
    )
    assert len(two.paths) <= 5 and two.truncated


def test_one_neighbors_call_per_hop(freebase_store, counting):
    store = counting(freebase_store)
    rels = [
        "location.country.administrative_divisions",
        "location.location.containedby",
        "location.location.contains",
    ]
    res = follow_paths(store, ["United States of America", "Canada"], rels, max_paths=200)
    assert res.hops_completed == 3
    assert store.calls["neighbors"] == 3
    # the whole frontier goes in one batch: both sources at hop 0, many divisions at hop 1
    assert sorted(store.neighbor_batches[0]) == ["Canada", "United States of America"]
    assert len(store.neighbor_batches[1]) > 10


def test_native_follow_path_dispatch(freebase_store, counting):
    seen = {}

    class Native(counting):
        def follow_path(self, sources, hops, *, limit_per_node, max_paths, mode):
            seen.update(
                sources=sources, hops=hops, limit=limit_per_node, max_paths=max_paths, mode=mode
            )
            return [
                Path(
                    nodes=("Wynton Marsalis", "New Orleans"),
                    relations=("people.person.place_of_birth",),
                )
            ]

    store = Native(freebase_store, capabilities={Capability.FOLLOW_PATH})
    res = follow_paths(
        store, ["Wynton Marsalis"], ["place_of_birth"], fanout_per_hop=7, max_paths=9
    )
    assert res.native and res.reached == ["New Orleans"]
    assert store.calls["neighbors"] == 0
    assert seen["hops"] == [
        ["fictional_universe.fictional_character.place_of_birth", "people.person.place_of_birth"]
    ]
    assert (seen["limit"], seen["max_paths"], seen["mode"]) == (7, 9, "auto")


def test_missing_sources_and_bad_args(freebase_store):
    res = follow_paths(freebase_store, ["no such node"], ["people.person.place_of_birth"])
    assert res.paths == [] and res.reached == [] and res.notes
    with pytest.raises(ValueError):
        follow_paths(freebase_store, ["x"], ["r"], fanout_per_hop=0)
    with pytest.raises(ValueError):
        follow_paths(freebase_store, ["x"], ["r"], mode="sideways")


def _cwq(shared_data):
    path = shared_data / "freebase" / "cwq_tinykg_subset.jsonl"
    return [json.loads(line) for line in path.open(encoding="utf-8")]


@pytest.mark.parametrize(
    ("mode", "flag"),
    [
        ("forward", "gold_path_reaches_answer_in_tiny_kg"),
        ("auto", "gold_path_reaches_answer_in_tiny_kg_undirected"),
    ],
)
def test_cwq_gold_paths_recovered(freebase_store, shared_data, mode, flag):
    """Every CWQ tiny-KG question whose gold relation path connects topic and answer is recovered
    from its gold topic entities (names = node ids), and no other question is."""
    rows = _cwq(shared_data)
    relations = set(freebase_store.relation_types())
    recovered = set()
    for q in rows:
        sources = list(q["topic_entities"].values())
        for rp in q["gold_relation_paths"]:
            res = follow_paths(freebase_store, sources, rp, schema_relations=relations, mode=mode)
            if set(res.reached) & set(q["answers"]):
                recovered.add(q["id"])
                break
    expected = {q["id"] for q in rows if q[flag]}
    assert len(recovered) == len(expected) == sum(1 for q in rows if q[flag])
    assert recovered == expected
