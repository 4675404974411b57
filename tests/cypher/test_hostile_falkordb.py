"""The hostile queries of tests/cypher/hostile.py against a real FalkorDB server (started by the
tests on 127.0.0.1) through byokg's execution path (guard, worker process, ``GRAPH.RO_QUERY``):
the Northwind graph is unchanged count for count, no label / relationship type / property key /
index appears, no row holds a local file's content. A control shows that each layer holds on
its own: with the guard bypassed, ``GRAPH.RO_QUERY`` still refuses every write, and the EXPLAIN
second opinion refuses write plans."""

from __future__ import annotations

import pytest
from cypher_helpers import IMPORT
from hostile import BOLT_PAYLOADS
from hostile import FALKORDB_PAYLOADS
from hostile import campaign
from hostile import secret_fill

from byokg.cypher.execute import Status
from byokg.cypher.execute import execute
from byokg.cypher.guard import GuardVerdict
from byokg.cypher.guard import check_query
from byokg.cypher.guard import confirm_with_explain

pytestmark = [pytest.mark.server, pytest.mark.slow]
SECRET = "TOPSECRET-fa1c0n-5ea1"
PAYLOADS = list(dict.fromkeys(FALKORDB_PAYLOADS + BOLT_PAYLOADS))


def _state(store) -> dict:
    meta = store.meta_stats()
    return {
        "labels": dict(meta["labels"]), "types": dict(meta["relTypes"]),
        "nodes": meta["nodeCount"], "edges": meta["relCount"],
        "keys": sorted(r[0] for r in store._run("CALL db.propertyKeys()")[1]),
        # what an index is, not its status or counters: an index still being built when the
        # graph was loaded reads "[Indexing] 0/91: UNDER CONSTRUCTION", later "OPERATIONAL"
        "indexes": sorted(map(repr, store._run(
            "CALL db.indexes() YIELD label, properties, types, entitytype "
            "RETURN label, properties, types, entitytype")[1])),
        "graphs": sorted(store._db.list_graphs()),
    }


@pytest.fixture(scope="module")
def falkor_arena(falkordb_server, tmp_path_factory):
    from byokg.backends.falkordb import open_falkordb

    from byokg.io.pgmapping import load_northwind

    load_northwind(falkordb_server.uri_for("hostile_nw"), IMPORT)
    store = open_falkordb(falkordb_server.uri_for("hostile_nw"))
    fill = secret_fill(tmp_path_factory.mktemp("fsecret"), SECRET)
    yield store, fill, _state(store)
    store.close()


def test_hostile_queries_leave_the_falkordb_graph_unchanged(falkor_arena) -> None:
    store, fill, before = falkor_arena
    assert before["nodes"] == 1035 and before["edges"] == 3139
    tried, accepted, leaked = campaign(store, PAYLOADS, fill, SECRET)
    print(f"\nFalkorDB: {len(tried)} hostile queries, {len(tried) - len(accepted)} refused, "
          f"{len(accepted)} accepted (harmless reads)")
    assert len(tried) >= 1000
    assert leaked == []
    assert _state(store) == before


WRITES = ["CREATE (:Category {categoryID: 'pwn'})", "MATCH (c:Category) SET c.categoryName = 'x'",
          "MATCH (c:Category) DETACH DELETE c", "MERGE (c:Category {categoryID: 'pwn'})",
          "CREATE INDEX FOR (c:Category) ON (c.categoryName)",
          "CALL db.idx.fulltext.createNodeIndex('Category', 'categoryName')"]


def test_each_layer_refuses_writes_on_its_own(falkor_arena) -> None:
    """Guard bypassed: GRAPH.RO_QUERY refuses every write; the EXPLAIN plan check refuses the
    writes it can plan; the guard refuses them all."""
    from byokg.errors import QueryError

    store, _, before = falkor_arena
    for q in WRITES:
        assert not check_query(q, dialect="falkordb").allowed, q
        with pytest.raises(QueryError, match="read-only"):
            store._run(q)  # straight to GRAPH.RO_QUERY, no guard
    for q in WRITES[:4]:
        v = confirm_with_explain(store, GuardVerdict(allowed=True, normalized_query=q))
        assert not v.allowed and "EXPLAIN plan holds the operator" in v.reason, q
    ok = confirm_with_explain(store, GuardVerdict(
        allowed=True, normalized_query="MATCH (c:Category) RETURN c.categoryName"))
    assert ok.allowed and "EXPLAIN plan read-only" in ok.notes
    assert _state(store) == before


def test_falkordb_reads_of_the_legitimate_kind_run(falkor_arena) -> None:
    store, _, _ = falkor_arena
    for q, rows in [
        ("MATCH (c:Category) RETURN count(c) AS n", ((8,),)),
        ("CALL db.labels() YIELD label RETURN count(label) AS n", ((5,),)),
        ("MATCH (p:Product)-[:PART_OF]->(c:Category {categoryName: 'Seafood'}) "
         "RETURN string.join(collect(p.productName)[0..2], ', ') AS s", None),
        ("MATCH (p:Product) RETURN indegree(p) + outdegree(p) AS d ORDER BY d DESC LIMIT 1", None),
    ]:
        ex = execute(store, q)
        assert ex.status is Status.OK, (q, ex.error)
        if rows is not None:
            assert ex.result.rows == rows
