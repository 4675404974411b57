"""Loaders and queries with hostile relation names, labels and property keys (backticks,
comments, quotes, backslashes): each name is written by the target engine's quoting rules or
refused with an error naming it and the source — never pasted into query text raw."""

from __future__ import annotations

import json

import pytest

from byokg.cypher.execute import Status
from byokg.cypher.execute import execute
from byokg.cypher.lexer import UnsafeIdentifier
from byokg.cypher.lexer import quote_identifier
from byokg.errors import InputError
from byokg.graph.open import open_graph

COMMENTY = "/* **/ ' */ CREATE (x) //'"
QUOTEY = ["it's", 'say "hi"', "back\\slash", "a;b", "x -- y", "a // b", "a`b", "a``b"]


def _jsonl(path, rels, labels=("Thing",), props=("name",)):
    rows = [{"id": "n1", "name": "one", "labels": list(labels)},
            {"id": "n2", "name": "two", "labels": list(labels)}]
    rows += [{"head": "n1", "relation": r, "tail": "n2"} for r in rels]
    rows[0]["properties"] = {p: "v" for p in props if p != "name"}
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_identifier_quoting_rules() -> None:
    assert quote_identifier("a`b", "neo4j") == "`a``b`"
    assert quote_identifier("it's", "kuzu") == "`it's`"
    for name, dialect in [("a`b", "kuzu"), (COMMENTY, "neo4j"), ("a*/b", "neo4j"),
                          ("x\x00y", "kuzu"), ("x\ny", "neo4j"), ("", "neo4j")]:
        with pytest.raises(UnsafeIdentifier):
            quote_identifier(name, dialect)


def test_kuzu_triple_loader_keeps_hostile_relation_names_as_values(tmp_path) -> None:
    """On a Kùzu triple graph relation names are values of REL.type, never query text."""
    from byokg.backends.kuzu import load_kuzu

    rels = [COMMENTY, *QUOTEY]
    src = _jsonl(tmp_path / "t.jsonl", rels)
    uri = f"kuzu:{tmp_path / 'g.kz'}"
    load_kuzu([str(src)], uri)
    store = open_graph(uri)
    try:
        assert set(store.relation_types()) == set(rels)
        hood = store.neighbors(["n1"], relations=[COMMENTY, "it's"])["n1"]
        assert {t.relation for t in hood.triplets} == {COMMENTY, "it's"}
        schema = store.schema(samples=1)
        assert {r.name for r in schema.relation_types} == set(rels)
        # a generated query naming such a relation: rewritten to a string value, guarded
        ex = execute(store, "MATCH (a)-[:`it's`]->(b) RETURN b.name AS n")
        assert ex.status is Status.OK and ex.result.rows == (("two",),), ex.error
        ex = execute(store, "MATCH (a)-[r]->(b) WHERE r.type = $t RETURN b.name AS n",
                     {"t": COMMENTY})
        assert ex.status is Status.OK and ex.result.rows == (("two",),), ex.error
        assert store.query("MATCH (n:Entity) RETURN count(n)").rows == ((2,),)
    finally:
        store.close()


def test_kuzu_property_graph_loader_refuses_unquotable_labels(tmp_path) -> None:
    from byokg.backends.kuzu import load_kuzu

    (tmp_path / "csv").mkdir()
    (tmp_path / "csv" / "a.csv").write_text("id,name\n1,x\n")
    for label in ["A`B", COMMENTY, "Bad'Label"]:
        mapping = tmp_path / "m.json"
        mapping.write_text(json.dumps({"nodes": [{"label": label, "file": "a.csv", "key": "id",
                                                  "name": "name"}]}))
        with pytest.raises(InputError) as ei:
            load_kuzu([str(tmp_path / "csv")], f"kuzu:{tmp_path / 'pg.kz'}", mapping=str(mapping))
        assert str(mapping) in str(ei.value) and repr(label) in str(ei.value)
        assert not (tmp_path / "pg.kz").exists()


