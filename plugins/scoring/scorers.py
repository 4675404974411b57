"""Scoring retrievers (BYOKG-RAG Appendix A): graph reranker and embedding triplet retrieval.

* :func:`rank_subgraph` (A.2, the ``graph-reranker`` tool): triplets within ``L`` hops of the
  linked entities (:func:`byokg.graph.paths.expand`, capped), relations pruned to the top ``k_r`` by
  embedder cosine to the question, triplets to the top ``k_t`` by cosine of their verbalised
  text, then the final top ``k`` by a cross-encoder when one is configured (else the embedder).
* :class:`TripletIndex` (A.1, Eq. 10, the ``triplet-retrieval`` tool): a triplet scores
  ``sim(q, head) + sim(q, relation) + sim(q, tail)`` with PRECOMPUTED node-name vectors (the
  linking :class:`~byokg.linking.dense.DenseIndex`, FAISS) and relation-name vectors (a small
  FAISS index). Only edges touching the nodes nearest the question (and the linked entities)
  are scored, vectorised over the store's adjacency arrays where it declares the ``csr``
  capability (the memory backend) or read with one batched ``neighbors`` call elsewhere; no
  triplet text is ever embedded.

numpy / faiss / models load only when these functions run.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any

from byokg.contracts import Direction
from byokg.contracts import Triplet
from byokg.graph.csr import CsrView
from byokg.graph.paths import expand
from byokg.graph.store import GraphStore
from byokg.graph.store import csr_view
from byokg.graph.verbalize import node_labels
from byokg.language.analysis import humanize_relation
from byokg.models.similarity import encode_cached

if TYPE_CHECKING:
    import numpy as np

    from byokg.models.services import Services

__all__ = [
    "Ranked",
    "TripletIndex",
    "encode_cached",
    "get_triplet_index",
    "humanize_relation",
    "rank_subgraph",
    "relation_similarities",
    "triplet_texts",
]

def question_vector(embedder: Any, question: str) -> np.ndarray:
    import numpy as np

    return np.asarray(embedder.encode([question]), dtype=np.float32).reshape(-1)


def relation_similarities(
    embedder: Any, question: str | np.ndarray, relations: Sequence[str]
) -> dict[str, float]:
    """Cosine between the question and each humanised relation name (names embedded once)."""
    relations = list(dict.fromkeys(relations))
    if not relations:
        return {}
    qv = question_vector(embedder, question) if isinstance(question, str) else question
    vecs = encode_cached(embedder, [humanize_relation(r) for r in relations])
    return {r: float(s) for r, s in zip(relations, (vecs @ qv).tolist(), strict=True)}


def triplet_texts(store: GraphStore, triplets: Sequence[Triplet]) -> list[str]:
    """``head relation-words tail`` per triplet; CVT-style nodes get their short description
    (:func:`byokg.graph.verbalize.node_labels`, batched store calls) naming ALL their neighbours, so
    ``m.0x (spouse: June Carter; marriage of: Johnny Cash) spouse June Carter`` still carries
    the entity the question is about."""
    labels = node_labels(store, [x for t in triplets for x in (t.head, t.tail)])
    return [
        f"{labels.get(t.head, t.head)} {humanize_relation(t.relation)} {labels.get(t.tail, t.tail)}"
        for t in triplets
    ]


@dataclass
class Ranked:
    """Triplets best first with their scores, plus what the ranking did (for the trace)."""

    triplets: list[Triplet] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    scorer: str = ""
    timings: dict[str, float] = field(default_factory=dict)


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    """Indexes of the ``k`` best scores, best first (stable among ties)."""
    import numpy as np

    n = len(scores)
    if k >= n:
        return np.argsort(-scores, kind="stable")
    part = np.argpartition(-scores, k - 1)[:k]
    return part[np.argsort(-scores[part], kind="stable")]


# --------------------------------------------------------------------------- graph reranker (A.2)


def rank_subgraph(
    question: str,
    store: GraphStore,
    seeds: Sequence[str],
    *,
    embedder: Any,
    reranker: Any | None = None,
    hops: int = 2,
    per_node: int = 200,
    max_triplets: int = 5000,
    k_r: int = 20,
    k_t: int = 100,
    k: int = 10,
    max_candidates: int = 1000,
    direction: Direction = Direction.BOTH,
    batch_size: int = 128,
) -> Ranked:
    """Appendix A.2: L-hop triplets -> top ``k_r`` relations -> top ``k_t`` triplets -> top ``k``.

    Relation and triplet scores are embedder cosines to the question; the last stage uses
    ``reranker.score`` (a cross-encoder) when given, else keeps the embedder's order. When the
    expansion caps cut the neighbourhood, a second expansion restricted to the top ``k_r``
    relations recovers edges the caps dropped. At most ``max_candidates`` triplets (best
    relations first) are embedded.

    Long because its four stages (expand, relations, triplets, final rank) fill one result's
    counts and timings as they go; each stage is a few lines."""
    import numpy as np

    out = Ranked(scorer="embedder")
    seeds = list(dict.fromkeys(seeds))
    if not seeds:
        out.notes.append("no linked entities")
        return out
    t0 = time.perf_counter()
    ex = expand(store, seeds, hops=hops, per_node=per_node, max_triplets=max_triplets,
                direction=direction)
    triplets = list(ex.triplets)
    out.counts["expanded"] = len(triplets)
    out.timings["expand_s"] = time.perf_counter() - t0
    if not triplets:
        out.notes.append("the linked entities have no edges")
        return out
    qv = question_vector(embedder, question)
    rel_sim = relation_similarities(embedder, qv, [t.relation for t in triplets])
    top_rels = sorted(rel_sim, key=lambda r: -rel_sim[r])[:k_r]
    out.counts["relations"] = len(rel_sim)
    if ex.truncated:
        out.notes.append("; ".join(ex.notes) or "expansion caps hit")
        again = expand(store, seeds, hops=hops, per_node=per_node, max_triplets=max_triplets,
                       relations=top_rels, direction=direction)
        seen = set(triplets)
        extra = [t for t in again.triplets if t not in seen]
        triplets.extend(extra)
        out.counts["refetched"] = len(extra)
    keep = set(top_rels)
    cands = [t for t in triplets if t.relation in keep]
    out.counts["after_relation_pruning"] = len(cands)
    if len(cands) > max_candidates:
        cands.sort(key=lambda t: -rel_sim[t.relation])  # stable: graph order within a relation
        out.notes.append(f"max_candidates={max_candidates} cut {len(cands) - max_candidates}")
        cands = cands[:max_candidates]
    t1 = time.perf_counter()
    texts = triplet_texts(store, cands)
    vecs = encode_cached(embedder, texts, batch_size=batch_size)
    s2 = vecs @ qv
    stage2 = _top(s2, k_t)
    out.timings["embed_s"] = time.perf_counter() - t1
    out.counts["stage2"] = len(stage2)
    final_scores = s2[stage2]
    if reranker is not None and len(stage2):
        t2 = time.perf_counter()
        final_scores = np.asarray(
            reranker.score(question, [texts[i] for i in stage2.tolist()]), dtype=np.float64
        )
        out.scorer = f"reranker:{reranker.name}"
        out.timings["rerank_s"] = time.perf_counter() - t2
    order = _top(np.asarray(final_scores, dtype=np.float64), k)
    out.triplets = [cands[int(stage2[i])] for i in order.tolist()]
    out.scores = [float(final_scores[i]) for i in order.tolist()]
    return out


# --------------------------------------------------------------------------- Eq. 10 (A.1)


def _faiss_vectors(index: Any) -> np.ndarray:
    """The stored vectors of a flat FAISS index as a numpy view (no copy)."""
    import faiss
    import numpy as np

    n, d = int(index.ntotal), int(index.d)
    if n == 0:
        return np.zeros((0, d), np.float32)
    try:
        return faiss.rev_swig_ptr(index.get_xb(), n * d).reshape(n, d)
    except (AttributeError, TypeError):  # not a flat index: copy out
        return index.reconstruct_n(0, n)


class TripletIndex:
    """Precomputed node-name and relation-name vectors of one store for Eq. 10 scoring.

    Node names come from the linking dense index (one vector per distinct name, FAISS); the
    relation names (humanised, at most a few thousand) get their own FAISS index. Build once
    per store and embedder (:func:`get_triplet_index`), then :meth:`search` per question.
    """

    def __init__(self, store: GraphStore, dense: Any, embedder: Any, *,
                 ann_threshold: int = 100_000) -> None:
        import faiss
        import numpy as np

        t0 = time.perf_counter()
        self.store = store
        self.dense = dense
        self.embedder = embedder
        self.node_vectors = _faiss_vectors(dense.index)
        self.csr = csr_view(store)  # the store's adjacency arrays, when it declares ``csr``
        self.relations = list(self.csr.relations if self.csr else store.relation_types())
        self.rel_vectors = encode_cached(embedder, [humanize_relation(r) for r in self.relations])
        self.rel_index = faiss.IndexFlatIP(int(embedder.dim))
        if len(self.relations):
            self.rel_index.add(np.ascontiguousarray(self.rel_vectors, dtype=np.float32))
        self.rel_pos = {r: i for i, r in enumerate(self.relations)}
        # node -> text row of its name (the vector scored for it)
        text_row = {t: i for i, t in enumerate(dense.texts)}
        name_rows = np.fromiter(
            (text_row.get(" ".join(n.split()), -1) for n in dense.node_names),
            np.int64, len(dense.node_names),
        )
        if self.csr is not None:
            gidx = self.csr.index
            self.node_row = np.full(len(self.csr.ids), -1, np.int64)
            pos = np.fromiter((gidx.get(n, -1) for n in dense.node_ids), np.int64,
                              len(dense.node_ids))
            ok = pos >= 0
            self.node_row[pos[ok]] = name_rows[ok]
        else:
            self.row_by_id = dict(zip(dense.node_ids, name_rows.tolist(), strict=True))
        self.ann = self._build_ann() if len(dense.texts) > ann_threshold else None
        self.build_seconds = time.perf_counter() - t0

    def _build_ann(self) -> Any:
        """An IVF index (8-bit scalar quantised) over the node-name vectors for large graphs:
        a question then scans ``nprobe`` of ``nlist`` cells instead of every name. Built from
        the stored vectors (nothing is re-embedded); exact cosines are still used for scoring."""
        import faiss
        import numpy as np

        vecs = self.node_vectors
        n, d = vecs.shape
        nlist = int(min(4096, max(64, 4 * np.sqrt(n))))
        quantizer = faiss.IndexFlatIP(d)
        ann = faiss.IndexIVFScalarQuantizer(quantizer, d, nlist, faiss.ScalarQuantizer.QT_8bit,
                                            faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(0)
        sample = np.sort(rng.choice(n, size=min(n, nlist * 40), replace=False))
        ann.train(np.ascontiguousarray(vecs[sample]))
        step = 100_000
        for i in range(0, n, step):
            ann.add(np.ascontiguousarray(vecs[i:i + step]))
        ann.nprobe = 32
        self._ann_quantizer = quantizer  # the IVF index does not own its quantizer
        return ann

    # ------------------------------------------------------------------ per question
    def nearest_nodes(self, qv: np.ndarray, n: int) -> list[str]:
        """Ids of nodes whose name is among the ``n`` nearest to the question vector."""
        if n <= 0 or not len(self.dense.texts):
            return []
        n = min(n, len(self.dense.texts))
        if self.ann is not None:
            _s, rows = self.ann.search(qv[None, :], n)
            found = rows[0].tolist()
        else:  # exact: one matrix-vector product over the stored vectors
            found = _top(self.node_vectors @ qv, n).tolist()
        ids: dict[str, None] = {}
        ptr, nodes = self.dense.row_ptr, self.dense.row_nodes
        for r in found:
            if r < 0:
                continue
            for ni in nodes[ptr[r]:ptr[r + 1]].tolist():
                ids[self.dense.node_ids[ni]] = None
        return list(ids)

    def relation_scores(self, qv: np.ndarray) -> np.ndarray:
        """Cosine of the question to every relation: one product with the relation index's
        stored vectors (a full FAISS k-selection over every relation would cost more)."""
        return _faiss_vectors(self.rel_index) @ qv

    def search(
        self,
        question: str,
        *,
        seeds: Sequence[str] = (),
        k: int = 10,
        top_nodes: int = 50,
        per_node: int = 2000,
    ) -> Ranked:
        """Top ``k`` triplets by Eq. 10 among edges of the ``top_nodes`` nearest nodes + seeds."""
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        qv = question_vector(self.embedder, question)
        timings["encode_s"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        nodes = self.nearest_nodes(qv, top_nodes)
        rel_s = self.relation_scores(qv)
        timings["faiss_s"] = time.perf_counter() - t1
        nodes = list(dict.fromkeys([*seeds, *nodes]))
        t2 = time.perf_counter()
        if self.csr is not None:
            out = self._score_csr(self.csr, qv, rel_s, nodes, k, per_node)
        else:
            out = self._score_generic(qv, rel_s, nodes, k, per_node)
        timings["score_s"] = time.perf_counter() - t2
        out.timings.update(timings)
        out.counts["nodes"] = len(nodes)
        out.scorer = "eq10"
        return out

    def _node_sims(self, rows: np.ndarray, qv: np.ndarray) -> np.ndarray:
        import numpy as np

        sims = np.zeros(len(rows), np.float32)
        ok = rows >= 0
        if ok.any():
            sims[ok] = self.node_vectors[rows[ok]] @ qv
        return sims

    def _score_csr(self, g: CsrView, qv: np.ndarray, rel_s: np.ndarray, nodes: Sequence[str],
                   k: int, per_node: int) -> Ranked:
        """Eq. 10 over the store's arrays: the candidate edges are gathered, scored and ranked
        without a Triplet until the top ``k``."""
        import numpy as np

        out = Ranked()
        parts = []
        capped = 0
        for nid in nodes:
            i = g.index.get(nid)
            if i is None:
                continue
            e = np.concatenate([g.out_edges[g.out_ptr[i]:g.out_ptr[i + 1]],
                                g.in_edges[g.in_ptr[i]:g.in_ptr[i + 1]]])
            if len(e) > per_node:  # hub: its edges with the best relations first
                capped += 1
                e = e[_top(rel_s[g.rels[e]], per_node)]
            parts.append(e)
        if not parts:
            out.notes.append("no candidate nodes in the graph")
            return out
        edges = np.unique(np.concatenate(parts))
        h, r, t = g.heads[edges], g.rels[edges], g.tails[edges]
        ends, inv = np.unique(np.concatenate([h, t]), return_inverse=True)
        sims = self._node_sims(self.node_row[ends], qv)
        score = sims[inv[: len(h)]] + rel_s[r] + sims[inv[len(h):]]
        best = _top(score, k)
        ids, rels = g.ids, g.relations
        out.triplets = [Triplet(head=ids[int(h[j])], relation=rels[int(r[j])],
                                tail=ids[int(t[j])]) for j in best.tolist()]
        out.scores = [float(score[j]) for j in best.tolist()]
        out.counts.update({"candidates": int(len(edges)), "capped_nodes": capped})
        if capped:
            out.notes.append(f"per_node={per_node} cut {capped} hub(s) (best relations kept)")
        return out

    def _score_generic(self, qv: np.ndarray, rel_s: np.ndarray, nodes: Sequence[str], k: int,
                       per_node: int) -> Ranked:
        import numpy as np

        out = Ranked()
        hoods = self.store.neighbors(list(nodes), direction=Direction.BOTH, limit_per_node=per_node)
        seen: dict[Triplet, None] = {}
        capped = 0
        for nid in nodes:
            hood = hoods.get(nid)
            if hood is None:
                continue
            capped += bool(hood.truncated)
            seen.update(dict.fromkeys(hood.triplets))
        cands = list(seen)
        if not cands:
            out.notes.append("no candidate edges")
            return out
        missing = [r for r in dict.fromkeys(t.relation for t in cands) if r not in self.rel_pos]
        extra = relation_similarities(self.embedder, qv, missing) if missing else {}
        rsc = np.array([rel_s[self.rel_pos[t.relation]] if t.relation in self.rel_pos
                        else extra.get(t.relation, 0.0) for t in cands], np.float32)
        hrows = np.array([self.row_by_id.get(t.head, -1) for t in cands], np.int64)
        trows = np.array([self.row_by_id.get(t.tail, -1) for t in cands], np.int64)
        score = self._node_sims(hrows, qv) + rsc + self._node_sims(trows, qv)
        best = _top(score, k)
        out.triplets = [cands[j] for j in best.tolist()]
        out.scores = [float(score[j]) for j in best.tolist()]
        out.counts.update({"candidates": len(cands), "capped_nodes": capped})
        if capped:
            out.notes.append(f"per_node={per_node} cut {capped} node neighbourhood(s)")
        return out


_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_INDEX_LOCK = threading.Lock()


def get_triplet_index(store: GraphStore, services: Services) -> TripletIndex:
    """The :class:`TripletIndex` of ``store`` for ``services.embedder``: built once per store
    object and embedder (kept while the store lives), its node vectors from the linking dense
    index (saved under ``RunConfig.index_dir`` when one is set)."""
    from byokg.linking.indexes import get_dense_index

    embedder = services.embedder
    key = (str(embedder.name), embedder)

    def build() -> TripletIndex:
        return TripletIndex(store, get_dense_index(store, services), embedder)

    with _INDEX_LOCK:
        try:
            per_store = _INDEXES.setdefault(store, {})
        except TypeError:  # store not weak-referenceable: per-run cache only
            per_store = None
        if per_store is not None and key in per_store:
            return per_store[key]
    index = services.shared(("triplet-index", store, key), build)
    if per_store is not None:
        with _INDEX_LOCK:
            per_store.setdefault(key, index)
    return index
