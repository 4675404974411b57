"""The hostile queries of tests/cypher/hostile.py against the real ArcadeDB Bolt server through
byokg's execution path (guard, worker process, rolled-back READ transaction): the Northwind
database is unchanged count for count, no label / relationship type / schema type appears, no
row holds a local file's content; and the Bolt path's timeout is enforced by the client."""

from __future__ import annotations

import time

import pytest
from hostile import BOLT_PAYLOADS
from hostile import campaign
from hostile import secret_fill
from test_bolt import bolt_counts

from byokg.cypher.execute import Status
from byokg.cypher.execute import execute

pytestmark = [pytest.mark.server, pytest.mark.slow]
SECRET = "TOPSECRET-b01t-5ea1"


def _state(store, server) -> dict:
    return {
        "rows": bolt_counts(store),
        "labels": sorted(r[0] for r in store.query("CALL db.labels() YIELD label "
                                                   "RETURN label").rows),
        "types": sorted(r[0] for r in store.query("CALL db.relationshipTypes() YIELD "
                                                  "relationshipType RETURN relationshipType").rows),
        "schema": sorted(t["name"] for t in server.sql("cypher_northwind",
                                                       "select name from schema:types")["result"]),
    }


@pytest.fixture(scope="module")
def bolt_arena(nw_bolt, bolt_server, tmp_path_factory):
    fill = secret_fill(tmp_path_factory.mktemp("bsecret"), SECRET)
    return nw_bolt, bolt_server, fill, _state(nw_bolt, bolt_server)


def test_hostile_queries_leave_the_bolt_database_unchanged(bolt_arena) -> None:
    store, server, fill, before = bolt_arena
    tried, accepted, leaked = campaign(store, BOLT_PAYLOADS, fill, SECRET)
    print(f"\nBolt: {len(tried)} hostile queries, {len(tried) - len(accepted)} refused, "
          f"{len(accepted)} accepted (harmless reads)")
    assert len(tried) >= 900
    assert leaked == []
    assert _state(store, server) == before


def test_bolt_timeout_is_enforced_by_the_client(nw_bolt) -> None:
    """ArcadeDB ignores the transaction timeout: the worker process is stopped at the
    deadline, the query is reported as a timeout and the next query runs on a new worker."""
    heavy = ("MATCH (a:Order), (b:Order), (c:Supplier) WHERE size(a.shipName) + "
             "size(b.shipName) + size(c.companyName) < 0 "
             "RETURN count(*) AS n")
    t0 = time.monotonic()
    ex = execute(nw_bolt, heavy, timeout_s=1)
    took = time.monotonic() - t0
    assert ex.status is Status.TIMEOUT and ex.error_kind == "timeout", (ex.status, ex.error)
    assert took < 6, took
    assert "stopped and will be replaced" in ex.error
    ok = execute(nw_bolt, "MATCH (c:Category) RETURN count(c) AS n")
    assert ok.status is Status.OK and ok.result.rows == ((8,),)
