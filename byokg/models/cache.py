"""On-disk caches of model outputs: LLM responses keyed by (model, prompt checksum)
(:class:`CachedLLM`), and text vectors of one embedder for one graph (:class:`VectorFile`), so a
second process on the same graph embeds nothing it embedded before."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from byokg.models.base import LLM
from byokg.models.base import LLMResponse
from byokg.models.base import TokenCallback
from byokg.models.base import WrappingLLM
from byokg.models.base import complete_streaming
from byokg.models.base import prompt_checksum


class CachedLLM(WrappingLLM):
    """Wraps an LLM; a hit returns the stored response with ``cached=True``.

    Options (max_tokens, temperature) are part of the key so a changed setting is not served
    a stale answer. Deadlines and retries are the wrapped model's. A miss streams through the
    wrapped model (``on_token``); a hit is sent as one piece.
    """

    retries = 0
    budget_s = float("inf")

    def __init__(self, inner: LLM, directory: str | os.PathLike[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.dir = Path(directory).expanduser()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.hits = self.misses = 0

    def key(self, prompt: str, system: str | None, max_tokens: int | None, temperature: float | None) -> str:
        raw = f"{self.name}\x00{prompt_checksum(prompt, system)}\x00{max_tokens}\x00{temperature}"
        return hashlib.sha256(raw.encode()).hexdigest()[:32]

    def _answer(self, prompt: str, system: str | None, max_tokens: int | None,
                temperature: float | None, on_token: TokenCallback | None) -> LLMResponse:
        path = self.dir / f"{self.key(prompt, system, max_tokens, temperature)}.json"
        hit: LLMResponse | None = None
        if path.is_file():
            try:
                hit = LLMResponse(**{**json.loads(path.read_text(encoding="utf-8")),
                                     "cached": True})
            except (ValueError, TypeError):
                pass  # a corrupt entry is recomputed and overwritten
        if hit is not None:
            self.hits += 1
            if on_token is not None and hit.text:
                on_token(hit.text)
            return hit
        self.misses += 1
        options = {"system": system, "max_tokens": max_tokens, "temperature": temperature}
        resp = (self.inner.complete(prompt, **options) if on_token is None
                else complete_streaming(self.inner, prompt, on_token, **options))
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(resp.model_dump(exclude={"cached"})), encoding="utf-8")
        tmp.replace(path)
        return resp


# --------------------------------------------------------------------------- text vectors

log = logging.getLogger("byokg.models")
VECTOR_FORMAT = 1
MAX_FILE_TEXTS = 100_000  # texts kept per graph and embedder (384 floats each: ~150 MB)
FLUSH_TEXTS = 256  # after the first write, new vectors wait for this many …
FLUSH_SECONDS = 60.0  # … or this long, so a batch of questions does not rewrite the file each


class VectorFile:
    """Vectors of texts for one embedder, kept in one ``.npz`` file (the texts as UTF-8 JSON,
    the float32 matrix, the embedder's name, dimension and the byokg version: a file written
    by another embedder, dimension or version is ignored and replaced).

    Read once on first use; :meth:`add` keeps new vectors in memory and :meth:`flush` merges
    them into the file (written to a temporary file, then renamed). Thread-safe."""

    def __init__(self, path: str | os.PathLike[str], embedder: Any) -> None:
        self.path = Path(path)
        self.name = str(getattr(embedder, "name", type(embedder).__name__))
        self.dim = int(getattr(embedder, "dim", 0) or 0)
        self._lock = threading.Lock()
        self._known: dict[str, Any] | None = None
        self._pending: dict[str, Any] = {}
        self.loaded = 0  # vectors read from the file
        self.written = 0  # vectors added to the file by this process
        self.flushed_at: float | None = None  # monotonic time of this process's last write

    def _header(self) -> dict[str, Any]:
        from byokg import __version__

        return {"format": VECTOR_FORMAT, "embedder": self.name, "dim": self.dim,
                "byokg": __version__}

    def _read(self) -> dict[str, Any]:
        import numpy as np

        if not self.path.is_file():
            return {}
        try:
            with np.load(self.path) as data:
                head = json.loads(bytes(data["header"]).decode("utf-8"))
                if head != self._header():
                    log.info("text vectors in %s are from %s; not used", self.path, head)
                    return {}
                texts = json.loads(bytes(data["texts"]).decode("utf-8"))
                vecs = np.asarray(data["vectors"], dtype=np.float32)
            if len(texts) != len(vecs) or (len(vecs) and vecs.shape[1] != self.dim):
                raise ValueError("texts and vectors disagree")
            return dict(zip(texts, vecs, strict=True))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("ignoring unreadable text vectors %s (%s)", self.path, exc)
            return {}

    def _loaded(self) -> dict[str, Any]:
        if self._known is None:
            self._known = self._read()
            self.loaded = len(self._known)
        return self._known

    def get(self, texts: Iterable[str]) -> dict[str, Any]:
        """The vectors held (on file or added) for those of ``texts`` that have one."""
        with self._lock:
            known = self._loaded()
            out = {t: v for t in texts if (v := known.get(t)) is not None}
            out.update({t: v for t in texts if t not in out and (v := self._pending.get(t))
                        is not None})
            return out

    def add(self, vectors: Mapping[str, Any]) -> None:
        """Keep vectors for the next :meth:`flush` (beyond :data:`MAX_FILE_TEXTS`: dropped)."""
        with self._lock:
            room = MAX_FILE_TEXTS - len(self._loaded()) - len(self._pending)
            for t, v in vectors.items():
                if room <= 0:
                    break
                if t not in self._pending and t not in self._known:  # type: ignore[operator]
                    self._pending[t] = v
                    room -= 1

    def due(self) -> bool:
        """Whether :meth:`flush` should write now: something new and never written by this
        process (one CLI call), or :data:`FLUSH_TEXTS` new vectors, or :data:`FLUSH_SECONDS`
        since the last write (a batch of questions)."""
        import time

        with self._lock:
            return bool(self._pending) and (
                self.flushed_at is None or len(self._pending) >= FLUSH_TEXTS
                or time.monotonic() - self.flushed_at >= FLUSH_SECONDS)

    def flush(self) -> int:
        """Write the vectors added since the last flush (merged with what the file holds now,
        which another process may have grown); returns how many were new."""
        import time

        import numpy as np

        with self._lock:
            if not self._pending:
                return 0
            self.flushed_at = time.monotonic()
            merged = {**self._read(), **self._loaded(), **self._pending}
            texts: Sequence[str] = list(merged)[:MAX_FILE_TEXTS]
            n = len(self._pending)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.path.with_name(f"{self.path.stem}.tmp{os.getpid()}-"
                                          f"{threading.get_ident()}.npz")
                np.savez(tmp, header=np.frombuffer(json.dumps(self._header()).encode(), np.uint8),
                         texts=np.frombuffer(json.dumps(texts, ensure_ascii=False).encode(),
                                             np.uint8),
                         vectors=np.stack([merged[t] for t in texts]).astype(np.float32)
                         if texts else np.zeros((0, self.dim), np.float32))
                tmp.replace(self.path)
            except OSError as exc:  # a cache that cannot be written costs time, nothing else
                log.warning("could not write text vectors %s (%s)", self.path, exc)
                return 0
            self._known = {t: merged[t] for t in texts}
            self._pending = {}
            self.written += n
            return n


_FILES: dict[tuple[str, str, int], VectorFile] = {}
_FILES_LOCK = threading.Lock()


def vector_file(folder: str | os.PathLike[str], embedder: Any) -> VectorFile:
    """The one :class:`VectorFile` of ``embedder`` in ``folder`` for this process."""
    name = str(getattr(embedder, "name", type(embedder).__name__))
    dim = int(getattr(embedder, "dim", 0) or 0)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60]
    key = (str(Path(folder)), name, dim)
    with _FILES_LOCK:
        got = _FILES.get(key)
        if got is None:
            got = _FILES[key] = VectorFile(Path(folder) / f"vectors-{safe}-{dim}.npz", embedder)
        return got


def flush_vector_files(folder: str | os.PathLike[str] | None, *, force: bool = False) -> int:
    """Flush the :class:`VectorFile` s of ``folder`` that are due (:meth:`VectorFile.due`; all
    with ``force``); returns how many vectors were written."""
    if folder is None:
        return 0
    where = str(Path(folder))
    with _FILES_LOCK:
        files = [f for k, f in _FILES.items() if k[0] == where]
    return sum(f.flush() for f in files if force or f.due())
