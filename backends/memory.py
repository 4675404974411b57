"""In-memory graph store (``memory:PATH``).

The paper's "dict from node to its one-hop triplets", but compact: node and relation names are
interned to ints and edges live in numpy CSR arrays for both directions, so every node (heads
and tails) is indexed and 1.5M triplets take about 190 MB (see docs/backends.md).

Loaders: CSV/TSV triples (``head,relation,tail``; header optional; delimiter sniffed), JSONL
(``{"head","relation","tail"}`` rows with optional ``properties``, plus optional node records
``{"id", "name", "labels", "aliases", "properties"}``), and networkx (Multi)DiGraphs.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import logging
import os
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, ClassVar

import numpy as np

from byokg.contracts import (
    Direction,
    GraphSchema,
    GraphStats,
    Neighborhood,
    Node,
    NodeLabel,
    PropertyInfo,
    RelationPattern,
    RelationType,
    Triplet,
)
from byokg.errors import ConfigError, InputError
from byokg.hookspecs import hookimpl
from byokg.store import BaseGraphStore

DEFAULT_LABEL = "Entity"
_ASCII_SEP = re.compile(r"[\W_]+")


def _normalize(text: str) -> str:
    """:func:`byokg.text.normalize`, with a shortcut for ASCII text (most names) that gives the
    same result several times faster: lower-case, runs of non-alphanumerics become one space."""
    if text.isascii():
        return _ASCII_SEP.sub(" ", text.lower()).strip()
    from byokg.text import normalize

    return normalize(text)


_HEADER_NAMES = {
    ("head", "relation", "tail"),
    ("subject", "predicate", "object"),
    ("h", "r", "t"),
    ("source", "relation", "target"),
    ("src", "rel", "dst"),
    ("head", "rel", "tail"),
}
MAX_REASONS = 5
_PACK_LIMIT = 2**63  # (head, relation, tail) ids packed into one int64 key below this


@dataclass
class LoadReport:
    """What a load did: rows read, duplicates counted, bad rows skipped (with the first reasons)."""

    source: str
    rows: int = 0
    triplets: int = 0
    duplicates: int = 0
    bad_rows: int = 0
    reasons: list[str] = field(default_factory=list)

    def bad(self, reason: str) -> None:
        self.bad_rows += 1
        if len(self.reasons) < MAX_REASONS:
            self.reasons.append(reason)


class _Interner(dict):
    """name -> dense int id; a missing name gets the next id (``d[name]`` interns at C speed)."""

    __slots__ = ()

    def __missing__(self, key: str) -> int:
        v = self[key] = len(self)
        return v


class GraphBuilder:
    """Accumulates triplets and node records, then freezes into a :class:`MemoryGraph`."""

    def __init__(self) -> None:
        self.node_index: dict[str, int] = _Interner()
        self.node_ids: list[str] = []
        self.rel_index: dict[str, int] = _Interner()
        self.rel_names: list[str] = []
        self.heads = array("i")
        self.rels = array("i")
        self.tails = array("i")
        self.edge_props: dict[int, dict[str, Any]] = {}
        self.names: dict[int, str] = {}
        self.aliases: dict[int, tuple[str, ...]] = {}
        self.labels: dict[int, tuple[str, ...]] = {}
        self.node_props: dict[int, dict[str, Any]] = {}

    def node(self, node_id: str) -> int:
        idx = self.node_index.get(node_id)
        if idx is None:
            idx = self.node_index[node_id] = len(self.node_ids)
            self.node_ids.append(node_id)
        return idx

    def relation(self, name: str) -> int:
        idx = self.rel_index.get(name)
        if idx is None:
            idx = self.rel_index[name] = len(self.rel_names)
            self.rel_names.append(name)
        return idx

    def _sync(self) -> None:
        """Append names interned directly through ``node_index[...]`` (bulk loaders)."""
        if len(self.node_ids) < len(self.node_index):
            self.node_ids.extend(itertools.islice(self.node_index, len(self.node_ids), None))
        if len(self.rel_names) < len(self.rel_index):
            self.rel_names.extend(itertools.islice(self.rel_index, len(self.rel_names), None))

    def add(
        self, head: str, relation: str, tail: str, properties: dict[str, Any] | None = None
    ) -> None:
        if properties:
            self.edge_props[len(self.heads)] = dict(properties)
        self.heads.append(self.node(head))
        self.rels.append(self.relation(relation))
        self.tails.append(self.node(tail))

    def add_columns(
        self, heads: Sequence[str], relations: Sequence[str], tails: Sequence[str]
    ) -> None:
        """Add many triplets given as three equally long columns of non-empty strings."""
        self._sync()
        nidx, ridx = self.node_index, self.rel_index
        self.heads.extend(map(nidx.__getitem__, heads))
        self.rels.extend(map(ridx.__getitem__, relations))
        self.tails.extend(map(nidx.__getitem__, tails))
        self._sync()

    def add_encoded(
        self,
        node_names: Sequence[str],
        heads: np.ndarray,
        tails: np.ndarray,
        rel_names: Sequence[str],
        rels: np.ndarray,
    ) -> None:
        """Add triplets already dictionary-encoded: ``heads``/``tails`` index ``node_names``,
        ``rels`` indexes ``rel_names`` (as a columnar reader produces them)."""
        self._sync()
        nmap = self._encode(self.node_index, node_names)
        rmap = self._encode(self.rel_index, rel_names)
        self._sync()
        for arr, codes, m in (
            (self.heads, heads, nmap),
            (self.rels, rels, rmap),
            (self.tails, tails, nmap),
        ):
            arr.frombytes((codes if m is None else m[codes]).astype(np.int32, copy=False).tobytes())

    @staticmethod
    def _encode(index: dict[str, int], names: Sequence[str]) -> np.ndarray | None:
        """Ids for distinct ``names`` (None when they are exactly 0..n-1 of a fresh index)."""
        if not index:
            index.update(zip(names, range(len(names)), strict=True))
            if len(index) == len(names):
                return None
            index.clear()  # names were not distinct: intern one by one
        return np.fromiter(map(index.__getitem__, names), np.int32, len(names))

    def add_node(
        self,
        node_id: str,
        *,
        name: str | None = None,
        labels: Sequence[str] = (),
        aliases: Sequence[str] = (),
        properties: dict[str, Any] | None = None,
    ) -> None:
        idx = self.node(node_id)
        if name is not None and name != node_id:
            self.names[idx] = name
        if labels:
            self.labels[idx] = tuple(labels)
        if aliases:
            self.aliases[idx] = tuple(
                dict.fromkeys(list(self.aliases.get(idx, ())) + list(aliases))
            )
        if properties:
            self.node_props.setdefault(idx, {}).update(properties)

    def __len__(self) -> int:
        return len(self.heads)

    def build(self, uri: str = "memory:", report: LoadReport | None = None) -> MemoryGraph:
        self._sync()
        heads = np.frombuffer(self.heads, dtype=np.int32)
        rels = np.frombuffer(self.rels, dtype=np.int32)
        tails = np.frombuffer(self.tails, dtype=np.int32)
        n_nodes = len(self.node_ids)
        n_rels = len(self.rel_names)
        # Deduplicate (head, relation, tail); keep the first occurrence (and its properties).
        if len(heads) and n_nodes * n_nodes * max(n_rels, 1) < _PACK_LIMIT:
            keys = (heads.astype(np.int64) * max(n_rels, 1) + rels) * max(n_nodes, 1) + tails
            ordered = np.sort(keys)
            if (ordered[1:] == ordered[:-1]).any():  # duplicates: find first occurrences
                _, first = np.unique(keys, return_index=True)
            else:
                first = np.arange(len(keys))
            del keys, ordered
        elif len(heads):  # too many ids to pack into one int64: lexicographic sort instead
            order = np.lexsort((tails, rels, heads))
            h, r, t = heads[order], rels[order], tails[order]
            new = np.ones(len(order), dtype=bool)
            new[1:] = (h[1:] != h[:-1]) | (r[1:] != r[:-1]) | (t[1:] != t[:-1])
            # the first occurrence in file order is the smallest index in each run (stable sort)
            first = order[new]
        else:
            first = np.zeros(0, dtype=np.int64)
        first.sort()
        dups = len(heads) - len(first)
        if dups:
            heads, rels, tails = heads[first], rels[first], tails[first]
            edge_props = {}
            if self.edge_props:
                olds = np.fromiter(self.edge_props, np.int64, len(self.edge_props))
                pos = np.searchsorted(first, olds).clip(max=len(first) - 1)
                for o, new_pos, kept in zip(
                    olds.tolist(), pos.tolist(), (first[pos] == olds).tolist(), strict=True
                ):
                    if kept:
                        edge_props[new_pos] = self.edge_props[o]
        else:
            heads, rels, tails = heads.copy(), rels.copy(), tails.copy()
            edge_props = self.edge_props
        if report is not None:
            report.duplicates += dups
            report.triplets = len(heads)
        return MemoryGraph(
            uri=uri,
            node_ids=self.node_ids,
            node_index=dict(self.node_index),
            rel_names=self.rel_names,
            rel_index=dict(self.rel_index),
            heads=heads,
            rels=rels,
            tails=tails,
            edge_props=edge_props,
            names=self.names,
            aliases=self.aliases,
            labels=self.labels,
            node_props=self.node_props,
            duplicates=dups,
            bad_rows=report.bad_rows if report else 0,
        )


def gather_csr(ptr: np.ndarray, order: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(edge ids, owner slot) of the CSR slices of ``nodes`` concatenated in order; the owner
    slot is the position of the node in ``nodes``."""
    starts = ptr[nodes]
    lens = ptr[nodes + 1] - starts
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    offs = np.repeat(starts - (np.cumsum(lens) - lens), lens)
    pos = np.arange(total, dtype=np.int64) + offs
    return order[pos].astype(np.int64), np.repeat(np.arange(len(nodes), dtype=np.int64), lens)


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
    # Sorting the unique keys src * m + edge is a stable sort by src, and np.sort is several
    # times faster than argsort(kind="stable").
    keys = src.astype(np.int64) * max(m, 1)
    keys += np.arange(m, dtype=np.int64)
    keys.sort()
    order = (keys % max(m, 1)).astype(np.int32) if m else np.zeros(0, dtype=np.int32)
    del keys
    counts = np.bincount(src, minlength=n)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=ptr[1:])
    return ptr, order


