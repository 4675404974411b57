"""``byokg serve --http``: httpx against a real uvicorn on 127.0.0.1 (a free port, stopped at the
end): the endpoints on the demo graph and on a typed graph of our own, concurrent requests on
one shared engine, the limits (body, question, items), timeouts and a full queue, JSON only."""

from __future__ import annotations

import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serve_helpers import hold_workers

httpx = pytest.importorskip("httpx")
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

DEMO_QUESTIONS = [json.loads(line)["question"] for line in (
    Path(__file__).resolve().parents[2] / "byokg" / "demo" / "questions.jsonl"
).read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def demo_server():
    svc = Service.open("memory:demo", llm="none",
                       limits=ServeLimits(max_body_bytes=4096, max_question_chars=300,
                                          max_items=5, max_concurrency=4))
    with BackgroundServer(svc) as srv:
        yield srv
    svc.close()


def test_health_schema_profile_and_docs(demo_server):
    with httpx.Client(base_url=demo_server.url, timeout=30) as c:
        h = c.get("/health").json()
        assert h["status"] == "ok" and h["graph"] == "memory:demo" and h["llm"] == "none"
        assert h["triplets"] > 600 and h["nodes"] > 100
        schema = c.get("/schema").json()
        assert "born_in" in {r["name"] for r in schema["relation_types"]}
        prof = c.get("/profile").json()
        assert "born_in" in {r["name"] for r in prof["relations"]}
        api = c.get("/openapi.json").json()
        assert {"/ask", "/retrieve", "/link", "/schema", "/health"} <= set(api["paths"])
        assert c.get("/docs").headers["content-type"].startswith("text/html")


def test_ask_retrieve_and_link_on_the_demo_graph(demo_server):
    with httpx.Client(base_url=demo_server.url, timeout=60) as c:
        r = c.post("/ask", json={"question": "Where was Satchmo born?"})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == "application/json"
        assert r.headers["x-content-type-options"] == "nosniff"
        answer = Answer.model_validate(r.json())  # the Answer contract, round-tripped
        assert answer.answers[:1] == ["New Orleans"]
        assert answer.evidence and answer.names["Louis Armstrong"] == "Louis Armstrong"
        r = c.post("/retrieve", json={"question": "Where was Satchmo born?"})
        ret = Retrieval.model_validate(r.json())
        assert any("New Orleans" in it.text for it in ret.context)
        assert "answers" not in r.json()
        r = c.post("/link", json={"mentions": ["Satchmo", "Wynton Marsalis"]})
        links = {m["mention"]: m for m in r.json()["links"]}
        assert links["Satchmo"]["candidates"][0]["id"] == "Louis Armstrong"
        assert links["Wynton Marsalis"]["candidates"][0]["method"] == "exact"


def test_concurrent_requests_share_one_engine(demo_server):
    engine = Engine(demo_server.service.store, RunConfig(llm="none"))
    expected = {q: engine.ask(q).answers for q in DEMO_QUESTIONS[:12]}

    def one(q: str) -> tuple[str, list[str]]:
        with httpx.Client(base_url=demo_server.url, timeout=120) as c:
            r = c.post("/ask", json={"question": q})
            assert r.status_code == 200, r.text
            return q, r.json()["answers"]

    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        got = dict(pool.map(one, list(expected) * 2))
    assert got == expected


def test_limits_are_clear_json_errors(demo_server):
    with httpx.Client(base_url=demo_server.url, timeout=30) as c:
        r = c.post("/ask", json={"question": "x" * 5000})
        assert r.status_code == 413 and r.json()["error"] == "too_large"
        r = c.post("/ask", json={"question": "Who? " * 100})
        assert r.status_code == 400 and "at most 300" in r.json()["detail"]
        r = c.post("/ask", json={"question": "  "})
        assert r.status_code == 400 and "empty" in r.json()["detail"]
        r = c.post("/link", json={"mentions": [f"m{i}" for i in range(6)]})
        assert r.status_code == 400 and "at most 5" in r.json()["detail"]
        r = c.post("/ask", json={"question": "Where?", "cypher": "MATCH (n) DETACH DELETE n"})
        assert r.status_code == 422 and r.json()["error"] == "invalid"  # no query field exists
        r = c.post("/ask", content=b"{not json", headers={"content-type": "application/json"})
        assert r.status_code == 422
        # a body without Content-Length (chunked) is counted as it streams in
        r = c.post("/ask", content=iter([b'{"question": "', b"y" * 5000, b'"}']),
                   headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert c.get("/health").status_code == 200


class _SlowEngine(Engine):
    """Answers questions that contain "slowly" after a pause (a slow LLM or graph)."""

    def ask(self, question, **kw):
        if "slowly" in question:
            time.sleep(2.5)
        return super().ask(question, **kw)


def test_timeout_is_a_504_and_the_server_keeps_serving():
    store = graph_from_triplets([("Vela Quorn", "FOUNDED", "Quorn Works"),
                                 ("Quorn Works", "HQ_CITY", "Lisvane")], uri="memory:slow")
    # lexical similarity: a cold model load would eat the 0.5 s timeout of the next request
    svc = Service(_SlowEngine(store, RunConfig(llm="none", embedder="lexical")),
                  limits=ServeLimits(timeout=0.5, max_concurrency=2, max_queue=0))
    svc.prepare()
    with BackgroundServer(svc) as srv, httpx.Client(base_url=srv.url, timeout=30) as c:
        t0 = time.monotonic()
        r = c.post("/ask", json={"question": "What did Vela Quorn found, slowly?"})
        assert r.status_code == 504 and r.json()["error"] == "timeout"
        assert time.monotonic() - t0 < 2.0
        r = c.post("/ask", json={"question": "What did Vela Quorn found?"})
        assert r.status_code == 200 and r.json()["answers"][:1] == ["Quorn Works"]
        # both workers held by slow questions, no queue: the next request is "busy" at once
        held = hold_workers(c, svc, "Who founded it, slowly?")
        with httpx.Client(base_url=srv.url, timeout=30) as c2:
            r = c2.post("/ask", json={"question": "What did Vela Quorn found?"})
            assert r.status_code == 503 and r.json()["error"] == "busy"
            assert c2.get("/health").json()["busy"] == 2
        for t in held:
            t.join()
    svc.close()


class _SteppingEngine(Engine):
    """A question of 40 steps of 0.1 s, each announced to ``on_event`` (like the engine's
    stages): how far an abandoned question runs on."""

    steps = 0

    def ask(self, question, *, on_event=None):
        from byokg.pipeline.answer import StageEvent

        for _ in range(40):
            if on_event is not None:
                on_event(StageEvent(kind="stage", stage="step"))
            type(self).steps += 1
            time.sleep(0.1)
        return super().ask(question)


def test_a_timed_out_question_stops_at_its_next_step():
    store = graph_from_triplets([("Vela Quorn", "FOUNDED", "Quorn Works")], uri="memory:steps")
    svc = Service(_SteppingEngine(store, RunConfig(llm="none", embedder="lexical")),
                  limits=ServeLimits(timeout=0.5, max_concurrency=1, max_queue=0))
    svc.prepare()
    with BackgroundServer(svc) as srv, httpx.Client(base_url=srv.url, timeout=30) as c:
        r = c.post("/ask", json={"question": "What did Vela Quorn found?"})
        assert r.status_code == 504
        deadline = time.monotonic() + 5
        while svc.health().busy and time.monotonic() < deadline:
            time.sleep(0.05)
        assert svc.health().busy == 0  # the worker is free again long before 40 steps
        assert _SteppingEngine.steps < 15, _SteppingEngine.steps
        r = c.post("/retrieve", json={"question": "What did Vela Quorn found?"})
        assert r.status_code == 200  # the freed worker serves the next request
    svc.close()


def test_untrusted_graph_text_stays_json_data():
    evil = "<script>alert(1)</script>\x1b[31mred"
    store = graph_from_triplets([("Oda Brenn", "signature", evil)], uri="memory:evil")
    svc = Service(Engine(store, RunConfig(llm="none")))
    svc.prepare()
    with BackgroundServer(svc) as srv, httpx.Client(base_url=srv.url, timeout=30) as c:
        r = c.post("/ask", json={"question": "What is the signature of Oda Brenn?"})
        assert r.status_code == 200
        assert r.headers["content-type"] == "application/json"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert evil in r.json()["answers"]  # exact text, as data
        assert "\x1b" not in r.text  # control characters are escaped in the JSON
    svc.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_byokg_serve_http_command():
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    exe = Path(sys.executable).with_name("byokg")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([str(exe), "serve", "--http", "--graph", "memory:demo", "--port",
                             str(port), "--max-question-chars", "40"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                h = httpx.get(f"{url}/health", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.communicate()[1]
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        assert h.json()["graph"] == "memory:demo"
        r = httpx.post(f"{url}/ask", json={"question": "Where was Wynton Marsalis born?"},
                       timeout=60)
        assert r.json()["answers"][:1] == ["New Orleans"]
        r = httpx.post(f"{url}/ask", json={"question": "Where " * 10}, timeout=60)
        assert r.status_code == 400 and "--max-question-chars" in r.json()["detail"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert f"127.0.0.1:{port}" in err


def test_serve_needs_a_mode():
    exe = Path(sys.executable).with_name("byokg")
    proc = subprocess.run([str(exe), "serve", "--graph", "memory:demo"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode != 0 and "--http or --mcp" in proc.stderr


def test_concurrent_requests_on_a_kuzu_graph(tmp_path):
    pytest.importorskip("kuzu")
    from byokg.io.loading import load_into

    rows = [("Perrin Alde", "LEADS", "Team Saltmarsh"), ("Team Saltmarsh", "BASED_IN", "Oxley"),
            ("Wen Corrow", "LEADS", "Team Brindle"), ("Team Brindle", "BASED_IN", "Tarrow"),
            ("Perrin Alde", "REPORTS_TO", "Wen Corrow")]
    src = tmp_path / "rows.csv"
    src.write_text("head,relation,tail\n" + "".join(f"{h},{r},{t}\n" for h, r, t in rows),
                   encoding="utf-8")
    uri = f"kuzu:{tmp_path / 'teams.kz'}"
    load_into([str(src)], uri)
    questions = ["Which team does Perrin Alde lead?", "Which team does Wen Corrow lead?",
                 "Where is Team Saltmarsh based?", "Who does Perrin Alde report to?"]
    svc = Service.open(uri, llm="none", limits=ServeLimits(max_concurrency=4))
    try:
        expected = {q: svc.ask(q).answers for q in questions}
        assert expected[questions[0]][:1] == ["Team Saltmarsh"]
        with BackgroundServer(svc) as srv:
            def one(q):
                with httpx.Client(base_url=srv.url, timeout=120) as c:
                    r = c.post("/ask", json={"question": q})
                    assert r.status_code == 200, r.text
                    return q, r.json()["answers"]

            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                got = list(pool.map(one, questions * 4))
        assert all(a == expected[q] for q, a in got)
    finally:
        svc.close()


def test_binding_beyond_loopback_warns(monkeypatch, caplog):
    import uvicorn

    from byokg.serve.http import serve_http

    ran = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append(kw["host"]))  # no real bind
    svc = Service(Engine(graph_from_triplets([("A1", "r", "B1")], uri="memory:bind"),
                         RunConfig(llm="none")))
    with caplog.at_level("WARNING", logger="byokg.serve"):
        serve_http(svc, host="127.0.0.1", port=1)
        assert not caplog.records
        serve_http(svc, host="0.0.0.0", port=1)
    assert ran == ["127.0.0.1", "0.0.0.0"]
    assert "no authentication" in caplog.records[0].getMessage()
    svc.close()
