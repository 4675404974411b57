"""Dense name index: FAISS inner product over L2-normalised vectors (= true cosine).

Distinct names are embedded in batches (a tqdm bar when stderr is a terminal) into a
``faiss.IndexFlatIP`` (or, without faiss installed, the same exact search in numpy); each vector
row maps back to the node ids carrying that name. Saved with
a manifest (embedder name, dimension, count, node-set fingerprint, byokg version) so a stale or
mismatched index is detected on load and rebuilt, never used. Memory: 4 bytes x dim per distinct
name (1M names x 384 dims = 1.5 GB), encoded batch by batch.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Iterable
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..contracts import Candidate
from ..contracts import MentionLinks
from ..errors import InputError
from .interning import intern_names
from .manifest import Manifest
from .manifest import byokg_version
from .manifest import fingerprint
from .manifest import read_manifest
from .manifest import write_manifest

log = logging.getLogger("byokg.linking")
FORMAT = 1


class DenseIndex:
    """Vectors of every distinct node name/alias, searched by cosine."""

    def __init__(self, *, embedder: Any, index: Any, texts: list[str], row_ptr: np.ndarray,
                 row_nodes: np.ndarray, node_ids: list[str], node_names: list[str],
                 fingerprint: str, count: int) -> None:
        self.embedder = embedder
        self.index = index
        self.texts = texts
        self.row_ptr = row_ptr
        self.row_nodes = row_nodes
        self.node_ids = node_ids
        self.node_names = node_names
        self.fingerprint = fingerprint
        self.count = count

    def __len__(self) -> int:
        return len(self.texts)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str, str]], embedder: Any, *,
                   batch_size: int = 256, progress: bool | None = None,
                   fingerprint_: str | None = None) -> DenseIndex:
        pairs = pairs if isinstance(pairs, list) else list(pairs)
        t = intern_names(pairs, lambda name: " ".join(name.split()))
        texts = t.keys
        index = _flat_index(embedder.dim)
        show = sys.stderr.isatty() if progress is None else progress
        t0 = time.perf_counter()
        from tqdm import tqdm

        with tqdm(total=len(texts), desc=f"embedding names ({embedder.name})", unit="name",
                  disable=not show) as bar:
            step = max(batch_size, 1) * 8  # a few encoder batches per FAISS add
            for i in range(0, len(texts), step):
                chunk = texts[i:i + step]
                vecs = np.ascontiguousarray(embedder.encode(chunk, batch_size=batch_size),
                                            dtype=np.float32)
                index.add(vecs)
                bar.update(len(chunk))
        log.info("dense index: %d names embedded with %s in %.1fs", len(texts), embedder.name,
                 time.perf_counter() - t0)
        return cls(embedder=embedder, index=index, texts=texts, row_ptr=t.key_ptr,
                   row_nodes=t.entry_node, node_ids=t.node_ids, node_names=t.node_names,
                   fingerprint=fingerprint_ or fingerprint(pairs), count=len(pairs))

    @classmethod
    def from_store(cls, store: Any, embedder: Any, **options: Any) -> DenseIndex:
        from .manifest import collect_names

        pairs, fp = collect_names(store)
        return cls.from_pairs(pairs, embedder, fingerprint_=fp, **options)

    # ------------------------------------------------------------------ search
    def search(self, mentions: Sequence[str], top_k: int = 3, min_score: float = 0.0, *,
               batch_size: int = 256) -> list[MentionLinks]:
        """Top ``top_k`` nodes per mention by cosine, grouped per mention."""
        mentions = list(mentions)
        if not mentions or not len(self.texts) or top_k <= 0:
            return [MentionLinks(mention=m) for m in mentions]
        q = np.ascontiguousarray(self.embedder.encode(mentions, batch_size=batch_size),
                                 dtype=np.float32)
        k = min(len(self.texts), top_k * 2 + 2)  # rows, several nodes may share one
        scores, rows = _search(self.index, q, k)
        out = []
        for m, srow, rrow in zip(mentions, scores.tolist(), rows.tolist(), strict=True):
            best: dict[int, float] = {}
            for s, r in zip(srow, rrow, strict=True):
                if r < 0 or s < min_score:
                    continue
                for node in self.row_nodes[self.row_ptr[r]:self.row_ptr[r + 1]].tolist():
                    if node not in best:
                        best[node] = s
            ranked = sorted(best.items(), key=lambda kv: -kv[1])[:top_k]
            out.append(MentionLinks(mention=m, candidates=tuple(
                Candidate(id=self.node_ids[n], name=self.node_names[n],
                          score=round(float(min(max(s, -1.0), 1.0)), 4), method="dense")
                for n, s in ranked)))
        return out

    # ------------------------------------------------------------------ persistence
    def manifest(self, store_uri: str | None = None) -> Manifest:
        return Manifest(kind="dense", format=FORMAT, byokg_version=byokg_version(),
                        count=self.count, fingerprint=self.fingerprint, store_uri=store_uri,
                        embedder=self.embedder.name, dim=int(self.embedder.dim))

    def save(self, folder: str | Path, *, store_uri: str | None = None) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "manifest.json").unlink(missing_ok=True)
        if isinstance(self.index, NumpyFlatIP):
            np.save(folder / "vectors.npy", self.index.vectors)
        else:
            import faiss

            faiss.write_index(self.index, str(folder / "vectors.faiss"))
        np.savez(folder / "rows.npz", row_ptr=self.row_ptr, row_nodes=self.row_nodes)
        with open(folder / "rows.json", "w", encoding="utf-8") as fh:
            json.dump({"texts": self.texts, "node_ids": self.node_ids,
                       "node_names": self.node_names}, fh, ensure_ascii=False)
        write_manifest(folder, self.manifest(store_uri))
        return folder

    @classmethod
    def load(cls, folder: str | Path, embedder: Any, *,
             expect_fingerprint: str | None = None) -> DenseIndex:
        """Load a saved index built with ``embedder``; :class:`InputError` when it is
        missing, stale (fingerprint) or built with another embedder or dimension."""
        folder = Path(folder)
        man = read_manifest(folder)
        if man is None or man.kind != "dense":
            raise InputError("no dense index here (manifest.json missing)", source=str(folder))
        problems = []
        if man.format != FORMAT:
            problems.append(f"format {man.format} != {FORMAT}")
        if man.embedder != embedder.name:
            problems.append(f"built with embedder {man.embedder!r}, not {embedder.name!r}")
        if man.dim != embedder.dim:
            problems.append(f"dimension {man.dim} != {embedder.dim}")
        if expect_fingerprint is not None and man.fingerprint != expect_fingerprint:
            problems.append("the graph's names changed since it was built")
        if problems:
            raise InputError("dense index is stale: " + "; ".join(problems), source=str(folder))
        try:
            if (folder / "vectors.faiss").is_file() and _has_faiss():
                import faiss

                index = faiss.read_index(str(folder / "vectors.faiss"))
            elif (folder / "vectors.npy").is_file():
                index = NumpyFlatIP.from_array(np.load(folder / "vectors.npy"))
            else:
                raise OSError("vectors.faiss (needs faiss) or vectors.npy missing")
            arrays = np.load(folder / "rows.npz")
            with open(folder / "rows.json", encoding="utf-8") as fh:
                strings = json.load(fh)
        except (OSError, RuntimeError, KeyError, ValueError) as exc:
            raise InputError(f"cannot read dense index ({exc}); delete it to rebuild",
                             source=str(folder)) from None
        if index.ntotal != len(strings["texts"]) or index.d != embedder.dim:
            raise InputError("dense index files disagree with each other; delete to rebuild",
                             source=str(folder))
        return cls(embedder=embedder, index=index, texts=strings["texts"],
                   row_ptr=arrays["row_ptr"], row_nodes=arrays["row_nodes"],
                   node_ids=strings["node_ids"], node_names=strings["node_names"],
                   fingerprint=man.fingerprint, count=man.count)


class NumpyFlatIP:
    """Exact inner-product search in numpy, used when faiss is not installed (same results,
    slower on large indexes). Mirrors the few ``faiss.IndexFlatIP`` members used here."""

    def __init__(self, d: int) -> None:
        self.d = d
        self._parts: list[np.ndarray] = []
        self._vectors: np.ndarray | None = np.zeros((0, d), np.float32)

    @classmethod
    def from_array(cls, vectors: np.ndarray) -> NumpyFlatIP:
        index = cls(int(vectors.shape[1]))
        index._vectors = np.asarray(vectors, np.float32)
        return index

    @property
    def vectors(self) -> np.ndarray:
        if self._parts:
            self._vectors = np.concatenate([self._vectors, *self._parts])
            self._parts = []
        return self._vectors

    @property
    def ntotal(self) -> int:
        return len(self.vectors)

    def add(self, x: np.ndarray) -> None:
        self._parts.append(np.asarray(x, np.float32))

    def search(self, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        return _top_k(_scores(q, self.vectors), k)


def _scores(q: np.ndarray, stored: np.ndarray) -> np.ndarray:
    """Inner products of queries with stored rows: a few queries without BLAS (its threads,
    spinning on a busy 2-core machine, made one 10k x 512 product 12 ms instead of 1 ms, and
    their number is process-wide), a batch with it."""
    if len(q) < SMALL_BATCH:
        return np.einsum("qd,nd->qn", q, stored)
    return q @ stored.T


def _top_k(sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best scores per row of ``sims`` and their columns, best first."""
    k = min(k, sims.shape[1])
    top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    part = np.take_along_axis(sims, top, axis=1)
    order = np.argsort(-part, axis=1, kind="stable")
    return np.take_along_axis(part, order, axis=1), np.take_along_axis(top, order, axis=1)


SMALL_BATCH = 32  # queries from which a search uses FAISS's (or BLAS's) threads


def _has_faiss() -> bool:
    import importlib.util

    return importlib.util.find_spec("faiss") is not None


def _flat_index(dim: int) -> Any:
    if _has_faiss():
        import faiss

        return faiss.IndexFlatIP(dim)
    log.info("faiss is not installed: dense search runs in numpy (pip install 'byokg[embeddings]')")
    return NumpyFlatIP(dim)


def _search(index: Any, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """FAISS search for a batch; a few queries are scored in one thread over the index's own
    vectors (a zero-copy view): FAISS's OpenMP threads spinning on a busy 2-core machine made
    one query 20x slower (16 ms instead of 0.8 ms at 10k names), and their number is a
    process-wide setting that library code does not change."""
    if isinstance(index, NumpyFlatIP):
        return index.search(q, k)
    if len(q) >= SMALL_BATCH or not index.ntotal:
        return index.search(q, k)
    import faiss

    stored = faiss.rev_swig_ptr(index.get_xb(), index.ntotal * index.d).reshape(index.ntotal, index.d)
    return _top_k(_scores(q, stored), k)
