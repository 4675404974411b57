"""Relational nouns that name a chain of one relation taken again (lexicon
``COMPOSED_RELATIONAL_NOUNS``: a *grandparent* is a parent's parent) and do-support after
*where* / *when* ("where does X 's grandmother *live*": the verb is a unit of its own), on a
family graph this test writes, with both installs."""

from __future__ import annotations

import pytest
from byokg.plugins.offline.units import structure

from byokg import graph_from_triplets
from byokg.language.analysis import analyze
from byokg.language.relwords import composed
from byokg.language.relwords import names_noun
from byokg.pipeline.engine import Engine


@pytest.mark.parametrize(("phrase", "steps"), [
    ("grandfather", ("parent", "parent")), ("grandmothers", ("parent", "parent")),
    ("grandchildren", ("child", "child")), ("Grandson", ("child", "child")),
    ("great granddaughter", ("child", "child", "child")), ("parent", ()), ("uncle", ())])
def test_a_composed_noun_names_its_steps(phrase, steps):
    assert composed(phrase) == steps


@pytest.mark.parametrize(("phrase", "relation", "names"), [
    ("grandfather", "grandparent_of", True), ("grandchildren", "hasGrandchild", True),
    ("grandmother", "GRANDCHILDREN", True),  # the converse, walked backwards
    ("grandfather", "parent", False), ("grandchildren", "children", False)])
def test_a_relation_named_by_the_noun_itself(phrase, relation, names):
    assert names_noun(phrase, relation) is names


@pytest.mark.parametrize(("question", "noun", "verb"), [
    ("Where does Ada 's grandmother live?", "grandmother", "live"),
    ("When did Ada 's father die?", "father", "die"),
    ("Where does the mentor of Ada work?", "mentor", "work")])
def test_do_support_after_where_and_when_splits_the_verb(question, noun, verb):
    at = question.index("Ada")
    texts = [u.text for u in structure(analyze(question), {"Ada": (at, at + 3)}).units]
    assert noun in texts and verb in texts


# four generations: each person's parent is the next one
FAMILY = [("Ada Wren", "parent", "Bo Wren"), ("Bo Wren", "parent", "Cy Wren"),
          ("Cy Wren", "parent", "Di Wren"), ("Ada Wren", "lives_in", "Rome"),
          ("Bo Wren", "lives_in", "Oslo"), ("Cy Wren", "lives_in", "Lima"),
          ("Di Wren", "lives_in", "Quito")]


@pytest.mark.parametrize(("question", "answer"), [
    ("Who is the grandparent of Ada Wren?", ["Cy Wren"]),
    ("Who are the grandchildren of Cy Wren?", ["Ada Wren"]),
    ("Who is Ada Wren 's great grandfather?", ["Di Wren"]),
    ("Where does Ada Wren 's grandmother live?", ["Lima"]),
    ("Where does the grandfather of Bo Wren live?", ["Quito"]),
    ("Who is the parent of Ada Wren?", ["Bo Wren"])])
def test_grandparents_are_parents_of_parents(question, answer, installed):
    eng = Engine(graph_from_triplets(FAMILY, uri=f"memory:kin-{installed}"))
    assert eng.ask(question).answers[:1] == answer


def test_a_graph_that_names_the_noun_keeps_it_whole(installed):
    """With a ``grandparent`` relation of its own, "grandfather" says it in one step (its
    values here differ from the parents' parents, so the two readings answer apart)."""
    triples = [*FAMILY, ("Ada Wren", "grandparent", "Eve Moss")]
    eng = Engine(graph_from_triplets(triples, uri=f"memory:kin-own-{installed}"))
    assert eng.ask("Who is the grandfather of Ada Wren?").answers[:1] == ["Eve Moss"]


# --------------------------------------------------------------------------- who did what


@pytest.mark.parametrize(("verb", "noun", "role"), [
    ("raised", "parent", "agent"), ("founded", "founder", "agent"), ("employs", "employer", "agent"),
    ("employed", "employee", "patient"), ("mentored", "mentee", "patient"),
    ("supervised", "supervisor", "agent"), ("raised", "children", None),
    ("directed", "direction", None)])
def test_a_noun_names_the_doer_or_the_done_to_of_a_verb(verb, noun, role):
    from byokg.language.relwords import verb_role

    assert verb_role(verb, noun) == role


# parent -> child edges in two namings: the relation names the child (``children``,
# ``PARENT_OF`` read as "parent of" the tail)
KIDS = [("Ada Wren", "Bo Wren"), ("Ada Wren", "Cleo Wren"), ("Bo Wren", "Dan Wren"),
        ("Eve Moss", "Bo Wren")]


@pytest.mark.parametrize("name", ["children", "PARENT_OF", "hasChild"])
@pytest.mark.parametrize(("question", "answer"), [
    ("Who raised Bo Wren?", {"Ada Wren", "Eve Moss"}),
    ("Who did Bo Wren raise?", {"Dan Wren"})])
def test_the_verb_tells_which_way_a_noun_relation_is_walked(name, question, answer,
                                                             installed):
    """"raise": its doer is the *parent* (lexicon ``VERB_AGENT_NOUNS``), which ``children``
    reaches backwards; "who did X raise" asks for the one raised, forwards."""
    triples = [(p, name, c) for p, c in KIDS]
    eng = Engine(graph_from_triplets(triples, uri=f"memory:raise-{name}-{installed}"))
    got = eng.ask(question).answers
    assert got and got[0] in answer
