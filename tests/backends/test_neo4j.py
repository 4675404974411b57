"""Neo4j backend against a real Bolt server (ArcadeDB, started once per session)."""

from __future__ import annotations

import pytest

from byokg.contracts import Direction
from byokg.contracts import Triplet
from byokg.errors import BackendError
from byokg.errors import ConfigError
from byokg.errors import QueryError
from byokg.errors import ReadOnlyViolation
from byokg.graph.store import Capability
from byokg.graph.store import has_capability
from byokg.testing import triples

pytestmark = pytest.mark.server

QUOTED = "O'Brien `the` \"Great\""
TRIPLES = triples(f"""
    alice | knows | bob
    bob | knows | carol
    alice | likes | carol
    carol | likes | dave
    dave | lives_in | paris
    {QUOTED} | knows | alice
    hub | links | n1
    hub | links | n2
    hub | links | n3
    hub | links | n4
    island | knows | islander
""")


@pytest.fixture(scope="module")
def store(bolt_store_from_triples):
    return bolt_store_from_triples(TRIPLES)


def test_capabilities_and_dialect(store):
    assert store.dialect == "neo4j"
    for cap in (Capability.CYPHER, Capability.EXPLAIN, Capability.SHORTEST_PATH):
        assert has_capability(store, cap)
    # ArcadeDB has no Neo4j full-text/vector index until one is created (see test below)
    assert Capability.FULLTEXT not in store.capabilities
    assert "ArcadeDB" in store.server_agent
    assert store.uri.startswith("bolt://root:***@127.0.0.1:")


def test_uri_has_no_password(store, bolt_server):
    assert bolt_server.password not in store.uri


def test_schema_and_stats(store):
    sch = store.schema(samples=2)
    assert sch.label_names == ["Entity"]
    assert sorted(sch.relation_names) == ["knows", "likes", "links", "lives_in"]
    knows = next(r for r in sch.relation_types if r.name == "knows")
    assert knows.count == 4
    assert [(p.src, p.dst) for p in knows.patterns] == [("Entity", "Entity")]
    assert len(knows.samples) == 2
    ent = sch.node_labels[0]
    assert ent.count == 13
    assert {p.name for p in ent.properties} == {"id", "name"}
    assert all(len(p.samples) <= 2 for p in ent.properties)
    st = store.stats()
    assert (st.nodes, st.triplets, st.relations, st.labels) == (13, 11, 4, 1)


def test_neighbors_both_directions_in_one_call(store):
    got = store.neighbors(["alice", "carol", "missing"], direction=Direction.BOTH)
    assert set(got["alice"].triplets) == {
        Triplet(head="alice", relation="knows", tail="bob"),
        Triplet(head="alice", relation="likes", tail="carol"),
        Triplet(head=QUOTED, relation="knows", tail="alice"),
    }
    assert got["alice"].total == 3 and not got["alice"].truncated
    assert got["missing"].triplets == () and got["missing"].total == 0
    out = store.neighbors(["carol"], direction="out")["carol"]
    assert [t.key for t in out.triplets] == [("carol", "likes", "dave")]
    inn = store.neighbors(["carol"], direction="in")["carol"]
    assert {t.key for t in inn.triplets} == {("bob", "knows", "carol"), ("alice", "likes", "carol")}


def test_neighbors_relation_filter_and_cap(store):
    got = store.neighbors(["hub"], limit_per_node=2)["hub"]
    assert got.total == 4 and len(got.triplets) == 2 and got.truncated
    assert store.neighbors(["alice"], relations=["likes"])["alice"].triplets == (
        Triplet(head="alice", relation="likes", tail="carol"),
    )
    # an unknown relation type is validated away, never pasted into the query
    assert store.neighbors(["alice"], relations=["x`]->() DETACH DELETE n //"])["alice"].total == 0


def test_degrees(store):
    assert store.degrees(["hub", "alice", "missing"]) == {"hub": 4, "alice": 3, "missing": 0}
    assert store.degrees(["alice"], direction=Direction.IN) == {"alice": 1}


def test_get_nodes_and_names_with_quotes(store):
    nodes = store.get_nodes([QUOTED, "nobody"])
    assert nodes["nobody"] is None
    assert nodes[QUOTED].name == QUOTED and nodes[QUOTED].labels == ("Entity",)
    names = [p for batch in store.iter_node_names(batch_size=5) for p in batch]
    assert len(names) == 13 and (QUOTED, QUOTED) in names


