"""The GraphStore contract suite (``byokg.testing.contract_suite``) on every built-in backend:
memory, Kùzu and LadybugDB (tests/backends/conftest.py), Bolt (tests/conftest.py, a real ArcadeDB
server) and FalkorDB (tests/conftest.py, a real FalkorDB server).

A backend NAME takes part through its fixture ``NAME_store_from_triples`` (a factory
``triples -> GraphStore``); ``BYOKG_CONTRACT_BACKENDS=a,b`` picks the backends (default
``memory,kuzu,ladybug,falkordb,bolt``). A third-party backend calls ``contract_suite`` in its own tests
(docs/backends.md); the last tests here run it that way, outside this repository's fixtures,
and check that it fails on a store that breaks the contract.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

from byokg.testing import contract_suite

BACKENDS = [
    b.strip()
    for b in os.environ.get("BYOKG_CONTRACT_BACKENDS", "memory,kuzu,ladybug,falkordb,bolt").split(",")
    if b.strip()
]
BOLT_LIKE = {"bolt", "neo4j", "falkordb"}  # server backends

for _name in BACKENDS:
    _marks = [pytest.mark.server] if _name in BOLT_LIKE else []
    globals()[f"TestContract_{_name}"] = contract_suite(f"{_name}_store_from_triples",
                                                        marks=_marks)


THIRD_PARTY = '''
from byokg import graph_from_triplets
from byokg.testing import contract_suite


class DropsAnEdge:
    """Wraps a store and loses one of alice's edges in neighbors(): breaks the contract."""

    def __init__(self, inner):
        self.inner = inner

    def neighbors(self, ids, **kw):
        out = self.inner.neighbors(ids, **kw)
        if "alice" in out and out["alice"].triplets:
            hood = out["alice"]
            out["alice"] = hood.model_copy(update={"triplets": hood.triplets[1:]})
        return out

    def __getattr__(self, name):
        return getattr(self.inner, name)


TestGood = contract_suite(lambda triples: graph_from_triplets(triples, uri="memory:good"))
TestBroken = contract_suite(lambda triples: DropsAnEdge(graph_from_triplets(triples)))
TestMissing = contract_suite("nosuchdb_store_from_triples")
'''


@pytest.mark.slow
def test_third_party_module_runs_the_suite_and_it_can_fail(tmp_path):
    """A test module outside this repository (no conftest, no fixtures) runs the exported
    suite on its own factories: the sound store passes everything, the broken one fails the
    neighbour checks, a backend whose fixture is missing is skipped with its name."""
    (tmp_path / "test_mystore.py").write_text(textwrap.dedent(THIRD_PARTY), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider",
         "test_mystore.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    out = proc.stdout
    failed = [line for line in out.splitlines() if line.startswith("FAILED")]
    assert proc.returncode == 1, out[-3000:] + proc.stderr[-2000:]
    assert not [f for f in failed if "::TestGood::" in f], failed
    assert any("::TestBroken::test_neighbors_every_node" in f for f in failed), failed
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|skipped)", out)}
    n_tests = counts["passed"] + counts["failed"] + counts["skipped"]
    assert counts["skipped"] == n_tests // 3, counts  # TestMissing, skipped whole
    assert counts["failed"] == len(failed) and counts["passed"] > n_tests // 3, counts
    assert "no fixture nosuchdb_store_from_triples" in out, out[-2000:]


def test_importing_byokg_testing_loads_neither_pytest_nor_a_backend(run_python):
    out = run_python("import sys, byokg.testing\n"
                     "print(sorted(m for m in sys.modules if m == 'pytest'"
                     " or m.startswith('_pytest')\n"
                     "             or m.startswith('byokg.backends')))")
    assert out == "[]", out
