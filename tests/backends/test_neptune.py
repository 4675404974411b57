"""Neptune Analytics / Neptune Database backends with botocore's Stubber (every request is
validated against the real service model; no network)."""

from __future__ import annotations

import io
import json

import pytest

pytest.importorskip("boto3")

from botocore.response import StreamingBody  # noqa: E402
from botocore.stub import ANY  # noqa: E402
from botocore.stub import Stubber  # noqa: E402

from byokg.contracts import Direction  # noqa: E402
from byokg.contracts import Triplet  # noqa: E402
from byokg.errors import CapabilityError  # noqa: E402
from byokg.errors import QueryError  # noqa: E402
from byokg.errors import ReadOnlyViolation  # noqa: E402
from byokg.graph.store import Capability  # noqa: E402

GRAPH = "g-abc123def4"


def _session():
    import boto3

    return boto3.Session(
        aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="secret", region_name="us-east-1"
    )


def _payload(results) -> dict:
    body = json.dumps({"results": results}).encode()
    return {"payload": StreamingBody(io.BytesIO(body), len(body))}


class Sleeps(list):
    def __call__(self, s: float) -> None:
        self.append(s)


@pytest.fixture
def analytics():
    from byokg.backends.neptune import NeptuneAnalyticsGraph

    client = _session().client("neptune-graph")
    sleeps = Sleeps()
    store = NeptuneAnalyticsGraph(f"neptune-graph://{GRAPH}", client=client, sleep=sleeps)
    with Stubber(client) as stub:
        yield store, stub, sleeps
        stub.assert_no_pending_responses()


@pytest.fixture
def database():
    from byokg.backends.neptune import NeptuneDatabaseGraph

    client = _session().client("neptunedata", endpoint_url="https://db.example.com:8182")
    sleeps = Sleeps()
    store = NeptuneDatabaseGraph("neptune-db://db.example.com", client=client, sleep=sleeps)
    with Stubber(client) as stub:
        yield store, stub, sleeps
        stub.assert_no_pending_responses()


def _throttle(stub, op: str, code: str, status: int) -> None:
    stub.add_client_error(op, service_error_code=code, service_message="slow down",
                          http_status_code=status)


# ------------------------------------------------------------------- Neptune Analytics


def test_analytics_query_success_sends_parameters(analytics):
    store, stub, _ = analytics
    stub.add_response(
        "execute_query",
        _payload([{"name": "O'Brien `x`", "n": 2}]),
        {
            "graphIdentifier": GRAPH,
            "queryString": "MATCH (n) WHERE n.name = $name RETURN n.name AS name, 2 AS n",
            "language": "OPEN_CYPHER",
            "parameters": {"name": "O'Brien `x`"},
        },
    )
    res = store.query(
        "MATCH (n) WHERE n.name = $name RETURN n.name AS name, 2 AS n", {"name": "O'Brien `x`"}
    )
    assert res.columns == ("name", "n") and res.rows == (("O'Brien `x`", 2),)
    assert store.dialect == "neptune-analytics"
    assert {Capability.CYPHER, Capability.VECTOR} <= store.capabilities
    assert Capability.SHORTEST_PATH not in store.capabilities


def test_analytics_throttling_then_success(analytics):
    store, stub, sleeps = analytics
    _throttle(stub, "execute_query", "ThrottlingException", 429)
    _throttle(stub, "execute_query", "InternalServerException", 500)
    stub.add_response("execute_query", _payload([{"x": 1}]), {
        "graphIdentifier": GRAPH, "queryString": "RETURN 1 AS x", "language": "OPEN_CYPHER",
    })
    assert store.query("RETURN 1 AS x").rows == ((1,),)
    assert store.attempts == 3 and len(sleeps) == 2
    assert 0 <= sleeps[0] <= 0.2 and 0 <= sleeps[1] <= 0.4  # full jitter under the exponential cap


def test_analytics_failure_is_typed_with_code(analytics):
    store, stub, sleeps = analytics
    stub.add_client_error("execute_query", service_error_code="ValidationException",
                          service_message="bad syntax", http_status_code=400)
    with pytest.raises(QueryError) as exc:
        store.query("MATCH (n RETURN n")
    assert exc.value.code == "ValidationException" and GRAPH in str(exc.value)
    assert sleeps == []  # not retried


def test_analytics_retries_are_capped(analytics):
    store, stub, sleeps = analytics
    for _ in range(5):
        _throttle(stub, "execute_query", "ThrottlingException", 429)
    with pytest.raises(QueryError) as exc:
        store.query("RETURN 1")
    assert exc.value.code == "ThrottlingException" and "after 5 attempts" in str(exc.value)
    assert len(sleeps) == 4 and all(s <= store.retry.cap_s for s in sleeps)


def test_analytics_rejects_writes_without_calling(analytics):
    store, _, _ = analytics
    with pytest.raises(ReadOnlyViolation):
        store.query("MATCH (n) DETACH DELETE n")
    assert store.attempts == 0