class MemoryGraph(BaseGraphStore):
    """Read-only in-memory graph with CSR adjacency in both directions."""

    capabilities: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        *,
        uri: str,
        node_ids: list[str],
        node_index: dict[str, int],
        rel_names: list[str],
        rel_index: dict[str, int],
        heads: np.ndarray,
        rels: np.ndarray,
        tails: np.ndarray,
        edge_props: dict[int, dict[str, Any]] | None = None,
        names: dict[int, str] | None = None,
        aliases: dict[int, tuple[str, ...]] | None = None,
        labels: dict[int, tuple[str, ...]] | None = None,
        node_props: dict[int, dict[str, Any]] | None = None,
        duplicates: int = 0,
        bad_rows: int = 0,
    ) -> None:
        self.uri = uri
        self._ids = node_ids
        self._index = node_index
        self._rels = rel_names
        self._rel_index = rel_index
        self.heads, self.rels, self.tails = heads, rels, tails
        self._edge_props = edge_props or {}
        self._names = names or {}
        self._aliases = aliases or {}
        self._labels = labels or {}
        self._node_props = node_props or {}
        self._duplicates = duplicates
        self._bad_rows = bad_rows
        self._by_name: dict[str, list[int]] | None = None
        n = len(node_ids)
        self.out_ptr, self.out_edges = _csr(heads, n)
        self.in_ptr, self.in_edges = _csr(tails, n)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_triplets(
        cls, triplets: Iterable[Triplet | tuple[str, str, str]], uri: str = "memory:"
    ) -> MemoryGraph:
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
            self._names.get(i, nid),
            self._labels.get(i, _DEFAULT_LABELS),
            self._aliases.get(i, ()),
            dict(self._node_props.get(i, ())),
        )

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
        :func:`byokg.text.normalize` (case, accents, punctuation ignored). Built lazily."""
        if self._by_name is None:
            index: dict[str, list[int]] = {}
            names_, aliases = self._names, self._aliases
            for i, nid in enumerate(self._ids):
                k = _normalize(nid)
                if k:
                    index.setdefault(k, []).append(i)
                extra = [names_[i]] if i in names_ else []
                extra.extend(aliases.get(i, ()))
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
                    props["name"].append(self._names.get(i, self._ids[i]))
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
                        (
                            self._names.get(int(self.heads[e]), self._ids[self.heads[e]]),
                            self._names.get(int(self.tails[e]), self._ids[self.tails[e]]),
                        )
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
        names = [DEFAULT_LABEL]
        index = {DEFAULT_LABEL: 0}
        node_label = np.zeros(len(self._ids), dtype=np.int64)
        for i, labs in self._labels.items():  # a node's first label
            node_label[i] = index.setdefault(labs[0], len(names))
            if len(names) < len(index):
                names.append(labs[0])
        n_lab = len(names)
        keys = (self.rels.astype(np.int64) * n_lab + node_label[self.heads]) * n_lab + node_label[self.tails]
        uniq, counts = np.unique(keys, return_counts=True)
        out: dict[int, list[tuple[int, str, str]]] = {}
        for key, cnt in zip(uniq.tolist(), counts.tolist(), strict=True):
            r, rest = divmod(key, n_lab * n_lab)
            src, dst = divmod(rest, n_lab)
            out.setdefault(r, []).append((cnt, names[src], names[dst]))
        return {r: [(s, d) for _, s, d in sorted(v, key=lambda x: -x[0])] for r, v in out.items()}

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
            out[nid] = nid if i is None else self._names.get(i, nid)
        return out

    def iter_node_names(self, batch_size: int = 10_000) -> Iterator[list[tuple[str, str]]]:
        batch: list[tuple[str, str]] = []
        for i, nid in enumerate(self._ids):
            batch.append((nid, self._names.get(i, nid)))
            for alias in self._aliases.get(i, ()):
                batch.append((nid, alias))
            if len(batch) >= batch_size:
                yield batch
                batch = []
        if batch:
            yield batch

    def neighbors(
        self,
        ids: Sequence[str],
        *,
        direction: Direction = Direction.BOTH,
        relations: Sequence[str] | None = None,
        limit_per_node: int | None = None,
    ) -> dict[str, Neighborhood]:
        """One-hop triplets of every id; the whole batch is gathered, filtered and capped with
        array operations, then turned into triplets in one pass (for whole BFS frontiers).
        Per node: out-edges then in-edges, each in file order; ``total`` counts before the cap."""
        direction = Direction(direction)
        uniq = list(dict.fromkeys(ids))
        index = self._index
        pos = [index.get(n) for n in uniq]
        known = [p for p in pos if p is not None]
        nodes = np.fromiter(known, np.int64, len(known))
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        if direction in (Direction.OUT, Direction.BOTH):
            parts.append(gather_csr(self.out_ptr, self.out_edges, nodes))
        if direction in (Direction.IN, Direction.BOTH):
            parts.append(gather_csr(self.in_ptr, self.in_edges, nodes))
        if len(parts) == 1:
            edges, owner = parts[0]
        else:  # per owner: its out-edges then its in-edges (stable sort on the owner slot)
            edges = np.concatenate([parts[0][0], parts[1][0]])
            owner = np.concatenate([parts[0][1], parts[1][1]])
            order = np.argsort(owner, kind="stable")
            edges, owner = edges[order], owner[order]
        if relations is not None:
            keep = self.relation_mask(relations)[self.rels[edges]]
            edges, owner = edges[keep], owner[keep]
        totals = np.bincount(owner, minlength=len(known))
        if limit_per_node is not None and len(edges):
            starts = np.cumsum(totals) - totals
            keep = (np.arange(len(edges)) - starts[owner]) < max(limit_per_node, 0)
            edges, owner = edges[keep], owner[keep]
            kept = np.bincount(owner, minlength=len(known))
        else:
            kept = totals
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


# ---------------------------------------------------------------------- loaders


def _sniff_delimiter(first_line: str, path: str) -> str:
    if path.endswith((".tsv", ".tab")) or "\t" in first_line:
        return "\t"
    try:
        return csv.Sniffer().sniff(first_line, delimiters=",;|").delimiter
    except csv.Error:
        return ","


_FIELDS = ("head", "relation", "tail")
_FIX_HINT = (
    "; fix the row, or skip bad rows (--skip-bad-rows, BYOKG_SKIP_BAD_ROWS=1 or skip_bad_rows=True)"
)


def _row_reason(row: list[str], delim: str) -> str:
    if len(row) != 3:
        shown = "tab" if delim == "\t" else delim
        return f"expected 3 fields (head{delim}relation{delim}tail, delimiter {shown!r}), found {len(row)}"
    return f"empty {_FIELDS[[bool(x) for x in row].index(False)]} field"


def _first_bad_utf8_line(path: str | os.PathLike[str]) -> tuple[int, str]:
    """(line number, reason) of the first line that is not valid UTF-8."""
    with open(path, "rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                return line_no, f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1}"
    return 0, "undecodable"


def load_csv(
    path: str | os.PathLike[str],
    *,
    builder: GraphBuilder | None = None,
    skip_bad_rows: bool = False,
    delimiter: str | None = None,
    engine: str = "auto",
) -> tuple[GraphBuilder, LoadReport]:
    """Read ``head,relation,tail`` rows (header optional, delimiter sniffed from the first line).

    A row without exactly three non-empty fields is an :class:`InputError` naming file and line,
    or with ``skip_bad_rows`` is counted and its reason kept in the report (the first 5).

    ``engine``: ``"auto"`` uses pyarrow's multithreaded CSV reader when pyarrow is installed and
    the file has no quote characters, and falls back to the Python readers whenever that read
    finds anything irregular (so bad rows are always reported the same way); ``"python"``
    always uses the csv module; ``"pyarrow"`` requires the fast path.
    """
    b = builder if builder is not None else GraphBuilder()
    src = str(path)
    report = LoadReport(source=src)
    try:
        fh = open(path, encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", source=src) from None
    with fh:
        try:
            first = fh.readline()
        except UnicodeDecodeError:
            line_no, why = _first_bad_utf8_line(path)
            raise InputError(
                f"not UTF-8 text ({why}); save the file as UTF-8", source=src, line=line_no
            ) from None
        if not first.strip():
            if not first or not fh.read(1):
                raise InputError("the file is empty; expected head,relation,tail rows", source=src)
        delim = delimiter or _sniff_delimiter(first, src)
        header = next(csv.reader(io.StringIO(first), delimiter=delim), [])
        has_header = tuple(h.strip().lower() for h in header) in _HEADER_NAMES
        if engine not in _ENGINES:
            raise ConfigError(f"unknown CSV engine {engine!r}; use one of {', '.join(_ENGINES)}")
        quoted = _has_quotes(path)
        if engine in ("auto", "pyarrow") and not quoted:
            if _load_csv_arrow(path, b, report, delim, has_header):
                return b, report
        if engine == "pyarrow":
            raise InputError("the pyarrow fast path could not read this file", source=src)
        start_line = 1 if has_header else 0
        if not has_header:
            fh.seek(0)
        _load_csv_python(fh, src, b, report, delim, start_line, skip_bad_rows, path)
    return b, report


_ENGINES = ("auto", "pyarrow", "python")


def _has_quotes(path: str | os.PathLike[str]) -> bool:
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            if b'"' in chunk:
                return True
    return False


def _load_csv_python(
    fh: Any,
    src: str,
    b: GraphBuilder,
    report: LoadReport,
    delim: str,
    start_line: int,
    skip_bad_rows: bool,
    path: str | os.PathLike[str],
) -> None:
    """The exact reader: csv module, interning through the builder's dict at C speed."""
    reader = csv.reader(fh, delimiter=delim, strict=True)
    b._sync()
    nidx, ridx = b.node_index, b.rel_index
    hs, rs, ts = b.heads.append, b.rels.append, b.tails.append
    before = len(b.heads)
    try:
        for row in reader:
            if len(row) == 3:
                h, r, t = row
                if h and r and t:
                    hs(nidx[h])
                    rs(ridx[r])
                    ts(nidx[t])
                    continue
            elif not row:  # blank line
                continue
            line_no = start_line + reader.line_num
            reason = _row_reason(row, delim)
            if not skip_bad_rows:
                raise InputError(reason + _FIX_HINT, source=src, line=line_no)
            report.bad(f"{src}:{line_no}: {reason}")
    except csv.Error as exc:
        raise InputError(
            f"unreadable CSV ({exc}); check the quoting of this row",
            source=src,
            line=start_line + reader.line_num,
        ) from None
    except UnicodeDecodeError:
        line_no, why = _first_bad_utf8_line(path)
        raise InputError(
            f"not UTF-8 text ({why}); save the file as UTF-8", source=src, line=line_no
        ) from None
    finally:
        b._sync()
    report.rows += len(b.heads) - before + report.bad_rows


