"""Which end of a relation a question asks for, by English grammar: the verb of a relative
clause ("the companies X *owns*": its objects; "the company that *owns* X": its subject), a
verb whose preposition puts its doer under it ("X *trained under* Y": Y trained X), a
question asking for a possessor ("*whose* pupil was X": X is the pupil), and what *where*
asks of a node its dictionary calls somewhere (a hospital). Checked on a workshop graph the
test writes in three naming styles, and on a typed clinic graph."""

from __future__ import annotations

import json

import pytest
from byokg.plugins.offline.chains import verb_fit
from byokg.plugins.offline.units import structure

from byokg import graph_from_triplets
from byokg.language.analysis import analyze
from byokg.language.thesaurus import names_a_place
from byokg.pipeline.engine import Engine

# (apprentice, master): the apprentice trained under the master
TRAINED = [("Mira Holt", "Ansel Roe"), ("Jon Pike", "Ansel Roe"), ("Ansel Roe", "Ode Rask"),
           ("Lea Frost", "Mira Holt")]
# (company, its owner)
OWNED = [("Tilly Works", "Brack Group"), ("Brack Group", "Orrin Holdings"),
         ("Vane Labs", "Orrin Holdings")]
FOUNDED = {"Tilly Works": "Mira Holt", "Vane Labs": "Jon Pike", "Brack Group": "Ansel Roe",
           "Orrin Holdings": "Abel Stone"}
MAKES = {"Tilly Works": "lanterns", "Vane Labs": "kettles", "Brack Group": "bells",
         "Orrin Holdings": "ropes"}
# (pupil, teacher) along a noun-named relation
TEACHER = [("Lea Frost", "Jon Pike"), ("Cara Dorn", "Lea Frost")]

STYLES = {"snake": ("trained_under", "owned_by", "founded_by", "makes", "teacher"),
          "upper": ("TRAINED_UNDER", "OWNED_BY", "FOUNDED_BY", "MAKES", "TEACHER"),
          "camel": ("trainedUnder", "ownedBy", "foundedBy", "makes", "teacher")}


def _workshop(style: str) -> Engine:
    trained, owned, founded, makes, teacher = STYLES[style]
    triples = [(a, trained, m) for a, m in TRAINED]
    triples += [(c, owned, o) for c, o in OWNED]
    triples += [(c, founded, p) for c, p in FOUNDED.items()]
    triples += [(c, makes, x) for c, x in MAKES.items()]
    triples += [(p, teacher, t) for p, t in TEACHER]
    return Engine(graph_from_triplets(triples, uri=f"memory:workshop-{style}"))


@pytest.fixture(scope="module", params=sorted(STYLES))
def workshop(request) -> Engine:
    return _workshop(request.param)


@pytest.mark.parametrize(("question", "gold"), [
    # "X trained under Y": who trained X is Y, whom Y trained are the X
    ("Who trained Mira Holt?", {"Ansel Roe"}),
    ("Whom did Ansel Roe train?", {"Mira Holt", "Jon Pike"}),
    ("Who trained under Ansel Roe?", {"Mira Holt", "Jon Pike"}),  # the name's own frame
    # a relative clause's verb: its objects after "X owns", its subject before "owns X"
    ("Who founded the company Brack Group owns?", {"Mira Holt"}),
    ("What does the company that owns Brack Group make?", {"ropes"}),
    # a possessor asked for: X is the pupil, the answer X's teacher
    ("Whose pupil was Lea Frost?", {"Jon Pike"}),
])
def test_grammar_says_which_end_is_asked(workshop, question, gold):
    a = workshop.ask(question)
    assert a.answers, question
    assert a.answers[0] in gold, (question, a.answers[:3])


def test_the_under_of_a_relation_name_puts_the_doer_at_its_tail():
    """``trained_under`` walked forwards reaches who trained its head; the question's own
    *under* keeps the name's frame (the heads are who trained under the tail)."""
    assert verb_fit(("trained_under", False), "trained", True, False) == 1.0
    assert verb_fit(("trained_under", True), "trained", True, False) == -1.0
    assert verb_fit(("trained_under", True), "trained", True, True) == 1.0
    assert verb_fit(("TRAINED_BY", False), "trained", True, False) == 1.0  # a passive
    assert verb_fit(("mentors", False), "trained", True, False) == 0.0  # another verb


