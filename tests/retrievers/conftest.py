"""Fixtures for the retriever tests: a scripted LLM, a call-counting store wrapper."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from byokg.models import LLMResponse


class ScriptLLM:
    """An :class:`byokg.models.LLM` replying ``script(prompt, call_index)``; keeps the prompts."""

    def __init__(self, script: Callable[[str, int], str], name: str = "script") -> None:
        self.name = name
        self.script = script
        self.prompts: list[str] = []
        self._lock = threading.Lock()

    def complete(self, prompt, *, system=None, max_tokens=None, temperature=None):
        with self._lock:
            self.prompts.append(prompt)
            n = len(self.prompts) - 1
        text = self.script(prompt, n)
        return LLMResponse(text=text, model=self.name, prompt_tokens=len(prompt) // 4,
                           completion_tokens=max(1, len(text) // 4))


class CountingStore:
    """Wraps a store and records every ``neighbors`` call (ids, limit_per_node)."""

    def __init__(self, store) -> None:
        self._store = store
        self.neighbor_calls: list[tuple[list[str], int | None]] = []

    def neighbors(self, ids, **kw):
        self.neighbor_calls.append((list(ids), kw.get("limit_per_node")))
        return self._store.neighbors(ids, **kw)

    def __getattr__(self, name):
        return getattr(self._store, name)


@pytest.fixture
def counting_demo(demo_store):
    return CountingStore(demo_store)


@pytest.fixture
def make_llm():
    """``make_llm(script)`` -> a :class:`ScriptLLM`."""
    return ScriptLLM


@pytest.fixture
def counting():
    """``counting(store)`` -> a :class:`CountingStore` around it."""
    return CountingStore
