"""Fewer LLM calls (issue 25, point 3): query rows that fit the question answer it with no second
KG-Linker round and no answer call; the agentic traversal waits while a query runs and runs in
the round that comes when none answered; the hybrid strategy keeps a confident offline answer
with no LLM call and asks the KG-Linker otherwise."""

from __future__ import annotations

import pytest

from benchmarks.kuzu_files import new_database
from benchmarks.scripted_llm import Plan
from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import demo_plans
from benchmarks.scripted_llm import typed_plans
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine


def test_rows_that_fit_answer_in_one_call(festivals, festival_store):
    """Every generated question of the festival graph (lookups, lists, dates, counts, top-k)
    whose query has rows: one LLM call, the gold cells as answers, no agentic call."""
    fx = festivals["camel"]
    store = festival_store("camel")
    with ScriptedServer(typed_plans(fx.questions)) as srv:
        eng = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options()))
        for gq in fx.questions:
            if not gq.rows:
                continue
            a = eng.ask(gq.question)
            assert [c.purpose for c in a.trace.llm_calls] == ["kg-linker"], gq.question
            assert a.trace.counts.get("kg-linker.rows_answer") == 1
            assert a.answers and set(a.answers) <= set(gq.answers), (gq.question, a.answers)
            if gq.template in ("lineup", "genre-list", "headliner"):
                assert set(a.answers) == {str(r[0]) for r in gq.rows}
            if a.entities and any(m.candidates for m in a.entities):  # else nothing to do
                assert any(ev.source == "agentic" and ev.message.startswith("deferred")
                           for ev in a.trace.events), gq.question


def test_no_rows_means_a_second_round_where_the_traversal_runs(festival_store):
    store = festival_store("camel")
    q = "Which artists from Ashgrove played at Echo Fest 2012?"
    empty = ("MATCH (a:Artist)-[:PERFORMED_AT]->(f:Festival {title: 'Echo Fest 2012'}) "
             "WHERE a.genre = 'polka' RETURN a.stageName")  # every name exists; no rows
    plans = {q: Plan(entities=["Echo Fest 2012"], relation_paths=[["PERFORMED_AT"]],
                     cypher=empty, answers=["no such artist"])}
    with ScriptedServer(plans) as srv:
        a = Engine(store, RunConfig(llm="openai:scripted",
                                    llm_options=srv.llm_options())).ask(q)
    stages = [c.stage for c in a.trace.llm_calls]
    assert stages[0] == "kg-linker" and stages.count("kg-linker") == 2
    assert "tool:agentic" in stages  # deferred in round 1, run in round 2
    deferred = [ev for ev in a.trace.events if ev.source == "agentic"
                and ev.message.startswith("deferred")]
    assert [ev.iteration for ev in deferred] == [0]
    assert not a.trace.counts.get("kg-linker.rows_answer")


def test_agentic_always_runs_when_asked(festival_store):
    store = festival_store("camel")
    q = "Who headlined Meadow Fest 2016?"
    query = ("MATCH (a:Artist)-[r:PERFORMED_AT]->(f:Festival {title: 'Meadow Fest 2016'}) "
             "WHERE r.slot = 'headliner' RETURN a.stageName")
    plans = {q: Plan(entities=["Meadow Fest 2016"], relation_paths=[["PERFORMED_AT"]],
                     cypher=query, answers=["Pia Static"])}
    with ScriptedServer(plans) as srv:
        cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                        params={"agentic": {"when": "always"}})
        a = Engine(store, cfg).ask(q)
    assert "tool:agentic" in [c.stage for c in a.trace.llm_calls]
    assert a.answers == ["Pia Static"]


@pytest.fixture
def offline_confidence(monkeypatch):
    """The offline answerer's real answers with a confidence set as a calibrated answerer would
    (``level[0]``): the field the hybrid strategy reads."""
    from byokg.plugins.offline import OfflineAnswerer

    level = [0.9]
    real = OfflineAnswerer.answer

    def answer(self, request):
        res = real(self, request)
        res.confidence = level[0] if res.answers else None
        return res

    monkeypatch.setattr(OfflineAnswerer, "answer", answer)
    return level


