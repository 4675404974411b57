"""Built-in path tools: follow-paths, shortest-paths, one-hop and expand (see docs/paths.md).

Each tool reads its parameters from the run configuration (``params.<tool name>``), walks the
graph through :mod:`byokg.graph.paths` (batched, capped) and returns ContextItems (built by
:mod:`byokg.pipeline.context`) with the path / triplets they stand for, plus trace events for unknown
relations, inverted hops, caps hit and hubs skipped. Relations are ranked against the question
with the question's similarity service (``request.similarity.relation_scores``).

Every tool sorts what it found before the token budget picks (score, then ids), so its text never
depends on the store's result order, and names the request fields its result depends on
(``reads``) so the engine runs it once per question for each distinct request. Shortest paths
connect only strongly linked entities and answers, and push down paths through hub and
low-information relations (:func:`byokg.graph.profile.relation_stats`, from the graph itself).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import Literal

from pydantic import Field

from byokg.contracts import Direction
from byokg.contracts import MentionLinks
from byokg.contracts import Path
from byokg.contracts import RelationPath
from byokg.contracts import Triplet
from byokg.graph.paths import FollowResult
from byokg.graph.paths import expand
from byokg.graph.paths import follow_paths
from byokg.graph.paths import shortest_paths
from byokg.graph.profile import display_names
from byokg.graph.store import GraphStore
from byokg.hookspecs import hookimpl
from byokg.models.services import Services
from byokg.pipeline.context import path_items
from byokg.pipeline.context import tail_ranker
from byokg.pipeline.context import triplet_items
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolParams
from byokg.pipeline.tools import ToolRequest
from byokg.pipeline.tools import ToolResult


def _relation_names(store: GraphStore, services: Services) -> set[str]:
    key = ("byokg.graph.paths.relation_types", store)
    return services.shared(key, lambda: set(store.relation_types()))


def _path_order(paths: Sequence[Path], scores: Sequence[float], *, rated: Sequence[float] = (),
                tails: Sequence[float] = ()) -> list[int]:
    """Indexes of ``paths`` best score first (the share of its relation path walked), then the
    proposer's rating of its relation path (``rated``, when the proposer gave one), then its
    end's rank (``tails``), ties by nodes and relations (never store order)."""
    def key(i: int) -> tuple[Any, ...]:
        return (-scores[i], -(rated[i] if rated else 0.0), -(tails[i] if tails else 0.0),
                paths[i].hops, paths[i].nodes, paths[i].relations)
    return sorted(range(len(paths)), key=key)


# --------------------------------------------------------------------------- follow-paths


class FollowPathsParams(ToolParams):
    fanout_per_hop: int = Field(50, ge=1, description="edges followed per node per hop")
    max_paths: int = Field(200, ge=1, description="paths kept per relation path (and frontier cap)")
    max_relation_paths: int = Field(10, ge=1, description="relation paths walked per iteration")
    mode: Literal["auto", "forward", "either"] = Field(
        "auto", description="auto: invert a relation where it only exists the other way round"
    )
    max_tokens: int = Field(1500, ge=0, description="token budget of this tool's context text")


