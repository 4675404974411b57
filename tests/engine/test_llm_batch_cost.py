"""Cost per question in ``ask --file`` (issue 25, point 8): LLM calls, prompt and completion
tokens, seconds per stage, warning and error texts on every line; ``.run.json`` names the batch
workers and the tools' threads apart, and a re-run may change either."""

from __future__ import annotations

import json

from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import typed_plans
from byokg.commands.batch import run_batch
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine


def test_batch_lines_carry_the_cost(festivals, festival_store, tmp_path):
    fx = festivals["camel"]
    qs = [q for q in fx.questions if q.template in ("town-of", "count-region")]
    qfile = tmp_path / "q.jsonl"
    qfile.write_text("".join(json.dumps({"id": q.id, "question": q.question}) + "\n"
                             for q in qs), encoding="utf-8")
    out = tmp_path / "a.jsonl"
    store = festival_store("camel")
    with ScriptedServer(typed_plans(fx.questions)) as srv:
        cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(), workers=3)
        run_batch(Engine(store, cfg), graph=store.uri, cfg=cfg, file=str(qfile), out=str(out),
                  workers=2, progress=False)
        rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
        assert {r["id"] for r in rows} == {q.id for q in qs}
        for r in rows:
            assert r["llm_calls"] == 1 and r["prompt_tokens"] > 500
            assert r["completion_tokens"] > 0 and r["seconds"] > 0
            assert {"kg-linker", "tools", "link"} <= set(r["stage_seconds"])
            assert r["warning_texts"] == [] and r["error_texts"] == [] and r["warnings"] == 0
            assert r["truncated"] is False and r["answers"]
        run = json.loads((tmp_path / "a.jsonl.run.json").read_text(encoding="utf-8"))
        assert run["batch_workers"] == 2 and run["tool_threads"] == 3
        assert "workers" not in run
        # a re-run with other worker counts resumes (they decide how fast, not what)
        cfg2 = cfg.model_copy(update={"workers": 1})
        summary = run_batch(Engine(store, cfg2), graph=store.uri, cfg=cfg2, file=str(qfile),
                            out=str(out), workers=1, progress=False)
    assert summary.skipped == len(qs) and summary.answered == 0
