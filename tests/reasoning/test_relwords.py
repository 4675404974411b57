"""Relation verbalisation (byokg.language.relwords): one relation meaning written in every
naming style reads the same, both directions say the right thing, and labels fill in generic
names."""

from __future__ import annotations

import pytest

from byokg.language.relwords import agent_noun
from byokg.language.relwords import base_verb
from byokg.language.relwords import name_words
from byokg.language.relwords import participle
from byokg.language.relwords import past_tense
from byokg.language.relwords import subject_end
from byokg.language.relwords import verbalize


@pytest.mark.parametrize("name", ["place_of_birth", "placeOfBirth", "PLACE_OF_BIRTH",
                                  "people.person.place_of_birth", "place of birth",
                                  "place-of-birth", "http://example.org/onto#placeOfBirth"])
def test_every_naming_style_gives_the_same_words(name):
    assert name_words(name)[1] == ("place", "of", "birth")
    got = verbalize(name)
    assert got.forward[0] == "place of birth"
    assert "born in" in got.forward  # the nominalisation says its verb
    assert got.backward[0] == "place of birth of"


@pytest.mark.parametrize("name", ["born_in", "bornIn", "BORN_IN", "born in", "wasBornIn"])
def test_born_in_reads_forward_and_backward(name):
    got = verbalize(name)
    assert got.form == "verb_prep"
    assert got.forward[0] == "born in"
    assert "birthplace of" in got.backward


def test_dotted_type_segment_is_the_domain():
    got = verbalize("people.person.place_of_birth")
    assert got.domain == "person"
    assert name_words("film.film.directed_by") == (("film",), ("directed", "by"))


@pytest.mark.parametrize("name,fwd,bwd", [
    ("directed_by", "directed by", "director of"),
    ("writtenBy", "written by", "wrote"),
    ("wrote", "writer of", "written by"),
    ("DIRECTED", "director of", "directed by"),
    ("hasAuthor", "has author", "author of"),
    ("author_of", "author of", "has author"),
    ("ORBITS", "orbits", "orbited by"),
    ("founded_by", "founded by", "founder of"),
    ("director", "has director", "director of"),
    ("producer", "producer", "produced"),
    ("ACTED_IN", "acted in", "has actor"),
    ("worksFor", "works for", "has worker"),
    ("isPartOf", "part of", "has part"),
    ("starring", "starring", "starred in"),
    ("speaks_language", "speaks language", "language spoken by"),
    # a performing role reads the verbs it does in a work, both ways
    ("performer", "features", "appears in"),
    ("starringActors", "features", "appears in"),
    ("guests", "features", "appears in"),
    ("performer_of", "appears in", "features"),
])
def test_both_directions(name, fwd, bwd):
    got = verbalize(name)
    assert fwd in got.forward, got
    assert bwd in got.backward, got
    assert got.along(False) == got.forward and got.along(True) == got.backward


@pytest.mark.parametrize("name", ["spouse", "people.person.spouse_s", "SIBLING", "partner"])
def test_symmetric_nouns_read_both_ways(name):
    got = verbalize(name)
    word = got.words[-1]
    assert f"{word} of" in got.forward and f"{word} of" in got.backward
    assert word in got.forward and word in got.backward


def test_generic_names_take_their_meaning_from_the_labels():
    got = verbalize("HAS", "Film", "Genre")
    assert got.form == "generic"
    assert "has genre" in got.forward and "genre of" in got.backward
    assert verbalize("IN_GENRE", "Movie", "Genre").backward == ("genre of",)
    # labels in any style are read like names
    assert verbalize("RELATED_TO", "FilmDirector", "award_category").range == "award category"


def test_labels_type_a_verb_phrase():
    got = verbalize("BORN_IN", "Person", "City")
    assert "born in city" in got.forward
    assert "birthplace of person" in got.backward
    assert "won prize" in verbalize("WON", "Scholar", "Prize").forward


def test_a_participle_before_a_noun_is_an_adjective_not_a_verb():
    assert verbalize("knownName").form == "noun"
    assert verbalize("starred_actors").form == "noun"
    assert verbalize("won_award").form == "verb"


def test_opaque_ids_pass_through():
    got = verbalize("P31")
    assert got.form == "opaque" and got.forward == got.backward == ("p 31",)


@pytest.mark.parametrize("base,past,pp,agent", [
    ("write", "wrote", "written", "writer"), ("direct", "directed", "directed", "director"),
    ("marry", "married", "married", "marrier"), ("star", "starred", "starred", "starrer"),
    ("create", "created", "created", "creator"), ("win", "won", "won", "winner"),
    ("act", "acted", "acted", "actor"), ("produce", "produced", "produced", "producer"),
])
def test_morphology(base, past, pp, agent):
    assert past_tense(base) == past and participle(base) == pp and agent_noun(base) == agent
    assert base_verb(past) == base and base_verb(pp) == base


def test_base_verb_of_other_forms():
    assert base_verb("orbits") == "orbit"
    assert base_verb("starring") == "star"
    assert base_verb("composed") == "compose"
    assert base_verb("parents") is None  # not a verb


@pytest.mark.parametrize("name,end", [
    ("team", "head"), ("sport.athlete.team", "head"), ("MEMBER_OF", "head"),
    ("memberOf", "head"), ("COMES_FROM", "head"), ("scholar.researcher.affiliation", "head"),
    ("home_venue", "head"),
    # English does not tell: plural, symmetric and converse nouns, agent nouns, passives,
    # bare verbs (the film *stars* the actor; the actor *stars in* the film)
    ("members", None), ("spouse", None), ("child", None), ("employer", None),
    ("actor", None), ("screenwriter", None), ("head_coach", None), ("directedBy", None),
    ("starring", None), ("ORBITS", None), ("related_to", None),
])
def test_which_end_of_a_relation_the_subject_of_a_prepositional_verb_stands_at(name, end):
    assert subject_end(name) == end
