"""On-disk response cache keyed by (model, prompt checksum)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from byokg.models.base import (
    LLM,
    LLMResponse,
    TokenCallback,
    WrappingLLM,
    complete_streaming,
    prompt_checksum,
)


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
