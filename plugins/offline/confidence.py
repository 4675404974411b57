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
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from byokg.plugins.offline.weights import WEIGHTS
from byokg.plugins.offline.weights import TypeScores
from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.language import lexicon as lx
from byokg.language.analysis import same_word
from byokg.language.literals import is_literal_like
from byokg.language.text import stem
from byokg.language.text import words

KIND_WORDS = lx.KIND_WORDS


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


class AnswerShape(BaseModel):
    """What the offline answer's first candidate is, as the type check reads it: a property's
    values (``property``) or nodes (their ``labels``)."""

    model_config = ConfigDict(frozen=True)

    property: str | None = None  # the answer is this property's values
    labels: tuple[str, ...] = ()  # the answer nodes' labels
    steps: int = 1  # relation steps from the question's entity to the answer nodes
    relations: tuple[str, ...] = ()  # the relations walked to the answer


Similarity = Callable[[Sequence[str], Sequence[str]], dict[tuple[str, str], float]]


def beyond_offline(analysis: Any, answers: Sequence[str], entities: Sequence[Any], *,
                   shape: AnswerShape | None = None, labels: Sequence[str] = (),
                   sim: Similarity | None = None,
                   label_nouns: dict[str, tuple[str, ...]] | None = None,
                   edge_values: Mapping[str, Sequence[str]] | None = None,
                   scores: TypeScores = WEIGHTS.types) -> str | None:
    """Why the offline stages cannot have answered the question, whatever the model says (None:
    they may have): they walk relations and do no arithmetic, apply no filter on a value the
    question writes (nor on a relationship's property: ``edge_values``, per relation the text
    values its properties take, says when a question word is one of them on a relation the
    answer walks: "who *headlined* …" and a ``slot`` of ``'headliner'``), and a person or
    place is never a bare number or date.

    With the answer's ``shape``, the graph's ``labels`` and the word similarity ``sim`` (the
    one the chains use), also where the question's type word ("which *town*") and the answer
    disagree or the graph cannot say which of its labels the word names
    (:func:`type_doubt`)."""
    if analysis.aggregate is not None:
        return f"the question asks for arithmetic ({analysis.aggregate})"
    named = " ".join(m.mention for m in entities if m.candidates).casefold()
    free = [n for n in analysis.numbers if n.casefold() not in named]
    if free:
        return f"the question writes a value the offline stages do not filter on ({free[0]})"
    if analysis.kind in ("person", "place") and answers and all(map(is_literal_like, answers)):
        return f"a {analysis.kind} is asked for and the offline answers are bare values"
    if shape is not None and answers:
        mention_words = {w for m in entities for w in words(m.mention)}
        said = _edge_value_said(analysis, shape, mention_words, edge_values or {})
        if said:
            return said
        return type_doubt(analysis, shape, mention_words, labels=labels, sim=sim,
                          label_nouns=label_nouns, scores=scores)
    return None


