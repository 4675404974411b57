"""byokg: answer questions over the knowledge graph you already have (BYOKG-RAG).

``import byokg`` is light: heavy parts (numpy-backed stores, models, the engine) load on first
use through the attributes below.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "open_graph": ("byokg.graph", "open_graph"),
    "RunConfig": ("byokg.config", "RunConfig"),
    "ByokgError": ("byokg.errors", "ByokgError"),
    "Engine": ("byokg.engine", "Engine"),
    "ask": ("byokg.engine", "ask"),
    "MemoryGraph": ("byokg.backends.memory", "MemoryGraph"),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    try:
        mod_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'byokg' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(mod_name), attr)
    globals()[name] = value
    return value