PG_SCHEMA = {
    "nodeLabels": ["Person", "City"],
    "edgeLabels": ["LIVES_IN"],
    "nodeLabelDetails": {
        "Person": {"properties": {"name": {"datatypes": ["String"]}, "age": {"datatypes": ["Int"]}}},
        "City": {"properties": {"name": {"datatypes": ["String"]}}},
    },
    "edgeLabelDetails": {"LIVES_IN": {"properties": {"since": {"datatypes": ["Int"]}}}},
    "labelTriples": [{"~type": "LIVES_IN", "~from": "Person", "~to": "City"}],
}


def test_analytics_schema_from_pg_schema(analytics):
    store, stub, _ = analytics
    stub.add_response("execute_query", _payload([{"schema": PG_SCHEMA}]), {
        "graphIdentifier": GRAPH, "language": "OPEN_CYPHER",
        "queryString": "CALL neptune.graph.pg_schema() YIELD schema RETURN schema",
    })
    sch = store.schema(samples=0)
    assert sch.label_names == ["City", "Person"]
    person = next(n for n in sch.node_labels if n.name == "Person")
    assert {(p.name, p.type) for p in person.properties} == {("name", "String"), ("age", "Int")}
    (rel,) = sch.relation_types
    assert rel.name == "LIVES_IN" and [(p.src, p.dst) for p in rel.patterns] == [("Person", "City")]
    assert rel.properties[0].name == "since"
    assert store.schema(samples=0) is sch  # cached: no second request


def test_analytics_batched_neighbors_one_request(analytics):
    store, stub, _ = analytics
    sent: list[dict] = []
    store.client.meta.events.register(
        "before-parameter-build.neptune-graph.ExecuteQuery", lambda params, **_: sent.append(params)
    )
    stub.add_response("execute_query", _payload([{"schema": PG_SCHEMA}]), {
        "graphIdentifier": GRAPH, "language": "OPEN_CYPHER", "queryString": ANY,
    })
    stub.add_response(
        "execute_query",
        _payload([
            {"i": "p1", "total": 3, "rows": [["LIVES_IN", "c1", True, {"since": 2001}],
                                             ["LIVES_IN", "p9", False, {}]]},
            {"i": "c1", "total": 1, "rows": [["LIVES_IN", "p1", False, {"since": 2001}]]},
        ]),
        {"graphIdentifier": GRAPH, "language": "OPEN_CYPHER", "queryString": ANY,
         "parameters": {"ids": ["p1", "c1", "nope"], "cap": 2}},
    )
    got = store.neighbors(["p1", "c1", "nope"], relations=["LIVES_IN", "MISSING"],
                          limit_per_node=2, direction=Direction.BOTH)
    assert got["p1"].triplets == (
        Triplet(head="p1", relation="LIVES_IN", tail="c1", properties={"since": 2001}),
        Triplet(head="p9", relation="LIVES_IN", tail="p1"),
    )
    assert got["p1"].total == 3 and got["p1"].truncated
    assert got["c1"].triplets[0].key == ("p1", "LIVES_IN", "c1") and not got["c1"].truncated
    assert got["nope"].total == 0
    assert store.attempts == 2  # pg_schema (relation validation, cached) + one batched query
    q = sent[-1]["queryString"]
    # the shared openCypher builder: Neptune ids (~id / id()), validated + escaped relation type
    assert q.startswith("UNWIND $ids AS i MATCH (n {`~id`: i})") and "id(m)" in q
    assert "[r:`LIVES_IN`]" in q and "MISSING" not in q


def test_analytics_vector_search(analytics):
    store, stub, _ = analytics
    stub.add_response("execute_query", _payload([{"id": "p1", "score": 0.1}, {"id": "p2", "score": 0.3}]), {
        "graphIdentifier": GRAPH, "language": "OPEN_CYPHER", "queryString": ANY,
        "parameters": {"embedding": [0.5, 0.25], "k": 2},
    })
    assert store.vector_search([[0.5, 0.25]], k=2) == [[("p1", 0.1), ("p2", 0.3)]]


def test_analytics_has_no_native_shortest_path(analytics):
    store, _, _ = analytics
    with pytest.raises(CapabilityError):
        store.shortest_paths([("a", "b")])


# ------------------------------------------------------------------- Neptune Database


def test_database_query_parameters_are_a_json_string(database):
    store, stub, _ = database
    params = {"ids": ["a", "b"], "name": "Zoë \"Q\""}
    stub.add_response(
        "execute_open_cypher_query",
        {"results": [{"i": "a", "degree": 2}]},
        {"openCypherQuery": ANY, "parameters": json.dumps(params, ensure_ascii=False)},
    )
    res = store.query("UNWIND $ids AS i RETURN i, 2 AS degree, $name AS x", params)
    assert res.rows == (("a", 2),)
    assert store.client.meta.endpoint_url == "https://db.example.com:8182"


