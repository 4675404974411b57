"""FalkorDB graph store (``falkordb://[user:password@]HOST:PORT/GRAPH``, client PyPI
``falkordb``) and ``byokg load --into falkordb://…``.

FalkorDB is a Redis module; a graph is a Redis key. Every read goes through ``GRAPH.RO_QUERY``,
which the server itself refuses to run for anything that writes, after byokg's read-only guard
(dialect ``falkordb``: its functions and read-only procedures are on the allow-lists, its
EXPLAIN plan is checked for write operators). Values always travel as parameters (the client
sends them in FalkorDB's ``CYPHER name=value`` header, quoted and escaped; never pasted into the
query text). The GraphStore methods are the shared openCypher ones
(:class:`byokg.cypher.storecommon.CypherGraphBase`: one query per id batch for neighbours and
degrees) with FalkorDB's differences: ``id(n)`` instead of ``elementId``, shortest paths in
both directions through ``algo.SPpaths`` (FalkorDB's ``shortestPath`` is directed only),
labels and relationship types from ``db.labels()`` / ``db.relationshipTypes()``, full-text
search over the ``db.idx.fulltext`` node indexes the loader creates. Only :func:`load_falkordb`
writes (``GRAPH.QUERY``), into a graph key that does not exist yet.

URI options: ``?timeout=SECONDS&id_property=id&name_property=P&display=Label.prop``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs
from urllib.parse import unquote
from urllib.parse import urlsplit

from byokg.contracts import Path
from byokg.cypher.cypherload import load_property_graph
from byokg.cypher.cypherload import load_triples
from byokg.cypher.storecommon import CypherDialect
from byokg.cypher.storecommon import CypherGraphBase
from byokg.cypher.storecommon import _plain
from byokg.cypher.storecommon import _record_path
from byokg.cypher.storecommon import esc
from byokg.cypher.storecommon import name_order
from byokg.errors import BackendError
from byokg.errors import CapabilityError
from byokg.errors import ConfigError
from byokg.errors import QueryError
from byokg.graph.store import Capability
from byokg.hookspecs import hookimpl
from byokg.io.loading import LoadSummary

SCHEME = "falkordb"
URI_OPTIONS = ("id_property", "name_property", "timeout")
DEFAULT_TIMEOUT_S = 30.0
LOAD_BATCH = 5_000
_FT_SPECIAL = re.compile(r"[^\w\s]", re.UNICODE)  # RediSearch query syntax: words only


def redact(uri: str) -> str:
    """The URI without its password (for messages and ``store.uri``)."""
    parts = urlsplit(uri)
    if parts.password is None:
        return uri
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=netloc).geturl()


def parse_uri(uri: str) -> dict[str, Any]:
    """Host, port, graph name, credentials and byokg options of a ``falkordb://`` URI."""
    parts = urlsplit(uri)
    if parts.scheme.lower() != SCHEME:
        raise ConfigError(f"{redact(uri)!r}: a FalkorDB URI starts with falkordb://")
    if not parts.hostname:
        raise ConfigError(f"{redact(uri)!r} has no host; use e.g. "
                          "falkordb://localhost:6379/GRAPH")
    graph = unquote(parts.path.strip("/"))
    if not graph or "/" in graph:
        raise ConfigError(f"{redact(uri)!r}: name one graph after the port, e.g. "
                          "falkordb://localhost:6379/movies")
    query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    unknown = [k for k in query if k not in URI_OPTIONS]
    if unknown:
        raise ConfigError(f"{redact(uri)!r}: unknown option {unknown[0]!r} (falkordb: URIs "
                          f"accept {', '.join(['display', *URI_OPTIONS])})")
    try:
        port = parts.port or 6379
    except ValueError:
        raise ConfigError(f"{redact(uri)!r}: the port is not a number") from None
    return {"host": parts.hostname, "port": port, "graph": graph,
            "username": unquote(parts.username) if parts.username else None,
            "password": unquote(parts.password) if parts.password is not None else None,
            "options": query}


def _client(parsed: Mapping[str, Any], connect_timeout: float) -> Any:
    try:
        from falkordb import FalkorDB
    except ImportError as exc:
        raise BackendError(f"the FalkorDB client is not installed ({exc}): "
                           "pip install 'byokg[falkordb]'") from None
    try:
        return FalkorDB(host=parsed["host"], port=parsed["port"], username=parsed["username"],
                        password=parsed["password"], socket_timeout=None,
                        socket_connect_timeout=connect_timeout)
    except Exception as exc:  # noqa: BLE001 - redis raises many types: name the cause
        where = f"{parsed['host']}:{parsed['port']}"
        raise BackendError(f"cannot reach FalkorDB at {where}: {type(exc).__name__}: {exc}",
                           uri=f"falkordb://{where}/{parsed['graph']}") from None


