"""The ``cypher`` tool plugin: registration, where it is offered, a full run on Kùzu."""

from __future__ import annotations

from byokg.plugins.cypher import CypherParams
from byokg.plugins.cypher import CypherTool
from cypher_helpers import ScriptedLLM
from cypher_helpers import SuggestionLLM

from byokg import registry
from byokg.config import RunConfig
from byokg.contracts import Artifacts
from byokg.models.base import LLMResponse
from byokg.models.services import Services
from byokg.pipeline.tools import ToolRequest


def test_registered_and_offered_only_with_cypher_and_llm(nw_kuzu, demo_store) -> None:
    registry.load_plugins()
    reg = registry.tools().get("cypher")
    assert reg.plugin.endswith("cypher")
    tool = registry.tools().create("cypher")
    assert isinstance(tool, CypherTool)
    assert tool.requires == frozenset({"cypher"}) and tool.needs_llm
    with_llm = Services(llm=ScriptedLLM([]))
    assert tool.applicable(nw_kuzu, with_llm)
    assert not tool.applicable(nw_kuzu, Services())  # no LLM: no generated queries to run
    assert "cypher" not in demo_store.capabilities
    assert not tool.applicable(demo_store, with_llm)  # local-graph mode: not offered
    # the path tools keep working on the local graph
    others = [registry.tools().create(n) for n in registry.tools().names() if n != "cypher"]
    assert any(t.applicable(demo_store, Services()) for t in others)


def test_params_from_run_config() -> None:
    cfg = RunConfig(params={"cypher": {"max_attempts": 2, "row_limit": 10}})
    p = cfg.tool_params("cypher", CypherParams)
    assert p.max_attempts == 2 and p.row_limit == 10 and p.verify_entities
    assert CypherParams().max_attempts == 3


def test_tool_run_on_kuzu(nw_kuzu) -> None:
    queries = (
        "MATCH (p:Product)-[:PART_OF]->(c:Category {categoryName: 'Beverages'}) "
        "RETURN p.productName AS product, p.unitPrice AS price ORDER BY price DESC",
        "MATCH (s:Supplier {companyName: 'Exotic Liquid'})-[:SUPPLIES]->(p:Product) "
        "RETURN p.productName AS product",
        "MATCH (s:Supplier {companyName: 'Exotic Liquids'})-[:SUPPLIES]->(p:Product)"
        "-[:PART_OF]->(:Category {categoryName: 'Seafood'}) RETURN p.productName",
        "MATCH (c:Customer) DETACH DELETE c",
    )
    llm = SuggestionLLM()
    req = ToolRequest(
        question="Beverages by price", store=nw_kuzu, services=Services(llm=llm),
        params=CypherParams(row_limit=5, max_queries=4), iteration=1,
        artifacts=Artifacts(cypher=queries),
    )
    res = CypherTool().run(req)
    assert len(res.items) == 4  # three results and the refused query's line
    assert res.items[3].kind == "query-failed" and "refused" in res.items[3].text
    first, second, third, _refused = res.items
    assert first.kind == "query" and first.tool == "cypher" and first.iteration == 1
    assert first.rows.columns == ("product", "price") and first.rows.truncated
    assert first.rows.rows[0] == ("Côte de Blaye", 263.5)
    assert "TRUNCATED" in first.text and "| product | price |" in first.text
    assert second.metadata["trail"] == ["empty", "ok"] and len(second.rows.rows) == 3
    assert third.metadata["status"] == "verified_empty" and "none" in third.text
    assert res.counts["cypher_queries"] == 4 and res.counts["cypher_rejected"] == 1
    assert res.counts["cypher_repairs"] == 1 and len(res.llm_calls) == 1
    outcomes = [e.data.get("outcome") for e in res.events if "outcome" in e.data]
    assert outcomes == ["ok", "empty", "ok", "verified_empty", "rejected"]
    assert any(e.level == "error" and "DETACH" in e.message for e in res.events)


def test_tool_without_queries_leaves_a_mark(nw_kuzu) -> None:
    req = ToolRequest(question="q", store=nw_kuzu, services=Services(llm=ScriptedLLM([])),
                      params=CypherParams())
    res = CypherTool().run(req)
    assert res.items == [] and "no Cypher query" in res.events[0].message


def test_repeated_query_in_a_later_iteration_is_not_rerun(nw_kuzu) -> None:
    from byokg.models.budget import CallBudget

    llm = SuggestionLLM()
    services = Services(llm=llm).for_question(CallBudget())  # what one question's tools get
    q = ("MATCH (s:Supplier {companyName: 'Exotic Liquid'})-[:SUPPLIES]->(p:Product) "
         "RETURN p.productName AS product")
    runs = []
    for it in (0, 1):
        req = ToolRequest(question="q", store=nw_kuzu, services=services, params=CypherParams(),
                          iteration=it, artifacts=Artifacts(cypher=(q,)))
        runs.append(CypherTool().run(req))
    assert len(llm.prompts) == 1  # the repair ran once
    assert len(runs[0].llm_calls) == 1 and runs[1].llm_calls == []
    assert runs[1].counts["cypher_cached"] == 1
    assert runs[1].items[0].rows == runs[0].items[0].rows and runs[1].items[0].iteration == 1
    # the next question starts afresh: nothing of this one stays in the run's shared cache
    assert not any("byokg.cypher" in str(k) for k in services.base.cache)


class _EngineLLM(SuggestionLLM):
    """Plays every role of one engine run: KG-Linker, Cypher repair, answer generation."""

    def complete(self, prompt, *, system=None, max_tokens=None, temperature=None):
        if "Query that was run:" in prompt:  # the repair loop
            return super().complete(prompt, system=system)
        self.prompts.append(prompt)
        if "Graph context:" in prompt:  # answer generation: read the rows of the query item
            rows = [ln.strip("| ").strip() for ln in prompt.splitlines()
                    if ln.startswith("| ") and "product" not in ln]
            return LLMResponse(text="<answers>\n" + "\n".join(rows) + "\n</answers>",
                               model=self.name)
        assert "SHORTEST" in prompt  # the KG-Linker prompt carries the Kùzu dialect hints
        return LLMResponse(model=self.name, text=(
            "<entities>\nExotic Liquids\n</entities>\n<relation-paths>\nSUPPLIES\n"
            "</relation-paths>\n<cypher>\nMATCH (s:Supplier {companyName: 'Exotic Liquid'})"
            "-[:SUPPLIES]->(p:Product) RETURN p.productName AS product ORDER BY product\n"
            "</cypher>\n<answers>\n</answers>"))


def test_engine_runs_the_cypher_tool_end_to_end(nw_kuzu) -> None:
    from byokg.pipeline.engine import Engine

    llm = _EngineLLM()
    cfg = RunConfig(tools=["cypher"], iterations=1)
    answer = Engine(nw_kuzu, cfg, Services(cfg, llm=llm)).ask(
        "Which products does Exotic Liquids supply?")
    assert sorted(answer.answers) == ["Aniseed Syrup", "Chai", "Chang"]
    items = [c for c in answer.context if c.tool == "cypher"]
    assert items and items[0].kind == "query" and items[0].metadata["trail"] == ["empty", "ok"]
    assert any(e.source == "cypher" and "empty" in e.message for e in answer.trace.events)
    assert any(c.purpose == "cypher-repair" for c in answer.trace.llm_calls)