def test_database_throttling_then_success_and_failure(database):
    store, stub, sleeps = database
    _throttle(stub, "execute_open_cypher_query", "TooManyRequestsException", 429)
    _throttle(stub, "execute_open_cypher_query", "ConcurrentModificationException", 500)
    stub.add_response("execute_open_cypher_query", {"results": [{"x": 1}]},
                      {"openCypherQuery": "RETURN 1 AS x"})
    assert store.query("RETURN 1 AS x").rows == ((1,),)
    assert len(sleeps) == 2
    stub.add_client_error("execute_open_cypher_query", service_error_code="MalformedQueryException",
                          service_message="no", http_status_code=400)
    with pytest.raises(QueryError) as exc:
        store.query("MATCH (")
    assert exc.value.code == "MalformedQueryException" and "db.example.com" in str(exc.value)


def test_database_schema_from_summary_and_degrees(database):
    store, stub, _ = database
    stub.add_response("get_propertygraph_summary", {"statusCode": 200, "payload": {
        "version": "v1",
        "graphSummary": {
            "numNodes": 3, "numEdges": 2, "numNodeLabels": 1, "numEdgeLabels": 1,
            "nodeLabels": ["airport"], "edgeLabels": ["route"],
        },
    }}, {"mode": "detailed"})
    stub.add_response("execute_open_cypher_query", {"results": [{"c": 3}]}, {"openCypherQuery": ANY})
    stub.add_response("execute_open_cypher_query", {"results": [{"c": 2}]}, {"openCypherQuery": ANY})
    stub.add_response(
        "execute_open_cypher_query",
        {"results": [{"src": ["airport"], "dst": ["airport"], "an": "AUS", "bn": "SEA", "p": {"dist": 1}}]},
        {"openCypherQuery": ANY, "parameters": json.dumps({"n": 20})},
    )
    sch = store.schema(samples=0)
    assert sch.label_names == ["airport"] and sch.node_labels[0].count == 3
    (rel,) = sch.relation_types
    assert rel.count == 2 and [(p.src, p.dst) for p in rel.patterns] == [("airport", "airport")]
    st = store.stats()
    assert (st.nodes, st.triplets) == (3, 2)
    stub.add_response("execute_open_cypher_query", {"results": [{"i": "AUS", "degree": 2}]},
                      {"openCypherQuery": ANY, "parameters": json.dumps({"ids": ["AUS", "XXX"]})})
    assert store.degrees(["AUS", "XXX"]) == {"AUS": 2, "XXX": 0}


def test_database_explain(database):
    store, stub, _ = database
    plan = b"==== Neptune Query Plan ====\nDFEPipelineScan ..."
    stub.add_response("execute_open_cypher_explain_query",
                      {"results": StreamingBody(io.BytesIO(plan), len(plan))},
                      {"openCypherQuery": "MATCH (n) RETURN n", "explainMode": "static"})
    ex = store.explain("MATCH (n) RETURN n")
    assert "Neptune Query Plan" in ex["plan"] and ex["read_only"] is True


def test_client_from_standard_aws_configuration(monkeypatch):
    from byokg.graph.open import open_graph

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    db = open_graph("neptune-db://my-cluster.example.com:8183")
    assert db.client.meta.endpoint_url == "https://my-cluster.example.com:8183"
    assert db.client.meta.region_name == "eu-west-1"
    ga = open_graph(f"neptune-graph://{GRAPH}?region=us-west-2")
    assert ga.client.meta.region_name == "us-west-2" and ga.graph_id == GRAPH
    assert ga.client.meta.config.retries["total_max_attempts"] == 1  # byokg retries, not botocore


def test_backoff_is_capped_full_jitter():
    import random

    from byokg.models.retry import RetryPolicy

    pol = RetryPolicy(retries=9, base_s=1.0, cap_s=4.0, rng=random.Random(0))
    delays = [pol.delay(n) for n in range(10) for _ in range(50)]
    assert max(delays) <= 4.0 and min(delays) >= 0.0
    assert max(pol.delay(0) for _ in range(200)) <= 1.0
    assert max(delays) > 3.0  # the cap is reached, not just the first step


def test_uri_options_are_checked():
    from byokg.backends.neptune import NeptuneAnalyticsGraph
    from byokg.backends.neptune import NeptuneDatabaseGraph

    from byokg.errors import ConfigError
    from byokg.graph.open import open_graph

    with pytest.raises(ConfigError) as ei:
        NeptuneAnalyticsGraph(f"neptune-graph://{GRAPH}?regoin=us-east-1")
    assert str(ei.value) == (f"'neptune-graph://{GRAPH}?regoin=us-east-1': unknown option "
                             "'regoin' (neptune-graph:// URIs accept display, region, profile)")
    with pytest.raises(ConfigError) as ei:
        NeptuneDatabaseGraph("neptune-db://db.example.com?prot=8182")
    assert "unknown option 'prot' (neptune-db:// URIs accept display, region, profile, port)" \
        in str(ei.value)
    with pytest.raises(ConfigError, match="unknown option 'timeout'"):
        open_graph(f"neptune-graph://{GRAPH}?display=Person.name&timeout=5")
