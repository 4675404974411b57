"""Opening graphs by URI: ``memory:PATH``, ``kuzu:PATH``, ``neo4j://…``, ``bolt://…``,
``neptune-graph://GRAPH_ID``, ``neptune-db://HOST[:PORT]``. The scheme picks the backend
registered through the ``register_backends`` hook."""

from __future__ import annotations

from typing import Any

from .errors import ConfigError
from .store import GraphStore


def uri_scheme(uri: str) -> str:
    if ":" not in uri:
        raise ConfigError(
            f"graph URI {uri!r} has no scheme; use memory:PATH, kuzu:PATH, neo4j://HOST, "
            "bolt://HOST, neptune-graph://GRAPH_ID or neptune-db://HOST[:PORT] "
            "(memory:demo is the built-in demo graph)"
        )
    return uri.split(":", 1)[0].lower()


def open_graph(uri: str, **options: Any) -> GraphStore:
    """Open the graph at ``uri`` with the backend registered for its scheme."""
    from . import registry

    scheme = uri_scheme(uri)
    reg = registry.backends()
    if scheme not in reg:
        known = ", ".join(sorted(reg.names())) or "none"
        raise ConfigError(f"no backend for URI scheme {scheme!r} in {uri!r} (known: {known})")
    return reg.create(scheme, uri, **options)
