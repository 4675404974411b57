"""The question's units of meaning (plugins/offline/units.py) and the English relational-noun
knowledge the scorer reads (byokg.language.relwords): pure grammar, no graph and no model."""

from __future__ import annotations

import pytest
from byokg.plugins.offline.units import structure

from byokg.language.analysis import analyze
from byokg.language.relwords import converse_noun
from byokg.language.relwords import end_nouns
from byokg.language.relwords import hypernym
from byokg.language.relwords import verbalize


def _units(question: str, *mentions: str, type_word: str | None = None):
    spans = {m: (question.index(m), question.index(m) + len(m)) for m in mentions}
    return structure(analyze(question), spans, type_word)


def _by_text(st):
    return {u.text: u for u in st.units}


def _order(st, mention: str) -> list[str]:
    owned = st.of(mention)
    return [st.units[k].text for k in sorted(owned, key=owned.get)]


@pytest.mark.parametrize("question,first,second", [
    ("What is Ada Brandt 's partner 's trade?", "partner", "trade"),
    ("What is the trade of the partner of Ada Brandt?", "partner", "trade"),
    ("What is the trade of Ada Brandt 's partner?", "partner", "trade"),
])
def test_the_hop_nearest_the_mention_comes_first(question, first, second):
    got = _order(_units(question, "Ada Brandt"), "Ada Brandt")
    assert got.index(first) < got.index(second)


def test_a_relative_clause_names_its_head_and_takes_the_verb_first():
    st = _units("Who is married to the person Ada Brandt raised?", "Ada Brandt")
    units = _by_text(st)
    assert units["person"].kind == "head"  # the noun the clause qualifies: no step takes it
    got = _order(st, "Ada Brandt")
    assert got.index("raised") < got.index("married")


@pytest.mark.parametrize("question,head,verb", [
    ("who sang on the other albums by the producer of Harbor Lights", "albums", "sang"),
    ("which years were the ships carrying crews with Harbor Lights launched", "ships",
     "launched"),
    ("which person painted murals that share colours with Harbor Lights", "murals", "painted"),
])
def test_a_noun_a_participle_or_an_agent_qualifies_is_a_head(question, head, verb):
    """The class a chain walks through ("the other *albums* by …", "the *ships* carrying
    …", "*murals* that share …") is no hop; a verb written before it stays a unit."""
    units = _by_text(_units(question, "Harbor Lights"))
    assert units[head].kind == "head"
    assert units[verb].kind == "plain"
    units = _by_text(_units("who sang on the albums of Harbor Lights", "Harbor Lights"))
    assert units["albums"].kind == "plain" and units["albums"].noun


def test_a_relational_noun_is_marked():
    units = _by_text(_units("Who are the parents of Ada Brandt?", "Ada Brandt"))
    assert units["parents"].noun
    units = _by_text(_units("Who directed Ada Brandt?", "Ada Brandt"))
    assert not units["directed"].noun


def test_the_noun_after_what_kind_of_is_no_relation():
    units = _by_text(_units("what sort of movie is Harbor Lights", "Harbor Lights"))
    assert units["movie"].kind == "head"
    units = _by_text(_units("what is the movie of Harbor Lights", "Harbor Lights"))
    assert units["movie"].kind == "plain"


def test_a_verb_and_its_object_are_one_unit():
    units = _by_text(_units("who wrote the screenplay for Harbor Lights", "Harbor Lights"))
    assert "wrote the screenplay" in units and units["wrote the screenplay"].words == (
        "wrote", "screenplay")
    # a verb's present tense too ("runs", "manages": base_verb knows them)
    for q, verb in (("which chef runs the kitchen at Maison Nami", "runs the kitchen"),
                    ("who manages the team at Ada Works", "manages the team")):
        units = _by_text(_units(q, q.split(" at ")[1]))
        assert verb in units, list(units)
    # a plural noun before an article is no verb ("the works the museum holds" has a mention
    # after the article): only a word base_verb reads as a verb's form joins its object
    units = _by_text(_units("which kitchens the chef Ada Brandt likes", "Ada Brandt"))
    assert not any(t.startswith("kitchens the") for t in units)
    # people as the object name a hop of their own: X's researchers, then their mentor
    units = _by_text(_units("who mentored the researchers at Vale University",
                            "Vale University"))
    assert "mentored" in units and "researchers" in units, list(units)
    # a relational noun after the verb stays a unit of its own (a hop of its own)
    units = _by_text(_units("who married the mother of Ada Brandt", "Ada Brandt"))
    assert "married" in units and "mother" in units


def test_each_clause_belongs_to_its_own_mention():
    q = "Which person was born in Lituford and is married to Ada Brandt?"
    st = _units(q, "Lituford", "Ada Brandt", type_word="person")
    assert "born" in _order(st, "Lituford") and "born" not in _order(st, "Ada Brandt")
    assert "married" in _order(st, "Ada Brandt") and "married" not in _order(st, "Lituford")


