"""Built-in ``agentic`` tool: LLM-guided KG traversal (BYOKG-RAG Algorithm 1).

The traversal itself lives in :mod:`byokg.agentic`; this module wraps it as a retrieval tool
(``needs_llm``: offered only when the run has an LLM) reading ``params.agentic`` from the run
configuration, and turns the facts found into ContextItems.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from byokg.agentic import AgenticParams
from byokg.contracts import ContextItem
from byokg.hookspecs import hookimpl
from byokg.tools import Tool, ToolRequest, ToolResult


class AgenticToolParams(AgenticParams):
    """``params.agentic``: traversal knobs plus the budget of the returned text."""

    max_tokens: int = Field(2000, ge=0, description="token budget of the returned text")
    max_tails: int = Field(5, ge=1)


def _params(request: ToolRequest) -> AgenticToolParams:
    p = request.params
    if isinstance(p, AgenticToolParams):
        return p
    data: dict[str, Any] = p.model_dump() if hasattr(p, "model_dump") else dict(p or {})
    return AgenticToolParams(**data)


class AgenticTool(Tool):
    name = "agentic"
    description = ("LLM-guided traversal: from the linked entities, the LLM picks relations to "
                   "follow and the next entities (re-linked to graph nodes), up to T_A rounds")
    needs_llm = True
    default = True
    Params = AgenticToolParams

    def run(self, request: ToolRequest) -> ToolResult:
        from byokg.agentic import traverse
        from byokg.verbalize import verbalize_triplets

        p = _params(request)
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
        verb = verbalize_triplets(request.store, tr.triplets, max_tokens=p.max_tokens,
                                  max_tails=p.max_tails)
        seed_set = set(seeds)
        n = max(1, p.iterations)
        for line, idxs in zip(verb.lines, verb.sources, strict=True):
            ts = tuple(tr.triplets[i] for i in idxs)
            step = min(tr.step_of.get(t, 0) for t in ts)
            ends = tuple(dict.fromkeys(x for t in ts for x in (t.head, t.tail)
                                       if x not in seed_set))
            result.items.append(ContextItem(
                text=line, tool=self.name, iteration=request.iteration, kind="triplets",
                triplets=ts, nodes=ends, score=round(1.0 - step / (n + 1), 4),
                metadata={"step": step, "finished": tr.finished},
            ))
        result.counts["triplets_omitted"] = verb.omitted
        return result


@hookimpl
def register_tools(register):
    register(AgenticTool)
