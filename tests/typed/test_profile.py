"""The GraphProfile itself: display choice from values and names, overrides and their errors,
Cypher literals, the memory backend's names from properties, the disk cache, a store without
the profile capability, and Neptune Analytics profiled through a botocore Stubber."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest

from byokg.errors import ConfigError
from byokg.graph.open import graph_from_triplets
from byokg.graph.open import open_graph
from byokg.graph.profile import build_profile
from byokg.graph.profile import cypher_literal
from byokg.graph.profile import parse_display
from byokg.graph.profile import profile_graph
from byokg.graph.store import GraphSample
from byokg.graph.store import LabelSample
from byokg.graph.store import SampledNode


def _label(name: str, rows: list[dict], **kw) -> LabelSample:
    return LabelSample(name=name, count=len(rows), nodes=tuple(
        SampledNode(id=f"{name}:{i}", labels=(name,), properties=r) for i, r in enumerate(rows)),
        **kw)


def test_display_is_decided_by_values_and_the_name_together():
    firsts = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"]
    rows = [{"code": f"X{i:04d}", "heading": f"{f} Lovelace", "tag": "red" if i % 2 else "blue",
             "summary": f"{f} is a person with a long description that goes on and on " * 2,
             "homepage": f"https://example.org/{i}"} for i, f in enumerate(firsts)]
    prof = build_profile(GraphSample(labels=(_label("Thing", rows, key="code"),)))
    lab = prof.label("Thing")
    assert lab.display_parts == ("heading",)  # not a fixed name list: "heading" wins on values
    why = {c.property: c.why for c in lab.candidates}
    assert "identifier-like values" in why["code"] and "the key" in why["code"]
    assert "repeats: a category" in why["tag"] and why["summary"].startswith("long text")
    assert why["homepage"] == "values are addresses (URLs or e-mails)"


def test_a_name_word_alone_does_not_decide():
    rows = [{"name": "active" if i % 3 else "retired", "title": f"Dr. {n} Smith"}
            for i, n in enumerate("Anna Berta Carla Dora Emma Frida Greta Hanna Ida Jana".split())]
    prof = build_profile(GraphSample(labels=(_label("Person", rows),)))
    assert prof.label("Person").display_parts == ("title",)  # "name" repeats: a status


def test_composite_needs_categories_that_are_unique_together():
    rows = [{"category": c, "year": y, "note": "x"} for c in ("physics", "peace", "art")
            for y in range(2000, 2004)]
    prof = build_profile(GraphSample(labels=(_label("Prize", rows),)))
    assert prof.label("Prize").display_parts == ("category", "year")
    assert prof.display_rules()["Prize"].name_of(rows[0]) == "physics 2000"
    unique_dates = [{"city": "Rome" if i % 2 else "Oslo", "day": dt.date(2020, 1, 1 + i)}
                    for i in range(20)]
    prof = build_profile(GraphSample(labels=(_label("Order", unique_dates),)))
    assert prof.label("Order").display_parts == ()  # a date unique alone is no category


def test_hint_and_override():
    rows = [{"a": f"Alpha {i}x", "b": f"Beta {i}"} for i in range(12)]
    prof = build_profile(GraphSample(labels=(_label("T", rows, hint="a"),)))
    assert prof.label("T").display_parts == ("a",)
    assert "named by the graph's own metadata" in prof.label("T").reason
    prof = build_profile(GraphSample(labels=(_label("T", rows),)), overrides={"T": ("b", "a")})
    assert prof.label("T").display_parts == ("b", "a")
    with pytest.raises(ConfigError) as ei:
        build_profile(GraphSample(labels=(_label("T", rows),)), overrides={"U": ("a",)})
    assert str(ei.value) == ("display option names label 'U', which this graph does not have "
                             "(labels: T)")


@pytest.mark.parametrize(("spec", "want"), [
    ("Person.fullName", {"Person": ("fullName",)}),
    ("Person.fullName, Prize.category+year", {"Person": ("fullName",),
                                              "Prize": ("category", "year")}),
    ("Prize.category year", {"Prize": ("category", "year")}),  # '+' read as a space in URIs
    ({"Person": "fullName", "Prize": ["category", "year"]},
     {"Person": ("fullName",), "Prize": ("category", "year")}),
    (None, {}),
])
def test_parse_display(spec, want):
    assert parse_display(spec) == want


def test_parse_display_errors():
    with pytest.raises(ConfigError) as ei:
        parse_display("Person")
    assert str(ei.value) == ("display item 'Person' is not Label.property (e.g. "
                             "display=Person.fullName,Prize.category+year)")


@pytest.mark.parametrize(("value", "kind", "text"), [
    (dt.date(2001, 10, 10), None, "date('2001-10-10')"),
    ("2001-10-10", "date", "date('2001-10-10')"),
    (dt.datetime(2001, 10, 10, 8, 30), None, "datetime('2001-10-10T08:30:00')"),
    (False, None, "false"),
    (None, None, "null"),
    ("O'Brien", None, "'O\\'Brien'"),
    ([1, "a"], None, "[1, 'a']"),
    (2.5, None, "2.5"),
])
def test_cypher_literals_never_python_reprs(value, kind, text):
    assert cypher_literal(value, kind) == text
    assert cypher_literal(dt.datetime(2001, 1, 2), dialect="kuzu") == "timestamp('2001-01-02T00:00:00')"


# --------------------------------------------------------------------------- memory backend


@pytest.fixture()
def typed_jsonl(tmp_path):
    people = [("p1", "Ada Lovelace", "Q7259"), ("p2", "Alan Turing", "Q7251"),
              ("p3", "Grace Hopper", "Q11641")]
    lines = [json.dumps({"id": pid, "labels": ["Person"],
                         "properties": {"knownName": n, "qid": q, "born": 1800 + i}})
             for i, (pid, n, q) in enumerate(people)]
    lines += [json.dumps({"id": "c1", "labels": ["City"], "properties": {"label": "London"}}),
              json.dumps({"head": "p1", "relation": "BORN_IN", "tail": "c1"}),
              json.dumps({"head": "p2", "relation": "BORN_IN", "tail": "c1"}),
              json.dumps({"head": "p3", "relation": "KNOWS", "tail": "p1",
                          "properties": {"since": "1840-01-01"}})]
    p = tmp_path / "typed.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_memory_names_nodes_by_the_profile(typed_jsonl):
    g = open_graph(f"memory:{typed_jsonl}")
    assert g.display_names(["p1", "c1"]) == {"p1": "Ada Lovelace", "c1": "London"}
    assert g.get_nodes(["p2"])["p2"].name == "Alan Turing"
    assert ("p3", "Grace Hopper") in [x for b in g.iter_node_names() for x in b]
    assert g.node_ids_by_name(["ada lovelace"]) == {"ada lovelace": ["p1"]}
    prof = profile_graph(g)
    assert prof.relation("KNOWS").properties[0].text_kind == "date"
    assert prof.relation("BORN_IN").cardinality == "many-to-one"
    over = open_graph(f"memory:{typed_jsonl}?display=Person.qid")
    assert over.display_names(["p1"]) == {"p1": "Q7259"}
    with pytest.raises(ConfigError) as ei:
        open_graph(f"memory:{typed_jsonl}?displai=Person.qid")
    assert str(ei.value) == (f"'memory:{typed_jsonl}?displai=Person.qid': unknown option "
                             "'displai' (memory: URIs accept display, skip_bad_rows, columns)")


def test_memory_profile_cache_reused_and_rebuilt(typed_jsonl, tmp_path, monkeypatch):
    monkeypatch.setenv("BYOKG_CACHE_DIR", str(tmp_path / "cache"))
    assert profile_graph(open_graph(f"memory:{typed_jsonl}")).source == "built"
    assert profile_graph(open_graph(f"memory:{typed_jsonl}")).source == "cache"
    with open(typed_jsonl, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"head": "p2", "relation": "KNOWS", "tail": "p3"}) + "\n")
    assert profile_graph(open_graph(f"memory:{typed_jsonl}")).source == "built"
    assert list((tmp_path / "cache").glob("*/profile-*.json"))
    assert profile_graph(graph_from_triplets([("a", "r", "b")])).source == "built"  # not cached


def test_profile_in_memory_is_bounded_and_demo_unchanged(demo_store):
    prof = profile_graph(demo_store)
    assert prof.queries == 0 and prof.ids_are_names
    assert demo_store.display_names(["Louis Armstrong"]) == {"Louis Armstrong": "Louis Armstrong"}


class _PlainStore:
    """A third-party store without the profile capability (schema only)."""

    uri = "plain:x"
    capabilities = frozenset()
    dialect = None  # the protocol's attributes, declared as a third party must
    display_override = None

    def __init__(self) -> None:
        self.inner = graph_from_triplets([("a", "r", "b")])

    def schema(self, *, samples: int = 3):
        return self.inner.schema(samples=samples)

    def stats(self):
        return self.inner.stats()

    def relation_types(self):
        return self.inner.relation_types()


def test_a_store_without_the_capability_is_profiled_from_its_schema():
    prof = profile_graph(_PlainStore())
    assert prof.relation_names == ["r"] and prof.notes == (
        "the store has no profile capability: profiled from its schema",)


# --------------------------------------------------------------------------- Neptune


def _neptune_rows() -> tuple[list[dict], ...]:
    """The sampled rows both Neptune profiles read: six people named in ``knownName`` who live
    in one city named in ``label``; (people, cities, edges, examples)."""
    people = [{"id": f"p{i}", "labels": ["Person"],
               "p": {"knownName": f"Person Number{chr(65 + i)}", "born": f"19{i}0-01-01"}}
              for i in range(6)]
    cities = [{"id": "c1", "labels": ["City"], "p": {"label": "Paris"}}]
    edges = [{"src": ["Person"], "dst": ["City"], "a": f"p{i}", "b": "c1", "p": {"since": 2000}}
             for i in range(6)]
    ex = [{"a": "p0", "al": ["Person"], "ap": people[0]["p"], "b": "c1", "bl": ["City"],
           "bp": {"label": "Paris"}}]
    return people, cities, edges, ex


def test_neptune_analytics_profile_through_a_stubber():
    pytest.importorskip("boto3")
    import boto3
    from botocore.response import StreamingBody
    from botocore.stub import ANY
    from botocore.stub import Stubber
    from byokg.backends.neptune import NeptuneAnalyticsGraph

    def payload(results):
        body = json.dumps({"results": results}).encode()
        return {"payload": StreamingBody(io.BytesIO(body), len(body))}

    pg = {"nodeLabels": ["Person", "City"], "edgeLabels": ["LIVES_IN"],
          "nodeLabelDetails": {"Person": {"properties": {
              "knownName": {"datatypes": ["String"]}, "born": {"datatypes": ["Date"]}}},
              "City": {"properties": {"label": {"datatypes": ["String"]}}}},
          "edgeLabelDetails": {"LIVES_IN": {"properties": {"since": {"datatypes": ["Int"]}}}},
          "labelTriples": [{"~type": "LIVES_IN", "~from": "Person", "~to": "City"}]}
    people, cities, edges, ex = _neptune_rows()
    session = boto3.Session(aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret",
                            region_name="us-east-1")
    client = session.client("neptune-graph")
    store = NeptuneAnalyticsGraph("neptune-graph://g-abc123def4", client=client)
    replies = [  # (rows, parameters sent): in the order the profile asks
        ([{"c": 7}], None), ([{"c": 6}], None),  # fingerprint: node and edge counts
        ([{"schema": pg}], None),  # labels and types (the catalogue, then cached)
        ([{"c": 1}], None), (cities, {"n": 200}),  # per label, sorted: City, Person
        ([{"c": 6}], None), (people, {"n": 200}),
        ([{"c": 6}], None), (edges, {"n": 200}), (ex, {"n": 3}),  # the relationship type
        ([{"l": "Person", "c": 6}], None), ([{"l": "City", "c": 1}], None),  # its ends
    ]
    with Stubber(client) as stub:
        for rows, params in replies:
            want = {"graphIdentifier": "g-abc123def4", "language": "OPEN_CYPHER",
                    "queryString": ANY}
            if params is not None:
                want["parameters"] = params
            stub.add_response("execute_query", payload(rows), want)
        prof = profile_graph(store, cache_dir=None)
        stub.assert_no_pending_responses()
    assert store.attempts == 12 and prof.queries == 2 + 2 * 2 + 5
    assert prof.relation("LIVES_IN").heads == {"Person": 6}
    assert prof.label("Person").display_parts == ("knownName",)
    assert {p.name: p.kind for p in prof.label("Person").properties} == {
        "knownName": "string", "born": "date"}
    rel = prof.relation("LIVES_IN")
    assert rel.pairs == (("Person", "City"),) and rel.cardinality == "many-to-one"
    assert rel.examples == (("Person NumberA", "Paris"),)


def test_neptune_database_profile_through_a_stubber():
    """Neptune Database: the fingerprint and the catalogue from one property-graph summary,
    the rest from sampled openCypher rows (its summary has no per-label property types)."""
    pytest.importorskip("boto3")
    import boto3
    from botocore.stub import ANY
    from botocore.stub import Stubber
    from byokg.backends.neptune import NeptuneDatabaseGraph

    summary = {"numNodes": 7, "numEdges": 6, "numNodeLabels": 2, "numEdgeLabels": 1,
               "nodeLabels": ["Person", "City"], "edgeLabels": ["LIVES_IN"],
               "nodeProperties": [{"knownName": 6}, {"born": 6}, {"label": 1}],
               "edgeProperties": [{"since": 6}]}
    people, cities, edges, ex = _neptune_rows()
    session = boto3.Session(aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret",
                            region_name="us-east-1")
    client = session.client("neptunedata", endpoint_url="https://db.example.com:8182")
    store = NeptuneDatabaseGraph("neptune-db://db.example.com", client=client)
    replies = [([{"c": 1}], None), (cities, {"n": 200}),  # per label, sorted: City, Person
               ([{"c": 6}], None), (people, {"n": 200}),
               ([{"c": 6}], None), (edges, {"n": 200}), (ex, {"n": 3}),  # the type
               ([{"l": "Person", "c": 6}], None), ([{"l": "City", "c": 1}], None)]  # its ends
    with Stubber(client) as stub:
        stub.add_response("get_propertygraph_summary",
                          {"statusCode": 200, "payload": {
                              "version": "v1", "graphSummary": summary,
                              "lastStatisticsComputationTime": dt.datetime(2026, 11, 1)}},
                          {"mode": "detailed"})
        for rows, params in replies:
            want = {"openCypherQuery": ANY}
            if params is not None:
                want["parameters"] = json.dumps(params)
            stub.add_response("execute_open_cypher_query", {"results": rows}, want)
        prof = profile_graph(store, cache_dir=None)
        again = store.profile_fingerprint()  # the summary is read once
        stub.assert_no_pending_responses()
    assert store.attempts == 10 and again == prof.fingerprint
    assert prof.label("Person").display_parts == ("knownName",)
    assert prof.label("City").display_parts == ("label",)
    # no catalogue types over HTTPS: dates arrive as text, and are known as text holding dates
    assert {p.name: (p.kind, p.text_kind) for p in prof.label("Person").properties} == {
        "knownName": ("string", None), "born": ("string", "date")}
    rel = prof.relation("LIVES_IN")
    assert rel.pairs == (("Person", "City"),) and rel.cardinality == "many-to-one"
    assert rel.examples == (("Person NumberA", "Paris"),)
    # statistics computed again (the graph changed): a new fingerprint, so no stale profile
    later = NeptuneDatabaseGraph("neptune-db://db.example.com", client=client)
    with Stubber(client) as stub:
        stub.add_response("get_propertygraph_summary", {"statusCode": 200, "payload": {
            "version": "v1", "graphSummary": summary,
            "lastStatisticsComputationTime": dt.datetime(2026, 11, 2)}}, {"mode": "detailed"})
        assert later.profile_fingerprint() != prof.fingerprint
