"""openCypher query builders and a GraphStore base shared by the Neo4j and Neptune backends,
and :func:`guarded_query`, the ``query()`` every Cypher backend (Kùzu too) runs.

Every builder returns query *text* with values left as parameters (``$ids``, ``$pairs`` …);
labels and relation types are validated against the store's schema by the caller and escaped
with :func:`esc` (the engine's identifier rules) before they go into the text. A backend
subclasses :class:`CypherGraphBase` and implements :meth:`CypherGraphBase._run` (one round
trip: text + params -> columns, rows). Backends import this module from the core; no backend
imports another.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from byokg.contracts import Direction
from byokg.contracts import GraphSchema
from byokg.contracts import GraphStats
from byokg.contracts import Neighborhood
from byokg.contracts import Node
from byokg.contracts import NodeLabel
from byokg.contracts import Path
from byokg.contracts import PropertyInfo
from byokg.contracts import QueryResult
from byokg.contracts import RelationPattern
from byokg.contracts import RelationType
from byokg.contracts import Triplet
from byokg.errors import ConfigError
from byokg.errors import ReadOnlyViolation
from byokg.graph.profile import profile_graph
from byokg.graph.store import BaseGraphStore
from byokg.graph.store import Capability
from byokg.graph.store import GraphSample
from byokg.graph.store import LabelSample
from byokg.graph.store import RelationSample
from byokg.graph.store import SampledNode
from byokg.graph.store import edge_multiplicity

from .lexer import UnsafeIdentifier
from .lexer import quote_identifier

# element ids: ArcadeDB "#12:345", Neo4j 5 "4:2f9c…-…:17", Neo4j 4 / Memgraph numeric ids
_ELEMENT_ID = re.compile(r"^(#\d+:\d+|\d+:[0-9a-f-]{36}:\d+|\d+)$")
MAX_SAMPLE_CHARS = 80


def esc(name: str, dialect: str = "neo4j") -> str:
    """Quote a label, relation type or property key for query text by the engine's rules
    (:func:`byokg.cypher.lexer.quote_identifier`); a name that cannot be written safely raises
    :class:`~byokg.errors.ConfigError` naming it."""
    try:
        return quote_identifier(name, dialect)
    except UnsafeIdentifier as exc:
        raise ConfigError(str(exc)) from None


def name_order(name_property: str | None, name_properties: Sequence[str] | None,
               options: Mapping[str, str]) -> tuple[str | None, tuple[str, ...]]:
    """The name property a Cypher store was given (argument, else the URI's ``name_property``)
    and every name property in the order tried, that one first."""
    names = tuple(name_properties or ())
    name_property = name_property or options.get("name_property")
    if name_property:
        names = (name_property,) + tuple(p for p in names if p != name_property)
    return name_property, names


def guarded_query(
    store: Any,
    cypher: str,
    params: Mapping[str, Any] | None,
    fetch: Callable[[str, Mapping[str, Any] | None, int | None], tuple[Sequence[str], list]],
    *,
    row_limit: int | None = None,
    procedures: Iterable[str] = (),
) -> QueryResult:
    """The ``query()`` of every backend: the read-only guard (:mod:`byokg.cypher.guard`, the one
    guard), then ``fetch(text, params, max_rows)`` -> (columns, rows of plain values) with at
    most ``row_limit + 1`` rows, then the row cap and timing."""
    from .guard import check_query

    verdict = check_query(cypher, dialect=store.dialect,
                          extra_procedures=procedures)
    if not verdict.allowed:
        raise ReadOnlyViolation(
            f"query refused by the read-only guard: {verdict.reason}; byokg only runs read "
            "queries against your graph (load data with `byokg load`)")
    t0 = time.perf_counter()
    cols, rows = fetch(verdict.normalized_query, params,
                       None if row_limit is None else row_limit + 1)
    truncated = row_limit is not None and len(rows) > row_limit
    if truncated:
        rows = rows[:row_limit]
    return QueryResult(
        columns=tuple(cols),
        rows=tuple(tuple(r) for r in rows),
        truncated=truncated,
        elapsed_ms=(time.perf_counter() - t0) * 1000,
    )


# ----------------------------------------------------------------------------- builders


@dataclass
class CypherDialect:
    """How nodes are identified and named in a property graph, and the queries that follow.

    ``id_property``: the property holding a node's byokg id (nodes without it fall back to the
    backend's own element id). ``id_label``: a label every node has (lets the database use an
    index when matching ids); None matches any node. ``name_properties``: a caller's list of
    display properties (per label the first it has; the graph's profile chooses otherwise).
    """

    id_property: str = "id"
    id_label: str | None = None
    name_properties: tuple[str, ...] = ()
    element_id_fn: str = "elementId"  # Neptune: "id"
    element_id_fallback: bool = True
    extra: dict[str, Any] = field(default_factory=dict)

    # -- fragments
    def id_expr(self, var: str) -> str:
        if self.id_property == "~id":  # Neptune: the id is the element id
            return f"{self.element_id_fn}({var})"
        return f"coalesce({var}.{esc(self.id_property)}, {self.element_id_fn}({var}))"

    def _label(self) -> str:
        return f":{esc(self.id_label)}" if self.id_label else ""

    def looks_like_element_id(self, node_id: str) -> bool:
        return bool(_ELEMENT_ID.match(node_id))

    def match_node(self, var: str, key: str, fallback: int = 1) -> str:
        """Clauses binding ``var`` to the node whose id is the expression ``key`` (rows without
        a match disappear). ``fallback`` is a bit set (callers pass only what their ids need,
        each costs a lookup): 1 — an id no node has as ``id_property`` is tried as an element
        id; 2 — a digits-only id is also tried as an integer ``id_property`` (a graph whose
        ``id`` is INTEGER: the node id ``"101"`` names ``{id: 101}``)."""
        prop = esc(self.id_property)
        elem = bool(fallback & 1) and self.element_id_fallback
        num = bool(fallback & 2) and self.id_property != "~id"
        if not (elem or num):
            return f"MATCH ({var}{self._label()} {{{prop}: {key}}})"
        q = f"OPTIONAL MATCH (_a_{var}{self._label()} {{{prop}: {key}}}) "
        found = [f"_a_{var}"]
        if num:
            q += (f"OPTIONAL MATCH (_c_{var}{self._label()} {{{prop}: toInteger({key})}}) "
                  f"WHERE _a_{var} IS NULL ")
            found.append(f"_c_{var}")
        if elem:
            none = " AND ".join(f"{x} IS NULL" for x in found)
            q += (f"OPTIONAL MATCH (_b_{var}) WHERE {none} "
                  f"AND {self.element_id_fn}(_b_{var}) = {key} ")
            found.append(f"_b_{var}")
        return q + f"WITH *, coalesce({', '.join(found)}) AS {var} WHERE {var} IS NOT NULL"

    # -- queries
    def get_nodes(self, fb: int = 1) -> str:
        return (
            f"UNWIND $ids AS i {self.match_node('n', 'i', fb)} "
            f"RETURN i AS id, labels(n) AS labels, properties(n) AS props"
        )

    def node_names(self, props: Sequence[str] = ()) -> str:
        """Every node's id and labels, and the properties its display rule reads (``v0``…)."""
        cols = "".join(f", n.{esc(p)} AS v{i}" for i, p in enumerate(props))
        return f"MATCH (n) RETURN {self.id_expr('n')} AS id, labels(n) AS labels{cols}"

    def node_names_page(self, props: Sequence[str] = ()) -> str:
        return (self.node_names(props)
                + f" ORDER BY {self.element_id_fn}(n) SKIP $skip LIMIT $limit")

    def neighbors(
        self, direction: Direction, rel_types: Sequence[str] | None, capped: bool, fb: int = 1
    ) -> str:
        """Per id: ``total`` edges and ``rows`` = [type, other id, outgoing?, properties], out-edges
        first (each direction matched on its own: undirected patterns are slower on ArcadeDB)."""
        rel = ":" + "|".join(esc(r) for r in rel_types) if rel_types else ""
        cap = "[0..$cap]" if capped else ""

        def side(out: bool, acc: str, keep: str) -> str:
            pat = f"(n)-[r{rel}]->(m)" if out else f"(n)<-[r{rel}]-(m)"
            row = f"[type(r), {self.id_expr('m')}, {'true' if out else 'false'}, properties(r)]"
            return (
                f"OPTIONAL MATCH {pat} "
                f"WITH {keep}, collect(CASE WHEN r IS NULL THEN NULL ELSE {row} END) AS {acc} "
            )

        q = f"UNWIND $ids AS i {self.match_node('n', 'i', fb)} WITH i, n "
        if direction == Direction.OUT:
            return q + side(True, "o", "i, n") + f"RETURN i, size(o) AS total, o{cap} AS rows"
        if direction == Direction.IN:
            return q + side(False, "x", "i, n") + f"RETURN i, size(x) AS total, x{cap} AS rows"
        return (
            q + side(True, "o", "i, n") + side(False, "x", "i, o")
            + f"RETURN i, size(o) + size(x) AS total, (o + x){cap} AS rows"
        )

    def degrees(self, direction: Direction, fb: int = 1) -> str:
        pat = {Direction.OUT: "-[r]->()", Direction.IN: "<-[r]-()", Direction.BOTH: "-[r]-()"}[
            direction
        ]
        return (
            f"UNWIND $ids AS i {self.match_node('n', 'i', fb)} "
            f"OPTIONAL MATCH (n){pat} RETURN i, count(r) AS degree"
        )

    def shortest_paths(self, max_hops: int, k: int, fb: int = 1) -> str:
        fn = "shortestPath" if k <= 1 else "allShortestPaths"
        return (
            f"UNWIND $pairs AS pr WITH pr[0] AS s, pr[1] AS t "
            f"{self.match_node('a', 's', fb)} {self.match_node('b', 't', fb)} "
            f"WITH s, t, a, b WHERE a <> b "
            f"MATCH p = {fn}((a)-[*..{int(max_hops)}]-(b)) "
            f"RETURN s, t, [x IN nodes(p) | {self.id_expr('x')}] AS ns, "
            f"[r IN relationships(p) | type(r)] AS rs, "
            f"[r IN relationships(p) | {self.id_expr('startNode(r)')}] AS starts"
        )

    # -- schema
    def label_count(self, label: str) -> str:
        return f"MATCH (n:{esc(label)}) RETURN count(n) AS c"

    def label_sample(self, label: str) -> str:
        return (f"MATCH (n:{esc(label)}) WITH n LIMIT $n "
                f"RETURN {self.id_expr('n')} AS id, labels(n) AS labels, properties(n) AS p")

    def rel_count(self, rel: str) -> str:
        return f"MATCH ()-[r:{esc(rel)}]->() RETURN count(r) AS c"

    def rel_ends(self, rel: str, *, heads: bool) -> str:
        """Distinct heads (or tails) of a relationship type per (first) label: its coverage."""
        pat = f"(a)-[r:{esc(rel)}]->()" if heads else f"()-[r:{esc(rel)}]->(a)"
        return f"MATCH {pat} RETURN head(labels(a)) AS l, count(DISTINCT a) AS c"

    def rel_sample(self, rel: str) -> str:
        return (
            f"MATCH (a)-[r:{esc(rel)}]->(b) WITH a, r, b LIMIT $n "
            f"RETURN labels(a) AS src, labels(b) AS dst, {self.id_expr('a')} AS a, "
            f"{self.id_expr('b')} AS b, properties(r) AS p"
        )

    def rel_examples(self, rel: str) -> str:
        return (
            f"MATCH (a)-[r:{esc(rel)}]->(b) WITH a, b LIMIT $n "
            f"RETURN {self.id_expr('a')} AS a, labels(a) AS al, properties(a) AS ap, "
            f"{self.id_expr('b')} AS b, labels(b) AS bl, properties(b) AS bp"
        )

    def labels_fallback(self) -> str:
        return "MATCH (n) WITH n LIMIT $n UNWIND labels(n) AS l RETURN DISTINCT l AS label"

    def rels_fallback(self) -> str:
        return "MATCH ()-[r]->() WITH r LIMIT $n RETURN DISTINCT type(r) AS relationshipType"


# ----------------------------------------------------------------------------- base store


def _short(v: Any) -> Any:
    if isinstance(v, str) and len(v) > MAX_SAMPLE_CHARS:
        return v[: MAX_SAMPLE_CHARS - 1] + "…"
    return v


def _plain(v: Any) -> Any:
    """A JSON-friendly value (lists/dicts kept, temporal/spatial values as strings)."""
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return str(v)


def _record_path(rec: Mapping[str, Any]) -> Path:
    """The path of one shortest-path record: node ids ``ns``, relation types ``rs`` and each
    relationship's start node ``starts`` (a hop whose start is not the node before it was
    walked against the stored direction)."""
    ns = [str(x) for x in rec["ns"]]
    inv = tuple(str(st) != ns[j] for j, st in enumerate(rec["starts"]))
    return Path(nodes=tuple(ns), relations=tuple(rec["rs"]), inverted=inv)


class GuardedQueries:
    """``query()`` of every Cypher backend: byokg's guard (:func:`guarded_query`), then the
    backend's ``_fetch(text, params, timeout_s, max_rows) -> (columns, plain rows)``."""

    def _fetch(self, text: str, params: Mapping[str, Any] | None, timeout_s: float | None,
               max_rows: int | None) -> tuple[list[str], list[list[Any]]]:
        raise NotImplementedError

    def query(
        self,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        row_limit: int | None = None,
        procedures: Iterable[str] = (),
    ) -> QueryResult:
        """Run read-only Cypher: refused by the guard unless it is one read statement."""
        return guarded_query(
            self, cypher, params,
            lambda text, p, max_rows: self._fetch(text, p, timeout_s, max_rows),
            row_limit=row_limit, procedures=procedures)


class CypherGraphBase(GuardedQueries, BaseGraphStore):
    """GraphStore methods over any openCypher endpoint: subclasses implement :meth:`_run`."""

    profiler = staticmethod(profile_graph)  # the graph's profile, built on first use

    dialect: str = "opencypher"
    max_labels: int = 100  # schema size bounds (the schema goes into prompts)
    max_relations: int = 200
    max_properties: int = 30
    schema_sample_nodes: int = 50

    def __init__(self, uri: str, cyp: CypherDialect) -> None:
        self.uri = uri
        self.cyp = cyp
        self._schema: dict[int, GraphSchema] = {}
        self._labels: list[str] | None = None
        self._rels: list[str] | None = None

    # -- to implement
    def _run(
        self, cypher: str, params: Mapping[str, Any] | None = None, *, timeout_s: float | None = None
    ) -> tuple[list[str], list[list[Any]]]:
        raise NotImplementedError

    def _records(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        cols, rows = self._run(cypher, params)
        return [dict(zip(cols, r, strict=False)) for r in rows]

    def _typed_records(self, cypher: str, params: Mapping[str, Any] | None = None,
                       ) -> list[dict[str, Any]]:
        """Like :meth:`_records`, with values in their Python types where the driver has them
        (dates as ``datetime.date``); a backend whose rows are plain already inherits this."""
        return self._records(cypher, params)

    def _list_labels(self) -> list[str]:
        return [r["label"] for r in self._records(self.cyp.labels_fallback(), {"n": 10_000})]

    def _list_rels(self) -> list[str]:
        return [
            r["relationshipType"] for r in self._records(self.cyp.rels_fallback(), {"n": 100_000})
        ]

    def _fb(self, ids: Sequence[str]) -> int:
        """The id fallbacks these ids need (:meth:`CypherDialect.match_node`): 1 when some id
        looks like an element id, 2 when some id is digits only (an INTEGER id property)."""
        elem = self.cyp.element_id_fallback and any(map(self.cyp.looks_like_element_id, ids))
        num = any(i.lstrip("-").isdigit() for i in ids)
        return int(elem) | (2 * num)

    # -- schema
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = sorted(str(x) for x in self._list_labels())
        return self._labels

    def relation_types(self) -> list[str]:
        if self._rels is None:
            self._rels = sorted(str(x) for x in self._list_rels())
        return self._rels

    def valid_relations(self, relations: Sequence[str]) -> list[str]:
        """The requested relation types that exist (others cannot match anything)."""
        known = set(self.relation_types())
        return [r for r in dict.fromkeys(relations) if r in known]

    def schema(self, *, samples: int = 3) -> GraphSchema:
        if samples in self._schema:
            return self._schema[samples]
        labels = []
        for lab in self.labels()[: self.max_labels]:
            (cnt,) = self._run(self.cyp.label_count(lab))[1][0]
            props: dict[str, list[Any]] = {}
            if samples:
                for rec in self._records(
                    self.cyp.label_sample(lab), {"n": max(samples, self.schema_sample_nodes)}
                ):
                    for k, v in (rec["p"] or {}).items():
                        if len(props) >= self.max_properties and k not in props:
                            continue
                        vals = props.setdefault(k, [])
                        v = _short(_plain(v))
                        if len(vals) < samples and v not in vals:
                            vals.append(v)
            labels.append(
                NodeLabel(
                    name=lab,
                    count=int(cnt),
                    properties=tuple(
                        PropertyInfo(name=k, type=_type_name(v), samples=tuple(v))
                        for k, v in props.items()
                    ),
                )
            )
        rels = []
        for rel in self.relation_types()[: self.max_relations]:
            (cnt,) = self._run(self.cyp.rel_count(rel))[1][0]
            pats: dict[tuple[str, str], None] = {}
            samp: list[tuple[str, str]] = []
            rprops: dict[str, list[Any]] = {}
            recs = self._records(self.cyp.rel_sample(rel), {"n": max(samples, 20)})
            names = self.display_names([str(x) for rec in recs[:samples] for x in
                                        (rec["a"], rec["b"])]) if samples else {}
            for rec in recs:
                src = (rec["src"] or ["?"])[0]
                dst = (rec["dst"] or ["?"])[0]
                pats[(str(src), str(dst))] = None
                if len(samp) < samples:
                    samp.append((str(_short(names.get(str(rec["a"]), rec["a"]))),
                                 str(_short(names.get(str(rec["b"]), rec["b"])))))
                for k, v in (rec["p"] or {}).items():
                    vals = rprops.setdefault(k, [])
                    if len(vals) < samples and _short(_plain(v)) not in vals:
                        vals.append(_short(_plain(v)))
            rels.append(
                RelationType(
                    name=rel,
                    count=int(cnt),
                    patterns=tuple(RelationPattern(src=s, dst=d) for s, d in pats),
                    properties=tuple(PropertyInfo(name=k, samples=tuple(v)) for k, v in rprops.items()),
                    samples=tuple(samp),
                )
            )
        out = GraphSchema(node_labels=tuple(labels), relation_types=tuple(rels))
        self._schema[samples] = out
        return out

    def stats(self) -> GraphStats:
        (n,) = self._run("MATCH (n) RETURN count(n) AS c")[1][0]
        (e,) = self._run("MATCH ()-[r]->() RETURN count(r) AS c")[1][0]
        return GraphStats(
            nodes=int(n),
            triplets=int(e),
            relations=len(self.relation_types()),
            labels=len(self.labels()),
        )

    # -- nodes
    def _node(self, nid: str, labels: Sequence[str], props: Mapping[str, Any]) -> Node:
        labels = tuple(str(x) for x in labels or ())
        props = {k: _plain(v) for k, v in (props or {}).items()}
        name, aliases = self.name_node(nid, labels, props)
        rule = self.rule_for(labels)
        own = props.pop("aliases", None)
        if isinstance(own, list) and "aliases" not in rule.aliases:
            aliases = tuple(dict.fromkeys([*aliases, *(str(a) for a in own)]))
        props.pop(self.cyp.id_property, None)
        return Node(id=nid, name=name, labels=labels, aliases=aliases, properties=props)

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node | None]:
        ids = [str(i) for i in dict.fromkeys(ids)]
        out: dict[str, Node | None] = dict.fromkeys(ids)
        if ids:
            for rec in self._records(self.cyp.get_nodes(self._fb(ids)), {"ids": ids}):
                out[rec["id"]] = self._node(rec["id"], rec["labels"], rec["props"])
        return out

    def name_columns(self) -> list[str]:
        """Every property a display rule reads (the columns of the node-name queries)."""
        return list(dict.fromkeys(p for r in self.display_rules().values() for p in r.properties))

    def names_of_record(self, rec: Mapping[str, Any], cols: Sequence[str]) -> list[tuple[str, str]]:
        """``(id, name)`` and ``(id, alias)`` pairs of one node-name query record."""
        nid = str(rec["id"])
        props = {p: rec.get(f"v{i}") for i, p in enumerate(cols)}
        name, aliases = self.name_node(nid, rec.get("labels") or (), props)
        return [(nid, name), *((nid, a) for a in aliases)]

    def iter_node_names(self, batch_size: int = 10_000) -> Iterator[list[tuple[str, str]]]:
        skip = 0
        cols = self.name_columns()
        while True:
            recs = self._records(self.cyp.node_names_page(cols),
                                 {"skip": skip, "limit": batch_size})
            batch = [pair for r in recs for pair in self.names_of_record(r, cols)]
            if batch:
                yield batch
            if len(recs) < batch_size:
                return
            skip += batch_size

    # -- profile
    def profile_fingerprint(self) -> str:
        """Labels, relationship types and the total node and edge counts (4 queries at most)."""
        import hashlib

        (n,) = self._run("MATCH (n) RETURN count(n) AS c")[1][0]
        (e,) = self._run("MATCH ()-[r]->() RETURN count(r) AS c")[1][0]
        text = f"{self.labels()}|{self.relation_types()}|{n}|{e}"
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def _rel_ends(self, rel: str) -> tuple[dict[str, int] | None, dict[str, int] | None]:
        """Distinct heads and tails per label of ``rel`` (None when the database cannot count
        them: the sample's repeats decide the cardinality then)."""
        out: list[dict[str, int] | None] = []
        for heads in (True, False):
            try:
                recs = self._records(self.cyp.rel_ends(rel, heads=heads))
                out.append({str(r["l"]): int(r["c"]) for r in recs if r.get("l") is not None})
            except Exception:  # noqa: BLE001 - the counts are a help, not required
                out.append(None)
        return out[0], out[1]

    def _label_types(self) -> dict[str, dict[str, str]]:
        """Property types per label from the store's catalogue (none by default)."""
        return {}

    def _rel_types(self) -> dict[str, dict[str, str]]:
        return {}

    def _rel_pairs(self) -> dict[str, list[tuple[str, str]]]:
        """(domain, range) label pairs per relationship type from the catalogue (none here)."""
        return {}

    def profile_sample(self, *, nodes_per_label: int = 200, edges_per_type: int = 200,
                       examples: int = 3) -> GraphSample:
        """Per label a count and ``nodes_per_label`` nodes; per relationship type a count,
        ``edges_per_type`` edges and ``examples`` example ends: 2 queries per label and 3 per
        type, for at most ``max_labels`` labels and ``max_relations`` types."""
        queries = 2
        ltypes, rtypes, rpairs = self._label_types(), self._rel_types(), self._rel_pairs()
        hints = self.cyp.name_properties
        labels = []
        for lab in self.labels()[: self.max_labels]:
            (cnt,) = self._run(self.cyp.label_count(lab))[1][0]
            recs = self._typed_records(self.cyp.label_sample(lab), {"n": nodes_per_label})
            queries += 2
            nodes = tuple(SampledNode(id=str(r["id"]), labels=tuple(map(str, r["labels"] or ())),
                                      properties=dict(r["p"] or {})) for r in recs)
            have = {k for nd in nodes for k in nd.properties}
            key = self.cyp.id_property if self.cyp.id_property in have else None
            hint = next((p for p in hints if p in have), None)
            labels.append(LabelSample(name=lab, count=int(cnt), key=key,
                                      types=ltypes.get(lab, {}), nodes=nodes, hint=hint))
        rels = []
        for rel in self.relation_types()[: self.max_relations]:
            (cnt,) = self._run(self.cyp.rel_count(rel))[1][0]
            recs = self._typed_records(self.cyp.rel_sample(rel), {"n": edges_per_type})
            ex = self._typed_records(self.cyp.rel_examples(rel), {"n": examples})
            queries += 3
            pairs = dict.fromkeys(rpairs.get(rel, []))
            for r in recs:
                pairs[(str((r["src"] or ["?"])[0]), str((r["dst"] or ["?"])[0]))] = None
            hc, tc = self._rel_ends(rel)
            queries += 2
            many = edge_multiplicity(int(cnt), [str(r["a"]) for r in recs],
                                     [str(r["b"]) for r in recs], hc, tc)
            rels.append(RelationSample(
                name=rel, count=int(cnt), pairs=tuple(pairs), types=rtypes.get(rel, {}),
                heads=hc, tails=tc, **many,
                edges=tuple(dict(r["p"] or {}) for r in recs),
                examples=tuple((SampledNode(id=str(x["a"]), labels=tuple(x["al"] or ()),
                                            properties=dict(x["ap"] or {})),
                                SampledNode(id=str(x["b"]), labels=tuple(x["bl"] or ()),
                                            properties=dict(x["bp"] or {}))) for x in ex)))
        notes = []
        if len(self.labels()) > self.max_labels:
            notes.append(f"{len(self.labels()) - self.max_labels} labels beyond the first "
                         f"{self.max_labels} were not profiled")
        if len(self.relation_types()) > self.max_relations:
            notes.append(f"{len(self.relation_types()) - self.max_relations} relationship types "
                         f"beyond the first {self.max_relations} were not profiled")
        return GraphSample(labels=tuple(labels), relations=tuple(rels), dialect=self.dialect,
                           queries=queries, notes=tuple(notes))

    # -- traversal
    def neighbors(
        self,
        ids: Sequence[str],
        *,
        direction: Direction = Direction.BOTH,
        relations: Sequence[str] | None = None,
        limit_per_node: int | None = None,
    ) -> dict[str, Neighborhood]:
        direction = Direction(direction)
        ids = [str(i) for i in dict.fromkeys(ids)]
        out = {i: Neighborhood(node=i) for i in ids}
        rels = None
        if relations is not None:
            rels = self.valid_relations(relations)
            if not rels:
                return out
        if not ids:
            return out
        params: dict[str, Any] = {"ids": ids}
        if limit_per_node is not None:
            params["cap"] = int(limit_per_node)
        q = self.cyp.neighbors(direction, rels, limit_per_node is not None, self._fb(ids))
        for rec in self._records(q, params):
            i = rec["i"]
            trips = []
            for rtype, mid, is_out, props in rec["rows"]:
                mid = str(mid)
                props = _plain(props) or {}
                if is_out:
                    trips.append(Triplet(head=i, relation=rtype, tail=mid, properties=props))
                else:
                    trips.append(Triplet(head=mid, relation=rtype, tail=i, properties=props))
            total = int(rec["total"])
            out[i] = Neighborhood(
                node=i, triplets=tuple(trips), total=total, truncated=len(trips) < total
            )
        return out

    def degrees(self, ids: Sequence[str], *, direction: Direction = Direction.BOTH) -> dict[str, int]:
        ids = [str(i) for i in dict.fromkeys(ids)]
        out = dict.fromkeys(ids, 0)
        if ids:
            q = self.cyp.degrees(Direction(direction), self._fb(ids))
            for rec in self._records(q, {"ids": ids}):
                out[rec["i"]] = int(rec["degree"])
        return out

    def shortest_paths(
        self, pairs: Sequence[tuple[str, str]], *, max_hops: int = 3, k: int = 1
    ) -> dict[tuple[str, str], list[Path]]:
        pairs = [(str(a), str(b)) for a, b in dict.fromkeys(tuple(p) for p in pairs)]
        out: dict[tuple[str, str], list[Path]] = {p: [] for p in pairs}
        todo = [list(p) for p in pairs if p[0] != p[1]]
        if todo:
            fb = self._fb([x for p in todo for x in p])
            for rec in self._records(self.cyp.shortest_paths(max_hops, k, fb), {"pairs": todo}):
                key = (rec["s"], rec["t"])
                path = _record_path(rec)
                if key in out and len(out[key]) < k and path not in out[key]:
                    out[key].append(path)
        self._zero_hop_paths(pairs, out)
        return out

    def _zero_hop_paths(self, pairs: Sequence[tuple[str, str]],
                        out: dict[tuple[str, str], list[Path]]) -> None:
        """A pair ``(a, a)`` gets the zero-hop path ``(a,)`` if the node exists."""
        same = [p for p in pairs if p[0] == p[1]]
        if same:
            found = self.get_nodes([a for a, _ in same])
            for a, b in same:
                if found.get(a) is not None:
                    out[(a, b)] = [Path(nodes=(a,))]

    # -- cypher
    def _fetch(self, text: str, params: Mapping[str, Any] | None, timeout_s: float | None,
               max_rows: int | None) -> tuple[list[str], list[list[Any]]]:
        return _plain_rows(self._run(text, params, timeout_s=timeout_s))

    def close(self) -> None:
        from .worker import close_pool

        close_pool(self)

    def declared_capabilities(self) -> set[str]:
        return {Capability.CYPHER}


def _plain_rows(result: tuple[list[str], list[list[Any]]]) -> tuple[list[str], list[list[Any]]]:
    cols, rows = result
    return cols, [[_plain(v) for v in r] for r in rows]


def _type_name(vals: Sequence[Any]) -> str | None:
    for v in vals:
        if v is not None:
            return type(v).__name__
    return None
