"""Hostile queries against a *writable* Kùzu copy (only byokg's guard in the way) and byokg's own
read-only path: writes, file reads and writes, attached databases, session settings and
catalogue changes wrapped in every comment, string, escape, parameter, keyword and Unicode form
of tests/cypher/hostile.py. A query the guard accepts is run on the writable database; after
all of them nothing may have changed: rows per table, the catalogue (tables, columns, comments,
sequences, indexes), the files next to the graph, attached databases, connection settings, and
no returned row may hold the secret file's content. Odd-but-legitimate reads are accepted.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from cypher_helpers import MiniKuzuStore
from cypher_helpers import build_northwind_kuzu
from cypher_helpers import table_counts
from hostile import BOLT_PAYLOADS
from hostile import DISGUISES
from hostile import KUZU_PAYLOADS
from hostile import LEGIT
from hostile import WRAPPERS
from hostile import build
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from byokg.cypher.execute import Status
from byokg.cypher.execute import execute
from byokg.cypher.guard import check_query
from byokg.cypher.guard import confirm_with_explain

SECRET = "TOPSECRET-c0ffee-5ea1"


ENGINES = ["kuzu", "ladybug"]  # the Kùzu family: LadybugDB runs in a child process here


class WritableKuzu(MiniKuzuStore):
    """A writable Kùzu-family database: whatever the guard lets through really runs."""

    capabilities = frozenset({"cypher", "explain"})

    def __init__(self, path: Path, engine: str = "kuzu") -> None:
        from byokg.cypher.kuzuengine import ENGINES as FAMILY
        from byokg.cypher.kuzuengine import connect

        self.uri = f"{engine}:{path}"
        self.path = path
        self.dialect = engine
        self.con = connect(FAMILY[engine], str(path), read_only=False)
        self.ran: list[str] = []

    def close(self) -> None:
        self.con.close()

    def query(self, cypher, params=None, **kw):
        self.ran.append(cypher)
        return super().query(cypher, params, **kw)

    def explain(self, cypher, params=None):
        res = self.con.execute("EXPLAIN " + cypher, dict(params or {}))
        rows = []
        while res.has_next():
            rows.append(res.get_next())
        return {"plan": "\n".join(str(c) for r in rows for c in r), "dialect": self.dialect}

    def rows(self, cypher: str) -> list[list[Any]]:
        res = self.con.execute(cypher)
        out = []
        while res.has_next():
            out.append(res.get_next())
        return out


def effects(store: WritableKuzu, folder: Path) -> dict[str, Any]:
    """Everything a hostile query could change, as comparable values."""
    tables = sorted(store.rows("CALL show_tables() RETURN name, type, comment"))
    return {
        "rows": table_counts(store.con),
        "catalogue": tables,
        "columns": {t[0]: sorted(map(tuple, store.rows(f"CALL table_info('{t[0]}') RETURN *")))
                    for t in tables},
        "sequences": store.rows("CALL show_sequences() RETURN *"),
        "indexes": store.rows("CALL show_indexes() RETURN *"),
        "attached": store.rows("CALL show_attached_databases() RETURN *"),
        "settings": [store.rows(f"CALL current_setting('{s}') RETURN *")
                     for s in ("threads", "progress_bar", "home_directory", "file_search_path",
                               "spill_to_disk")],
        "files": sorted(str(p.relative_to(folder)) for p in folder.rglob("*")),
    }


def _other_database(path: Path, engine: str) -> None:
    from byokg.cypher.kuzuengine import ENGINES as FAMILY
    from byokg.cypher.kuzuengine import connect

    con = connect(FAMILY[engine], str(path), read_only=False)
    con.execute("CREATE NODE TABLE O(id INT64, PRIMARY KEY(id))")
    con.close()


@pytest.fixture(scope="module", params=ENGINES)
def arena(request, tmp_path_factory):
    """A writable Northwind copy in its own folder, a secret file, another database."""
    engine = request.param
    folder = tmp_path_factory.mktemp(f"arena-{engine}")
    build_northwind_kuzu(folder / "nw.kz", engine)
    secret = tmp_path_factory.mktemp("secret") / "secret.csv"
    secret.write_text(f"{SECRET}\n{SECRET}-2\n")
    other = tmp_path_factory.mktemp("other") / "other.kz"
    _other_database(other, engine)
    fill = {"secret": str(secret), "out": str(folder / "stolen.csv"), "other": str(other),
            "dir": str(folder)}
    store = WritableKuzu(folder / "nw.kz", engine)
    before = effects(store, folder)
    stats = {"tried": 0, "refused": 0, "accepted": [], "leaked": []}
    yield store, folder, fill, before, stats
    store.close()


def _attack(store: WritableKuzu, q: str, stats: dict) -> None:
    stats["tried"] += 1
    verdicts = [check_query(q, dialect=d) for d in (store.dialect, "neo4j")]
    if not any(v.allowed for v in verdicts):
        stats["refused"] += 1
        return
    stats["accepted"].append(q)
    ex = execute(store, q, timeout_s=5, row_limit=20, isolated=False, confirm=False)
    if SECRET in repr(ex.result) or SECRET in (ex.error or ""):
        stats["leaked"].append(q)


def test_every_wrapper_around_every_payload(arena) -> None:
    store, _, fill, _, stats = arena
    for wrapper in WRAPPERS:
        for payload in KUZU_PAYLOADS + BOLT_PAYLOADS:
            for how in ("plain", "lower"):
                _attack(store, build(wrapper, payload, how, fill), stats)
    assert stats["tried"] >= 4000


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(wrapper=st.sampled_from(WRAPPERS), payload=st.sampled_from(KUZU_PAYLOADS + BOLT_PAYLOADS),
       how=st.sampled_from(DISGUISES), prefix=st.sampled_from(["", " ", "\n", "\t"]),
       suffix=st.sampled_from(["", ";", " RETURN 1", " // '", " */", "\n", " RETURN 'x'"]))
def test_generated_attacks(arena, wrapper, payload, how, prefix, suffix) -> None:
    store, _, fill, _, stats = arena
    _attack(store, prefix + build(wrapper, payload, how, fill) + suffix, stats)


def test_no_accepted_query_had_any_effect(arena) -> None:
    """Runs after the two above (file order): the arena must be exactly as it was."""
    store, folder, _, before, stats = arena
    after = effects(store, folder)
    print(f"\nhostile queries tried: {stats['tried']}, refused: {stats['refused']}, accepted "
          f"(harmless reads, e.g. a payload inside a string literal): {len(stats['accepted'])}")
    assert stats["tried"] >= 4000
    assert stats["leaked"] == []
    for key in before:
        assert after[key] == before[key], key
    for q in stats["accepted"][:5]:
        print("  accepted:", repr(q)[:160])


@pytest.mark.parametrize("engine", ENGINES)
def test_effect_checks_see_every_kind_of_effect(tmp_path: Path, engine: str) -> None:
    """Control: with the guard bypassed, each kind of effect shows up in effects()."""
    folder = tmp_path / "ctl"
    folder.mkdir()
    build_northwind_kuzu(folder / "nw.kz", engine)
    other = tmp_path / "o.kz"
    _other_database(other, engine)
    secret = tmp_path / "s.csv"
    secret.write_text(SECRET + "\n")
    store = WritableKuzu(folder / "nw.kz", engine)
    dbtype = {"kuzu": "kuzu", "ladybug": "lbug"}[engine]
    base = effects(store, folder)
    direct = {
        "rows": "CREATE (:Category {categoryID: 'pwn'})",
        "catalogue": "COMMENT ON TABLE Category IS 'pwn'",
        "files": f"COPY (MATCH (c:Category) RETURN c.categoryName) TO '{folder / 'x.csv'}'",
        "settings": "CALL threads=1",
    }
    for key, q in direct.items():
        store.con.execute(q)
        assert effects(store, folder)[key] != base[key], key
    store.con.execute(f"ATTACH '{other}' AS o (dbtype {dbtype})")  # (also switches the database)
    assert store.rows("CALL show_attached_databases() RETURN *") != base["attached"]
    try:
        store.con.execute("DETACH o")
    except RuntimeError:  # LadybugDB refuses DETACH while the attached (read-only) one is used
        store.close()
        store = WritableKuzu(folder / "nw.kz", engine)
    rows = store.rows(f"LOAD FROM '{secret}' (header=false, file_format='csv') RETURN *")
    assert SECRET in repr(rows)  # what "file contents returned" looks for
    # and the EXPLAIN second opinion refuses these plans on its own
    for q in ("CREATE (:Category {categoryID: 'x'})", "MATCH (c:Category) SET c.categoryName = 'x'",
              "MATCH (c:Category) DETACH DELETE c",
              f"LOAD FROM '{secret}' (file_format='csv') RETURN *", "CALL threads=2"):
        from byokg.cypher.guard import GuardVerdict

        v = confirm_with_explain(store, GuardVerdict(allowed=True, normalized_query=q))
        assert not v.allowed, q
    store.close()


@pytest.mark.parametrize(("dialect", "query"), LEGIT)
def test_odd_but_legitimate_reads_are_accepted(dialect: str, query: str) -> None:
    for d in (("kuzu", "neo4j", "neptune-analytics") if dialect == "any" else (dialect,)):
        v = check_query(query, dialect=d)
        assert v.allowed, (d, v.reason)
        assert not any("not fully parsed" in n for n in v.notes), (d, v.notes)


def test_odd_but_legitimate_reads_run_on_kuzu(nw_kuzu) -> None:
    for dialect, q in LEGIT:
        if dialect in ("any", "kuzu"):
            ex = execute(nw_kuzu, q, {"min": 10, "prefix": "C"})
            assert ex.status in (Status.OK, Status.EMPTY), (q, ex.error)


def test_read_only_path_leaves_no_file_next_to_the_graph(nw_kuzu_path, tmp_path) -> None:
    """byokg's own path (read-only open, worker process): even statements that made Kùzu
    write .wal/.shadow files on a read-only connection leave the folder as it was."""
    from cypher_helpers import open_kuzu_store

    folder = tmp_path / "g"
    folder.mkdir()
    shutil.copy(nw_kuzu_path, folder / "nw.kz")
    listing = sorted(os.listdir(folder))
    store = open_kuzu_store(folder / "nw.kz")
    try:
        for q in ("CHECKPOINT", "CALL threads=1", "BEGIN TRANSACTION",
                  "MATCH (c:Category) RETURN 1 /* **/ ' */ CHECKPOINT //'",
                  "MATCH (c:Category) RETURN count(*) AS n"):
            execute(store, q)
        # and straight at the backend (guard inside query()): still refused, still no file
        from byokg.errors import ReadOnlyViolation

        with pytest.raises(ReadOnlyViolation):
            store.query("CHECKPOINT")
    finally:
        store.close()
    assert sorted(os.listdir(folder)) == listing
    from cypher_helpers import open_kuzu_store as reopen

    again = reopen(folder / "nw.kz")  # still opens read-only
    assert again.query("MATCH (c:Category) RETURN count(*)").rows == ((8,),)
    again.close()
