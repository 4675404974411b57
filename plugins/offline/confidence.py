"""How likely the offline answer's first answer is right: the features of the winning chain
and its lead over the next, read by the fitted logistic model
(:class:`~byokg.plugins.offline.weights.ConfidenceModel`).

The features are the answer's own: the winning candidate's score and its margin over the
best candidate of another chain (the best chain clearly ahead), the answer type's fit, how
much of the question the winning chain says (coverage, idle steps, words left over), how
many steps it takes, how many answers tie and how many ends the chain has. The model's
coefficients were fitted on the fit split (``python -m benchmarks.fit_offline
--confidence``); the reliability table on the report split is in docs/engine.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from byokg.language.literals import is_literal_like


class ConfidenceFeatures(BaseModel):
    """What the confidence reads of an answer (see the module doc)."""

    model_config = ConfigDict(frozen=True)

    score: float = 0.0  # the first candidate's score
    margin: float = 0.0  # its lead over the best candidate of another chain, in [-1, 1]
    type: float = 0.0  # the answer type's fit
    coverage: float = 0.0  # share of the question the winning chain says
    idle: float = 0.0  # steps of it no word says
    leftover: float = 0.0  # units of the question no step takes
    steps: float = 1.0  # its steps
    tied: float = 0.0  # log(1 + answers tied with the first beyond it)
    ends: float = 0.0  # log(1 + ends of the chain)
    value: float = 0.0  # 1: the answer is a property value, not a node


FEATURES = tuple(ConfidenceFeatures.model_fields)


def features(ranked: Sequence[Any], tied: int, chain: dict[str, float] | None,
             type_fit: float) -> dict[str, float]:
    """The confidence features of an answer: ``ranked`` candidates best first (each with
    ``score``, ``group`` and ``node``), how many tie with the first, the winning chain's
    scorer features (None: a property value or no chain) and its answer-type fit."""
    if not ranked:
        return {}
    best = ranked[0]
    group = getattr(best, "group", None)
    other = next((r.score for r in ranked[1:] if getattr(r, "group", None) is not group
                  or group is None), None)
    margin = best.score - other if other is not None else 1.0
    chain = chain or {}
    ends = len(group.ends) if group is not None else 1
    return ConfidenceFeatures(
        score=float(best.score), margin=max(-1.0, min(1.0, float(margin))),
        type=float(type_fit), coverage=float(chain.get("coverage", 0.0)),
        idle=float(chain.get("idle", 0.0)), leftover=float(chain.get("leftover", 0.0)),
        steps=float(chain.get("extra_steps", 0.0)) + 1.0, tied=math.log1p(max(0, tied - 1)),
        ends=math.log1p(ends), value=0.0 if best.node is not None else 1.0).model_dump()


def confidence(feats: dict[str, float], model: Any) -> float | None:
    """The model's probability for these features, rounded (None: no features or no fitted
    model)."""
    if not feats or not model.coefficients:
        return None
    return round(model.probability(feats), 4)


def beyond_offline(analysis: Any, answers: Sequence[str], entities: Sequence[Any]) -> str | None:
    """Why the offline stages cannot have answered the question, whatever the model says (None:
    they may have): they walk relations and do no arithmetic, apply no filter on a value the
    question writes, and a person or place is never a bare number or date."""
    if analysis.aggregate is not None:
        return f"the question asks for arithmetic ({analysis.aggregate})"
    named = " ".join(m.mention for m in entities if m.candidates).casefold()
    free = [n for n in analysis.numbers if n.casefold() not in named]
    if free:
        return f"the question writes a value the offline stages do not filter on ({free[0]})"
    if analysis.kind in ("person", "place") and answers and all(map(is_literal_like, answers)):
        return f"a {analysis.kind} is asked for and the offline answers are bare values"
    return None
