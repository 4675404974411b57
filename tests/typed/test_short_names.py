"""Names of one to three characters (Go, C, R, UK, Io) are spotted when the question writes them
as the graph does — case and word boundaries kept — and common words are not flooded."""

from __future__ import annotations

import pytest

from byokg.config import RunConfig
from byokg.graph.open import graph_from_triplets
from byokg.linking.fuzzy import NameIndex
from byokg.linking.fuzzy import short_name_ok
from byokg.pipeline.engine import Engine

SHORT = ["Go", "C", "R", "UK", "Io", "US", "In", "it", "a", "Jupiter", "Rob Pike", "IT"]


@pytest.fixture(scope="module")
def index() -> NameIndex:
    return NameIndex.from_pairs([(f"n{i}", name) for i, name in enumerate(SHORT)])


def spotted(index: NameIndex, text: str) -> list[str]:
    return [s.mention for s in index.spot(text)]


@pytest.mark.parametrize(("text", "names"), [
    ("Who designed Go?", ["Go"]),
    ("Is C older than R?", ["C", "R"]),
    ("What is the capital of the UK?", ["UK"]),
    ("Which planet does Io orbit?", ["Io"]),
    ("Io is a moon of Jupiter.", ["Io", "Jupiter"]),
    ("Did Rob Pike design Go and C?", ["Rob Pike", "Go", "C"]),
    ("Where did they go in the US?", ["US"]),  # "go", "in": lower case common words
    ("In which year was it built?", []),  # "In" at the start, "it": common words
    ("Who works in IT?", ["IT"]),  # a common word written in capitals
    ("Is C++ like C# or C?", ["C"]),  # only the C that stands alone
    ("Is go a language?", []),  # written in lower case: not the name "Go"
    ("What is R&D?", []),
    ("uk trade", []),
])
def test_short_names_spotted_as_written(index, text, names):
    assert spotted(index, text) == names


def test_short_name_rule():
    assert [short_name_ok(x) for x in ("Go", "C", "UK", "Io", "U2", "go", "In", "A", "IT")] == [
        True, True, True, True, True, False, False, False, True]


def test_offline_answer_about_a_short_name():
    store = graph_from_triplets([("Go", "designed_by", "Rob Pike"),
                                 ("C", "designed_by", "Dennis Ritchie"),
                                 ("Go", "influenced_by", "C")])
    ans = Engine(store, RunConfig(iterations=1)).ask("Who designed Go?")
    assert ans.answers[:1] == ["Rob Pike"]
    assert [m.mention for m in ans.entities] == ["Go"]
