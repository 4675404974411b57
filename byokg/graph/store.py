"""The GraphStore protocol every backend implements.

All lookup methods are batched: a list of node ids goes in, results per id come out, so a remote
backend answers a whole BFS frontier in one round trip. Optional features are declared as
capabilities; tools check them instead of probing.
"""

from __future__ import annotations

import datetime as _dt
import threading
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import ClassVar
from typing import Protocol
from typing import runtime_checkable

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg.contracts import Direction
from byokg.contracts import GraphSchema
from byokg.contracts import GraphStats
from byokg.contracts import Neighborhood
from byokg.contracts import Node
from byokg.contracts import Path
from byokg.graph.csr import CsrView


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
    CSR = "csr"  # csr() returns its adjacency as arrays (byokg.graph.csr.CsrView): array fast paths
    PROFILE = "profile"  # profile_sample() / profile_fingerprint() feed byokg.graph.profile, and the
    # store names its nodes by the profile's display rules (ProfiledStore)


@runtime_checkable
class GraphStore(Protocol):
    """A graph byokg can read. Node ids are strings; triplets come in stored direction.

    ``dialect`` names the store's Cypher dialect for the guard, rewrites and prompts (``neo4j``,
    ``kuzu``, ``ladybug``, ``falkordb``, ``neptune-analytics``, ``neptune-db``; None: the store
    runs no Cypher); ``display_override`` is label -> the properties its nodes are named by
    (None: the profile's choice). :class:`BaseGraphStore` gives both their defaults."""

    uri: str
    capabilities: frozenset[str]
    dialect: str | None
    display_override: dict[str, tuple[str, ...]] | None

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


# --------------------------------------------------------------------------- profiling


class SampledNode(BaseModel):
    """One node of a profiling sample: its id, labels and properties (Python values: dates as
    ``datetime.date``, so their type survives)."""

    model_config = ConfigDict(frozen=True)

    id: str
    labels: tuple[str, ...] = ()
    properties: dict[str, Any] = Field(default_factory=dict)


class LabelSample(BaseModel):
    """What a store's catalogue and a bounded sample say about one node label."""

    model_config = ConfigDict(frozen=True)

    name: str
    count: int | None = None
    key: str | None = None  # the catalogue's key property (None: the node id is the key)
    types: dict[str, str] = Field(default_factory=dict)  # property -> the store's type name
    nodes: tuple[SampledNode, ...] = ()  # at most the sample size
    hint: str | None = None  # display property named by the store's own metadata (a loader)


class RelationSample(BaseModel):
    """What a store's catalogue and a bounded sample say about one relationship type."""

    model_config = ConfigDict(frozen=True)

    name: str
    count: int | None = None
    pairs: tuple[tuple[str, str], ...] = ()  # (domain label, range label), most common first
    types: dict[str, str] = Field(default_factory=dict)  # relationship property -> type name
    edges: tuple[dict[str, Any], ...] = ()  # sampled relationship properties
    examples: tuple[tuple[SampledNode, SampledNode], ...] = ()  # (head, tail) of a few edges
    many_tails: bool | None = None  # some head has several edges of this type (None: unknown)
    many_heads: bool | None = None  # some tail has several edges of this type
    # distinct heads / tails per label, counted over every edge of the type (None: not
    # counted); a store that counts them sets many_tails / many_heads from the counts too
    heads: dict[str, int] | None = None
    tails: dict[str, int] | None = None


def edge_multiplicity(count: int, heads: Sequence[str], tails: Sequence[str],
                      head_counts: Mapping[str, int] | None,
                      tail_counts: Mapping[str, int] | None) -> dict[str, bool | None]:
    """``many_tails`` / ``many_heads`` of a relationship type with ``count`` edges: exact when
    the distinct heads and tails per label were counted over every edge, else from repeats
    among the sampled edges' ``heads`` and ``tails`` (None when no edge was sampled)."""
    if head_counts is not None and tail_counts is not None:
        return {"many_tails": count > sum(head_counts.values()),
                "many_heads": count > sum(tail_counts.values())}
    if not heads:
        return {"many_tails": None, "many_heads": None}
    return {"many_tails": len(set(heads)) < len(heads),
            "many_heads": len(set(tails)) < len(tails)}


class GraphSample(BaseModel):
    """The raw material of a :class:`byokg.graph.profile.GraphProfile`, from one store: catalogue
    facts plus bounded samples, never a full scan. ``queries`` counts the store round trips
    it took; ``ids_are_names`` says node ids are readable names (triple graphs)."""

    model_config = ConfigDict(frozen=True)

    labels: tuple[LabelSample, ...] = ()
    relations: tuple[RelationSample, ...] = ()
    dialect: str | None = None
    ids_are_names: bool = False
    queries: int = 0
    notes: tuple[str, ...] = ()  # what was capped or left out


@dataclass(frozen=True)
class DisplayRule:
    """How one label's nodes are named: the properties joined into the display name (empty:
    the node id) and the properties whose values are aliases."""

    parts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def properties(self) -> tuple[str, ...]:
        """Every property the rule reads."""
        return tuple(dict.fromkeys(self.parts + self.aliases))

    def name_of(self, props: Mapping[str, Any]) -> str | None:
        """The display name from a node's properties (None when a part is missing)."""
        if not self.parts:
            return None
        vals = [display_value(props.get(p)) for p in self.parts]
        if any(v is None for v in vals):
            return None
        return " ".join(vals)  # type: ignore[arg-type]

    def aliases_of(self, props: Mapping[str, Any]) -> list[str]:
        out: list[str] = []
        for p in self.aliases:
            v = props.get(p)
            for x in v if isinstance(v, list | tuple) else [v]:
                s = display_value(x)
                if s is not None and s not in out:
                    out.append(s)
        return out


