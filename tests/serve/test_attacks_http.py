"""``byokg serve --http`` tried as an attacker on 127.0.0.1 (issue 26): the real command started
as a subprocess (or uvicorn in a thread), raw sockets for framing and slow clients, httpx for
the rest. Every error is ``{"error", "detail"}`` JSON; no finding of the issue comes back."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_helpers import hold_workers

from byokg.testing import stop_process

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

pytestmark = pytest.mark.server

EXE = Path(sys.executable).with_name("byokg")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(*args: str, host: str = "127.0.0.1", graph: str = "memory:demo"
          ) -> Iterator[tuple[str, int, subprocess.Popen]]:
    """``byokg serve --http`` on a free port; yields (url, port, process)."""
    port = free_port(host)
    err = open(os.devnull, "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([str(EXE), "serve", "--http", "--graph", graph, "--host", host,
                             "--port", str(port), *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://{host}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None:
                pytest.fail(f"byokg serve exited: {proc.communicate()[1][-2000:]}")
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        yield url, port, proc
    finally:
        stop_process(proc)
        err.close()


def raw_request(port: int, data: bytes | list[bytes], *, host: str = "127.0.0.1",
                timeout: float = 20) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes (or pieces, sent while the server may already answer); read one
    response: (status, headers, body)."""
    s = socket.create_connection((host, port), timeout=timeout)
    pieces = [data] if isinstance(data, bytes) else data
    try:
        def send() -> None:
            with contextlib.suppress(OSError):
                for p in pieces:
                    s.sendall(p)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
        head, _, body = buf.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1]) if lines and lines[0] else 0
        headers = {k.strip().lower(): v.strip() for k, _, v in
                   (ln.partition(":") for ln in lines[1:])}
        want = int(headers.get("content-length", -1))
        while want < 0 or len(body) < want:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            body += chunk
        return status, headers, body
    finally:
        s.close()


def error_shape(body: bytes) -> dict:
    doc = json.loads(body)
    assert set(doc) == {"error", "detail"}, doc
    assert isinstance(doc["error"], str) and isinstance(doc["detail"], str)
    return doc


@pytest.fixture(scope="module")
def demo():
    with serve("--max-body", "4096", "--max-concurrency", "2", "--max-queue", "2") as srv:
        yield srv


# --------------------------------------------------------------------------- 1. framing


