"""The repair loop with scripted LLM replies, on the real Kùzu Northwind graph and a small fake
store: a misspelt label is repaired from the database's error, a misspelt name through entity
verification, a negative existential stops as "verified empty" without calling the LLM, and
deterministic failures stop early."""

from __future__ import annotations

import pytest
from cypher_helpers import ScriptedLLM
from cypher_helpers import SuggestionLLM

from byokg.contracts import GraphSchema
from byokg.contracts import NodeLabel
from byokg.contracts import PropertyInfo
from byokg.contracts import QueryResult
from byokg.cypher.execute import Status
from byokg.cypher.repair import run_with_repair
from byokg.cypher.verify import extract_entities
from byokg.cypher.verify import nearest
from byokg.cypher.verify import verify
from byokg.errors import BackendError
from byokg.errors import QueryError
from byokg.models.replies import extract_query

# ----------------------------------------------------------------------------- on Kùzu

def test_misspelt_label_repaired_from_database_error(nw_kuzu) -> None:
    llm = SuggestionLLM()
    q = "MATCH (p:Prodcut {productName: 'Chai'}) RETURN p.unitPrice AS price"
    rep = run_with_repair(nw_kuzu, q, question="What does Chai cost?", llm=llm)
    assert rep.trail == ["error", "ok"], rep.stopped
    assert rep.final.result.rows == ((18.0,),)
    prompt = llm.prompts[0]
    assert "Prodcut does not exist" in prompt  # the database's own message
    assert "label 'Prodcut': NOT FOUND; nearest existing: 'Product'" in prompt
    assert "Hint:" in prompt and "What does Chai cost?" in prompt
    assert rep.attempts[0].execution.error_kind == "planning"
    assert len(rep.llm_calls) == 1 and rep.llm_calls[0].purpose == "cypher-repair"


def test_syntax_error_goes_back_with_message(nw_kuzu) -> None:
    llm = ScriptedLLM(["```cypher\nMATCH (c:Category) RETURN count(c) AS n\n```"])
    rep = run_with_repair(nw_kuzu, "MATCH (c:Category RETURN count(c)", llm=llm)
    assert rep.trail == ["error", "ok"]
    assert "Parser exception" in llm.prompts[0] and "syntax" in llm.prompts[0]
    assert "SHORTEST" in llm.prompts[0]  # the Kùzu dialect hints ride along on errors
    assert rep.final.result.rows == ((8,),)


def test_misspelt_name_repaired_through_entity_verification(nw_kuzu) -> None:
    llm = SuggestionLLM()
    q = ("MATCH (s:Supplier {companyName: 'Exotic Liquid'})-[:SUPPLIES]->(p:Product) "
         "RETURN p.productName AS product ORDER BY product")
    rep = run_with_repair(nw_kuzu, q, question="Which products does Exotic Liquids supply?",
                          llm=llm)
    assert rep.trail == ["empty", "ok"], rep.stopped
    ver = rep.attempts[0].verification
    assert ver is not None and not ver.all_exist
    assert [c.name for c in ver.missing] == ["Exotic Liquid"]
    assert ver.missing[0].suggestions[0] == "Exotic Liquids"
    assert ver.queries >= 2  # existence check + capped value fetch, both parameterised
    assert "Result: no rows." in llm.prompts[0]
    assert [r[0] for r in rep.final.result.rows] == ["Aniseed Syrup", "Chai", "Chang"]


def test_negative_existential_is_verified_empty_without_looping(nw_kuzu) -> None:
    llm = ScriptedLLM([])  # any call would fail the test
    q = ("MATCH (s:Supplier {companyName: 'Exotic Liquids'})-[:SUPPLIES]->(p:Product)"
         "-[:PART_OF]->(c:Category {categoryName: 'Seafood'}) RETURN p.productName")
    rep = run_with_repair(nw_kuzu, q, question="Which seafood does Exotic Liquids supply?",
                          llm=llm)
    assert rep.trail == ["verified_empty"]
    assert rep.final.status is Status.VERIFIED_EMPTY
    assert rep.attempts[0].verification.all_exist
    assert llm.prompts == [] and rep.llm_calls == []
    assert "verified empty" in rep.stopped


