"""Streaming: what a huge LLM reply costs to read, and how soon the first answer token arrives.

* ``huge_*``: a local server sends a 300 MiB reply (plain JSON, and a stream of events) to the
  OpenAI-compatible provider; peak Python memory (tracemalloc) and seconds until the provider
  returns its cut reply. ``huge_read_whole_*`` reads the same JSON reply whole with
  ``http.client`` (what the provider did before it read in chunks), as the reference.
* ``sse_*``: ``POST /ask/stream`` on a real uvicorn, read with ``httpx-sse``, the answer LLM a
  local server streaming ``SSE_PIECES`` pieces ``SSE_DELAY_S`` apart: seconds to the first
  token event and to the answer event.
* ``tokens_per_s``: pieces per second through provider, engine, SSE and client with no delay
  (a 4,000-piece reply): the path's own overhead.

The LLM stand-in is ``tests/llm_stub.py`` (loaded by path). ``scale`` is not used.

    python -m benchmarks.perf --only stream [--quick]
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import threading
import time
import tracemalloc
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SIZE = 300 * 1024 * 1024
SSE_PIECES, SSE_DELAY_S = 40, 0.02
TRIPLETS = [("Quillon Vale", "HAS_ALMA_MATER", "Ostrava Polytechnic"),
            ("Ostrava Polytechnic", "SITUATED-IN", "Brnova")]
QUESTION = "Which school is the alma mater of Quillon Vale?"
LINKER = ("<entities>\nQuillon Vale\n</entities>\n<relation-paths>\nHAS_ALMA_MATER\n"
          "</relation-paths>\n<answers>\n</answers>")


def _stub() -> Any:
    spec = importlib.util.spec_from_file_location("byokg_llm_stub", ROOT / "tests" / "llm_stub.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


class _Huge(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    stream = False

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        block = b"a" * (1024 * 1024)
        self.send_response(200)
        if type(self).stream:
            one = b'data: {"choices": [{"index": 0, "delta": {"content": "' + block[:65000] + \
                b'"}}]}\n\n'
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            head, size, part = b"", SIZE, one
        else:
            head = b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "'
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(SIZE))
            self.end_headers()
            size, part = SIZE - len(head), block
        try:
            self.wfile.write(head)
            while size > 0:
                self.wfile.write(part[:size])
                size -= len(part[:size])
        except OSError:
            pass
        self.close_connection = True


def _measure(fn: Any) -> tuple[float, float]:
    tracemalloc.start()
    try:
        t = time.perf_counter()
        fn()
        return time.perf_counter() - t, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _huge(results: dict) -> None:
    from byokg.models.llm import create_llm

    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Huge)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    port = srv.server_address[1]
    try:
        llm = create_llm("openai:m", base_url=f"http://127.0.0.1:{port}/v1", api_key="k",
                         timeout_s=120)
        for stream in (False, True):
            _Huge.stream = stream
            tag = "stream" if stream else "json"
            secs, peak = _measure(lambda: llm.complete(
                "q", on_token=(lambda p: None) if _Huge.stream else None))
            results[f"huge_{tag}_peak_mib"] = round(peak, 1)
            results[f"huge_{tag}_s"] = round(secs, 3)
        _Huge.stream = False

        def whole() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            conn.request("POST", "/v1/chat/completions", body=b"{}")
            data = conn.getresponse().read()
            json.loads(data + b'"}}]}')
            conn.close()

        secs, peak = _measure(whole)
        results["huge_read_whole_peak_mib"] = round(peak, 1)
        results["huge_read_whole_s"] = round(secs, 3)
    finally:
        srv.shutdown()
        srv.server_close()


def _sse(results: dict, quick: bool) -> None:
    import httpx
    from httpx_sse import connect_sse

    from byokg import graph_from_triplets
    from byokg.config import RunConfig
    from byokg.pipeline.engine import Engine
    from byokg.serve.core import Service
    from byokg.serve.http import BackgroundServer

    answer = "<answers>\n" + "x" * (SSE_PIECES * 4 - 21) + "\n</answers>"
    llm_stub = _stub()

    def run(text: str, delay: float, rounds: int) -> tuple[list[float], list[float], int]:
        stub = llm_stub.ChatStub(lambda p, b: text if "Answer the question using ONLY" in p
                                 else LINKER, piece=4, delay=delay).start()
        engine = Engine(graph_from_triplets(TRIPLETS, uri="memory:bench-stream"),
                        RunConfig(llm="openai:m", llm_options={"base_url": stub.url,
                                                               "api_key": "k"}))
        svc = Service(engine, llm="openai:m")
        svc.prepare()
        first, total, tokens = [], [], 0
        try:
            with BackgroundServer(svc) as srv, httpx.Client(base_url=srv.url, timeout=120) as c:
                for _ in range(rounds):
                    t = time.perf_counter()
                    seen = None
                    with connect_sse(c, "POST", "/ask/stream", json={"question": QUESTION}) as es:
                        for ev in es.iter_sse():
                            if ev.event == "token":
                                tokens += 1
                                if seen is None:
                                    seen = time.perf_counter() - t
                            elif ev.event == "answer":
                                total.append(time.perf_counter() - t)
                    first.append(seen or 0.0)
        finally:
            svc.close()
            stub.stop()
        return first, total, tokens

    first, total, _ = run(answer, SSE_DELAY_S, 3 if quick else 10)
    results["sse_first_token_s"] = round(sorted(first)[len(first) // 2], 3)
    results["sse_answer_s"] = round(sorted(total)[len(total) // 2], 3)
    results["sse_pieces"] = SSE_PIECES
    results["sse_piece_delay_s"] = SSE_DELAY_S
    big = "<answers>\n" + "y" * (4000 * 4 - 21) + "\n</answers>"
    _, total, tokens = run(big, 0.0, 1)
    results["tokens_per_s"] = round(tokens / total[0], 0) if total else 0.0


def run(scale: int, results: dict, *, quick: bool = False) -> None:
    _huge(results)
    _sse(results, quick)