def test_hybrid_keeps_a_confident_offline_answer_without_a_call(offline_confidence):
    from byokg.demo import DEMO_QUESTIONS
    from byokg.graph.open import open_graph

    plans = demo_plans(DEMO_QUESTIONS)
    q = "Where was Wynton Marsalis born?"
    store = open_graph("memory:demo")
    try:
        with ScriptedServer(plans) as srv:
            cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                            offline_first=0.8)
            eng = Engine(store, cfg)
            a = eng.ask(q)
            assert a.trace.llm_calls == [] and srv.calls == 0
            assert a.answers[0] == "New Orleans" and a.confidence == 0.9
            assert a.trace.counts["hybrid_offline"] == 1
            assert "offline" in a.trace.stage_seconds()
            offline_confidence[0] = 0.5  # below the threshold: the KG-Linker answers
            b = eng.ask(q)
            assert b.trace.llm_calls and b.trace.llm_calls[0].stage == "kg-linker"
            assert b.trace.counts["hybrid_fallback"] == 1
            note = next(ev for ev in b.trace.events if ev.message.startswith("hybrid:"))
            assert "confidence 0.50 below 0.8" in note.message
            assert note.data["offline_answers"][0] == "New Orleans"
            assert b.answers and b.answers[0] == "New Orleans"
    finally:
        store.close()


def test_hybrid_without_a_confidence_asks_the_llm():
    """The offline answerer sets no confidence: the hybrid strategy never keeps its answer."""
    from byokg.demo import DEMO_QUESTIONS
    from byokg.graph.open import open_graph

    store = open_graph("memory:demo")
    try:
        with ScriptedServer(demo_plans(DEMO_QUESTIONS)) as srv:
            a = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                                        offline_first=0.0)).ask("Who directed Alien?")
    finally:
        store.close()
    if a.confidence is None:  # an uncalibrated offline answerer: the LLM path ran
        assert a.trace.llm_calls and a.trace.counts["hybrid_fallback"] == 1
    else:  # a calibrated one: any confidence passes a threshold of 0
        assert a.trace.counts["hybrid_offline"] == 1 and not a.trace.llm_calls


def test_the_hybrid_preset():
    from byokg.eval.runner import strategy_config

    cfg = strategy_config("hybrid", RunConfig(), "openai:x")
    assert cfg.offline_first == 0.8 and cfg.tools is None
    assert cfg.stage_names() == ("kg-linker", "llm-answer")


def test_rows_answer_reads_the_column_the_question_does_not_name(festivals, festival_store):
    """A lookup query that returns the named subject beside the asked-for value ("the capacity
    of X" -> X, capacity) is answered with the value, not with X again."""
    fx = festivals["camel"]
    store = festival_store("camel")
    gq = next(q for q in fx.questions if q.template == "capacity")
    name = gq.question.split(" of ", 1)[1].rstrip("?")
    both = gq.cypher.replace(" RETURN f.", " RETURN f.title, f.")
    assert both != gq.cypher
    plans = {gq.question: Plan(entities=[name], relation_paths=[], cypher=both, answers=[])}
    with ScriptedServer(plans) as srv:
        a = Engine(store, RunConfig(llm="openai:scripted",
                                    llm_options=srv.llm_options())).ask(gq.question)
    assert a.trace.counts.get("kg-linker.rows_answer") == 1
    assert a.answers == [str(r[0]) for r in gq.rows]


def test_the_offline_confidence_is_withheld_where_the_offline_stages_cannot_answer():
    """However confident the model, no confidence for arithmetic, for a value the question
    filters on outside a linked name, or for a person or place answered with bare values."""
    from byokg.plugins.offline.confidence import beyond_offline

    from byokg.contracts import Candidate
    from byokg.contracts import MentionLinks
    from byokg.language.analysis import analyze

    def named(*mentions):
        return [MentionLinks(mention=m, candidates=(Candidate(id=m, name=m, score=1.0,
                                                              method="exact"),)) for m in mentions]

    assert "arithmetic" in beyond_offline(analyze("How many films did Ridley Scott direct?"),
                                          ["3"], named("Ridley Scott"))
    assert "(1980)" in beyond_offline(
        analyze("Which artists from Calderbank were born before 1980?"), ["Oz"], named("Calderbank"))
    assert "bare values" in beyond_offline(analyze("Who headlined Meadow Fest 2016?"), ["29356"],
                                           named("Meadow Fest 2016"))
    assert "(2016)" in beyond_offline(analyze("Who headlined Meadow Fest 2016?"), ["Pia"], [])
    assert beyond_offline(analyze("Where was Wynton Marsalis born?"), ["New Orleans"],
                          named("Wynton Marsalis")) is None