def test_shortest_paths_hit_miss_and_direction(store):
    got = store.shortest_paths(
        [("alice", "paris"), ("paris", "alice"), ("alice", "island"), ("alice", "nobody")], max_hops=4
    )
    (p,) = got[("alice", "paris")]
    assert p.nodes == ("alice", "carol", "dave", "paris")
    assert p.relations == ("likes", "likes", "lives_in") and p.inverted == (False,) * 3
    (back,) = got[("paris", "alice")]
    assert back.nodes == ("paris", "dave", "carol", "alice") and back.inverted == (True,) * 3
    assert got[("alice", "island")] == [] and got[("alice", "nobody")] == []
    assert store.shortest_paths([("alice", "paris")], max_hops=2)[("alice", "paris")] == []


def test_query_uses_parameters_and_caps_rows(store):
    res = store.query("MATCH (n) WHERE n.id = $x RETURN n.id AS id", {"x": QUOTED})
    assert res.columns == ("id",) and res.rows == ((QUOTED,),)
    res = store.query("MATCH (n) RETURN n.id AS id", row_limit=3)
    assert len(res.rows) == 3 and res.truncated


def test_query_rejects_writes_and_rolls_back(store):
    with pytest.raises(ReadOnlyViolation):
        store.query("MATCH (n {id: 'alice'}) SET n.hacked = true")
    # even past the lexical guard, the READ transaction is rolled back
    store._run("CREATE (n:Entity {id: 'intruder'}) RETURN n")
    assert store.get_nodes(["intruder"]) == {"intruder": None}


def test_query_error_is_typed(store):
    with pytest.raises(QueryError) as exc:
        store.query("MATCH (n RETURN n")
    assert store.uri in str(exc.value)


def test_explain_returns_plan_and_type(store):
    ex = store.explain("MATCH (n:Entity) RETURN n LIMIT 1")
    assert ex["plan"] is not None and ex["query_type"] in ("r", "w", "rw", "s")
    assert ex["read_only"] is True
    assert store.explain("CREATE (n:X)")["read_only"] is False
    assert store.get_nodes(["X"])["X"] is None


def test_fulltext_when_index_exists(bolt_server, bolt_store_from_triples):
    from byokg.backends.neo4j import open_neo4j

    first = bolt_store_from_triples([("Ada Lovelace", "wrote", "Notes on the Engine")])
    # Neo4j's CREATE FULLTEXT INDEX is not supported by ArcadeDB; its SQL FULL_TEXT index is
    # served through db.index.fulltext.queryNodes and listed by SHOW INDEXES
    bolt_server.sql(first.database, "CREATE PROPERTY Entity.name IF NOT EXISTS STRING")
    bolt_server.sql(first.database, "CREATE INDEX ON Entity (name) FULL_TEXT")
    store = open_neo4j(bolt_server.uri_for(first.database))
    try:
        assert Capability.FULLTEXT in store.capabilities
        hits = store.fulltext_search(["lovelace", "engine (notes)", "zzz"], k=2)
        assert hits["lovelace"][0][0] == "Ada Lovelace"
        assert hits["engine (notes)"][0][0] == "Notes on the Engine"
        assert hits["zzz"] == []
    finally:
        store.close()


def test_database_selection_and_env_auth(bolt_server, bolt_store_from_triples, monkeypatch):
    from byokg.backends.neo4j import open_neo4j

    a = bolt_store_from_triples([("x", "r", "y")])
    monkeypatch.setenv("NEO4J_AUTH", f"{bolt_server.auth[0]}/{bolt_server.auth[1]}")
    monkeypatch.setenv("NEO4J_DATABASE", a.database)
    store = open_neo4j(bolt_server.uri)  # no userinfo, no path: both from the environment
    try:
        assert store.database == a.database and store.stats().triplets == 1
    finally:
        store.close()
    store = open_neo4j(f"{bolt_server.uri}?database={a.database}")
    try:
        assert store.neighbors(["x"])["x"].total == 1
    finally:
        store.close()


def test_open_graph_registered_schemes(bolt_server, bolt_store_from_triples):
    from byokg import registry
    from byokg.graph.open import open_graph

    for scheme in ("neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc"):
        assert scheme in registry.backends()
        assert registry.backends().get(scheme).meta.get("loader") is not None
    a = bolt_store_from_triples([("p", "q", "r")])
    store = open_graph(bolt_server.uri_for(a.database))
    try:
        assert store.relation_types() == ["q"]
    finally:
        store.close()


