"""The ``entity-linker``: mentions -> graph node candidates, grouped per mention.

Strategies: ``fuzzy`` (the n-gram/rapidfuzz name index), ``dense`` (FAISS over embedder vectors)
and ``both`` (their union: up to ``top_k`` per method per mention, as in the paper). ``auto``
(the default) is ``both`` when an embedder is configured (``RunConfig.embedder``) and ``fuzzy``
otherwise. Where the store declares ``fulltext`` / ``vector`` capabilities and
``use_store_index`` is on, the store's own index replaces the local one (the local indexes are
:mod:`byokg.linking.indexes`).

A confidence floor applies to every candidate that is not an exact or alias match (see
:class:`EntityLinkerParams`); dropped candidates are listed in ``MentionLinks.dropped``.
Numbers never link by a word match (:mod:`byokg.linking.numbers`): a number alone stays a
literal, a fuzzy or dense candidate carries the mention's numbers and no other — save numbers
the question says (its text is read from the question's scratch, ``QUESTION_KEY``), which also
complete a name ("chemistry" and 1903 -> "chemistry 1903") and narrow nodes sharing one name to
those whose property says the number.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from byokg.contracts import Candidate
from byokg.contracts import MentionLinks
from byokg.errors import BackendError
from byokg.graph.store import Capability
from byokg.graph.store import GraphStore
from byokg.graph.store import has_capability
from byokg.language.grams import fast_normalize
from byokg.linking.indexes import get_dense_index
from byokg.linking.indexes import get_name_index
from byokg.linking.numbers import QUESTION_KEY
from byokg.linking.numbers import context_numbers
from byokg.linking.numbers import filter_numbers
from byokg.linking.numbers import narrow_families
from byokg.linking.numbers import only_number
from byokg.models.services import Services
from byokg.pipeline.tools import Linker
from byokg.pipeline.tools import ToolParams

log = logging.getLogger("byokg.linking")

Method = Literal["auto", "fuzzy", "dense", "both"]


class EntityLinkerParams(ToolParams):
    """Parameters of the ``entity-linker`` tool (``params.entity-linker`` in a run config)."""

    method: Method = Field("auto", description="fuzzy, dense, both (union) or auto")
    top_k: int = Field(3, ge=1, le=100, description="candidates per mention and method")
    min_score: float = Field(0.75, ge=0.0, le=1.0, description="confidence floor: fuzzy "
                             "(and full-text) matches scoring less are dropped")
    dense_min_score: float = Field(0.7, ge=-1.0, le=1.0, description="confidence floor of "
                                   "dense (cosine) matches; depends on the embedder")
    min_score_with_exact: float = Field(0.9, ge=0.0, le=1.0, description="floor of the other "
                                        "candidates when the mention matches a name exactly")
    use_store_index: bool = Field(True, description="use the store's fulltext/vector index")
    store_index_fallback: bool = Field(
        True, description="link mentions the store's full-text index misses with the local index")


def resolve_method(method: str, services: Services) -> str:
    if method == "auto":
        return "both" if services.config.embedder else "fuzzy"
    return method


# ---------------------------------------------------------------------------- store indexes


def _rescore(store: GraphStore, mentions: Sequence[str], hits: Sequence[list[tuple[str, float]]],
             method: str, top_k: int, min_score: float | None) -> list[MentionLinks]:
    """Candidates from a store's own index, named via ``get_nodes``. Full-text hits are
    rescored with the fuzzy scorer (0..1 like the local index; exact/alias -> 1.0);
    vector hits keep the store's similarity."""
    from byokg.linking.fuzzy import score_names

    ids = list(dict.fromkeys(i for row in hits for i, _s in row))
    nodes = store.get_nodes(ids) if ids else {}
    out = []
    for mention, row in zip(mentions, hits, strict=True):
        key = fast_normalize(mention)
        best: dict[str, tuple[int, float, str, str]] = {}
        for nid, raw in row:
            node = nodes.get(nid)
            name = node.display if node is not None else nid
            if method == "vector":
                cand = (0, float(raw), "vector")
            else:
                names = [name, *(node.aliases if node is not None else ())]
                norm = [fast_normalize(n) for n in names]
                if key and key == norm[0]:
                    cand = (2, 1.0, "exact")
                elif key and key in norm[1:]:
                    cand = (1, 1.0, "alias")
                else:
                    s = float(score_names(key, norm).max()) if key else 0.0
                    cand = (0, s, "fulltext")
                if min_score is not None and cand[0] == 0 and cand[1] < min_score:
                    continue
            if nid not in best or cand[:2] > best[nid][:2]:
                best[nid] = (*cand, name)
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))[:top_k]
        out.append(MentionLinks(mention=mention, candidates=tuple(
            Candidate(id=nid, name=name, score=round(s, 4), method=m)
            for nid, (_r, s, m, name) in ranked)))
    return out