def display_value(value: Any) -> str | None:
    """A property value as text in a display name: strings stripped, dates in ISO form, whole
    floats without ``.0``; None, empty strings, booleans, lists and maps give None."""
    if value is None or isinstance(value, bool | list | tuple | dict):
        return None
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, _dt.date | _dt.datetime | _dt.time):
        return value.isoformat()
    text = str(value).strip()
    return text or None


class ProfiledStore(GraphStore, Protocol):
    """Stores with the ``profile`` capability: they hand byokg.graph.profile its raw material and
    name their nodes by its display rules."""

    def profile_sample(self, *, nodes_per_label: int = 200, edges_per_type: int = 200,
                       examples: int = 3) -> GraphSample:
        """Catalogue facts plus bounded samples (a fixed number of round trips per label and
        relationship type, capped; never a full scan)."""
        ...

    def profile_fingerprint(self) -> str:
        """A cheap value that changes when the graph's content changes (file stamps, catalogue,
        counts)."""
        ...


class SearchableStore(GraphStore, Protocol):
    """Stores with ``fulltext`` and/or ``vector`` capabilities (used by the entity linker)."""

    def fulltext_search(self, texts: Sequence[str], *, k: int = 3) -> dict[str, list[tuple[str, float]]]:
        """Per text, ``(node_id, score)`` best first."""
        ...

    def vector_search(
        self, vectors: Sequence[Sequence[float]], *, k: int = 3
    ) -> list[list[tuple[str, float]]]: ...


class DisplayProfile(Protocol):
    """What a store needs of a graph profile (:class:`byokg.graph.profile.GraphProfile`): how
    each label's nodes are named."""

    def display_rules(self) -> dict[str, DisplayRule]: ...


class BaseGraphStore:
    """Convenience base with shared defaults; backends need not inherit from it.

    Display names: a store names its nodes by :meth:`display_rules`, the choice of the graph's
    profile. The profile is handed to the store (:meth:`use_profile`) by whoever builds it — the
    engine, :func:`byokg.graph.open.open_graph`, ``byokg profile`` — or built on first use by
    the store's ``profiler`` (a function ``store -> profile`` that ``open_graph`` and the
    built-in backends set; :func:`byokg.graph.profile.profile_graph`). ``display_override``
    (``?display=Label.prop`` in the URI, ``--display``, ``RunConfig.display``) is changed with
    :meth:`set_display`.
    """

    uri: str = ""
    capabilities: ClassVar[frozenset[str]] = frozenset()
    dialect: str | None = None
    display_override: dict[str, tuple[str, ...]] | None = None  # label -> properties
    lexicon: str | None = None  # the graph owner's lexicon file (byokg.graph.vocabulary)
    # builds the profile on first use (None: nodes are named by their ids until one is handed)
    profiler: Callable[[Any], DisplayProfile] | None = None
    _profile: DisplayProfile | None = None
    _rules: dict[str, DisplayRule] | None = None
    _profiling: bool = False

    @property
    def _profile_lock(self) -> threading.RLock:
        lock = self.__dict__.get("_plock")
        if lock is None:
            lock = self.__dict__.setdefault("_plock", threading.RLock())
        return lock

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def profile(self) -> DisplayProfile | None:
        """The profile the store names its nodes by (None: none handed or built yet)."""
        return self._profile

    def display_rules(self) -> dict[str, DisplayRule]:
        """Label -> how its nodes are named (from the graph's profile). Built once through
        ``profiler`` when no profile was handed; while it is built (the store sampling itself)
        nodes are named by their ids, and other threads wait for it."""
        rules = self._rules
        if rules is not None:
            return rules
        with self._profile_lock:
            if self._rules is not None:
                return self._rules
            if self._profiling or self.profiler is None:
                return {}
            self._profiling = True
            try:
                profile = self.profiler(self)
            finally:
                self._profiling = False
            if self._rules is None:  # a profiler that did not hand it over itself
                self.use_profile(profile)
            return self._rules or {}

    def use_profile(self, profile: DisplayProfile) -> None:
        """Name nodes by ``profile``'s display rules from now on."""
        with self._profile_lock:
            self._profile = profile
            self._rules = profile.display_rules()
        self._display_changed()

    def set_display(self, overrides: dict[str, tuple[str, ...]]) -> None:
        """Replace the display overrides; the profile is built again on next use."""
        with self._profile_lock:
            self.display_override = dict(overrides)
            self._profile = None
            self._rules = None
        self._display_changed()

    def _display_changed(self) -> None:  # noqa: B027 - optional hook
        """Called when the display rules change (drop caches of names)."""

    def rule_for(self, labels: Sequence[str]) -> DisplayRule:
        """The display rule of a node with these labels (the first label that has one)."""
        rules = self.display_rules()
        for lab in labels:
            rule = rules.get(lab)
            if rule is not None:
                return rule
        return DisplayRule()

    def name_node(self, node_id: str, labels: Sequence[str],
                  props: Mapping[str, Any]) -> tuple[str, tuple[str, ...]]:
        """(display name, aliases) of a node by the display rules (the id when unnamed)."""
        rule = self.rule_for(labels)
        return rule.name_of(props) or node_id, tuple(rule.aliases_of(props))

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
    return capability in store.capabilities


def csr_view(store: Any) -> CsrView | None:
    """``store.csr()`` when the store declares the ``csr`` capability, else None."""
    fn = getattr(store, "csr", None)
    if has_capability(store, Capability.CSR) and callable(fn):
        view = fn()
        if isinstance(view, CsrView):
            return view
    return None
