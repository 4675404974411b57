"""``byokg ask`` and ``byokg demo`` through click."""

from __future__ import annotations

import json

from click.testing import CliRunner

from byokg.cli import cli


def test_ask_json():
    r = CliRunner().invoke(cli, ["ask", "Where was Wynton Marsalis born?", "--graph", "memory:demo", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert set(data) == {"question", "answers", "answer_ids", "truncated", "total", "evidence",
                         "trace"}
    assert data["truncated"] is False and data["total"] is None
    assert data["answers"][0] == "New Orleans"
    assert data["evidence"] and data["trace"]["llm_calls"] == [] and data["trace"]["iterations"] >= 1
    assert "stage_seconds" in data["trace"]


def test_ask_explain_and_plain():
    r = CliRunner().invoke(cli, ["ask", "What is the capital of Jamaica?", "--graph", "memory:demo",
                                 "--explain", "--iterations", "1", "--tools", "follow-paths"])
    assert r.exit_code == 0, r.output
    assert "A: Kingston" in r.output and "Jamaica -> capital -> Kingston" in r.output
    r = CliRunner().invoke(cli, ["ask", "What is the capital of Jamaica?", "--graph", "memory:demo"])
    assert r.exit_code == 0 and r.output.splitlines()[0] == "Kingston"


def test_ask_config_file_and_errors(tmp_path):
    cfg = tmp_path / "run.toml"
    cfg.write_text('iterations = 1\ntools = ["one-hop"]\n')
    r = CliRunner().invoke(cli, ["ask", "What is the capital of Jamaica?", "--graph", "memory:demo",
                                 "--config", str(cfg), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["trace"]["iterations"] == 1
    r = CliRunner().invoke(cli, ["ask", "Q?", "--graph", "memory:demo", "--llm", "nope:x"])
    assert r.exit_code != 0 and "unknown LLM provider" in str(r.exception)


def test_demo_command():
    r = CliRunner().invoke(cli, ["demo"])
    assert r.exit_code == 0, r.output
    assert r.output.count("Q: ") == 3 and "Evidence:" in r.output
    assert "3/3 demo questions answered correctly" in r.output