def test_hybrid_asks_the_llm_when_the_offline_confidence_is_withheld(monkeypatch):
    from byokg.plugins.offline import confidence as conf_mod

    from byokg.demo import DEMO_QUESTIONS
    from byokg.graph.open import open_graph

    monkeypatch.setattr(conf_mod, "beyond_offline", lambda analysis, answers, entities, **kw: "a reason")
    store = open_graph("memory:demo")
    try:
        offline = Engine(store, RunConfig(llm="none")).ask("Where was Wynton Marsalis born?")
        assert offline.answers[0] == "New Orleans" and offline.confidence is None
        assert any(ev.message == "no confidence: a reason" for ev in offline.trace.events)
        with ScriptedServer(demo_plans(DEMO_QUESTIONS)) as srv:
            eng = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                                          offline_first=0.0))
            a = eng.ask("Where was Wynton Marsalis born?")
    finally:
        store.close()
    assert a.trace.llm_calls and a.trace.counts["hybrid_fallback"] == 1
    note = next(ev for ev in a.trace.events if ev.message.startswith("hybrid: the offline answer has"))
    assert "no confidence (a reason)" in note.message, note.message


# --------------------------------------------------------------- the answer's type (hybrid)

SHIPS = ["Sea Wren", "Grey Heron", "Kittiwake", "Storm Petrel", "Little Auk", "Gannet"]
BERTHS = ["Pier Nine", "Old Quay", "Saltgate", "Westhaven"]
SHORES = ["North Strand", "Amber Shore"]


@pytest.fixture(scope="module")
def harbour_graph(tmp_path_factory):
    """A typed Kùzu graph unlike the festival one: vessels dock at moorings, which lie on a
    coast; sailors serve on vessels (the duty on the relationship). Names live in spaced
    properties; a vessel has a number property, ``Captain Log Pages``, that shares a word with
    what a question about its captain says."""
    path = tmp_path_factory.mktemp("harbour") / "harbour.kz"
    ddl = (
        "CREATE NODE TABLE Vessel(`Hull No` STRING, `Vessel Name` STRING, "
        "`Captain Log Pages` INT64, PRIMARY KEY(`Hull No`))",
        "CREATE NODE TABLE Mooring(`Berth Code` STRING, `Berth Title` STRING, "
        "PRIMARY KEY(`Berth Code`))",
        "CREATE NODE TABLE Coast(`Shore Code` STRING, `Shore Title` STRING, "
        "PRIMARY KEY(`Shore Code`))",
        "CREATE NODE TABLE Sailor(`Crew No` INT64, `Full Name` STRING, "
        "PRIMARY KEY(`Crew No`))",
        "CREATE REL TABLE DOCKED_AT(FROM Vessel TO Mooring)",
        "CREATE REL TABLE LIES_ON(FROM Mooring TO Coast)",
        "CREATE REL TABLE SERVES_ON(FROM Sailor TO Vessel, duty STRING)",
    )
    with new_database(path, ddl) as c:
        crew = ["Ines Varga", "Tomas Brek", "Lena Quist", "Oskar Dahl", "Mira Holm", "Piet Zand",
                "Ruth Okafor", "Sven Lind", "Anya Petrov", "Jon Ek", "Kai Moss", "Lia Fenn"]
        for i, s in enumerate(SHIPS):
            c.execute("CREATE (:Vessel {`Hull No`: $k, `Vessel Name`: $n, `Captain Log Pages`: $p})",
                      {"k": f"H{i}", "n": s, "p": 120 + 37 * i})
        for i, b in enumerate(BERTHS):
            c.execute("CREATE (:Mooring {`Berth Code`: $k, `Berth Title`: $n})", {"k": f"B{i}", "n": b})
        for i, s in enumerate(SHORES):
            c.execute("CREATE (:Coast {`Shore Code`: $k, `Shore Title`: $n})", {"k": f"S{i}", "n": s})
        for i, n in enumerate(crew):
            c.execute("CREATE (:Sailor {`Crew No`: $k, `Full Name`: $n})", {"k": i, "n": n})
        for i in range(len(SHIPS)):
            c.execute("MATCH (a:Vessel {`Hull No`: $a}), (b:Mooring {`Berth Code`: $b}) "
                      "CREATE (a)-[:DOCKED_AT]->(b)", {"a": f"H{i}", "b": f"B{i % 4}"})
        for i in range(len(BERTHS)):
            c.execute("MATCH (a:Mooring {`Berth Code`: $a}), (b:Coast {`Shore Code`: $b}) "
                      "CREATE (a)-[:LIES_ON]->(b)", {"a": f"B{i}", "b": f"S{i % 2}"})
        for i in range(len(crew)):
            c.execute("MATCH (a:Sailor {`Crew No`: $a}), (b:Vessel {`Hull No`: $b}) "
                      "CREATE (a)-[:SERVES_ON {duty: $d}]->(b)",
                      {"a": i, "b": f"H{i % 6}", "d": "captain" if i < 6 else "deckhand"})
    return f"kuzu:{path}"


