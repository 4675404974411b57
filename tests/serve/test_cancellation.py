"""A request the server abandons stops within moments (issue 26, finding 5): the stop reaches
the LLM call under way (a real OpenAI-compatible HTTP server on 127.0.0.1 that answers slowly or
fails) and its retries, so the worker is free long before the provider's ``budget_s``."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")

from byokg import graph_from_triplets  # noqa: E402
from byokg.config import RunConfig  # noqa: E402
from byokg.pipeline.engine import Engine  # noqa: E402
from byokg.serve.core import ServeLimits  # noqa: E402
from byokg.serve.core import Service  # noqa: E402
from byokg.serve.http import BackgroundServer  # noqa: E402

pytestmark = pytest.mark.server


class SlowLLM:
    """An OpenAI-compatible endpoint: ``slow`` answers after ``delay`` seconds, ``failing``
    answers 503 at once (so the client retries with back-off). Calls are counted."""

    def __init__(self, mode: str, delay: float = 8.0) -> None:
        self.calls: list[float] = []
        this = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server API
                self.rfile.read(int(self.headers["Content-Length"]))
                this.calls.append(time.monotonic())
                if mode == "failing":
                    self.send_response(503)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"{}")
                    return
                time.sleep(delay)
                body = (b'{"choices": [{"message": {"role": "assistant", "content": '
                        b'"FINISH"}}]}')
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("mode", ["slow", "failing"])
def test_an_abandoned_request_stops_its_llm_call_and_frees_the_worker(mode):
    llm = SlowLLM(mode)
    store = graph_from_triplets([("Vela Quorn", "FOUNDED", "Quorn Works")], uri="memory:cancel")
    cfg = RunConfig(llm="openai:gpt-test", embedder="lexical", llm_options={
        "base_url": llm.url, "api_key": "k", "timeout_s": 20, "budget_s": 150,
        "backoff_base": 1.0})
    svc = Service(Engine(store, cfg), limits=ServeLimits(timeout=1.0, max_concurrency=1,
                                                         max_queue=0))
    svc.prepare()
    try:
        with BackgroundServer(svc) as srv, httpx.Client(base_url=srv.url, timeout=60) as c:
            t0 = time.monotonic()
            r = c.post("/ask", json={"question": "What did Vela Quorn found?"})
            assert r.status_code == 504, r.text
            stopped = time.monotonic()
            assert stopped - t0 < 3
            while svc.health().busy and time.monotonic() - stopped < 15:
                time.sleep(0.05)
            freed = time.monotonic() - stopped
            assert svc.health().busy == 0
            assert freed < 2.0, f"the worker stayed busy {freed:.1f} s after the stop"
            calls = len(llm.calls)
            time.sleep(1.5)
            assert len(llm.calls) == calls, "the LLM was called again after the stop"
            assert all(t < stopped + 0.5 for t in llm.calls)
    finally:
        svc.close()
        llm.close()
