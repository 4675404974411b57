"""byokg's plugin hooks. Each receives a ``register`` callback; see docs/plugins.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pluggy import HookimplMarker
from pluggy import HookspecMarker

hookspec = HookspecMarker("byokg")
hookimpl = HookimplMarker("byokg")

Register = Callable[..., None]


@hookspec
def register_tools(register: Register) -> None:
    """Register retrieval tools and stages: ``register(ToolClass)`` (the class says its name) or
    ``register(name, factory)``; ``factory()`` returns a Tool, Linker, Proposer or Answerer."""


@hookspec
def register_backends(register: Register) -> None:
    """Register graph stores by URI scheme: ``register(scheme, factory)``; ``factory(uri, **options)``
    returns a GraphStore."""


@hookspec
def register_llms(register: Register) -> None:
    """Register LLM providers by spec prefix: ``register(prefix, factory)``; ``factory(rest, **options)``
    returns an LLM for the spec ``prefix:rest``."""


@hookspec
def register_embedders(register: Register) -> None:
    """Register text embedders: ``register(name, factory)``; ``factory(**options)`` returns an Embedder."""


@hookspec
def register_rerankers(register: Register) -> None:
    """Register rerankers: ``register(name, factory)``; ``factory(**options)`` returns a Reranker."""


@hookspec
def register_datasets(register: Register) -> None:
    """Register evaluation datasets: ``register(name, factory)``; ``factory(path, **options)`` returns
    a Dataset."""


HOOK_KINDS: dict[str, str] = {
    "register_tools": "tools",
    "register_backends": "backends",
    "register_llms": "llms",
    "register_embedders": "embedders",
    "register_rerankers": "rerankers",
    "register_datasets": "datasets",
}

__all__: list[Any] = ["hookimpl", "hookspec", "HOOK_KINDS"]