def _load_csv_arrow(
    path: str | os.PathLike[str],
    b: GraphBuilder,
    report: LoadReport,
    delim: str,
    has_header: bool,
) -> bool:
    """Fast path: pyarrow reads and dictionary-encodes the columns in C++.

    Called only for files without quote characters (pyarrow is more lenient than the csv module
    about quoting); returns False, having added nothing, whenever the file has a row with the
    wrong field count, an empty field or invalid UTF-8, so the exact reader reports it.
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.csv as pacsv
    except ImportError:
        return False
    # The system allocator hands freed pages back (release_unused -> malloc_trim), so the
    # load's temporary Arrow buffers do not stay resident as with the default pool.
    pool = pa.system_memory_pool()
    irregular = 0

    def on_invalid(_row: Any) -> str:
        nonlocal irregular
        irregular += 1
        return "skip"

    names = ["head", "relation", "tail"]
    try:
        table = pacsv.read_csv(
            str(path),
            read_options=pacsv.ReadOptions(column_names=names, skip_rows=int(has_header)),
            parse_options=pacsv.ParseOptions(
                delimiter=delim, quote_char=False, invalid_row_handler=on_invalid
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={n: pa.string() for n in names}, strings_can_be_null=False
            ),
            memory_pool=pool,
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return False
    if irregular:
        return False
    cols = [table.column(n) for n in names]
    n = table.num_rows
    nodes = pc.dictionary_encode(
        pa.chunked_array(cols[0].chunks + cols[2].chunks, pa.string()), memory_pool=pool
    )
    rels = pc.dictionary_encode(cols[1], memory_pool=pool)
    del table, cols
    _trim_heap()  # the reader threads' heap arenas: hand the table's pages back now

    def codes(enc: Any) -> tuple[np.ndarray, list[str]]:
        if enc.num_chunks == 0:
            return np.zeros(0, dtype=np.int32), []
        # chunks share one growing dictionary: the last chunk's is the union
        dictionary = enc.chunk(enc.num_chunks - 1).dictionary
        idx = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in enc.chunks])
        return idx.astype(np.int32, copy=False), dictionary.to_pylist()

    node_codes, node_names = codes(nodes)
    del nodes
    rel_codes, rel_names = codes(rels)
    del rels
    if "" in node_names or "" in rel_names:  # an empty field: the exact reader reports it
        return False
    b.add_encoded(node_names, node_codes[:n], node_codes[n:], rel_names, rel_codes)
    del node_codes, rel_codes, node_names, rel_names
    pool.release_unused()
    report.rows += n
    return True


def load_jsonl(
    path: str | os.PathLike[str],
    *,
    builder: GraphBuilder | None = None,
    skip_bad_rows: bool = False,
) -> tuple[GraphBuilder, LoadReport]:
    """Read JSONL: triple rows ``{"head","relation","tail"[,"properties"]}`` and node rows
    ``{"id"[,"name","labels","aliases","properties"]}``."""
    b = builder if builder is not None else GraphBuilder()
    src = str(path)
    report = LoadReport(source=src)
    try:
        fh = open(path, encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", source=src) from None
    with fh:
        try:
            for line_no, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                report.rows += 1
                reason = _jsonl_row(b, line)
                if reason is None:
                    continue
                if not skip_bad_rows:
                    raise InputError(reason + _FIX_HINT, source=src, line=line_no)
                report.bad(f"{src}:{line_no}: {reason}")
        except UnicodeDecodeError:
            line_no, why = _first_bad_utf8_line(path)
            raise InputError(
                f"not UTF-8 text ({why}); save the file as UTF-8", source=src, line=line_no
            ) from None
    if report.rows == 0:
        raise InputError("the file is empty; expected one JSON object per line", source=src)
    return b, report


def _jsonl_row(b: GraphBuilder, line: str) -> str | None:
    """Add one JSONL row; return a reason string when the row is bad."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"invalid JSON ({exc.msg} at column {exc.colno})"
    if not isinstance(obj, dict):
        return "expected a JSON object"
    props = obj.get("properties") or None
    if props is not None and not isinstance(props, dict):
        return "field 'properties' must be an object"
    if "head" in obj or "relation" in obj or "tail" in obj:
        for key in ("head", "relation", "tail"):
            val = obj.get(key)
            if not isinstance(val, str | int | float) or isinstance(val, bool) or str(val) == "":
                return f"field {key!r} is missing or not a non-empty string"
        b.add(str(obj["head"]), str(obj["relation"]), str(obj["tail"]), props)
        return None
    if "id" in obj:
        nid = obj["id"]
        if not isinstance(nid, str | int) or str(nid) == "":
            return "field 'id' must be a non-empty string"
        labels = obj.get("labels") or ([obj["label"]] if obj.get("label") else [])
        aliases = obj.get("aliases") or []
        if not isinstance(labels, list) or not isinstance(aliases, list):
            return "fields 'labels' and 'aliases' must be lists"
        name = obj.get("name")
        b.add_node(
            str(nid),
            name=str(name) if name is not None else None,
            labels=[str(x) for x in labels],
            aliases=[str(x) for x in aliases],
            properties=props,
        )
        return None
    return "a row needs head/relation/tail (a triplet) or id (a node record)"