def test_whose_marks_the_noun_the_mention_is():
    q = "Whose pupil was Lea Frost?"
    s = q.index("Lea")
    (unit,) = structure(analyze(q), {"Lea Frost": (s, s + 9)}).units
    assert unit.text == "pupil" and unit.noun and unit.possessed
    q = "Who is the pupil of Lea Frost?"
    s = q.index("Lea")
    units = structure(analyze(q), {"Lea Frost": (s, s + 9)}).units
    assert not any(u.possessed for u in units)
    assert analyze("Whose pupil was Lea Frost?").kind == "person"


@pytest.mark.parametrize(("noun", "place"), [
    ("hospital", True), ("Restaurant", True), ("main kitchen", True), ("airfield", True),
    ("specialty", False), ("dermatology", False), ("Person", False), ("genre", False),
    ("airline", False), ("unheard-of-word", False)])
def test_a_noun_defined_as_somewhere_is_a_place(noun, place):
    assert names_a_place(noun) is place


def test_where_asks_for_the_hospital_not_the_specialty(tmp_path):
    """A typed clinic graph: "where does X practise" reaches the Hospital, which WordNet
    defines as "a health facility *where* patients receive treatment", not the Specialty
    (along ``focus``: no name says *practise*, and the old reading took the specialty)."""
    from byokg.graph.open import open_graph

    docs = {"Dr Ama Vell": ("Fenwick Infirmary", "dermatology"),
            "Dr Cato Brill": ("Orla General", "cardiology"),
            "Dr Ines Moor": ("Fenwick Infirmary", "oncology")}
    lines = []
    for doc, (hosp, spec) in docs.items():
        for node, label in ((doc, "Doctor"), (hosp, "Hospital"), (spec, "Specialty")):
            lines.append({"id": node, "labels": [label]})
        lines += [{"head": doc, "relation": "hospital", "tail": hosp},
                  {"head": doc, "relation": "focus", "tail": spec}]
    path = tmp_path / "clinic.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    a = Engine(open_graph(f"memory:{path}")).ask("Where does Dr Cato Brill practise?")
    assert a.answers[:1] == ["Orla General"], a.answers[:3]


@pytest.mark.parametrize("embedder", ["lexical", "static"])
def test_a_converse_noun_names_the_other_end(embedder):
    """"The *teacher* of X" along ``residency_supervisor``: its ends are named "residency
    supervisor" forwards and "supervisee" / "student" backwards, and *teacher* is written like
    neither. Its converse, *student*, names the backward end, so *teacher* names the forward
    one, whatever a model of meaning puts near *teacher* (*student* is near it)."""
    from byokg.config import RunConfig
    from byokg.models.services import Services
    from byokg.models.similarity import Similarity

    sim = Similarity(analyze("where does the teacher of X work?"),
                     Services(RunConfig(embedder=embedder)))
    fwd, bwd = sim.noun_sides(["teacher"], "residency_supervisor")["teacher"]
    assert fwd > bwd
    fwd, bwd = sim.noun_sides(["student"], "residency_supervisor")["student"]
    assert bwd > fwd


# (pupil, the pilot the pupil learned from), each pilot's rank and faith
LEARNED = [("Ava Lind", "Ben Ruiz"), ("Cy Moss", "Ben Ruiz"), ("Ben Ruiz", "Dee Holm")]
RANK = {"Ava Lind": "first officer", "Cy Moss": "first officer", "Ben Ruiz": "captain",
        "Dee Holm": "commander"}
SCHOOL = {"snake": ("learned_from", "rank", "flight_instructor"),
          "upper": ("LEARNED_FROM", "HOLDS_RANK", "FLIGHT_INSTRUCTOR"),
          "camel": ("learnedFrom", "rank", "flightInstructor")}


