"""Routing on Northwind (Kùzu) with a scripted LLM behind the local OpenAI-compatible test server:
aggregation questions go Cypher-first with K candidates checked by execution, the winner's rows
are the evidence, and the arithmetic is done in Python (numbers checked against the gold results
of the shared Northwind data). Also: the fallback to the KG-Linker, and the query critic on/off."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import llm_stub
import pytest

from byokg.config import RunConfig
from byokg.pipeline.engine import Engine

ROUTED = {"proposer": "routed-linker", "answerer": "rows-answer"}

# Per question: the K candidates the scripted router writes (wrong ones first, on purpose).
CANDIDATES = {
    "How many different categories of products do we have?": [
        "MATCH (c:Categroy) RETURN count(c)",  # misspelt label: an engine error
        "MATCH (c:Category) RETURN c.categoryName AS name",  # rows to count (fit 0.5)
        "MATCH (c:Category) RETURN count(DISTINCT c) AS n",  # one number (fit 1.0)
    ],
    "What is the total number of units ordered for products by 'Vins et alcools Chevalier'?": [
        "MATCH (c:Customer {companyName: 'Vins et alcools Chevalier'}) RETURN c.city",
        "MATCH (c:Customer {companyName: 'Vins et alcools Chevalier'})-[:PURCHASED]->(o:`Order`)"
        "-[d:ORDERS]->(p:Product) RETURN o.orderID AS id, p.productName AS product, "
        "d.quantity AS quantity",  # rows: Python adds them up
    ],
    "What is the average unit price of products in the 'Dairy Products' category?": [
        "MATCH (p:Product)-[:PART_OF]->(c:Category {categoryName: 'Dairy Products'}) "
        "RETURN p.unitPrice AS price",  # rows: Python averages them
    ],
    "What are the top 3 categories with the most products?": [
        "MATCH (p:Product)-[:PART_OF]->(c:Category) RETURN c.categoryName AS category, "
        "count(p) AS products",  # every category, unordered: Python ranks them
    ],
    "What is the maximum unitsOnOrder for products within the 'Confections' category?": [
        "MATCH (p:Product)-[:PART_OF]->(c:Category {categoryName: 'Confections'}) "
        "RETURN p.productName AS product, p.unitsOnOrder AS onOrder",
    ],
}
FALLBACK_Q = "How many products are supplied by 'Nobody Anywhere Ltd'?"


def _question(prompt: str) -> str:
    found = re.findall(r"^Question: (.+)$", prompt, flags=re.M)
    return found[-1].strip() if found else ""


class Script:
    """The scripted LLM: router replies from CANDIDATES; the critic swaps a wrong candidate for
    the right one when ``fix`` has it; the ordinary KG-Linker prompt gets a plain reply."""

    def __init__(self) -> None:
        self.kinds: list[str] = []
        self.fix: dict[str, str] = {}
        self.linker_cypher = ""

    def __call__(self, prompt: str, body: dict) -> str:
        q = _question(prompt)
        if "You are the query router" in prompt:
            self.kinds.append("route")
            return "<cypher>\n" + "\n\n".join(CANDIDATES.get(q, [
                "MATCH (s:Supplier) SET s.companyName = 'x' RETURN count(s)",  # a write
                "MATCH (s:Suplier) RETURN count(s)"])) + "\n</cypher>"
        if "You check openCypher queries" in prompt:
            self.kinds.append("critic")
            block = prompt.split("Queries to check:\n", 1)[1].split("\n\nQuestion:", 1)[0]
            queries = [x for x in block.split("\n\n") if x.strip()]
            fixed = [self.fix.get(x.strip(), x) for x in queries]
            return "OK" if fixed == queries else "<cypher>\n" + "\n\n".join(fixed) + "\n</cypher>"
        if "You are KG-Linker" in prompt:
            self.kinds.append("kg-linker")
            cypher = f"<cypher>\n{self.linker_cypher}\n</cypher>\n" if self.linker_cypher else ""
            return ("<entities>\nNobody Anywhere Ltd\n</entities>\n<relation-paths>\nSUPPLIES\n"
                    f"</relation-paths>\n{cypher}<answers>\n</answers>")
        self.kinds.append("answer")
        return "<answers>\n0\n</answers>"


@pytest.fixture(scope="module")
def northwind(northwind_kuzu):
    return northwind_kuzu


@pytest.fixture(scope="module")
def gold(shared_data) -> dict[str, list[list]]:
    out: dict[str, list[list]] = {}
    for line in (shared_data / "northwind" / "kuzu_gold_results.jsonl").read_text().splitlines():
        g = json.loads(line)
        if g["kuzu_status"] == "ok" and g["question"] in CANDIDATES:
            out.setdefault(g["question"], g["kuzu_rows"])
    assert set(out) == set(CANDIDATES)
    return out


@pytest.fixture
def script():
    s = Script()
    stub = llm_stub.ChatStub(s).start()
    s.url = stub.url
    yield s
    stub.stop()


def _engine(store, script, **cfg) -> Engine:
    opts = {"base_url": script.url, "api_key": "test", "retries": 0}
    return Engine(store, RunConfig(llm="openai:test", llm_options=opts, **cfg))


def _num(text: str) -> float:
    return float(text)


def test_count_winner_by_shape_one_call(northwind, script, gold):
    q = "How many different categories of products do we have?"
    a = _engine(northwind, script, **ROUTED, tools=["cypher"]).ask(q)
    assert a.answers == [str(gold[q][0][0])] == ["8"]
    assert script.kinds == ["route"]  # one call: no KG-Linker, no answer call
    assert len(a.trace.llm_calls) == 1
    routing = [e for e in a.trace.events if e.source == "routing"]
    fits = [e.data["fit"] for e in routing if "candidate" in e.data]
    assert fits == [0.0, 0.5, 1.0]  # error, rows to count, one number: all three ran
    assert routing[0].data["status"] == "error" and routing[0].data["error_kind"] == "planning"
    assert any("candidate 3 of 3 wins" in e.message for e in routing)
    assert a.evidence[0].kind == "computed" and "count(DISTINCT c)" in a.evidence[0].query
    assert a.evidence[1].kind == "query" and a.evidence[1].rows.rows == ((8,),)


def test_the_winning_candidate_is_not_run_again_by_the_query_tool(northwind, script,
                                                                  monkeypatch):
    """The routed proposer ran every candidate already: the query tool reads the winner's
    execution back instead of sending it to the worker a second time."""
    import byokg.cypher.repair as repair

    runs: list[str] = []
    real = repair.execute

    def counted(store, query, *args, **kw):
        runs.append(query)
        return real(store, query, *args, **kw)

    monkeypatch.setattr(repair, "execute", counted)
    q = "How many different categories of products do we have?"
    a = _engine(northwind, script, **ROUTED, tools=["cypher"]).ask(q)
    assert a.answers == ["8"]
    assert runs == []
    assert any(e.source == "cypher" and e.data.get("outcome") == "ok" for e in a.trace.events)


def test_sum_is_computed_in_python_from_the_rows(northwind, script, gold):
    q = "What is the total number of units ordered for products by 'Vins et alcools Chevalier'?"
    a = _engine(northwind, script, **ROUTED, tools=["cypher"]).ask(q)
    assert _num(a.answers[0]) == gold[q][0][0] == 98.0
    ev = a.evidence[0]
    assert "computed in Python" in ev.text and ev.metadata["op"] == "sum"
    rows = a.evidence[1].rows
    assert len(rows.rows) > 1 and sum(r[-1] for r in rows.rows) == 98  # the rows are the support
    assert script.kinds == ["route"]


def test_avg_and_max_in_python(northwind, script, gold):
    eng = _engine(northwind, script, **ROUTED, tools=["cypher"])
    q = "What is the average unit price of products in the 'Dairy Products' category?"
    a = eng.ask(q)
    assert _num(a.answers[0]) == pytest.approx(gold[q][0][0])
    assert a.evidence[0].metadata["op"] == "avg" and len(a.evidence[1].rows.rows) == 10
    q = "What is the maximum unitsOnOrder for products within the 'Confections' category?"
    a = eng.ask(q)
    assert _num(a.answers[0]) == gold[q][0][0] == 70


def test_top_k_ranked_in_python_with_ties(northwind, script, gold):
    q = "What are the top 3 categories with the most products?"
    a = _engine(northwind, script, **ROUTED, tools=["cypher"]).ask(q)
    top = {r[0] for r in gold[q]}
    assert top <= set(a.answers)  # the gold's three, plus any tied at the cut
    assert a.answers[0] == "Confections"
    counts = dict(a.evidence[1].rows.rows)
    third = sorted(counts.values(), reverse=True)[2]
    assert set(a.answers) == {c for c, n in counts.items() if n >= third}


def test_no_fitting_candidate_falls_back_to_the_kg_linker(northwind, script):
    a = _engine(northwind, script, **ROUTED).ask(FALLBACK_Q)
    assert script.kinds[:2] == ["route", "kg-linker"]
    assert a.trace.counts.get("routed-linker.route_fallback") == 1
    assert any("take over" in e.message for e in a.trace.events if e.source == "routing")
    status = [e.data["status"] for e in a.trace.events if e.source == "routing"
              and "candidate" in e.data]
    assert status == ["rejected", "error"]  # the guard refused the write before it ran
    assert northwind.query("MATCH (s:Supplier {companyName: 'x'}) RETURN count(s)").rows == ((0,),)


def test_lookup_on_a_typed_graph_goes_cypher_first(northwind, script):
    q = "Which products does 'Exotic Liquids' supply?"
    CANDIDATES[q] = ["MATCH (s:Supplier {companyName: 'Exotic Liquids'})-[:SUPPLIES]->"
                     "(p:Product) RETURN p.productName AS product"]
    try:
        a = _engine(northwind, script, **ROUTED).ask(q)
        assert script.kinds == ["route", "answer"]  # the LLM answers a lookup from the rows
        assert [it.kind for it in a.context] == ["query"]  # path tools did not run: no entities
        script.kinds.clear()
        _engine(northwind, script, **ROUTED, params={"routed-linker": {"lookups": False}}).ask(q)
        assert script.kinds[0] == "kg-linker"
    finally:
        del CANDIDATES[q]


def test_routing_off_is_the_plain_kg_linker(northwind, script):
    q = "How many different categories of products do we have?"
    _engine(northwind, script, tools=["cypher"]).ask(q)
    assert "route" not in script.kinds and script.kinds[0] == "kg-linker"


def test_critic_off_by_default_and_on_corrects_a_candidate(northwind, script, gold):
    q = "How many different categories of products do we have?"
    eng = _engine(northwind, script, **ROUTED, tools=["cypher"])
    assert eng.config.query_critic is False
    eng.ask(q)
    assert "critic" not in script.kinds
    script.kinds.clear()
    script.fix = {CANDIDATES[q][0]: "MATCH (c:Category) RETURN count(c) AS n"}
    a = _engine(northwind, script, **ROUTED, tools=["cypher"], query_critic=True).ask(q)
    assert script.kinds == ["route", "critic"]  # the winner is not checked a second time
    assert a.trace.counts.get("routed-linker.critic_changed") == 1
    fits = [e.data["fit"] for e in a.trace.events if e.source == "routing" and "fit" in e.data
            and "candidate" in e.data]
    assert fits[0] == 1.0  # the corrected first candidate now runs and fits
    assert a.answers == ["8"]


def test_critic_in_the_cypher_tool(northwind, script):
    """Without routing the critic checks the KG-Linker's queries in the cypher tool, before they
    run: the corrected query is the one that runs; off, the wrong one runs."""
    wrong = "MATCH (c:Category) RETURN c.categoryName AS name"
    right = "MATCH (c:Category) RETURN count(c) AS n"
    script.linker_cypher = wrong
    script.fix = {wrong: right}
    q = "How many different categories of products do we have?"
    off = _engine(northwind, script, tools=["cypher"], iterations=1).ask(q)
    assert "critic" not in script.kinds
    assert [it.query for it in off.context if it.kind == "query"] == [wrong + " LIMIT 51"]
    script.kinds.clear()
    on = _engine(northwind, script, tools=["cypher"], iterations=1, query_critic=True).ask(q)
    assert script.kinds[:2] == ["kg-linker", "critic"]
    assert [it.query for it in on.context if it.kind == "query"] == [right]
    assert on.trace.counts.get("cypher.critic_changed") == 1
    assert len(on.trace.llm_calls) == len(off.trace.llm_calls) + 1


def test_routing_is_a_config_choice_the_engine_does_not_name():
    engine = Path(__file__).resolve().parents[2] / "byokg" / "pipeline" / "engine.py"
    tree = ast.parse(engine.read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str)}
    assert not strings & {"routed-linker", "rows-answer"}
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert not {"aggregate", "route", "routing", "query_critic"} & names


def test_a_write_from_the_critic_is_refused_by_the_guard(northwind, script):
    """The critic's reply is LLM text like any other: its queries go through the guard."""
    script.linker_cypher = "MATCH (c:Category) RETURN c.categoryName AS name"
    script.fix = {script.linker_cypher: "MATCH (c:Category) SET c.categoryName = 'gone' RETURN c"}
    a = _engine(northwind, script, tools=["cypher"], iterations=1, query_critic=True).ask(
        "How many different categories of products do we have?")
    assert a.trace.counts.get("cypher.cypher_rejected") == 1
    assert northwind.query("MATCH (c:Category {categoryName: 'gone'}) RETURN count(c)").rows \
        == ((0,),)


