"""Streaming out of the servers: ``POST /ask/stream`` and ``/retrieve/stream`` read by a real SSE
client (``httpx-sse``) from a real uvicorn, with the answer LLM a local OpenAI-compatible
server that streams (``tests/llm_stub.py``); and MCP progress notifications received by the
official SDK's client over stdio."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path

import llm_stub
import pytest

httpx = pytest.importorskip("httpx")
httpx_sse = pytest.importorskip("httpx_sse")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from byokg import graph_from_triplets  # noqa: E402
from byokg.config import RunConfig  # noqa: E402
from byokg.pipeline.answer import Answer  # noqa: E402
from byokg.pipeline.answer import Retrieval  # noqa: E402
from byokg.pipeline.engine import Engine  # noqa: E402
from byokg.serve.core import ServeLimits  # noqa: E402
from byokg.serve.core import Service  # noqa: E402
from byokg.serve.http import BackgroundServer  # noqa: E402

pytestmark = pytest.mark.server


TRIPLETS, QUESTION = llm_stub.ALMA_TRIPLETS, llm_stub.ALMA_QUESTION
ANSWER_REPLY, LINKER_REPLY, reply = llm_stub.ALMA_ANSWER, llm_stub.ALMA_LINKER, llm_stub.alma_reply


def _service(base_url: str, **limits) -> Service:
    engine = Engine(graph_from_triplets(TRIPLETS, uri="memory:sse-test"),
                    RunConfig(llm="openai:m", llm_options={
                        "base_url": base_url, "api_key": "sk-test-key-0123456789",
                        "retries": 0}))
    svc = Service(engine, llm="openai:m", limits=ServeLimits(**limits))
    svc.prepare()
    return svc


@pytest.fixture
def served():
    """(stub, server) for a streaming LLM stub; stopped at the end."""
    made = []

    def make(*, piece=3, delay=0.03, stub_reply=reply, **limits):
        stub = llm_stub.ChatStub(stub_reply, piece=piece, delay=delay).start()
        svc = _service(stub.url, **limits)
        srv = BackgroundServer(svc).__enter__()
        made.append((stub, svc, srv))
        return stub, srv

    yield make
    for stub, svc, srv in made:
        srv.__exit__(None, None, None)
        svc.close()
        stub.stop()


def _read(client, path: str, question: str) -> list:
    out = []
    t0 = time.monotonic()
    with httpx_sse.connect_sse(client, "POST", path, json={"question": question}) as es:
        assert es.response.status_code == 200
        assert es.response.headers["content-type"].startswith("text/event-stream")
        assert es.response.headers["x-content-type-options"] == "nosniff"
        for ev in es.iter_sse():
            out.append((time.monotonic() - t0, ev.event, json.loads(ev.data)))
    return out


def test_ask_stream_sends_stages_tokens_and_the_answer(served):
    stub, srv = served()
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        events = _read(c, "/ask/stream", QUESTION)
        plain = c.post("/ask", json={"question": QUESTION}).json()
    names = [name for _, name, _ in events]
    assert names[0] == "proposal" and names[-1] == "answer"
    assert {"links", "tool", "merge"} <= set(names)
    tokens = [(t, data["token"]) for t, name, data in events if name == "token"]
    assert "".join(tok for _, tok in tokens) == ANSWER_REPLY and len(tokens) > 5
    assert tokens[-1][0] - tokens[0][0] > 0.2  # sent as they came, not in one go
    assert names.index("token") > max(i for i, n in enumerate(names) if n == "merge")
    proposal = events[0][2]
    assert proposal["kind"] == "proposal" and proposal["round"] == 0
    assert proposal["artifacts"]["entities"] == ["Quillon Vale"]
    answer = Answer.model_validate(events[-1][2])  # the Answer contract, as /ask returns it
    assert answer.answers == ["Ostrava Polytechnic"] == plain["answers"]
    assert [e.text for e in answer.evidence] == [e["text"] for e in plain["evidence"]]


def test_retrieve_stream_ends_with_the_retrieval(served):
    _, srv = served()
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        events = _read(c, "/retrieve/stream", QUESTION)
        api = c.get("/openapi.json").json()  # documented, as server-sent events
    for path in ("/ask/stream", "/retrieve/stream"):
        assert "text/event-stream" in api["paths"][path]["post"]["responses"]["200"]["content"]
    names = [name for _, name, _ in events]
    assert names[-1] == "retrieval" and "token" not in names and "answer" not in names
    r = Retrieval.model_validate(events[-1][2])
    assert any("Ostrava Polytechnic" in it.text for it in r.context)


def test_bad_requests_are_json_errors_before_any_stream(served):
    _, srv = served(max_question_chars=100, max_body_bytes=1024)
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        r = c.post("/ask/stream", json={"question": "  "})
        assert r.status_code == 400 and r.json() == {"error": "input", "detail":
                                                      "question: the question is empty"}
        r = c.post("/ask/stream", json={"question": "x" * 200})
        assert r.status_code == 400 and "at most 100" in r.json()["detail"]
        r = c.post("/retrieve/stream", json={"question": "x" * 2000})
        assert r.status_code == 413 and r.json()["error"] == "too_large"
        r = c.post("/ask/stream", json={"question": "q", "cypher": "MATCH (n) DELETE n"})
        assert r.status_code == 422 and r.json()["error"] == "invalid"


def test_busy_is_503_and_a_timeout_is_an_error_event(served):
    _, srv = served(delay=0.3, timeout=1.5, max_concurrency=1, max_queue=0)
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        first: list = []

        def slow():
            first.extend(_read(c, "/ask/stream", QUESTION))

        t = threading.Thread(target=slow)
        t.start()
        deadline = time.monotonic() + 5
        while srv.service.health().busy == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        r = c.post("/ask/stream", json={"question": QUESTION})
        assert r.status_code == 503 and r.json()["error"] == "busy"
        t.join(30)
    last = first[-1]
    assert last[1] == "error" and last[2]["error"] == "timeout"
    assert set(last[2]) == {"error", "detail"} and "--timeout" in last[2]["detail"]
    assert last[0] < 4  # ended at the server's timeout, not when the LLM was done


class _Refusing(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        body = json.dumps({"error": {"message": "bad key sk-test-key-0123456789 at "
                                                "https://ops:pw@gw.internal/v1",
                                     "code": "invalid_api_key"}}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_an_llm_failure_is_a_summarised_error_event_and_502_on_ask():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    svc = _service(f"http://127.0.0.1:{srv.server_address[1]}/v1")
    try:
        with BackgroundServer(svc) as api, httpx.Client(base_url=api.url, timeout=30) as c:
            events = _read(c, "/ask/stream", QUESTION)
            plain = c.post("/ask", json={"question": QUESTION})
    finally:
        svc.close()
        srv.shutdown()
        srv.server_close()
    name, data = events[-1][1], events[-1][2]
    assert name == "error" and data["error"] == "llm"
    assert "LLM provider returned 401 (authentication: invalid_api_key)" in data["detail"]
    assert plain.status_code == 502 and plain.json()["detail"] == data["detail"]
    for secret in ("sk-test-key-0123456789", "gw.internal", "pw@", "bad key"):
        assert secret not in json.dumps(data) and secret not in plain.text


def test_a_client_that_hangs_up_mid_answer_stops_the_llm(served):
    stub, srv = served(stub_reply=lambda p, b: ("<answers>\n" + "Ostrava Polytechnic\n" * 30
                                                + "</answers>") if "Answer the question" in p
                       else LINKER_REPLY, piece=3, delay=0.03)
    with httpx.Client(base_url=srv.url, timeout=30) as c, httpx_sse.connect_sse(
            c, "POST", "/ask/stream", json={"question": QUESTION}) as es:
        for ev in es.iter_sse():
            if ev.event == "token":
                break  # leave after the first token
    deadline = time.monotonic() + 10
    while (stub.hung_up == 0 or srv.service.health().busy) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stub.hung_up == 1 and stub.chunks_sent < 100  # of ~210 pieces
    assert srv.service.health().busy == 0  # the worker is free again


# --------------------------------------------------------------------------- MCP progress


def _mcp_session(graph: str, fn, *extra: str, env: dict | None = None):
    from mcp import ClientSession
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    exe = Path(sys.executable).with_name("byokg")
    params = StdioServerParameters(command=str(exe),
                                   args=["serve", "--mcp", "--graph", graph, *extra],
                                   env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await fn(s)

    return asyncio.run(asyncio.wait_for(main(), 180))


def test_mcp_reports_progress_per_stage_when_asked():
    pytest.importorskip("mcp")
    reports: dict[str, list] = {"ask": [], "retrieve": []}

    def collect(name):
        async def cb(progress, total, message):
            reports[name].append((progress, total, message))
        return cb

    async def run(s):
        ask = await s.call_tool("ask", {"question": "Where was Satchmo born?"},
                                progress_callback=collect("ask"))
        ret = await s.call_tool("retrieve", {"question": "Where was Satchmo born?"},
                                progress_callback=collect("retrieve"))
        quiet = await s.call_tool("ask", {"question": "Where was Satchmo born?"})
        bad = await s.call_tool("ask", {"question": "  "}, progress_callback=collect("ask"))
        return ask, ret, quiet, bad

    ask, ret, quiet, bad = _mcp_session("memory:demo", run)
    assert not ask.isError and ask.structuredContent["answers"][:1] == ["New Orleans"]
    assert quiet.structuredContent["answers"] == ask.structuredContent["answers"]
    assert bad.isError and "empty" in bad.content[0].text
    for name, last in (("ask", "answer: "), ("retrieve", "retrieval: ")):
        got = reports[name]
        values = [p for p, _, _ in got]
        assert values == list(range(1, len(values) + 1)), values  # one per stage, growing
        messages = [m for _, _, m in got]
        assert messages[0].startswith("round 1: ") and "proposed" in messages[0]
        assert any("linked" in m for m in messages)
        assert any(": tool:" in m and "items" in m for m in messages)
        assert any("new context items" in m for m in messages)
        assert messages[-1].startswith(last), messages[-1]
    assert reports["ask"][-1][2] == "answer: 1 answers"


def test_mcp_progress_says_when_the_answer_llm_writes():
    pytest.importorskip("mcp")
    stub = llm_stub.ChatStub(lambda p, b: "<answers>\nNew Orleans\n</answers>"
                             if "Answer the question using ONLY" in p else
                             "<entities>\nLouis Armstrong\n</entities>\n<relation-paths>\n"
                             "born_in\n</relation-paths>\n<answers>\n</answers>",
                             piece=4, delay=0.02).start()
    got: list = []

    async def cb(progress, total, message):
        got.append(message)

    async def run(s):
        return await s.call_tool("ask", {"question": "Where was Satchmo born?"},
                                 progress_callback=cb)

    try:
        res = _mcp_session("memory:demo", run, "--llm", "openai:m",
                           env={"OPENAI_BASE_URL": stub.url, "OPENAI_API_KEY": "k"})
    finally:
        stub.stop()
    assert not res.isError and res.structuredContent["answers"] == ["New Orleans"]
    assert got.count("answer: the LLM is writing") == 1  # once, not once per token
    assert got.index("answer: the LLM is writing") == len(got) - 2
    assert got[-1] == "answer: 1 answers" and True in stub.streamed