def test_value_checks_are_parameterised(nw_kuzu) -> None:
    seen: list[tuple[str, dict]] = []

    class Spy:
        dialect = nw_kuzu.dialect
        capabilities = nw_kuzu.capabilities

        def query(self, cypher, params=None, **kw):
            seen.append((cypher, dict(params or {})))
            return nw_kuzu.query(cypher, params, **kw)

        def schema(self, **kw):
            return nw_kuzu.schema(**kw)

    evil = "Berlin' OR 1=1 //"
    report = verify(Spy(), "MATCH (c:Customer) WHERE c.city = 'Berlin\\' OR 1=1 //' RETURN c")
    assert not report.all_exist
    assert seen and all(evil not in q for q, _ in seen)
    assert any(p.get("v") == evil for _, p in seen)


def test_stops_on_guard_rejection_without_llm_call(nw_kuzu) -> None:
    llm = ScriptedLLM([])
    rep = run_with_repair(nw_kuzu, "MATCH (c:Customer) SET c.city = 'x' RETURN c", llm=llm)
    assert rep.trail == ["rejected"] and llm.prompts == []
    assert "deterministic" in rep.stopped


# ----------------------------------------------------------------------------- fake store

class FakeStore:
    """A tiny neo4j-dialect store: fixed schema, scripted answers per query prefix."""

    dialect = "neo4j"
    capabilities = frozenset({"cypher"})

    def __init__(self, answers: dict[str, object]) -> None:
        self.answers = answers
        self.calls: list[str] = []

    def schema(self, *, samples: int = 3) -> GraphSchema:
        return GraphSchema(node_labels=(NodeLabel(name="Person", properties=(
            PropertyInfo(name="name"),)),))

    def query(self, cypher, params=None, *, timeout_s=None, row_limit=None) -> QueryResult:
        self.calls.append(cypher)
        for prefix, ans in self.answers.items():
            if cypher.startswith(prefix):
                if isinstance(ans, Exception):
                    raise ans
                return ans
        raise QueryError("SyntaxError: Invalid input")


@pytest.mark.parametrize("max_attempts", [1, 2, 3, 5])
def test_attempts_are_capped(max_attempts: int) -> None:
    store = FakeStore({})
    llm = ScriptedLLM([f"<cypher>MATCH (n{i}) RETURN n{i}</cypher>" for i in range(10)])
    rep = run_with_repair(store, "MATCH (n) RETURN n", llm=llm, max_attempts=max_attempts)
    assert len(rep.attempts) == max_attempts
    assert len(llm.prompts) == max_attempts - 1
    assert rep.trail == ["error"] * max_attempts
    assert "gave up" in rep.stopped


def test_connection_and_timeout_stop_early() -> None:
    for exc, kind in ((BackendError("ServiceUnavailable: connection refused"), "connection"),
                      (QueryError("transaction timed out", code="timeout"), "timeout"),
                      (QueryError("Neo.ClientError.Security.Unauthorized"), "auth")):
        llm = ScriptedLLM(["<cypher>MATCH (m) RETURN m</cypher>"])
        rep = run_with_repair(FakeStore({"MATCH": exc}), "MATCH (n) RETURN n", llm=llm)
        assert len(rep.attempts) == 1 and llm.prompts == [], kind
        assert rep.attempts[0].execution.error_kind == kind


