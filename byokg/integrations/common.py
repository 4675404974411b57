"""What both framework adapters share: an engine from a graph URI and the provenance of one
context item as flat, JSON-friendly metadata."""

from __future__ import annotations

import hashlib
from typing import Any

from byokg.contracts import ContextItem
from byokg.pipeline.answer import Retrieval


def engine_for(engine: Any = None, *, graph: Any = None, llm: str = "none",
               **config: Any) -> Any:
    """``engine`` as given, or an :class:`~byokg.pipeline.engine.Engine` over ``graph`` (a URI or a
    store) with ``RunConfig(llm=llm, **config)``."""
    if engine is not None:
        return engine
    if graph is None:
        from ..errors import ConfigError

        raise ConfigError("give an engine or a graph (a URI such as memory:demo, or a store)")
    from byokg.pipeline.engine import Engine

    from ..config import RunConfig

    store = graph
    if isinstance(graph, str):
        from byokg.graph.open import open_graph

        store = open_graph(graph)
    return Engine(store, RunConfig(llm=llm, **config))


def item_metadata(item: ContextItem, rank: int, retrieval: Retrieval) -> dict[str, Any]:
    """The provenance of ``item``: tool, round, rank, score, kind, node ids and their display
    names, the relation path (with directions) or the query, and the triplets."""
    names = retrieval.names
    meta: dict[str, Any] = {
        "source": "byokg", "tool": item.tool, "round": item.iteration, "rank": rank,
        "score": item.score, "kind": item.kind, "question": retrieval.question,
        "node_ids": list(item.nodes),
        "node_names": [names.get(n, n) for n in item.nodes],
        "triplets": [[t.head, t.relation, t.tail] for t in item.triplets],
    }
    if item.path is not None:
        meta["path_nodes"] = list(item.path.nodes)
        meta["relation_path"] = list(item.path.relations)
        meta["inverted"] = [item.path.is_inverted(i) for i in range(item.path.hops)]
    if item.query is not None:
        meta["query"] = item.query
    return meta


def item_id(item: ContextItem) -> str:
    """A stable id for an item (same text, tool and round: same id)."""
    key = f"{item.tool}\x00{item.iteration}\x00{item.text}".encode()
    return "byokg-" + hashlib.sha256(key).hexdigest()[:24]