class FollowPathsTool(Tool):
    name = "follow-paths"
    description = (
        "Walk the linker's relation paths (rel1 -> rel2) from the linked entities (Eq. 5)."
    )
    Params = FollowPathsParams
    reads = frozenset({"entities", "relation_paths"})
    needs = frozenset({"entities", "relation_paths"})

    def retrieve(self, request: ToolRequest, p: FollowPathsParams, result: ToolResult) -> None:
        sources = request.entity_ids
        rel_paths = list(request.artifacts.relation_paths)
        if len(rel_paths) > p.max_relation_paths:
            result.event(self.name, f"{len(rel_paths)} relation paths proposed, walking the first {p.max_relation_paths}",
                  dropped=[str(r) for r in rel_paths[p.max_relation_paths:]])
            rel_paths = rel_paths[: p.max_relation_paths]
        existing = _relation_names(request.store, request.services)
        paths: list[Path] = []
        meta: list[dict[str, Any]] = []
        scores: list[float | None] = []
        seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
        for rp in rel_paths:
            fr = follow_paths(request.store, sources, rp, fanout_per_hop=p.fanout_per_hop,
                              max_paths=p.max_paths, schema_relations=existing, mode=p.mode)
            self._report(result, request, rp, fr, p)
            total = max(len(fr.relation_path), 1)
            for path in fr.paths:
                key = (path.nodes, path.relations)
                if not path.hops or key in seen or len(set(path.nodes)) < len(path.nodes):
                    continue  # a walk that comes back to a node it passed says nothing new
                seen.add(key)
                paths.append(path)
                scores.append(round(path.hops / total, 3))
                meta.append({"relation_path": str(rp), "complete": fr.complete,
                             "inverted": any(path.inverted), "ends": len(fr.reached),
                             "truncated": fr.truncated})
        # complete walks first, then (when the proposer rated its paths) the better-rated
        # relation path, then those ending at a node the question or a draft points to
        rank = tail_ranker(request.analysis, request.answer_ids)
        ends = display_names(request.store, [x.end for x in paths]) if paths else {}
        rated = {str(rp): ps.score for rp, ps in zip(rel_paths, request.artifacts.path_scores,
                                                    strict=False)}
        order = _path_order(paths, [s or 0.0 for s in scores],
                            rated=[rated.get(m["relation_path"], 0.0) for m in meta],
                            tails=[rank(x.end, ends.get(x.end) or x.end) for x in paths])
        items, omitted = path_items(request.store, [paths[i] for i in order], tool=self.name,
                                    iteration=request.iteration, max_tokens=p.max_tokens,
                                    scores=[scores[i] for i in order],
                                    metadata=[meta[i] for i in order])
        result.items = items
        result.counts.update({"paths": len(paths), "paths_omitted": omitted})
        if omitted:
            result.event(self.name, f"max_tokens={p.max_tokens}: {omitted} path(s) left out",
                  omitted=omitted)

    def _report(self, result: ToolResult, request: ToolRequest, rp: RelationPath,
                fr: FollowResult, p: FollowPathsParams) -> None:
        """Trace events for one followed relation path: unknown or fuzzily matched relations,
        inverted hops, caps hit, an incomplete walk."""
        for name, near in fr.unknown_relations.items():
            result.event(self.name, f"relation {name!r} is not in the graph; nearest: {', '.join(near)}",
                  level="warning", relation=name, suggestions=near, relation_path=str(rp))
        for m in fr.resolved:
            if m.how not in ("exact", "unknown"):
                result.event(self.name,     f"relation {m.name!r} matched {', '.join(m.matches)} ({m.how})",
                      relation=m.name, matches=list(m.matches))
        if fr.inverted_hops and not rp.inverted:
            result.event(self.name, f"{rp}: hop(s) {fr.inverted_hops} walked against the stored direction",
                  relation_path=str(rp), inverted_hops=fr.inverted_hops)
        if fr.truncated:
            result.event(self.name, f"{rp}: caps hit (fanout_per_hop={p.fanout_per_hop}, max_paths={p.max_paths})",
                  relation_path=str(rp), capped_nodes=fr.capped_nodes[:20])
            result.counts["follow_truncated"] = result.counts.get("follow_truncated", 0) + 1
        if fr.paths and not fr.complete:
            result.event(self.name, f"{rp}: stopped after {fr.hops_completed} of {len(fr.relation_path)} hop(s)",
                  relation_path=str(rp), hops_completed=fr.hops_completed)


# --------------------------------------------------------------------------- shortest-paths


class ShortestPathsParams(ToolParams):
    max_hops: int = Field(3, ge=1, le=6)
    k: int = Field(3, ge=1, description="paths kept per (entity, answer) pair")
    hub_degree: int = Field(2000, ge=1, description="nodes with more edges are not expanded")
    max_expansions: int = Field(20_000, ge=1, description="edges read per pair")
    max_pairs: int = Field(25, ge=1, description="entity x answer pairs searched")
    max_tokens: int = Field(1500, ge=0)
    min_link_score: float = Field(0.9, ge=0.0, le=1.0, description="only entities and answers "
                                  "linked at least this strongly are connected")
    per_mention: int = Field(2, ge=1, description="candidates used per mention (the best ones)")
    min_relation_weight: float = Field(0.2, ge=0.0, le=1.0, description="paths through a "
                                       "relation weighing less (hub or low-information, not "
                                       "asked about) are dropped")


