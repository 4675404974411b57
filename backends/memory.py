"""In-memory graph store (``memory:PATH``).

The paper's "dict from node to its one-hop triplets", but compact: node and relation names are
interned to ints and edges live in numpy CSR arrays for both directions, so every node (heads
and tails) is indexed and 1.5M triplets take about 190 MB (see docs/backends.md). The store
declares the ``csr`` capability: the core's path search and Eq. 10 scoring read its arrays.

Files are read by the core's triple readers (:mod:`byokg.io.readers`: CSV/TSV, JSONL triple rows
and node records, folders of them); networkx (Multi)DiGraphs through
:meth:`MemoryGraph.from_networkx`. ``byokg load … --into memory:FILE.jsonl`` writes a
validated, deduplicated JSONL file (:func:`load_memory`).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path as FsPath
from typing import Any
from typing import ClassVar

import numpy as np

from byokg.contracts import Direction
from byokg.contracts import GraphSchema
from byokg.contracts import GraphStats
from byokg.contracts import Neighborhood
from byokg.contracts import Node
from byokg.contracts import NodeLabel
from byokg.contracts import PropertyInfo
from byokg.contracts import RelationPattern
from byokg.contracts import RelationType
from byokg.contracts import Triplet
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.graph.csr import CsrView
from byokg.graph.csr import gather_csr
from byokg.graph.open import builtin_graph
from byokg.graph.profile import profile_graph
from byokg.graph.store import BaseGraphStore
from byokg.graph.store import Capability
from byokg.graph.store import DisplayRule
from byokg.graph.store import GraphSample
from byokg.graph.store import LabelSample
from byokg.graph.store import RelationSample
from byokg.graph.store import SampledNode
from byokg.hookspecs import hookimpl
from byokg.io.readers import DEFAULT_LABEL
from byokg.io.readers import Limits
from byokg.io.readers import LoadReport
from byokg.io.readers import TripleBuilder
from byokg.io.readers import TripleTable
from byokg.io.readers import read_sources
from byokg.io.readers import trim_heap

_ASCII_SEP = re.compile(r"[\W_]+")


def _normalize(text: str) -> str:
    """:func:`byokg.language.text.normalize`, with a shortcut for ASCII text (most names) that gives the
    same result several times faster: lower-case, runs of non-alphanumerics become one space."""
    if text.isascii():
        return _ASCII_SEP.sub(" ", text.lower()).strip()
    from byokg.language.text import normalize

    return normalize(text)


class GraphBuilder(TripleBuilder):
    """The core's :class:`~byokg.io.readers.TripleBuilder`, frozen into a :class:`MemoryGraph`."""

    def build(self, uri: str = "memory:", report: LoadReport | None = None) -> MemoryGraph:
        return MemoryGraph.from_table(self.freeze(report), uri)


def _fast_constructor(model: type, fields: tuple[str, ...]) -> Any:
    """A positional constructor doing what ``model.model_construct`` does for a frozen model
    with all fields given (no validation), about twice as fast. Falls back to
    ``model_construct`` if this pydantic version lays models out differently."""
    # Generated so the field dict is a literal (no zip/dict call per object).
    args = ", ".join(f"v{i}" for i in range(len(fields)))
    body = ", ".join(f"{f!r}: v{i}" for i, f in enumerate(fields))
    src = (
        f"def make({args}):\n"
        "    obj = new(model)\n"
        f"    setattr_(obj, '__dict__', {{{body}}})\n"
        "    setattr_(obj, '__pydantic_fields_set__', fields_set)\n"
        "    setattr_(obj, '__pydantic_extra__', None)\n"
        "    setattr_(obj, '__pydantic_private__', None)\n"
        "    return obj\n"
    )
    scope: dict[str, Any] = {
        "new": model.__new__,
        "model": model,
        "setattr_": object.__setattr__,
        "fields_set": frozenset(fields),
    }
    exec(src, scope)  # noqa: S102 - fixed template over the model's own field names
    make = scope["make"]

    def slow(*values: Any) -> Any:
        return model.model_construct(**dict(zip(fields, values, strict=True)))

    slots = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")
    try:
        from pydantic import BaseModel

        sample = tuple(f"v{i}" for i in range(len(fields)))
        a, b = make(*sample), slow(*sample)
        if tuple(BaseModel.__slots__) == slots and all(
            getattr(a, k) == getattr(b, k) for k in slots
        ):
            return make
    except Exception:  # pragma: no cover - depends on the pydantic version
        pass
    return slow  # pragma: no cover


_make_triplet = _fast_constructor(Triplet, ("head", "relation", "tail", "properties"))
_make_neighborhood = _fast_constructor(Neighborhood, ("node", "triplets", "total", "truncated"))
_make_node = _fast_constructor(Node, ("id", "name", "labels", "aliases", "properties"))
_DEFAULT_LABELS = (DEFAULT_LABEL,)


