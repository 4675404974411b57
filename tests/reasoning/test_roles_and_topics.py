"""Words the graph's relation names do not spell, read from general English (the lexicon):
a preposition that is the predicate ("which songs are *about* X": a topic) and the verbs
of a performing role ("which songs *feature* X", "X *appears on* which songs" along
``performer``). Graphs of other domains than film: songs and research papers, where one
person stands at the end of several relations, so the wrong relation answers with other
songs or papers."""

from __future__ import annotations

import pytest
from byokg.backends.memory import MemoryGraph
from byokg.plugins.offline.units import structure

from byokg.language.analysis import analyze
from byokg.language.relwords import performer_role
from byokg.language.relwords import verbalize
from byokg.pipeline.engine import Engine

SONGS = [
    # song, performer, composer, theme
    ("Harbor Song", "Lena Park", "Omar Reyes", "the sea"),
    ("Glass Heart", "Omar Reyes", "Lena Park", "heartbreak"),
    ("Paper Moon Blues", "Ivo Kern", "Lena Park", "Lena Park"),
    ("Iron Meadow", "Lena Park", "Ivo Kern", "the sea"),
    ("Silent River", "Ada Brun", "Omar Reyes", "Omar Reyes"),
    ("Velvet Road", "Ivo Kern", "Ada Brun", "heartbreak"),
    ("Amber Coast", "Ada Brun", "Ivo Kern", "Lena Park"),
]
EPISODES = [
    # episode of a talk show, its guests, writer, producer
    ("Night Shift", ("Mara Holt", "Ben Ode"), "Ivo Kern", "Ada Brun"),
    ("Cold Open", ("Ivo Kern",), "Mara Holt", "Ada Brun"),
    ("Late Call", ("Ada Brun", "Mara Holt"), "Ben Ode", "Ivo Kern"),
    ("Dry Run", ("Ben Ode",), "Mara Holt", "Mara Holt"),
    ("Last Word", ("Ivo Kern",), "Ada Brun", "Mara Holt"),
]
PAPERS = [
    # paper, author, keyword, venue: Rosa Lind writes papers and is the subject of others
    ("On Planar Maps", "Rosa Lind", "graph colouring", "Discrete Letters"),
    ("Colouring Sparse Graphs", "Rosa Lind", "graph colouring", "Discrete Letters"),
    ("Fast Matchings", "Tomas Vik", "Rosa Lind", "Algorithms Today"),
    ("Matchings and Colourings", "Tomas Vik", "graph colouring", "Algorithms Today"),
    ("The Lind Conjecture", "Tomas Vik", "Rosa Lind", "Graph Notes"),
    ("Greedy Matchings", "Rosa Lind", "matching", "Graph Notes"),
]


def _songs(installed: str) -> Engine:
    triples = [t for s, p, w, th in SONGS
               for t in ((s, "performer", p), (s, "composer", w), (s, "theme", th))]
    return Engine(MemoryGraph.from_triplets(triples, uri=f"memory:songs-{installed}"))


def _episodes(installed: str) -> Engine:
    triples = [t for e, gs, w, p in EPISODES
               for t in ((e, "writtenBy", w), (e, "producer", p), *((e, "guests", g) for g in gs))]
    return Engine(MemoryGraph.from_triplets(triples, uri=f"memory:episodes-{installed}"))


def _papers(installed: str) -> Engine:
    triples = [t for p, a, k, v in PAPERS
               for t in ((p, "hasAuthor", a), (p, "keywords", k), (p, "publishedIn", v))]
    return Engine(MemoryGraph.from_triplets(triples, uri=f"memory:papers-{installed}"))


def _firsts(answer, n: int) -> set[str]:
    return set(answer.answers[:n])


def test_songs_about_a_person_walk_the_theme_not_the_performer(installed):
    """Lena Park performs, writes and is the theme of songs: *about* asks for the theme."""
    got = _songs(installed).ask("which songs are about Lena Park")
    assert _firsts(got, 2) == {"Paper Moon Blues", "Amber Coast"}, got.answers


def test_what_a_song_is_about_is_its_theme(installed):
    assert _songs(installed).ask("what is Glass Heart about").answers[:1] == ["heartbreak"]


@pytest.mark.parametrize("question", ["which songs feature Lena Park",
                                      "Lena Park appears on which songs"])
def test_a_performing_role_says_its_verbs(question, installed):
    """*feature* and *appears* are neither ``performer`` nor ``composer`` by their letters;
    the performing role's verbs say ``performer``."""
    got = _songs(installed).ask(question)
    assert _firsts(got, 2) == {"Harbor Song", "Iron Meadow"}, got.answers


@pytest.mark.parametrize("question", ["which episodes feature Mara Holt",
                                      "Mara Holt appears in which episodes"])
def test_guests_appear_in_episodes(question, installed):
    """Mara Holt is a guest of two episodes, the writer of two and the producer of two."""
    got = _episodes(installed).ask(question)
    assert _firsts(got, 2) == {"Night Shift", "Late Call"}, got.answers


def test_papers_about_a_person_walk_the_keywords_not_the_author(installed):
    got = _papers(installed).ask("which papers are about Rosa Lind")
    assert _firsts(got, 2) == {"Fast Matchings", "The Lind Conjecture"}, got.answers


def test_about_is_a_unit_only_as_the_predicate():
    """"about X" and "X … about" give a topic unit; "about 500" (roughly) and a verb's own
    preposition ("what did X write about") do not."""
    def implied(question: str, mention: str) -> list[str]:
        at = question.index(mention)
        st = structure(analyze(question), {mention: (at, at + len(mention))})
        return [u.text for u in st.units if u.by_preposition]

    assert implied("which songs are about Lena Park", "Lena Park") == ["topic"]
    assert implied("what is Glass Heart about", "Glass Heart") == ["topic"]
    assert implied("which songs last about 500 seconds", "songs") == []
    assert implied("what did Lena Park write about", "Lena Park") == []


def test_the_head_of_a_relational_noun_phrase_is_its_last_word():
    assert analyze("what is the primary language of Silent River").type_words == ("language",)
    assert analyze("what is the movie Velvet Road about").type_words == ("movie",)


@pytest.mark.parametrize("name", ["performer", "starringActors", "guests", "performer_of"])
def test_a_performing_role_is_recognised(name):
    """Its verbs both ways are rows of tests/reasoning/test_relwords.py::test_both_directions."""
    assert performer_role(name)


@pytest.mark.parametrize("name", ["star", "composer", "member_of", "ACTED_IN", "author"])
def test_other_nouns_get_no_performing_verbs(name):
    p = verbalize(name)
    assert "features" not in (*p.forward, *p.backward), p
