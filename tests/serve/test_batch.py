"""``byokg ask --file … --out …``: one graph load, a row per question (failures included), resume
that skips what is answered and retries what failed, a changed setting named, workers."""

from __future__ import annotations

import json

import pytest
from serve_helpers import rows
from serve_helpers import run

import byokg.graph.open

QUESTIONS = ["Where was Wynton Marsalis born?", "Where was Satchmo born?",
             "What is the capital of Jamaica?"]


@pytest.fixture
def opened(monkeypatch):
    calls = []
    real = byokg.graph.open.open_graph

    def spy(uri, **kw):
        calls.append(uri)
        return real(uri, **kw)

    monkeypatch.setattr(byokg.graph.open, "open_graph", spy)
    return calls


def test_batch_answers_every_question_with_one_graph_load(tmp_path, capsys, opened):
    qfile = tmp_path / "q.txt"
    qfile.write_text("\n".join([QUESTIONS[0], "", "# a comment", QUESTIONS[1], QUESTIONS[0],
                                "x " * 3000]) + "\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    code, stdout, err = run(capsys, "ask", "--file", str(qfile), "--out", str(out),
                            "--graph", "memory:demo")
    assert code == 0, err
    assert opened == ["memory:demo"]
    got = rows(out)
    assert [r["question"] for r in got] == [QUESTIONS[0], QUESTIONS[1], ("x " * 3000).strip()]
    assert got[0]["answers"][:1] == ["New Orleans"] and got[0]["evidence"]
    assert got[0]["id"] == "line-1" and got[1]["id"] == "line-4"
    assert got[0]["error"] is None
    assert got[2]["answers"] == [] and "too long" in got[2]["error"]  # written, batch went on
    assert "2 answered, 1 failed" in err and "2 blank/comment lines" in err
    assert "1 duplicates skipped" in err
    assert stdout == ""
    assert "\r" not in err  # no progress bar when stderr is not a terminal
    settings = json.loads((tmp_path / "a.jsonl.run.json").read_text())
    assert settings["graph"] == "memory:demo" and settings["run_config"]["llm"] in (None, "none")


def test_resume_skips_answered_and_retries_failed(tmp_path, capsys, monkeypatch):
    qfile = tmp_path / "q.jsonl"
    qfile.write_text("".join(json.dumps({"id": f"q{i}", "question": q}) + "\n"
                             for i, q in enumerate(QUESTIONS[:2])), encoding="utf-8")
    out = tmp_path / "a.jsonl"
    args = ["ask", "--file", str(qfile), "--out", str(out), "--graph", "memory:demo"]
    assert run(capsys, *args)[0] == 0
    first = rows(out)
    assert [r["id"] for r in first] == ["q0", "q1"]
    # a new question; one that fails now (the engine breaks on it), then works
    asked: list[str] = []
    from byokg.pipeline.engine import Engine

    real = Engine.ask

    def flaky(self, question, **kw):
        asked.append(question)
        if "Jamaica" in question and flaky.broken:
            raise RuntimeError("graph went away")
        return real(self, question, **kw)

    flaky.broken = True
    monkeypatch.setattr(Engine, "ask", flaky)
    with qfile.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "q2", "question": QUESTIONS[2]}) + "\n")
    code, _, err = run(capsys, *args, "--workers", "2")  # workers may change on resume
    assert code == 0, err
    assert asked == [QUESTIONS[2]]
    assert "2 already answered (skipped)" in err and "1 failed" in err
    assert rows(out)[-1]["error"] == "RuntimeError: graph went away"
    flaky.broken = False
    asked.clear()
    code, _, err = run(capsys, *args)
    assert code == 0 and asked == [QUESTIONS[2]] and "1 retried" in err
    final = rows(out)
    assert [r["id"] for r in final] == ["q0", "q1", "q2"]  # the failed row was replaced
    assert final[:2] == first and final[2]["answers"] == ["Kingston"]
    asked.clear()
    code, _, err = run(capsys, *args)
    assert code == 0 and asked == [] and "0 answered" in err


def test_a_changed_setting_is_an_error_naming_it(tmp_path, capsys):
    qfile = tmp_path / "q.txt"
    qfile.write_text(QUESTIONS[0] + "\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    args = ["ask", "--file", str(qfile), "--out", str(out), "--graph", "memory:demo"]
    assert run(capsys, *args)[0] == 0
    code, _, err = run(capsys, *args, "--iterations", "1")
    assert code == 1 and "run_config.iterations" in err and "new --out" in err
    code, _, err = run(capsys, *args, "--tools", "one-hop")
    assert code == 1 and "run_config.tools" in err
    assert len(rows(out)) == 1


def test_workers_give_the_same_answers(tmp_path, capsys):
    qfile = tmp_path / "q.txt"
    qfile.write_text("\n".join(QUESTIONS) + "\n", encoding="utf-8")
    got = {}
    for w in ("1", "3"):
        out = tmp_path / f"a{w}.jsonl"
        assert run(capsys, "ask", "--file", str(qfile), "--out", str(out), "--graph",
                   "memory:demo", "--workers", w)[0] == 0
        got[w] = {r["question"]: r["answers"] for r in rows(out)}
    assert got["1"] == got["3"] and len(got["1"]) == 3


def test_bad_input_and_usage(tmp_path, capsys):
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"question": "Where was Satchmo born?"}\n{"q": "oops"}\n', encoding="utf-8")
    out = tmp_path / "a.jsonl"
    code, _, err = run(capsys, "ask", "--file", str(bad), "--out", str(out), "--graph",
                       "memory:demo")
    assert code == 1 and "q.jsonl:2" in err and "question" in err
    bad.write_text('{"question": "Where?"}\nnot json\n', encoding="utf-8")
    code, _, err = run(capsys, "ask", "--file", str(bad), "--out", str(out), "--graph",
                       "memory:demo")
    assert code == 1 and "q.jsonl:2" in err and "invalid JSON" in err
    assert not out.exists()
    code, _, err = run(capsys, "ask", "Q?", "--file", str(bad), "--out", str(out), "--graph", "g")
    assert code == 2 and "not both" in err
    code, _, err = run(capsys, "ask", "--file", str(bad), "--graph", "memory:demo")
    assert code == 2 and "--out" in err
    code, _, err = run(capsys, "ask", "--file", str(bad), "--out", str(out), "--json",
                       "--graph", "memory:demo")
    assert code == 2


def test_progress_bar_on_request(tmp_path, capsys, demo_store):
    from byokg.commands.batch import run_batch
    from byokg.config import RunConfig
    from byokg.pipeline.engine import Engine

    qfile = tmp_path / "q.txt"
    qfile.write_text("\n".join(QUESTIONS) + "\n", encoding="utf-8")
    cfg = RunConfig()
    summary = run_batch(Engine(demo_store, cfg), graph="memory:demo", cfg=cfg, file=str(qfile),
                        out=str(tmp_path / "a.jsonl"), progress=True)
    err = capsys.readouterr().err
    assert summary.answered == 3 and "questions" in err and "3/3" in err