def _withheld(answer):
    return next((ev.data["withheld"] for ev in answer.trace.events if ev.data.get("withheld")),
                None)


def test_a_which_noun_answer_of_doubtful_type_gets_no_offline_confidence(harbour_graph):
    """"At which *seaport* …": no label is called a seaport; by meaning the noun only just
    names ``Coast``, and the offline answer walks one step past the moorings to the coast: no
    confidence. "Which *sailor* had the captain log …": answered with a vessel's ``Captain Log
    Pages`` (a word of the question in a property's name), a noun asks for things; answered
    with the sailors aboard, "captain" is a value of their duty; no confidence either way
    (the property case alone is checked on a given similarity table below). A question
    whose noun names the answer's label, and one with no such noun, keep theirs; so does one
    that names no value of a relationship's property ("the *captain* of": a ``duty`` of
    ``SERVES_ON``, which the offline stages do not filter on)."""
    from byokg.graph.open import open_graph

    store = open_graph(harbour_graph)
    try:
        eng = Engine(store, RunConfig(llm="none"))
        seaport = eng.ask("At which seaport did the Grey Heron dock?")
        log = eng.ask("Which sailor had the captain log of the Gannet?")
        shore = eng.ask("What shore does Saltgate lie on?")
        port = eng.ask("Which port did the Kittiwake dock at?")
        captain = eng.ask("Which sailor was the captain of the Sea Wren?")
        crew = eng.ask("Who served on the Sea Wren?")
    finally:
        store.close()
    assert seaport.confidence is None and seaport.answers
    why = _withheld(seaport)
    assert why and "'seaport'" in why and "Coast" in why and "2 steps" in why, why
    assert log.confidence is None and log.answers
    why = _withheld(log)
    if all(a.isdigit() for a in log.answers):  # the vessel's page count: a noun asks for things
        assert why and "'sailor'" in why and "Captain Log Pages" in why, why
    else:  # the sailors aboard, the captain among them: a duty the offline stages do not filter
        assert why and "'captain'" in why and "SERVES_ON" in why, why
    # "captain" is a value of the duty on SERVES_ON: a filter the offline stages do not apply
    assert captain.confidence is None and captain.answers
    why = _withheld(captain)
    assert why and "'captain'" in why and "SERVES_ON" in why, why
    for a in (shore, port, crew):
        assert _withheld(a) is None, _withheld(a)
        assert a.confidence is not None
    assert shore.answers == ["North Strand"] and port.answers == ["Saltgate"]


def test_hybrid_asks_the_llm_when_the_answer_type_is_in_doubt(harbour_graph):
    """The hybrid strategy: the doubtful offline answer goes to the KG-Linker (one call, the
    right mooring); the confident one is kept with no call."""
    from byokg.graph.open import open_graph

    q = "At which seaport did the Grey Heron dock?"
    plans = {q: Plan(entities=["Grey Heron"], relation_paths=[["DOCKED_AT"]],
                     cypher="MATCH (v:Vessel {`Vessel Name`: 'Grey Heron'})-[:DOCKED_AT]->"
                            "(m:Mooring) RETURN m.`Berth Title`", answers=["Old Quay"])}
    store = open_graph(harbour_graph)
    try:
        with ScriptedServer(plans) as srv:
            eng = Engine(store, RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                                          offline_first=0.0))
            a = eng.ask(q)
            kept = eng.ask("What shore does Saltgate lie on?")
    finally:
        store.close()
    assert a.trace.counts["hybrid_fallback"] == 1 and len(a.trace.llm_calls) == 1
    note = next(ev for ev in a.trace.events if ev.message.startswith("hybrid: the offline"))
    assert "'seaport'" in note.message and note.data["offline_answers"] == ["Amber Shore"]
    assert a.answers == ["Old Quay"]
    assert kept.trace.counts["hybrid_offline"] == 1 and not kept.trace.llm_calls
    assert kept.answers == ["North Strand"]


