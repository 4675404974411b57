"""Helpers for the memory backend tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # benchmarks/ is not installed; tests import its generator
    sys.path.insert(0, str(REPO))


@pytest.fixture
def write(tmp_path: Path, write_file):
    """write(name, text_or_bytes) -> Path of a file under tmp_path."""

    def _write(name: str, content: str | bytes) -> Path:
        return write_file(tmp_path / name, content)

    return _write


@pytest.fixture(params=["auto", "python"])
def engine(request) -> str:
    """Both CSV readers: auto (pyarrow where it applies) and python (the csv module)."""
    if request.param == "auto":
        pytest.importorskip("pyarrow")
    return request.param


@pytest.fixture
def edge_set():
    """edge_set(graph) -> {(head, relation, tail)} of a MemoryGraph, from its arrays."""

    def _edges(g) -> set[tuple[str, str, str]]:
        return {
            (g._ids[h], g._rels[r], g._ids[t])
            for h, r, t in zip(g.heads.tolist(), g.rels.tolist(), g.tails.tolist(), strict=True)
        }

    return _edges
