"""Text vectors cached per process and embedder instance (relation names, verbalised triplets)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


_VEC_LOCK = threading.Lock()
_VEC_CACHE: dict[tuple[str, int], dict[str, Any]] = {}
VEC_CACHE_MAX = 200_000  # vectors kept per embedder before the cache is cleared


def encode_cached(embedder: Any, texts: Sequence[str], *, batch_size: int = 128) -> np.ndarray:
    """``embedder.encode(texts)`` with a per-process cache; only unseen texts are encoded."""
    import numpy as np

    key = (str(getattr(embedder, "name", "embedder")), id(embedder))
    with _VEC_LOCK:
        cache = _VEC_CACHE.setdefault(key, {})
        missing = list(dict.fromkeys(t for t in texts if t not in cache))
    if missing:
        vecs = np.asarray(embedder.encode(missing, batch_size=batch_size), dtype=np.float32)
        with _VEC_LOCK:
            if len(cache) + len(missing) > VEC_CACHE_MAX:
                cache.clear()
            cache.update(zip(missing, vecs, strict=True))
            found = {t: cache[t] for t in texts if t in cache}
        for t, v in zip(missing, vecs, strict=True):  # cleared meanwhile: still answer
            found.setdefault(t, v)
    else:
        with _VEC_LOCK:
            found = {t: cache[t] for t in texts}
    dim = int(getattr(embedder, "dim", 0) or (len(next(iter(found.values()))) if found else 0))
    if not texts:
        return np.zeros((0, dim), np.float32)
    return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)