class ShortestPathsTool(Tool):
    name = "shortest-paths"
    description = (
        "Shortest paths between linked question entities and linked draft answers (Eq. 6)."
    )
    Params = ShortestPathsParams
    reads = frozenset({"entities", "answers"})
    needs = frozenset({"entities", "answers"})

    def retrieve(self, request: ToolRequest, p: ShortestPathsParams, result: ToolResult) -> None:
        ents = _strong(request.entities, p, result, self.name, "entities")
        answers = _strong(request.answers, p, result, self.name, "draft answers")
        pairs = [(e, a) for e in ents for a in answers if e != a]
        if not pairs:
            why = "no strongly linked entities" if not ents else "no strongly linked draft answers"
            result.event(self.name, f"nothing to connect: {why}")
            return
        if len(pairs) > p.max_pairs:
            result.event(self.name, f"{len(pairs)} pairs, searching the first {p.max_pairs}",
                         dropped=len(pairs) - p.max_pairs)
            pairs = pairs[: p.max_pairs]
        sr = shortest_paths(request.store, pairs, max_hops=p.max_hops, k=2 * p.k,
                            hub_degree=p.hub_degree, max_expansions=p.max_expansions)
        if sr.hubs_capped:
            result.event(self.name,
                         f"{len(sr.hubs_capped)} hub(s) with more than {p.hub_degree} edges not expanded",
                         hubs=sr.hubs_capped[:20])
        if sr.bounded:
            result.event(self.name, f"max_expansions={p.max_expansions} reached; some paths may be missing",
                         pairs=[[x.source, x.target] for x in sr.pairs if x.bounded][:20])
        missing = [x for x in sr.pairs if not x.paths]
        if missing:
            result.event(self.name,
                         f"no path within {p.max_hops} hops for {len(missing)} of {len(sr.pairs)} pair(s)",
                         pairs=[[x.source, x.target] for x in missing][:20])
        paths, scores, meta = self._weighted(request, sr.pairs, p, result)
        items, omitted = path_items(request.store, paths, tool=self.name, iteration=request.iteration,
                                    max_tokens=p.max_tokens, scores=scores, metadata=meta)
        result.items = items
        result.counts.update({"paths": len(paths), "paths_omitted": omitted,
                              "hubs_capped": len(sr.hubs_capped)})

    def _weighted(self, request: ToolRequest, pairs: Sequence[Any], p: ShortestPathsParams,
                  result: ToolResult) -> tuple[list[Path], list[float | None], list[dict[str, Any]]]:
        """Per pair, its ``k`` best paths: ``1 / (1 + hops)`` times the geometric mean of the
        relations' weights (hub and low-information relations the question does not ask about
        weigh less: :func:`byokg.graph.profile.relation_weights`); paths through a relation under
        ``min_relation_weight`` are dropped and counted."""
        from byokg.graph.profile import relation_stats
        from byokg.graph.profile import relation_weights

        rels = sorted({r for x in pairs for path in x.paths for r in path.relations})
        if not rels:
            return [], [], []
        stats = relation_stats(request.store, request.services)
        weight = relation_weights(stats, request.similarity.relation_scores(rels))
        paths: list[Path] = []
        scores: list[float | None] = []
        meta: list[dict[str, Any]] = []
        dropped: dict[str, int] = {}  # relation -> paths dropped because of it
        n_dropped = 0
        for x in pairs:
            cand, cscore = [], []
            for path in x.paths:
                ws = [weight[r] for r in path.relations]
                low = sorted({r for r in path.relations if weight[r] < p.min_relation_weight})
                if low:
                    n_dropped += 1
                    for r in low:
                        dropped[r] = dropped.get(r, 0) + 1
                    continue
                mean = math.exp(sum(math.log(w) for w in ws) / len(ws)) if ws else 1.0
                cand.append(path)
                cscore.append(round(mean / (1 + path.hops), 4))
            for i in _path_order(cand, cscore)[: p.k]:
                paths.append(cand[i])
                scores.append(cscore[i])
                meta.append({"source": x.source, "target": x.target, "hops": cand[i].hops,
                             "weight": cscore[i]})
        if dropped:
            result.event(self.name, f"{n_dropped} path(s) through hub or low-information "
                         f"relations dropped (weight < {p.min_relation_weight})",
                         relations=dict(sorted(dropped.items())))
            result.counts["paths_low_information"] = n_dropped
        order = _path_order(paths, [s or 0.0 for s in scores])
        return ([paths[i] for i in order], [scores[i] for i in order], [meta[i] for i in order])


def _strong(links: Sequence[MentionLinks], p: ShortestPathsParams, result: ToolResult,
            tool: str, kind: str) -> list[str]:
    """Node ids of the strongly linked mentions: per mention its best candidates (at most
    ``per_mention``, within 0.02 of the best) scoring at least ``min_link_score``."""
    ids: dict[str, None] = {}
    weak = []
    for m in links:
        if not m.candidates:
            continue
        best = max(c.score for c in m.candidates)
        good = [c for c in m.candidates if c.score >= p.min_link_score and c.score >= best - 0.02]
        if not good:
            weak.append(m.mention)
        ids.update(dict.fromkeys(c.id for c in good[: p.per_mention]))
    if weak:
        result.event(tool, f"{len(weak)} {kind} linked too loosely to connect "
                     f"(score < {p.min_link_score})", mentions=weak[:10])
    return list(ids)


# --------------------------------------------------------------------------- one-hop / expand

def _by_relation_score(triplets: list[Triplet], score_of: Mapping[str, float]) -> list[Triplet]:
    """The triplets whose relation matches the question best first (ties by relation, head
    and tail, never the store's order)."""
    return sorted(triplets, key=lambda t: (-round(score_of[t.relation], 6), t.relation,
                                           t.head, t.tail))