def test_type_doubt_reads_labels_and_property_names():
    """The three doubts with a given similarity table (no model): a noun about as close to two
    labels by meaning; a noun that names a label the answer nodes lack; a property the noun
    does not name. No doubt where the noun names the property or the label by its words, or
    for a category asked with a property named like one."""
    from byokg.plugins.offline.confidence import AnswerShape
    from byokg.plugins.offline.confidence import type_doubt

    from byokg.language.analysis import analyze

    table = {"hamlet": {"Parish": 0.66, "County": 0.61, "Bishop": 0.0},
             "borough": {"County": 0.65, "Parish": 0.3}, "shire": {"County": 0.95}}

    def sim(left, right):
        return {(w, r): table.get(w, {}).get(r, 0.0) for w in left for r in right}

    labels = ["Parish", "County", "Bishop"]
    q = analyze("In which hamlet did Ann Lee marry?")
    for lab in ("Parish", "County"):
        why = type_doubt(q, AnswerShape(labels=(lab,)), {"ann", "lee"}, labels=labels, sim=sim)
        assert why and "about as close to several" in why and "Parish 0.66" in why, why
    why = type_doubt(q, AnswerShape(labels=("Bishop",)), set(), labels=labels, sim=sim)
    assert why and "names Parish, County and the answer is Bishop nodes" in why, why
    # only just named by meaning: a guess when the answer is a step further than one
    q = analyze("In which borough did Ann Lee marry?")
    why = type_doubt(q, AnswerShape(labels=("County",), steps=2), set(), labels=labels, sim=sim)
    assert why and "only just by meaning (County 0.65)" in why and "2 steps" in why, why
    assert type_doubt(q, AnswerShape(labels=("County",)), set(), labels=labels, sim=sim) is None
    q = analyze("In which shire did Ann Lee marry?")  # close in meaning: no guess
    assert type_doubt(q, AnswerShape(labels=("County",), steps=2), set(), labels=labels,
                      sim=sim) is None
    q = analyze("Which parish did Ann Lee marry in?")
    why = type_doubt(q, AnswerShape(labels=("County",)), set(), labels=labels, sim=sim)
    assert why and "names Parish" in why and "County nodes" in why, why
    assert type_doubt(q, AnswerShape(labels=("Parish",), steps=2), set(), labels=labels,
                      sim=sim) is None  # named by its words: no guess
    assert type_doubt(q, AnswerShape(property="Parish Register No"), set(), labels=labels,
                      sim=sim) is None
    why = type_doubt(q, AnswerShape(property="Tithe"), set(), labels=labels, sim=sim)
    assert why and "'Tithe'" in why, why
    q = analyze("What kind of rite did Ann Lee have?")
    assert type_doubt(q, AnswerShape(property="Rite Style"), set(), labels=labels,
                      sim=sim) is None
    assert type_doubt(analyze("Where did Ann Lee marry?"), AnswerShape(property="Tithe"), set(),
                      labels=labels, sim=sim) is None  # no noun: the other checks decide


def test_a_relationship_value_the_question_says_withholds_the_offline_confidence():
    """"Who *chaired* …" where ``ATTENDED`` has a ``role`` of ``'chair'``: a filter on the
    relationship, which the offline stages do not apply; a value of a relation the answer
    does not walk, or none said, leaves the confidence alone."""
    from byokg.plugins.offline.confidence import AnswerShape
    from byokg.plugins.offline.confidence import beyond_offline

    from byokg.language.analysis import analyze

    values = {"ATTENDED": ("chair", "delegate"), "HOSTED_BY": ("co-host",)}
    shape = AnswerShape(labels=("Envoy",), relations=("ATTENDED",))
    why = beyond_offline(analyze("Who chaired the Lisbon Summit?"), ["Ana Reis"], [],
                         shape=shape, edge_values=values)
    assert why and "'chaired'" in why and "ATTENDED" in why, why
    assert beyond_offline(analyze("Who attended the Lisbon Summit?"), ["Ana Reis"], [],
                          shape=shape, edge_values=values) is None
    assert beyond_offline(analyze("Who chaired the Lisbon Summit?"), ["Ana Reis"], [],
                          shape=AnswerShape(labels=("Envoy",), relations=("HOSTED_BY",)),
                          edge_values=values) is None
