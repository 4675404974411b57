"""Northwind (Neo4j demo graph) loaded into Kùzu via the packaged mapping; gold-query agreement."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from byokg.contracts import Direction
from byokg.errors import QueryError
from byokg.io.pgmapping import PGMapping
from byokg.io.pgmapping import northwind_mapping_path

GOLD_ROW_CAP = 50  # kuzu_gold_results.jsonl stores at most 50 rows per query
LABELS = {"Product": 77, "Category": 8, "Supplier": 29, "Customer": 91, "Order": 830}
RELS = {"PART_OF": 77, "SUPPLIES": 77, "PURCHASED": 830, "ORDERS": 2155}


def test_counts_match_the_neo4j_script(northwind_kuzu):
    schema = northwind_kuzu.schema(samples=2)
    assert {lab.name: lab.count for lab in schema.node_labels} == LABELS
    assert {r.name: r.count for r in schema.relation_types} == RELS
    st = northwind_kuzu.stats()
    assert (st.nodes, st.triplets, st.relations, st.labels) == (1035, 3139, 4, 5)
    pats = {r.name: [(p.src, p.dst) for p in r.patterns] for r in schema.relation_types}
    assert pats == {"PART_OF": [("Product", "Category")], "SUPPLIES": [("Supplier", "Product")],
                    "PURCHASED": [("Customer", "Order")], "ORDERS": [("Order", "Product")]}
    orders = next(r for r in schema.relation_types if r.name == "ORDERS")
    assert {p.name: p.type for p in orders.properties}["quantity"] == "INT64"
    qty = next(p for p in orders.properties if p.name == "quantity")
    assert qty.samples and all(isinstance(v, int) for v in qty.samples)


def test_typing_follows_the_script(northwind_kuzu):
    res = northwind_kuzu.query(
        "MATCH (o:`Order` {orderID: '10248'})-[d:ORDERS]->(p:Product {productID: '11'}) "
        "RETURN p.unitPrice, p.unitsInStock, p.discontinued, d.quantity, d.unitPrice, o.freight"
    )
    assert res.rows == ((21.0, 22, False, 12, "14.00", "32.38"),)
    # the literal string NULL stays a string, as with Neo4j LOAD CSV
    res = northwind_kuzu.query("MATCH (s:Supplier {supplierID: '1'}) RETURN s.region")
    assert res.rows == (("NULL",),)


def test_node_ids_names_and_neighbors(northwind_kuzu):
    nodes = northwind_kuzu.get_nodes(["Product:1", "Customer:ALFKI", "Order:10248", "Category:99"])
    assert nodes["Product:1"].name == "Chai" and nodes["Product:1"].labels == ("Product",)
    assert nodes["Customer:ALFKI"].display == "Alfreds Futterkiste"
    assert nodes["Order:10248"].display == "Order:10248"  # no name column: the id
    assert nodes["Category:99"] is None
    nb = northwind_kuzu.neighbors(["Order:10248", "Category:1"], direction=Direction.BOTH)
    assert nb["Order:10248"].total == 4  # 1 PURCHASED in + 3 ORDERS out
    orders = [t for t in nb["Order:10248"].triplets if t.relation == "ORDERS"]
    assert {t.tail for t in orders} == {"Product:11", "Product:42", "Product:72"}
    assert {t.properties["quantity"] for t in orders} == {12, 10, 5}
    assert nb["Category:1"].total == 12
    assert all(t.relation == "PART_OF" and t.tail == "Category:1" for t in nb["Category:1"].triplets)
    capped = northwind_kuzu.neighbors(["Product:1"], relations=["ORDERS"], limit_per_node=5)
    assert capped["Product:1"].total == 38 and len(capped["Product:1"].triplets) == 5
    assert northwind_kuzu.degrees(["Customer:ALFKI"], direction=Direction.OUT) == {"Customer:ALFKI": 6}


def test_fulltext_and_paths(northwind_kuzu):
    hits = northwind_kuzu.fulltext_search(["chai", "alfreds futterkiste"], k=3)
    assert hits["chai"][0][0] == "Product:1"
    assert hits["alfreds futterkiste"][0][0] == "Customer:ALFKI"
    paths = northwind_kuzu.shortest_paths([("Supplier:1", "Category:1")], max_hops=3, k=1)
    [p] = paths[("Supplier:1", "Category:1")]
    assert p.hops == 2 and p.relations == ("SUPPLIES", "PART_OF") and p.inverted == (False, False)


def test_query_timeout(northwind_kuzu):
    q = ("MATCH (a:`Order`), (b:`Order`), (c:`Order`) WHERE a.freight < b.freight "
         "AND b.shipVia <> c.shipVia RETURN count(*)")  # ~190M rows: seconds without a timeout
    with pytest.raises(QueryError) as exc:
        northwind_kuzu.query(q, timeout_s=0.05)
    assert exc.value.code == "timeout"


def _norm(v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int | float):
        return round(float(v), 6)
    if isinstance(v, dict):  # whole nodes/rels: properties only, internal ids dropped
        return tuple(sorted((k, _norm(x)) for k, x in v.items() if not k.startswith("_")))
    if isinstance(v, list | tuple):
        return tuple(_norm(x) for x in v)
    return str(v)


_LIMIT = re.compile(r"\bLIMIT\s+\d+\s*$", re.IGNORECASE)


def gold_agreement(store, gold_path):
    """Run every gold ``kuzu_query``; compare rows as multisets (numbers normalised).

    ``same``: our first 50 rows equal the gold rows (the gold file keeps at most 50).
    ``same_up_to_ties``: not equal, but the gold rows are a valid answer too: the query ends
    in ``LIMIT n`` or the gold hit the 50-row cap, the row count matches, and every gold row
    is in our result without the cap/LIMIT (ties in ORDER BY and unordered LIMIT pick rows
    depending on Kùzu's thread scheduling, so these vary run to run)."""
    counts: Counter = Counter()
    mismatches = []
    for line in open(gold_path, encoding="utf-8"):
        g = json.loads(line)
        try:
            res = store.query(g["kuzu_query"], timeout_s=20, row_limit=GOLD_ROW_CAP)
        except QueryError:
            counts["error_both" if g["kuzu_status"] != "ok" else "error_only_here"] += 1
            continue
        if g["kuzu_status"] != "ok":
            counts["ran_only_here"] += 1
            continue
        counts["ran"] += 1
        ours = Counter(_norm(list(r)) for r in res.rows)
        gold = Counter(_norm(r) for r in g["kuzu_rows"])
        if ours == gold:
            counts["same"] += 1
            continue
        q = g["kuzu_query"].strip().rstrip(";")
        capped = len(g["kuzu_rows"]) == GOLD_ROW_CAP
        if (capped or _LIMIT.search(q)) and sum(ours.values()) == sum(gold.values()):
            full = store.query(_LIMIT.sub("", q), timeout_s=20, row_limit=100_000)
            if not gold - Counter(_norm(list(r)) for r in full.rows):
                counts["same_up_to_ties"] += 1
                continue
        mismatches.append(g["kuzu_query"])
    return counts, mismatches


@pytest.mark.slow
def test_gold_results_agree(northwind_kuzu, northwind_data):
    counts, mismatches = gold_agreement(northwind_kuzu, northwind_data.parents[1] / "kuzu_gold_results.jsonl")
    ok_in_gold = counts["ran"] + counts["error_only_here"]
    assert ok_in_gold == 1203  # the gold file has 1,203 ok rows and 84 errors
    # measured: 1,203/1,203 agree (1,164-1,203 identical, the rest equal up to ORDER BY ties /
    # unordered LIMIT); the 84 gold errors also fail here
    agree = counts["same"] + counts["same_up_to_ties"]
    assert agree / ok_in_gold >= 0.99, (counts, mismatches[:5])
    assert counts["same"] / ok_in_gold >= 0.85, counts
    assert counts["error_both"] >= 80


def test_mapping_is_the_script(northwind_data):
    m = PGMapping.load(northwind_mapping_path())
    assert [n.label for n in m.nodes] == ["Product", "Category", "Supplier", "Customer", "Order"]
    assert [(e.type, e.src_label, e.dst_label) for e in m.edges] == [
        ("PART_OF", "Product", "Category"), ("SUPPLIES", "Supplier", "Product"),
        ("PURCHASED", "Customer", "Order"), ("ORDERS", "Order", "Product")]
    numeric = {(n.label, c) for n in m.nodes for c, t in n.properties.items() if t != "string"}
    assert numeric == {("Product", c) for c in
                       ("unitPrice", "unitsInStock", "unitsOnOrder", "reorderLevel", "discontinued")}
    orders = m.edges[-1]
    assert {c for c, t in orders.properties.items() if t != "string"} == {"quantity"}


def test_cli_load_northwind(tmp_path, northwind_data):
    from click.testing import CliRunner

    from byokg.cli import cli

    res = CliRunner().invoke(cli, ["load", str(northwind_data), "--mapping", str(northwind_mapping_path()),
                                   "--into", f"kuzu:{tmp_path / 'nw.kz'}"])
    assert res.exit_code == 0, res.output
    assert "loaded 3,139 triplets over 1,035 nodes" in res.output