def _fuzzy(store: GraphStore, services: Services, mentions: list[str],
           p: EntityLinkerParams) -> list[MentionLinks]:
    if p.use_store_index and has_capability(store, Capability.FULLTEXT):
        try:
            found = store.fulltext_search(mentions, k=p.top_k * 3)  # type: ignore[attr-defined]
            hits = [list(found.get(m, ())) for m in mentions]
            out = _rescore(store, mentions, hits, "fulltext", p.top_k, _recall_floor(p.min_score))
            missed = [m.mention for m in out if not m.candidates]
            if missed and p.store_index_fallback:
                # full-text indexes tokenise and often skip aliases ("USA") and misspelled
                # single words; the local index catches those
                log.info("full-text search of %s found nothing for %d mention(s); using the "
                         "local name index for them", store.uri, len(missed))
                local = get_name_index(store, services).search(
                    missed, top_k=p.top_k, min_score=_recall_floor(p.min_score))
                by = {m.mention: m for m in local}
                out = [by.get(m.mention, m) if not m.candidates else m for m in out]
            return out
        except BackendError as exc:
            log.warning("full-text search of %s failed (%s); using the local name index",
                        store.uri, exc)
    return get_name_index(store, services).search(mentions, top_k=p.top_k,
                                                  min_score=_recall_floor(p.min_score))


def _dense(store: GraphStore, services: Services, mentions: list[str],
           p: EntityLinkerParams) -> list[MentionLinks]:
    if p.use_store_index and has_capability(store, Capability.VECTOR):
        try:
            vecs = services.embedder.encode(mentions)
            rows = store.vector_search(vecs.tolist(), k=p.top_k)  # type: ignore[attr-defined]
            hits = [[(i, s) for i, s in row if s >= _recall_floor(p.dense_min_score)]
                    for row in rows]
            return _rescore(store, mentions, hits, "vector", p.top_k, None)
        except BackendError as exc:
            log.warning("vector search of %s failed (%s); using a local dense index",
                        store.uri, exc)
    return get_dense_index(store, services).search(mentions, top_k=p.top_k,
                                                   min_score=_recall_floor(p.dense_min_score))


REPORT_MARGIN = 0.25  # candidates this far under a floor are fetched, then dropped and reported
EXACT = frozenset({"exact", "alias"})


def _recall_floor(floor: float) -> float:
    return floor - REPORT_MARGIN


def apply_floor(ml: MentionLinks, p: EntityLinkerParams) -> MentionLinks:
    """Candidates under the confidence floor moved to ``dropped`` (exact and alias matches always
    stay; with one of them the others need ``min_score_with_exact``)."""
    has_exact = any(c.method in EXACT for c in ml.candidates)
    keep, drop = [], list(ml.dropped)
    for c in ml.candidates:
        if c.method in EXACT:
            keep.append(c)
            continue
        floor = p.dense_min_score if c.method in ("dense", "vector") else p.min_score
        if has_exact:
            floor = max(floor, p.min_score_with_exact)
        (keep if c.score >= floor else drop).append(c)
    if len(keep) == len(ml.candidates):
        return ml
    return ml.model_copy(update={"candidates": tuple(keep), "dropped": tuple(drop)})


def union(*groups: list[MentionLinks]) -> list[MentionLinks]:
    """Merge per-mention candidate lists: earlier groups first, each node once."""
    out = []
    for parts in zip(*groups, strict=True):
        seen: set[str] = set()
        cands: list[Candidate] = []
        for ml in parts:
            for c in ml.candidates:
                if c.id not in seen:
                    seen.add(c.id)
                    cands.append(c)
        out.append(MentionLinks(mention=parts[0].mention, candidates=tuple(cands)))
    return out