def test_converse_relational_nouns_give_the_backward_reading():
    assert "parent" in converse_noun("children")
    assert "employee" in converse_noun("employer")
    assert converse_noun("genre") == ()
    assert "parent of" in verbalize("children").forward  # the head is the parent of the tail
    assert "parent" in end_nouns("children", True) and "child" not in end_nouns("children", True)
    assert hypernym("daughter") == "child" and hypernym("Mother") == "parent"
    assert hypernym("trade") is None


@pytest.mark.parametrize("question,mention,role", [
    ("Who plays for Orla Rovers?", "Orla Rovers", "subject"),
    ("Which album came out on Belo Records?", "Belo Records", "subject"),
    ("Where does Ines Varga play?", "Ines Varga", "object"),
    ("Which band does Ines Varga play in?", "Ines Varga", "object"),
    ("In which city was Ines Varga born?", "Ines Varga", "object"),
    ("Where is Vale Park?", "Vale Park", "object"),
    # no preposition, a passive's agent, a relative clause's preposition, no verb
    ("Who directed Vale Park?", "Vale Park", None),
    ("Who was Vale Park directed by?", "Vale Park", None),
    ("Which researchers are employed by the school Ines Varga graduated from?", "Ines Varga",
     None),
    ("What are the primary languages in the movies starred by Ines Varga?", "Ines Varga", None),
    ("What is the hometown of Ines Varga?", "Ines Varga", None),
])
def test_the_role_a_prepositional_verb_asks_for(question, mention, role):
    from byokg.plugins.offline.answer_types import expectation
    from byokg.plugins.offline.chains import prepositional_role
    from byokg.plugins.offline.chains import question_verb

    from byokg.language.text import words
    a = analyze(question)
    mw = set(words(mention))
    verb, voice = question_verb(a, expectation(a, mw), mw)
    assert prepositional_role(a, mw, verb, voice) == role


@pytest.mark.parametrize("question,mention,implied", [
    ("Where is the university Vesna Lind works for?", "Vesna Lind", True),
    ("Where is the arena where Rugo Rovers plays?", "Rugo Rovers", True),
    ("Where is the stadium of Rugo Rovers?", "Rugo Rovers", True),
    ("Where was Vesna Lind born?", "Vesna Lind", False),  # the verb says it
])
def test_where_asks_for_a_place_beyond_a_relative_clause(question, mention, implied):
    """"Where is *the university X works for*": the verb after X is the relative clause's
    (a stranded preposition, or a relative word before X), so *where* still asks for the
    place of the university, a step of its own; "where was X *born*": the verb says it."""
    st = _units(question, mention)
    assert any(u.implied and not u.by_preposition for u in st.units) is implied


@pytest.mark.parametrize("question,kind", [
    ("Where did the person who wrote Tidal Notes study?", "place"),
    ("Who is the person who wrote Tidal Notes?", "person"),
    ("The person who wrote Tidal Notes was born when?", "date"),
])
def test_a_relative_pronoun_is_no_question_word(question, kind):
    assert analyze(question).kind == kind


@pytest.mark.parametrize(("question", "mention", "units"), [
    ("Who mentors the person Priya Okonkwo 's mentor reports to?", "Priya Okonkwo",
     ["mentor", "reports"]),
    ("Which company did the team Ada Brandt 's coach leads beat?", "Ada Brandt",
     ["coach", "leads"]),
])
def test_a_present_tense_after_a_singular_noun_is_a_verb_of_its_own(question, mention, units):
    """"X 's mentor *reports* to": the noun and the verb agreeing with it are two units (one
    step each), not one "mentor reports"."""
    texts = [u.text for u in _units(question, mention).units]
    assert all(t in texts for t in units)


@pytest.mark.parametrize("question", ["Which record labels did Ada Brandt sign with?",
                                      "Which home games did Ada Brandt watch?"])
def test_a_plural_noun_of_a_compound_is_no_verb(question):
    texts = [u.text for u in _units(question, "Ada Brandt").units]
    assert texts[0] in ("record labels", "home games")


def test_a_preposition_of_place_is_no_word_of_a_relation():
    """"the house *behind* X", "the harbours *along* the coast": the preposition joins no
    unit (it would be read as a word the relation has to say)."""
    texts = [u.text for u in _units("Which designers work at the house behind Lone Resort",
                                    "Lone Resort").units]
    assert "house" in texts and not any("behind" in t for t in texts), texts
    texts = [u.text for u in _units("Which boats call the harbours along Lodaland 's coast home?",
                                    "Lodaland").units]
    assert not any("along" in t for t in texts), texts


def test_the_object_of_a_do_support_have_is_an_attribute():
    """"what *illness* does X have": *have* says only that X has it, so the type word is X's
    attribute and may say the last step ("what *sex* is X" alike); "what *films* did X make"
    keeps *films* the answer's class."""
    st = _units("What illness does the patients living in Hiri have?", "Hiri",
                type_word="illness")
    assert [u.attribute for u in st.units if u.kind == "type"] == [True]
    st = _units("What films did Ada Brandt make?", "Ada Brandt", type_word="films")
    assert [u.attribute for u in st.units if u.kind == "type"] == [False]
