"""Built-in ``agentic`` tool: LLM-guided KG traversal (BYOKG-RAG Algorithm 1).

The traversal itself lives in :mod:`byokg.plugins.agentic.agent`; this module wraps it as a retrieval tool
(``needs_llm``: offered only when the run has an LLM) reading ``params.agentic`` from the run
configuration, and turns the facts found into ContextItems.
"""

from __future__ import annotations

from byokg.plugins.agentic.agent import AgenticParams
from pydantic import Field

from byokg.hookspecs import hookimpl
from byokg.pipeline.context import tail_ranker, triplet_items
from byokg.pipeline.tools import Tool, ToolRequest, ToolResult


class AgenticToolParams(AgenticParams):
    """``params.agentic``: traversal knobs plus the budget of the returned text."""

    max_tokens: int = Field(2000, ge=0, description="token budget of the returned text")
    max_tails: int = Field(5, ge=1)


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


@hookimpl
def register_tools(register):
    register(AgenticTool)
