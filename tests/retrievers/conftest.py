"""Fixtures for the retriever tests: a scripted LLM, a call-counting store wrapper."""

from __future__ import annotations

import pytest

from byokg.testing import ScriptedLLM as ScriptLLM


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
