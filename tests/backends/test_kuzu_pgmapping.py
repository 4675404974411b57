"""Property-graph mapping files (byokg.io.pgmapping) and loading them into Kùzu."""

from __future__ import annotations

import json

import pytest

from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.graph.open import open_graph
from byokg.io.loading import load_into
from byokg.io.pgmapping import PGLoadReport
from byokg.io.pgmapping import PGMapping

MAPPING = {
    "nodes": [
        {"label": "Person", "file": "people.csv", "key": "pid", "name": "fullName",
         "properties": {"pid": "int", "fullName": "string", "age": "int", "active": "bool"}},
        {"label": "City", "file": "cities.csv", "key": "code", "name": "cityName",
         "properties": {"code": "string", "cityName": "string", "pop": "float"}},
    ],
    "edges": [
        {"type": "LIVES_IN", "file": "people.csv", "src_label": "Person", "src_column": "pid",
         "dst_label": "City", "dst_column": "city"},
        {"type": "VISITED", "file": "visits.csv", "src_label": "Person", "src_column": "who",
         "dst_label": "City", "dst_column": "where", "properties": {"times": "int", "note": "string"}},
    ],
}


@pytest.fixture()
def pg(tmp_path):
    (tmp_path / "people.csv").write_text(
        "pid,fullName,age,active,city\n1,Ann Lee,34,true,PAR\n2,Bo Chen,,0,BER\n3,Cy Diaz,51,1,XXX\n"
        "1,Ann Again,1,1,PAR\n",
        encoding="utf-8",
    )
    (tmp_path / "cities.csv").write_text(
        "code,cityName,pop\nPAR,Paris,2.1\nBER,Berlin,3.6\n", encoding="utf-8"
    )
    (tmp_path / "visits.csv").write_text(
        "who,where,times,note\n1,BER,2,fun\n1,BER,5,again\n2,PAR,1,\n9,PAR,1,ghost\n", encoding="utf-8"
    )
    m = tmp_path / "mapping.json"
    m.write_text(json.dumps(MAPPING), encoding="utf-8")
    return tmp_path, m


def test_load_json_and_toml(pg, tmp_path):
    _, m = pg
    a = PGMapping.load(m)
    toml = tmp_path / "m.toml"
    toml.write_text(
        '[[nodes]]\nlabel = "Person"\nfile = "people.csv"\nkey = "pid"\n'
        '[nodes.properties]\npid = "int"\n', encoding="utf-8")
    b = PGMapping.load(toml)
    assert a.nodes[0].label == b.nodes[0].label == "Person" and b.nodes[0].properties == {"pid": "int"}
    assert a.nodes[1].properties["code"] == "string" and a.edges[1].dedupe


@pytest.mark.parametrize(
    "patch, field",
    [
        (lambda d: d["nodes"][0].pop("key"), "nodes.0.key"),
        (lambda d: d["nodes"][1]["properties"].update(pop="decimal"), "nodes.1.properties.pop"),
        (lambda d: d["edges"][0].update(dst_label="Town"), None),
    ],
)
def test_mapping_errors_name_file_and_field(pg, patch, field):
    _, m = pg
    data = json.loads(json.dumps(MAPPING))
    patch(data)
    m.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        PGMapping.load(m)
    assert str(m) in str(exc.value)
    if field:
        assert exc.value.field == field
    else:
        assert "Town" in str(exc.value)


def test_mapping_file_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nodes: }", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json:1"):
        PGMapping.load(bad)
    with pytest.raises(InputError, match="cannot read"):
        PGMapping.load(tmp_path / "missing.json")


def test_iter_typed_batches_dedupe_and_dangling(pg):
    base, m = pg
    mapping = PGMapping.load(m)
    rep = PGLoadReport()
    nodes = {spec.label: batch for spec, batch in mapping.iter_nodes(base, report=rep)}
    assert nodes["Person"][0] == {"pid": 1, "fullName": "Ann Lee", "age": 34, "active": True}
    assert nodes["Person"][1]["age"] is None and nodes["Person"][1]["active"] is False
    assert len(nodes["Person"]) == 3 and rep.duplicates == 1  # pid 1 twice: first row wins
    assert nodes["City"][0]["pop"] == 2.1
    edges: dict[str, list] = {}
    for spec, batch in mapping.iter_edges(base, report=rep, batch_size=1):
        edges.setdefault(spec.type, []).extend(batch)
    assert edges["LIVES_IN"] == [{"src": 1, "dst": "PAR"}, {"src": 2, "dst": "BER"}]  # XXX dangling
    assert edges["VISITED"] == [{"src": 1, "dst": "BER", "times": 2, "note": "fun"},
                                {"src": 2, "dst": "PAR", "times": 1, "note": None}]
    assert rep.dangling == 2 and rep.duplicates == 3  # + (1,PAR) again and (1,BER) again


def _bad_city_row(pg, row: str, error: str):
    """cities.csv holds one ``row``; reading the nodes raises an InputError matching ``error``."""
    base, m = pg
    (base / "cities.csv").write_text(f"code,cityName,pop\n{row}\n", encoding="utf-8")
    mapping = PGMapping.load(m)
    with pytest.raises(InputError, match=error):
        list(mapping.iter_nodes(base))
    return base, m, mapping