def type_doubt(analysis: Any, shape: AnswerShape, mention_words: set[str], *,
               labels: Sequence[str] = (), sim: Similarity | None = None,
               label_nouns: dict[str, tuple[str, ...]] | None = None,
               scores: TypeScores = WEIGHTS.types) -> str | None:
    """Why a "which / what <noun>" question's offline answer may be of the wrong type (None: no
    doubt). Three cases, each read from the graph's labels and property names, never from
    a list of words:

    - the answer is a property's values and the noun does not name the property ("which
      *act* …" answered with the values of ``Head Count``): a noun asks for things;
    - the noun names some of the graph's labels and the answer nodes have none of them;
    - the noun names no label by its words (the label's own head word, or a noun the graph's
      relations give its nodes), only by meaning, and the answer is nodes of such a label,
      and the noun is about as close (within ``label_margin``) to another label, or it only
      just names the label (below ``match + label_margin``) and the answer is more than one
      step away: which label the noun means is then the similarity model's guess, and a
      guess that adds a step ("in which *town* …" answered one step beyond the towns, at the
      ``Area`` a town lies in, "town" being about as close to ``Area`` as to ``Place``) is
      the offline stages' likeliest error on a typed graph. A noun close in meaning ("nation"
      and ``Country``) is no guess."""
    if analysis.kind != "thing" or not analysis.type_words:
        return None
    from byokg.plugins.offline.answer_types import expectation
    from byokg.plugins.offline.answer_types import labels_named

    labels = tuple(labels) if len(labels) > 1 else ()  # one label says nothing
    exp = expectation(analysis, mention_words, labels=labels, sim=sim, scores=scores,
                      label_nouns=label_nouns)
    if not exp.type_words:
        return None
    noun = exp.type_words[0]
    asked = list(KIND_WORDS["category"]) if exp.category else [noun]
    if shape.property is not None:
        return _property_doubt(noun, asked, shape.property, sim, scores)
    if not labels or not shape.labels:
        return None
    if exp.fitting_labels and not set(shape.labels) & set(exp.fitting_labels):
        return (f"'{noun}' names {', '.join(exp.fitting_labels)} and the answer is "
                f"{', '.join(shape.labels)} nodes")
    if exp.category or sim is None or labels_named((noun,), labels, label_nouns):
        return None  # the noun names a label by its letters: no guess
    return _meaning_doubt(noun, labels, shape, sim, scores)


def _property_doubt(noun: str, asked: Sequence[str], prop: str, sim: Similarity | None,
                    scores: TypeScores) -> str | None:
    """:func:`type_doubt` for an answer of a property's values: none when the asked-for word
    names the property by its letters or by meaning."""
    prop_words = [stem(w) for w in words(prop)]
    if any(same_word(stem(a), w) for a in asked for w in prop_words):
        return None
    if sim is not None and max(sim(list(asked), [prop]).values(), default=0.0) >= scores.match:
        return None
    return (f"'{noun}' asks for things and the answer is values of the property "
            f"'{prop}', which the word does not name")


def _meaning_doubt(noun: str, labels: Sequence[str], shape: AnswerShape, sim: Similarity,
                   scores: TypeScores) -> str | None:
    """:func:`type_doubt` for a noun that names the answer's label by meaning only: a doubt
    when it is about as close to another label, or only just names it and the answer is
    more than one step away."""
    table = sim([noun], list(labels))
    close = sorted(((table[(noun, lab)], lab) for lab in labels), reverse=True)
    top = close[0][0] if close else 0.0
    near = [lab for v, lab in close if v >= top - scores.label_margin and v > 0.0]
    if top < scores.match or not set(shape.labels) & set(near):
        return None  # the noun names no label by meaning either, or not the answer's
    shown = ", ".join(f"{lab} {table[(noun, lab)]:.2f}" for lab in near)
    if len(near) > 1:
        return (f"'{noun}' names no label by its words and is about as close to several "
                f"({shown}): the answer's type is a guess")
    if shape.steps > 1 and top < scores.match + scores.label_margin:
        return (f"'{noun}' names no label by its words and only just by meaning ({shown}), "
                f"and the answer is {shape.steps} steps away: a step may be one too many")
    return None


def _edge_value_said(analysis: Any, shape: AnswerShape, mention_words: set[str],
                     edge_values: Mapping[str, Sequence[str]]) -> str | None:
    """A question word (outside the entities' names) that is a text value of a property of a
    relation the answer walks: the question filters on the relationship, which the offline
    stages do not."""
    asked = [w for w in analysis.content_words if w not in mention_words
             and not is_literal_like(w) and len(w) >= 3]
    for rel in dict.fromkeys(shape.relations):
        for value in edge_values.get(rel, ()):
            vwords = [stem(v) for v in words(str(value)) if len(v) >= 3]
            hit = next((w for w in asked if any(same_word(stem(w), v) for v in vwords)),
                       None)
            if hit:
                return (f"the question says '{hit}', a value ('{value}') of a property of "
                        f"{rel}: the offline stages do not filter on a relationship's "
                        "properties")
    return None