def _value(v: Any) -> Any:
    """Client values to plain Python: nodes and edges as property dicts (``_labels`` /
    ``_type``), paths as ``{"nodes", "relationships"}``."""
    from falkordb.edge import Edge
    from falkordb.node import Node as FNode
    from falkordb.path import Path as FPath

    if isinstance(v, FNode):
        return {"_labels": sorted(v.labels or ()), **{k: _value(x) for k, x in
                                                       (v.properties or {}).items()}}
    if isinstance(v, Edge):
        return {"_type": v.relation, **{k: _value(x) for k, x in (v.properties or {}).items()}}
    if isinstance(v, FPath):
        return {"nodes": [_value(n) for n in v.nodes()],
                "relationships": [_value(e) for e in v.edges()]}
    if isinstance(v, list | tuple):
        return [_value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _value(x) for k, x in v.items()}
    return v


class FalkorDialect(CypherDialect):
    """FalkorDB's node ids: ``id(n)`` (an integer) where a node has no id property."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(element_id_fn="id", **kw)

    def looks_like_element_id(self, node_id: str) -> bool:
        return node_id.isdigit()

    def match_node(self, var: str, key: str, fallback: int = 1) -> str:
        """As :meth:`CypherDialect.match_node`, the element-id fallback comparing ``id()``
        with the id read as an integer (FalkorDB's ids are integers, byokg's are text)."""
        prop = esc(self.id_property, "falkordb")
        label = f":{esc(self.id_label, 'falkordb')}" if self.id_label else ""
        if not (fallback & 3) or self.id_property == "~id":
            return f"MATCH ({var}{label} {{{prop}: {key}}})"
        q = f"OPTIONAL MATCH (_a_{var}{label} {{{prop}: {key}}}) "
        found = [f"_a_{var}"]
        if fallback & 2:
            q += (f"OPTIONAL MATCH (_c_{var}{label} {{{prop}: toInteger({key})}}) "
                  f"WHERE _a_{var} IS NULL ")
            found.append(f"_c_{var}")
        if fallback & 1 and self.element_id_fallback:
            none = " AND ".join(f"{x} IS NULL" for x in found)
            q += (f"OPTIONAL MATCH (_b_{var}) WHERE {none} "
                  f"AND id(_b_{var}) = toInteger({key}) ")
            found.append(f"_b_{var}")
        return q + f"WITH *, coalesce({', '.join(found)}) AS {var} WHERE {var} IS NOT NULL"


class FalkorDBGraph(CypherGraphBase):
    """One FalkorDB graph (a Redis key) read through ``GRAPH.RO_QUERY``."""

    dialect = "falkordb"

    def __init__(self, uri: str, *, id_property: str | None = None,
                 name_property: str | None = None, name_properties: Sequence[str] | None = None,
                 timeout_s: float | None = None, connect_timeout: float = 10.0,
                 **_: Any) -> None:
        parsed = parse_uri(uri)
        opts = parsed["options"]
        name_property, names = name_order(name_property, name_properties, opts)
        super().__init__(redact(uri), FalkorDialect(
            id_property=id_property or opts.get("id_property", "id"), name_properties=names))
        try:
            self.timeout_s = float(timeout_s or opts.get("timeout") or DEFAULT_TIMEOUT_S)
        except ValueError:
            raise ConfigError(f"{self.uri!r}: timeout={opts.get('timeout')!r} is not a "
                              "number of seconds") from None
        self.graph_name = parsed["graph"]
        self._reopen = {"uri": uri, "options": {
            "id_property": id_property, "name_property": name_property,
            "name_properties": list(name_properties) if name_properties else None,
            "timeout_s": timeout_s, "connect_timeout": connect_timeout}}
        self._db = _client(parsed, connect_timeout)
        try:
            keys = self._db.list_graphs()
        except Exception as exc:  # noqa: BLE001 - redis raises many types: name the cause
            self._close_client()
            raise BackendError(f"cannot reach FalkorDB at {self.uri}: {type(exc).__name__}: "
                               f"{exc}", uri=self.uri) from None
        if self.graph_name not in keys:
            self._close_client()
            raise BackendError(
                f"{self.uri}: no graph named {self.graph_name!r} on this server (graphs: "
                f"{', '.join(sorted(keys)[:20]) or 'none'}); create one with "
                f"`byokg load FILES --into {self.uri}`", uri=self.uri)
        self._graph = self._db.select_graph(self.graph_name)
        if self.cyp.id_label is None and len(self.labels()) == 1:
            # every node has it: the id lookup uses the label's index instead of a scan
            self.cyp.id_label = self.labels()[0]
        self.fulltext_labels = self._fulltext_labels()
        caps = {Capability.CYPHER, Capability.EXPLAIN, Capability.SHORTEST_PATH,
                Capability.PROFILE}
        if self.fulltext_labels:
            caps.add(Capability.FULLTEXT)
        self.capabilities = frozenset(caps)

    # ------------------------------------------------------------------ plumbing
    def _run(self, cypher: str, params: Mapping[str, Any] | None = None, *,
             timeout_s: float | None = None, max_rows: int | None = None,
             ) -> tuple[list[str], list[list[Any]]]:
        """One ``GRAPH.RO_QUERY`` with the server-side timeout; values as parameters."""
        timeout = float(timeout_s or self.timeout_s)
        try:
            res = self._graph.ro_query(cypher, dict(params or {}),
                                       timeout=max(1, int(timeout * 1000)))
        except Exception as exc:  # noqa: BLE001 - ResponseError, ConnectionError, …
            msg = str(exc).strip()[:4000]
            code = "timeout" if "timed out" in msg.lower() else None
            raise QueryError(f"{self.uri}: FalkorDB query failed: {msg}", uri=self.uri,
                             code=code) from None
        cols = [h[1] if isinstance(h, list | tuple) else str(h) for h in (res.header or [])]
        rows = res.result_set or []
        if max_rows is not None:
            rows = rows[:max_rows]
        return [str(c) for c in cols], [[_value(v) for v in r] for r in rows]

    def _list_labels(self) -> list[str]:
        return [r[0] for r in self._run("CALL db.labels() YIELD label RETURN label")[1]]

    def _list_rels(self) -> list[str]:
        return [r[0] for r in self._run("CALL db.relationshipTypes() YIELD relationshipType "
                                        "RETURN relationshipType")[1]]

    def _fulltext_labels(self) -> dict[str, list[str]]:
        """Label -> properties of its full-text node index (``db.indexes()``)."""
        out: dict[str, list[str]] = {}
        try:
            recs = self._records("CALL db.indexes() YIELD label, properties, types, entitytype "
                                 "RETURN label, properties, types, entitytype")
        except QueryError:
            return out
        for r in recs:
            if str(r.get("entitytype", "NODE")).upper() != "NODE":
                continue
            types = r.get("types") or {}
            for prop in r.get("properties") or []:
                kinds = types.get(prop, []) if isinstance(types, dict) else []
                if any(str(k).upper() == "FULLTEXT" for k in kinds):
                    out.setdefault(str(r["label"]), []).append(str(prop))
        return out

    def meta_stats(self) -> dict[str, Any]:
        """FalkorDB's catalogue counts (``db.meta.stats()``: nodes per label, edges per type)."""
        return self._records("CALL db.meta.stats()")[0]

    # ------------------------------------------------------------------ GraphStore
    def shortest_paths(self, pairs: Sequence[tuple[str, str]], *, max_hops: int = 3,
                       k: int = 1) -> dict[tuple[str, str], list[Path]]:
        """Shortest paths over both directions, all pairs in one ``algo.SPpaths`` query (the
        ``k`` cheapest paths per pair, of which the shortest are kept)."""
        pairs = [(str(a), str(b)) for a, b in dict.fromkeys(tuple(p) for p in pairs)]
        out: dict[tuple[str, str], list[Path]] = {p: [] for p in pairs}
        todo = [list(p) for p in pairs if p[0] != p[1]]
        if todo and max_hops >= 1:
            fb = self._fb([x for p in todo for x in p])
            q = (f"UNWIND $pairs AS pr WITH pr[0] AS s, pr[1] AS t "
                 f"{self.cyp.match_node('a', 's', fb)} {self.cyp.match_node('b', 't', fb)} "
                 "WITH s, t, a, b WHERE a <> b "
                 "CALL algo.SPpaths({sourceNode: a, targetNode: b, relDirection: 'both', "
                 "maxLen: $hops, pathCount: $k}) YIELD path "
                 f"RETURN s, t, [x IN nodes(path) | {self.cyp.id_expr('x')}] AS ns, "
                 "[r IN relationships(path) | type(r)] AS rs, "
                 f"[r IN relationships(path) | {self.cyp.id_expr('startNode(r)')}] AS starts")
            found: dict[tuple[str, str], list[Path]] = {}
            for rec in self._records(q, {"pairs": todo, "hops": int(max_hops), "k": int(k)}):
                found.setdefault((rec["s"], rec["t"]), []).append(_record_path(rec))
            for key, paths in found.items():
                shortest = min(len(p.relations) for p in paths)
                uniq = dict.fromkeys(p for p in paths if len(p.relations) == shortest)
                out[key] = sorted(uniq, key=lambda p: (p.nodes, p.relations, p.inverted))[:k]
        self._zero_hop_paths(pairs, out)
        return out

    def fulltext_search(self, texts: Sequence[str], *, k: int = 3,
                        ) -> dict[str, list[tuple[str, float]]]:
        """Per text, the best ``k`` nodes over every full-text node index (one query per label;
        the text's words only: RediSearch operators are dropped)."""
        if not self.fulltext_labels:
            raise CapabilityError(f"{self.uri} has no full-text node index", uri=self.uri)
        out: dict[str, list[tuple[str, float]]] = {}
        for text in dict.fromkeys(texts):
            words = " ".join(_FT_SPECIAL.sub(" ", text).split())
            hits: dict[str, float] = {}
            for label in self.fulltext_labels:
                if not words:
                    break
                q = (f"CALL db.idx.fulltext.queryNodes($label, $q) YIELD node, score "
                     f"RETURN {self.cyp.id_expr('node')} AS id, score "
                     "ORDER BY score DESC LIMIT $k")
                for rec in self._records(q, {"label": label, "q": words, "k": int(k)}):
                    nid = str(rec["id"])
                    hits[nid] = max(hits.get(nid, 0.0), float(rec["score"]))
            out[text] = sorted(hits.items(), key=lambda x: (-x[1], x[0]))[:k]
        return out

    def _fetch(self, text: str, params: Mapping[str, Any] | None, timeout_s: float | None,
               max_rows: int | None) -> tuple[list[str], list[list[Any]]]:
        """Guarded queries: ``GRAPH.RO_QUERY`` (the server refuses writes) with its timeout."""
        cols, rows = self._run(text, params, timeout_s=timeout_s, max_rows=max_rows)
        return cols, [[_plain(v) for v in r] for r in rows]

    def worker_spec(self) -> Any:
        """How a worker process reopens this graph (byokg.cypher.worker)."""
        from byokg.cypher.worker import StoreSpec

        opts = {k: v for k, v in self._reopen["options"].items() if v is not None}
        return StoreSpec(factory="byokg.backends.falkordb:open_falkordb",
                         uri=self._reopen["uri"], options=opts)

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``GRAPH.EXPLAIN``: the plan's operators, one per line (nothing runs)."""
        text = cypher.strip()
        if text[:7].upper() == "EXPLAIN":
            text = text[7:].lstrip()
        try:
            plan = self._graph.explain(text, dict(params or {}))
        except Exception as exc:  # noqa: BLE001
            raise QueryError(f"{self.uri}: FalkorDB explain failed: {str(exc)[:4000]}",
                             uri=self.uri) from None
        return {"plan": str(plan), "dialect": self.dialect}

    def _close_client(self) -> None:
        try:
            self._db.connection.close()
        except Exception:  # noqa: BLE001 - closing is best effort
            pass

    def close(self) -> None:
        super().close()  # the worker pool
        self._close_client()