def test_route_prompt_bytes_do_not_depend_on_the_store_order():
    from byokg.plugins.kglinker.prompt import render_schema_for
    from byokg.plugins.routing.shapes import route_prompt

    from byokg.contracts import GraphSchema
    from byokg.contracts import NodeLabel
    from byokg.contracts import PropertyInfo
    from byokg.language.analysis import analyze
    from byokg.models.similarity import Similarity

    a = analyze("How many ships does each harbour hold?")
    labels = [NodeLabel(name="Ship", properties=(PropertyInfo(name="tons", type="INT64"),
                                                 PropertyInfo(name="name", type="STRING"))),
              NodeLabel(name="Harbour", properties=(PropertyInfo(name="name", type="STRING"),))]
    one = route_prompt(a, render_schema_for(GraphSchema(node_labels=tuple(labels)), Similarity(a)), k=3)
    two = route_prompt(a, render_schema_for(GraphSchema(node_labels=tuple(reversed(labels))), Similarity(a)),
                       k=3)
    assert one.text == two.text and one.checksum == two.checksum
    assert "how many" in one.text and "Question: How many ships" in one.text


def test_critic_is_skipped_not_fatal_when_the_call_budget_is_spent(northwind, script):
    q = "How many different categories of products do we have?"
    a = _engine(northwind, script, **ROUTED, tools=["cypher"], query_critic=True,
                max_llm_calls=2).ask(q)  # one call for the router, one kept for the answer
    assert script.kinds == ["route"]
    assert a.trace.counts.get("routed-linker.critic_skipped") == 1
    assert a.answers == ["8"]


