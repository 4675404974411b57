"""Built-in path tools: follow-paths, shortest-paths, one-hop and expand (see docs/paths.md).

Each tool reads its parameters from the run configuration (``params.<tool name>``), walks the
graph through :mod:`byokg.paths` (batched, capped) and returns ContextItems whose text comes
from :mod:`byokg.verbalize`, with the path / triplets they stand for, plus trace events for
unknown relations, inverted hops, caps hit and hubs skipped.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from byokg.contracts import ContextItem, Direction, Path, TraceEvent, Triplet
from byokg.hookspecs import hookimpl
from byokg.paths import expand, follow_paths, shortest_paths
from byokg.store import GraphStore
from byokg.text import normalize
from byokg.tools import Services, Tool, ToolParams, ToolRequest, ToolResult
from byokg.verbalize import verbalize_paths, verbalize_triplets


def _params(request: ToolRequest, model: type[ToolParams]) -> Any:
    p = request.params
    if isinstance(p, model):
        return p
    # a bare ToolParams (or a dict-like model from elsewhere): validate into ours
    data = p.model_dump() if hasattr(p, "model_dump") else dict(p or {})
    return model(**data)


def _relation_names(store: GraphStore, services: Services) -> set[str]:
    key = f"byokg.paths.relation_types:{getattr(store, 'uri', id(store))}:{id(store)}"
    return services.shared(key, lambda: set(store.relation_types()))


def _event(
    result: ToolResult,
    request: ToolRequest,
    source: str,
    message: str,
    level: str = "info",
    **data: Any,
) -> None:
    result.events.append(
        TraceEvent(
            level=level, source=source, message=message, iteration=request.iteration, data=data
        )
    )


def _path_items(
    tool: str,
    request: ToolRequest,
    paths: list[Path],
    meta: list[dict[str, Any]],
    max_tokens: int,
    scores: list[float | None],
) -> tuple[list[ContextItem], int]:
    """One ContextItem per verbalized path line (identical lines merged); returns (items, omitted)."""
    verb = verbalize_paths(request.store, paths, max_tokens=max_tokens)
    items = []
    for line, idxs in zip(verb.lines, verb.sources, strict=True):
        p = paths[idxs[0]]
        items.append(
            ContextItem(
                text=line,
                tool=tool,
                iteration=request.iteration,
                score=scores[idxs[0]],
                kind="path",
                path=p,
                triplets=tuple(p.triplets()),
                nodes=(p.end,),
                metadata=meta[idxs[0]],
            )
        )
    return items, verb.omitted


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

    def run(self, request: ToolRequest) -> ToolResult:
        p: FollowPathsParams = _params(request, FollowPathsParams)
        result = ToolResult()
        sources = request.entity_ids
        rel_paths = list(request.artifacts.relation_paths)
        if not sources or not rel_paths:
            _event(
                result,
                request,
                self.name,
                "nothing to follow: "
                + ("no linked entities" if not sources else "no relation paths"),
            )
            return result
        if len(rel_paths) > p.max_relation_paths:
            _event(
                result,
                request,
                self.name,
                f"{len(rel_paths)} relation paths proposed, walking the first {p.max_relation_paths}",
                dropped=[str(r) for r in rel_paths[p.max_relation_paths :]],
            )
            rel_paths = rel_paths[: p.max_relation_paths]
        existing = _relation_names(request.store, request.services)
        paths: list[Path] = []
        meta: list[dict[str, Any]] = []
        scores: list[float | None] = []
        seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
        for rp in rel_paths:
            fr = follow_paths(
                request.store,
                sources,
                rp,
                fanout_per_hop=p.fanout_per_hop,
                max_paths=p.max_paths,
                schema_relations=existing,
                mode=p.mode,
            )
            for name, near in fr.unknown_relations.items():
                _event(
                    result,
                    request,
                    self.name,
                    f"relation {name!r} is not in the graph; nearest: {', '.join(near)}",
                    level="warning",
                    relation=name,
                    suggestions=near,
                    relation_path=str(rp),
                )
            for m in fr.resolved:
                if m.how not in ("exact", "unknown"):
                    _event(
                        result,
                        request,
                        self.name,
                        f"relation {m.name!r} matched {', '.join(m.matches)} ({m.how})",
                        relation=m.name,
                        matches=list(m.matches),
                    )
            if fr.inverted_hops:
                _event(
                    result,
                    request,
                    self.name,
                    f"{rp}: hop(s) {fr.inverted_hops} walked against the stored direction",
                    relation_path=str(rp),
                    inverted_hops=fr.inverted_hops,
                )
            if fr.truncated:
                _event(
                    result,
                    request,
                    self.name,
                    f"{rp}: caps hit (fanout_per_hop={p.fanout_per_hop}, max_paths={p.max_paths})",
                    relation_path=str(rp),
                    capped_nodes=fr.capped_nodes[:20],
                )
                result.counts["follow_truncated"] = result.counts.get("follow_truncated", 0) + 1
            if fr.paths and not fr.complete:
                _event(
                    result,
                    request,
                    self.name,
                    f"{rp}: stopped after {fr.hops_completed} of {len(fr.relation_path)} hop(s)",
                    relation_path=str(rp),
                    hops_completed=fr.hops_completed,
                )
            total = max(len(fr.relation_path), 1)
            for path in fr.paths:
                if not path.hops:
                    continue
                key = (path.nodes, path.relations)
                if key in seen:
                    continue
                seen.add(key)
                paths.append(path)
                scores.append(round(path.hops / total, 3))
                meta.append(
                    {
                        "relation_path": str(rp),
                        "complete": fr.complete,
                        "inverted": any(path.inverted),
                    }
                )
        items, omitted = _path_items(self.name, request, paths, meta, p.max_tokens, scores)
        result.items = items
        result.counts.update({"paths": len(paths), "paths_omitted": omitted})
        if omitted:
            _event(
                result,
                request,
                self.name,
                f"max_tokens={p.max_tokens}: {omitted} path(s) left out",
                omitted=omitted,
            )
        return result


# --------------------------------------------------------------------------- shortest-paths


class ShortestPathsParams(ToolParams):
    max_hops: int = Field(3, ge=1, le=6)
    k: int = Field(3, ge=1, description="paths per (entity, answer) pair")
    hub_degree: int = Field(2000, ge=1, description="nodes with more edges are not expanded")
    max_expansions: int = Field(20_000, ge=1, description="edges read per pair")
    max_pairs: int = Field(25, ge=1, description="entity x answer pairs searched")
    max_tokens: int = Field(1500, ge=0)


class ShortestPathsTool(Tool):
    name = "shortest-paths"
    description = (
        "Shortest paths between linked question entities and linked draft answers (Eq. 6)."
    )
    Params = ShortestPathsParams

    def run(self, request: ToolRequest) -> ToolResult:
        p: ShortestPathsParams = _params(request, ShortestPathsParams)
        result = ToolResult()
        ents, answers = request.entity_ids, request.answer_ids
        pairs = [(e, a) for e in ents for a in answers if e != a]
        if not pairs:
            _event(
                result,
                request,
                self.name,
                "nothing to connect: "
                + ("no linked entities" if not ents else "no linked draft answers"),
            )
            return result
        if len(pairs) > p.max_pairs:
            _event(
                result,
                request,
                self.name,
                f"{len(pairs)} pairs, searching the first {p.max_pairs}",
                dropped=len(pairs) - p.max_pairs,
            )
            pairs = pairs[: p.max_pairs]
        sr = shortest_paths(
            request.store,
            pairs,
            max_hops=p.max_hops,
            k=p.k,
            hub_degree=p.hub_degree,
            max_expansions=p.max_expansions,
        )
        if sr.hubs_capped:
            _event(
                result,
                request,
                self.name,
                f"{len(sr.hubs_capped)} hub(s) with more than {p.hub_degree} edges not expanded",
                hubs=sr.hubs_capped[:20],
            )
        if sr.bounded:
            _event(
                result,
                request,
                self.name,
                f"max_expansions={p.max_expansions} reached; some paths may be missing",
                pairs=[[x.source, x.target] for x in sr.pairs if x.bounded][:20],
            )
        missing = [x for x in sr.pairs if not x.paths]
        if missing:
            _event(
                result,
                request,
                self.name,
                f"no path within {p.max_hops} hops for {len(missing)} of {len(sr.pairs)} pair(s)",
                pairs=[[x.source, x.target] for x in missing][:20],
            )
        paths = sr.all_paths
        meta = [
            {"source": x.source, "target": x.target, "hops": x.hops}
            for x in sr.pairs
            for _ in x.paths
        ]
        scores: list[float | None] = [1.0 / (1 + path.hops) for path in paths]
        items, omitted = _path_items(self.name, request, paths, meta, p.max_tokens, scores)
        result.items = items
        result.counts.update(
            {"paths": len(paths), "paths_omitted": omitted, "hubs_capped": len(sr.hubs_capped)}
        )
        return result


# --------------------------------------------------------------------------- one-hop / expand

_STOP = frozenset(
    "a an and are as at be by did do does for from has have he her his how in is it its of on or "
    "she that the their there they this to was were what when where which who whom whose why with "
    "type types topic common object".split()
)


def _words(text: str) -> set[str]:
    return {w for w in normalize(text).split() if len(w) > 2 and w not in _STOP}


def relation_overlap(question_words: set[str], relation: str) -> float:
    """Share of the relation's words that (by a 4-letter prefix) occur in the question."""
    rel_words = _words(relation.replace(".", " "))
    if not rel_words:
        return 0.0
    prefixes = {w[:4] for w in question_words}
    hits = sum(1 for w in rel_words if w[:4] in prefixes)
    # the last dotted segment is the relation proper; weigh it double
    last = _words(relation.rsplit(".", 1)[-1])
    hits += sum(1 for w in last if w[:4] in prefixes)
    return hits / (len(rel_words) + len(last))


