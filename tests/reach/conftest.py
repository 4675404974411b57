"""Fixtures shared by the evidence-picture tests."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def typed_graph(tmp_path_factory) -> str:
    """Opaque ids, names in a separate field, labels, a relationship property."""
    rows = [
        {"id": "Q42", "name": "Douglas Adams", "labels": ["Writer"]},
        {"id": "Q350", "name": "Cambridge", "labels": ["Town"]},
        {"id": "Q145", "name": "United Kingdom", "labels": ["Country"]},
        {"head": "Q42", "relation": "place_of_birth", "tail": "Q350",
         "properties": {"date": "1952-03-11"}},
        {"head": "Q350", "relation": "country", "tail": "Q145"},
    ]
    path = tmp_path_factory.mktemp("typed") / "typed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return f"memory:{path}"
