"""byokg: answer questions over the knowledge graph you already have (BYOKG-RAG).

The public facade: ``from byokg import Engine, RunConfig, open_graph, Answer`` to ask, and
``from byokg import hookimpl, Tool, Linker, ToolParams, ToolRequest, ToolResult`` to write a
plugin; everything else is an implementation detail that may move.
``import byokg`` is light: heavy parts (numpy-backed stores, models, the engine) load on first
use through the attributes below.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_LAZY = {
    # running questions
    "open_graph": ("byokg.graph.open", "open_graph"),
    "graph_from_triplets": ("byokg.graph.open", "graph_from_triplets"),
    "RunConfig": ("byokg.config", "RunConfig"),
    "Engine": ("byokg.pipeline.engine", "Engine"),
    "ask": ("byokg.pipeline.engine", "ask"),
    "ByokgError": ("byokg.errors", "ByokgError"),
    "ConfigError": ("byokg.errors", "ConfigError"),
    "InputError": ("byokg.errors", "InputError"),
    # contracts
    "Answer": ("byokg.contracts", "Answer"),
    "Retrieval": ("byokg.contracts", "Retrieval"),
    "StageEvent": ("byokg.contracts", "StageEvent"),
    "ContextItem": ("byokg.contracts", "ContextItem"),
    "Triplet": ("byokg.contracts", "Triplet"),
    "Node": ("byokg.contracts", "Node"),
    "Path": ("byokg.contracts", "Path"),
    "GraphStore": ("byokg.graph.store", "GraphStore"),
    "Capability": ("byokg.graph.store", "Capability"),
    # writing plugins
    "hookimpl": ("byokg.hookspecs", "hookimpl"),
    "Tool": ("byokg.pipeline.tools", "Tool"),
    "Linker": ("byokg.pipeline.tools", "Linker"),
    "ToolParams": ("byokg.pipeline.tools", "ToolParams"),
    "ToolRequest": ("byokg.pipeline.tools", "ToolRequest"),
    "ToolResult": ("byokg.pipeline.tools", "ToolResult"),
    "Services": ("byokg.models.services", "Services"),
    "LLMResponse": ("byokg.models.base", "LLMResponse"),
    "Dataset": ("byokg.eval.datasets", "Dataset"),
    "Example": ("byokg.eval.datasets", "Example"),
    # the registries of registered tools, backends, models and datasets (a module)
    "registry": ("byokg.registry", ""),
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
