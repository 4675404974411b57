"""Kùzu backend: loading triples, the read-only store, Cypher, EXPLAIN, full-text and vector."""

from __future__ import annotations

import json

import pytest

from byokg.contracts import Direction
from byokg.errors import BackendError
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import QueryError
from byokg.graph.open import open_graph
from byokg.graph.store import Capability
from byokg.graph.store import has_capability
from byokg.io.loading import load_into
from byokg.testing import triples

# the last line is a duplicate: counted, stored once
TRIPLES = triples("""
    m.01 | people.person.place_of_birth | Paris
    m.01 | people.person.nationality | France
    Paris | location.location.containedby | France
    Anna Harbor | people.person.place_of_birth | Paris
    Anna Harbor | knows | m.01
    Anna Harbor | knows | m.01
""")


@pytest.fixture(scope="module")
def fb(tmp_path_factory, write_triples):
    d = tmp_path_factory.mktemp("kz")
    src = write_triples(d / "t.csv", TRIPLES)
    nodes = d / "nodes.jsonl"
    nodes.write_text(
        json.dumps({"id": "m.01", "name": "Jean Valjean", "aliases": ["Valjean", "24601"]}) + "\n",
        encoding="utf-8",
    )
    uri = f"kuzu:{d / 'g.kz'}"
    summary = load_into([str(src), str(nodes)], uri)
    store = open_graph(uri)
    yield store, summary, uri
    store.close()


def test_load_summary_and_stats(fb):
    store, summary, uri = fb
    assert (summary.triplets, summary.nodes, summary.duplicates) == (5, 4, 1)
    assert store.stats().triplets == 5 and store.stats().nodes == 4
    assert store.uri == uri and store.dialect == "kuzu"


def test_original_relation_names_kept(fb):
    store, *_ = fb
    assert sorted(store.relation_types()) == sorted({r for _, r, _ in TRIPLES})
    schema = store.schema()
    rel = {r.name: r for r in schema.relation_types}
    assert rel["people.person.place_of_birth"].count == 2
    assert rel["people.person.place_of_birth"].patterns[0].src == "Entity"
    assert ("Jean Valjean", "Paris") in rel["people.person.place_of_birth"].samples
    assert [lab.name for lab in schema.node_labels] == ["Entity"]
    # the raw Kùzu layout: one REL table whose `type` holds the name
    res = store.query("MATCH ()-[r:REL]->() WHERE r.type = $t RETURN count(*)",
                      {"t": "people.person.nationality"})
    assert res.rows == ((1,),)


def test_names_aliases_and_nodes(fb):
    store, *_ = fb
    nodes = store.get_nodes(["m.01", "Paris", "nope"])
    assert nodes["m.01"].name == "Jean Valjean" and nodes["m.01"].aliases == ("Valjean", "24601")
    assert nodes["Paris"].display == "Paris" and nodes["nope"] is None
    pairs = {p for b in store.iter_node_names(batch_size=2) for p in b}
    assert {("m.01", "Jean Valjean"), ("m.01", "Valjean"), ("m.01", "24601"), ("Paris", "Paris")} <= pairs
    assert store.display_names(["m.01", "nope"]) == {"m.01": "Jean Valjean", "nope": "nope"}


def test_neighbors_batch_one_query(fb, monkeypatch):
    store, *_ = fb
    calls = []
    run = store._run
    monkeypatch.setattr(store, "_run", lambda *a, **k: calls.append(a[0]) or run(*a, **k))
    got = store.neighbors(["m.01", "Paris", "France", "nope"], direction=Direction.BOTH,
                          relations=["people.person.place_of_birth", "knows"], limit_per_node=1)
    assert len(calls) == 1 and "IN $k_" in calls[0]
    assert got["Paris"].total == 2 and len(got["Paris"].triplets) == 1 and got["Paris"].truncated
    assert got["m.01"].total == 2 and got["France"].total == 0 and got["nope"].total == 0


def test_degrees_and_capabilities(fb):
    store, *_ = fb
    assert store.degrees(["Paris", "nope"], direction=Direction.IN) == {"Paris": 2, "nope": 0}
    for cap in (Capability.CYPHER, Capability.EXPLAIN, Capability.SHORTEST_PATH, Capability.FULLTEXT):
        assert has_capability(store, cap)
    assert not has_capability(store, Capability.VECTOR)
    assert not has_capability(store, Capability.WRITE)


