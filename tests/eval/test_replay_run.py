"""A full small evaluation with an LLM strategy: recorded against a local OpenAI-compatible server,
then replayed offline from the cassette with the server stopped."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from byokg.demo import DEMO_QUESTIONS
from byokg.eval.runner import EvalSettings, run_eval

QUESTIONS = {q["question"]: q for q in map(json.loads, DEMO_QUESTIONS.read_text().splitlines())}


def _reply(prompt: str) -> str:
    """A scripted 'LLM': KG-Linker replies from the demo question's topic and relation path;
    answer replies pick the tail of the first context line."""
    m = re.search(r"Question: (.+)", prompt)
    q = QUESTIONS.get(m.group(1).strip()) if m else None
    if "KG-Linker" in prompt and q:
        ents = "\n".join(q["topic_entities"])
        path = " -> ".join(q["relation_path"])
        return f"<entities>\n{ents}\n</entities>\n<relation-paths>\n{path}\n</relation-paths>\n<answers>\n</answers>"
    ctx = prompt.split("Graph context:", 1)[-1]
    first = next((ln for ln in ctx.splitlines() if "->" in ln), "")
    tail = first.split("->")[-1].split("|")[0].strip() if first else "unknown"
    return f"<answers>\n{tail}\n</answers>"


class _Handler(BaseHTTPRequestHandler):
    calls = 0

    def do_POST(self):  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        type(self).calls += 1
        out = json.dumps({
            "id": "x", "object": "chat.completion", "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": _reply(prompt)}}],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 10},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


@pytest.fixture
def openai_server(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _Handler.calls = 0
    yield server
    server.shutdown()
    server.server_close()


def test_recorded_run_replays_offline_to_the_same_archive(openai_server, tmp_path):
    cassette = tmp_path / "cassette.jsonl"
    base = dict(dataset="jsonl", data=str(DEMO_QUESTIONS), graph="memory:demo", strategy="multi",
                limit=6)
    rec = run_eval(EvalSettings(llm=f"replay:{cassette}?record=openai:test-model", **base),
                   tmp_path / "rec", progress=False)
    assert _Handler.calls > 0 and cassette.exists()
    assert rec["metrics"]["llm_calls"]["mean"] >= 2  # KG-Linker + answer generation

    openai_server.shutdown()  # from here on, any network call would fail
    calls = _Handler.calls
    rep = run_eval(EvalSettings(llm=f"replay:{cassette}", **base), tmp_path / "rep", progress=False)
    assert _Handler.calls == calls
    for name in ("config.json", "predictions.jsonl", "summary.json", "report.md", "accuracy.png"):
        assert (tmp_path / "rep" / name).is_file()
    assert rep["errors"] == 0 and rep["n"] == 6
    assert {k: v["mean"] for k, v in rep["metrics"].items()} == pytest.approx(
        {k: v["mean"] for k, v in rec["metrics"].items()}
    )
    preds = [json.loads(x) for x in (tmp_path / "rep" / "predictions.jsonl").read_text().splitlines()]
    assert all(p["trace"]["llm_calls"] for p in preds)