@pytest.mark.parametrize("style", sorted(SCHOOL))
@pytest.mark.parametrize("instructor", [False, True])
def test_teaching_read_through_learning_and_instructors(style, instructor):
    """"X *learned from* Y" is "Y *taught* X" (lexicon ``CONVERSE_VERBS``), and the
    *instructor* of X is the one who taught X (``VERB_AGENT_NOUNS``): who taught X walks
    ``learned_from`` forwards, the students Y taught to fly backwards."""
    learned, rank, teacher = SCHOOL[style]
    rel = teacher if instructor else learned
    triples = [(p, rel, t) for p, t in LEARNED] + [(p, rank, r) for p, r in RANK.items()]
    eng = Engine(graph_from_triplets(triples, uri=f"memory:school-{style}-{instructor}"))
    a = eng.ask("Who taught Ben Ruiz to fly?")
    assert a.answers[:1] == ["Dee Holm"], a.answers[:3]
    a = eng.ask("How senior are the students Ben Ruiz taught to fly?")
    assert a.answers[:1] == ["first officer"], a.answers[:3]


def test_converse_verbs_place_the_doer():
    assert verb_fit(("learned_from", False), "taught", True, False) == 1.0
    assert verb_fit(("learned_from", True), "taught", True, False) == -1.0
    assert verb_fit(("BOUGHT_FROM", False), "sold", True, False) == 1.0  # the seller
    assert verb_fit(("flight_instructor", False), "taught", True, False) == 1.0


@pytest.mark.parametrize("relation", ["hasChild", "kin.person.children", "PARENT_OF"])
def test_a_kind_of_child_names_the_child_end(relation):
    """"X 's *daughter*" along a child relation: *daughter* is written like neither end's
    noun, its general noun *child* is (lexicon ``RELATIONAL_HYPERNYMS``)."""
    from byokg.config import RunConfig
    from byokg.models.services import Services
    from byokg.models.similarity import Similarity

    sim = Similarity(analyze("what faith does X 's daughter follow?"),
                     Services(RunConfig(embedder="static")))
    fwd, bwd = sim.noun_sides(["daughter"], relation)["daughter"]
    assert fwd > bwd


def test_a_doer_is_not_what_it_makes():
    """"Which painters …" on a graph of Artists and Paintings: no label is named by its
    letters, and a model of meaning puts *painters* nearest *Painting*; a label built on the
    type word's root as another word is not what it asks for."""
    from byokg.plugins.offline.answer_types import built_on
    from byokg.plugins.offline.answer_types import expectation

    from byokg.config import RunConfig
    from byokg.models.services import Services
    from byokg.models.similarity import Similarity

    assert built_on("painters", "painting") and built_on("filmmaker", "film")
    assert not built_on("cities", "city") and not built_on("painters", "artist")
    q = analyze("Which painters grew up in Oslo?")
    sim = Similarity(q, Services(RunConfig(embedder="static")))
    exp = expectation(q, {"oslo"}, labels=["Artist", "Painting", "City", "Museum"],
                      sim=sim.phrase_similarity)
    assert "Painting" not in exp.fitting_labels


def test_where_is_the_noun_of_x_asks_for_its_place(tmp_path):
    """"Where is the *stadium* of X": the stadium is somewhere, and the question asks where
    it is, one step on; the place *where* implies is no second name for the stadium's step."""
    from byokg.graph.open import open_graph

    teams = {"Tecu Falcons": ("Lulu Field", "Pellton"), "Rugo Rovers": ("Satu Park", "Drumford"),
             "Neda United": ("Lulu Field", "Pellton")}
    lines = []
    for team, (ground, town) in teams.items():
        lines += [{"id": team, "labels": ["Team"]}, {"id": ground, "labels": ["Stadium"]},
                  {"id": town, "labels": ["City"]},
                  {"head": team, "relation": "sport.team.home_venue", "tail": ground},
                  {"head": ground, "relation": "sport.stadium.city", "tail": town}]
    path = tmp_path / "grounds.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    eng = Engine(open_graph(f"memory:{path}"))
    a = eng.ask("Where is the stadium of Rugo Rovers?")
    assert a.answers[:1] == ["Drumford"], a.answers[:3]
    a = eng.ask("Where do Rugo Rovers play?")  # no noun before the place: the ground
    assert a.answers[:1] == ["Satu Park"], a.answers[:3]


