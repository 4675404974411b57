"""The typed graph written over Bolt (ArcadeDB, started by the tests) with Cypher CREATE: the
same profile choices as on Kùzu (types read from the driver's values), linking by the display
property, offline answers in display names, bounded profile queries."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from typed_graph import QUESTIONS
from typed_graph import TYPED
from typed_graph import build_bolt
from typed_graph import build_typed_graph
from typed_graph import record_calls
from typed_graph import repeat_people

from byokg.cli import cli
from byokg.config import RunConfig
from byokg.graph.open import open_graph
from byokg.graph.profile import profile_graph
from byokg.pipeline.engine import Engine

pytestmark = pytest.mark.server
pytest.importorskip("neo4j")
PY_REPR = re.compile(r"datetime\.|neo4j\.time|\bTrue\b|\bFalse\b|\bNone\b")


@pytest.fixture()
def typed_bolt(typed_bolt_uri):
    store = open_graph(typed_bolt_uri)
    yield store
    store.close()


def test_profile_choices_over_bolt(typed_bolt):
    prof = profile_graph(typed_bolt)
    lab = {x.name: x for x in prof.labels}
    assert lab["Person"].display_parts == ("knownName",) and lab["Person"].key == "id"
    assert lab["City"].display_parts == ("label",)
    assert lab["Prize"].display_parts == ("category", "year")
    assert lab["Census"].display_parts == ()
    person = {p.name: p for p in lab["Person"].properties}
    assert (person["birthDate"].kind, person["alive"].kind) == ("date", "bool")
    rel = {r.name: r for r in prof.relations}
    assert rel["BORN_IN"].pairs == (("Person", "City"),)
    assert rel["BORN_IN"].cardinality == "many-to-one"
    assert {p.name: p.kind for p in rel["WON"].properties} == {"share": "int", "awardedOn": "date"}
    assert prof.queries == 2 + 2 * 6 + 5 * 7  # per type: count, sample, examples, two ends
    assert rel["BORN_IN"].heads == {"Person": 60} and rel["LOCATED_IN"].tails == {"Country": 4}


def test_integer_ids_round_trip_and_names(typed_bolt):
    p = TYPED.people[0]
    node = typed_bolt.get_nodes([str(p["id"])])[str(p["id"])]
    assert node is not None and node.name == p["knownName"]
    hood = typed_bolt.neighbors([str(p["id"])], relations=["WON"])[str(p["id"])]
    (won,) = hood.triplets
    assert won.properties["share"] == 1
    assert typed_bolt.display_names([won.tail])[won.tail].split()[0] in {
        "physics", "chemistry", "medicine", "literature", "peace", "economics"}


def test_link_and_ask_over_bolt(typed_bolt_uri, typed_bolt):
    p = TYPED.people[5]
    res = CliRunner().invoke(cli, ["link", p["knownName"], "--graph", typed_bolt_uri, "--json"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    (ml,) = json.loads(res.output)
    assert ml["candidates"][0]["id"] == str(p["id"]) and ml["candidates"][0]["name"] == p["knownName"]
    eng = Engine(typed_bolt, RunConfig())
    hits = 0
    for question, gold in QUESTIONS:
        ans = eng.ask(question)
        assert ans.answers and not any(a.startswith("#") for a in ans.answers), ans.answers
        hits += ans.answers[0] == gold
    assert hits >= 23, hits  # 25 of 25 when measured


def test_schema_over_bolt_has_no_python_repr(typed_bolt_uri):
    res = CliRunner().invoke(cli, ["schema", "--graph", typed_bolt_uri], catch_exceptions=False)
    assert res.exit_code == 0 and not PY_REPR.search(res.output), res.output
    assert "birthDate: DATE date('" in res.output and "[:WON {" in res.output.replace(
        "-[:WON {", "[:WON {")


def test_display_override_in_a_bolt_uri(typed_bolt_uri):
    p = TYPED.people[0]
    store = open_graph(f"{typed_bolt_uri}?display=Person.wikidataId")
    try:
        assert store.display_names([str(p["id"])]) == {str(p["id"]): p["wikidataId"]}
    finally:
        store.close()


def test_profile_queries_do_not_grow_with_the_graph(bolt_server):
    counts = []
    for n in (1, 3):
        g = repeat_people(build_typed_graph(n), n)
        store = open_graph(build_bolt(bolt_server, f"typedq{n}", g))
        calls = record_calls(store, "_run")
        try:
            prof = profile_graph(store, refresh=True)
        finally:
            store.close()
        counts.append((len(calls), prof.queries))
    assert counts[0] == counts[1], counts