def test_native_shortest_paths(fb):
    store, *_ = fb
    got = store.shortest_paths([("Anna Harbor", "France"), ("Paris", "Paris"), ("Paris", "x")],
                               max_hops=3, k=5)
    paths = got[("Anna Harbor", "France")]
    assert {p.nodes for p in paths} == {("Anna Harbor", "m.01", "France"), ("Anna Harbor", "Paris", "France")}
    assert all(p.hops == 2 for p in paths)
    assert got[("Paris", "Paris")][0].nodes == ("Paris",) and got[("Paris", "x")] == []
    one = store.shortest_paths([("France", "Anna Harbor")], max_hops=2, k=1)[("France", "Anna Harbor")]
    assert len(one) == 1 and one[0].inverted == (True, True)


def test_fulltext_search(fb):
    store, *_ = fb
    hits = store.fulltext_search(["valjean jean", "harbor"], k=2)
    assert hits["valjean jean"][0][0] == "m.01"
    assert hits["harbor"][0][0] == "Anna Harbor"


def test_query_params_row_limit_and_read_only(fb):
    store, *_ = fb
    res = store.query("MATCH (n:Entity) WHERE n.id STARTS WITH $p RETURN n.id AS id ORDER BY id",
                      {"p": "m."})
    assert res.columns == ("id",) and res.rows == (("m.01",),) and not res.truncated
    res = store.query("MATCH (n:Entity) RETURN n.id", row_limit=2)
    assert len(res.rows) == 2 and res.truncated and res.elapsed_ms is not None
    with pytest.raises(QueryError, match="read"):  # opened read-only: Kùzu refuses writes
        store.query("CREATE (:Entity {id: 'x'})")
    with pytest.raises(QueryError):
        store.query("MATCH (n:Nope) RETURN n")


def test_explain(fb):
    store, *_ = fb
    plan = store.explain("MATCH (n:Entity) RETURN n.id")
    assert plan["dialect"] == "kuzu" and "Physical Plan" in plan["plan"]
    with pytest.raises(QueryError):
        store.explain("MATCH (n:Entity RETURN n")


def test_open_errors(tmp_path):
    with pytest.raises(BackendError, match=r"kuzu:.*nothing-here"):
        open_graph(f"kuzu:{tmp_path / 'nothing-here'}")
    with pytest.raises(ConfigError):
        open_graph("kuzu:")


def test_load_refuses_existing_target(fb, tmp_path, write_triples):
    _, _, uri = fb
    src = write_triples(tmp_path / "t.csv", TRIPLES[:1])
    with pytest.raises(ConfigError, match="already exists"):
        load_into([str(src)], uri)


def test_load_bad_rows(tmp_path):
    src = tmp_path / "bad.csv"
    src.write_text("head,relation,tail\na,r,b\nc,r\nd,,e\nf,r,g\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.csv:3"):
        load_into([str(src)], f"kuzu:{tmp_path / 'x.kz'}")
    assert not (tmp_path / "x.kz").exists()
    summary = load_into([str(src)], f"kuzu:{tmp_path / 'y.kz'}", skip_bad_rows=True)
    assert summary.triplets == 2 and summary.bad_rows == 2
    assert any("bad.csv:3" in r or "line 3" in r for r in summary.reasons)


def test_vector_index_used_when_present(tmp_path):
    import kuzu

    path = tmp_path / "vec.kz"
    db = kuzu.Database(str(path))
    con = kuzu.Connection(db)
    con.execute("CREATE NODE TABLE Item(id STRING PRIMARY KEY, name STRING, emb FLOAT[3])")
    for i, v in (("a", [1, 0, 0]), ("b", [0, 1, 0]), ("c", [0.9, 0.1, 0])):
        con.execute("CREATE (:Item {id: $i, name: $i, emb: $v})", {"i": i, "v": v})
    con.execute("CALL CREATE_VECTOR_INDEX('Item', 'item_vec', 'emb')")
    con.close()
    db.close()
    store = open_graph(f"kuzu:{path}")
    try:
        assert has_capability(store, Capability.VECTOR)
        assert not has_capability(store, Capability.FULLTEXT)
        [hits] = store.vector_search([[1.0, 0.0, 0.0]], k=2)
        assert [h[0] for h in hits] == ["a", "c"] and hits[0][1] > hits[1][1]
        assert store.get_nodes(["a"])["a"].labels == ("Item",)
    finally:
        store.close()


def test_cli_load_triples(tmp_path, write_triples):
    from click.testing import CliRunner

    from byokg.cli import cli

    src = write_triples(tmp_path / "t.csv", TRIPLES)
    res = CliRunner().invoke(cli, ["load", str(src), "--into", f"kuzu:{tmp_path / 'c.kz'}"])
    assert res.exit_code == 0, res.output
    assert "loaded 5 triplets" in res.output and "duplicates skipped: 1" in res.output
