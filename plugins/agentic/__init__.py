"""Built-in ``agentic`` tool: LLM-guided KG traversal (BYOKG-RAG Algorithm 1).

The traversal itself lives in :mod:`byokg.plugins.agentic.agent`; this module wraps it as a retrieval tool
(``needs_llm``: offered only when the run has an LLM) reading ``params.agentic`` from the run
configuration, and turns the facts found into ContextItems.
"""

from __future__ import annotations

from typing import Literal

from byokg.plugins.agentic.agent import AgenticParams
from pydantic import Field

from byokg.hookspecs import hookimpl
from byokg.pipeline.context import tail_ranker
from byokg.pipeline.context import triplet_items
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolRequest
from byokg.pipeline.tools import ToolResult


class AgenticToolParams(AgenticParams):
    """``params.agentic``: traversal knobs plus the budget of the returned text."""

    max_tokens: int = Field(2000, ge=0, description="token budget of the returned text")
    max_tails: int = Field(5, ge=1)
    when: Literal["no-answer", "always"] = Field(
        "no-answer", description="no-answer: in a round whose proposal has a query that a "
        "configured query tool runs, the traversal waits for the next round (which comes only "
        "when no query answered; in the last round it runs); always: it runs in every round "
        "it is asked")


class AgenticTool(Tool):
    name = "agentic"
    description = ("LLM-guided traversal: from the linked entities, the LLM picks relations to "
                   "follow and the next entities (re-linked to graph nodes), up to T_A rounds")
    needs_llm = True
    default = True
    Params = AgenticToolParams
    reads = frozenset({"entities"})  # a later round from the same entities is a repeat
    needs = frozenset({"entities", "llm"})

    def retrieve(self, request: ToolRequest, p: AgenticToolParams, result: ToolResult) -> None:
        from byokg.plugins.agentic.agent import traverse

        if p.when == "no-answer" and request.iteration + 1 < request.rounds \
                and _query_runs(request):
            result.deferred = ("a query runs this round; the traversal waits for a round "
                               "that comes only when no query answered (params.agentic.when)")
            result.counts["deferred"] = 1
            return
        seeds = request.entity_ids
        llm = request.services.llm
        calls = p.max_calls - request.llm_calls_used
        if request.llm_calls_left is not None:  # one call stays for the answer
            calls = min(calls, request.llm_calls_left - 1)
        if calls <= 0:
            result.event(self.name, f"no LLM call left for the traversal ({request.llm_calls_used} "
                         f"of max_calls={p.max_calls} made for this question)")
            result.counts["budget_stops"] = 1
            return
        tr = traverse(request.question, request.store, seeds, services=request.services,
                      llm=llm, params=p, iteration=request.iteration, calls=calls,
                      analysis=request.analysis, answer_ids=request.answer_ids,
                      similarity=request.similarity)
        result.events.extend(tr.events)
        result.llm_calls.extend(tr.llm_calls)
        result.counts.update(tr.counts)
        if not tr.triplets:
            return
        n = max(1, p.iterations)
        step = [tr.step_of.get(t, 0) for t in tr.triplets]
        result.items, omitted = triplet_items(
            request.store, tr.triplets, tool=self.name, iteration=request.iteration, seeds=seeds,
            max_tokens=p.max_tokens, max_tails=p.max_tails,
            tail_rank=tail_ranker(request.analysis, request.answer_ids),
            score=lambda idxs: round(1.0 - min(step[i] for i in idxs) / (n + 1), 4),
            metadata=lambda idxs: {"step": min(step[i] for i in idxs), "finished": tr.finished})
        result.counts["triplets_omitted"] = omitted


def _query_runs(request: ToolRequest) -> bool:
    """True when this round's proposal has a query and a configured tool runs queries."""
    if not any(q and q.strip() for q in request.artifacts.cypher):
        return False
    if "cypher" not in request.store.capabilities:
        return False
    names = request.services.config.tools
    if names is None:
        return True  # every applicable tool: the query tool among them
    from byokg import registry

    for name in names:
        try:
            reads = getattr(registry.tools().create(name), "reads", None) or ()
        except Exception:  # noqa: BLE001 - the engine reports unknown tools itself
            continue
        if "cypher" in reads:
            return True
    return False


@hookimpl
def register_tools(register):
    register(AgenticTool)
