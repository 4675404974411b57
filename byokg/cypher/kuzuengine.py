"""The Kùzu family of embedded engines: Kùzu (``kuzu``, archived at 0.11.3) and LadybugDB
(``ladybug``, Kùzu's maintained fork with the same Python API), and how byokg connects to them.

What differs between the two is small and lives in a :class:`KuzuEngine` description: the Python
module, the magic bytes at the start of a database file, the names used in messages and the
dialect name. Everything else (catalogue, queries, loader) is shared by
:mod:`byokg.cypher.kuzufamily`.

The two native modules cannot live in one process: both are pybind11 extensions registering a
C++ type ``Database``, and the second import fails ("generic_type: type "Database" is already
registered!"; the interpreter then dies at exit). So :func:`connect` opens the database in this
process unless the *other* engine is already loaded here; then the engine is hosted in a child
interpreter (:class:`HostedConnection`) that runs each statement and sends the rows back. A URI
option ``process=local|hosted`` forces one or the other.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.cypher.child import Child
from byokg.cypher.child import ChildFailed
from byokg.cypher.child import describe_exit
from byokg.errors import BackendError
from byokg.errors import ConfigError


class KuzuEngine(BaseModel):
    """What tells one Kùzu-family engine from another."""

    model_config = ConfigDict(frozen=True)

    name: str  # URI scheme and dialect: "kuzu", "ladybug"
    title: str  # for messages: "Kùzu", "LadybugDB"
    module: str  # Python module: "kuzu", "ladybug"
    native: str  # its compiled extension (loaded once the module is imported)
    magic: bytes  # first bytes of a single-file database
    extra: str  # pip extra: byokg[kuzu]
    suffix: str  # file suffix used in examples
    upper_internal_keys: bool = False  # node/rel dicts say _ID, _LABEL, _SRC, _DST (LadybugDB)

    @property
    def install_hint(self) -> str:
        return f"pip install 'byokg[{self.extra}]'"


KUZU = KuzuEngine(name="kuzu", title="Kùzu", module="kuzu", native="kuzu._kuzu",
                  magic=b"KUZU", extra="kuzu", suffix=".kz")
LADYBUG = KuzuEngine(name="ladybug", title="LadybugDB", module="ladybug", native="ladybug._lbug",
                     magic=b"LBUG", extra="ladybug", suffix=".lbug", upper_internal_keys=True)
ENGINES: dict[str, KuzuEngine] = {e.name: e for e in (KUZU, LADYBUG)}
PROCESS_MODES = ("auto", "local", "hosted")


def engine_of_file(path: str) -> KuzuEngine | None:
    """The engine whose magic bytes start the file at ``path`` (None: unknown, a folder, or
    unreadable)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError:
        return None
    return next((e for e in ENGINES.values() if head.startswith(e.magic)), None)


def check_file_format(engine: KuzuEngine, path: str, uri: str) -> None:
    """Refuse a database file written by the other engine, naming both and the way across
    (the file formats differ: neither engine opens the other's files)."""
    found = engine_of_file(path)
    if found is None or found == engine:
        return
    raise BackendError(
        f"cannot open {uri}: {path} is a {found.title} database, and {engine.title} cannot read "
        f"{found.title} files (the storage formats differ). Open it as {found.name}:{path}, or "
        f"move the graph across: load its source files again with `byokg load FILES --into "
        f"{engine.name}:NEW_PATH` (for a database you did not load, export it from "
        f"{found.title} and load the export: docs/backends.md, 'Moving from Kùzu to LadybugDB')",
        uri=uri)


def _clashing(engine: KuzuEngine) -> KuzuEngine | None:
    """Another family engine whose native extension is loaded in this process (the two cannot
    share it; ``import ladybug`` alone loads none, ``import kuzu`` does)."""
    return next((e for e in ENGINES.values() if e != engine and e.native in sys.modules), None)


def require_engine(engine: KuzuEngine) -> None:
    """A BackendError with the install hint when the engine's package is missing (checked
    without importing it: this process may have to host it in a child)."""
    if importlib.util.find_spec(engine.module) is None:
        raise BackendError(f"{engine.title} is not installed (the optional package "
                           f"{engine.module!r}): {engine.install_hint}")


def import_engine(engine: KuzuEngine) -> Any:
    """The engine's Python module, or a BackendError saying how to install it."""
    try:
        return importlib.import_module(engine.module)
    except ImportError as exc:
        raise BackendError(f"{engine.title} is not installed ({exc}): {engine.install_hint}") \
            from None


def connect(engine: KuzuEngine, path: str, *, read_only: bool, uri: str = "",
            db_options: Mapping[str, Any] | None = None, threads: int | None = None,
            process: str = "auto") -> LocalConnection | HostedConnection:
    """A connection to the database at ``path``: in this process, or hosted in a child when
    another family engine is loaded here (or ``process`` says so). Raises RuntimeError as the
    engines do when the database cannot be opened."""
    if process not in PROCESS_MODES:
        raise ConfigError(f"{uri or path}: process={process!r} is not one of "
                          f"{', '.join(PROCESS_MODES)}")
    hosted = process == "hosted" or (process == "auto" and _clashing(engine) is not None)
    if not hosted:
        other = _clashing(engine)
        if other is not None:
            raise BackendError(
                f"cannot open {uri or path} in this process: {other.title} is loaded here and "
                f"its native module cannot share a process with {engine.title}'s; use "
                "process=hosted (or auto)", uri=uri or None)
        return LocalConnection(engine, path, read_only, dict(db_options or {}), threads)
    return HostedConnection(engine, path, read_only, dict(db_options or {}), threads)