def test_bad_values_name_file_line_and_column(pg):
    base, _, mapping = _bad_city_row(pg, "PAR,Paris,lots", r"cities\.csv:2.*'pop'.*float")
    rep = PGLoadReport()
    list(mapping.iter_nodes(base, skip_bad_rows=True, report=rep))
    assert rep.bad_rows == 1
    assert rep.reasons[0] == f"{base / 'cities.csv'}:2: column 'pop': 'lots' is not a float"


def test_extra_fields(pg):
    base, m, _ = _bad_city_row(pg, "PAR,Paris,2.1,oops",
                               r"cities\.csv:2: expected 3 fields \(as the header\), found 4; set "
                               r'extra_fields = "ignore" on this spec')
    data = json.loads(m.read_text())
    data["nodes"][1]["extra_fields"] = "ignore"
    m.write_text(json.dumps(data))
    rep = PGLoadReport()
    batches = list(PGMapping.load(m).iter_nodes(base, report=rep))
    assert batches[1][1] == [{"code": "PAR", "cityName": "Paris", "pop": 2.1}] and rep.long_rows == 1
    assert rep.shortened == {"cities.csv": [2]}


def test_missing_column(pg):
    base, m = pg
    (base / "visits.csv").write_text("who,where,times\n1,BER,2\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"visits\.csv:1.*'note'"):
        list(PGMapping.load(m).iter_edges(base))


def test_load_into_kuzu(pg, tmp_path):
    base, m = pg
    uri = f"kuzu:{tmp_path / 'pg.kz'}"
    summary = load_into([str(base)], uri, mapping=str(m))
    assert (summary.nodes, summary.triplets) == (5, 4)
    assert "2 edge row(s) skipped: source or target is not a loaded node" in summary.notes
    store = open_graph(uri)
    try:
        # INT64 primary key: ids are Label:key, parsed back to the key type
        nodes = store.get_nodes(["Person:1", "City:PAR", "Person:x"])
        assert nodes["Person:1"].name == "Ann Lee" and nodes["Person:1"].properties["age"] == 34
        assert nodes["City:PAR"].display == "Paris" and nodes["Person:x"] is None
        nb = store.neighbors(["Person:1"], relations=["VISITED"])["Person:1"]
        assert [(t.head, t.relation, t.tail, t.properties) for t in nb.triplets] == [
            ("Person:1", "VISITED", "City:BER", {"times": 2, "note": "fun"})]
        assert sorted(store.relation_types()) == ["LIVES_IN", "VISITED"]
        assert store.fulltext_search(["berlin"], k=1)["berlin"][0][0] == "City:BER"
        paths = store.shortest_paths([("Person:1", "Person:2")], max_hops=3, k=5)
        assert {p.nodes for p in paths[("Person:1", "Person:2")]} == {
            ("Person:1", "City:BER", "Person:2"), ("Person:1", "City:PAR", "Person:2")}
    finally:
        store.close()


def test_mapping_load_needs_one_folder(pg, tmp_path):
    base, m = pg
    with pytest.raises(ConfigError, match="one folder"):
        load_into([str(base / "people.csv")], f"kuzu:{tmp_path / 'z.kz'}", mapping=str(m))


@pytest.mark.parametrize("column", ["floor name", "order"])
def test_a_name_column_kuzu_fts_cannot_take_still_loads_and_links(tmp_path, column):
    """Kùzu's full-text index writes the property name unquoted into its own query: a name
    column with a space or a reserved word gets no FTS index, a note says so, and linking
    still works."""
    (tmp_path / "floors.csv").write_text(
        f"fid,{column}\nf1,Ground Floor\nf2,Mezzanine Level\n", encoding="utf-8")
    (tmp_path / "above.csv").write_text("upper,lower\nf2,f1\n", encoding="utf-8")
    mapping = {
        "nodes": [{"label": "Floor", "file": "floors.csv", "key": "fid", "name": column,
                   "properties": {"fid": "string", column: "string"}}],
        "edges": [{"type": "ABOVE", "file": "above.csv", "src_label": "Floor",
                   "src_column": "upper", "dst_label": "Floor", "dst_column": "lower"}],
    }
    m = tmp_path / "mapping.json"
    m.write_text(json.dumps(mapping), encoding="utf-8")
    uri = f"kuzu:{tmp_path / 'floors.kz'}"
    summary = load_into([str(tmp_path)], uri, mapping=str(m))
    assert any(f"no full-text index on {column!r}" in n for n in summary.notes)
    from byokg.plugins.linking.linker import EntityLinker
    from byokg.plugins.linking.linker import EntityLinkerParams

    from byokg.config import RunConfig
    from byokg.models.services import Services

    store = open_graph(uri)
    try:
        assert store.get_nodes(["Floor:f2"])["Floor:f2"].display == "Mezzanine Level"
        (links,) = EntityLinker().link(["Mezzanine Level"], store=store,
                                       services=Services(RunConfig()),
                                       params=EntityLinkerParams())
        assert links.candidates[0].id == "Floor:f2"
    finally:
        store.close()
