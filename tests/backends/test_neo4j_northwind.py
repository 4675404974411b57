"""Northwind in the Bolt server: the load matches the mapping (and Kùzu), and the gold Cypher of
``kuzu_gold_results.jsonl`` runs here and agrees with Kùzu's rows on most questions."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.server, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


def _bench():
    """benchmarks/ is not installed: import it from the repository root."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    return importlib.import_module("benchmarks.bench_bolt")


def test_northwind_schema_and_counts_match_kuzu(northwind_bolt, northwind_kuzu):
    bolt = northwind_bolt.schema(samples=1)
    kuzu = northwind_kuzu.schema(samples=1)
    assert sorted(bolt.label_names) == sorted(kuzu.label_names)
    assert sorted(bolt.relation_names) == sorted(kuzu.relation_names)
    for lab in bolt.node_labels:
        k = next(x for x in kuzu.node_labels if x.name == lab.name)
        assert lab.count == k.count, lab.name
    for rel in bolt.relation_types:
        k = next(x for x in kuzu.relation_types if x.name == rel.name)
        assert rel.count == k.count, rel.name
        assert {(p.src, p.dst) for p in rel.patterns} == {(p.src, p.dst) for p in k.patterns}
    st = northwind_bolt.stats()
    s = northwind_bolt.load_summary
    assert (st.nodes, st.triplets) == (s.nodes, s.triplets)


def test_northwind_ids_names_and_neighbors_like_kuzu(northwind_bolt, northwind_kuzu):
    pid = "Product:1"
    (b, k) = (northwind_bolt.get_nodes([pid])[pid], northwind_kuzu.get_nodes([pid])[pid])
    assert b is not None and k is not None and b.name == k.name == "Chai"
    nb = northwind_bolt.neighbors([pid], limit_per_node=1000)[pid]
    nk = northwind_kuzu.neighbors([pid], limit_per_node=1000)[pid]
    assert nb.total == nk.total > 0
    assert {t.key for t in nb.triplets} == {t.key for t in nk.triplets}


def test_northwind_gold_agreement(northwind_bolt, shared_data):
    """The ORIGINAL gold Cypher (Neo4j syntax) on the Bolt server vs Kùzu's gold rows, on the
    first 150 questions (all of them: ``python -m benchmarks.bench_bolt --northwind``)."""
    res = _bench().northwind_gold(
        northwind_bolt, shared_data / "northwind" / "kuzu_gold_results.jsonl", limit=150
    )
    print("northwind gold on Bolt (first 150):", res)
    assert res["total"] == 150
    assert res["bolt_ok"] >= 0.8 * res["total"]
    assert res.get("agree", 0) >= 0.7 * res["both_ok"]


def test_rows_agree_is_strict_enough():
    b = _bench()
    assert b.rows_agree([["a", 1.00001]], [[1.0, "a"]])
    assert not b.rows_agree([["a", 1]], [["a", 2]])
    assert not b.rows_agree([["a"], ["a"]], [["a"]])
    node = {"_labels": ["Product"], "productID": "1", "id": "Product:1"}
    assert b.rows_agree([[node]], [[{"productID": "1"}]])
    assert not b.rows_agree([[node]], [[{"productID": "2"}]])