def test_repeated_or_missing_query_stops() -> None:
    llm = ScriptedLLM(["<cypher>MATCH (n)  RETURN n</cypher>"])
    rep = run_with_repair(FakeStore({}), "MATCH (n) RETURN n", llm=llm)
    assert rep.stopped == "LLM repeated an earlier query" and len(rep.attempts) == 1
    llm = ScriptedLLM(["I cannot help with that."])
    rep = run_with_repair(FakeStore({}), "MATCH (n) RETURN n", llm=llm)
    assert rep.stopped == "LLM reply held no query"
    rep = run_with_repair(FakeStore({}), "MATCH (n) RETURN n", llm=None)
    assert rep.stopped == "no LLM to repair the query"
    with pytest.raises(ValueError):
        run_with_repair(FakeStore({}), "MATCH (n) RETURN n", max_attempts=0)


def test_empty_without_verification_and_unknown_value() -> None:
    empty = QueryResult(columns=("n",), rows=())
    store = FakeStore({"MATCH (p:Person {name: 'Bob'})": empty,
                       "MATCH (n:`Person`) WHERE n.`name` = $v": QueryResult(rows=((0,),)),
                       "MATCH (n:`Person`) WHERE n.`name` IS NOT NULL": QueryResult(
                           rows=(("Bobby",), ("Alice",)))})
    q = "MATCH (p:Person {name: 'Bob'}) RETURN p"
    rep = run_with_repair(store, q, verify_entities=False)
    assert rep.trail == ["empty"] and "verification off" in rep.stopped
    llm = ScriptedLLM(["<cypher>MATCH (p:Person {name: 'Bobby'}) RETURN p.name</cypher>"])
    store.answers["MATCH (p:Person {name: 'Bobby'})"] = QueryResult(columns=("p.name",),
                                                                    rows=(("Bobby",),))
    rep = run_with_repair(store, q, llm=llm)
    assert rep.trail == ["empty", "ok"]
    assert "nearest existing: 'Bobby'" in llm.prompts[0]


def test_extraction_helpers() -> None:
    assert extract_query("<cypher>\nMATCH (n) RETURN n\n</cypher>") == "MATCH (n) RETURN n"
    assert extract_query("Here:\n```cypher\nMATCH (n) RETURN n\n```") == "MATCH (n) RETURN n"
    assert extract_query("MATCH (n) RETURN n") == "MATCH (n) RETURN n"
    assert extract_query("no idea") is None
    used = extract_entities(
        "MATCH (a:Person {name: $n})-[r:KNOWS|LIKES {since: 2001}]->(b:`Movie`) "
        "WHERE b.title STARTS WITH 'The' AND 'x' = a.nick AND a.age IN [1, 2] RETURN a.name",
        {"n": "Ann"})
    assert used.labels == ["Person", "Movie"]
    assert used.relations == ["KNOWS", "LIKES"]
    assert ("a", "name", "=", "Ann") in used.values
    assert ("r", "since", "=", 2001) in used.values
    assert ("b", "title", "STARTS WITH", "The") in used.values
    assert ("a", "nick", "=", "x") in used.values
    assert ("a", "age", "=", 2) in used.values
    assert nearest("Prodcut", ["Product", "Category", "Order"])[0] == "Product"


def test_unlabeled_variables_are_still_verified(nw_kuzu) -> None:
    """``MATCH (n)`` gives no label: the value is looked up under every label with that
    property, so a misspelt value is not mistaken for a verified-empty answer."""
    rep = verify(nw_kuzu, "MATCH (n) WHERE n.companyName = 'Exotic Liquid' RETURN n")
    assert not rep.all_exist
    miss = rep.missing[0]
    assert miss.kind == "value" and miss.suggestions[0] == "Exotic Liquids"
    rep = verify(nw_kuzu, "MATCH (n) WHERE n.companyName = 'Exotic Liquids' RETURN n")
    assert rep.all_exist and rep.checks[-1].owner == "Supplier"
    rep = verify(nw_kuzu, "MATCH (n) WHERE n.compnyName = 'x' RETURN n")
    assert not rep.all_exist and "companyName" in rep.missing[0].suggestions