def load_path(
    path: str | os.PathLike[str], *, skip_bad_rows: bool = False, uri: str | None = None
) -> tuple[MemoryGraph, LoadReport]:
    """Load a CSV/TSV/JSONL file (or a folder of them) into a MemoryGraph."""
    p = FsPath(path)
    files = sorted(f for f in p.iterdir() if f.suffix in _SUFFIXES) if p.is_dir() else [p]
    if not p.exists():
        raise InputError("no such file or folder", source=str(p))
    if not files:
        raise InputError(f"no {', '.join(_SUFFIXES)} files in this folder", source=str(p))
    b = GraphBuilder()
    total = LoadReport(source=str(p))
    for f in files:
        loader = load_jsonl if f.suffix in (".jsonl", ".ndjson") else load_csv
        _, rep = loader(f, builder=b, skip_bad_rows=skip_bad_rows)
        total.rows += rep.rows
        total.bad_rows += rep.bad_rows
        total.reasons.extend(rep.reasons[: MAX_REASONS - len(total.reasons)])
    if not len(b.heads) and not b.node_ids:
        why = (
            f" ({total.bad_rows} bad rows skipped, first: {total.reasons[0]})"
            if total.reasons
            else ""
        )
        raise InputError(f"no triplets loaded{why}", source=str(p))
    graph = b.build(uri or f"memory:{p}", total)
    del b
    _trim_heap()
    return graph, total


