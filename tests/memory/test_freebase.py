"""The shared tiny Freebase KG (../shared/data/freebase/freebase_tiny_kg.csv)."""

from __future__ import annotations

from byokg.contracts import Direction


def test_counts(freebase_store):
    st = freebase_store.stats()
    assert (st.triplets, st.nodes, st.relations) == (21_911, 16_412, 968)
    assert st.bad_rows_skipped == 0 and st.duplicates_skipped == 0
    assert len(freebase_store.relation_types()) == 968


def test_every_node_indexed_both_directions(freebase_store):
    g = freebase_store
    deg_out = g.degrees(g._ids, direction=Direction.OUT)
    deg_in = g.degrees(g._ids, direction=Direction.IN)
    assert sum(deg_out.values()) == sum(deg_in.values()) == 21_911
    assert all(deg_out[n] + deg_in[n] > 0 for n in g._ids)
    # Most nodes of this KG never occur as a head: a head-only index would lose them.
    tails_only = [n for n in g._ids if deg_out[n] == 0]
    assert len(tails_only) > len(g._ids) // 2
    res = g.neighbors(tails_only, limit_per_node=3)  # one batched call for all of them
    assert len(res) == len(tails_only)
    for n in tails_only:
        nb = res[n]
        assert nb.total == deg_in[n] and nb.triplets and all(t.tail == n for t in nb.triplets)


def test_known_fact_and_filter(freebase_store):
    res = freebase_store.neighbors(
        ["Troy Metcalf", "United States of America"],
        relations=["people.person.nationality"],
        limit_per_node=5,
    )
    assert ("Troy Metcalf", "people.person.nationality", "United States of America") in [
        t.key for t in res["Troy Metcalf"].triplets
    ]
    usa = res["United States of America"]
    assert usa.total > 5 and usa.truncated and len(usa.triplets) == 5
    assert all(t.relation == "people.person.nationality" for t in usa.triplets)


def test_schema_samples(freebase_store):
    sch = freebase_store.schema(samples=3)
    assert len(sch.relation_types) == 968
    assert sum(r.count for r in sch.relation_types) == 21_911
    nat = next(r for r in sch.relation_types if r.name == "people.person.nationality")
    assert 1 <= len(nat.samples) <= 3 and nat.count > 3
    for head, tail in nat.samples:  # samples are real edges of that relation
        assert freebase_store.neighbors([head], relations=[nat.name], direction="out")[head].total
        assert tail
    (label,) = sch.node_labels
    assert label.name == "Entity" and label.count == 16_412
    assert len(dict((p.name, p) for p in label.properties)["name"].samples) == 3


def test_node_ids_by_name(freebase_store):
    found = freebase_store.node_ids_by_name(["united states of america", "TROY METCALF"])
    assert found == {
        "united states of america": ["United States of America"],
        "TROY METCALF": ["Troy Metcalf"],
    }
