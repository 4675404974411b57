"""The worker pool on a real Kùzu Northwind: reuse, crash, timeout, memory cap, row and size
caps, concurrency, shutdown; and which stores are isolated."""

from __future__ import annotations

import threading
import time

import pytest

from byokg.cypher.execute import Status
from byokg.cypher.execute import execute
from byokg.cypher.worker import EngineCrash
from byokg.cypher.worker import IsolatedStore
from byokg.cypher.worker import WorkerLimits
from byokg.cypher.worker import WorkerTimeout
from byokg.cypher.worker import close_pool
from byokg.cypher.worker import isolate
from byokg.cypher.worker import pool_for

CRASH = "RETURN " + "size([" * 400 + "1" + "])" * 400 + " AS n"  # SIGSEGV in kuzu 0.11.3
SLOW = "RETURN " + "[" * 650 + "1" + "]" * 650 + " AS n"  # minutes of binding in kuzu 0.11.3


@pytest.fixture
def store(nw_kuzu_path):
    from byokg.backends.kuzu import KuzuGraph

    s = KuzuGraph(f"kuzu:{nw_kuzu_path}")
    s.worker_limits = WorkerLimits(memory_mb=512, max_rows=1000, max_result_mb=0.05,
                                   grace_s=1.0)
    yield s
    s.close()


def test_workers_start_once_and_are_reused(store) -> None:
    for _ in range(5):
        ex = execute(store, "MATCH (c:Category) RETURN count(c) AS n")
        assert ex.status is Status.OK and ex.result.rows == ((8,),)
    pool = pool_for(store)
    assert pool.started == 1 and pool.crashes == pool.timeouts == 0
    iso = isolate(store)
    assert isinstance(iso, IsolatedStore) and iso.inner is store and isolate(iso) is iso
    assert iso.dialect == "kuzu" and iso.schema(samples=0).node_labels  # delegated


def test_a_crash_is_an_error_and_the_worker_is_replaced(store) -> None:
    ex = execute(store, CRASH)
    assert ex.status is Status.ERROR and ex.error_kind == "crashed" and not ex.retryable
    assert ex.error.startswith("engine crashed (signal 11, SIGSEGV) on query: RETURN size(")
    with pytest.raises(EngineCrash):
        isolate(store).query(CRASH, confirm=False)
    ok = execute(store, "MATCH (p:Product) RETURN count(p) AS n")
    assert ok.status is Status.OK and ok.result.rows == ((77,),)
    pool = pool_for(store)
    assert pool.crashes == 2 and pool.started == 3


def test_a_query_past_its_deadline_is_stopped(store) -> None:
    t0 = time.monotonic()
    ex = execute(store, SLOW, timeout_s=1, confirm=False)
    took = time.monotonic() - t0
    assert ex.status is Status.TIMEOUT and "worker process was stopped" in ex.error, ex.error
    assert took < 5, took
    with pytest.raises(WorkerTimeout):
        isolate(store).query(SLOW, timeout_s=0.5)
    assert execute(store, "RETURN 1 AS one").status is Status.OK


def test_memory_cap(store) -> None:
    ex = execute(store, "UNWIND range(1, 100000000) AS x RETURN collect(x) AS xs", timeout_s=30)
    assert ex.status is Status.ERROR and "memory cap 512 MB" in ex.error, ex.error
    assert execute(store, "RETURN 2 AS two").result.rows == ((2,),)


def test_row_and_size_caps(store) -> None:
    res = isolate(store).query("UNWIND range(1, 5000) AS x RETURN x", row_limit=4000)
    assert len(res.rows) == 1000 and res.truncated  # max_rows wins over the caller's limit
    big = isolate(store).query("UNWIND range(1, 900) AS x RETURN x, repeat('y', 200) AS pad",
                               row_limit=1000)
    assert big.truncated and 0 < len(big.rows) < 900  # 50 kB result cap


def test_concurrent_queries_use_up_to_two_workers(store) -> None:
    results: list = []

    def ask() -> None:
        results.append(execute(store, "MATCH (o:`Order`) RETURN count(o) AS n").result.rows)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [((830,),)] * 6
    assert 1 <= pool_for(store).started <= 2


def test_close_stops_the_workers(nw_kuzu_path) -> None:
    from byokg.backends.kuzu import KuzuGraph

    s = KuzuGraph(f"kuzu:{nw_kuzu_path}")
    execute(s, "RETURN 1 AS one")
    procs = [w.proc for w in pool_for(s)._idle]
    assert procs and all(p.poll() is None for p in procs)
    s.close()
    assert all(p.wait(5) is not None for p in procs)
    close_pool(s)  # idempotent


def test_what_is_not_isolated(monkeypatch) -> None:
    class Plain:
        dialect = "kuzu"
        capabilities = frozenset({"cypher"})

    plain = Plain()
    assert isolate(plain) is plain  # no worker_spec: runs in-process

    class Opted(Plain):
        def worker_spec(self):
            return None

    assert isolate(Opted()).__class__ is Opted
    monkeypatch.setenv("BYOKG_ISOLATE", "0")

    class Spec(Plain):
        def worker_spec(self):
            raise AssertionError("not asked when isolation is off")

    assert isinstance(isolate(Spec()), Spec)


def test_a_stop_ends_the_query_under_way(store) -> None:
    """Issue 26, finding 5: a cancelled question's query is stopped at once (its worker killed
    and replaced), not left to run to its own timeout."""
    from byokg.cancel import Cancelled
    from byokg.cancel import CancelToken
    from byokg.cancel import scope

    assert execute(store, "RETURN 0 AS z").status is Status.OK  # the worker started: timed below
    token = CancelToken()
    threading.Timer(0.5, token.cancel, args=("the request was abandoned",)).start()
    t0 = time.monotonic()
    with pytest.raises(Cancelled), scope(token):
        execute(store, SLOW, timeout_s=60, confirm=False)
    assert time.monotonic() - t0 < 3.0  # 0.5 s, then the kill (the query alone takes minutes)
    pool = pool_for(store)
    assert pool.cancelled == 1
    assert execute(store, "RETURN 3 AS three").result.rows == ((3,),)  # a fresh worker
    with pytest.raises(Cancelled), scope(token):  # already stopped: nothing runs
        execute(store, "RETURN 4 AS four")
