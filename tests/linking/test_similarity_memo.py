"""The similarity service memoises word-to-name scores per question; a score calibrated
against one vocabulary (the graph's relation names) is never served for another."""

from __future__ import annotations

from types import SimpleNamespace

from byokg.language.analysis import analyze
from byokg.models.embedders import create_embedder
from byokg.models.similarity import Similarity

# "born" is a topical word of the first vocabulary (near all of its names, so its cosines
# count only above its own high floor) and a relation word of the second
BIRTHS = ["born_in", "birth_date", "birthplace", "place_of_birth", "date_of_birth", "born_on"]
FILMS = ["genre", "directed_by", "written_by", "release_year", "language", "runtime"]


def _sim() -> Similarity:
    services = SimpleNamespace(config=SimpleNamespace(embedder="static"),
                               embedder=create_embedder("static"))
    return Similarity(analyze("where was X born?"), services)


def _score(sim: Similarity, vocabulary: list[str]) -> float:
    pair = ("born", "place_of_birth")
    return sim.phrase_similarity([pair[0]], [pair[1]], vocabulary=vocabulary)[pair]


def test_scores_are_memoised_per_vocabulary():
    births, films = _score(_sim(), BIRTHS), _score(_sim(), FILMS)
    assert films > births + 0.5  # the two vocabularies do calibrate "born" apart
    shared = _sim()
    assert _score(shared, BIRTHS) == births
    assert _score(shared, FILMS) == films  # not the first vocabulary's memoised score
    assert _score(shared, BIRTHS) == births


def test_name_cosines_are_the_best_of_each_names_texts():
    """The gathered matrix (every name's texts padded to one width) equals the best cosine
    over each name's own texts, computed name by name."""
    import numpy as np

    sim = _sim()
    emb = sim.model
    words = ["born", "married", "company"]
    names = [*BIRTHS, *FILMS, "spouse", "children", "parent_company"]
    got = sim._name_cosines(emb, words, names)
    w = sim.encode(emb, words)
    for j, name in enumerate(names):
        texts = list(sim.relation_texts(name))
        want = (w @ sim.encode(emb, texts).T).max(axis=1)
        assert np.allclose(got[:, j], want, atol=1e-6), name
    assert sim._name_cosines(emb, words, names) is got  # memoised for the question


def test_a_vocabularys_other_texts_are_memoised_and_copies_start_afresh():
    from byokg.graph.vocabulary import Vocabulary

    voc = Vocabulary()
    first = voc.other_texts("place_of_birth")
    assert first == ()  # no lexicon or LLM phrases: only the name's own
    assert voc._others == {"place_of_birth": ()}
    assert voc.model_copy()._others == {}