@pytest.mark.parametrize(("question", "mention", "units"), [
    ("In what year did Mori Air start flying?", "Mori Air", ["year", "start"]),
    ("When did Kela Foods stop trading?", "Kela Foods", ["stop"]),
    ("When did Ada start the flying school?", "Ada", ["start", "flying", "school"]),
])
def test_an_aspectual_verbs_gerund_is_no_step(question, mention, units):
    at = question.index(mention)
    got = structure(analyze(question), {mention: (at, at + len(mention))}).units
    assert [u.text for u in got] == units


def test_when_an_airline_started_flying_is_its_founding():
    """"In what year did X start flying": the airline's founding year, not the pilots who
    fly for it (``flies_for`` says *flying* better than anything says *start*)."""
    triples = [("Ida Marsh", "flies_for", "Mori Air"), ("Otto Vance", "flies_for", "Mori Air"),
               ("Ida Marsh", "flight_instructor", "Otto Vance"),
               ("Mori Air", "year_founded", "1989"), ("Tede Jet", "year_founded", "1971"),
               ("Rosa Quill", "flies_for", "Tede Jet")]
    eng = Engine(graph_from_triplets(triples, uri="memory:airlines"))
    a = eng.ask("In what year did Mori Air start flying?")
    assert a.answers[:1] == ["1989"], a.answers[:3]


def test_who_asks_for_nodes_a_dictionary_calls_someone(tmp_path):
    """A typed clinic graph: *who* fits Patients ("a person who requires medical care") as
    well as Doctors, so "who does X treat" is not answered by X's supervisor just because
    no relation says *treat*. Only labels count (a relation's noun names no node itself)."""
    from byokg.graph.open import open_graph
    from byokg.language.thesaurus import names_a_person

    assert names_a_person("Patient") and names_a_person("pilot")
    assert not names_a_person("Airline") and not names_a_person("genre")
    patients = {"Una Reed": "Dr Ama Vell", "Tam Oakes": "Dr Ama Vell", "Pru Lind": "Dr Cato Brill"}
    lines = [{"id": p, "labels": ["Patient"]} for p in patients]
    lines += [{"id": d, "labels": ["Doctor"]} for d in ("Dr Ama Vell", "Dr Cato Brill")]
    lines += [{"head": p, "relation": "physician", "tail": d} for p, d in patients.items()]
    lines += [{"head": "Dr Ama Vell", "relation": "residency_supervisor", "tail": "Dr Cato Brill"}]
    path = tmp_path / "clinic2.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    a = Engine(open_graph(f"memory:{path}")).ask("Who does Dr Ama Vell treat?")
    assert set(a.answers[:2]) == {"Una Reed", "Tam Oakes"}, a.answers[:3]


@pytest.mark.parametrize(("word", "labels", "named"), [
    ("planes", ["Pilot", "Airline", "Airport", "Aircraft"], ("Aircraft",)),  # air craft
    ("pictures", ["Artist", "Painting", "Museum"], ("Painting",)),
    ("tongue", ["Book", "Language", "Author"], ("Language",)),
    ("nation", ["City", "Country", "Airline"], ("Country",)),
    ("cities", ["City", "Country"], ("City",)),  # by its letters first
    ("repos", ["Project", "Developer"], ()),  # the thesaurus does not know it
])
def test_a_type_word_names_a_label_by_what_it_means(word, labels, named):
    from byokg.plugins.offline.answer_types import labels_named

    assert labels_named((word,), labels) == named


def test_which_pictures_are_paintings_not_movements(tmp_path):
    """"Which pictures are by X": no label is called *pictures*; by the thesaurus a picture
    is a *painting*, so the Paintings attributed to X are the answer, not X's Movement."""
    from byokg.graph.open import open_graph

    painters = {"Jonas Lind": ("surrealism", ["Misty Harbour", "Pale Bridge"]),
                "Ada Ring": ("cubism", ["Lonely Chapel"])}
    lines = []
    for p, (school, works) in painters.items():
        lines += [{"id": p, "labels": ["Artist"]}, {"id": school, "labels": ["Movement"]},
                  {"head": p, "relation": "artMovement", "tail": school}]
        for w in works:
            lines += [{"id": w, "labels": ["Painting"]},
                      {"head": w, "relation": "attributedTo", "tail": p}]
    path = tmp_path / "paintings.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    a = Engine(open_graph(f"memory:{path}")).ask("Which pictures are by Jonas Lind?")
    assert set(a.answers[:2]) == {"Misty Harbour", "Pale Bridge"}, a.answers[:3]


