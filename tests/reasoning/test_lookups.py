"""Plain lookups with the core install (the static model, MiniLM's weights hidden): the shared
Freebase sample's "Where was Wynton Marsalis born?" and a typed Kùzu graph of prize winners
(benchmarks/prize_graph.py) whose people have a full and a known name."""

from __future__ import annotations

import pytest

from benchmarks import prize_graph as pz


@pytest.fixture
def core(monkeypatch):
    import byokg.models.embedders as emb

    monkeypatch.setattr(emb, "minilm_available", lambda: False)


def test_wynton_marsalis_was_born_in_new_orleans(freebase_store, core):
    """``people.person.place_of_birth`` reads "born in" (its nominalisation), so the core
    install walks it rather than the record label's people born elsewhere."""
    from byokg.pipeline.engine import Engine

    got = Engine(freebase_store).ask("Where was Wynton Marsalis born?")
    assert got.answers[:1] == ["New Orleans"], got.answers


@pytest.fixture(scope="module")
def prize_store(tmp_path_factory):
    from byokg.graph.open import open_graph

    path = tmp_path_factory.mktemp("prize") / "prize.kz"
    pz.build(path)
    store = open_graph(f"kuzu:{path}")
    yield store
    store.close()


def test_prize_lookups_by_full_name(prize_store, core):
    right, n, misses = pz.evaluate(prize_store, by="full")
    assert (right, n) == (25, 25), misses


def test_prize_lookups_by_known_name(prize_store, core):
    """People are asked for by the name they are known by (``knownName``), not the profile's
    display name (``fullName``): the vocabulary's name aliases link them."""
    right, n, misses = pz.evaluate(prize_store, by="known")
    assert (right, n) == (25, 25), misses
