"""Isolated execution: untrusted queries run in a worker process per store.

A query an LLM wrote (or repaired, or an evaluation's gold query) can crash an embedded engine
(Kùzu dies with SIGSEGV on deeply nested expressions), run for ever, or allocate gigabytes.
Such queries run here, in a small pool of child processes that each open the store themselves
(:meth:`store.worker_spec() <byokg.cypher.worker.StoreSpec>` says how), with

* a wall-clock limit: the parent waits ``timeout_s + grace_s`` and then kills the child (this
  is the client-side timeout of the Bolt path too; the server gets the transaction timeout);
* a memory cap: ``resource.setrlimit(RLIMIT_AS)`` in the child, relative to its size once the
  store is open (an allocation beyond it fails inside the engine);
* a row cap and a result-size cap.

A crash becomes :class:`EngineCrash` (``engine crashed (signal 11, SIGSEGV) on query …``), a
timeout :class:`WorkerTimeout`; the dead child is replaced on the next query and the caller's
question goes on. A stopped question (:mod:`byokg.cancel`) kills the worker of its query under
way at once and raises :class:`~byokg.cancel.Cancelled`. The pool starts once per store and is reused; :func:`isolate` wraps a store so
that ``query`` and ``explain`` go through it while everything else stays in-process.

Workers are fresh interpreters (``python -c``) talking over a socket pair: never a fork of the
(threaded) caller, and the caller's ``__main__`` is not re-imported.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import pickle
import threading
import weakref
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg import cancel
from byokg.contracts import QueryResult
from byokg.cypher.child import Child
from byokg.cypher.child import ChildFailed
from byokg.cypher.child import describe_exit
from byokg.errors import BackendError
from byokg.errors import QueryError
from byokg.errors import ReadOnlyViolation

DISABLE_ENV = "BYOKG_ISOLATE"  # "0" runs untrusted queries in-process (debugging only)


class StoreSpec(BaseModel):
    """How a child process opens the same store: ``factory(uri, **options)``."""

    model_config = ConfigDict(frozen=True)

    factory: str  # "package.module:function"
    uri: str
    options: dict[str, Any] = Field(default_factory=dict)


class WorkerLimits(BaseModel):
    """Limits of one worker process (defaults suit a laptop; all can be set per store)."""

    memory_mb: int = Field(2048, ge=64, description="memory a query may add to the worker")
    max_rows: int = Field(100_000, ge=1, description="rows a worker returns at most")
    max_result_mb: float = Field(32.0, gt=0, description="pickled result size at most")
    grace_s: float = Field(2.0, ge=0, description="wall-clock slack beyond the query timeout")
    default_timeout_s: float = Field(60.0, gt=0, description="timeout when the caller sets none")
    start_timeout_s: float = Field(120.0, gt=0, description="time to open the store in a child")
    size: int = Field(2, ge=1, le=16, description="worker processes per store at most")


class EngineCrash(QueryError):
    """The engine killed its worker process (a signal or an abort) while running a query.
    ``stderr``: the last lines the worker wrote (e.g. a glibc or engine message), captured."""

    stderr: str = ""


class WorkerTimeout(QueryError, TimeoutError):
    """A query outlived its wall-clock limit; the worker was killed and will be replaced."""

    stderr: str = ""


def _short(query: str, n: int = 200) -> str:
    q = " ".join(query.split())
    return q if len(q) <= n else q[: n - 1] + "…"


# --------------------------------------------------------------------------- child side


def _open_store(spec: StoreSpec) -> Any:
    module, _, fn = spec.factory.partition(":")
    return getattr(importlib.import_module(module), fn)(spec.uri, **spec.options)


def _vm_size() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _cap_memory(memory_mb: int) -> None:
    import resource

    limit = _vm_size() + memory_mb * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _encode_result(res: QueryResult, max_bytes: int) -> dict[str, Any]:
    data = {"columns": tuple(res.columns), "rows": tuple(res.rows), "truncated": res.truncated,
            "elapsed_ms": res.elapsed_ms, "note": ""}
    size = len(pickle.dumps(data["rows"], protocol=pickle.HIGHEST_PROTOCOL))
    if size > max_bytes:
        rows = list(res.rows)
        keep = max(0, int(len(rows) * max_bytes / size * 0.9))
        data.update(rows=tuple(rows[:keep]), truncated=True,
                    note=f"result cut to {keep} rows: {size / 1e6:.1f} MB exceeds the "
                         f"{max_bytes / 1e6:.0f} MB result cap")
    return data


def _serve(conn: Any, spec: StoreSpec, limits: WorkerLimits) -> None:
    """Child main loop: open the store, cap memory, answer requests until told to stop."""
    try:
        store = _open_store(spec)
        _cap_memory(limits.memory_mb)
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, then exit
        conn.send(("fatal", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", os.getpid()))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg[0] == "stop":
            return
        answer = _handle(store, msg, limits)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - e.g. a value that cannot be pickled
            conn.send(("error", type(exc).__name__, f"the result could not be sent back from "
                       f"the worker: {exc}", None))


def _handle(store: Any, msg: tuple, limits: WorkerLimits) -> tuple:
    op, text, params, timeout_s, row_limit, confirm, procedures = msg
    try:
        if op == "explain":
            return ("ok", store.explain(text, params))
        if confirm:
            refusal = _plan_refusal(store, text, params)
            if refusal:
                return ("refused", refusal)
        rows = min(row_limit or limits.max_rows, limits.max_rows)
        extra = {"procedures": procedures} if procedures else {}
        res = store.query(text, params, timeout_s=timeout_s, row_limit=rows, **extra)
        return ("ok", _encode_result(res, int(limits.max_result_mb * 1024 * 1024)))
    except MemoryError:
        return ("error", "MemoryError", f"out of memory (worker cap {limits.memory_mb} MB)",
                "memory")
    except ReadOnlyViolation as exc:
        return ("readonly", str(exc))
    except Exception as exc:  # noqa: BLE001 - every failure goes back to the parent
        msg_text = str(exc) or type(exc).__name__
        if "bad_alloc" in msg_text or "Unable to allocate" in msg_text:
            msg_text += f" (worker memory cap {limits.memory_mb} MB)"
        return ("error", type(exc).__name__, msg_text, getattr(exc, "code", None))


def _plan_refusal(store: Any, text: str, params: Mapping[str, Any]) -> str | None:
    """The guard's EXPLAIN second opinion, run next to the engine (one round trip)."""
    from .guard import GuardVerdict
    from .guard import confirm_with_explain

    verdict = confirm_with_explain(store, GuardVerdict(allowed=True, normalized_query=text),
                                   params)
    return None if verdict.allowed else verdict.reason