def test_kuzu_property_graph_loader_refuses_unquotable_columns(tmp_path) -> None:
    from byokg.backends.kuzu import load_kuzu

    (tmp_path / "csv").mkdir()
    (tmp_path / "csv" / "a.csv").write_text("id,name,a`b\n1,x,y\n")
    mapping = tmp_path / "m.json"
    mapping.write_text(json.dumps({"nodes": [{
        "label": "Thing", "file": "a.csv", "key": "id", "name": "name",
        "properties": {"id": "string", "name": "string", "a`b": "string"}}]}))
    with pytest.raises(InputError, match="backtick") as ei:
        load_kuzu([str(tmp_path / "csv")], f"kuzu:{tmp_path / 'pg.kz'}", mapping=str(mapping))
    assert str(mapping) in str(ei.value) and "'a`b'" in str(ei.value)


def test_kuzu_property_names_with_quotes_load_and_read_back(tmp_path) -> None:
    """A column named with a quote and comment markers is a quoted name in DDL and an
    escaped string where Kùzu wants one (table_info); the schema reads it back."""
    from byokg.backends.kuzu import load_kuzu

    (tmp_path / "csv").mkdir()
    (tmp_path / "csv" / "a.csv").write_text("id,name,it's /* x */\n1,x,v\n")
    (tmp_path / "csv" / "e.csv").write_text("src,dst\n1,1\n")  # a graph needs an edge
    mapping = tmp_path / "m.json"
    mapping.write_text(json.dumps({"nodes": [{
        "label": "Thing", "file": "a.csv", "key": "id", "name": "name",
        "properties": {"id": "string", "name": "string", "it's /* x */": "string"}}],
        "edges": [{"type": "SELF", "file": "e.csv", "src_label": "Thing", "src_column": "src",
                   "dst_label": "Thing", "dst_column": "dst"}]}))
    uri = f"kuzu:{tmp_path / 'pg.kz'}"
    load_kuzu([str(tmp_path / "csv")], uri, mapping=str(mapping))
    store = open_graph(uri)
    try:
        props = {p.name for nl in store.schema(samples=1).node_labels for p in nl.properties}
        assert "it's /* x */" in props
        node = store.get_nodes(["1"])["1"]  # the table has an "id" column: that is the id
        assert node is not None and node.properties["it's /* x */"] == "v"
    finally:
        store.close()


@pytest.mark.server
@pytest.mark.slow
def test_bolt_loader_quotes_or_refuses_hostile_names(bolt_server, tmp_path) -> None:
    from byokg.backends.neo4j import load_neo4j
    from byokg.backends.neo4j import open_neo4j

    fresh = bolt_server.create_database("hostile_names")
    uri = bolt_server.uri_for(fresh)
    # a comment marker cannot be quoted for ArcadeDB: refused, naming the name and the file
    src = _jsonl(tmp_path / "bad.jsonl", ["ok", COMMENTY])
    with pytest.raises(InputError) as ei:
        load_neo4j([str(src)], uri)
    assert repr(COMMENTY) in str(ei.value) and str(src) in str(ei.value)
    bad_label = _jsonl(tmp_path / "badl.jsonl", ["ok"], labels=["L/*x*/"])
    with pytest.raises(InputError, match="node label"):
        load_neo4j([str(bad_label)], uri)
    store = open_neo4j(uri)
    try:
        assert store.query("MATCH (n) RETURN count(n) AS c").rows == ((0,),)  # nothing written
    finally:
        store.close()
    # backticks, quotes, backslashes, ';' and '//' are quoted by Neo4j's rules and load
    names = [n for n in QUOTEY if n != "a``b"]
    src = _jsonl(tmp_path / "good.jsonl", names, labels=["Th`ing"], props=("name", "it's"))
    load_neo4j([str(src)], uri)
    store = open_neo4j(uri)
    try:
        assert set(store.relation_types()) == set(names)
        hood = store.neighbors(["n1"], relations=["a`b", "it's"])["n1"]
        assert {t.relation for t in hood.triplets} == {"a`b", "it's"}
        assert "Th`ing" in store.labels()
        assert store.get_nodes(["n1"])["n1"].properties.get("it's") == "v"
    finally:
        store.close()