def test_yes_no_comparison_on_northwind(northwind, script):
    q = "Does 'Chai' cost more than 'Chang'?"
    CANDIDATES[q] = ["MATCH (p:Product) WHERE p.productName IN ['Chai', 'Chang'] "
                     "RETURN p.productName AS product, p.unitPrice AS price"]
    try:
        a = _engine(northwind, script, **ROUTED, tools=["cypher"]).ask(q)
    finally:
        del CANDIDATES[q]
    prices = dict(northwind.query("MATCH (p:Product) WHERE p.productName IN ['Chai', 'Chang'] "
                                  "RETURN p.productName, p.unitPrice").rows)
    assert a.answers == ["yes" if prices["Chai"] > prices["Chang"] else "no"]
    assert script.kinds == ["route"] and "compared in Python" in a.evidence[0].text


def test_no_routing_when_no_tool_runs_queries(northwind, script):
    q = "How many different categories of products do we have?"
    _engine(northwind, script, **ROUTED, tools=["follow-paths"], iterations=1).ask(q)
    assert script.kinds[0] == "kg-linker" and "route" not in script.kinds


def test_a_fenced_candidate_without_tags_is_read(northwind, script):
    q = "How many different categories of products do we have?"

    def fenced(prompt, body):
        if "You are the query router" in prompt:
            script.kinds.append("route")
            return "```cypher\nMATCH (c:Category) RETURN count(c) AS n\n```"
        return script(prompt, body)

    stub = llm_stub.ChatStub(fenced).start()
    try:
        opts = {"base_url": stub.url, "api_key": "test", "retries": 0}
        a = Engine(northwind, RunConfig(llm="openai:test", llm_options=opts, tools=["cypher"],
                                        **ROUTED)).ask(q)
    finally:
        stub.stop()
    assert a.answers == ["8"] and script.kinds == ["route"]