class EntityLinker(Linker):
    """Links mentions to graph nodes by fuzzy name match, dense similarity, or both."""

    description = ("Fuzzy (n-gram index + rapidfuzz) and dense (FAISS) entity linking; exact and "
                   "alias matches first; uses the store's full-text/vector index when it has one")
    default = True
    Params = EntityLinkerParams

    def link(self, mentions: Sequence[str], *, store: GraphStore, services: Services,
             params: ToolParams | None = None) -> list[MentionLinks]:
        p = params if isinstance(params, EntityLinkerParams) else EntityLinkerParams(
            **(params.model_dump() if params is not None else {}))
        mentions = list(mentions)
        uniq = list(dict.fromkeys(m for m in mentions if m and m.strip()))
        if not uniq:
            return [MentionLinks(mention=m) for m in mentions]
        method = resolve_method(p.method, services)
        # the numbers the question says (its text, its other mentions) may complete a name
        # ("chemistry" + 1903); candidates are then fetched wider and narrowed by them
        ctx = context_numbers(uniq, services.peek(QUESTION_KEY))
        wide = p.model_copy(update={"top_k": min(100, p.top_k * 4)}) if ctx else p
        groups = [_with_numbers(store, services, uniq, ctx, p)] if ctx else []
        if method in ("fuzzy", "both"):
            groups.append(_fuzzy(store, services, uniq, wide))
        if method in ("dense", "both"):
            groups.append(_dense(store, services, uniq, wide))
        links = [filter_numbers(apply_floor(ml, p).without_literal_ids(), ctx)
                 for ml in union(*groups)]
        links = narrow_families(store, links, ctx)
        merged = {ml.mention: _top(ml, p.top_k) for ml in links}
        return [merged.get(m, MentionLinks(mention=m)) for m in mentions]


def _with_numbers(store: GraphStore, services: Services, mentions: list[str],
                  ctx: frozenset[str], p: EntityLinkerParams) -> list[MentionLinks]:
    """Names made of a mention and one of the question's numbers ("chemistry" and 1903 ->
    "chemistry 1903"), found exactly: in the store's full-text index when the run uses it
    (no local index is built for this), else in the name index."""
    keys = {m: [k for num in sorted(ctx) for k in (f"{m} {num}", f"{num} {m}")]
            for m in mentions if not only_number(m)}
    flat = list(dict.fromkeys(k for ks in keys.values() for k in ks))
    exact: dict[str, list[str]] = {}
    if flat and p.use_store_index and has_capability(store, Capability.FULLTEXT):
        try:
            found = store.fulltext_search(flat, k=3)  # type: ignore[attr-defined]
            hits = _rescore(store, flat, [list(found.get(k, ())) for k in flat], "fulltext",
                            3, None)
            exact = {ml.mention: [c.id for c in ml.candidates if c.method in EXACT]
                     for ml in hits}
        except BackendError as exc:
            log.warning("full-text search of %s failed (%s)", store.uri, exc)
    elif flat:
        index = get_name_index(store, services)
        exact = {k: [nid for nid, _alias in index.exact(k)] for k in flat}
    ids = list(dict.fromkeys(i for k in flat for i in exact.get(k, ())))
    named = store.display_names(ids) if ids and hasattr(store, "display_names") else {}
    out = []
    for m in mentions:
        cands = {i: Candidate(id=i, name=named.get(i) or k, score=1.0, method="number")
                 for k in reversed(keys.get(m, [])) for i in exact.get(k, ())}
        out.append(MentionLinks(mention=m, candidates=tuple(cands.values())))
    return out


def _top(ml: MentionLinks, k: int) -> MentionLinks:
    """At most ``k`` candidates, exact and alias matches and number completions first."""
    if len(ml.candidates) <= k:
        return ml
    rank = {"exact": 0, "alias": 0, "number": 1}
    ordered = sorted(ml.candidates, key=lambda c: (rank.get(c.method, 2), -c.score))
    return ml.model_copy(update={"candidates": tuple(ordered[:k])})
