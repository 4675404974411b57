"""Repair hints by error class on the real Kùzu Northwind graph: each class of engine error gets
its own hint, the engine's whole message reaches the repair prompt, and a type error is never
explained as a missing property."""

from __future__ import annotations

import pytest
from cypher_helpers import ScriptedLLM

from byokg.cypher.repair import ERROR_CLASSES
from byokg.cypher.repair import error_class
from byokg.cypher.repair import full_message
from byokg.cypher.repair import run_with_repair

FIX = "<cypher>MATCH (c:Category) RETURN count(c) AS n</cypher>"

# (query, class, name the hint must mention, text of the engine message the prompt must hold)
CASES = [
    ("MATCH (c:Category RETURN count(c)", "syntax", None, "Invalid input"),
    ("MATCH (p:Product) RETURN p.price", "unknown_property", "price",
     "Cannot find property price"),
    ("MATCH (p:Prodcut) RETURN p.productName", "unknown_label", "Prodcut",
     "Prodcut does not exist"),
    ("MATCH (p:Product)-[:SUPPLIED_BY]->(s:Supplier) RETURN s.companyName",
     "unknown_relationship", "SUPPLIED_BY", "SUPPLIED_BY does not exist"),
    ("MATCH (p:Product) RETURN q.productName", "unknown_variable", "q", "not in scope"),
    ("MATCH (o:`Order`) RETURN sum(o.freight) AS total", "type_mismatch", None,
     "Actual:   (STRING)"),
    ("MATCH (p:Product) WHERE p.productName > 3 RETURN p.productName", "type_mismatch", None,
     'Could not convert "'),
]


@pytest.mark.parametrize(("query", "cls", "name", "message"), CASES,
                         ids=[c[1] + str(i) for i, c in enumerate(CASES)])
def test_each_error_class_gets_its_hint_and_the_whole_message(nw_kuzu, query, cls, name,
                                                               message) -> None:
    llm = ScriptedLLM([FIX])
    rep = run_with_repair(nw_kuzu, query, question="How many categories are there?", llm=llm)
    assert rep.trail == ["error", "ok"], rep.stopped
    first = rep.attempts[0]
    assert first.error_class == cls
    prompt = llm.prompts[0]
    assert f"Database error ({cls.replace('_', ' ')}):" in prompt
    assert message in prompt
    assert first.execution.error.strip() in prompt  # the engine's message, whole
    hint = prompt.split("Hint: ", 1)[1].split("\n", 1)[0]
    if name:
        assert f"`{name}`" in hint
    if cls == "type_mismatch":
        assert "property" not in hint.split("(", 1)[0]  # no "missing property" story
        assert "convert" in hint and "keep them" in hint
    assert rep.final.result.rows == ((8,),)


def test_type_error_message_is_not_cut_before_the_useful_part(nw_kuzu) -> None:
    """Kùzu lists every accepted signature before the end of its message; all of it arrives."""
    llm = ScriptedLLM([FIX])
    rep = run_with_repair(nw_kuzu, "MATCH (o:`Order`) RETURN avg(o.freight) AS a", llm=llm)
    err = rep.attempts[0].execution.error
    assert len(err) > 300  # longer than the old cut
    assert err.strip() in llm.prompts[0]
    assert "Actual:" in llm.prompts[0] and "(STRING)" in llm.prompts[0]


def test_empty_result_class(nw_kuzu) -> None:
    llm = ScriptedLLM([FIX])
    q = "MATCH (s:Supplier {companyName: 'Exotic Liquid'}) RETURN s.city"
    rep = run_with_repair(nw_kuzu, q, question="Where is Exotic Liquids?", llm=llm)
    assert rep.trail == ["empty", "ok"]
    assert "Result: no rows." in llm.prompts[0]
    assert "do not exist in the graph" in llm.prompts[0]
    assert "Database error" not in llm.prompts[0]


def test_error_class_on_other_engines_messages() -> None:
    """Neo4j / ArcadeDB / Neptune phrasings of the same classes."""
    assert error_class("Variable `x` not defined (line 1)", "planning") == ("unknown_variable", "x")
    assert error_class("Unknown function 'foo.bar'", "planning")[0] == "unknown_function"
    assert error_class("Type mismatch: expected Integer but was String", "planning")[0] == \
        "type_mismatch"
    assert error_class("Type with name 'Persn' was not found", "planning",
                       "MATCH (a:Persn) RETURN a") == ("unknown_label", "Persn")
    assert error_class("Something odd", "runtime") == ("runtime", None)
    assert error_class("Something odd", "planning") == ("planning", None)
    assert set(ERROR_CLASSES) >= {"syntax", "unknown_property", "unknown_label",
                                  "unknown_relationship", "type_mismatch", "empty"}


def test_full_message_marks_a_cut() -> None:
    long = "x" * 5000
    out = full_message(long, limit=100)
    assert out.startswith("x" * 100) and "4,900 more characters" in out
    assert full_message("  short  ") == "short"
