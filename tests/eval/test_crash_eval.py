"""An LLM-written query that crashes Kùzu (SIGSEGV) during `byokg eval`: the run finishes, that
question is recorded as errored with the reason, every other question is scored, and
`--resume` does not run it again. The LLM is a local OpenAI-compatible server."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from byokg.eval.runner import EvalSettings
from byokg.eval.runner import run_eval

_spec = importlib.util.spec_from_file_location(
    "byokg_llm_stub", Path(__file__).resolve().parents[1] / "llm_stub.py")
llm_stub = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(llm_stub)

# Deeply nested expressions kill Kùzu 0.11.3's process (stack overflow in its binder).
CRASH = "RETURN " + "size([" * 400 + "1" + "])" * 400 + " AS n"
QUESTIONS = [
    ("q1", "How many products are there?", ["77"],
     "MATCH (p:Product) RETURN count(p) AS n"),
    ("q2", "How many categories are there?", ["8"],
     "MATCH (c:Category) RETURN count(c) AS n"),
    ("q3", "How deep can you nest?", ["1"], CRASH),
    ("q4", "How many suppliers are there?", ["29"],
     "MATCH (s:Supplier) RETURN count(s) AS n"),
]
BY_QUESTION = {q: cypher for _, q, _, cypher in QUESTIONS}


def _reply(prompt: str, body: dict) -> str:
    m = re.search(r"Question: (.+)", prompt)
    question = m.group(1).strip() if m else ""
    if "<cypher>" in prompt and question in BY_QUESTION and "Graph context" not in prompt:
        return f"<entities>\n</entities>\n<cypher>\n{BY_QUESTION[question]}\n</cypher>"
    ctx = prompt.split("Question:", 1)[0]  # answer generation: the first number of the rows
    num = re.search(r"\|\s*(\d+)\s*\|", ctx)
    return f"<answers>\n{num.group(1) if num else 'unknown'}\n</answers>"


@pytest.fixture
def llm_server(monkeypatch):
    stub = llm_stub.ChatStub(_reply).start()
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    yield stub
    stub.stop()


@pytest.mark.slow
def test_a_crashing_query_errors_one_question_and_the_run_finishes(llm_server,
                                                                     northwind_kuzu_path,
                                                                     tmp_path):
    data = tmp_path / "qs.jsonl"
    data.write_text("".join(json.dumps({"id": i, "question": q, "answers": a}) + "\n"
                            for i, q, a, _ in QUESTIONS))
    settings = EvalSettings(dataset="jsonl", data=str(data), graph=f"kuzu:{northwind_kuzu_path}",
                            llm="openai:test", strategy="graph-query")
    summary = run_eval(settings, tmp_path / "run", progress=False)  # this process survives
    preds = {p["id"]: p for p in map(json.loads, (tmp_path / "run" / "predictions.jsonl")
                                     .read_text().splitlines())}
    assert set(preds) == {"q1", "q2", "q3", "q4"} and summary["n"] == 4
    crashed = preds["q3"]
    assert "engine crashed (signal 11" in crashed["error"], crashed.get("error")
    assert summary["errors"] == 1
    for qid in ("q1", "q2", "q4"):  # scored from the rows their queries returned
        assert "error" not in preds[qid], preds[qid].get("error")
        assert preds[qid]["metrics"]["hit"] == 1.0, (qid, preds[qid]["answers"])
    events = [e for e in crashed["trace"]["events"] if e["source"] == "cypher"]
    assert any(e["data"].get("error_kind") == "crashed" for e in events)

    calls = len(llm_server.prompts)
    again = run_eval(settings, tmp_path / "run", resume=True, progress=False)
    assert len(llm_server.prompts) == calls  # nothing re-asked: the errored question is done
    assert again["n"] == 4 and again["errors"] == 1