def _child_main(fd: int) -> None:
    """Entry point of a worker process (``python -c``): serve on the inherited socket."""
    from multiprocessing.connection import Connection

    conn = Connection(fd)
    try:
        spec, limits = conn.recv()
        _serve(conn, spec, limits)
    except (EOFError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            conn.close()
        os._exit(0)  # skip interpreter teardown: engines may hold threads


_CHILD_CODE = "from byokg.cypher.worker import _child_main; _child_main(int(sys.argv[1]))"


# --------------------------------------------------------------------------- parent side


class _Worker:
    """One child process (a fresh interpreter: never a fork of the threaded caller, and the
    caller's ``__main__`` is not re-imported) and the socket it answers on."""

    def __init__(self, spec: StoreSpec, limits: WorkerLimits) -> None:
        try:
            child = Child(_CHILD_CODE, (spec, limits), limits.start_timeout_s, "query worker",
                          "the store")
        except ChildFailed as exc:
            raise BackendError(f"{spec.uri}: {exc}", uri=spec.uri) from None
        self.proc, self.conn, self._child = child.proc, child.conn, child
        self.queries = 0

    def kill(self) -> int | None:
        return self._child.kill()

    @property
    def output(self) -> Any:
        """What the worker wrote (captured; see :class:`byokg.cypher.child.Output`)."""
        return self._child.output

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(("stop",))
        try:
            self.proc.wait(2)
        except Exception:  # noqa: BLE001 - a stuck child is killed
            self.kill()
        with contextlib.suppress(Exception):
            self.conn.close()


class WorkerPool:
    """Up to ``limits.size`` worker processes for one store, started on demand and reused."""

    def __init__(self, spec: StoreSpec, limits: WorkerLimits | None = None) -> None:
        self.spec = spec
        self.limits = limits or WorkerLimits()
        self._idle: list[_Worker] = []
        self._busy = 0
        self._cond = threading.Condition()
        self._closed = False
        self.started = self.crashes = self.timeouts = self.cancelled = 0

    def _acquire(self) -> _Worker:
        with self._cond:
            while True:
                if self._closed:
                    raise BackendError(f"{self.spec.uri}: the query worker pool is closed",
                                       uri=self.spec.uri)
                if self._idle:
                    self._busy += 1
                    return self._idle.pop()
                if self._busy < self.limits.size:
                    self._busy += 1
                    break
                self._cond.wait()
        try:
            w = _Worker(self.spec, self.limits)
        except BaseException:
            self._release(None)
            raise
        self.started += 1
        return w

    def _release(self, w: _Worker | None) -> None:
        with self._cond:
            self._busy -= 1
            if w is not None and not self._closed:
                self._idle.append(w)
            elif w is not None:
                w.stop()
            self._cond.notify()

    def call(self, op: str, text: str, params: Mapping[str, Any] | None = None, *,
             timeout_s: float | None = None, row_limit: int | None = None,
             confirm: bool = False, procedures: Sequence[str] = ()) -> Any:
        """Run one request in a worker; returns the child's answer or raises (see module)."""
        timeout = float(timeout_s) if timeout_s else self.limits.default_timeout_s
        token = cancel.current()
        if token is not None:
            token.check()
        w = self._acquire()
        healthy = False
        unwatch = token.on_cancel(w.proc.kill) if token is not None else None
        try:
            w.conn.send((op, text, dict(params or {}), timeout, row_limit, confirm,
                         tuple(procedures)))
            ready = w.conn.poll(timeout + self.limits.grace_s)
            if token is not None and token.cancelled:  # killed for a stopped question
                w.kill()
                self.cancelled += 1
                raise cancel.Cancelled(token.reason)
            if not ready:
                w.kill()
                self.timeouts += 1
                late = WorkerTimeout(
                    f"query ran longer than {timeout:g} s; its worker process was stopped and "
                    f"will be replaced (query: {_short(text)})", uri=self.spec.uri,
                    code="timeout")
                late.stderr = w.output.tail()
                raise late
            try:
                answer = w.conn.recv()
            except (EOFError, OSError):
                code = w.kill()
                self.crashes += 1
                crash = EngineCrash(f"engine crashed ({describe_exit(code)}) on query: "
                                    f"{_short(text)}", uri=self.spec.uri, code="crashed")
                crash.stderr = w.output.tail()
                raise crash from None
            healthy = True
            w.queries += 1
        finally:
            if unwatch is not None:
                unwatch()
                if healthy and token is not None and token.cancelled:
                    w.kill()  # the stop may have killed it after its answer: never reused
                    healthy = False
            self._release(w if healthy else None)
        return self._unpack(answer)

    def _unpack(self, answer: tuple) -> Any:
        kind = answer[0]
        if kind == "ok":
            return answer[1]
        if kind == "refused":
            raise ReadOnlyViolation(answer[1])
        if kind == "readonly":
            raise ReadOnlyViolation(answer[1])
        _, name, message, code = answer
        if name in ("TimeoutError",) or code == "timeout":
            raise QueryError(message, uri=self.spec.uri, code="timeout")
        raise QueryError(message, uri=self.spec.uri, code=code)

    def query(self, text: str, params: Mapping[str, Any] | None = None, *,
              timeout_s: float | None = None, row_limit: int | None = None,
              confirm: bool = False, procedures: Sequence[str] = ()) -> QueryResult:
        data = self.call("query", text, params, timeout_s=timeout_s, row_limit=row_limit,
                         confirm=confirm, procedures=procedures)
        return QueryResult(columns=data["columns"], rows=data["rows"],
                           truncated=data["truncated"], elapsed_ms=data["elapsed_ms"])

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for w in idle:
            w.stop()


# --------------------------------------------------------------------------- store wrapper

# each store's pool, weakly keyed by the store: a pool lives as long as its store (finalised
# with it) and is closed at exit; never keyed by id(), which is reused after collection
_POOLS: weakref.WeakKeyDictionary[Any, WorkerPool] = weakref.WeakKeyDictionary()
_POOLS_LOCK = threading.Lock()


def pool_for(store: Any) -> WorkerPool | None:
    """The worker pool of ``store`` (created on first use), or None when the store cannot be
    reopened in a child (no ``worker_spec``) or isolation is switched off."""
    if os.environ.get(DISABLE_ENV, "1") == "0":
        return None
    spec_fn = getattr(store, "worker_spec", None)  # an optional ability of a store
    if not callable(spec_fn):
        return None
    with _POOLS_LOCK:
        pool = _POOLS.get(store)
        if pool is None:
            spec = spec_fn()
            if spec is None:
                return None
            limits = getattr(store, "worker_limits", None) or WorkerLimits()
            pool = WorkerPool(spec, limits)
            _POOLS[store] = pool
            weakref.finalize(store, pool.close)
        return pool


def close_pool(store: Any) -> None:
    """Stop the worker processes of ``store`` (stores call this from ``close()``)."""
    with _POOLS_LOCK:
        pool = _POOLS.pop(store, None)
    if pool is not None:
        pool.close()


@atexit.register
def _close_all() -> None:
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close()


class IsolatedStore:
    """A store whose ``query`` / ``explain`` run in its worker pool; every other attribute is
    the wrapped store's (schema, capabilities, dialect …)."""

    isolated = True

    def __init__(self, store: Any, pool: WorkerPool) -> None:
        self._store = store
        self._pool = pool

    @property
    def inner(self) -> Any:
        return self._store

    @property
    def pool(self) -> WorkerPool:
        return self._pool

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def query(self, cypher: str, params: Mapping[str, Any] | None = None, *,
              timeout_s: float | None = None, row_limit: int | None = None,
              confirm: bool = False, procedures: Sequence[str] = ()) -> QueryResult:
        return self._pool.query(cypher, params, timeout_s=timeout_s, row_limit=row_limit,
                                confirm=confirm, procedures=procedures)

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> Any:
        return self._pool.call("explain", cypher, params)


def isolate(store: Any) -> Any:
    """``store`` wrapped so untrusted queries run in its worker pool; the store itself when it
    cannot be isolated (already wrapped, no ``worker_spec``, or ``BYOKG_ISOLATE=0``)."""
    if isinstance(store, IsolatedStore):
        return store
    pool = pool_for(store)
    return store if pool is None else IsolatedStore(store, pool)
