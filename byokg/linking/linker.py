"""The entity-linking tool: mentions -> graph node candidates, grouped per mention.

Strategies: ``fuzzy`` (the n-gram/rapidfuzz name index), ``dense`` (FAISS over embedder vectors)
and ``both`` (their union: up to ``top_k`` per method per mention, as in the paper). ``auto``
(the default) is ``both`` when an embedder is configured (``RunConfig.embedder``) and ``fuzzy``
otherwise, so a plain run never pays for loading a model and embedding every node name.

Where the store declares ``fulltext`` / ``vector`` capabilities (Kùzu, Neo4j, Neptune
Analytics) and ``use_store_index`` is on, the store's own index replaces the local one.
Indexes are built once per store and run (``Services.shared``) and, when
``RunConfig.index_dir`` is set, saved there with a manifest and reused while the graph's names
are unchanged.

A confidence floor applies to every candidate that is not an exact or alias match: fuzzy scores
under ``min_score`` and cosines under ``dense_min_score`` are dropped, and when the mention
matches a name exactly, other candidates need ``min_score_with_exact`` ("China" exact keeps
"China Daily" out). Dropped candidates are not passed on; they are listed in
``MentionLinks.dropped`` (the engine records them in the trace). A number or date mention
("12", "1918") never links to a node whose id is that value (see
:meth:`~byokg.contracts.MentionLinks.without_literal_ids`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from byokg.graph.store import Capability, GraphStore, has_capability
from byokg.pipeline.tools import Linker, Services, ToolParams

from ..contracts import Candidate, MentionLinks
from ..errors import BackendError, InputError
from .grams import fast_normalize
from .manifest import collect_names, mismatch, read_manifest, slug

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


# ---------------------------------------------------------------------------- index cache


def _index_root(services: Services, index_dir: str | Path | None) -> Path | None:
    root = index_dir if index_dir is not None else services.config.index_dir
    return Path(root).expanduser() if root else None


def _on_disk(folder: Path, expect: dict[str, Any], load: Callable[[], Any],
             make: Callable[[], Any], store_uri: str) -> Any:
    """An index kept in ``folder``: loaded when its manifest matches ``expect``, else made and
    saved; its ``status`` says which (``built``, ``loaded``, ``rebuilt: <why>``)."""
    why = mismatch(read_manifest(folder), expect)
    if why is None:
        try:
            index = load()
            index.status = "loaded"
            return index
        except InputError as exc:
            why = str(exc)
    t0 = time.perf_counter()
    index = make()
    index.save(folder, store_uri=store_uri)
    if why == "no manifest":
        index.status = "built"
    else:
        index.status = f"rebuilt: {why}"
        log.warning("%s index at %s was stale (%s); rebuilt", expect["kind"], folder, why)
    log.info("%s index for %s saved to %s (%.1fs)", expect["kind"], store_uri, folder,
             time.perf_counter() - t0)
    return index


def get_name_index(store: GraphStore, services: Services | None = None, *,
                   index_dir: str | Path | None = None) -> Any:
    """The fuzzy :class:`NameIndex` of ``store``: built once per run, and kept on disk under
    ``index_dir`` (default ``services.config.index_dir``) when one is set. A saved index whose
    manifest does not match the store (names changed, other format) is rebuilt; its
    ``status`` attribute says what happened (``built``, ``loaded``, ``rebuilt: <why>``)."""
    services = services or Services()
    root = _index_root(services, index_dir)

    def build() -> Any:
        from .fuzzy import FORMAT, NameIndex

        if root is None:
            index = NameIndex.from_store(store)
            index.status = "built"
            return index
        folder = root / slug(store.uri) / "names"
        pairs, fp = collect_names(store)
        return _on_disk(folder, {"kind": "names", "format": FORMAT, "fingerprint": fp},
                        lambda: NameIndex.load(folder, expect_fingerprint=fp),
                        lambda: NameIndex.from_pairs(pairs, fingerprint_=fp), store.uri)

    return services.shared(f"name-index:{store.uri}", build)


def get_dense_index(store: GraphStore, services: Services | None = None, *,
                    index_dir: str | Path | None = None, progress: bool | None = None) -> Any:
    """The :class:`DenseIndex` of ``store`` for ``services.embedder``, cached like
    :func:`get_name_index` (the manifest also pins the embedder name and dimension)."""
    services = services or Services()
    root = _index_root(services, index_dir)
    embedder = services.embedder

    def build() -> Any:
        from .dense import FORMAT, DenseIndex

        if root is None:
            index = DenseIndex.from_store(store, embedder, progress=progress)
            index.status = "built"
            return index
        folder = root / slug(store.uri) / f"dense-{slug(embedder.name)}"
        pairs, fp = collect_names(store)
        expect = {"kind": "dense", "format": FORMAT, "fingerprint": fp,
                  "embedder": embedder.name, "dim": embedder.dim}
        return _on_disk(folder, expect,
                        lambda: DenseIndex.load(folder, embedder, expect_fingerprint=fp),
                        lambda: DenseIndex.from_pairs(pairs, embedder, fingerprint_=fp,
                                                      progress=progress), store.uri)

    return services.shared(f"dense-index:{store.uri}:{embedder.name}", build)


# ---------------------------------------------------------------------------- store indexes


def _rescore(store: GraphStore, mentions: Sequence[str], hits: Sequence[list[tuple[str, float]]],
             method: str, top_k: int, min_score: float | None) -> list[MentionLinks]:
    """Candidates from a store's own index, named via ``get_nodes``. Full-text hits are
    rescored with the fuzzy scorer (0..1 like the local index; exact/alias -> 1.0);
    vector hits keep the store's similarity."""
    from .fuzzy import score_names

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
        groups = []
        if method in ("fuzzy", "both"):
            groups.append(_fuzzy(store, services, uniq, p))
        if method in ("dense", "both"):
            groups.append(_dense(store, services, uniq, p))
        merged = {ml.mention: apply_floor(ml, p).without_literal_ids() for ml in union(*groups)}
        return [merged.get(m, MentionLinks(mention=m)) for m in mentions]
