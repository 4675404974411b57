"""Word forms the question reader and the relation-name reader get wrong by their endings
(issue 24q): a plural type word followed by its verb ("which *teams* play in X", "which
*people* come from X": irregular plurals too), a noun in *-eed* read as a past verb ("what
*creed*", "which *breed*"), a verb or a clause's subject read as the type word ("what *gets*
bottled", "what has *X* mounted", "what are *they* performing"), and a relation named by a
verb, its object and a preposition (``MAKES_WINE_FOR``) read as a noun "makes wine"; and a
type word a model puts near a label the dictionary calls someone ("what *illness*" and
Patient). Checked on a graph without labels the test writes, in two naming styles."""

from __future__ import annotations

import pytest
from byokg.plugins.offline.answer_types import role_nouns

from byokg import graph_from_triplets
from byokg.language.analysis import analyze
from byokg.language.relwords import base_verb
from byokg.language.relwords import regular_past
from byokg.language.relwords import verbalize
from byokg.models.similarity import relation_texts
from byokg.pipeline.engine import Engine


@pytest.mark.parametrize(("question", "type_words", "plural"), [
    # one plural, then its verb (the old reading took the verb into the type word)
    ("Which teams play in Lisbon?", ("teams",), True),
    ("Which children attend Eton?", ("children",), True),
    ("Which people come from Riya?", ("people",), True),
    # an irregular plural ends a compound as a regular one does
    ("Which famous people come from Riya?", ("famous", "people"), True),
    ("Which famous writers live in Riya?", ("famous", "writers"), True),
    ("Which women founded Acme?", ("women",), True),
    # nouns in -eed are no past forms: the type word is there
    ("What creed did Ada Brandt follow?", ("creed",), False),
    ("Which breed won the show?", ("breed",), False),
    # a verb right after the question word, or a clause's subject: no type word
    ("What gets bottled at Bodega Nero?", (), False),
    ("What goes into Tecu Rouge?", (), False),
    ("What has Rulu Repertory Company mounted?", (), False),
    ("What has Ada Brandt written?", (), False),
    ("What are they performing in Summer Premiere?", (), True),
    # a determiner after a singular noun's -s word makes it the verb
    ("Which winery grows its grapes in Cotes de Vabo?", ("winery",), False),
    ("Which ship flies the flag of Lupeora and was built in Riya?", ("ship",), False),
    # an irregular verb's -s form after a singular noun is its verb, whatever comes later
    ("Which pilot flies for Jumi Air and is qualified to fly the Petrel?", ("pilot",), False),
    # "wines" is no form of *win*: a plural noun, not a verb after the question word
    ("Which wines are aged in steel?", ("wines",), True),
    # unchanged: a compound of two plurals, and a singular noun's verb
    ("Which sports teams play in Lisbon?", ("sports", "teams"), True),
    ("Which ship hauls grain?", ("ship",), False),
    # a past form in a clause after "and" is that clause's verb, not the first clause's
    ("Which chef cooks at Maison Nami and spent their childhood in Ruyaford?", ("chef",),
     False),
])
def test_the_type_word_ends_where_its_verb_begins(question, type_words, plural):
    a = analyze(question)
    assert (a.type_words, a.plural) == (type_words, plural)


@pytest.mark.parametrize(("word", "past"), [
    ("creed", False), ("breed", False), ("speed", False), ("agreed", True), ("ordered", True),
    ("decreed", False), ("died", True), ("aged", True), ("shed", False), ("seed", False)])
def test_a_word_in_eed_is_a_past_form_only_after_a_verb_in_ee(word, past):
    assert regular_past(word) is past


@pytest.mark.parametrize(("form", "base"), [("died", "die"), ("aged", "age"), ("tied", "tie"),
                                           ("used", "use"), ("creed", None)])
def test_a_four_letter_past_lost_only_its_d(form, base):
    """A four-letter past form's base is the word without its *-d* (not "di", "ag")."""
    assert base_verb(form) == base


def test_a_noun_in_eed_names_no_agent():
    """``creed`` was read as the past of a verb *cre*, with the texts "crer of" and "cred by"."""
    assert base_verb("creed") is None
    assert relation_texts("creed") == ("creed",)
    assert verbalize("creed").form == "noun"


@pytest.mark.parametrize("name", ["MAKES_WINE_FOR", "makes_wine_for", "makesWineFor",
                                  "BEGAN_LIFE_IN", "holds_office_in"])
