"""Northwind loaded with a mapping that names no display column (every ``name`` removed): the
profile finds the names on its own, in Kùzu and over Bolt; the load summary counts the rows
``extra_fields = "ignore"`` shortened per file and names their first lines."""

from __future__ import annotations

import json

import pytest

from byokg.graph.open import open_graph
from byokg.graph.profile import profile_graph
from byokg.io.loading import load_into
from byokg.io.pgmapping import northwind_mapping_path

WANTED = {"Product": ("productName",), "Category": ("categoryName",),
          "Supplier": ("companyName",), "Customer": ("companyName",), "Order": ()}
NOTES = [
    'suppliers.csv: 9 row(s) had more fields than the header; the extra fields were ignored '
    '(extra_fields = "ignore"), lines 8, 9, 15, 19, 21, …',
    'orders.csv: 176 row(s) had more fields than the header; the extra fields were ignored '
    '(extra_fields = "ignore"), lines 4, 5, 6, 7, 10, …',
]


@pytest.fixture(scope="module")
def unhinted(tmp_path_factory):
    data = json.loads(northwind_mapping_path().read_text(encoding="utf-8"))
    for node in data["nodes"]:
        node.pop("name", None)
    path = tmp_path_factory.mktemp("nw") / "mapping.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _check(store) -> None:
    prof = profile_graph(store, refresh=True)
    assert {lab.name: lab.display_parts for lab in prof.labels} == WANTED
    cust = prof.label("Customer")
    assert any(c.property == "contactName" and "names a part (contact…" in c.why
               for c in cust.candidates)
    orders = {p.name: p for p in prof.relation("ORDERS").properties}
    assert orders["quantity"].kind == "int" and orders["unitPrice"].text_kind == "number"
    names = store.display_names(["Product:1"] if store.dialect == "kuzu" else [])
    if names:
        assert names == {"Product:1": "Chai"}


def test_northwind_kuzu_without_name_hints(unhinted, northwind_data, tmp_path):
    uri = f"kuzu:{tmp_path / 'nw.kz'}"
    summary = load_into([str(northwind_data)], uri, mapping=unhinted)
    assert (summary.nodes, summary.triplets) == (1035, 3139)
    assert summary.notes[:2] == NOTES
    text = summary.summary()
    assert "  " + NOTES[1] in text.splitlines()
    store = open_graph(uri)
    try:
        _check(store)
    finally:
        store.close()


@pytest.mark.server
def test_northwind_bolt_without_name_hints(unhinted, northwind_data, bolt_server):
    db = bolt_server.create_database("nw_unhinted")
    summary = load_into([str(northwind_data)], bolt_server.uri_for(db), mapping=unhinted)
    assert summary.notes[:2] == NOTES
    store = open_graph(bolt_server.uri_for(db))
    try:
        _check(store)
        (pid,) = [i for i, n in store.display_names(
            [str(r[0]) for r in store.query("MATCH (p:Product) RETURN p.id LIMIT 100").rows]
        ).items() if n == "Chai"]
        assert pid == "Product:1"
    finally:
        store.close()
