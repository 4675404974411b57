"""LLM-as-judge with a versioned rubric (1.0 correct / 0.5 partially correct / 0.0 wrong)."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from byokg.models.replies import tag_body

RUBRIC_VERSION = "v1"


def rubric() -> str:
    return (resources.files("byokg.eval") / f"judge_rubric.{RUBRIC_VERSION}.txt").read_text(encoding="utf-8")


def judge_prompt(question: str, gold: list[str], answers: list[str]) -> str:
    return rubric().format(question=question, gold="; ".join(gold), prediction="; ".join(answers) or "(no answer)")


_SCORE = re.compile(r"^\s*(1(?:\.0)?|0?\.5|0(?:\.0)?)\s*$")


def parse_score(text: str) -> float | None:
    """The judge's ``<score>`` (0, 0.5 or 1); None when the reply holds none."""
    body = tag_body(text, "score")
    m = _SCORE.match(body) if body is not None else None
    return float(m.group(1)) if m else None


def judge_answer(llm: Any, question: str, gold: list[str], answers: list[str]) -> float:
    """Score with the rubric; a reply without a score counts 0.0 (and is visible in the record)."""
    reply = llm.complete(judge_prompt(question, gold, answers), temperature=0.0, max_tokens=200)
    score = parse_score(reply.text)
    return 0.0 if score is None else score