def test_a_verb_its_object_and_a_preposition_read_as_a_verb(name):
    """A name opening with its verb before its object and a preposition is a verb's frame: its
    heads are not called "makes wine" (the old noun reading, which made a winemaker a wine)."""
    p = verbalize(name)
    assert p.form == "verb_prep"
    assert not any(n.split()[0] in {"makes", "began", "holds"} for n in role_nouns(name, True))


def test_of_after_a_verb_and_its_object_stays_a_noun_reading():
    """``HOLDS_PASSPORT_OF``: "of" makes no verb frame of it (as ``head_coach_of``)."""
    assert verbalize("HOLDS_PASSPORT_OF").form == "noun_of"


# winemakers, the estates they make wine for, the wines, and what the wines are aged in
MAKES_FOR = {"Ada Brandt": "Bodega Nero", "Ivo Lenz": "Domaine Vava", "Uma Stoll": "Bodega Nero"}
BOTTLED = {"Tecu Rouge": "Bodega Nero", "Lumo Reserve": "Domaine Vava",
           "Raya Grand Vin": "Bodega Nero"}
MADE_BY = {"Tecu Rouge": "Ada Brandt", "Lumo Reserve": "Ivo Lenz", "Raya Grand Vin": "Uma Stoll"}
AGED = {"Tecu Rouge": "oak", "Lumo Reserve": "steel", "Raya Grand Vin": "steel"}
BORN = {"Ada Brandt": "Riya", "Ivo Lenz": "Marville", "Uma Stoll": "Riya"}
DIED = {"Ada Brandt": "Marville", "Ivo Lenz": "Riya", "Uma Stoll": "Marville"}


@pytest.mark.parametrize("names", [
    ("MAKES_WINE_FOR", "BOTTLED_AT", "VINIFIED_BY", "AGED_IN", "HAILS_FROM", "DIED_IN"),
    ("makes_wine_for", "bottled_at", "vinified_by", "aged_in", "hails_from", "died_in")])
def test_plural_and_verb_questions_on_a_graph_without_labels(names):
    """"Which wines are aged in steel" reached the winemakers of those wines: the head of
    ``MAKES_WINE_FOR`` was read as a "makes wine", so winemakers looked like wines. "Which
    famous people come from Riya" took "come" into the type word and went on to another
    relation."""
    makes, bottled, made_by, aged, born, died = names
    triples = [(p, makes, e) for p, e in MAKES_FOR.items()]
    triples += [(w, bottled, e) for w, e in BOTTLED.items()]
    triples += [(w, made_by, p) for w, p in MADE_BY.items()]
    triples += [(w, aged, v) for w, v in AGED.items()]
    triples += [(p, born, t) for p, t in BORN.items()]
    triples += [(p, died, t) for p, t in DIED.items()]
    eng = Engine(graph_from_triplets(triples, uri=f"memory:wine-{makes}"))
    a = eng.ask("Which wines are aged in steel?")
    assert set(a.answers[:2]) == {"Lumo Reserve", "Raya Grand Vin"}, a.answers[:3]
    a = eng.ask("Which famous people come from Riya?")
    assert set(a.answers[:2]) == {"Ada Brandt", "Uma Stoll"}, a.answers[:3]


def test_a_word_the_dictionary_knows_as_no_one_names_no_label_it_calls_someone():
    """"What *illness* does X have": a model puts *illness* nearest Patient (the old fit); the
    dictionary calls a patient someone and an illness no one, so Patient is not what is asked.
    "which *sufferer*" (someone) still fits it."""
    from byokg.plugins.offline.answer_types import expectation

    labels = ["Patient", "Doctor", "Condition", "City"]
    near = {"Patient": 0.9, "Doctor": 0.5, "Condition": 0.85, "City": 0.1}

    def sim(ws, labs):
        return {(w, lab): near[lab] for w in ws for lab in labs}

    got = expectation(analyze("What illness does Ada Brandt have?"), labels=labels, sim=sim)
    assert got.fitting_labels == ("Condition",)
    got = expectation(analyze("Which sufferer lives in Riya?"), labels=labels, sim=sim)
    assert "Patient" in got.fitting_labels


@pytest.mark.parametrize(("name", "agentive"), [
    ("theater", False), ("home_tower", False), ("hq_center", False),
    ("director", True), ("directed_by", True), ("sponsor", True)])
def test_a_place_is_no_agent_whatever_its_ending(name, agentive):
    """An *-er* noun the dictionary calls somewhere (*theater*, *tower*, *center*) names no
    agents: a "who" question is not answered with what it reaches."""
    from byokg.plugins.offline.answer_types import is_agentive

    assert is_agentive(name) is agentive


