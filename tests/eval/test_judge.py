"""LLM-as-judge: the versioned rubric, score parsing, and judging inside a run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from byokg import registry
from byokg.demo import DEMO_QUESTIONS
from byokg.eval import judge as J
from byokg.eval.runner import EvalSettings
from byokg.eval.runner import run_eval
from byokg.hookspecs import hookimpl
from byokg.models.base import LLMResponse


def test_rubric_is_versioned_and_rendered():
    text = J.judge_prompt("Where was X born?", ["Paris"], ["Paris, France"])
    assert "version v1" in text and "Where was X born?" in text and "Paris, France" in text
    assert "1.0" in text and "0.5" in text and "0.0" in text
    assert "(no answer)" in J.judge_prompt("q", ["a"], [])


@pytest.mark.parametrize("reply, score", [
    ("<score>1.0</score>", 1.0), ("reasoning… <score>0.5</score>", 0.5), ("<score>.5</score>", 0.5),
    ("<score> 0 </score>", 0.0), ("<score>1</score>", 1.0), ("score: 1", None), ("<score>0.7</score>", None),
])
def test_parse_score(reply, score):
    assert J.parse_score(reply) == score


class _Judge:
    """Grades 1.0 when the prediction names every gold answer (in any order), else 0.0."""

    name = "judge"

    def complete(self, prompt, **_):
        gold = prompt.split("Gold answers: ")[1].splitlines()[0]
        pred = prompt.split("Predicted answer: ")[1].splitlines()[0]
        hit = set(gold.split("; ")) <= set(pred.split("; "))
        return LLMResponse(text=f"<score>{'1.0' if hit else '0.0'}</score>", model="judge")


def test_judge_scores_each_question_of_a_run(tmp_path):
    module = SimpleNamespace(register_llms=hookimpl(lambda register: register("judge", lambda rest, **kw: _Judge())))
    registry.register_plugin(module, name="test-judge")
    try:
        summary = run_eval(EvalSettings(dataset="jsonl", data=str(DEMO_QUESTIONS), graph="memory:demo",
                                        limit=6, judge="judge:v1"), tmp_path / "run", progress=False)
    finally:
        registry.unregister_plugin("test-judge")
    assert summary["metrics"]["judge"]["n"] == 6
    # the stand-in judge agrees with exact match on these single-answer questions
    assert summary["metrics"]["judge"]["mean"] == pytest.approx(summary["metrics"]["em"]["mean"])
