"""Soak: ``byokg serve --http`` under a mixed load while slow clients hold connections open.

The server runs as its own process on the demo graph (offline). While 50 slow clients stay
connected (half never finish their headers, half never finish their body; each one the server
drops is opened again at once, as a slowloris would), 8 client threads send 200 mixed requests:
questions, retrievals, links, schema and profile reads, and hostile ones (an oversized body,
``Content-Length`` with ``Transfer-Encoding``, a foreign Host, a lone surrogate, an unknown
path). A prober asks ``/health`` every 100 ms throughout, and the server's resident memory is
sampled every 100 ms.

    python -m benchmarks.perf --only soak [--quick]

``scale`` is not used. ``tests/serve/test_soak.py`` runs :func:`soak` and checks the outcome.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

EXE = Path(sys.executable).with_name("byokg")
QUESTIONS = Path(__file__).resolve().parents[1] / "byokg" / "demo" / "questions.jsonl"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class SlowClients:
    """``n`` connections that start a request and never finish it; reopened when dropped."""

    def __init__(self, port: int, n: int) -> None:
        self.port, self.n = port, n
        self.reconnects = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._hold, args=(i,), daemon=True)
                         for i in range(n)]

    def _open(self, body: bool) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        if body:
            s.sendall(b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                      b"\r\nContent-Length: 1000\r\n\r\n{\"question\": ")
        else:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        return s

    def _hold(self, i: int) -> None:
        while not self._stop.is_set():
            try:
                s = self._open(body=bool(i % 2))
            except OSError:
                time.sleep(0.1)
                continue
            s.settimeout(0.2)
            with s:
                while not self._stop.is_set():
                    try:
                        if not s.recv(4096):
                            break  # dropped by the server: open another one
                    except TimeoutError:
                        continue
                    except OSError:
                        break
            if not self._stop.is_set():
                self.reconnects += 1

    def __enter__(self) -> SlowClients:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(5)


def _requests(n: int, port: int) -> list[tuple[str, str, dict[str, Any], set[int]]]:
    """``n`` mixed requests: (method, path, httpx keyword arguments, statuses expected)."""
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text(encoding="utf-8")
                 .splitlines() if line.strip()]
    big = {"content": b'{"question": "' + b"x" * 200_000 + b'"}',
           "headers": {"content-type": "application/json"}}
    kinds = [
        lambda i: ("POST", "/ask", {"json": {"question": questions[i % len(questions)]}},
                   {200}),
        lambda i: ("POST", "/retrieve", {"json": {"question": questions[i % len(questions)]}},
                   {200}),
        lambda i: ("POST", "/link", {"json": {"mentions": ["Satchmo", "Wynton Marsalis"]}},
                   {200}),
        lambda i: ("GET", "/schema", {}, {200}),
        lambda i: ("POST", "/ask", big, {413}),
        lambda i: ("GET", "/health", {"headers": {"Host": f"rebind.example:{port}"}}, {421}),
        lambda i: ("POST", "/ask", {"content": b'{"question": "Who \\ud800?"}',
                                    "headers": {"content-type": "application/json"}}, {400}),
        lambda i: ("GET", "/nope", {}, {404}),
        lambda i: ("GET", "/profile", {}, {200}),
        lambda i: ("POST", "/ask", {"json": {"question": questions[(i * 7) % len(questions)]}},
                   {200}),
    ]
    return [kinds[i % len(kinds)](i) for i in range(n)]


def _framing_attack(port: int) -> int:
    """``Content-Length`` with a chunked body of 1 MiB: the status the server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"POST /link HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n")
        with contextlib.suppress(OSError):
            for _ in range(128):
                s.sendall(b"2000\r\n" + b"x" * 0x2000 + b"\r\n")
        data = b""
        with contextlib.suppress(OSError):
            while b"\r\n" not in data and (chunk := s.recv(4096)):
                data += chunk
    return int(data.split()[1]) if data.startswith(b"HTTP/1.1") else 0


