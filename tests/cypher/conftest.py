"""Fixtures for the Cypher tool tests: a real Kùzu Northwind graph and the gold queries."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from cypher_helpers import IMPORT
from cypher_helpers import NW
from cypher_helpers import SHARED
from cypher_helpers import build_northwind_kuzu
from cypher_helpers import open_kuzu_store


@pytest.fixture(scope="session")
def nw_kuzu_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not IMPORT.is_dir():
        pytest.fail(f"Northwind CSVs not found at {IMPORT} (set BYOKG_SHARED_DATA)")
    path = tmp_path_factory.mktemp("cypher_nw") / "northwind.kuzu"
    build_northwind_kuzu(path)
    return path


@pytest.fixture(scope="session")
def nw_kuzu(nw_kuzu_path: Path):
    store = open_kuzu_store(nw_kuzu_path)
    yield store
    store.close()


@pytest.fixture(scope="session")
def gold_queries() -> dict[str, list[str]]:
    """Every gold Cypher query: the two Northwind text2cypher CSVs and CypherBench's sample."""
    out: dict[str, list[str]] = {}
    t2c = NW / "text2cypher"
    for f in sorted(t2c.glob("*.csv")):
        with open(f, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            if "cypher" in (reader.fieldnames or []):
                out[f.name] = [r["cypher"] for r in reader]
    cb = SHARED / "cypherbench" / "cypherbench_test_sample_192_original.jsonl"
    with open(cb, encoding="utf-8") as fh:
        out[cb.name] = [json.loads(line)["gold_cypher"] for line in fh if line.strip()]
    return out


@pytest.fixture(scope="session")
def kuzu_gold() -> list[dict[str, Any]]:
    with open(NW / "kuzu_gold_results.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def nw_bolt(bolt_server):
    """Northwind in the real ArcadeDB Bolt server (tests/conftest.py ``bolt_server``), loaded
    with the packaged Neo4j-demo mapping and opened through the neo4j backend."""
    from byokg.backends.neo4j import mapping_name_properties
    from byokg.backends.neo4j import open_neo4j

    from byokg.io.pgmapping import load_northwind
    from byokg.io.pgmapping import northwind_mapping_path

    db = bolt_server.create_database("cypher_northwind")
    load_northwind(bolt_server.uri_for(db), IMPORT)
    store = open_neo4j(bolt_server.uri_for(db),
                       name_properties=mapping_name_properties(northwind_mapping_path()))
    yield store
    store.close()
