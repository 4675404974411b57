"""Shapes of English questions the offline reasoner reads (issue 24p): a type word's compound
ends at its plural ("which *fashion houses* are …", "which *ship* hauls grain …"), a type
word that is the object of a predicate noun's preposition ("which *city* is X a native of"),
the question's own verb placing an inner step ("what orbit did X *fly*"), irregular verbs in
relation names (``FLEW_ABOARD`` is *fly*), a walk out and back that no sharing word asks for,
and a graph without labels whose names say what the nodes are ("… Dockyard"). Checked on
ferry, launch and guild graphs the tests write, typed and plain."""

from __future__ import annotations

import json

import pytest
from byokg.plugins.offline.answer_types import EndType
from byokg.plugins.offline.answer_types import Expectation
from byokg.plugins.offline.answer_types import type_match
from byokg.plugins.offline.chains import relation_verb
from byokg.plugins.offline.chains import verb_fit
from byokg.plugins.offline.weights import ChainWeights

from byokg import graph_from_triplets
from byokg.language.analysis import analyze
from byokg.pipeline.engine import Engine


@pytest.mark.parametrize(("question", "type_words"), [
    # an auxiliary after the plural: the plural is a noun, not a verb of "fashion"
    ("Which fashion houses are based in Lisbon?", ("fashion", "houses")),
    ("Which record labels have signed Ada Brandt?", ("record", "labels")),
    # a word after the plural: the plural after a singular noun is its verb
    ("Which ship hauls grain and is captained by Ada Brandt?", ("ship",)),
    ("Which museum houses paintings painted by Ada Brandt?", ("museum",)),
    ("Which sports teams play in Lisbon?", ("sports", "teams")),  # two plurals: a compound
    ("Which bus routes serve Lisbon?", ("bus", "routes")),  # "bus" is no plural
])
def test_a_type_words_compound_ends_at_its_plural(question, type_words):
    assert analyze(question).type_words == type_words


def _plain(triples, name):
    return Engine(graph_from_triplets(triples, uri=f"memory:{name}"))


# ferries, what they carry (lower-case kinds of cargo) and who skippers them
CARRIES = {"Kestrel": ("timber",), "Osprey": ("timber", "grain"), "Heron": ("grain",),
           "Plover": ("salt",)}
SKIPPER = {"Kestrel": "Ada Brandt", "Osprey": "Ada Brandt", "Heron": "Ivo Lenz",
           "Plover": "Ivo Lenz"}


@pytest.mark.parametrize("names", [("hauls", "skippered_by"), ("HAULS", "SKIPPERED_BY"),
                                   ("hauls", "skipperedBy")])
def test_a_conjunction_with_a_lower_case_kind_after_its_verb(names):
    """"Which ferry hauls *timber* and is skippered by X": *timber* is the first clause's
    entity, not part of the type word (the old reading took "ferry hauls timber" as the type
    word, dropped *timber* as a type word and answered *timber*, walked through X's ferries)."""
    carries, skipper = names
    triples = [(f, carries, c) for f, cs in CARRIES.items() for c in cs]
    triples += [(f, skipper, s) for f, s in SKIPPER.items()]
    eng = _plain(triples, f"ferries-{carries}-{skipper}")
    a = eng.ask("Which ferry hauls timber and is skippered by Ada Brandt?")
    assert set(a.answers[:2]) == {"Kestrel", "Osprey"}, a.answers[:3]
    a = eng.ask("Which ferry hauls grain and is skippered by Ivo Lenz?")
    assert a.answers[:1] == ["Heron"], a.answers[:3]


# people, the towns they come from, and the theatres of those towns
NATIVE = {"Ada Brandt": "Lorford", "Ivo Lenz": "Marville", "Uma Stoll": "Lorford"}
THEATRE_TOWN = {"Lorford Hippodrome": "Lorford", "Marville Lyceum": "Marville",
                "Lorford Playhouse": "Lorford"}
WROTE = {"The Gilded Cage": "Ada Brandt", "Salt and Iron": "Ivo Lenz"}


@pytest.mark.parametrize("names", [("ORIGINALLY_FROM", "HOUSED_IN", "AUTHORED_BY"),
                                   ("originally_from", "housed_in", "authored_by")])
def test_a_type_word_after_a_predicate_nouns_preposition(tmp_path, names):
    """"Which city is X a native of": the predicate noun *native* says the step and the type
    word is its preposition's object (like "which country is X in"). The owner's words say
    *city* for ``housed_in`` too: left over, the type word sent the answer on to the theatres
    of X's city (the old reading)."""
    from byokg.graph.open import open_graph

    native, housed, wrote = names
    triples = [(p, native, t) for p, t in NATIVE.items()]
    triples += [(th, housed, t) for th, t in THEATRE_TOWN.items()]
    triples += [(play, wrote, p) for play, p in WROTE.items()]
    graph = tmp_path / "natives.jsonl"
    graph.write_text("".join(json.dumps({"head": h, "relation": r, "tail": t}) + "\n"
                             for h, r, t in triples), encoding="utf-8")
    lex = tmp_path / "words.toml"
    lex.write_text(f'[relations.{native}]\nforward = ["native of", "hometown"]\n'
                   f'backward = ["natives"]\n'
                   f'[relations.{housed}]\nforward = ["in the city of", "city"]\n'
                   f'backward = ["theatres of the city"]\n', encoding="utf-8")
    with open_graph(f"memory:{graph}?lexicon={lex}") as store:
        eng = Engine(store)
        for person, town in NATIVE.items():
            a = eng.ask(f"Which city is {person} a native of?")
            assert a.answers[:1] == [town], (person, a.answers[:3])


