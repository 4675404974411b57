"""Rerankers: a FlagEmbedding cross-encoder from a local path, or the embedder's cosine.

Registered through the ``register_rerankers`` hook (see ``byokg.plugins.linking``) as
``"flag"`` and ``"cosine"``. ``cosine`` is the default when no cross-encoder weights are
configured: it needs no extra model beyond the embedder.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from byokg.errors import ModelNotFoundError
from byokg.models.embedders import EXTRA_HINT
from byokg.models.embedders import _cached
from byokg.models.embedders import flag_model
from byokg.models.embedders import quiet_loading


class FlagCrossEncoder:
    """``FlagEmbedding.FlagReranker`` (bge-reranker and compatible) loaded from a local folder.

    Scores are sigmoid-normalised to 0..1 unless ``normalize=False``.
    """

    def __init__(self, path: str | os.PathLike[str], *, normalize: bool = True,
                 max_length: int = 512, name: str | None = None) -> None:
        p, FlagReranker = flag_model(path, "reranker", "bge-reranker", "FlagReranker")  # noqa: N806
        self.path = str(p)
        self.name = name or f"flag:{p.name}"
        self.normalize = normalize
        self.max_length = max_length
        with quiet_loading():
            self.model = FlagReranker(self.path, use_fp16=False, devices="cpu",
                                      normalize=normalize, max_length=max_length)

    def score(self, query: str, passages: Sequence[str], *, batch_size: int = 64) -> list[float]:
        passages = list(passages)
        if not passages:
            return []
        pairs = [(query, p) for p in passages]
        out: list[float] = []
        for i in range(0, len(pairs), batch_size):
            chunk = pairs[i:i + batch_size]
            s = self.model.compute_score(chunk, batch_size=len(chunk) + 1,
                                         max_length=self.max_length, normalize=self.normalize)
            out.extend(float(x) for x in np.atleast_1d(np.asarray(s, dtype=np.float64)))
        return out


class CosineReranker:
    """Cosine similarity of the embedder's vectors (the default without a cross-encoder)."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self.name = f"cosine:{embedder.name}"

    def score(self, query: str, passages: Sequence[str], *, batch_size: int = 64) -> list[float]:
        passages = list(passages)
        if not passages:
            return []
        vecs = self.embedder.encode([query, *passages], batch_size=batch_size)
        return [float(x) for x in vecs[1:] @ vecs[0]]


def make_flag_reranker(path: str | None = None, **options: Any) -> FlagCrossEncoder:
    if not path:
        raise ModelNotFoundError(
            f"the flag reranker needs path= (a local bge-reranker folder); install {EXTRA_HINT}"
        )
    resolved = str(Path(path).expanduser().resolve())
    return _cached(("flag-reranker", resolved, tuple(sorted(options.items()))),
                   lambda: FlagCrossEncoder(resolved, **options))


def make_cosine_reranker(embedder: Any = None, **options: Any) -> CosineReranker:
    """``embedder`` is an Embedder object or a registered name (None: the best available)."""
    from byokg.models.embedders import create_embedder

    if embedder is None or isinstance(embedder, str):
        embedder = create_embedder(embedder, **options)
    return CosineReranker(embedder)
