"""Opening graphs by URI: ``memory:PATH``, ``kuzu:PATH``, ``neo4j://…``, ``bolt://…``,
``neptune-graph://GRAPH_ID``, ``neptune-db://HOST[:PORT]``. The scheme picks the backend
registered through the ``register_backends`` hook."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path as FsPath
from typing import TYPE_CHECKING, Any

from .errors import ConfigError
from .store import GraphStore

if TYPE_CHECKING:
    from .contracts import Triplet


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


def builtin_graph(name: str) -> FsPath | None:
    """The file of a graph that ships with byokg, by name (``demo``), or None.

    File-backed backends resolve these names before paths, so ``memory:demo`` opens the demo
    graph whatever the current folder holds (the store's ``uri`` stays ``memory:demo``)."""
    if name == "demo":
        from .demo import DEMO_GRAPH

        return DEMO_GRAPH
    return None


def graph_from_triplets(
    rows: Iterable[Triplet | tuple[str, str, str]], *, uri: str = "memory:",
    backend: str = "memory",
) -> GraphStore:
    """A graph built in memory from ``(head, relation, tail)`` tuples or Triplets, by the
    ``from_triplets`` the ``backend`` registered (``register(…, from_triplets=…)``); ``uri`` is
    what the store reports as its ``uri``. A row that is not three non-empty strings is an
    :class:`~byokg.errors.InputError` naming it."""
    from . import registry

    entry = registry.backends().get(backend)
    build = entry.meta.get("from_triplets")
    if build is None:
        raise ConfigError(
            f"backend {backend!r} (plugin {entry.plugin}) cannot build a graph from triplets; "
            "use backend='memory'"
        )
    return build(rows, uri=uri)