def _trim_heap() -> None:
    """Give freed heap pages back to the OS after a big load (glibc keeps them otherwise, and
    the reader threads' arenas would stay resident). A no-op off glibc."""
    global _MALLOC_TRIM
    if _MALLOC_TRIM is None:
        try:
            import ctypes

            _MALLOC_TRIM = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _MALLOC_TRIM = False
    if _MALLOC_TRIM:
        _MALLOC_TRIM(0)


_MALLOC_TRIM: Any = None

_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".jsonl", ".ndjson")


def demo_path() -> FsPath:
    from byokg.demo import DEMO_GRAPH

    return DEMO_GRAPH


def open_memory(uri: str, *, skip_bad_rows: bool | None = None, **_: Any) -> MemoryGraph:
    """Backend factory for ``memory:PATH`` (``memory:demo`` is the built-in demo graph).

    ``skip_bad_rows`` defaults to the ``BYOKG_SKIP_BAD_ROWS`` environment variable (``1``), so
    any command taking ``--graph memory:PATH`` can skip malformed rows; skipped rows and
    duplicates are then logged as a warning (never silent).
    """
    target = uri.split(":", 1)[1]
    if target.startswith("//"):
        target = target[2:]
    if not target:
        raise ConfigError("memory: URI needs a path, e.g. memory:triples.csv or memory:demo")
    if skip_bad_rows is None:
        skip_bad_rows = os.environ.get("BYOKG_SKIP_BAD_ROWS", "").lower() in ("1", "true", "yes")
    path = demo_path() if target == "demo" else FsPath(target).expanduser()
    graph, report = load_path(path, skip_bad_rows=skip_bad_rows, uri=uri)
    if report.bad_rows:
        logging.getLogger("byokg.backends.memory").warning(
            "%s: skipped %d bad rows (first: %s)",
            uri,
            report.bad_rows,
            "; ".join(report.reasons[:MAX_REASONS]),
        )
    return graph


@hookimpl
def register_backends(register):
    register("memory", open_memory)
