"""Serving: requests per second of ``byokg serve --http`` on the demo graph (offline), and the
latency of MCP tool calls over stdio.

The HTTP server runs as its own process (``byokg serve --http --graph memory:demo`` on a free
127.0.0.1 port); a thread pool of httpx clients in this process sends the demo questions to
``POST /ask`` (and ``GET /health`` for the framework's own overhead). The MCP figures come from
the SDK's stdio client spawning ``byokg serve --mcp``. ``scale`` is not used (the demo graph).

    python -m benchmarks.perf --only http [--quick]
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

EXE = Path(sys.executable).with_name("byokg")
QUESTIONS = Path(__file__).resolve().parents[1] / "byokg" / "demo" / "questions.jsonl"
CLIENTS = 8  # concurrent httpx clients
SERVER_WORKERS = 4  # --max-concurrency


def _questions() -> list[str]:
    return [json.loads(line)["question"] for line in QUESTIONS.read_text(encoding="utf-8")
            .splitlines() if line.strip()]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p * (len(values) - 1))))]


def _http(results: dict, quick: bool) -> None:
    import httpx

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([str(EXE), "serve", "--http", "--graph", "memory:demo", "--port",
                             str(port), "--max-concurrency", str(SERVER_WORKERS), "--max-queue",
                             "256"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t0 = time.perf_counter()
        while True:
            try:
                httpx.get(f"{url}/health", timeout=2)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.perf_counter() - t0 > 120:
                    raise RuntimeError("byokg serve --http did not start") from None
                time.sleep(0.1)
        results["http_start_s"] = round(time.perf_counter() - t0, 3)
        questions = _questions()
        n = 60 if quick else 400
        work = [questions[i % len(questions)] for i in range(n)]
        with httpx.Client(base_url=url, timeout=120) as c:  # warm the caches once
            for q in questions:
                c.post("/ask", json={"question": q})

        def ask(q: str) -> float:
            with httpx.Client(base_url=url, timeout=120) as c:
                t = time.perf_counter()
                r = c.post("/ask", json={"question": q})
                r.raise_for_status()
                return time.perf_counter() - t

        t = time.perf_counter()
        with ThreadPoolExecutor(CLIENTS) as pool:
            lat = list(pool.map(ask, work))
        wall = time.perf_counter() - t
        results["http_ask_rps"] = round(n / wall, 1)
        results["http_ask_p50_ms"] = round(1000 * statistics.median(lat), 1)
        results["http_ask_p95_ms"] = round(1000 * _pct(lat, 0.95), 1)

        def health(_: int) -> None:
            with httpx.Client(base_url=url, timeout=30) as c:
                for _ in range(20):
                    c.get("/health").raise_for_status()

        m = 10 if quick else 40
        t = time.perf_counter()
        with ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(health, range(m)))
        results["http_health_rps"] = round(20 * m / (time.perf_counter() - t), 1)
        results["http_clients"] = CLIENTS
        results["http_server_workers"] = SERVER_WORKERS
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _mcp(results: dict, quick: bool) -> None:
    from mcp import ClientSession
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    questions = _questions()
    n = 10 if quick else 50
    params = StdioServerParameters(command=str(EXE), args=["serve", "--mcp", "--graph",
                                                           "memory:demo"], env=dict(os.environ))

    async def main() -> None:
        t0 = time.perf_counter()
        with open(os.devnull, "w") as err:
            async with stdio_client(params, errlog=err) as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    await s.list_tools()
                    results["mcp_start_s"] = round(time.perf_counter() - t0, 3)
                    for tool, make in (("ask", lambda q: {"question": q}),
                                       ("retrieve", lambda q: {"question": q}),
                                       ("link", lambda q: {"mentions": [q.split()[-1]]})):
                        lat = []
                        for i in range(n):
                            t = time.perf_counter()
                            r = await s.call_tool(tool, make(questions[i % len(questions)]))
                            lat.append(time.perf_counter() - t)
                            if r.isError:
                                raise RuntimeError(f"MCP {tool} failed: {r.content}")
                        results[f"mcp_{tool}_p50_ms"] = round(1000 * statistics.median(lat), 1)
                        results[f"mcp_{tool}_p95_ms"] = round(1000 * _pct(lat, 0.95), 1)

    asyncio.run(main())


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    _http(results, quick)
    _mcp(results, quick)
