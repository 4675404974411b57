"""Execution: LIMIT injection (lexer-based), parameters, timeout, row cap, rendering, errors —
on a real Kùzu Northwind graph."""

from __future__ import annotations

import pytest

from byokg.contracts import QueryResult
from byokg.cypher.execute import Status
from byokg.cypher.execute import classify_error
from byokg.cypher.execute import execute
from byokg.cypher.execute import final_limit
from byokg.cypher.execute import inject_limit
from byokg.cypher.execute import render_table
from byokg.cypher.execute import to_context_item
from byokg.errors import BackendError
from byokg.errors import QueryError
from byokg.errors import ReadOnlyViolation

INJECT = [  # (query, injected?)
    ("MATCH (n) RETURN n", True),
    ("MATCH (n) RETURN DISTINCT n.x", True),
    ("MATCH (n) RETURN n ORDER BY n.x SKIP 2", True),
    ("MATCH (n) WITH n, count(*) AS c RETURN n.name, c ORDER BY c DESC", True),
    ("MATCH (n) WITH n LIMIT 3 RETURN n", True),
    ("CALL { MATCH (a) RETURN a LIMIT 2 } RETURN a", True),
    ("MATCH (c) RETURN c.name, COUNT { MATCH (c)--() } AS degree", True),
    ("MATCH (n) WHERE n.x = 'LIMIT 5' RETURN n", True),
    ("MATCH (n) RETURN n.limit", True),
    ("MATCH (n) RETURN n.count AS count", True),
    ("CALL db.labels() YIELD label RETURN label", True),
    ("RETURN 1", True),
    ("MATCH (n) RETURN count(*)", False),
    ("MATCH (n) RETURN COUNT(n) AS total", False),
    ("MATCH (n) RETURN n.name, count(*) AS c", False),
    ("MATCH (n) RETURN n.name, sum(n.x) AS s ORDER BY s DESC", False),
    ("MATCH (n) RETURN collect(n.name)", False),
    ("MATCH (n) RETURN size(collect(n)) AS k", False),
    ("MATCH (n) RETURN count(*) > 0 AS any", False),
    ("MATCH (n) RETURN avg(n.x), min(n.x), max(n.x)", False),
    ("CALL { MATCH (a) RETURN a } RETURN count(a)", False),
    ("MATCH (n) RETURN n LIMIT 5", False),
    ("MATCH (n) RETURN n SKIP 1 LIMIT 2", False),
    ("MATCH (a) RETURN a UNION MATCH (b) RETURN b", False),
    ("CALL db.labels()", False),
    ("MATCH (n) RETURN n LIMIT 'oops", False),  # unreadable: untouched
]


@pytest.mark.parametrize(("query", "injected"), INJECT)
def test_limit_injection(query: str, injected: bool) -> None:
    out, did = inject_limit(query, 7)
    assert did is injected
    if injected:
        assert out.endswith(" LIMIT 7")
        assert out.startswith(query)
    else:
        assert out == query


def test_limit_injection_keeps_comments_and_semicolon() -> None:
    assert inject_limit("MATCH (n) RETURN n // note", 3)[0] == "MATCH (n) RETURN n LIMIT 3 // note"
    assert inject_limit("MATCH (n) RETURN n;", 3)[0] == "MATCH (n) RETURN n LIMIT 3;"


def test_execution_params_cap_and_table(nw_kuzu) -> None:
    q = "MATCH (c:Customer {country: $country}) RETURN c.companyName AS name ORDER BY name"
    ex = execute(nw_kuzu, q, {"country": "Germany", "unused": 1}, row_limit=5)
    assert ex.status is Status.OK, ex.error
    assert ex.limit_injected and ex.executed.endswith("LIMIT 6")
    assert ex.result.columns == ("name",)
    assert len(ex.result.rows) == 5 and ex.result.truncated
    assert ex.result.rows[0] == ("Alfreds Futterkiste",)
    text = render_table(ex.result, row_limit=5)
    assert text.splitlines()[0] == "| name |"
    assert "TRUNCATED" in text and "5 rows" in text
    item = to_context_item(ex, iteration=1, row_limit=5)
    assert item.kind == "query" and item.tool == "cypher" and item.iteration == 1
    assert item.query == ex.executed and item.rows == ex.result
    assert "Alfreds Futterkiste" in item.text


@pytest.mark.parametrize("query, limit", [
    ("MATCH (o:`Order`) RETURN o.orderID LIMIT 50", 50),
    ("MATCH (o:`Order`) RETURN o.orderID ORDER BY o.orderID limit 3;", 3),
    ("MATCH (o:`Order`) WITH o LIMIT 5 RETURN o.orderID", None),  # not the final RETURN's
    ("MATCH (o:`Order`) RETURN o.orderID LIMIT $n", None),
    ("MATCH (o:`Order`) RETURN o.orderID", None),
    ("MATCH (o:`Order`) RETURN o.orderID // LIMIT 9", None),
])
def test_the_query_s_own_limit_is_read(query: str, limit: int | None) -> None:
    assert final_limit(query) == limit