def _triplet_items(
    tool: str,
    request: ToolRequest,
    triplets: list[Triplet],
    max_tokens: int,
    max_tails: int,
    score_of: dict[str, float],
    seeds: set[str],
) -> tuple[list[ContextItem], int]:
    verb = verbalize_triplets(request.store, triplets, max_tokens=max_tokens, max_tails=max_tails)
    items = []
    for line, idxs in zip(verb.lines, verb.sources, strict=True):
        ts = tuple(triplets[i] for i in idxs)
        ends = tuple(dict.fromkeys(x for t in ts for x in (t.head, t.tail) if x not in seeds))
        items.append(
            ContextItem(
                text=line,
                tool=tool,
                iteration=request.iteration,
                kind="triplets",
                triplets=ts,
                nodes=ends,
                score=score_of.get(ts[0].relation),
            )
        )
    return items, verb.omitted


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

    def run(self, request: ToolRequest) -> ToolResult:
        p: OneHopParams = _params(request, OneHopParams)
        result = ToolResult()
        ents = request.entity_ids
        if not ents:
            _event(result, request, self.name, "no linked entities")
            return result
        store = request.store
        qwords = _words(request.question)
        hoods = store.neighbors(ents, direction=Direction.BOTH, limit_per_node=p.per_node)
        capped = [e for e in ents if hoods.get(e) is not None and hoods[e].truncated]
        triplets: dict[Triplet, None] = {}
        for e in ents:
            if e in hoods:
                triplets.update(dict.fromkeys(hoods[e].triplets))
        if capped and qwords:
            # hubs: the first per_node edges may miss the relevant ones; fetch matching relations
            ranked = sorted(
                (
                    (relation_overlap(qwords, r), r)
                    for r in _relation_names(store, request.services)
                ),
                reverse=True,
            )
            wanted = [r for s, r in ranked[: p.max_relations] if s > 0]
            if wanted:
                extra = store.neighbors(
                    capped, direction=Direction.BOTH, relations=wanted, limit_per_node=p.per_node
                )
                for e in capped:
                    if e in extra:
                        triplets.update(dict.fromkeys(extra[e].triplets))
            _event(
                result,
                request,
                self.name,
                f"per_node={p.per_node} cut {len(capped)} entity neighbourhood(s)",
                nodes=capped[:20],
                relations_fetched=wanted,
            )
        score_of = {t.relation: relation_overlap(qwords, t.relation) for t in triplets}
        ordered = sorted(triplets, key=lambda t: -score_of[t.relation])  # stable: keeps graph order
        if len(ordered) > p.max_triplets:
            _event(
                result,
                request,
                self.name,
                f"max_triplets={p.max_triplets} cut {len(ordered) - p.max_triplets}",
            )
            ordered = ordered[: p.max_triplets]
        items, omitted = _triplet_items(
            self.name, request, ordered, p.max_tokens, p.max_tails, score_of, set(ents)
        )
        result.items = items
        result.counts.update({"triplets": len(ordered), "triplets_omitted": omitted})
        return result


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

    def run(self, request: ToolRequest) -> ToolResult:
        p: ExpandParams = _params(request, ExpandParams)
        result = ToolResult()
        ents = request.entity_ids
        if not ents:
            _event(result, request, self.name, "no linked entities")
            return result
        ex = expand(
            request.store,
            ents,
            hops=p.hops,
            per_node=p.per_node,
            max_triplets=p.max_triplets,
            relations=p.relations,
            direction=p.direction,
        )
        if ex.truncated:
            _event(
                result,
                request,
                self.name,
                "; ".join(ex.notes) or "caps hit",
                per_hop=ex.per_hop,
                capped_nodes=ex.capped_nodes[:20],
                unexpanded=ex.unexpanded,
            )
        qwords = _words(request.question)
        score_of = {t.relation: relation_overlap(qwords, t.relation) for t in ex.triplets}
        ordered = sorted(ex.triplets, key=lambda t: -score_of[t.relation])
        items, omitted = _triplet_items(
            self.name, request, ordered, p.max_tokens, p.max_tails, score_of, set(ents)
        )
        result.items = items
        result.counts.update({"triplets": len(ex.triplets), "triplets_omitted": omitted})
        return result


@hookimpl
def register_tools(register):
    register(FollowPathsTool)
    register(ShortestPathsTool)
    register(OneHopTool)
    register(ExpandTool)