def _ranked(request: ToolRequest, triplets: list[Triplet], tool: str, max_tokens: int,
            max_tails: int) -> tuple[list, int]:
    """Triplets ordered by how well their relation matches the question (ties by ids, never the
    store's order), as items whose lists show the tails most relevant to the question."""
    score_of = request.similarity.relation_scores([t.relation for t in triplets])
    ordered = _by_relation_score(triplets, score_of)
    return triplet_items(request.store, ordered, tool=tool, iteration=request.iteration,
                         seeds=request.entity_ids, max_tokens=max_tokens, max_tails=max_tails,
                         score=lambda idxs: round(score_of[ordered[idxs[0]].relation], 4),
                         tail_rank=tail_ranker(request.analysis, request.answer_ids))


class OneHopParams(ToolParams):
    per_node: int = Field(100, ge=1, description="edges read per linked entity")
    max_relations: int = Field(8, ge=1, description="question-matching relations fetched for hubs")
    max_triplets: int = Field(200, ge=1)
    max_tails: int = Field(5, ge=1)
    max_tokens: int = Field(1000, ge=0)


class OneHopTool(Tool):
    name = "one-hop"
    description = (
        "The linked entities' one-hop neighbourhood, relations ranked by word overlap "
        "with the question (cheap; works without an LLM)."
    )
    Params = OneHopParams
    reads = frozenset({"entities"})
    needs = frozenset({"entities"})

    def retrieve(self, request: ToolRequest, p: OneHopParams, result: ToolResult) -> None:
        ents = request.entity_ids
        store = request.store
        hoods = store.neighbors(ents, direction=Direction.BOTH, limit_per_node=p.per_node)
        capped = [e for e in ents if hoods.get(e) is not None and hoods[e].truncated]
        triplets: dict[Triplet, None] = {}
        for e in ents:
            if e in hoods:
                triplets.update(dict.fromkeys(hoods[e].triplets))
        if capped:
            # hubs: the first per_node edges may miss the relevant ones; fetch matching relations
            names = sorted(_relation_names(store, request.services))
            rel = request.similarity.relation_scores(names)
            wanted = [r for r in sorted(names, key=lambda r: -rel[r])[: p.max_relations] if rel[r] > 0]
            if wanted:
                extra = store.neighbors(capped, direction=Direction.BOTH, relations=wanted,
                                        limit_per_node=p.per_node)
                for e in capped:
                    if e in extra:
                        triplets.update(dict.fromkeys(extra[e].triplets))
            result.event(self.name, f"per_node={p.per_node} cut {len(capped)} entity neighbourhood(s)",
                         nodes=capped[:20], relations_fetched=wanted)
        ordered = list(triplets)
        if len(ordered) > p.max_triplets:
            rel = request.similarity.relation_scores([t.relation for t in ordered])
            ordered = _by_relation_score(ordered, rel)
            result.event(self.name, f"max_triplets={p.max_triplets} cut {len(ordered) - p.max_triplets}")
            ordered = ordered[: p.max_triplets]
        items, omitted = _ranked(request, ordered, self.name, p.max_tokens, p.max_tails)
        result.items = items
        result.counts.update({"triplets": len(ordered), "triplets_omitted": omitted})


class ExpandParams(ToolParams):
    hops: int = Field(2, ge=1, le=4)
    per_node: int = Field(50, ge=1)
    max_triplets: int = Field(1000, ge=1)
    relations: list[str] | None = None
    direction: Direction = Direction.BOTH
    max_tails: int = Field(5, ge=1)
    max_tokens: int = Field(2000, ge=0)


class ExpandTool(Tool):
    name = "expand"
    description = (
        "Every triplet within L hops of the linked entities (capped), ranked by question overlap."
    )
    default = False
    Params = ExpandParams
    reads = frozenset({"entities"})
    needs = frozenset({"entities"})

    def retrieve(self, request: ToolRequest, p: ExpandParams, result: ToolResult) -> None:
        ex = expand(request.store, request.entity_ids, hops=p.hops, per_node=p.per_node,
                    max_triplets=p.max_triplets, relations=p.relations, direction=p.direction)
        if ex.truncated:
            result.event(self.name, "; ".join(ex.notes) or "caps hit", per_hop=ex.per_hop,
                         capped_nodes=ex.capped_nodes[:20], unexpanded=ex.unexpanded)
        items, omitted = _ranked(request, list(ex.triplets), self.name, p.max_tokens, p.max_tails)
        result.items = items
        result.counts.update({"triplets": len(ex.triplets), "triplets_omitted": omitted})


@hookimpl
def register_tools(register):
    register(FollowPathsTool)
    register(ShortestPathsTool)
    register(OneHopTool)
    register(ExpandTool)
