"""The GraphStore protocol every backend implements.

All lookup methods are batched: a list of node ids goes in, results per id come out, so a remote
backend answers a whole BFS frontier in one round trip. Optional features are declared as
capabilities; tools check them instead of probing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from .contracts import (
    Direction,
    GraphSchema,
    GraphStats,
    Neighborhood,
    Node,
    Path,
    QueryResult,
)


class Capability:
    """Names of optional store features (plain strings so plugins can add their own)."""

    CYPHER = "cypher"  # query(cypher, params) runs openCypher
    EXPLAIN = "explain"  # explain(cypher) plans a query without running it
    VECTOR = "vector"  # vector_search(...) over a node-embedding index in the store
    FULLTEXT = "fulltext"  # fulltext_search(...) over node names in the store
    SHORTEST_PATH = "shortest_path"  # shortest_paths(...) is native (else byokg's BFS is used)
    FOLLOW_PATH = "follow_path"  # follow_path(...) pushes a whole relation path down
    WRITE = "write"  # the store can be loaded into by `byokg load`


@runtime_checkable
class GraphStore(Protocol):
    """A graph byokg can read. Node ids are strings; triplets come in stored direction."""

    uri: str
    capabilities: frozenset[str]

    def schema(self, *, samples: int = 3) -> GraphSchema:
        """Labels with properties and sample values; relation types with their patterns."""
        ...

    def stats(self) -> GraphStats: ...

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node | None]:
        """Nodes by id, one entry per requested id (None when absent)."""
        ...

    def iter_node_names(self, batch_size: int = 10_000) -> Iterator[list[tuple[str, str]]]:
        """Batches of ``(node_id, name_or_alias)`` pairs over every node, for index building.

        A node with aliases yields one pair per alias besides its name; a node without a
        name yields its id as name.
        """
        ...

    def neighbors(
        self,
        ids: Sequence[str],
        *,
        direction: Direction = Direction.BOTH,
        relations: Sequence[str] | None = None,
        limit_per_node: int | None = None,
    ) -> dict[str, Neighborhood]:
        """One-hop triplets of every id in one call; ``relations`` filters by type."""
        ...

    def degrees(self, ids: Sequence[str], *, direction: Direction = Direction.BOTH) -> dict[str, int]:
        """Edge counts per id (for hub detection), one call for the batch."""
        ...

    def relation_types(self) -> list[str]: ...

    def close(self) -> None: ...


class QueryableStore(GraphStore, Protocol):
    """Stores with the ``cypher`` capability (and ``explain`` where declared)."""

    dialect: str  # "neo4j", "kuzu", "neptune-analytics", "neptune-db", …

    def query(
        self,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        row_limit: int | None = None,
    ) -> QueryResult: ...

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]: ...


class NativePathStore(GraphStore, Protocol):
    """Stores with the ``shortest_path`` capability."""

    def shortest_paths(
        self,
        pairs: Sequence[tuple[str, str]],
        *,
        max_hops: int = 3,
        k: int = 1,
    ) -> dict[tuple[str, str], list[Path]]: ...


class SearchableStore(GraphStore, Protocol):
    """Stores with ``fulltext`` and/or ``vector`` capabilities (used by the entity linker)."""

    def fulltext_search(self, texts: Sequence[str], *, k: int = 3) -> dict[str, list[tuple[str, float]]]:
        """Per text, ``(node_id, score)`` best first."""
        ...

    def vector_search(
        self, vectors: Sequence[Sequence[float]], *, k: int = 3
    ) -> list[list[tuple[str, float]]]: ...


class BaseGraphStore:
    """Convenience base with shared defaults; backends need not inherit from it."""

    uri: str = ""
    capabilities: ClassVar[frozenset[str]] = frozenset()
    name_property: str = "name"

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    def relation_types(self) -> list[str]:
        return self.schema(samples=0).relation_names

    def display_names(self, ids: Sequence[str]) -> dict[str, str]:
        """Display name per id (the name where present, else the id)."""
        found = self.get_nodes(list(dict.fromkeys(ids)))
        return {i: (n.display if n is not None else i) for i, n in found.items()}

    def close(self) -> None:  # noqa: B027 - optional hook
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def has_capability(store: GraphStore, capability: str) -> bool:
    return capability in getattr(store, "capabilities", frozenset())