def test_irregular_verbs_in_relation_names():
    """``FLEW_ABOARD``'s verb is *flew* (*aboard* ends the name as a preposition), the past of
    *fly*: the doer of "fly" is its head."""
    assert relation_verb("FLEW_ABOARD") == ("flew", False)
    assert relation_verb("namedAfter") == ("named", False)
    assert verb_fit(("FLEW_ABOARD", True), "fly", True, False) == 1.0  # to the flyers
    assert verb_fit(("FLEW_ABOARD", True), "fly", False, False) == -1.0
    assert verb_fit(("WROTE", True), "write", True, False) == 1.0


def _launches(tmp_path, upper: bool):
    """A typed launch graph: missions, their crews, commanders, orbits and rockets."""
    from byokg.graph.open import open_graph

    flew, cmd, orbit, rocket = (("FLEW_ABOARD", "COMMANDED_BY", "INSERTED_INTO", "LIFTED_BY")
                                if upper else
                                ("flew_aboard", "commanded_by", "inserted_into", "lifted_by"))
    missions = {"Rimo VIII": ("polar", "Kosi Lift", "Carla Roy", ["Carla Roy", "Tom Veit"]),
                "Lolo IV": ("geostationary", "Tana Heavy", "Tom Veit", ["Tom Veit"]),
                "Sane V": ("molniya", "Kosi Lift", "Uma Dorr", ["Uma Dorr", "Carla Roy"])}
    lines: list[dict] = []
    seen: set[str] = set()

    def node(i, label):
        if i not in seen:
            seen.add(i)
            lines.append({"id": i, "labels": [label]})

    for m, (orb, rock, boss, crew) in missions.items():
        node(m, "Mission")
        node(orb, "Orbit")
        node(rock, "Rocket")
        lines += [{"head": m, "relation": orbit, "tail": orb},
                  {"head": m, "relation": rocket, "tail": rock},
                  {"head": m, "relation": cmd, "tail": boss}]
        for c in crew:
            node(c, "Astronaut")
            lines.append({"head": c, "relation": flew, "tail": m})
    path = tmp_path / f"launches-{upper}.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return Engine(open_graph(f"memory:{path}"))


@pytest.mark.parametrize("upper", [True, False])
def test_the_question_verb_places_an_inner_step_too(tmp_path, upper):
    """"What orbit did Rimo VIII fly": *fly* says ``FLEW_ABOARD``, but walked from the mission
    it reaches the crew who flew it, not what the mission flew; the chain through the crew and
    their other missions' orbits lost to the mission's own orbit."""
    a = _launches(tmp_path, upper).ask("What orbit did Rimo VIII fly?")
    assert a.answers[:1] == ["polar"], a.answers[:3]


def test_a_walk_out_and_back_costs_more_than_it_gains_when_no_sharing_is_asked():
    """The mirror feature: +1 when the question asks for sharing (bonus ``mirror``), -1
    otherwise (cost ``mirror_cost``, larger: an unasked out-and-back added a leg to answers)."""
    w = ChainWeights()
    assert w.mirror_cost > w.mirror
    assert w.combine({"mirror": 1.0}) == pytest.approx(w.mirror)
    assert w.combine({"mirror": -1.0}) == pytest.approx(-w.mirror_cost)


@pytest.mark.parametrize("embedder", ["static"])
def test_names_that_end_in_a_kind_type_a_plain_graph(embedder):
    """No labels: most ends called "… Dockyard", "… Shipbuilding", "… Shipyard" are what
    "which shipyard" asks for; people's names say nothing of it."""
    from byokg.config import RunConfig
    from byokg.models.services import Services
    from byokg.models.similarity import Similarity

    sim = Similarity(analyze("which shipyard built X?"), Services(RunConfig(embedder=embedder)))
    exp = Expectation(kind="thing", type_words=("shipyard",))
    yards = EndType(nouns=("BUILT_AT",), name_heads=("dockyard", "shipbuilding", "shipyard"))
    people = EndType(nouns=("SKIPPERED_BY",), name_heads=("brandt", "lenz", "stoll"))
    assert type_match(exp, yards, sim.phrase_similarity) >= 0.6
    assert type_match(exp, people, sim.phrase_similarity) == 0.0


# fashion houses, the city each is based in, and the collections from each house
SEAT = {"House of Wabe": "Lorford", "Tuso Couture": "Lorford", "Atelier Mifa": "Marville"}
FROM_HOUSE = {"Fari Pre-Fall 2010": "House of Wabe", "Kabe Resort 2020": "Atelier Mifa",
              "Lobo Cruise 2001": "Tuso Couture"}


@pytest.mark.parametrize("names", [("hqCity", "fromHouse"), ("hq_city", "from_house")])
def test_a_compounds_plural_is_its_head_and_no_end_walked_away_from(names):
    """"Which fashion *houses* are based in X" on a graph without labels: the compound's head
    is its plural (the old reading took *fashion*), and walking ``fromHouse`` back from the
    houses reaches what is from a house, not a house."""
    seat, from_house = names
    triples = [(h, seat, c) for h, c in SEAT.items()]
    triples += [(c, from_house, h) for c, h in FROM_HOUSE.items()]
    eng = _plain(triples, f"houses-{seat}")
    a = eng.ask("Which fashion houses are based in Lorford?")
    assert set(a.answers[:2]) == {"House of Wabe", "Tuso Couture"}, a.answers[:3]
    from byokg.plugins.offline.answer_types import type_head
    assert type_head(["fashion", "houses"], []) == "houses"
    # a singular compound's head is its last noun too (issue 24s: "which record *company*")
    assert type_head(["instrument", "family"], []) == "family"
