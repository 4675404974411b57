"""The built-in demo graph: every demo question's relation path reaches its answers, with the
inverted hops the question file says; shortest paths connect topic and answer within its hops."""

from __future__ import annotations

import json

import pytest

from byokg.graph.paths import follow_paths
from byokg.graph.paths import shortest_paths
from byokg.graph.verbalize import verbalize_paths


@pytest.fixture(scope="module")
def questions():
    from byokg.demo import DEMO_QUESTIONS

    rows = [json.loads(line) for line in DEMO_QUESTIONS.open(encoding="utf-8")]
    assert len(rows) >= 20
    return rows


def test_relation_paths_reach_answers_with_inversions(demo_store, questions, counting):
    for q in questions:
        store = counting(demo_store)
        res = follow_paths(store, q["topic_entities"], q["relation_path"])
        assert set(q["answers"]) <= set(res.reached), q["id"]
        assert store.calls["neighbors"] == len(q["relation_path"])
        for p in res.paths:
            if p.end in q["answers"]:
                assert list(p.inverted) == q["inverted"], q["id"]
        expected_inv = [i for i, flag in enumerate(q["inverted"]) if flag]
        assert set(expected_inv) <= set(res.inverted_hops), q["id"]


def test_forward_mode_misses_inverted_questions(demo_store, questions):
    inverted = [q for q in questions if any(q["inverted"])]
    assert inverted
    for q in inverted:
        res = follow_paths(demo_store, q["topic_entities"], q["relation_path"], mode="forward")
        assert not set(q["answers"]) & set(res.reached), q["id"]


def test_shortest_paths_within_question_hops(demo_store, questions):
    pairs = [(q["topic_entities"][0], a) for q in questions for a in q["answers"]]
    hops = {(q["topic_entities"][0], a): q["hops"] for q in questions for a in q["answers"]}
    res = shortest_paths(demo_store, pairs, max_hops=4, k=2)
    for pp in res.pairs:
        assert pp.paths, (pp.source, pp.target)
        assert pp.hops <= hops[(pp.source, pp.target)]


def test_demo_cvt_verbalized(demo_store):
    res = follow_paths(demo_store, ["Johnny Cash"], ["marriage", "spouse"])
    text = verbalize_paths(demo_store, res.paths, max_tokens=300).text
    assert "June Carter Cash" in text
    assert "m.demo_marriage_07 (from: 1968" in text
