"""Linking with a confidence floor: weak fuzzy/dense matches are dropped (and said so), an exact
match keeps look-alikes out, and numbers never link to node ids (a literal stored as a node
is the value itself)."""

from __future__ import annotations

import pytest
from byokg.backends.memory import GraphBuilder
from byokg.plugins.linking.linker import EntityLinker
from byokg.plugins.linking.linker import EntityLinkerParams

from byokg.config import RunConfig
from byokg.contracts import Candidate
from byokg.contracts import MentionLinks
from byokg.models.services import Services


@pytest.fixture(scope="module")
def store():
    b = GraphBuilder()
    for h, r, t in [
        ("China", "capital", "Beijing"),
        ("China Daily", "published_in", "Beijing"),
        ("China boy", "genre", "Jazz"),
        ("Tiger Hotel", "located_in", "Beijing"),
        ("Wynton Marsalis", "born_in", "New Orleans"),
        ("Ada Example", "born_in_year", "1918"),  # a literal stored as a node: its id is 1918
        ("Order:12", "ships_to", "Beijing"),  # an unnamed node whose id holds the number 12
        ("m.0film", "released_in", "2019"),
    ]:
        b.add(h, r, t)
    b.add_node("m.0film", name="1917")  # a film named "1917": a real name, not its id
    return b.build("memory:floor-test")


def _link(store, mentions, **params):
    return EntityLinker().link(mentions, store=store, services=Services(),
                               params=EntityLinkerParams(**params))


def test_an_exact_match_keeps_look_alikes_out(store):
    (china,) = _link(store, ["China"])
    assert [c.name for c in china.candidates] == ["China"]
    assert {c.name for c in china.dropped} >= {"China Daily", "China boy"}
    assert all(c.method == "fuzzy" and c.score < 0.9 for c in china.dropped)
    # the floor with an exact match is a parameter
    (loose,) = _link(store, ["China"], min_score_with_exact=0.5)
    assert {"China Daily", "China boy"} <= {c.name for c in loose.candidates}


def test_fuzzy_matches_below_the_floor_are_dropped_typos_are_kept(store):
    hotel, typo = _link(store, ["Overlook Hotel", "Wynton Marsalls"])
    assert hotel.candidates == () and [c.name for c in hotel.dropped] == ["Tiger Hotel"]
    assert hotel.dropped[0].score < EntityLinkerParams().min_score
    assert [c.name for c in typo.candidates] == ["Wynton Marsalis"] and not typo.dropped
    (low_floor,) = _link(store, ["Overlook Hotel"], min_score=0.6)
    assert [c.name for c in low_floor.candidates] == ["Tiger Hotel"]


def test_run_config_sets_the_floor():
    cfg = RunConfig(params={"entity-linker": {"min_score": 0.9, "dense_min_score": 0.8}})
    p = cfg.tool_params("entity-linker", EntityLinkerParams)
    assert (p.min_score, p.dense_min_score) == (0.9, 0.8)
    with pytest.raises(Exception, match="min_score"):
        RunConfig(params={"entity-linker": {"min_score": 2}}).tool_params(
            "entity-linker", EntityLinkerParams)


def test_numbers_never_link_to_node_ids(store):
    """A number links a named node ("1917", a film) or the literal stored as a node (the
    tail ``1918`` *is* the year: in a graph of triples the only way to what is dated 1918),
    never a node whose id merely holds it (``Order:12``)."""
    year, film, twelve, other = _link(store, ["1918", "1917", "12", "2019"])
    assert [c.id for c in year.candidates] == ["1918"]
    assert [(c.id, c.name) for c in film.candidates] == [("m.0film", "1917")]  # a real name
    assert all(c.id != "Order:12" for c in twelve.candidates)
    assert "Order:12" in [c.id for c in twelve.dropped]
    assert [c.id for c in other.candidates] == ["2019"]  # and never a look-alike number


def test_without_literal_ids_is_a_rule_of_the_contract():
    ml = MentionLinks(mention="1,918", candidates=(
        Candidate(id="1918", name="1918", score=1.0, method="spot"),
        Candidate(id="Q1", name="1918 (novel)", score=0.9, method="fuzzy")))
    out = ml.without_literal_ids()
    assert out.ids == ["Q1"] and [c.id for c in out.dropped] == ["1918"]
    word = MentionLinks(mention="China", candidates=(Candidate(id="China", name="China",
                                                                score=1.0, method="exact"),))
    assert word.without_literal_ids() is word
