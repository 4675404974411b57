"""LLM providers (bedrock, openai-compatible, replay) and the response cache.

``create_llm("openai:gpt-4o-mini", temperature=0)`` looks the spec's prefix up in the LLM
registry (``register_llms`` hook) and calls ``factory(rest, **options)``. The option ``cache``
(a directory) wraps the model in an on-disk response cache keyed by (model, prompt checksum).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from byokg.errors import ConfigError
from byokg.models.base import LLM

SPEC_HELP = "use none, bedrock:MODEL_ID, openai:MODEL or replay:CASSETTE[?record=SPEC]"


def split_spec(spec: str) -> tuple[str, str]:
    if not isinstance(spec, str) or ":" not in spec:
        raise ConfigError(f"LLM spec {spec!r} has no provider prefix; {SPEC_HELP}")
    prefix, rest = spec.split(":", 1)
    if not rest:
        raise ConfigError(f"LLM spec {spec!r} names no model; {SPEC_HELP}")
    return prefix.strip().lower(), rest.strip()


def create_llm(spec: str, **options: Any) -> LLM:
    """Build the LLM for ``spec`` (``prefix:rest``) through the LLM registry."""
    from byokg.pipeline import registry

    prefix, rest = split_spec(spec)
    reg = registry.llms()
    if prefix not in reg:
        known = ", ".join(sorted(reg.names())) or "none"
        raise ConfigError(f"unknown LLM provider {prefix!r} in spec {spec!r} (registered: {known}); {SPEC_HELP}")
    cache_dir = options.pop("cache", None) or options.pop("cache_dir", None)
    llm = reg.create(prefix, rest, **options)
    if cache_dir:
        from byokg.models.cache import CachedLLM

        llm = CachedLLM(llm, cache_dir)
    return llm


def backoff_delays(
    retries: int, *, base: float = 0.5, cap: float = 20.0, rng: Callable[[], float] = random.random
) -> list[float]:
    """Capped exponential backoff with full jitter: delay i is uniform in [0, min(cap, base*2^i)]."""
    return [min(cap, base * (2**i)) * (0.5 + 0.5 * rng()) for i in range(retries)]


def content_text(content: Any) -> tuple[str, list[str]]:
    """The text of a chat message's ``content``: a string, or a list of parts (strings or
    ``{"type": "text", "text": …}``) joined in order; other parts are skipped with a warning."""
    if content is None:
        return "", []
    if isinstance(content, str):
        return content, []
    parts = content if isinstance(content, list) else [content]
    texts, skipped = [], []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str) and part.get(
                "type", "text") in ("text", "output_text"):
            texts.append(part["text"])
        else:
            kind = part.get("type", "?") if isinstance(part, dict) else type(part).__name__
            skipped.append(str(kind))
    warns = [f"skipped {len(skipped)} non-text content part(s): {', '.join(skipped[:5])}"] if (
        skipped) else []
    return "".join(texts), warns


def sleep(seconds: float) -> None:  # indirection so tests can skip real sleeping
    """Back-off between attempts; a stopped question ends it at once (byokg.cancel)."""
    from byokg.cancel import current

    if current() is None:
        time.sleep(seconds)
        return
    from byokg.cancel import sleep as cancellable_sleep

    cancellable_sleep(seconds)


__all__ = ["create_llm", "split_spec", "backoff_delays", "content_text"]
