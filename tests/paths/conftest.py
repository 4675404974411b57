"""Helpers for the path-tool tests: a counting store proxy and small hand-built graphs."""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from byokg.backends.memory import MemoryGraph


class CountingStore:
    """Wraps a store, counts ``neighbors``/``degrees`` calls and records the ids asked.

    Not a MemoryGraph, so byokg.graph.paths takes its generic (protocol-only) route.
    """

    def __init__(self, inner, capabilities=frozenset()):
        self.inner = inner
        self.uri = getattr(inner, "uri", "proxy:")
        self.capabilities = frozenset(capabilities)
        self.calls: Counter[str] = Counter()
        self.neighbor_batches: list[list[str]] = []

    def neighbors(self, ids, **kw):
        self.calls["neighbors"] += 1
        self.neighbor_batches.append(list(ids))
        return self.inner.neighbors(ids, **kw)

    def degrees(self, ids, **kw):
        self.calls["degrees"] += 1
        return self.inner.degrees(ids, **kw)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def counting():
    return CountingStore


@pytest.fixture(scope="session")
def tiny_rows(shared_data):
    path = shared_data / "freebase" / "freebase_tiny_kg.csv"
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    return [tuple(r) for r in rows[1:]]


@pytest.fixture
def make_graph():
    """``make_graph(("a", "r", "b"), ...)`` -> an in-memory store of those triplets."""

    def build(*triplets: tuple[str, str, str]) -> MemoryGraph:
        return MemoryGraph.from_triplets(triplets)

    return build
