"""Built-in scoring retrievers: ``graph-reranker`` (Appendix A.2) and ``triplet-retrieval``
(Appendix A.1, Eq. 10). Neither needs an LLM; both load an embedder, so neither is in the
default multi-strategy set (name them in ``tools`` or use the eval strategies
``graph-reranker`` / ``text-retrieval``). Parameters: ``params.graph-reranker`` and
``params.triplet-retrieval`` in the run configuration (see docs/retrievers.md).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from byokg.contracts import Direction
from byokg.hookspecs import hookimpl
from byokg.pipeline.context import triplet_items
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolParams
from byokg.pipeline.tools import ToolRequest
from byokg.pipeline.tools import ToolResult


class RankedTripletParams(ToolParams):
    """What both tools' output reads (:func:`_finish`): tails shown per head and relation, and
    the token budget."""

    max_tails: int = Field(5, ge=1)
    max_tokens: int = Field(1500, ge=0, description="token budget of the returned text")


def _finish(result: ToolResult, request: ToolRequest, tool: str, ranked: Any,
            p: RankedTripletParams) -> None:
    """Ranked triplets as items, best first (tails of one head and relation merged; an item's
    score is the best of its triplets)."""
    for note in ranked.notes:
        result.event(tool, note)
    result.counts.update({k: int(v) for k, v in ranked.counts.items()})
    if not ranked.triplets:
        result.event(tool, "no triplets scored", level="warning")
        return
    triplets, scores = list(ranked.triplets), ranked.scores
    rank = {t: i for i, t in enumerate(triplets)}
    items, omitted = triplet_items(
        request.store, triplets, tool=tool, iteration=request.iteration, seeds=request.entity_ids,
        max_tokens=p.max_tokens, max_tails=p.max_tails,
        score=lambda idxs: round(max(scores[i] for i in idxs), 6),
        metadata=lambda idxs: {"rank": min(rank[triplets[i]] for i in idxs) + 1,
                               "scorer": ranked.scorer})
    items.sort(key=lambda it: it.metadata["rank"])
    result.items = items
    result.counts.update({"triplets": len(triplets), "triplets_omitted": omitted})


# --------------------------------------------------------------------------- graph-reranker


class GraphRerankerParams(RankedTripletParams):
    """``params.graph-reranker``: Appendix A.2 with its caps."""

    hops: int = Field(2, ge=1, le=3, description="L: triplets within this many hops")
    per_node: int = Field(200, ge=1, description="edges read per node while expanding")
    max_triplets: int = Field(5000, ge=1, description="cap of the L-hop subgraph")
    k_r: int = Field(20, ge=1, description="relations kept after relation pruning")
    k_t: int = Field(100, ge=1, description="triplets kept after embedder scoring")
    k: int = Field(10, ge=1, description="triplets returned (cross-encoder when configured)")
    max_candidates: int = Field(1000, ge=1, description="triplets embedded per question, at most")
    direction: Direction = Direction.BOTH


class GraphRerankerTool(Tool):
    name = "graph-reranker"
    description = ("Triplets within L hops of the linked entities, relations pruned to k_r, "
                   "triplets to k_t by embedder cosine, top k by a cross-encoder if configured")
    default = False  # loads an embedder (and a cross-encoder when configured)
    Params = GraphRerankerParams
    needs = frozenset({"entities"})

    def retrieve(self, request: ToolRequest, p: GraphRerankerParams, result: ToolResult) -> None:
        from byokg.plugins.scoring.scorers import rank_subgraph

        services = request.services
        reranker = services.reranker if services.config.reranker else None
        ranked = rank_subgraph(
            request.question, request.store, request.entity_ids, embedder=services.embedder,
            reranker=reranker, hops=p.hops, per_node=p.per_node, max_triplets=p.max_triplets,
            k_r=p.k_r, k_t=p.k_t, k=p.k, max_candidates=p.max_candidates, direction=p.direction,
        )
        _finish(result, request, self.name, ranked, p)


# --------------------------------------------------------------------------- triplet-retrieval


class TripletRetrievalParams(RankedTripletParams):
    """``params.triplet-retrieval``: Eq. 10 over precomputed name and relation vectors."""

    k: int = Field(10, ge=1, description="triplets returned")
    top_nodes: int = Field(50, ge=0, description="nodes nearest the question whose edges are scored")
    use_linked: bool = Field(True, description="also score the linked entities' edges")
    per_node: int = Field(2000, ge=1, description="edges scored per node (hubs: best relations)")


class TripletRetrievalTool(Tool):
    name = "triplet-retrieval"
    description = ("Embedding triplet retrieval (Eq. 10): sim(q,head)+sim(q,relation)+sim(q,tail) "
                   "from precomputed FAISS name and relation vectors")
    default = False  # builds a dense index of every node name on first use
    Params = TripletRetrievalParams

    def retrieve(self, request: ToolRequest, p: TripletRetrievalParams, result: ToolResult) -> None:
        from byokg.plugins.scoring.scorers import get_triplet_index

        index = get_triplet_index(request.store, request.services)
        seeds = request.entity_ids if p.use_linked else []
        ranked = index.search(request.question, seeds=seeds, k=p.k, top_nodes=p.top_nodes,
                              per_node=p.per_node)
        _finish(result, request, self.name, ranked, p)


@hookimpl
def register_tools(register):
    register(GraphRerankerTool)
    register(TripletRetrievalTool)