def open_falkordb(uri: str, **options: Any) -> FalkorDBGraph:
    """Backend factory for ``falkordb://HOST:PORT/GRAPH``."""
    return FalkorDBGraph(uri, **options)


# ---------------------------------------------------------------------------- loader


class _Writer:
    """Batched ``UNWIND $rows`` writes through ``GRAPH.QUERY`` (the loader is the only
    writer); the rows travel as parameters."""

    dialect = "falkordb"

    def __init__(self, into: str) -> None:
        parsed = parse_uri(into)
        self.uri = redact(into)
        self._db = _client(parsed, 10.0)
        try:
            existing = self._db.list_graphs()
        except Exception as exc:  # noqa: BLE001
            raise BackendError(f"cannot reach FalkorDB at {self.uri}: {type(exc).__name__}: "
                               f"{exc}", uri=self.uri) from None
        if parsed["graph"] in existing:
            raise ConfigError(f"{self.uri}: the graph {parsed['graph']!r} already exists; "
                              "byokg load writes a new graph: choose a new name or delete the "
                              f"old one (GRAPH.DELETE {parsed['graph']})")
        self.graph = self._db.select_graph(parsed["graph"])
        self.fulltext: list[tuple[str, str]] = []

    def run(self, cypher: str, params: Mapping[str, Any] | None = None) -> None:
        try:
            self.graph.query(cypher, dict(params or {}))
        except Exception as exc:  # noqa: BLE001
            raise BackendError(f"{self.uri}: loading failed: {str(exc)[:2000]}",
                               uri=self.uri) from None

    def create_nodes(self, label: str, rows: list[dict[str, Any]], size: int) -> None:
        for i in range(0, len(rows), size):
            chunk = rows[i:i + size]
            keys = list(dict.fromkeys(k for r in chunk for k in r))
            sets = ", ".join(f"n.{esc(k, self.dialect)} = r.{esc(k, self.dialect)}"
                             for k in keys)
            self.run(f"UNWIND $rows AS r CREATE (n:{esc(label, self.dialect)}) SET {sets}",
                     {"rows": chunk})

    def create_edges(self, src: tuple[str, str], rel: str, dst: tuple[str, str],
                     rows: list[dict[str, Any]], size: int) -> None:
        d = self.dialect
        for i in range(0, len(rows), size):
            chunk = rows[i:i + size]
            with_props = any(r.get("p") for r in chunk)
            self.run(f"UNWIND $rows AS r MATCH (a:{esc(src[0], d)} {{{esc(src[1], d)}: r.s}}), "
                     f"(b:{esc(dst[0], d)} {{{esc(dst[1], d)}: r.d}}) "
                     f"CREATE (a)-[e:{esc(rel, d)}]->(b)" + (" SET e = r.p" if with_props else ""),
                     {"rows": chunk})

    def index(self, label: str, prop: str) -> None:
        try:
            self.run(f"CREATE INDEX FOR (n:{esc(label, self.dialect)}) "
                     f"ON (n.{esc(prop, self.dialect)})")
        except BackendError as exc:
            if "already indexed" not in str(exc).lower():
                raise
        if prop == "id":  # every id-indexed label gets a full-text index over its names
            self.fulltext.append((label, "name"))

    def flush(self) -> None:
        """Nothing is queued: every batch is one GRAPH.QUERY."""

    def finish(self, name_props: Mapping[str, str]) -> None:
        """Full-text node indexes over the display names (``name_props``: label -> property)."""
        for label, prop in name_props.items():
            self.run("CALL db.idx.fulltext.createNodeIndex($label, $prop)",
                     {"label": label, "prop": prop})

    def close(self) -> None:
        try:
            self._db.connection.close()
        except Exception:  # noqa: BLE001
            pass


def load_falkordb(sources: list[str], into: str, mapping: str | None = None,
                  skip_bad_rows: bool = False, *, batch_size: int = LOAD_BATCH,
                  fulltext: bool = True, limits: Any = None,
                  columns: Sequence[str] | None = None, **_: Any) -> LoadSummary:
    """``byokg load --into falkordb://HOST:PORT/GRAPH``: triple files or, with ``mapping``,
    property-graph CSVs (the same readers and checks as the Bolt loader) into a NEW graph,
    with an index on each label's key and a full-text index over display names."""
    from byokg.io.pgmapping import PGMapping

    w = _Writer(into)
    try:
        if mapping:
            summary = load_property_graph(w, sources, w.uri, mapping, batch_size,
                                          skip_bad_rows, limits)
            names = {n.label: n.name for n in PGMapping.load(mapping).nodes if n.name}
        else:
            summary = load_triples(w, sources, w.uri, skip_bad_rows, batch_size, limits,
                                   columns)
            names = {label: "name" for label, _ in w.fulltext}
        if fulltext:
            w.finish(names)
        return summary
    finally:
        w.close()


@hookimpl
def register_backends(register):
    register(SCHEME, open_falkordb, loader=load_falkordb)
