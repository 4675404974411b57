"""A graph without labels types its nodes by the roles they play: the heads of ``chefAt``
are chefs, the tails of ``founded_by`` founders, the heads of ``dine.chef.kitchen`` chefs.
The offline reasoner reads the asked-for type ("which chefs", "who among the chefs")
against those roles, as it reads a typed graph's labels."""

from __future__ import annotations

import pytest
from byokg.plugins.offline.answer_types import role_nouns
from byokg.plugins.offline.units import structure

from byokg import graph_from_triplets
from byokg.language.analysis import analyze
from byokg.pipeline.engine import Engine

# chef, restaurant the chef cooks at, the chef's home town, the chef's mentor
CHEFS = [("Ida Marsh", "Casa Lumo", "Pellton", "Otto Vance"),
         ("Otto Vance", "Casa Lumo", "Drumford", None),
         ("Rosa Quill", "Taverna Kiro", "Pellton", "Otto Vance"),
         ("Sven Aalto", "Maison Bel", "Drumford", "Rosa Quill"),
         ("Nell Price", "Maison Bel", "Pellton", "Ida Marsh")]
# the cooking tradition of each chef: a kind many chefs share, named by no category word
TRADITIONS = {"Ida Marsh": "Basque", "Otto Vance": "Basque", "Rosa Quill": "Thai",
              "Sven Aalto": "Thai", "Nell Price": "Basque"}
# restaurant, its town, its signature dish
RESTAURANTS = [("Casa Lumo", "Drumford", "goulash"), ("Taverna Kiro", "Pellton", "ceviche"),
               ("Maison Bel", "Drumford", "ramen")]


def _kitchens(style: str) -> Engine:
    names = {"camel": ("chefAt", "hometownCity", "mentorChef", "restaurantCity", "famousDish"),
             "snake": ("chef_at", "hometown_city", "mentor_chef", "restaurant_city",
                       "famous_dish"),
             "dotted": ("dine.chef.kitchen", "dine.chef.origin", "dine.chef.apprenticeship",
                        "dine.restaurant.locality", "dine.restaurant.signature_dish")}[style]
    at, home, mentor, city, dish = names
    triples = []
    for chef, place, town, teacher in CHEFS:
        triples += [(chef, at, place), (chef, home, town)]
        if teacher:
            triples.append((chef, mentor, teacher))
    triples += [(chef, "cookingTradition" if style != "dotted" else "dine.chef.tradition", t)
                for chef, t in TRADITIONS.items()]
    for place, town, food in RESTAURANTS:
        triples += [(place, city, town), (place, dish, food)]
    return Engine(graph_from_triplets(triples, uri=f"memory:kitchens-{style}"))


@pytest.mark.parametrize(("relation", "head", "tail"), [
    ("chefAt", ("chef",), ()),  # "HEAD chef at TAIL"
    ("member_of", ("member",), ()),
    ("founded_by", (), ("founder",)),  # a passive's tail is its agent
    ("FOUNDED", ("founder",), ()),  # an active verb's head
    ("worksFor", ("worker",), ()),
    ("EMPLOYED_AT", (), ()),  # a participle's head is no employer
    ("dine.chef.kitchen", ("chef",), ("kitchen",)),  # a dotted name's type segment
    ("parent_company", ("subsidiary",), ("parent company",)),
])
def test_the_nouns_a_relation_calls_its_ends(relation, head, tail):
    assert role_nouns(relation, True) == head
    assert role_nouns(relation, False) == tail


@pytest.mark.parametrize(("question", "words"), [
    ("Who among the chefs was raised in Pellton?", ("chefs",)),
    ("Which one of the films did Vera Lind direct?", ("films",)),
    ("who of the actors starred in Harbor Lights", ("actors",)),
    ("Who among these pilots flies for Rani Air?", ("pilots",)),  # the verb ends the noun
    ("Which of the record labels signed Ada?", ("record", "labels")),
])
def test_a_partitive_names_the_asked_for_type(question, words):
    assert analyze(question).type_words == words


def test_the_partitive_says_no_relation():
    """"among" after the question word is no unit a relation could say."""
    q = "Who among the chefs was raised in Pellton?"
    start = q.index("Pellton")
    units = structure(analyze(q), {"Pellton": (start, start + 7)}, "chefs").units
    assert [u.text for u in units if u.kind == "type"] == ["chefs"]
    assert not any("among" in u.text for u in units)


@pytest.mark.parametrize("style", ["camel", "snake"])
def test_who_among_the_chefs_answers_chefs_not_their_restaurants(style):
    """"Who among the chefs was raised in the town Casa Lumo calls home": the chefs of
    Drumford. Walking on to the restaurants they cook at also says "chefs" (``chefAt``), but
    those ends play no chef's role; before, the longer chain won."""
    got = _kitchens(style).ask("Who among the chefs was raised in the town Casa Lumo calls home?")
    assert set(got.answers) == {"Otto Vance", "Sven Aalto"}


@pytest.mark.parametrize("style", ["camel", "snake", "dotted"])
def test_which_chefs_reads_the_roles_of_a_plain_graph(style):
    """"Which chefs trained under Otto Vance": the chefs he mentored, not where they cook."""
    got = _kitchens(style).ask("Which chefs were mentored by Otto Vance?")
    assert set(got.answers) == {"Ida Marsh", "Rosa Quill"}


@pytest.mark.parametrize("style", ["camel", "snake", "dotted"])
def test_what_kind_of_chef_ends_at_a_kind_by_the_graph_shape(style):
    """"What kind of chef is X": no relation is named by a category word, but the traditions
    are leaves that several chefs share along one relation and nothing else, unlike the
    restaurants (which lie in towns), the towns (two relations meet them) and the mentors."""
    assert _kitchens(style).ask("What kind of chef is Rosa Quill?").answers[:1] == ["Thai"]


@pytest.mark.parametrize(("question", "units"), [
    ("Who taught Ida Marsh to cook?", ["taught"]),  # the skill is no step of its own
    ("Whom did the cooks at Casa Lumo teach to cook?", ["cooks", "teach"]),
    ("What dishes is Ida Marsh certified to cook?", ["dishes", "certified", "cook"]),
])
def test_an_object_control_verb_takes_its_infinitive(question, units):
    """"who *taught* X to *cook*": the teaching is the relation; "certified to cook" keeps
    its verb (lexicon ``OBJECT_CONTROL_VERBS``)."""
    mention = next(m for m in ("Ida Marsh", "Casa Lumo") if m in question)
    start = question.index(mention)
    got = structure(analyze(question), {mention: (start, start + len(mention))}).units
    assert [u.text for u in got] == units


def test_who_taught_x_to_cook_is_the_teacher():
    """Before, "cook" took a step of its own: the teacher's restaurant (``cooksAt``)."""
    triples = [(c, "taughtBy", t) for c, _p, _h, t in CHEFS if t]
    triples += [(c, "cooksAt", p) for c, p, _h, _t in CHEFS]
    engine = Engine(graph_from_triplets(triples, uri="memory:taught-to-cook"))
    assert engine.ask("Who taught Nell Price to cook?").answers == ["Ida Marsh"]