def _csr(src: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(ptr, order): edges of node i are order[ptr[i]:ptr[i+1]], in insertion order."""
    m = len(src)
    if m and bool((src[1:] >= src[:-1]).all()):
        # already grouped (a dump sorted by subject numbers its heads in order): no sort
        order = np.arange(m, dtype=np.int32)
    else:
        # Sorting the unique keys src * m + edge is a stable sort by src, and np.sort is
        # several times faster than argsort(kind="stable").
        keys = src.astype(np.int64) * max(m, 1)
        keys += np.arange(m, dtype=np.int64)
        keys.sort()
        order = (keys % max(m, 1)).astype(np.int32) if m else np.zeros(0, dtype=np.int32)
        del keys
    counts = np.bincount(src, minlength=n)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    return ptr, order



def _gather_first(order: np.ndarray, starts: np.ndarray, take: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(edges, owner): the first ``take[k]`` entries of ``order`` from ``starts[k]``, per k."""
    total = int(take.sum())
    owner = np.repeat(np.arange(len(take)), take)
    first = np.cumsum(take) - take
    idx = np.repeat(starts - first, take) + np.arange(total)
    return order[idx], owner


def _by_owner(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """One (edges, owner) pair from one or two: per owner, the first part's edges then the
    second's (a stable sort on the owner slot)."""
    if len(parts) == 1:
        return parts[0]
    edges = np.concatenate([parts[0][0], parts[1][0]])
    owner = np.concatenate([parts[0][1], parts[1][1]])
    order = np.argsort(owner, kind="stable")
    return edges[order], owner[order]


class MemoryGraph(BaseGraphStore):
    """Read-only in-memory graph with CSR adjacency in both directions."""

    profiler = staticmethod(profile_graph)  # the graph's profile, built on first use

    capabilities: ClassVar[frozenset[str]] = frozenset({Capability.CSR, Capability.PROFILE})

    def __init__(self, table: TripleTable, uri: str = "memory:") -> None:
        """The graph of a table read by :mod:`byokg.io.readers` (its columns used as they
        are, no copies; the CSR indexes of both directions built here)."""
        self.uri = uri
        self.table = table  # what it was built from (a subclass or a copy starts from it)
        self._ids, self._index = table.node_ids, table.node_index
        self._rels, self._rel_index = table.rel_names, table.rel_index
        heads, rels, tails = table.heads, table.rels, table.tails
        self.heads, self.rels, self.tails = heads, rels, tails
        self._edge_props = table.edge_props
        self._names = table.names
        self._aliases = table.aliases
        self._labels = table.labels
        self._node_props = table.node_props
        self._duplicates = table.duplicates
        self._bad_rows = table.bad_rows
        self._by_name: dict[str, list[int]] | None = None
        self._shown: dict[int, str] | None = None  # display names that differ from _names
        self._extra_aliases: dict[int, tuple[str, ...]] = {}
        n = len(self._ids)
        self.out_ptr, self.out_edges = _csr(heads, n)
        self.in_ptr, self.in_edges = _csr(tails, n)
        self._view = CsrView(
            ids=self._ids, index=self._index, relations=self._rels, heads=heads, rels=rels,
            tails=tails, out_ptr=self.out_ptr, out_edges=self.out_edges, in_ptr=self.in_ptr,
            in_edges=self.in_edges,
        )

    def csr(self) -> CsrView:
        """The adjacency arrays themselves (the ``csr`` capability; no copies)."""
        return self._view

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_table(cls, table: TripleTable, uri: str = "memory:") -> MemoryGraph:
        """The graph of a table read by :mod:`byokg.io.readers` (CSR indexes built here)."""
        return cls(table, uri)

    @classmethod
    def from_triplets(
        cls, triplets: Iterable[Triplet | tuple[str, str, str]], uri: str = "memory:",
        names: Mapping[str, str] | None = None,
    ) -> MemoryGraph:
        """The graph of ``triplets``; ``names``: display names of node ids (an id no triplet
        mentions is left out)."""
        b = GraphBuilder()
        for n, t in enumerate(triplets, start=1):
            if isinstance(t, Triplet):
                b.add(t.head, t.relation, t.tail, t.properties or None)
                continue
            if len(t) != 3 or not all(isinstance(x, str) and x for x in t):
                raise InputError(
                    f"triplet #{n} {tuple(t)!r} is not three non-empty strings (head, relation, tail)",
                    source="from_triplets",
                )
            b.add(*t)
        for nid, name in (names or {}).items():
            if nid in b.node_index and name:
                b.add_node(nid, name=name)
        return b.build(uri)

    @classmethod
    def from_networkx(
        cls,
        graph: Any,
        *,
        relation_attr: str = "relation",
        name_attr: str = "name",
        uri: str = "memory:networkx",
    ) -> MemoryGraph:
        """Wrap a networkx DiGraph/MultiDiGraph; the edge attribute ``relation_attr`` (or the
        multigraph key) names the relation. An edge with neither is an error naming it."""
        if not graph.is_directed():
            raise InputError(
                "an undirected graph has no edge direction; pass a DiGraph or MultiDiGraph "
                "(e.g. nx.DiGraph(graph) keeps both directions)",
                source="networkx graph",
            )
        b = GraphBuilder()
        for node, data in graph.nodes(data=True):
            data = dict(data)
            name = data.pop(name_attr, None)
            aliases = data.pop("aliases", ())
            labels = data.pop("labels", ()) or ((data.pop("label"),) if "label" in data else ())
            b.add_node(
                str(node),
                name=str(name) if name is not None else None,
                labels=tuple(labels),
                aliases=tuple(aliases),
                properties=data or None,
            )
        multi = graph.is_multigraph()
        edges = graph.edges(keys=True, data=True) if multi else graph.edges(data=True)
        for edge in edges:
            if multi:
                u, v, key, data = edge
            else:
                (u, v, data), key = edge, None
            data = dict(data)
            rel = data.pop(relation_attr, None)
            if rel is None and multi and isinstance(key, str):
                rel = key
            if rel is None:
                raise InputError(
                    f"edge {u!r} -> {v!r} has no {relation_attr!r} attribute (nor a string key); "
                    f"set relation_attr= to the attribute that names the relation",
                    source="networkx graph",
                )
            b.add(str(u), str(rel), str(v), data or None)
        return b.build(uri)

    # ------------------------------------------------------------------ helpers
    def _idx(self, node_id: str) -> int | None:
        return self._index.get(node_id)

    def _node(self, i: int) -> Node:
        nid = self._ids[i]
        return _make_node(
            nid,
            self._name_of(i),
            self._labels.get(i, _DEFAULT_LABELS),
            self._aliases_of(i),
            dict(self._node_props.get(i, ())),
        )

    # ------------------------------------------------------------------ display names
    def _props_of(self, i: int) -> dict[str, Any]:
        """A node's properties with its own name as the ``name`` property (what the profile
        samples and display rules read)."""
        props = dict(self._node_props.get(i, ()))
        if i in self._names:
            props["name"] = self._names[i]
        return props

    def _shown_names(self) -> dict[int, str]:
        """Display names that differ from the nodes' own names, computed once per profile:
        only labels whose rule names nodes by other properties cost anything."""
        if self._shown is None:
            rules = self.display_rules()
            plain = {DisplayRule()}
            if not any("name" in p for p in self._node_props.values()):
                # naming by "name" is the nodes' own names, unless node records keep a
                # ``name`` among their properties ({"properties": {"name": …}})
                plain.add(DisplayRule(parts=("name",)))
            special = {lab: r for lab, r in rules.items() if r not in plain}
            shown: dict[int, str] = {}
            extra: dict[int, tuple[str, ...]] = {}
            if special:
                default = special.get(DEFAULT_LABEL)
                nodes = range(len(self._ids)) if default is not None else self._labels
                for i in nodes:
                    labs = self._labels.get(i, _DEFAULT_LABELS)
                    rule = next((rules[x] for x in labs if x in rules), None)
                    if rule is None or rule in plain:
                        continue
                    props = self._props_of(i)
                    name = rule.name_of(props)
                    if name is not None and name != self._names.get(i, self._ids[i]):
                        shown[i] = name
                    more = rule.aliases_of(props)
                    if more:
                        extra[i] = tuple(more)
            self._shown, self._extra_aliases = shown, extra
        return self._shown

    def _display_changed(self) -> None:
        self._shown = None
        self._by_name = None

    def _name_of(self, i: int) -> str:
        shown = self._shown_names()
        return shown.get(i) or self._names.get(i, self._ids[i])

    def _aliases_of(self, i: int) -> tuple[str, ...]:
        self._shown_names()
        own = self._aliases.get(i, ())
        extra = self._extra_aliases.get(i)
        if not extra:
            return own
        return tuple(dict.fromkeys([*own, *extra]))

    def _triplet(self, e: int) -> Triplet:
        e = int(e)
        return _make_triplet(
            self._ids[self.heads[e]],
            self._rels[self.rels[e]],
            self._ids[self.tails[e]],
            dict(self._edge_props.get(e, ())),
        )

    def _triplets(self, edges: np.ndarray) -> tuple[Triplet, ...]:
        """Triplets for an array of edge indices (vectorised gathers, no validation)."""
        if not len(edges):
            return ()
        ids, rels, props = self._ids, self._rels, self._edge_props
        hs = self.heads[edges].tolist()
        rs = self.rels[edges].tolist()
        ts = self.tails[edges].tolist()
        if props:
            es = edges.tolist()
            return tuple(
                _make_triplet(ids[h], rels[r], ids[t], dict(props.get(e, ())))
                for h, r, t, e in zip(hs, rs, ts, es, strict=True)
            )
        return tuple(
            _make_triplet(ids[h], rels[r], ids[t], {}) for h, r, t in zip(hs, rs, ts, strict=True)
        )

    def _edges_of(self, i: int, direction: Direction) -> np.ndarray:
        parts = []
        if direction in (Direction.OUT, Direction.BOTH):
            parts.append(self.out_edges[self.out_ptr[i] : self.out_ptr[i + 1]])
        if direction in (Direction.IN, Direction.BOTH):
            parts.append(self.in_edges[self.in_ptr[i] : self.in_ptr[i + 1]])
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def relation_ids(self, relations: Sequence[str]) -> np.ndarray:
        return np.array(
            [self._rel_index[r] for r in relations if r in self._rel_index], dtype=np.int32
        )

    def relation_mask(self, relations: Sequence[str]) -> np.ndarray:
        """Boolean mask over relation ids (``mask[self.rels[edges]]`` filters edges)."""
        mask = np.zeros(max(len(self._rels), 1), dtype=bool)
        mask[self.relation_ids(relations)] = True
        return mask

    def node_ids_by_name(self, names: Iterable[str]) -> dict[str, list[str]]:
        """Exact lookup: node ids whose name, alias or id equals each name after
        :func:`byokg.language.text.normalize` (case, accents, punctuation ignored). Built lazily."""
        if self._by_name is None:
            index: dict[str, list[int]] = {}
            names_, aliases = self._names, self._aliases
            shown = self._shown_names()
            for i, nid in enumerate(self._ids):
                k = _normalize(nid)
                if k:
                    index.setdefault(k, []).append(i)
                extra = [names_[i]] if i in names_ else []
                if i in shown:
                    extra.append(shown[i])
                extra.extend(self._aliases_of(i) if shown else aliases.get(i, ()))
                for other in extra:
                    k2 = _normalize(other)
                    if k2 and k2 != k:
                        lst = index.setdefault(k2, [])
                        if not lst or lst[-1] != i:  # nodes come in order: i is last if present
                            lst.append(i)
            self._by_name = index
        ids = self._ids
        return {n: [ids[i] for i in self._by_name.get(_normalize(n), ())] for n in names}

    # ------------------------------------------------------------------ GraphStore
    def schema(self, *, samples: int = 3) -> GraphSchema:
        label_counts: dict[str, int] = {}
        n = len(self._ids)
        for labs in self._labels.values():
            for lab in labs:
                label_counts[lab] = label_counts.get(lab, 0) + 1
        unlabelled = n - len(self._labels)
        if unlabelled:
            label_counts[DEFAULT_LABEL] = label_counts.get(DEFAULT_LABEL, 0) + unlabelled
        labels = []
        for lab, cnt in label_counts.items():
            props: dict[str, list[Any]] = {"name": []}
            for i, labs in (
                (i, self._labels.get(i, (DEFAULT_LABEL,))) for i in range(min(n, 50_000))
            ):
                if lab not in labs:
                    continue
                if len(props["name"]) < samples:
                    props["name"].append(self._name_of(i))
                for k, v in self._node_props.get(i, {}).items():
                    vals = props.setdefault(k, [])
                    if len(vals) < samples and v not in vals:
                        vals.append(v)
                if all(len(v) >= samples for v in props.values()) and len(props) > 1:
                    break
            labels.append(
                NodeLabel(
                    name=lab,
                    count=cnt,
                    properties=tuple(
                        PropertyInfo(name=k, samples=tuple(v)) for k, v in props.items()
                    ),
                )
            )
        rel_counts = (
            np.bincount(self.rels, minlength=len(self._rels)) if len(self.rels) else np.zeros(0)
        )
        # first few edge indices of each relation, for samples
        rel_types = []
        first_edges: dict[int, list[int]] = {}
        if samples:
            order = np.argsort(self.rels, kind="stable")
            starts = np.searchsorted(self.rels[order], np.arange(len(self._rels)))
            for r in range(len(self._rels)):
                first_edges[r] = [int(e) for e in order[starts[r] : starts[r] + samples]]
        patterns = self._relation_patterns()
        for r, name in enumerate(self._rels):
            edges = first_edges.get(r, [])
            pats = dict.fromkeys(patterns.get(r, [(DEFAULT_LABEL, DEFAULT_LABEL)]))
            rel_types.append(
                RelationType(
                    name=name,
                    count=int(rel_counts[r]) if len(rel_counts) else 0,
                    patterns=tuple(RelationPattern(src=s, dst=d) for s, d in pats),
                    samples=tuple(
                        (self._name_of(int(self.heads[e])), self._name_of(int(self.tails[e])))
                        for e in edges
                    ),
                )
            )
        return GraphSchema(node_labels=tuple(labels), relation_types=tuple(rel_types))

    def _relation_patterns(self) -> dict[int, list[tuple[str, str]]]:
        """Every (head label, tail label) pair of each relation, over all edges, most common first."""
        if not len(self.rels):
            return {}
        if not self._labels:
            return {r: [(DEFAULT_LABEL, DEFAULT_LABEL)] for r in range(len(self._rels))}
        names, node_label = self._label_index()
        n_lab = len(names)
        keys = (self.rels.astype(np.int64) * n_lab + node_label[self.heads]) * n_lab + node_label[self.tails]
        uniq, counts = np.unique(keys, return_counts=True)
        out: dict[int, list[tuple[int, str, str]]] = {}
        for key, cnt in zip(uniq.tolist(), counts.tolist(), strict=True):
            r, rest = divmod(key, n_lab * n_lab)
            src, dst = divmod(rest, n_lab)
            out.setdefault(r, []).append((cnt, names[src], names[dst]))
        return {r: [(s, d) for _, s, d in sorted(v, key=lambda x: -x[0])] for r, v in out.items()}

    def _label_index(self) -> tuple[list[str], np.ndarray]:
        """The labels (a node's first one; unlabelled nodes get the default) and each node's
        label as an index into them."""
        names = [DEFAULT_LABEL]
        index = {DEFAULT_LABEL: 0}
        node_label = np.zeros(len(self._ids), dtype=np.int64)
        for i, labs in self._labels.items():  # a node's first label
            node_label[i] = index.setdefault(labs[0], len(names))
            if len(names) < len(index):
                names.append(labs[0])
        return names, node_label

    def _end_stats(self, ends: np.ndarray) -> tuple[np.ndarray, dict[int, dict[str, int]]]:
        """Per relation at this end of its edges: whether some node has several of them, and
        the distinct nodes per label (exact). One sort of the (relation, node) keys serves
        both; ``np.unique`` hashes instead, about eight times slower on 10M+ edges."""
        n = max(len(self._ids), 1)
        keys = self.rels.astype(np.int64) * n + ends
        keys.sort()
        first = np.ones(len(keys), dtype=bool)
        first[1:] = keys[1:] != keys[:-1]
        many = np.zeros(len(self._rels), dtype=bool)
        many[keys[~first] // n] = True
        uniq = keys[first]
        del keys, first
        names, node_label = self._label_index()
        lab_keys = (uniq // n) * len(names) + node_label[uniq % n]
        if len(self._rels) * len(names) <= 4 * max(len(lab_keys), 1):
            counts = np.bincount(lab_keys, minlength=len(self._rels) * len(names))
            ks = np.flatnonzero(counts)
            cnts = counts[ks]
        else:  # many labels: count the sorted keys instead of a sparse table
            lab_keys.sort()
            starts = np.flatnonzero(np.r_[True, lab_keys[1:] != lab_keys[:-1]])
            ks, cnts = lab_keys[starts], np.diff(np.r_[starts, len(lab_keys)])
        out: dict[int, dict[str, int]] = {}
        for key, cnt in zip(ks.tolist(), cnts.tolist(), strict=True):
            r, lab = divmod(key, len(names))
            out.setdefault(r, {})[names[lab]] = cnt
        return many, out

    # ------------------------------------------------------------------ profile
    def profile_fingerprint(self) -> str:
        """A hash of the edge arrays, the relation names and the node records' sizes."""
        import hashlib

        h = hashlib.blake2b(digest_size=16)
        for arr in (self.heads, self.rels, self.tails):
            h.update(np.ascontiguousarray(arr).view(np.uint8))
        h.update("\x1f".join(self._rels).encode())
        h.update(f"{len(self._ids)}|{len(self._names)}|{len(self._labels)}|"
                 f"{len(self._node_props)}|{len(self._edge_props)}".encode())
        return h.hexdigest()

    def profile_sample(self, *, nodes_per_label: int = 200, edges_per_type: int = 200,
                       examples: int = 3) -> GraphSample:
        """Per label its count and first nodes; per relation its count, label pairs, exact
        cardinality (numpy over the edge arrays) and first edges. Node names are the ``name``
        property; no store queries (0 round trips)."""
        n = len(self._ids)
        counts: dict[str, int] = {}
        for labs in self._labels.values():
            for lab in labs:
                counts[lab] = counts.get(lab, 0) + 1
        if n - len(self._labels):
            counts[DEFAULT_LABEL] = counts.get(DEFAULT_LABEL, 0) + n - len(self._labels)
        picked: dict[str, list[int]] = {lab: [] for lab in counts}
        open_ = set(counts)
        for i in range(min(n, 200_000)):  # bounded: labels seen in the first 200k nodes
            labs = self._labels.get(i, _DEFAULT_LABELS)
            for lab in labs:
                if lab in open_:
                    picked[lab].append(i)
                    if len(picked[lab]) >= nodes_per_label:
                        open_.discard(lab)
            if not open_:
                break
        labels = tuple(
            LabelSample(name=lab, count=cnt, nodes=tuple(self._sampled(i) for i in picked[lab]))
            for lab, cnt in counts.items())
        return GraphSample(labels=labels, relations=self._relation_samples(edges_per_type, examples),
                           dialect=None, queries=0,
                           ids_are_names=len(self._names) < max(n, 1) / 2)

    def _sampled(self, i: int) -> SampledNode:
        return SampledNode(id=self._ids[i], labels=self._labels.get(i, _DEFAULT_LABELS),
                           properties=self._props_of(i))

    def _relation_samples(self, per_type: int, examples: int) -> tuple[RelationSample, ...]:
        m, n_rel = len(self.rels), len(self._rels)
        if not m:
            return tuple(RelationSample(name=r, count=0) for r in self._rels)
        counts = np.bincount(self.rels, minlength=n_rel)
        many_tails, head_counts = self._end_stats(self.heads)
        many_heads, tail_counts = self._end_stats(self.tails)
        order = np.argsort(self.rels, kind="stable")
        starts = np.searchsorted(self.rels[order], np.arange(n_rel))
        patterns = self._relation_patterns()
        out = []
        for r, name in enumerate(self._rels):
            first = order[starts[r]: starts[r] + min(per_type, int(counts[r]))].tolist()
            edges = tuple(dict(self._edge_props[e]) for e in first if e in self._edge_props)
            ex = tuple((self._sampled(int(self.heads[e])), self._sampled(int(self.tails[e])))
                       for e in first[:examples])
            out.append(RelationSample(
                name=name, count=int(counts[r]),
                pairs=tuple(patterns.get(r, [(DEFAULT_LABEL, DEFAULT_LABEL)])),
                edges=edges, examples=ex, many_tails=bool(many_tails[r]),
                many_heads=bool(many_heads[r]), heads=head_counts.get(r, {}),
                tails=tail_counts.get(r, {})))
        return tuple(out)

    def stats(self) -> GraphStats:
        labels = {lab for labs in self._labels.values() for lab in labs}
        if len(self._labels) < len(self._ids):
            labels.add(DEFAULT_LABEL)
        return GraphStats(
            nodes=len(self._ids),
            triplets=len(self.heads),
            relations=len(self._rels),
            labels=len(labels),
            duplicates_skipped=self._duplicates,
            bad_rows_skipped=self._bad_rows,
        )

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node | None]:
        out: dict[str, Node | None] = {}
        for nid in ids:
            i = self._index.get(nid)
            out[nid] = None if i is None else self._node(i)
        return out

    def display_names(self, ids: Sequence[str]) -> dict[str, str]:
        out = {}
        for nid in ids:
            i = self._index.get(nid)
            out[nid] = nid if i is None else self._name_of(i)
        return out

    def iter_node_names(self, batch_size: int = 10_000) -> Iterator[list[tuple[str, str]]]:
        batch: list[tuple[str, str]] = []
        shown = self._shown_names()
        names, aliases = self._names, self._aliases
        for i, nid in enumerate(self._ids):
            batch.append((nid, shown.get(i) or names.get(i, nid)))
            for alias in (self._aliases_of(i) if shown else aliases.get(i, ())):
                batch.append((nid, alias))
            if len(batch) >= batch_size:
                yield batch
                batch = []
        if batch:
            yield batch

    def _neighbors(
        self, uniq: list[str], direction: Direction, relations: list[str] | None,
        limit_per_node: int | None,
    ) -> dict[str, Neighborhood]:
        """One-hop triplets of every id; the whole batch is gathered, filtered and capped with
        array operations, then turned into triplets in one pass (for whole BFS frontiers).
        Per node: out-edges then in-edges, each in file order; ``total`` counts before the cap."""
        index = self._index
        pos = [index.get(n) for n in uniq]
        known = [p for p in pos if p is not None]
        nodes = np.fromiter(known, np.int64, len(known))
        if limit_per_node is not None and relations is None:
            edges, totals, kept = self._capped_edges(nodes, direction, limit_per_node)
        else:
            edges, totals, kept = self._all_edges(nodes, direction, relations, limit_per_node)
        triplets = self._triplets(edges)
        ends = np.cumsum(kept).tolist()
        totals_l, kept_l = totals.tolist(), kept.tolist()
        out: dict[str, Neighborhood] = {}
        k = 0
        for nid, p in zip(uniq, pos, strict=True):
            if p is None:
                out[nid] = _make_neighborhood(nid, (), 0, False)
                continue
            end = ends[k]
            out[nid] = _make_neighborhood(
                nid, triplets[end - kept_l[k] : end], totals_l[k], kept_l[k] < totals_l[k]
            )
            k += 1
        return out

    def _all_edges(self, nodes: np.ndarray, direction: Direction, relations: list[str] | None,
                   limit: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(edges grouped by node, each node's total, each node's kept count): every edge of
        the nodes gathered, then filtered by relation, then capped."""
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        if direction in (Direction.OUT, Direction.BOTH):
            parts.append(gather_csr(self.out_ptr, self.out_edges, nodes))
        if direction in (Direction.IN, Direction.BOTH):
            parts.append(gather_csr(self.in_ptr, self.in_edges, nodes))
        edges, owner = _by_owner(parts)
        if relations is not None:
            keep = self.relation_mask(relations)[self.rels[edges]]
            edges, owner = edges[keep], owner[keep]
        totals = np.bincount(owner, minlength=len(nodes))
        if limit is None or not len(edges):
            return edges, totals, totals
        starts = np.cumsum(totals) - totals
        keep = (np.arange(len(edges)) - starts[owner]) < limit
        edges, owner = edges[keep], owner[keep]
        return edges, totals, np.bincount(owner, minlength=len(nodes))

    def _capped_edges(self, nodes: np.ndarray, direction: Direction, limit: int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_all_edges` without a relation filter: only the first ``limit`` edges of each
        node are read (its out-edges, then as many in-edges as the cap leaves), so a hub with
        a million edges costs what a node with ``limit`` does; totals come from the index."""
        caps = np.full(len(nodes), limit, dtype=np.int64)
        totals = np.zeros(len(nodes), dtype=np.int64)
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        for wanted, ptr, order in ((Direction.OUT, self.out_ptr, self.out_edges),
                                   (Direction.IN, self.in_ptr, self.in_edges)):
            if direction not in (wanted, Direction.BOTH):
                continue
            starts = ptr[nodes]
            degree = ptr[nodes + 1] - starts
            take = np.minimum(degree, caps)
            parts.append(_gather_first(order, starts, take))
            totals += degree
            caps -= take
        edges, owner = _by_owner(parts)
        return edges, totals, np.bincount(owner, minlength=len(nodes))

    def degrees(
        self, ids: Sequence[str], *, direction: Direction = Direction.BOTH
    ) -> dict[str, int]:
        direction = Direction(direction)
        out = {}
        for nid in ids:
            i = self._index.get(nid)
            if i is None:
                out[nid] = 0
                continue
            d = 0
            if direction in (Direction.OUT, Direction.BOTH):
                d += int(self.out_ptr[i + 1] - self.out_ptr[i])
            if direction in (Direction.IN, Direction.BOTH):
                d += int(self.in_ptr[i + 1] - self.in_ptr[i])
            out[nid] = d
        return out

    def relation_types(self) -> list[str]:
        return list(self._rels)

    def has_node(self, node_id: str) -> bool:
        return node_id in self._index

    def __len__(self) -> int:
        return len(self.heads)


# ---------------------------------------------------------------------- loading


def load_path(
    path: str | os.PathLike[str], *, skip_bad_rows: bool = False, uri: str | None = None,
    limits: Limits | None = None, columns: Sequence[str] | None = None,
) -> tuple[MemoryGraph, LoadReport]:
    """Load a CSV/TSV/JSONL file (or a folder of them) into a MemoryGraph; ``columns``: the
    column order of header-less CSV/TSV files."""
    b, report = read_sources([path], skip_bad_rows=skip_bad_rows, limits=limits,
                             columns=columns)
    graph = MemoryGraph.from_table(b.freeze(report), uri or f"memory:{path}")
    del b
    trim_heap()
    return graph, report


def _load_with_snapshot(path: FsPath, *, skip_bad_rows: bool, uri: str,
                        columns: Sequence[str] | None) -> tuple[MemoryGraph, LoadReport]:
    """:func:`load_path`, through the parsed copy kept in the cache folder
    (:mod:`byokg.io.snapshot`): the next process opening the same unchanged files with the
    same options reads that copy instead of parsing them. No cache folder: parsed each time."""
    from byokg.config import cache_root
    from byokg.io.snapshot import load_snapshot
    from byokg.io.snapshot import save_snapshot
    from byokg.io.snapshot import snapshot_path

    root = cache_root()
    limits = Limits.from_env()
    snap = None if root is None else snapshot_path(root, [path], skip_bad_rows=skip_bad_rows,
                                                   columns=columns, limits=limits)
    got = load_snapshot(snap) if snap is not None else None
    if got is not None:
        table, report = got
        return MemoryGraph.from_table(table, uri), report
    graph, report = load_path(path, skip_bad_rows=skip_bad_rows, uri=uri, limits=limits,
                              columns=columns)
    if snap is not None:
        save_snapshot(snap, graph.table, report)
    return graph, report


_TRUE = ("1", "true", "yes", "on")


def open_memory(uri: str, *, skip_bad_rows: bool | None = None, **_: Any) -> MemoryGraph:
    """Backend factory for ``memory:PATH[?skip_bad_rows=1][&columns=head,relation,tail]``
    (``memory:demo`` is the built-in demo graph; ``columns``: the column order of a CSV/TSV
    file without a header).

    ``skip_bad_rows`` defaults to the URI option, else the ``BYOKG_SKIP_BAD_ROWS`` environment
    variable (``1``), so any command taking ``--graph memory:PATH`` can skip malformed rows;
    skipped rows, duplicates and the readers' notes are then logged as a warning (never silent).
    Read limits come from the ``BYOKG_MAX_*`` environment variables (byokg.io.readers.Limits).
    """
    target, opts = _target(uri, with_options=True)
    if skip_bad_rows is None and "skip_bad_rows" in opts:
        skip_bad_rows = opts["skip_bad_rows"].lower() in _TRUE
    if skip_bad_rows is None:
        skip_bad_rows = os.environ.get("BYOKG_SKIP_BAD_ROWS", "").lower() in _TRUE
    path = builtin_graph(target) or FsPath(target).expanduser()
    columns = opts["columns"].split(",") if opts.get("columns") else None
    graph, report = _load_with_snapshot(path, skip_bad_rows=skip_bad_rows, uri=uri,
                                        columns=columns)
    log = logging.getLogger("byokg.backends.memory")
    if report.bad_rows:
        log.warning("%s: skipped %d bad rows (first: %s)", uri, report.bad_rows,
                    "; ".join(report.reasons))
    for note in report.notes:
        log.warning("%s: %s", uri, note)
    return graph


def _target(uri: str, *, with_options: bool = False) -> Any:
    from byokg.graph.open import split_query

    base, opts = split_query(uri)
    target = base.split(":", 1)[1]
    if target.startswith("//"):
        target = target[2:]
    if not target:
        raise ConfigError("memory: URI needs a path, e.g. memory:triples.csv or memory:demo")
    unknown = [k for k in opts if k not in ("skip_bad_rows", "columns")]
    if unknown:
        raise ConfigError(f"{uri!r}: unknown option {unknown[0]!r} (memory: URIs accept "
                          "display, skip_bad_rows, columns)")
    return (target, opts) if with_options else target


def load_memory(
    sources: Sequence[str], into: str, *, mapping: str | None = None, skip_bad_rows: bool = False,
    limits: Limits | None = None, columns: Sequence[str] | None = None, **_: Any,
):
    """``byokg load … --into memory:FILE.jsonl``: the sources validated and deduplicated into
    one JSONL file (node records first, then triplets) that ``memory:FILE.jsonl`` opens."""
    from byokg.io.loading import LoadSummary

    if mapping:
        raise ConfigError("--mapping is for property-graph stores (kuzu, neo4j), not memory:")
    out = FsPath(_target(into)).expanduser()
    if out.suffix not in (".jsonl", ".ndjson"):
        raise ConfigError(f"memory target {out} must be a .jsonl file")
    b, report = read_sources(sources, skip_bad_rows=skip_bad_rows, limits=limits,
                             columns=columns)
    table = b.freeze(report)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        for rec in _node_records(table):
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        for t in table.triplets():
            row: dict[str, Any] = {"head": t.head, "relation": t.relation, "tail": t.tail}
            if t.properties:
                row["properties"] = t.properties
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return LoadSummary.of(into, report)


def _node_records(table: TripleTable) -> Iterator[dict[str, Any]]:
    """JSONL node records of the nodes that have more than an id."""
    for i, nid in enumerate(table.node_ids):
        rec: dict[str, Any] = {}
        if table.names.get(i):
            rec["name"] = table.names[i]
        if table.aliases.get(i):
            rec["aliases"] = list(table.aliases[i])
        if table.labels.get(i) and table.labels[i] != (DEFAULT_LABEL,):
            rec["labels"] = list(table.labels[i])
        if table.node_props.get(i):
            rec["properties"] = table.node_props[i]
        if rec:
            yield {"id": nid, **rec}


@hookimpl
def register_backends(register):
    register("memory", open_memory, loader=load_memory, from_triplets=MemoryGraph.from_triplets)
