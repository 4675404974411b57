"""The FalkorDB backend against a real FalkorDB server (tests/conftest.py ``falkordb_server``,
started on 127.0.0.1 and stopped by the tests): URIs, opening and loading errors, values as
parameters, read-only reads, Northwind beside Kùzu, full-text search, shortest paths in both
directions, timeouts. The contract suite runs on it in test_contract.py, the hostile queries in
tests/cypher/test_hostile_falkordb.py."""

from __future__ import annotations

import pytest

from byokg.cypher.execute import Status
from byokg.cypher.execute import execute
from byokg.errors import BackendError
from byokg.errors import ConfigError
from byokg.errors import QueryError
from byokg.errors import ReadOnlyViolation

pytestmark = [pytest.mark.server]

TRIPLES = [("alice", "knows", "bob"), ("bob", "lives_in", "paris"), ("carol", "lives_in", "paris"),
           ("alice", "likes", "carol")]


@pytest.fixture(scope="module")
def small(falkordb_store_from_triples):
    return falkordb_store_from_triples(TRIPLES, graph="small")


@pytest.mark.parametrize(("uri", "msg"), [
    ("falkordb://127.0.0.1:6379", "name one graph"),
    ("falkordb://127.0.0.1:6379/a/b", "name one graph"),
    ("falkordb:///g", "has no host"),
    ("falkordb://127.0.0.1:6379/g?colour=red", "unknown option 'colour'"),
    ("falkordb://127.0.0.1:notaport/g", "port is not a number"),
])
def test_bad_uris_say_what_is_wrong(uri, msg) -> None:
    from byokg.backends.falkordb import parse_uri

    with pytest.raises(ConfigError, match=msg):
        parse_uri(uri)


def test_opening_and_loading_errors_name_the_graph(falkordb_server, small, tmp_path) -> None:
    from byokg.graph.open import open_graph
    from byokg.io.loading import load_into

    with pytest.raises(BackendError, match="no graph named 'nosuch'.*small"):
        open_graph(falkordb_server.uri_for("nosuch"))
    with pytest.raises(BackendError, match="cannot reach FalkorDB"):
        open_graph(falkordb_server.uri_for("small").replace(falkordb_server.password, "wrong"))
    csv = tmp_path / "t.csv"
    csv.write_text("head,relation,tail\na,r,b\n")
    with pytest.raises(ConfigError, match="'small' already exists"):
        load_into([str(csv)], falkordb_server.uri_for("small"))
    assert "***" in small.uri and falkordb_server.password not in small.uri


def test_values_travel_as_parameters(small) -> None:
    hostile = ['a"b', "x\\\"y", "\\", "new\nline", "}) RETURN 1 //", "'", "back`tick", "\\u0041",
               "é€😀", "$v", "CYPHER v=1"]
    for v in hostile:
        assert small.query("RETURN $v AS v", {"v": v}).rows == ((v,),), v
    # an id that tries to close the pattern is just an id nobody has
    bad = "alice'}) CREATE (:Pwn) //"
    assert small.neighbors([bad])[bad].total == 0
    assert small.get_nodes([bad]) == {bad: None}
    assert "Pwn" not in small.labels()


def test_reads_are_read_only_at_the_server_too(small) -> None:
    with pytest.raises(ReadOnlyViolation):
        small.query("CREATE (:Pwn)")
    with pytest.raises(QueryError, match="read-only"):
        small._run("CREATE (:Pwn)")  # past the guard: GRAPH.RO_QUERY refuses it
    assert small.stats().nodes == 4


def test_shortest_paths_in_both_directions(small) -> None:
    got = small.shortest_paths([("bob", "carol"), ("carol", "alice"), ("alice", "alice")],
                               max_hops=3, k=2)
    bob_carol = got[("bob", "carol")]
    assert [p.nodes for p in bob_carol] == [("bob", "alice", "carol"), ("bob", "paris", "carol")]
    assert got[("carol", "alice")][0].relations == ("likes",)
    assert got[("carol", "alice")][0].inverted == (True,)
    assert got[("alice", "alice")][0].nodes == ("alice",)
    assert small.shortest_paths([("bob", "carol")], max_hops=1) == {("bob", "carol"): []}


def test_fulltext_search_over_the_loaded_names(small) -> None:
    assert "fulltext" in small.capabilities
    hits = small.fulltext_search(["paris", "carol!", "***"], k=2)
    assert hits["paris"][0][0] == "paris" and hits["carol!"][0][0] == "carol"
    assert hits["***"] == []


def test_catalogue_and_profile(small) -> None:
    from byokg.graph.profile import profile_graph

    assert small.labels() == ["Entity"]
    assert small.relation_types() == ["knows", "likes", "lives_in"]
    meta = small.meta_stats()
    assert meta["nodeCount"] == 4 and meta["relCount"] == 4
    prof = profile_graph(small)
    assert prof is not None
    # distinct heads and tails counted by FalkorDB itself (cardinality and coverage)
    knows = prof.relation("knows")
    assert knows.heads and knows.tails and sum(knows.heads.values()) <= (knows.count or 0)


def test_timeout_is_the_servers(small) -> None:
    slow = "UNWIND range(1, 300000000) AS x WITH x WHERE x % 7 = 3 RETURN count(x) AS n"
    ex = execute(small, slow, timeout_s=0.5)
    assert ex.status is Status.TIMEOUT, (ex.status, ex.error)
    ok = execute(small, "MATCH (n:Entity) RETURN count(n) AS n")
    assert ok.status is Status.OK and ok.result.rows == ((4,),)


@pytest.mark.slow
def test_northwind_in_falkordb_answers_as_in_kuzu(falkordb_server, northwind_data,
                                                  northwind_kuzu) -> None:
    from byokg.graph.open import open_graph
    from byokg.io.pgmapping import load_northwind

    summary = load_northwind(falkordb_server.uri_for("northwind"), northwind_data)
    assert "3,139 triplets over 1,035 nodes" in summary.summary()
    store = open_graph(falkordb_server.uri_for("northwind"))
    try:
        assert (store.stats().nodes, store.stats().triplets) == (1035, 3139)
        q = ("MATCH (p:Product)-[:PART_OF]->(c:Category) RETURN c.categoryName AS c, "
             "count(p) AS n, sum(p.unitsInStock) AS stock ORDER BY c")
        ours, kuzu = execute(store, q), execute(northwind_kuzu, q)
        assert ours.status is Status.OK and ours.result.rows == kuzu.result.rows
        ids = ["Customer:ALFKI", "Product:1"]
        hoods = {k: sorted((t.head, t.relation, t.tail) for t in h.triplets)
                 for k, h in store.neighbors(ids).items()}
        want = {k: sorted((t.head, t.relation, t.tail) for t in h.triplets)
                for k, h in northwind_kuzu.neighbors(ids).items()}
        assert hoods == want
    finally:
        store.close()
