"""On-disk response cache keyed by (model, prompt checksum)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from byokg.models.base import LLM, BaseLLM, LLMResponse, prompt_checksum


class CachedLLM(BaseLLM):
    """Wraps an LLM; a hit returns the stored response with ``cached=True``.

    Options (max_tokens, temperature) are part of the key so a changed setting is not served
    a stale answer. Deadlines and retries are the wrapped model's.
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

    def _call(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None, timeout_s: float) -> LLMResponse:
        path = self.dir / f"{self.key(prompt, system, max_tokens, temperature)}.json"
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self.hits += 1
                return LLMResponse(**{**data, "cached": True})
            except (ValueError, TypeError):
                pass  # a corrupt entry is recomputed and overwritten
        self.misses += 1
        resp = self.inner.complete(prompt, system=system, max_tokens=max_tokens, temperature=temperature)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(resp.model_dump(exclude={"cached"})), encoding="utf-8")
        tmp.replace(path)
        return resp