def soak(n_requests: int = 200, n_slow: int = 50, clients: int = 8) -> dict[str, Any]:
    """Run the soak; returns its figures (see the module doc). One function of about 100
    lines: the server, the slow clients, the prober and the requests share one lifetime."""
    import httpx

    from byokg.testing import stop_process

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([str(EXE), "serve", "--http", "--graph", "memory:demo", "--port",
                             str(port), "--max-concurrency", "4", "--max-queue", "64",
                             "--max-body", "65536", "--read-timeout", "5"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out: dict[str, Any] = {}
    try:
        t0 = time.perf_counter()
        while True:
            try:
                httpx.get(f"{url}/health", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.perf_counter() - t0 > 120:
                    raise RuntimeError("byokg serve --http did not start") from None
                time.sleep(0.1)
        with httpx.Client(base_url=url, timeout=60) as c:  # warm the caches
            c.post("/ask", json={"question": "Where was Satchmo born?"})
        rss_start = _rss_mb(proc.pid)
        done = threading.Event()
        health: list[float] = []
        health_fail: Counter[str] = Counter()
        rss = [rss_start]

        def probe() -> None:
            with httpx.Client(base_url=url, timeout=2) as c:
                while not done.is_set():
                    t = time.perf_counter()
                    try:
                        r = c.get("/health")
                        if r.status_code == 200:
                            health.append(time.perf_counter() - t)
                        else:
                            health_fail[str(r.status_code)] += 1
                    except httpx.HTTPError as exc:
                        health_fail[type(exc).__name__] += 1
                    rss.append(_rss_mb(proc.pid))
                    done.wait(0.1)

        work = _requests(n_requests, port)
        statuses: Counter[str] = Counter()
        unexpected: list[str] = []

        def send(req: tuple[str, str, dict[str, Any], set[int]]) -> None:
            method, path, kw, want = req
            with httpx.Client(base_url=url, timeout=60) as c:
                try:
                    r = c.request(method, path, **kw)
                    code = r.status_code
                    ok = code in want and r.headers.get("content-type", "").startswith(
                        "application/json")
                except httpx.HTTPError as exc:
                    code, ok = type(exc).__name__, False
            statuses[str(code)] += 1
            if not ok:
                unexpected.append(f"{method} {path}: {code}")

        prober = threading.Thread(target=probe, daemon=True)
        with SlowClients(port, n_slow) as slow:
            time.sleep(1.0)  # every slow client connected
            prober.start()
            t = time.perf_counter()
            with ThreadPoolExecutor(clients) as pool:
                list(pool.map(send, work))
            framing = _framing_attack(port)
            wall = time.perf_counter() - t
            done.set()
            prober.join(5)
            reconnects = slow.reconnects
        health.sort()
        out.update({
            "soak_requests": n_requests, "soak_slow_clients": n_slow,
            "soak_wall_s": round(wall, 2),
            "soak_unexpected": len(unexpected),
            "soak_framing_status": framing,
            "soak_health_ok": len(health),
            "soak_health_failures": sum(health_fail.values()),
            "soak_health_p50_ms": round(1000 * health[len(health) // 2], 1) if health else None,
            "soak_health_max_ms": round(1000 * health[-1], 1) if health else None,
            "soak_rss_start_mb": round(rss_start, 1),
            "soak_rss_peak_mb": round(max(rss), 1),
            "soak_slow_reconnects": reconnects,
        })
        out["_statuses"] = dict(statuses)
        out["_unexpected"] = unexpected[:10]
        out["_health_failures"] = dict(health_fail)
    finally:
        stop_process(proc)
    return out


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    figures = soak(n_requests=60 if quick else 200, n_slow=50)
    for k, v in figures.items():
        if not k.startswith("_") and v is not None:
            results[k] = v
    if figures["_unexpected"] or figures["_health_failures"]:
        print(f"[soak] statuses {figures['_statuses']}; unexpected {figures['_unexpected']}; "
              f"health failures {figures['_health_failures']}", file=sys.stderr)