def test_a_full_own_limit_says_more_rows_may_exist(nw_kuzu) -> None:
    """830 orders: a query that asks for 50 gets 50 and the result says the list may be cut;
    one that asks for 900 is not full."""
    ex = execute(nw_kuzu, "MATCH (o:`Order`) RETURN o.orderID LIMIT 50", row_limit=100)
    assert ex.result.limit == 50 and ex.result.limit_reached and not ex.result.truncated
    assert "own LIMIT 50 was reached: more rows may exist" in render_table(ex.result)
    ex = execute(nw_kuzu, "MATCH (o:`Order`) RETURN o.orderID LIMIT 900", row_limit=1000)
    assert ex.result.limit == 900 and not ex.result.limit_reached


def test_numbers_stay_numbers(nw_kuzu) -> None:
    ex = execute(nw_kuzu, "MATCH (p:Product {productName: 'Chai'}) "
                 "RETURN p.unitPrice AS price, p.unitsInStock AS stock, p.discontinued AS d")
    assert ex.status is Status.OK, ex.error
    price, stock, disc = ex.result.rows[0]
    assert isinstance(price, float) and price == 18.0
    assert isinstance(stock, int) and not isinstance(stock, bool) and stock == 39
    assert disc is False
    assert "| 18.0 | 39 | false |" in render_table(ex.result)


def test_aggregate_not_limited_and_rewrites_recorded(nw_kuzu) -> None:
    ex = execute(nw_kuzu, "MATCH (o:Order) RETURN count(o) AS orders", row_limit=1)
    assert ex.status is Status.OK and not ex.limit_injected
    assert ex.result.rows == ((830,),) and not ex.result.truncated
    ex = execute(nw_kuzu, "MATCH (o:Order) WHERE toFloat(o.freight) > 500 RETURN count(*) AS n")
    assert ex.status is Status.OK, ex.error
    assert ex.result.rows[0][0] == 13
    assert any("toFloat" in r for r in ex.rewrites) and any("Order" in r for r in ex.rewrites)


def test_nodes_render_as_property_maps(nw_kuzu) -> None:
    ex = execute(nw_kuzu, "MATCH (c:Category {categoryName: 'Seafood'}) RETURN c")
    assert ex.status is Status.OK
    node = ex.result.rows[0][0]
    assert isinstance(node, dict) and node["categoryName"] == "Seafood" and "_id" not in node


def test_errors_are_classified(nw_kuzu) -> None:
    ex = execute(nw_kuzu, "MATCH (c:Custmer) RETURN c")
    assert ex.status is Status.ERROR and ex.error_kind == "planning" and ex.retryable
    assert "Custmer" in ex.error
    ex = execute(nw_kuzu, "MATCH (c:Customer RETURN c")
    assert ex.status is Status.ERROR and ex.error_kind == "syntax" and ex.retryable
    ex = execute(nw_kuzu, "MATCH (c:Customer) DETACH DELETE c")
    assert ex.status is Status.REJECTED and not ex.retryable and ex.executed is None
    assert classify_error(BackendError("ServiceUnavailable: connection refused")) == (
        "connection", False)
    assert classify_error(QueryError("Neo.ClientError.Security.Unauthorized")) == ("auth", False)
    assert classify_error(ReadOnlyViolation("write")) == ("rejected", False)
    assert classify_error(QueryError("Binder exception: Cannot find property x")) == (
        "planning", True)


def test_timeout_stops_a_long_query(nw_kuzu) -> None:
    q = ("MATCH (a:`Order`), (b:`Order`), (c:`Order`) "
         "WHERE a.freight < b.freight AND b.freight < c.freight RETURN count(*)")
    ex = execute(nw_kuzu, q, timeout_s=0.05)
    assert ex.status is Status.TIMEOUT, (ex.status, ex.error)
    assert not ex.retryable


class _Boom:
    dialect = "neo4j"
    capabilities = frozenset({"cypher"})

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def query(self, *a, **k) -> QueryResult:
        raise self.exc


def test_connection_errors_are_not_retryable() -> None:
    ex = execute(_Boom(BackendError("connection refused by 127.0.0.1:7687")), "MATCH (n) RETURN n")
    assert ex.status is Status.ERROR and ex.error_kind == "connection" and not ex.retryable
    ex = execute(_Boom(TimeoutError("took too long")), "MATCH (n) RETURN n")
    assert ex.status is Status.TIMEOUT