def _db_kwargs(read_only: bool, options: Mapping[str, Any]) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"read_only": read_only}
    if options.get("buffer_pool_mb"):
        kwargs["buffer_pool_size"] = int(options["buffer_pool_mb"]) * 1024 * 1024
    if options.get("max_db_mb"):
        kwargs["max_db_size"] = int(options["max_db_mb"]) * 1024 * 1024
    return kwargs


class LocalConnection:
    """The engine's own Database and Connection in this process."""

    hosted = False

    def __init__(self, engine: KuzuEngine, path: str, read_only: bool,
                 options: dict[str, Any], threads: int | None) -> None:
        mod = import_engine(engine)
        self.engine = engine
        self._db = mod.Database(path, **_db_kwargs(read_only, options))
        try:
            self._conn = mod.Connection(self._db, num_threads=int(threads) if threads else 0)
        except BaseException:
            self._db.close()
            raise

    def execute(self, cypher: str, params: Mapping[str, Any] | None = None) -> Any:
        return self._conn.execute(cypher, dict(params or {}))

    def set_query_timeout(self, ms: int) -> None:
        self._conn.set_query_timeout(ms)

    def close(self) -> None:
        for obj in (self._conn, self._db):
            with contextlib.suppress(Exception):
                obj.close()


class Rows:
    """A finished result with the engines' QueryResult reading methods."""

    def __init__(self, columns: list[str], rows: list[list[Any]]) -> None:
        self.columns, self.rows, self._i = columns, rows, 0

    def has_next(self) -> bool:
        return self._i < len(self.rows)

    def get_next(self) -> list[Any]:
        row = self.rows[self._i]
        self._i += 1
        return row

    def get_column_names(self) -> list[str]:
        return list(self.columns)


# --------------------------------------------------------------------------- hosted engine

_HOST_CODE = "from byokg.cypher.kuzuengine import _host_main; _host_main(int(sys.argv[1]))"


def _host_main(fd: int) -> None:
    """Child side of :class:`HostedConnection`: open the database, then run statements."""
    from multiprocessing.connection import Connection

    chan = Connection(fd)
    try:
        name, path, read_only, options, threads = chan.recv()
        try:
            local = LocalConnection(ENGINES[name], path, read_only, options, threads)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            chan.send(("fatal", str(exc) or type(exc).__name__))
            return
        chan.send(("ready", os.getpid()))
        while True:
            msg = chan.recv()
            if msg[0] == "close":
                local.close()
                chan.send(("closed",))
                return
            _, cypher, params, timeout_ms = msg
            try:
                local.set_query_timeout(timeout_ms)
                res = local.execute(cypher, params)
                if isinstance(res, list):  # several statements: the last one's rows
                    res = res[-1]
                rows = []
                while res.has_next():
                    rows.append(res.get_next())
                answer: tuple = ("ok", res.get_column_names(), rows)
            except Exception as exc:  # noqa: BLE001 - the engine's message goes back
                answer = ("error", str(exc) or type(exc).__name__)
            try:
                chan.send(answer)
            except Exception as exc:  # noqa: BLE001 - a value that cannot be pickled
                chan.send(("error", f"the result could not be sent from the engine process: "
                                    f"{exc}"))
    except (EOFError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            chan.close()
        os._exit(0)  # skip teardown: the engine may hold threads


class HostedConnection:
    """The engine in a child interpreter (fresh, never a fork) answering over a socket pair:
    one statement at a time, rows sent back whole. Engine errors come back as RuntimeError
    (as the engines raise them); a dead child is started again on the next statement."""

    hosted = True

    def __init__(self, engine: KuzuEngine, path: str, read_only: bool,
                 options: dict[str, Any], threads: int | None, *,
                 start_timeout_s: float = 120.0) -> None:
        self.engine = engine
        self._args = (engine.name, path, read_only, options, threads)
        self._start_timeout_s = start_timeout_s
        self._lock = threading.Lock()
        self._timeout_ms = 0
        self.proc: subprocess.Popen | None = None
        self._start()

    def _start(self) -> None:
        try:
            self._child = Child(_HOST_CODE, self._args, self._start_timeout_s,
                                f"the {self.engine.title} process", "the database")
        except ChildFailed as exc:  # the engine's own refusal as the engine raises it
            self.proc = None
            raise RuntimeError(exc.refused if exc.refused is not None else str(exc)) from None
        self.proc, self._chan = self._child.proc, self._child.conn

    def _kill(self) -> int | None:
        if self.proc is None:
            return None
        self.proc = None
        return self._child.kill()

    def set_query_timeout(self, ms: int) -> None:
        self._timeout_ms = int(ms)

    def execute(self, cypher: str, params: Mapping[str, Any] | None = None) -> Rows:
        with self._lock:
            if self.proc is None:
                self._start()
            try:
                self._chan.send(("execute", cypher, dict(params or {}), self._timeout_ms))
                answer = self._chan.recv()
            except (EOFError, OSError):
                code = self._kill()
                raise RuntimeError(f"the {self.engine.title} process died ({describe_exit(code)}) "
                                   f"running: {' '.join(cypher.split())[:200]}") from None
        if answer[0] == "ok":
            return Rows(answer[1], answer[2])
        raise RuntimeError(answer[1])

    def close(self) -> None:
        with self._lock:
            if self.proc is None:
                return
            with contextlib.suppress(Exception):
                self._chan.send(("close",))
                if self._chan.poll(10):
                    self._chan.recv()
            self._kill()