def test_the_gloss_kinds_file_matches_the_lexicon():
    """``byokg/data/gloss_kinds.txt.gz`` is what ``scripts/build_gloss_kinds.py`` writes from
    the glosses and the lexicon's place and person words: change those words, run it again."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "build_gloss_kinds.py"
    spec = importlib.util.spec_from_file_location("build_gloss_kinds", script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.OUT.read_bytes() == mod.build()


@pytest.mark.parametrize(("question", "mention", "modifiers"), [
    ("What famous painters grew up in Oslo?", "Oslo", ["famous"]),
    ("Which school of painting does Ines Brandt belong to?", "Ines Brandt", ["painting"]),
    ("What kind of music does Ines Brandt play?", "Ines Brandt", []),  # a category's domain
    ("Which painters taught Ines Brandt?", "Ines Brandt", []),
])
def test_the_words_that_qualify_the_type_word(question, mention, modifiers):
    q = analyze(question)
    at = question.index(mention)
    units = structure(q, {mention: (at, at + len(mention))}, q.type_words[-1]).units
    assert [u.text for u in units if u.modifier] == modifiers


def test_a_modifier_of_the_type_word_takes_no_step():
    """"Which school of *painting* does X belong to": *painting* qualifies *school*; no
    relation says it, and it is no reason to walk on to X's teacher's school."""
    triples = [("Ines Brandt", "teacher", "Kemal Yamamoto"), ("Ines Brandt", "school", "fauvism"),
               ("Kemal Yamamoto", "school", "cubism"), ("Ada Ring", "teacher", "Kemal Yamamoto"),
               ("Ada Ring", "school", "cubism"), ("Kemal Yamamoto", "native_town", "Loka")]
    eng = Engine(graph_from_triplets(triples, uri="memory:schools"))
    a = eng.ask("Which school of painting does Ines Brandt belong to?")
    assert a.answers[:1] == ["fauvism"], a.answers[:3]


@pytest.mark.parametrize("question", ["Who is behind Casa Lora?", "Who is the star of Casa Lora?",
                                      "Who makes Casa Lora famous?"])
def test_who_fits_the_nouns_the_dictionary_files_under_people(question, installed, tmp_path):
    """WordNet's gloss of *chef* ("a professional cook") says no *someone who*; its file of
    nouns for people does (``person_nouns.txt.gz``, read into ``gloss_kinds.txt.gz``). On a
    typed restaurant graph whose relations say nothing of the question, *who* reaches the
    Chef, not the Dish or the City."""
    import json

    from byokg.graph.open import open_graph
    from byokg.language.thesaurus import names_a_person

    assert all(map(names_a_person, ["chef", "doctor", "author", "person", "King"]))
    assert not any(map(names_a_person, ["restaurant", "dish", "city", "company"]))
    nodes = {"Casa Lora": "Restaurant", "Bistro Nel": "Restaurant", "Ines Vale": "Chef",
             "Mara Quint": "Chef", "Tarte Vive": "Dish", "Soupe Clair": "Dish", "Oslo": "City"}
    edges = [("Casa Lora", "feature", "Ines Vale"), ("Casa Lora", "highlight", "Tarte Vive"),
             ("Casa Lora", "located", "Oslo"), ("Bistro Nel", "feature", "Mara Quint"),
             ("Bistro Nel", "highlight", "Soupe Clair")]
    path = tmp_path / "dining.jsonl"
    rows = [{"id": n, "labels": [lab]} for n, lab in nodes.items()]
    rows += [{"head": h, "relation": r, "tail": t} for h, r, t in edges]
    path.write_text("\n".join(json.dumps(x) for x in rows) + "\n", encoding="utf-8")
    a = Engine(open_graph(f"memory:{path}")).ask(question)
    assert a.answers == ["Ines Vale"], a.answers[:3]
