"""Whole evaluation runs: archive files, resume after a kill, compare, strategies."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from byokg.cli import cli
from byokg.config import RunConfig
from byokg.demo import DEMO_QUESTIONS
from byokg.errors import ConfigError
from byokg.eval.runner import EvalSettings
from byokg.eval.runner import run_eval
from byokg.eval.runner import strategy_config

BYOKG = str(Path(sys.executable).parent / "byokg")


def _settings(**kw) -> EvalSettings:
    base = dict(dataset="jsonl", data=str(DEMO_QUESTIONS), graph="memory:demo", strategy="offline")
    base.update(kw)
    return EvalSettings(**base)


def test_full_run_writes_every_archive_file(tmp_path):
    out = tmp_path / "run"
    summary = run_eval(_settings(limit=8), out, progress=False)
    for name in ("config.json", "predictions.jsonl", "summary.json", "report.md", "accuracy.png",
                 "latency.png", "llm_calls.png"):
        assert (out / name).is_file(), name
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["settings"]["strategy"] == "offline"
    assert cfg["prompt_checksums"] and cfg["versions"]["byokg"]
    preds = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert len(preds) == 8 == summary["n"]
    assert all("trace" in p and "metrics" in p for p in preds)
    on_disk = json.loads((out / "summary.json").read_text())
    assert set(on_disk) >= {"metrics", "n", "excluded"}
    assert on_disk["metrics"]["hit"]["mean"] == pytest.approx(
        sum(p["metrics"]["hit"] for p in preds) / 8
    )
    assert "| hit |" in (out / "report.md").read_text()


def test_existing_run_needs_resume(tmp_path):
    out = tmp_path / "run"
    run_eval(_settings(limit=2), out, progress=False)
    with pytest.raises(ConfigError, match="--resume"):
        run_eval(_settings(limit=2), out, progress=False)
    with pytest.raises(ConfigError, match="strategy"):
        run_eval(_settings(limit=2, strategy="tools:one-hop"), out, resume=True, progress=False)


@pytest.mark.slow
def test_killed_run_resumes_to_the_same_summary(tmp_path):
    """Kill a real `byokg eval` process mid-way, resume it, compare with an uninterrupted run."""
    n = 40  # enough questions that the kill lands mid-way even on a fast machine
    args = ["eval", "--dataset", "jsonl", "--data", str(DEMO_QUESTIONS), "--graph", "memory:demo",
            "--limit", str(n)]
    whole = tmp_path / "whole"
    run_eval(_settings(limit=n), whole, progress=False)

    cut = tmp_path / "cut"
    proc = subprocess.Popen([BYOKG, *args, "--out", str(cut)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    preds = cut / "predictions.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline:
        if preds.exists() and len(preds.read_text().splitlines()) >= 3:
            break
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    killed_mid_way = proc.poll() is None
    if killed_mid_way:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(preds.read_text().splitlines())
    assert killed_mid_way and done_before < n, "the run finished before it could be killed"

    res = subprocess.run([BYOKG, *args, "--out", str(cut), "--resume"], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    lines = preds.read_text().splitlines()
    assert len(lines) == n and len({json.loads(x)["id"] for x in lines}) == n
    per_q = {json.loads(x)["id"]: json.loads(x)["metrics"] for x in lines}
    per_q_whole = {
        json.loads(x)["id"]: json.loads(x)["metrics"]
        for x in (whole / "predictions.jsonl").read_text().splitlines()
    }
    assert per_q == per_q_whole
    a = json.loads((whole / "summary.json").read_text())
    b = json.loads((cut / "summary.json").read_text())
    assert set(a["metrics"]) == set(b["metrics"])
    for k, v in a["metrics"].items():  # summed in another order: equal up to rounding
        assert b["metrics"][k]["mean"] == pytest.approx(v["mean"]), k
    assert a["n"] == b["n"] == n


def test_compare_prints_deltas(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_eval(_settings(limit=4), a, progress=False)
    run_eval(_settings(limit=4, strategy="tools:one-hop"), b, progress=False)
    res = CliRunner().invoke(cli, ["eval", "compare", str(a), str(b)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].split()[:3] == ["metric", "a", "b"]
    hit_line = next(x for x in lines if x.startswith("hit "))
    assert "(+" in hit_line or "(-" in hit_line


def test_strategies_map_to_tool_sets():
    base = RunConfig()
    assert strategy_config("offline", base, "none").tools is None
    assert strategy_config("graph-query", base, "openai:m").tools == ["cypher"]
    assert strategy_config("tools:a, b", base, "none").tools == ["a", "b"]
    with pytest.raises(ConfigError, match="needs an LLM"):
        strategy_config("agentic", base, "none")
    with pytest.raises(ConfigError, match="unknown strategy"):
        strategy_config("nope", base, "none")


def test_a_failing_question_is_recorded_not_fatal(tmp_path):
    class Flaky:
        def __init__(self, store, cfg):
            from byokg.pipeline.engine import Engine

            self.inner = Engine(store, cfg)

        def ask(self, q):
            if "born" in q:
                raise RuntimeError("boom")
            return self.inner.ask(q)

    summary = run_eval(_settings(limit=10), tmp_path / "r", progress=False, engine_factory=Flaky)
    preds = [json.loads(x) for x in (tmp_path / "r" / "predictions.jsonl").read_text().splitlines()]
    errs = [p for p in preds if p.get("error")]
    assert errs and all("boom" in p["error"] for p in errs)
    assert summary["errors"] == len(errs) and summary["n"] == 10


def test_resume_refuses_changed_settings_and_names_them(tmp_path):
    out = tmp_path / "run"
    run_eval(_settings(limit=2), out, progress=False)
    changed = _settings(limit=2, config=RunConfig(iterations=3))
    with pytest.raises(ConfigError) as ei:
        run_eval(changed, out, resume=True, progress=False)
    msg = str(ei.value)
    assert "config.iterations: archived 2, now 3" in msg and "run_config.iterations" in msg
    # how many and how fast may change: a longer --limit and more --workers resume the run
    summary = run_eval(_settings(limit=4, workers=2), out, resume=True, progress=False)
    assert summary["n"] == 4


def test_out_of_range_options_are_errors():
    from pydantic import ValidationError

    for kw in ({"limit": 0}, {"workers": 0}, {"workers": 65}):
        with pytest.raises(ValidationError):
            _settings(**kw)
    base = ["eval", "--dataset", "jsonl", "--data", str(DEMO_QUESTIONS), "--graph",
            "memory:demo", "--out", "unused"]
    for opt, bad in (("--limit", "0"), ("--workers", "0"), ("--workers", "65"),
                     ("--iterations", "0"), ("--iterations", "11")):
        res = CliRunner().invoke(cli, [*base, opt, bad])
        assert res.exit_code == 2 and opt in res.output and bad in res.output, res.output


def test_eval_json_prints_only_json(tmp_path):
    res = subprocess.run(
        [BYOKG, "eval", "--dataset", "jsonl", "--data", str(DEMO_QUESTIONS), "--graph",
         "memory:demo", "--limit", "3", "--out", str(tmp_path / "run"), "--json"],
        capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)  # the whole of stdout is one JSON document
    assert data["n"] == 3 and data["archive"] == str(tmp_path / "run")
    assert "hit" in data["metrics"]
    plain = subprocess.run(
        [BYOKG, "eval", "--dataset", "jsonl", "--data", str(DEMO_QUESTIONS), "--graph",
         "memory:demo", "--limit", "3", "--out", str(tmp_path / "run2")],
        capture_output=True, text=True)
    assert plain.returncode == 0 and "archive:" in plain.stdout
