"""Fixtures over the typed graph of typed_graph.py (Kùzu file, Bolt database)."""

from __future__ import annotations

import pytest
from typed_graph import build_bolt
from typed_graph import build_kuzu


@pytest.fixture(scope="session")
def typed_kuzu_uri(tmp_path_factory) -> str:
    return build_kuzu(tmp_path_factory.mktemp("typed") / "typed.kz")


@pytest.fixture()
def typed_kuzu(typed_kuzu_uri):
    from byokg.graph.open import open_graph

    store = open_graph(typed_kuzu_uri)
    yield store
    store.close()


@pytest.fixture(scope="session")
def typed_bolt_uri(bolt_server) -> str:
    return build_bolt(bolt_server, "typed")


@pytest.fixture(scope="session")
def northwind_data(shared_data):
    d = shared_data / "northwind" / "graph" / "import"
    if not d.is_dir():
        pytest.fail(f"Northwind CSVs not found at {d} (set BYOKG_SHARED_DATA)")
    return d
