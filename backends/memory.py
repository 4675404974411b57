"""In-memory graph store (``memory:PATH``).

The paper's "dict from node to its one-hop triplets", but compact: node and relation names are
interned to ints and edges live in numpy CSR arrays for both directions, so every node (heads
and tails) is indexed and 1.5M triplets fit in a few hundred MB.

Loaders: CSV/TSV triples (``head,relation,tail``; header optional; delimiter sniffed), JSONL
(``{"head","relation","tail"}`` rows with optional ``properties``, plus optional node records
``{"id", "name", "labels", "aliases", "properties"}``), and networkx (Multi)DiGraphs.
"""

from __future__ import annotations

import csv
import io
import json
import os
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
_HEADER_NAMES = {
    ("head", "relation", "tail"),
    ("subject", "predicate", "object"),
    ("h", "r", "t"),
    ("source", "relation", "target"),
    ("src", "rel", "dst"),
    ("head", "rel", "tail"),
}
MAX_REASONS = 5


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


class GraphBuilder:
    """Accumulates triplets and node records, then freezes into a :class:`MemoryGraph`."""

    def __init__(self) -> None:
        self.node_index: dict[str, int] = {}
        self.node_ids: list[str] = []
        self.rel_index: dict[str, int] = {}
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

    def add(self, head: str, relation: str, tail: str, properties: dict[str, Any] | None = None) -> None:
        if properties:
            self.edge_props[len(self.heads)] = dict(properties)
        self.heads.append(self.node(head))
        self.rels.append(self.relation(relation))
        self.tails.append(self.node(tail))

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
            self.aliases[idx] = tuple(dict.fromkeys(list(self.aliases.get(idx, ())) + list(aliases)))
        if properties:
            self.node_props.setdefault(idx, {}).update(properties)

    def build(self, uri: str = "memory:", report: LoadReport | None = None) -> MemoryGraph:
        heads = np.frombuffer(self.heads, dtype=np.int32)
        rels = np.frombuffer(self.rels, dtype=np.int32)
        tails = np.frombuffer(self.tails, dtype=np.int32)
        n_nodes = len(self.node_ids)
        # Deduplicate (head, relation, tail); keep the first occurrence (and its properties).
        keys = (heads.astype(np.int64) * max(len(self.rel_names), 1) + rels) * max(n_nodes, 1) + tails
        _, first = np.unique(keys, return_index=True)
        first.sort()
        dups = len(heads) - len(first)
        if dups:
            heads, rels, tails = heads[first], rels[first], tails[first]
            remap = {int(old): new for new, old in enumerate(first) if int(old) in self.edge_props}
            edge_props = {remap[o]: p for o, p in self.edge_props.items() if o in remap}
        else:
            heads, rels, tails = heads.copy(), rels.copy(), tails.copy()
            edge_props = self.edge_props
        if report is not None:
            report.duplicates += dups
            report.triplets = len(heads)
        return MemoryGraph(
            uri=uri,
            node_ids=self.node_ids,
            node_index=self.node_index,
            rel_names=self.rel_names,
            rel_index=self.rel_index,
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


def _csr(src: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(ptr, order): edges of node i are order[ptr[i]:ptr[i+1]], in insertion order."""
    order = np.argsort(src, kind="stable").astype(np.int32)
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
        n = len(node_ids)
        self.out_ptr, self.out_edges = _csr(heads, n)
        self.in_ptr, self.in_edges = _csr(tails, n)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_triplets(
        cls, triplets: Iterable[Triplet | tuple[str, str, str]], uri: str = "memory:"
    ) -> MemoryGraph:
        b = GraphBuilder()
        for t in triplets:
            if isinstance(t, Triplet):
                b.add(t.head, t.relation, t.tail, t.properties or None)
            else:
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
        if not graph.is_directed():
            raise InputError("an undirected graph has no edge direction; pass a DiGraph", source="networkx graph")
        return b.build(uri)

    # ------------------------------------------------------------------ helpers
    def _idx(self, node_id: str) -> int | None:
        return self._index.get(node_id)

    def _node(self, i: int) -> Node:
        nid = self._ids[i]
        return Node.model_construct(
            id=nid,
            name=self._names.get(i, nid),
            labels=self._labels.get(i, (DEFAULT_LABEL,)),
            aliases=self._aliases.get(i, ()),
            properties=self._node_props.get(i, {}),
        )

    def _triplet(self, e: int) -> Triplet:
        return Triplet.model_construct(
            head=self._ids[self.heads[e]],
            relation=self._rels[self.rels[e]],
            tail=self._ids[self.tails[e]],
            properties=self._edge_props.get(e, {}),
        )

    def _edges_of(self, i: int, direction: Direction) -> np.ndarray:
        parts = []
        if direction in (Direction.OUT, Direction.BOTH):
            parts.append(self.out_edges[self.out_ptr[i] : self.out_ptr[i + 1]])
        if direction in (Direction.IN, Direction.BOTH):
            parts.append(self.in_edges[self.in_ptr[i] : self.in_ptr[i + 1]])
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def relation_ids(self, relations: Sequence[str]) -> np.ndarray:
        return np.array([self._rel_index[r] for r in relations if r in self._rel_index], dtype=np.int32)

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
            for i, labs in ((i, self._labels.get(i, (DEFAULT_LABEL,))) for i in range(min(n, 50_000))):
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
                    properties=tuple(PropertyInfo(name=k, samples=tuple(v)) for k, v in props.items()),
                )
            )
        rel_counts = np.bincount(self.rels, minlength=len(self._rels)) if len(self.rels) else np.zeros(0)
        # first few edge indices of each relation, for samples
        rel_types = []
        first_edges: dict[int, list[int]] = {}
        if samples:
            order = np.argsort(self.rels, kind="stable")
            starts = np.searchsorted(self.rels[order], np.arange(len(self._rels)))
            for r in range(len(self._rels)):
                first_edges[r] = [int(e) for e in order[starts[r] : starts[r] + samples]]
        for r, name in enumerate(self._rels):
            edges = first_edges.get(r, [])
            pats: dict[tuple[str, str], None] = {}
            for e in edges:
                src = self._labels.get(int(self.heads[e]), (DEFAULT_LABEL,))[0]
                dst = self._labels.get(int(self.tails[e]), (DEFAULT_LABEL,))[0]
                pats[(src, dst)] = None
            if not pats:
                pats[(DEFAULT_LABEL, DEFAULT_LABEL)] = None
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
        direction = Direction(direction)
        rel_filter = self.relation_ids(relations) if relations is not None else None
        out: dict[str, Neighborhood] = {}
        for nid in ids:
            i = self._index.get(nid)
            if i is None:
                out[nid] = Neighborhood.model_construct(node=nid, triplets=(), total=0, truncated=False)
                continue
            edges = self._edges_of(i, direction)
            if rel_filter is not None:
                edges = edges[np.isin(self.rels[edges], rel_filter)] if len(rel_filter) else edges[:0]
            total = len(edges)
            if limit_per_node is not None and total > limit_per_node:
                edges = edges[:limit_per_node]
            out[nid] = Neighborhood.model_construct(
                node=nid,
                triplets=tuple(self._triplet(int(e)) for e in edges),
                total=total,
                truncated=len(edges) < total,
            )
        return out

    def degrees(self, ids: Sequence[str], *, direction: Direction = Direction.BOTH) -> dict[str, int]:
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


def load_csv(
    path: str | os.PathLike[str],
    *,
    builder: GraphBuilder | None = None,
    skip_bad_rows: bool = False,
    delimiter: str | None = None,
) -> tuple[GraphBuilder, LoadReport]:
    """Read ``head,relation,tail`` rows (header optional, delimiter sniffed).

    A row without exactly three non-empty fields is an :class:`InputError` naming file and line,
    or with ``skip_bad_rows`` is counted and its reason kept in the report.
    """
    b = builder or GraphBuilder()
    src = str(path)
    report = LoadReport(source=src)
    try:
        fh = open(path, encoding="utf-8", newline="")
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", source=src) from None
    with fh:
        first = fh.readline()
        if not first:
            raise InputError("the file is empty; expected head,relation,tail rows", source=src)
        delim = delimiter or _sniff_delimiter(first, src)
        reader = csv.reader(io.StringIO(first), delimiter=delim)
        header = next(reader, [])
        start_line = 1
        if tuple(h.strip().lower() for h in header) not in _HEADER_NAMES:
            fh.seek(0)
            start_line = 0
        reader = csv.reader(fh, delimiter=delim, strict=True)
        add = b.add
        line = start_line
        try:
            for line_no, row in enumerate(reader, start=start_line + 1):
                line = line_no
                report.rows += 1
                if len(row) == 3 and row[0] and row[1] and row[2]:
                    add(row[0], row[1], row[2])
                    continue
                if not row:  # blank line
                    report.rows -= 1
                    continue
                reason = (
                    f"expected 3 fields (head{delim}relation{delim}tail), found {len(row)}"
                    if len(row) != 3
                    else f"empty {['head', 'relation', 'tail'][[bool(x) for x in row].index(False)]}"
                )
                if not skip_bad_rows:
                    raise InputError(
                        reason + "; fix the row or pass --skip-bad-rows", source=src, line=line_no
                    )
                report.bad(f"line {line_no}: {reason}")
        except csv.Error as exc:
            raise InputError(f"unreadable CSV: {exc}", source=src, line=line + 1) from None
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc.reason})", source=src) from None
    return b, report


def load_jsonl(
    path: str | os.PathLike[str],
    *,
    builder: GraphBuilder | None = None,
    skip_bad_rows: bool = False,
) -> tuple[GraphBuilder, LoadReport]:
    """Read JSONL: triple rows ``{"head","relation","tail"[,"properties"]}`` and node rows
    ``{"id"[,"name","labels","aliases","properties"]}``."""
    b = builder or GraphBuilder()
    src = str(path)
    report = LoadReport(source=src)
    try:
        fh = open(path, encoding="utf-8")
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
                    raise InputError(reason + "; fix the row or pass --skip-bad-rows", source=src, line=line_no)
                report.bad(f"line {line_no}: {reason}")
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc.reason})", source=src) from None
    if report.rows == 0:
        raise InputError("the file has no rows", source=src)
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
        raise InputError("no triplets loaded", source=str(p))
    graph = b.build(uri or f"memory:{p}", total)
    return graph, total


_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".jsonl", ".ndjson")


def demo_path() -> FsPath:
    from byokg.demo import DEMO_GRAPH

    return DEMO_GRAPH


def open_memory(uri: str, *, skip_bad_rows: bool = False, **_: Any) -> MemoryGraph:
    """Backend factory for ``memory:PATH`` (``memory:demo`` is the built-in demo graph)."""
    target = uri.split(":", 1)[1]
    if target.startswith("//"):
        target = target[2:]
    if not target:
        raise ConfigError("memory: URI needs a path, e.g. memory:triples.csv or memory:demo")
    path = demo_path() if target == "demo" else FsPath(target).expanduser()
    graph, _ = load_path(path, skip_bad_rows=skip_bad_rows, uri=uri)
    return graph


@hookimpl
def register_backends(register):
    register("memory", open_memory)
