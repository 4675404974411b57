"""Three readings of English the offline scorer gets from the lexicon and the relation's
grammar, on graphs this test writes, with both installs: an idiom reads as the noun it means
(lexicon ``IDIOMS``: "do *for a living*" is an occupation, not where one lives), a type word
before a passive is the verb's object, which no relation need say ("which *label* was X
released on"),
and a noun for the doer or the one done to of a verb-named relation tells which way to walk
it ("the *mentees* of X" along ``mentored_by``: its heads)."""

from __future__ import annotations

import pytest
from byokg.plugins.offline.chains import verb_noun_side
from byokg.plugins.offline.units import structure

from byokg import graph_from_triplets
from byokg.language.analysis import analyze
from byokg.pipeline.engine import Engine


def _units(question: str, mention: str, type_word: str | None = None):
    at = question.index(mention)
    return structure(analyze(question), {mention: (at, at + len(mention))}, type_word).units


@pytest.mark.parametrize(("question", "meaning", "gone"), [
    ("What does Ada Wren do for a living?", "occupation", "living"),
    ("How does Ada Wren earn a living?", "occupation", "earn"),
    ("What does Ada Wren do for fun?", "hobby", "fun"),
    ("How does Ada Wren spend her free time?", "hobby", "free")])
def test_an_idiom_reads_as_the_noun_it_means(question, meaning, gone):
    units = _units(question, "Ada Wren")
    texts = [u.text for u in units]
    assert meaning in texts and not any(gone in u.words for u in units), texts
    assert next(u for u in units if u.text == meaning).noun


def test_living_outside_an_idiom_stays_a_verb():
    assert [u.text for u in _units("Where is Ada Wren living?", "Ada Wren")] == ["living"]


PEOPLE = [("Vera Lind", "mother", "Ana Lind"), ("Ana Lind", "profession", "pilot"),
          ("Ana Lind", "lives_in", "Oslo"), ("Vera Lind", "profession", "chemist"),
          ("Vera Lind", "lives_in", "Bergen"), ("Omar Cast", "profession", "farmer"),
          ("Omar Cast", "lives_in", "Oslo"), ("Vera Lind", "pastime", "chess"),
          ("Ana Lind", "pastime", "sailing"), ("Omar Cast", "pastime", "chess")]


@pytest.mark.parametrize(("question", "answer"), [
    ("What does Vera Lind do for a living?", "chemist"),
    ("What does the mother of Vera Lind do for a living?", "pilot"),
    ("How does Vera Lind earn a living?", "chemist"),
    ("What does Ana Lind do for fun?", "sailing"),
    ("Where does Vera Lind live?", "Bergen")])
def test_a_living_is_an_occupation(question, answer, installed):
    eng = Engine(graph_from_triplets(PEOPLE, uri=f"memory:living-{installed}"))
    assert eng.ask(question).answers[:1] == [answer]


@pytest.mark.parametrize(("question", "type_word", "verb_object"), [
    ("On which label was Ada Wren released?", "label", True),
    ("Which instrument is Ada Wren playing?", "instrument", True),
    ("In which country was Ada Wren born?", "country", True),
    ("What sex is Ada Wren 's daughter?", "sex", False),
    ("Which country is Ada Wren in?", "country", False)])
def test_a_type_word_before_a_passive_is_the_verbs_object(question, type_word, verb_object):
    typed = [u for u in _units(question, "Ada Wren", type_word) if u.kind == "type"]
    assert typed and typed[0].attribute and typed[0].verb_object is verb_object


# albums on labels, labels in cities (no node labels: the type word cannot be checked)
ALBUMS = [(f"Album {i}", "RELEASED_ON", lab) for i, lab in
          enumerate(["Kora Sounds", "Kora Sounds", "Veda Records", "Lumo Music"])] + [
    ("Kora Sounds", "BASED_IN", "Ricuford"), ("Veda Records", "BASED_IN", "Tapova"),
    ("Lumo Music", "BASED_IN", "Ricuford")]


def test_which_label_was_an_album_released_on(installed):
    eng = Engine(graph_from_triplets(ALBUMS, uri=f"memory:albums-{installed}"))
    assert eng.ask("On which label was Album 2 released?").answers[:1] == ["Veda Records"]


@pytest.mark.parametrize(("relation", "noun", "side"), [
    ("mentored_by", "mentees", -1), ("MENTORS", "mentees", 1), ("MENTORS", "mentor", -1),
    ("trainedBy", "trainer", 1), ("employs", "employee", 1), ("employs", "employers", -1),
    ("advisor", "advisee", 0),  # a noun-named relation: its end nouns tell
    ("REPORTS_TO", "reports", 0), ("works_for", "worker", 0)])  # a verb with a preposition
def test_a_doer_or_done_to_noun_names_an_end_of_a_verb_relation(relation, noun, side):
    assert verb_noun_side(relation, noun) == side


STAFF = [("Ines Moreau", "mentored_by", "Otto Brandt"), ("Luca Moreau", "mentored_by",
                                                         "Otto Brandt"),
         ("Otto Brandt", "mentored_by", "Rhea Novak"), ("Ines Moreau", "works_in", "Finance"),
         ("Luca Moreau", "works_in", "Legal"), ("Otto Brandt", "works_in", "Sales"),
         ("Rhea Novak", "works_in", "Sales")]


@pytest.mark.parametrize(("question", "answers"), [
    ("Who are the mentees of Otto Brandt?", {"Ines Moreau", "Luca Moreau"}),
    ("Which departments do the mentees of Otto Brandt work in?", {"Finance", "Legal"})])
def test_the_mentees_of_a_mentor_walk_mentored_by_backwards(question, answers, installed):
    eng = Engine(graph_from_triplets(STAFF, uri=f"memory:staff-{installed}"))
    assert set(eng.ask(question).answers[:2]) == answers