def test_content_length_and_chunked_together_cannot_pass_the_body_limit(demo):
    """Finding 1: ``Content-Length: 10`` with ``Transfer-Encoding: chunked`` streamed any
    body past ``--max-body`` into JSON parsing."""
    _, port, _ = demo
    body = b'{"mentions": ["Satchmo"], "pad": "' + b"x" * 200_000 + b'"}'
    chunks = [b"%x\r\n%s\r\n" % (len(body[i:i + 8192]), body[i:i + 8192])
              for i in range(0, len(body), 8192)] + [b"0\r\n\r\n"]
    head = (b"POST /link HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n")
    status, headers, resp = raw_request(port, [head, *chunks])
    assert status in (400, 413), (status, resp[:300])
    assert headers["content-type"].startswith("application/json")
    error_shape(resp)
    # the honest forms still work: a small chunked body, and a plain Content-Length one
    small = b'{"mentions": ["Satchmo"]}'
    status, _, resp = raw_request(port, (
        b"POST /link HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + b"%x\r\n%s\r\n0\r\n\r\n" % (len(small), small)))
    assert status == 200, resp
    assert json.loads(resp)["links"][0]["candidates"][0]["id"] == "Louis Armstrong"


def test_a_chunked_body_over_the_limit_is_refused_while_it_streams(demo):
    _, port, _ = demo
    head = (b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    big = [b"2000\r\n" + b"y" * 0x2000 + b"\r\n"] * 64
    status, _, resp = raw_request(port, [head, *big])
    assert status == 413 and error_shape(resp)["error"] == "too_large"


# --------------------------------------------------------------------------- 2. slow clients


def _slow_sockets(port: int, n: int, *, body: bool = False) -> list[socket.socket]:
    """``n`` clients that start a request and never finish it (the headers, or the body)."""
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if body:
            s.sendall(b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                      b"\r\nContent-Length: 100\r\n\r\n{")
        else:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        out.append(s)
    return out


def test_slow_clients_do_not_lock_the_server():
    """Finding 2: 52 sockets that never finished their headers locked every endpoint, /health
    included (uvicorn's 503, text/plain)."""
    with serve() as (url, port, _):
        slow = _slow_sockets(port, 60)
        try:
            time.sleep(0.5)
            with httpx.Client(base_url=url, timeout=10) as c:
                r = c.get("/health")
                assert r.status_code == 200, r.text
                assert r.json()["status"] == "ok"
                r = c.post("/link", json={"mentions": ["Satchmo"]})
                assert r.status_code == 200, r.text
        finally:
            for s in slow:
                s.close()


def test_headers_and_bodies_have_a_read_timeout():
    with serve("--read-timeout", "1") as (url, port, _):
        heads = _slow_sockets(port, 3)
        bodies = _slow_sockets(port, 3, body=True)
        t0 = time.monotonic()
        for s in heads + bodies:
            s.settimeout(10)
            data = b""
            with contextlib.suppress(ConnectionResetError):
                while chunk := s.recv(4096):
                    data += chunk
            # closed by the server; an answer, when there is one, is the JSON 408
            if data:
                head, _, body = data.partition(b"\r\n\r\n")
                assert head.startswith(b"HTTP/1.1 408"), data[:200]
                assert error_shape(body)["error"] == "timeout"
            s.close()
        assert time.monotonic() - t0 < 6
        assert httpx.get(f"{url}/health", timeout=5).status_code == 200


def test_past_the_connection_cap_the_503_is_json():
    """Requests still sending their body are not dropped for newcomers; past the cap a new
    connection gets the documented JSON 503 (not uvicorn's text/plain)."""
    with serve("--max-connections", "4", "--read-timeout", "20") as (_, port, _p):
        held = _slow_sockets(port, 4, body=True)
        try:
            time.sleep(0.3)
            status, headers, body = raw_request(
                port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert status == 503, (status, body)
            assert headers["content-type"].startswith("application/json")
            assert error_shape(body)["error"] == "busy"
        finally:
            for s in held:
                s.close()


def test_health_answers_while_every_worker_is_busy():
    """/health runs on the event loop, never waits for a worker."""
    from byokg import graph_from_triplets
    from byokg.config import RunConfig
    from byokg.pipeline.engine import Engine
    from byokg.serve.core import ServeLimits
    from byokg.serve.core import Service
    from byokg.serve.http import BackgroundServer

    gate = threading.Event()

    class Held(Engine):
        def ask(self, question, **kw):
            gate.wait(20)
            return super().ask(question, **kw)

    store = graph_from_triplets([("Vela Quorn", "FOUNDED", "Quorn Works")], uri="memory:held")
    svc = Service(Held(store, RunConfig(llm="none", embedder="lexical")),
                  limits=ServeLimits(max_concurrency=1, max_queue=1, timeout=30))
    svc.prepare()
    try:
        with BackgroundServer(svc) as srv, httpx.Client(base_url=srv.url, timeout=10) as c:
            held = hold_workers(c, svc, "What did Vela Quorn found?")
            t0 = time.monotonic()
            h = c.get("/health")
            assert h.status_code == 200 and h.json()["busy"] == 2
            assert time.monotonic() - t0 < 1
            r = c.post("/ask", json={"question": "What did Vela Quorn found?"})
            assert r.status_code == 503 and error_shape(r.content)["error"] == "busy"
            gate.set()
            for t in held:
                t.join()
    finally:
        gate.set()
        svc.close()


# --------------------------------------------------------------------------- 3. Host allow-list


def test_a_foreign_host_or_origin_is_refused(demo):
    """Finding 3: any Host header was accepted, so a page could reach the API by DNS
    rebinding."""
    url, port, _ = demo
    r = httpx.get(f"{url}/health", headers={"Host": f"rebind.example:{port}"}, timeout=10)
    assert r.status_code == 421, r.text
    assert error_shape(r.content)["error"] == "host"
    assert "--allow-host" in r.json()["detail"]
    r = httpx.post(f"{url}/ask", json={"question": "Where was Satchmo born?"},
                   headers={"Host": "rebind.example"}, timeout=10)
    assert r.status_code == 421
    r = httpx.get(f"{url}/health", headers={"Origin": "http://evil.example"}, timeout=10)
    assert r.status_code == 403 and error_shape(r.content)["error"] == "origin"
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", "[::1]"):
        assert httpx.get(f"{url}/health", headers={"Host": host}, timeout=10).status_code == 200
    r = httpx.get(f"{url}/health", headers={"Origin": f"http://localhost:{port}"}, timeout=10)
    assert r.status_code == 200


def test_allow_host_adds_a_name():
    with serve("--allow-host", "byokg.internal") as (url, port, _):
        ok = httpx.get(f"{url}/health", headers={"Host": f"byokg.internal:{port}"}, timeout=10)
        assert ok.status_code == 200
        bad = httpx.get(f"{url}/health", headers={"Host": "other.internal"}, timeout=10)
        assert bad.status_code == 421


CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"]
ATTACK = """<!doctype html><html><head><title>attack</title></head><body><pre id="out"></pre>
<script>
var x = new XMLHttpRequest();
x.open('GET', '/health', false);
try { x.send(); document.getElementById('out').textContent = 'STATUS ' + x.status + ' ' +
      x.responseText; } catch (e) { document.getElementById('out').textContent = 'ERR ' + e; }
</script></body></html>"""


class RebindingProxy:
    """What DNS rebinding gives a web page, on one machine: the name ``rebind.test`` (mapped to
    127.0.0.1 by Chromium's host-resolver rule) first serves the attacker's page, then every
    later connection reaches byokg, with the page's own Host header, unchanged."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        first = conn.recv(65536)
        if first.startswith(b"GET /attack "):
            page = ATTACK.encode()
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(page), page))
            conn.close()
            return
        up = socket.create_connection(("127.0.0.1", self.target))
        up.sendall(first)

        def pump(a: socket.socket, b: socket.socket) -> None:
            with contextlib.suppress(OSError):
                while data := a.recv(65536):
                    b.sendall(data)
            with contextlib.suppress(OSError):
                b.shutdown(socket.SHUT_WR)

        threading.Thread(target=pump, args=(up, conn), daemon=True).start()
        pump(conn, up)

    def close(self) -> None:
        self.sock.close()


@pytest.mark.slow
def test_dns_rebinding_from_a_browser_page_reads_nothing(demo, tmp_path):
    """A real Chromium loads the attacker's page under a rebound name and asks /health from
    its own origin: the API answers 421 and the page reads no graph data."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (make test installs the Debian package)")
        pytest.skip("chromium is not installed")
    _, port, _ = demo
    proxy = RebindingProxy(port)
    try:
        proc = subprocess.run(
            [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
             "--host-resolver-rules=MAP rebind.test 127.0.0.1", "--dump-dom",
             f"http://rebind.test:{proxy.port}/attack"],
            capture_output=True, text=True, timeout=120)
    finally:
        proxy.close()
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert "STATUS " in dom, dom[-2000:]
    assert "STATUS 421" in dom, dom[-2000:]
    assert "memory:demo" not in dom and "triplets" not in dom


# --------------------------------------------------------------------------- 4. redaction


def test_serve_prints_the_graph_uri_without_its_password(monkeypatch):
    """Finding 4: ``serve`` printed ``bolt://user:password@…`` to stderr."""
    from click.testing import CliRunner

    from byokg import graph_from_triplets
    from byokg.cli import cli
    from byokg.config import RunConfig
    from byokg.pipeline.engine import Engine
    from byokg.serve import core
    from byokg.serve import http

    opened = []

    def fake_open(graph, **kw):  # the Bolt server is not the point here: a memory graph
        opened.append(graph)
        store = graph_from_triplets([("A1", "r", "B1")], uri="memory:x")
        return core.Service(Engine(store, RunConfig(llm="none")))

    monkeypatch.setattr(core.Service, "open", staticmethod(fake_open))
    monkeypatch.setattr(http, "serve_http", lambda *a, **k: None)
    res = CliRunner().invoke(cli, ["serve", "--http", "--graph",
                                   "bolt://neo4j:hunter2-Secret@db.internal:7687/g?x=1"])
    assert res.exit_code == 0, res.output
    assert opened and "hunter2-Secret" in opened[0]  # the real URI reaches the backend
    assert "hunter2-Secret" not in res.output
    assert "bolt://neo4j:***@db.internal:7687/g" in res.output


# --------------------------------------------------------------------------- 6. provider errors


def test_a_provider_error_body_is_not_relayed(tmp_path):
    """Finding 6 (the server side): a 401 body that echoes the key reaches the log only."""
    from http.server import BaseHTTPRequestHandler
    from http.server import ThreadingHTTPServer

    from byokg import graph_from_triplets
    from byokg.config import RunConfig
    from byokg.pipeline.engine import Engine
    from byokg.serve.core import ServeLimits
    from byokg.serve.core import Service
    from byokg.serve.http import BackgroundServer

    class Deny(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server API
            self.rfile.read(int(self.headers["Content-Length"]))
            body = (b'{"error": "invalid key sk-LEAKED-KEY-123 at '
                    b'https://gateway.internal.example/v1"}')
            self.send_response(401)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    llm_srv = ThreadingHTTPServer(("127.0.0.1", 0), Deny)
    threading.Thread(target=llm_srv.serve_forever, daemon=True).start()
    store = graph_from_triplets([("Vela Quorn", "FOUNDED", "Quorn Works")], uri="memory:deny")
    cfg = RunConfig(llm="openai:gpt-test", embedder="lexical", llm_options={
        "base_url": f"http://127.0.0.1:{llm_srv.server_address[1]}/v1",
        "api_key": "sk-LEAKED-KEY-123"})
    svc = Service(Engine(store, cfg), limits=ServeLimits(timeout=30))
    svc.prepare()
    try:
        with BackgroundServer(svc) as srv, httpx.Client(base_url=srv.url, timeout=30) as c:
            r = c.post("/ask", json={"question": "What did Vela Quorn found?"})
            assert r.status_code == 502, r.text
            doc = error_shape(r.content)
            assert doc["error"] == "llm" and "401" in doc["detail"]
            assert "sk-LEAKED" not in r.text and "gateway.internal" not in r.text
    finally:
        svc.close()
        llm_srv.shutdown()
        llm_srv.server_close()


# --------------------------------------------------------------------------- 7. invalid text


def test_invalid_text_is_a_400_not_a_500(demo):
    """Finding 7: a lone surrogate in a question was a 500 with a traceback."""
    url, port, _ = demo
    with httpx.Client(base_url=url, timeout=30) as c:
        r = c.post("/ask", content=b'{"question": "Who is \\ud800 Satchmo?"}',
                   headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        doc = error_shape(r.content)
        assert doc["error"] == "input" and "surrogate" in doc["detail"]
        r = c.post("/link", content=b'{"mentions": ["ok", "bad \\udfff"]}',
                   headers={"content-type": "application/json"})
        assert r.status_code == 400 and "mention 1" in r.json()["detail"], r.text
        r = c.post("/ask", content=b'{"question": "Who is \xff\xfe Satchmo?"}',
                   headers={"content-type": "application/json"})
        assert r.status_code in (400, 422), r.text
        assert "UTF-8" in error_shape(r.content)["detail"]
        assert c.get("/health").status_code == 200


# --------------------------------------------------------------------------- 13. JSON errors


def test_every_error_is_json_in_the_documented_shape(demo):
    """Finding 13: 404, 405, body parse errors and protocol errors were not the documented
    ``{"error", "detail"}`` JSON."""
    url, port, _ = demo
    with httpx.Client(base_url=url, timeout=30) as c:
        r = c.get("/nope")
        assert r.status_code == 404 and error_shape(r.content)["error"] == "not_found"
        r = c.get("/ask")
        assert r.status_code == 405 and error_shape(r.content)["error"] == "method"
        r = c.post("/ask", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422 and error_shape(r.content)["error"] == "invalid"
        r = c.post("/ask", content=b'["a list"]', headers={"content-type": "application/json"})
        assert r.status_code == 422 and error_shape(r.content)["error"] == "invalid"
    status, headers, body = raw_request(port, b"BREW /pot HTCPCP/1.0 what\r\n\r\n")
    assert status == 400 and headers["content-type"].startswith("application/json"), body
    assert error_shape(body)["error"] == "bad_request"


def test_docs_work_offline(demo):
    url, _, _ = demo
    r = httpx.get(f"{url}/docs", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert "cdn.jsdelivr" not in page and "unpkg" not in page
    assert "<script src=\"http" not in page and "<link rel=\"stylesheet\" href=\"http" not in page
    assert "/ask" in page and "/link" in page  # the endpoints are described on the page itself
    csp = r.headers.get("content-security-policy", "")
    assert "default-src 'none'" in csp, csp
