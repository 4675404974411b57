"""Fixtures for backend tests (shared by the Kùzu and the Bolt/Neo4j engineers).

Contract suite (tests/backends/test_contract.py, ``byokg.testing.contract_suite``): a backend
NAME takes part through a fixture ``NAME_store_from_triples`` returning a factory
``triples -> GraphStore``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path

import pytest

pytest.register_assert_rewrite("byokg.testing")  # detailed diffs in the contract suite

from byokg.testing import loaded_store  # noqa: E402 - after the rewrite hook
from byokg.testing import store_factory  # noqa: E402 - after the rewrite hook
from byokg.testing import write_triples_csv  # noqa: E402 - after the rewrite hook

REPO = Path(__file__).resolve().parents[2]
SHARED_DATA = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
NORTHWIND = SHARED_DATA / "northwind"

TripleFactory = Callable[[Sequence[tuple[str, str, str]]], object]


# ============================================================================ Kùzu + memory (D1)


@pytest.fixture(scope="session")
def write_triples():
    """``write_triples(path, triples)`` writes a head,relation,tail CSV and returns the path."""
    return write_triples_csv


@pytest.fixture(scope="session")
def memory_store_from_triples() -> TripleFactory:
    from byokg.graph.open import graph_from_triplets

    def make(triples):
        return graph_from_triplets(list(triples))

    return make


@pytest.fixture(scope="session")
def kuzu_store_from_triples(tmp_path_factory) -> TripleFactory:
    """Load triples through ``byokg load`` (CSV -> Kùzu) and open the store read-only."""
    with store_factory(lambda triples: _loaded(tmp_path_factory, triples, "kuzu", "kz")) as make:
        yield make


@pytest.fixture(scope="session")
def ladybug_store_from_triples(tmp_path_factory) -> TripleFactory:
    """Load triples through ``byokg load`` (CSV -> LadybugDB) and open the store read-only
    (in a child process when Kùzu is loaded in this one: byokg.cypher.kuzuengine)."""
    with store_factory(lambda t: _loaded(tmp_path_factory, t, "ladybug", "lbug")) as make:
        yield make


def _loaded(tmp_path_factory, triples, scheme: str, ext: str):
    d = tmp_path_factory.mktemp(f"{scheme}-triples")
    return loaded_store(triples, f"{scheme}:{d / f'graph.{ext}'}", d)


@pytest.fixture(scope="session")
def northwind_data() -> Path:
    d = NORTHWIND / "graph" / "import"
    if not d.is_dir():
        pytest.fail(f"Northwind CSVs not found at {d} (set BYOKG_SHARED_DATA)")
    return d


@pytest.fixture(scope="session")
def northwind_kuzu_uri(tmp_path_factory, northwind_data) -> str:
    """Northwind loaded once per session into a Kùzu file (via the packaged mapping)."""
    from byokg.io.pgmapping import load_northwind

    uri = f"kuzu:{tmp_path_factory.mktemp('northwind') / 'northwind.kz'}"
    load_northwind(uri, northwind_data)
    return uri


@pytest.fixture(scope="session")
def northwind_ladybug_uri(tmp_path_factory, northwind_data) -> str:
    """Northwind loaded once per session into a LadybugDB file (via the packaged mapping)."""
    from byokg.io.pgmapping import load_northwind

    uri = f"ladybug:{tmp_path_factory.mktemp('northwind-lbug') / 'northwind.lbug'}"
    load_northwind(uri, northwind_data)
    return uri


@pytest.fixture(scope="session")
def northwind_kuzu(northwind_kuzu_uri):
    """The Northwind graph as an open (read-only) KuzuGraph."""
    from byokg.graph.open import open_graph

    store = open_graph(northwind_kuzu_uri)
    yield store
    store.close()


# ============================================================================ Bolt / Neo4j (D2)
# D2: add the Bolt server fixtures below (``bolt_server``, ``bolt_store_from_triples``).


@pytest.fixture(scope="session")
def northwind_bolt(bolt_server, northwind_data):
    """Northwind loaded once per session into the Bolt server (via the packaged mapping), opened
    with the mapping's display-name columns. ``.database`` names the server database."""
    from byokg.backends.neo4j import mapping_name_properties
    from byokg.backends.neo4j import open_neo4j

    from byokg.io.pgmapping import load_northwind
    from byokg.io.pgmapping import northwind_mapping_path

    db = bolt_server.create_database("northwind")
    summary = load_northwind(bolt_server.uri_for(db), northwind_data)
    store = open_neo4j(
        bolt_server.uri_for(db), name_properties=mapping_name_properties(northwind_mapping_path())
    )
    store.load_summary = summary
    yield store
    store.close()