@pytest.mark.parametrize(("name", "agentive"), [
    ("gender", False), ("HAS_GENDER", False), ("jersey_number", False), ("headquarters", False),
    ("career", False), ("founder", True), ("publisher", True), ("supplier", True)])
def test_a_word_the_dictionary_knows_as_no_doer_is_no_agent(name, agentive):
    """An *-er* noun none of whose first two senses WordNet files under people or groups
    (*gender*, *number*, *headquarters*) names no agents; *founder* (a person in its second
    sense) and *publisher* (a firm) do (``not_agents.txt.gz``)."""
    from byokg.plugins.offline.answer_types import is_agentive

    assert is_agentive(name) is agentive


def test_who_is_not_answered_with_a_gender_or_a_headquarters(installed):
    """On a graph without labels, *who* fits what an agent noun's relation reaches: the
    partner, not the gender or the headquarters whose *-er* ending once made them agents."""
    triples = [("Ada Vell", "gender", "female"), ("Bo Rask", "gender", "male"),
               ("Ada Vell", "number", "7"), ("Ada Vell", "partner", "Bo Rask"),
               ("Cy Moll", "gender", "male"), ("Cy Moll", "partner", "Di Sand"),
               ("Ada Vell", "headquarters", "Oslo"), ("Cy Moll", "headquarters", "Lima")]
    eng = Engine(graph_from_triplets(triples, uri=f"memory:doers-{installed}"))
    assert eng.ask("Who is with Ada Vell?").answers == ["Bo Rask"]


@pytest.mark.parametrize(("short", "long", "same"), [
    ("film", "filmmaker", False), ("head", "headquarters", False), ("team", "teammate", False),
    ("home", "hometown", False), ("work", "workplace", False),
    # derived words, and endings that are words too, keep their root
    ("owner", "ownership", True), ("member", "membership", True), ("direct", "director", True),
    ("film", "filmography", True), ("nation", "nationality", True)])
def test_a_compound_is_not_its_first_word_by_letters(short, long, same):
    """A compound names what its last word does (a *filmmaker* is a maker, *headquarters*
    quarters): the letters it shares with its first word are no shared root, so "which
    *films*" does not find ``filmmaker`` by them."""
    from byokg.language.analysis import SAME_WORD
    from byokg.language.analysis import term_sim
    from byokg.language.text import stem
    from byokg.language.thesaurus import names_by_letters

    assert (term_sim(stem(short), stem(long)) >= SAME_WORD) is same
    assert (names_by_letters((short,), long) > 0) is same


@pytest.mark.parametrize(("type_words", "head"), [
    (("record", "company"), "company"), (("programming", "language"), "language"),
    (("prime", "crew", "member"), "member"), (("fashion", "houses"), "houses"),
    # a verb the type words ran into is no head ("which yard laid down …")
    (("yard", "laid"), "yard"), (("court", "heard"), "court")])
def test_a_compounds_head_is_its_last_noun(type_words, head):
    from byokg.plugins.offline.answer_types import type_head

    assert type_head(type_words, []) == head


def test_the_other_words_of_the_type_phrase_say_no_step():
    """"Which *record* company released X": *record* names the answer's class with
    *company* (``in_type``), so no step has to say it, and the chain through
    ``recorded_in`` that does is not the answer; a verb the type words ran into ("which
    court *heard*") is no such word."""
    from byokg.plugins.offline.units import structure

    marked = {u.text: u.in_type for u in structure(
        analyze("Which record company released Low Tide?"), {"Low Tide": (30, 38)},
        "company").units}
    assert marked == {"record": True, "company": False, "released": False}
    heard = [u for u in structure(analyze("Which court heard the cases Otto Petrov heard?"),
                                  {}, "court").units if "heard" in u.words]
    assert heard and not any(u.in_type for u in heard)
    albums = [("Blue Hours", "Sable Records", "Turin"), ("Low Tide", "Marrow Music", "Porto"),
              ("Glass Rain", "Sable Records", "Turin"), ("Iron Bloom", "Marrow Music", "Porto")]
    triples = [t for a, label, city in albums for t in (
        (a, "released_on", label), (label, "headquartered_in", city), (a, "recorded_in", city))]
    engine = Engine(graph_from_triplets(triples, uri="memory:record-company"))
    assert engine.ask("Which record company released Low Tide?").answers[:1] == ["Marrow Music"]
