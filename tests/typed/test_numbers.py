"""Numbers, years and dates never link by a word match; they filter. On the typed Kùzu graph
(prizes named ``category + year``) and on JSONL prizes that share one name and keep the year in
a property."""

from __future__ import annotations

import json

import pytest

from byokg import registry
from byokg.config import RunConfig
from byokg.graph.open import open_graph
from byokg.linking.numbers import QUESTION_KEY
from byokg.linking.numbers import numbers_agree
from byokg.linking.numbers import value_says
from byokg.models.budget import CallBudget
from byokg.models.services import Services
from byokg.pipeline.engine import Engine


def _link(store, question: str | None, *mentions: str):
    services = Services(RunConfig(embedder="lexical")).for_question(CallBudget(None))
    if question:
        services.put(QUESTION_KEY, question)
    linker = registry.tools().create("entity-linker")
    return {m.mention: m for m in linker.link(list(mentions), store=store, services=services)}


def _names(ml) -> list[str]:
    return [c.name for c in ml.candidates]


@pytest.mark.parametrize(("mention", "name", "context", "ok"), [
    ("chemistry 2010", "chemistry 2000", (), False),  # another number
    ("chemistry", "chemistry 1901", (), False),  # a match that ignores the number
    ("chemistry", "chemistry 1901", ("1901",), True),  # the question says 1901
    ("2010", "peace 2010", ("2010",), False),  # a number alone never word-matches
    ("Apolo 11", "Apollo 11", (), True),  # a typo, the same number
    ("Apollo 11", "Apollo 13", (), False),
    ("1,000 Islands", "1000 Islands", (), True),  # one number written two ways
    ("Wynton Marsalis", "Wynton Marsalis", (), True),
])
def test_numbers_agree(mention, name, context, ok):
    assert numbers_agree(mention, name, frozenset(context)) is ok


def test_value_says_a_year_of_a_date_or_a_number():
    import datetime as dt

    assert value_says(dt.date(1903, 12, 10), "1903") and value_says(1903, "1903")
    assert value_says("1903-12-10", "1903") and value_says("1,000", "1000")
    assert not value_says(dt.date(1904, 1, 1), "1903") and not value_says(True, "1")
    assert not value_says("physics 1903", "1903")


def test_numbers_never_fuzzy_link_on_the_typed_graph(typed_kuzu):
    got = _link(typed_kuzu, None, "1910", "1905")
    # a number alone: no prize "chemistry 1905" by its digits, none at all for 1910
    assert got["1910"].candidates == () and got["1905"].candidates == ()
    assert got["1905"].dropped  # found by the digits, then not passed on
    assert all(c.name.endswith(" 1905") for c in got["1905"].dropped)
    got = _link(typed_kuzu, None, "chemistry")
    assert got["chemistry"].candidates == ()  # which year? not the first one's
    assert {c.name for c in got["chemistry"].dropped} >= {"chemistry 1901", "chemistry 1902"}
    got = _link(typed_kuzu, None, "chemistry 1910")
    assert got["chemistry 1910"].candidates == ()  # no chemistry prize of 1910
    got = _link(typed_kuzu, None, "chemistry 1905")
    assert _names(got["chemistry 1905"]) == ["chemistry 1905"]


def test_a_year_in_the_question_completes_and_narrows(typed_kuzu):
    got = _link(typed_kuzu, "Who won the chemistry prize in 1903?", "chemistry", "chemistry prize")
    assert _names(got["chemistry"]) == ["chemistry 1903"]
    assert got["chemistry"].candidates[0].method == "number"
    assert _names(got["chemistry prize"]) == ["chemistry 1903"]


def test_offline_answers_a_name_written_apart_around_its_year(typed_kuzu):
    from typed_graph import TYPED

    names = {p["id"]: p["knownName"] for p in TYPED.people}
    winner = {key: names[pid] for pid, key, _s, _d in TYPED.won}
    engine = Engine(typed_kuzu, RunConfig())
    assert engine.ask("Who won the chemistry prize in 1903?").answers == [
        winner["nobel-chemistry-1903"]]
    assert engine.ask("Who received the 1905 prize in physics?").answers == [
        winner["nobel-physics-1905"]]


@pytest.fixture(scope="module")
def same_name_prizes(tmp_path_factory) -> str:
    """Seven prizes all named "Nobel Prize in Chemistry", the year in a property."""
    rows = []
    for year in range(1901, 1908):
        rows.append({"id": f"prize-{year}", "name": "Nobel Prize in Chemistry",
                     "labels": ["Award"], "properties": {"year": year}})
        rows.append({"id": f"w{year}", "name": f"Chemist of {year - 1900:02d}",
                     "labels": ["Chemist"]})
        rows.append({"head": f"w{year}", "relation": "award_won", "tail": f"prize-{year}"})
    path = tmp_path_factory.mktemp("prizes") / "prizes.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return f"memory:{path}"


def test_a_year_narrows_nodes_that_share_a_name(same_name_prizes):
    with open_graph(same_name_prizes) as store:
        q = "Who was awarded the Nobel Prize in Chemistry in 1906?"
        got = _link(store, q, "Nobel Prize in Chemistry")
        assert [c.id for c in got["Nobel Prize in Chemistry"].candidates] == ["prize-1906"]
        unsaid = _link(store, None, "Nobel Prize in Chemistry")["Nobel Prize in Chemistry"]
        assert len(unsaid.candidates) == 3  # no year said: three of the seven, unnarrowed
        assert Engine(store, RunConfig()).ask(q).answers == ["Chemist of 06"]


def test_a_full_text_store_completes_names_without_a_local_index():
    """With the store's own full-text index no local name index is built for the numbers."""
    from typing import ClassVar

    from byokg.backends.memory import MemoryGraph

    from byokg.graph.open import graph_from_triplets
    from byokg.graph.store import Capability
    from byokg.testing import triples

    base = graph_from_triplets(triples("""
        chemistry 1903 | awarded_to | Greta Drobnik
        chemistry 1904 | awarded_to | Nils Gorvath
    """), uri="memory:fulltext-prizes")

    class FullText(MemoryGraph):
        capabilities: ClassVar[frozenset[str]] = frozenset({Capability.FULLTEXT})
        calls: ClassVar[list[str]] = []

        def iter_node_names(self, batch_size=10_000):
            self.calls.append("iter_node_names")
            yield from super().iter_node_names(batch_size)

        def fulltext_search(self, texts, *, k=3):
            self.calls.append("fulltext")
            return {t: [(i, 5.0) for i in self._ids if i.split()[0] in t] for t in texts}

    store = FullText(base.table, base.uri)
    services = Services(RunConfig()).for_question(CallBudget(None))
    services.put(QUESTION_KEY, "Who won the chemistry prize in 1903?")
    linker = registry.tools().create("entity-linker")
    got = linker.link(["chemistry"], store=store, services=services,
                      params=linker.Params(method="fuzzy"))[0]
    assert [(c.id, c.method) for c in got.candidates] == [("chemistry 1903", "number")]
    assert "iter_node_names" not in store.calls and "fulltext" in store.calls