def test_connection_errors_name_uri_and_cause(bolt_server):
    from byokg.backends.neo4j import open_neo4j

    with pytest.raises(BackendError) as exc:
        open_neo4j("bolt://user:pw@no-such-host.invalid:7687/db", connection_timeout=2)
    msg = str(exc.value)
    assert "bolt://user:***@no-such-host.invalid:7687/db" in msg and "pw@" not in msg
    with pytest.raises(BackendError) as exc:
        open_neo4j(f"bolt://root:wrong@127.0.0.1:{bolt_server.bolt_port}")
    assert f"127.0.0.1:{bolt_server.bolt_port}" in str(exc.value)
    assert "auth" in str(exc.value).lower() or "unauthor" in str(exc.value).lower()
    with pytest.raises(BackendError) as exc:
        open_neo4j(bolt_server.uri_for("no_such_db"))
    assert "no_such_db" in str(exc.value)
    with pytest.raises(ConfigError):
        open_neo4j("http://localhost:7687")


def test_id_label_is_validated(bolt_server, store):
    from byokg.backends.neo4j import open_neo4j

    with pytest.raises(ConfigError, match="id_label"):
        open_neo4j(bolt_server.uri_for(store.database), id_label="Nope`) DETACH DELETE n //")
    ok = open_neo4j(bolt_server.uri_for(store.database) + "?id_label=Entity")
    try:
        assert ok.cyp.id_label == "Entity" and ok.degrees(["hub"]) == {"hub": 4}
    finally:
        ok.close()


def test_loader_round_trip_jsonl_and_bad_rows(bolt_server, tmp_path):
    from byokg.backends.neo4j import load_neo4j
    from byokg.backends.neo4j import open_neo4j

    from byokg.errors import InputError

    src = tmp_path / "g.jsonl"
    src.write_text(
        '{"id": "e1", "name": "Eiffel Tower", "labels": ["Landmark"], "properties": {"height": 330}}\n'
        '{"id": "p", "name": "Paris", "labels": ["Landmark"]}\n'
        '{"head": "e1", "relation": "located in", "tail": "p", "properties": {"since": 1889}}\n'
        '{"head": "e1", "relation": "located in", "tail": "p"}\n'
        '{"head": "e1", "relation": ""}\n',
        encoding="utf-8",
    )
    db = bolt_server.create_database("loadrt")
    with pytest.raises(InputError) as exc:
        load_neo4j([str(src)], bolt_server.uri_for(db))
    assert ":5" in str(exc.value)
    summary = load_neo4j([str(src)], bolt_server.uri_for(db), skip_bad_rows=True)
    assert (summary.nodes, summary.triplets, summary.duplicates, summary.bad_rows) == (2, 1, 1, 1)
    store = open_neo4j(bolt_server.uri_for(db))
    try:
        n = store.get_nodes(["e1"])["e1"]
        assert n.name == "Eiffel Tower" and n.labels == ("Landmark",) and n.properties["height"] == 330
        (t,) = store.neighbors(["p"], direction="in")["p"].triplets
        assert t.key == ("e1", "located in", "p") and t.properties == {"since": 1889}
    finally:
        store.close()


def test_nodes_without_id_property_use_element_id(bolt_server, bolt_store_from_triples):
    import neo4j
    from byokg.backends.neo4j import open_neo4j

    db = bolt_store_from_triples([("seed", "r", "other")]).database
    with neo4j.GraphDatabase.driver(bolt_server.uri, auth=bolt_server.auth) as drv:
        with drv.session(database=db) as s:  # a node created by someone else, without `id`
            s.run("MATCH (o:Entity {id: 'other'}) CREATE (:Entity {name: 'No Id'})-[:r]->(o)").consume()
    store = open_neo4j(bolt_server.uri_for(db))
    try:
        names = dict(p for batch in store.iter_node_names() for p in batch)
        (eid,) = [i for i, n in names.items() if n == "No Id"]
        assert eid not in ("seed", "other") and store.cyp.looks_like_element_id(eid)
        assert store.get_nodes([eid])[eid].name == "No Id"
        assert [t.key for t in store.neighbors([eid])[eid].triplets] == [(eid, "r", "other")]
        assert {t.head for t in store.neighbors(["other"], direction="in")["other"].triplets} == {
            "seed", eid}
        (p,) = store.shortest_paths([(eid, "seed")])[(eid, "seed")]
        assert p.nodes == (eid, "other", "seed")
    finally:
        store.close()
