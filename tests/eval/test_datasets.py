"""Dataset loaders on the shared files and their bad-input paths."""

from __future__ import annotations

import json

import pytest

from byokg import registry
from byokg.errors import InputError
from byokg.eval import datasets as D


def test_registered_through_the_dataset_hook():
    names = registry.datasets().names()
    assert {"webqsp", "cwq", "northwind", "jsonl"} <= set(names)
    assert registry.datasets().get("cwq").plugin == "byokg.plugins.evaluation"


def test_webqsp_counts_and_exclusions(shared_data):
    ds = D.load_webqsp(shared_data / "freebase" / "webqsp_test.jsonl")
    raw = sum(1 for _ in open(shared_data / "freebase" / "webqsp_test.jsonl"))
    assert raw == 1639
    assert len(ds) + len(ds.excluded) == raw
    # the README: 11 questions have an empty `answers`; those with RoG answers fall back to them
    assert all(e.reason == "no gold answers" for e in ds.excluded)
    ex = ds.examples[0]
    assert ex.question and ex.answers and ex.topic_entities and ex.gold_relation_paths


def test_cwq_and_tiny_subset(shared_data):
    ds = D.load_cwq(shared_data / "freebase" / "cwq_test.jsonl")
    assert len(ds) == 3531 and not ds.excluded
    tiny = D.load_cwq(shared_data / "freebase" / "cwq_tinykg_subset.jsonl")
    assert len(tiny) == 252
    first = json.loads(open(shared_data / "freebase" / "cwq_tinykg_subset.jsonl").readline())
    assert tiny.examples[0].topic_entities == list(first["topic_entities"].values())
    assert tiny.examples[0].answers == first["answers"]


def test_northwind_from_gold_file(shared_data):
    ds = D.load_northwind(shared_data / "northwind" / "text2cypher", gold_source="file")
    questions = {e.question for e in ds.examples} | {e.question for e in ds.excluded}
    assert len(questions) == len(ds) + len(ds.excluded)  # one example per unique question
    assert len(questions) == 632  # the README's dev split
    assert all(e.gold_rows for e in ds.examples)
    assert all(e.reason for e in ds.excluded)


def test_northwind_needs_a_cypher_store(shared_data):
    from byokg import graph_from_triplets

    no_cypher = graph_from_triplets([("a", "r", "b")])  # the memory store runs no Cypher
    with pytest.raises(InputError, match="cypher capability"):
        D.load_northwind(shared_data / "northwind" / "text2cypher", store=no_cypher)


def test_generic_jsonl_and_bad_rows(tmp_path):
    p = tmp_path / "qa.jsonl"
    p.write_text(
        json.dumps({"question": "Where?", "answers": ["Here"], "topic_entities": ["X"]}) + "\n"
        + "{not json\n"
        + json.dumps({"question": "Empty?", "answers": []}) + "\n"
        + json.dumps({"answers": ["no question"]}) + "\n"
    )
    with pytest.raises(InputError) as err:
        D.load_generic_jsonl(p)
    assert f"{p}:2" in str(err.value)
    ds = D.load_generic_jsonl(p, skip_bad_rows=True)
    assert [e.question for e in ds.examples] == ["Where?"]
    assert [e.question for e in ds.excluded] == ["Empty?"]
    assert len(ds.bad_rows) == 2
    assert "question" in ds.bad_rows[1]


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="cannot open"):
        D.load_cwq(tmp_path / "nope.jsonl")
