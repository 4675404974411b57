"""The GraphStore protocol every backend implements.

All lookup methods are batched: a list of node ids goes in, results per id come out, so a remote
backend answers a whole BFS frontier in one round trip. Optional features are declared as
capabilities; tools check them instead of probing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from .contracts import (
    Direction,
    GraphSchema,
    GraphStats,
    Neighborhood,
    Node,
    Path,
)

if TYPE_CHECKING:
    from .csr import CsrView


class Capability:
    """Names of optional store features (plain strings so plugins can add their own)."""

    CYPHER = "cypher"  # query(cypher, params, *, timeout_s, row_limit) runs openCypher in the
    # store's `dialect` ("neo4j", "kuzu", "neptune-analytics", "neptune-db", …)
    EXPLAIN = "explain"  # explain(cypher) plans a query without running it
    VECTOR = "vector"  # vector_search(...) over a node-embedding index in the store
    FULLTEXT = "fulltext"  # fulltext_search(...) over node names in the store
    SHORTEST_PATH = "shortest_path"  # shortest_paths(...) is native (else byokg's BFS is used)
    FOLLOW_PATH = "follow_path"  # follow_path(...) pushes a whole relation path down
    WRITE = "write"  # the store can be loaded into by `byokg load`
    CSR = "csr"  # csr() returns its adjacency as arrays (byokg.csr.CsrView): array fast paths


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

    def neighbors(self, ids: Sequence[str], *, direction: Direction = Direction.BOTH,
                  relations: Sequence[str] | None = None,
                  limit_per_node: int | None = None) -> dict[str, Neighborhood]:
        """One-hop triplets of every id in one call, one entry per id (an unknown id gets an
        empty Neighborhood); ``relations`` filters by type; ``limit_per_node`` caps each
        node's triplets (``total`` counts before the cap, ``truncated`` says it cut)."""
        ...

    def degrees(self, ids: Sequence[str], *, direction: Direction = Direction.BOTH) -> dict[str, int]:
        """Edge counts per id (for hub detection), one call for the batch."""
        ...

    def relation_types(self) -> list[str]: ...

    def close(self) -> None: ...


class NativePathStore(GraphStore, Protocol):
    """Stores with the ``shortest_path`` capability."""

    def shortest_paths(
        self,
        pairs: Sequence[tuple[str, str]],
        *,
        max_hops: int = 3,
        k: int = 1,
    ) -> dict[tuple[str, str], list[Path]]: ...


class CsrStore(GraphStore, Protocol):
    """Stores with the ``csr`` capability: their adjacency as arrays, without copies."""

    def csr(self) -> CsrView: ...


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

    def neighbors(self, ids: Sequence[str], *, direction: Direction = Direction.BOTH,
                  relations: Sequence[str] | None = None,
                  limit_per_node: int | None = None) -> dict[str, Neighborhood]:
        """:meth:`GraphStore.neighbors` with the arguments normalised once for every backend:
        ids as distinct strings in order, ``direction`` a :class:`Direction`, ``relations`` a
        list (or None: all), the cap an int >= 0 (or None); the backend's ``_neighbors`` runs
        the batch."""
        lim = None if limit_per_node is None else max(int(limit_per_node), 0)
        rels = None if relations is None else list(relations)
        uniq = list(dict.fromkeys(str(i) for i in ids))
        return self._neighbors(uniq, Direction(direction), rels, lim)

    def _neighbors(
        self, ids: list[str], direction: Direction, relations: list[str] | None, limit: int | None
    ) -> dict[str, Neighborhood]:
        raise NotImplementedError(f"{type(self).__name__} implements neither neighbors() "
                                  "nor _neighbors()")

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
