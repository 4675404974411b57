"""LadybugDB (``ladybug:PATH``, PyPI ``ladybug``), Kùzu's maintained fork, against the real
package: Northwind through ``byokg load``, the file-format check both ways, the migration from
a Kùzu export, where the engine runs (in a child process while Kùzu is loaded here, in this
process otherwise), and the two Kùzu engine bugs met on Northwind, answered by both engines.
The contract suite runs on it in test_contract.py, the hostile queries in tests/cypher."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from byokg.cypher.execute import Status
from byokg.cypher.execute import execute
from byokg.errors import BackendError
from byokg.graph.open import open_graph
from byokg.io.loading import load_into

if importlib.util.find_spec("ladybug") is None:  # never imported here: Kùzu owns this process
    pytest.skip("LadybugDB is not installed: pip install 'byokg[ladybug]'",
                allow_module_level=True)

TRIPLES = [("alice", "knows", "bob"), ("bob", "lives_in", "paris"), ("alice", "lives_in", "rome")]
REPO = Path(__file__).resolve().parents[2]

# A customer's orders and units in one RETURN: kuzu 0.11.3 answers the sums with null when
# count(DISTINCT o) stands beside them (its last release: the bug stays).
SUM_BESIDE_DISTINCT = (
    "MATCH (c:Customer)-[:PURCHASED]->(o:`Order`)-[d:ORDERS]->(p:Product) "
    "RETURN c.companyName AS customer, count(DISTINCT o) AS orders, sum(d.quantity) AS units "
    "ORDER BY units DESC, customer LIMIT 3")
PER_ROW = ("MATCH (c:Customer)-[:PURCHASED]->(o:`Order`)-[d:ORDERS]->(p:Product) "
           "RETURN c.companyName AS customer, o.orderID AS o, d.quantity AS q")
DEEP = "RETURN " + "size([" * 400 + "1" + "])" * 400 + " AS n"  # nested calls and brackets
NESTED = "RETURN " + "(" * 1000 + "1" + ")" * 1000 + " AS n"


@pytest.fixture(scope="module")
def northwind_both(northwind_kuzu_uri, northwind_ladybug_uri):
    kz, lb = open_graph(northwind_kuzu_uri), open_graph(northwind_ladybug_uri)
    yield kz, lb
    kz.close()
    lb.close()


def test_northwind_loads_into_ladybug_as_into_kuzu(northwind_both) -> None:
    kz, lb = northwind_both
    assert lb.dialect == "ladybug" and lb.engine.title == "LadybugDB"
    assert lb.stats() == kz.stats()
    assert lb.stats().nodes == 1035 and lb.stats().triplets == 3139
    assert [x.name for x in lb.schema(samples=0).node_labels] == \
        [x.name for x in kz.schema(samples=0).node_labels]
    ids = ["Customer:ALFKI", "Product:1"]
    assert _hoods(lb, ids) == _hoods(kz, ids) and _hoods(lb, ids)["Customer:ALFKI"][0] == 6
    ex = execute(lb, "MATCH (c:Category) RETURN count(c) AS n")
    assert ex.status is Status.OK and ex.result.rows == ((8,),)


def test_sum_beside_count_distinct(northwind_both) -> None:
    """LadybugDB returns the sums; Kùzu 0.11.3 returns null for them (a known engine bug,
    asserted as it is so that a fixed Kùzu would show up here)."""
    kz, lb = northwind_both
    rows = execute(lb, PER_ROW, row_limit=10_000).result.rows
    units: dict[str, int] = {}
    orders: dict[str, set[str]] = {}
    for customer, o, q in rows:
        units[customer] = units.get(customer, 0) + int(q)
        orders.setdefault(customer, set()).add(o)
    expected = sorted(((c, len(orders[c]), units[c]) for c in units),
                      key=lambda r: (-r[2], r[0]))[:3]
    ours = execute(lb, SUM_BESIDE_DISTINCT)
    assert ours.status is Status.OK
    assert [tuple(r) for r in ours.result.rows] == expected
    theirs = execute(kz, SUM_BESIDE_DISTINCT)
    assert theirs.status is Status.OK
    assert [r[2] for r in theirs.result.rows] == [None, None, None]  # Kùzu's bug: sums lost


@pytest.mark.slow
def test_deep_nesting_in_both_engines(northwind_both) -> None:
    """1,000 nested parentheses: both engines answer. Deeper nesting (400 nested size([…]))
    kills both with SIGSEGV: LadybugDB 0.22 did not fix that crash; byokg runs such queries in
    its worker process, so the crash is an error and the next query is answered."""
    for store in northwind_both:
        ex = execute(store, NESTED, timeout_s=120)
        assert ex.status is Status.OK and ex.result.rows == ((1,),), (store.dialect, ex.error)
        crash = execute(store, DEEP, timeout_s=120)
        assert crash.status is Status.ERROR and crash.error_kind == "crashed", store.dialect
        assert "SIGSEGV" in crash.error
        after = execute(store, "MATCH (p:Product) RETURN count(p) AS n")
        assert after.status is Status.OK and after.result.rows == ((77,),)


def test_a_file_of_the_other_engine_is_refused_by_name(tmp_path) -> None:
    load_into([str(_triples_csv(tmp_path))], f"kuzu:{tmp_path / 'g.kz'}")
    load_into([str(_triples_csv(tmp_path))], f"ladybug:{tmp_path / 'g.lbug'}")
    with pytest.raises(BackendError) as exc:
        open_graph(f"ladybug:{tmp_path / 'g.kz'}")
    msg = str(exc.value)
    assert "is a Kùzu database" in msg and "LadybugDB cannot read Kùzu files" in msg
    assert f"kuzu:{tmp_path / 'g.kz'}" in msg and "byokg load" in msg
    with pytest.raises(BackendError, match="is a LadybugDB database"):
        open_graph(f"kuzu:{tmp_path / 'g.lbug'}")
    # the loader refuses to write over either
    with pytest.raises(Exception, match="already exists"):
        load_into([str(_triples_csv(tmp_path))], f"ladybug:{tmp_path / 'g.kz'}")


def test_migration_from_a_kuzu_export(tmp_path) -> None:
    """docs/backends.md, 'Moving from Kùzu to LadybugDB': EXPORT DATABASE in Kùzu, then
    ``byokg load`` of the exported relationship file into ``ladybug:``."""
    import kuzu
    from click.testing import CliRunner

    from byokg.cli import cli

    load_into([str(_triples_csv(tmp_path))], f"kuzu:{tmp_path / 'old.kz'}")
    db = kuzu.Database(str(tmp_path / "old.kz"))
    kuzu.Connection(db).execute(
        f"EXPORT DATABASE '{tmp_path / 'export'}' (format='csv', header=false)")
    db.close()
    res = CliRunner().invoke(cli, [
        "load", str(tmp_path / "export" / "REL_Entity_Entity.csv"), "--columns",
        "head,tail,relation", "--into", f"ladybug:{tmp_path / 'new.lbug'}"])
    assert res.exit_code == 0, res.output
    assert "loaded 3 triplets over 4 nodes" in res.output
    old, new = open_graph(f"kuzu:{tmp_path / 'old.kz'}"), open_graph(
        f"ladybug:{tmp_path / 'new.lbug'}")
    try:
        assert new.stats() == old.stats()
        assert _hoods(new, ["alice", "bob"]) == _hoods(old, ["alice", "bob"])
    finally:
        old.close()
        new.close()


def test_hosted_while_kuzu_is_loaded_here(tmp_path) -> None:
    import kuzu  # noqa: F401 - loaded in this process: LadybugDB must go to a child

    uri = f"ladybug:{tmp_path / 'g.lbug'}"
    load_into([str(_triples_csv(tmp_path))], uri)
    store = open_graph(uri)
    try:
        assert store.hosted
        assert store.neighbors(["alice"])["alice"].total == 2
    finally:
        store.close()
    with pytest.raises(BackendError, match="cannot share a process"):
        open_graph(uri + "?process=local")
    with pytest.raises(Exception, match="process='sideways' is not one of"):
        open_graph(uri + "?process=sideways")


FRESH = '''
import sys
import tempfile
from pathlib import Path
from byokg.testing import contract_suite, loaded_store

opened = []


def make(triples):
    d = Path(tempfile.mkdtemp())
    store = loaded_store(triples, f"ladybug:{d / 'g.lbug'}", d)
    assert not store.hosted, "LadybugDB should run in this process"
    opened.append(store)
    return store


TestLocal = contract_suite(make)


def test_kuzu_was_never_loaded():  # runs after the suite (file order)
    assert "kuzu" not in sys.modules and opened and not any(s.hosted for s in opened)
'''


@pytest.mark.slow
def test_contract_suite_in_a_process_without_kuzu(tmp_path) -> None:
    """In this process Kùzu is loaded, so LadybugDB runs hosted; a fresh interpreter that
    never imports Kùzu runs it in-process: the contract suite passes there too."""
    (tmp_path / "test_local_ladybug.py").write_text(textwrap.dedent(FRESH), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_local_ladybug.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=900)
    out = proc.stdout
    assert proc.returncode == 0, out[-3000:] + proc.stderr[-2000:]
    assert " passed" in out and "failed" not in out and "error" not in out.lower()


def _hoods(store, ids) -> dict:
    """Per id: (total, sorted triplets) — the engines may list edges in another order."""
    return {k: (h.total, sorted((t.head, t.relation, t.tail) for t in h.triplets))
            for k, h in store.neighbors(ids).items()}


def _triples_csv(folder: Path) -> Path:
    from byokg.testing import write_triples_csv

    return write_triples_csv(folder / "t.csv", TRIPLES)