def test_equal_fit_goes_to_the_query_that_does_the_arithmetic(northwind, script):
    q = "Which 2 products have the highest unit price?"
    CANDIDATES[q] = [
        "MATCH (p:Product) RETURN p.productName AS product LIMIT 2",  # names, any two
        "MATCH (p:Product) RETURN p.productName AS product ORDER BY p.unitPrice DESC LIMIT 2",
    ]
    try:
        a = _engine(northwind, script, **ROUTED, tools=["cypher"]).ask(q)
    finally:
        del CANDIDATES[q]
    fits = [e.data["fit"] for e in a.trace.events if e.source == "routing" and "candidate" in e.data]
    assert fits[0] == fits[1]  # the shape cannot tell them apart
    top = northwind.query("MATCH (p:Product) RETURN p.productName ORDER BY p.unitPrice DESC "
                          "LIMIT 2").rows
    assert a.answers == [r[0] for r in top]
    assert any(e.data.get("winner") == 2 for e in a.trace.events if e.source == "routing")


def test_a_lookup_keeps_every_fitting_candidate_for_the_answer(northwind, script):
    q = "Which products does 'Exotic Liquids' supply?"
    CANDIDATES[q] = [
        "MATCH (s:Supplier {companyName: 'Exotic Liquids'}) RETURN s",
        "MATCH (s:Supplier {companyName: 'Exotic Liquids'})-[:SUPPLIES]->(p:Product) "
        "RETURN p.productName AS product",
    ]
    try:
        a = _engine(northwind, script, **ROUTED, tools=["cypher"]).ask(q)
    finally:
        del CANDIDATES[q]
    assert len([it for it in a.context if it.kind == "query"]) == 2
    assert script.kinds == ["route", "answer"]
