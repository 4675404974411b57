"""Built-in ``agentic`` tool: LLM-guided KG traversal (BYOKG-RAG Algorithm 1).

The traversal itself lives in :mod:`byokg.agentic`; this module wraps it as a retrieval tool
(``needs_llm``: offered only when the run has an LLM) reading ``params.agentic`` from the run
configuration, and turns the facts found into ContextItems.
"""

from __future__ import annotations

from pydantic import Field

from byokg.agentic import AgenticParams
from byokg.context import triplet_items
from byokg.hookspecs import hookimpl
from byokg.tools import Tool, ToolRequest, ToolResult


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

    def run(self, request: ToolRequest) -> ToolResult:
        from byokg.agentic import traverse

        p: AgenticToolParams = self.params(request)
        result = ToolResult()
        seeds = request.entity_ids
        if not seeds:
            result.event(self.name, "no linked entities")
            return result
        llm = request.services.llm
        if llm is None:
            result.event(self.name, "no LLM configured", level="warning")
            return result
        tr = traverse(request.question, request.store, seeds, services=request.services,
                      llm=llm, params=p, iteration=request.iteration)
        result.events.extend(tr.events)
        result.llm_calls.extend(tr.llm_calls)
        result.counts.update(tr.counts)
        if not tr.triplets:
            return result
        n = max(1, p.iterations)
        step = [tr.step_of.get(t, 0) for t in tr.triplets]
        result.items, omitted = triplet_items(
            request.store, tr.triplets, tool=self.name, iteration=request.iteration, seeds=seeds,
            max_tokens=p.max_tokens, max_tails=p.max_tails,
            score=lambda idxs: round(1.0 - min(step[i] for i in idxs) / (n + 1), 4),
            metadata=lambda idxs: {"step": min(step[i] for i in idxs), "finished": tr.finished})
        result.counts["triplets_omitted"] = omitted
        return result


@hookimpl
def register_tools(register):
    register(AgenticTool)
