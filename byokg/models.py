"""Protocols for the model-backed parts: LLMs, embedders, rerankers.

Providers are registered through the ``register_llms``, ``register_embedders`` and
``register_rerankers`` hooks; heavy libraries are imported inside the providers, never here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pydantic import BaseModel

if TYPE_CHECKING:  # numpy stays out of `import byokg`
    import numpy as np


class LLMResponse(BaseModel):
    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False


@runtime_checkable
class LLM(Protocol):
    """A text-completion model. Errors are raised (LLMError), never returned as text."""

    name: str

    def complete(
        self,
        prompt: str,
        *,
        system: str | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> LLMResponse: ...


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised float32 vectors (so inner product is cosine)."""

    name: str
    dim: int

    def encode(self, texts: Sequence[str], *, batch_size: int = 256) -> np.ndarray: ...


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs; higher is more relevant."""

    name: str

    def score(self, query: str, passages: Sequence[str], *, batch_size: int = 64) -> list[float]: ...


def prompt_checksum(prompt: str, system: str | None = None) -> str:
    """Stable checksum of a prompt (keys caches and replay cassettes)."""
    h = hashlib.sha256()
    h.update((system or "").encode("utf-8"))
    h.update(b"\x00")
    h.update(prompt.encode("utf-8"))
    return h.hexdigest()[:16]

