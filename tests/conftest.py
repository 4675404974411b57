"""Shared fixtures: paths to ../shared/data, the demo graph, the tiny Freebase graph."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
FREEBASE_TINY = SHARED_DATA / "freebase" / "freebase_tiny_kg.csv"
CWQ_TINY = SHARED_DATA / "freebase" / "cwq_tinykg_subset.jsonl"
NORTHWIND = SHARED_DATA / "northwind"


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(f"../shared/data not found at {SHARED_DATA} (set BYOKG_SHARED_DATA)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def demo_store():
    from byokg.graph import open_graph

    return open_graph("memory:demo")


@pytest.fixture(scope="session")
def freebase_store(shared_data):
    from byokg.graph import open_graph

    return open_graph(f"memory:{FREEBASE_TINY}")
