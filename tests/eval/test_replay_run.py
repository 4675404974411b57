"""A full small evaluation with an LLM strategy: recorded against a local OpenAI-compatible server,
then replayed offline from the cassette with the server stopped."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from byokg.demo import DEMO_QUESTIONS
from byokg.eval.runner import EvalSettings
from byokg.eval.runner import run_eval

_spec = importlib.util.spec_from_file_location(
    "byokg_llm_stub", Path(__file__).resolve().parents[1] / "llm_stub.py")
llm_stub = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(llm_stub)
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


@pytest.fixture
def openai_server(monkeypatch):
    stub = llm_stub.ChatStub(lambda prompt, body: _reply(prompt)).start()
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    yield stub
    stub.stop()


def test_recorded_run_replays_offline_to_the_same_archive(openai_server, tmp_path):
    cassette = tmp_path / "cassette.jsonl"
    base = dict(dataset="jsonl", data=str(DEMO_QUESTIONS), graph="memory:demo", strategy="multi",
                limit=6)
    rec = run_eval(EvalSettings(llm=f"replay:{cassette}?record=openai:test-model", **base),
                   tmp_path / "rec", progress=False)
    assert openai_server.prompts and cassette.exists()
    assert rec["metrics"]["llm_calls"]["mean"] >= 2  # KG-Linker + answer generation

    openai_server.stop()  # from here on, any network call would fail
    calls = len(openai_server.prompts)
    rep = run_eval(EvalSettings(llm=f"replay:{cassette}", **base), tmp_path / "rep", progress=False)
    assert len(openai_server.prompts) == calls
    for name in ("config.json", "predictions.jsonl", "summary.json", "report.md", "accuracy.png"):
        assert (tmp_path / "rep" / name).is_file()
    assert rep["errors"] == 0 and rep["n"] == 6
    assert {k: v["mean"] for k, v in rep["metrics"].items()} == pytest.approx(
        {k: v["mean"] for k, v in rec["metrics"].items()}
    )
    preds = [json.loads(x) for x in (tmp_path / "rep" / "predictions.jsonl").read_text().splitlines()]
    assert all(p["trace"]["llm_calls"] for p in preds)
