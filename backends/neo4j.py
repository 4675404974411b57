"""Neo4j / Bolt backend (``neo4j://``, ``neo4j+s://``, ``neo4j+ssc://``, ``bolt://``, ``bolt+s://``,
``bolt+ssc://``), official ``neo4j`` driver ≥ 5, imported lazily.

``bolt://user:pass@host:7687/database?id_property=id&display=Person.fullName&timeout=30``;
an unknown option is an error. Auth also from ``NEO4J_USERNAME``/``NEO4J_PASSWORD`` or
``NEO4J_AUTH=user/pass``, database from ``NEO4J_DATABASE``. Display names come from the graph's
profile (byokg.graph.profile); ``name_property``/``name_properties`` are hints it follows. Every byokg query runs in a READ session inside an explicit transaction that
is rolled back, after byokg's read-only guard (:mod:`byokg.cypher.guard`), so nothing byokg runs
can change the graph (ArcadeDB's Bolt server ignores the READ access mode; the rollback still
holds there). The transaction carries the query timeout (the server enforces it; ArcadeDB does
not, so generated queries also run in a worker process that the client stops at the deadline,
see :mod:`byokg.cypher.worker`). Only :func:`load_neo4j` writes. See docs/backends.md for the
ArcadeDB/Neo4j differences.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs
from urllib.parse import unquote
from urllib.parse import urlsplit

from byokg.cypher.cypherload import load_property_graph
from byokg.cypher.cypherload import load_triples
from byokg.cypher.cypherload import mapping_name_properties
from byokg.cypher.storecommon import CypherDialect
from byokg.cypher.storecommon import CypherGraphBase
from byokg.cypher.storecommon import _plain
from byokg.cypher.storecommon import esc
from byokg.cypher.storecommon import name_order
from byokg.errors import BackendError
from byokg.errors import ConfigError
from byokg.errors import QueryError
from byokg.graph.store import Capability
from byokg.hookspecs import hookimpl
from byokg.io.loading import LoadSummary
from byokg.redaction import redact_uri

__all__ = ["Neo4jGraph", "load_neo4j", "mapping_name_properties", "open_neo4j"]

SCHEMES = ("neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc")
URI_OPTIONS = ("database", "id_property", "id_label", "name_property", "timeout")
DEFAULT_TIMEOUT_S = 30.0
LOAD_BATCH = 5_000  # rows per UNWIND statement
LOAD_TX_ROWS = 20_000  # rows per write transaction (several statements)
_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


def redact(uri: str) -> str:
    """The URI without its password (for messages and ``store.uri``): byokg's one redaction."""
    return redact_uri(uri)


def parse_uri(uri: str) -> dict[str, Any]:
    """Split a Bolt URI into driver address, auth, database and byokg options."""
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise ConfigError(f"{uri!r}: scheme must be one of {', '.join(SCHEMES)}")
    if not parts.hostname:
        raise ConfigError(f"{redact(uri)!r} has no host; use e.g. bolt://localhost:7687")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    unknown = [k for k in query if k not in URI_OPTIONS]
    if unknown:
        raise ConfigError(f"{redact(uri)!r}: unknown option {unknown[0]!r} (Bolt URIs accept "
                          f"{', '.join(['display', *URI_OPTIONS])})")
    auth = None
    if parts.username is not None:
        auth = (unquote(parts.username), unquote(parts.password or ""))
    db = parts.path.strip("/") or query.pop("database", None)
    host = parts.hostname + (f":{parts.port}" if parts.port else "")
    return {
        "address": f"{scheme}://{host}",
        "auth": auth,
        "database": db or None,
        "options": query,
    }


def env_auth() -> tuple[str, str] | None:
    if os.environ.get("NEO4J_AUTH") and "/" in os.environ["NEO4J_AUTH"]:
        user, pw = os.environ["NEO4J_AUTH"].split("/", 1)
        return user, pw
    if os.environ.get("NEO4J_USERNAME") or os.environ.get("NEO4J_PASSWORD"):
        return os.environ.get("NEO4J_USERNAME", "neo4j"), os.environ.get("NEO4J_PASSWORD", "")
    return None


def _neo_value(v: Any, native: bool = False) -> Any:
    """Driver values to plain Python (nodes/relationships as property dicts); with ``native``
    temporal values become ``datetime`` objects instead of strings (their type kept)."""
    from neo4j.graph import Node as NeoNode
    from neo4j.graph import Path as NeoPath
    from neo4j.graph import Relationship

    if isinstance(v, NeoNode):
        return {"_labels": sorted(v.labels), **{k: _neo_value(x, native) for k, x in v.items()}}
    if isinstance(v, Relationship):
        return {"_type": v.type, **{k: _neo_value(x, native) for k, x in v.items()}}
    if isinstance(v, NeoPath):
        return {
            "nodes": [_neo_value(n, native) for n in v.nodes],
            "relationships": [_neo_value(r, native) for r in v.relationships],
        }
    if isinstance(v, list):
        return [_neo_value(x, native) for x in v]
    if isinstance(v, dict):
        return {k: _neo_value(x, native) for k, x in v.items()}
    if native and hasattr(v, "to_native") and not isinstance(v, bool | int | float | str):
        try:
            return v.to_native()
        except (ValueError, OverflowError):  # out of Python's range: the text form
            return _plain(v)
    return _plain(v)


def _driver(address: str, auth: tuple[str, str] | None, connection_timeout: float):
    import neo4j

    return neo4j.GraphDatabase.driver(
        address,
        auth=auth,
        connection_timeout=connection_timeout,
        max_transaction_retry_time=5.0,
        connection_acquisition_timeout=connection_timeout,
        user_agent="byokg",
    )


def _verify(driver: Any, database: str | None) -> None:
    import warnings

    with warnings.catch_warnings():  # verify_connectivity(database=) is a driver "preview" API
        warnings.simplefilter("ignore")
        driver.verify_connectivity(database=database)


def _backend_error(exc: Exception, uri: str, doing: str) -> BackendError:
    code = getattr(exc, "code", None)
    msg = str(getattr(exc, "message", None) or exc).strip()[:4000]  # whole: repair reads it
    cls = QueryError if doing.startswith("query") else BackendError
    return cls(f"{uri}: {doing} failed: {type(exc).__name__}: {msg}", uri=uri, code=code)


class Neo4jGraph(CypherGraphBase):
    """A Neo4j-compatible graph (Neo4j 5, ArcadeDB's Bolt plugin, Memgraph …) over Bolt."""

    dialect = "neo4j"

    def __init__(
        self,
        uri: str,
        *,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        id_property: str | None = None,
        id_label: str | None = None,
        name_property: str | None = None,
        name_properties: Sequence[str] | None = None,
        timeout_s: float | None = None,
        connection_timeout: float = 10.0,
        element_id_fallback: bool = True,
        verify: bool = True,
        **_: Any,
    ) -> None:
        parsed = parse_uri(uri)
        opts = parsed["options"]
        name_property, names = name_order(name_property, name_properties, opts)
        self._auto_label = id_label is None and "id_label" not in opts
        cyp = CypherDialect(
            id_property=id_property or opts.get("id_property", "id"),
            id_label=id_label or opts.get("id_label"),
            name_properties=names,
            element_id_fallback=element_id_fallback,
        )
        super().__init__(redact(uri), cyp)
        self.address = parsed["address"]
        self.database = database or parsed["database"] or os.environ.get("NEO4J_DATABASE") or None
        self.timeout_s = float(timeout_s or opts.get("timeout", DEFAULT_TIMEOUT_S))
        auth = auth or parsed["auth"] or env_auth()
        self._reopen = {"uri": uri, "options": {  # for worker processes (worker_spec)
            "auth": auth, "database": self.database, "id_property": id_property,
            "id_label": id_label, "name_property": name_property,
            "name_properties": list(name_properties) if name_properties else None,
            "timeout_s": timeout_s, "connection_timeout": connection_timeout,
            "element_id_fallback": element_id_fallback}}
        self._driver = None
        try:
            self._driver = _driver(self.address, auth, connection_timeout)
            if verify:
                _verify(self._driver, self.database)
        except Exception as exc:  # driver raises many types; name the URI and the cause
            if self._driver is not None:
                self._driver.close()
            raise _backend_error(exc, self.uri, "connecting") from exc
        self.server_agent = ""
        try:
            self.server_agent = self._driver.get_server_info().agent
        except Exception:  # noqa: BLE001 - informational only
            pass
        self.is_arcadedb = "ArcadeDB" in self.server_agent
        self.indexes: list[dict[str, Any]] = []
        caps = {Capability.CYPHER, Capability.EXPLAIN, Capability.SHORTEST_PATH,
                Capability.PROFILE}
        if verify:
            self.indexes = self._list_indexes()
            kinds = {str(i.get("type", "")).upper() for i in self.indexes}
            if "FULLTEXT" in kinds:
                caps.add(Capability.FULLTEXT)
            if "VECTOR" in kinds:
                caps.add(Capability.VECTOR)
            labels = self.labels()
            if self._auto_label:
                if len(labels) == 1:  # every node has it: lets the database use its id index
                    self.cyp.id_label = labels[0]
            elif self.cyp.id_label not in labels:
                self.close()
                raise ConfigError(
                    f"{self.uri}: id_label {self.cyp.id_label!r} is not a label of this graph "
                    f"(labels: {', '.join(labels[:20]) or 'none'})"
                )
        self.capabilities = frozenset(caps)

    # ------------------------------------------------------------------ plumbing
    def _session(self, write: bool = False):
        import neo4j

        mode = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
        return self._driver.session(database=self.database, default_access_mode=mode)

    def _typed_records(self, cypher: str, params: Mapping[str, Any] | None = None,
                       ) -> list[dict[str, Any]]:
        cols, rows = self._run(cypher, params, native=True)
        return [dict(zip(cols, r, strict=False)) for r in rows]

    def _run(
        self,
        cypher: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        max_rows: int | None = None,
        native: bool = False,
    ) -> tuple[list[str], list[list[Any]]]:
        """One read query in a READ session; the transaction is always rolled back."""
        timeout = timeout_s or self.timeout_s
        try:
            with self._session() as session:
                tx = session.begin_transaction(timeout=timeout)
                try:
                    result = tx.run(cypher, dict(params or {}))
                    cols = list(result.keys())
                    rows = []
                    for rec in result:
                        rows.append([_neo_value(v, native) for v in rec.values()])
                        if max_rows is not None and len(rows) >= max_rows:
                            break
                finally:
                    tx.rollback()
        except BackendError:
            raise
        except Exception as exc:
            raise _backend_error(exc, self.uri, "query") from exc
        return cols, rows

    def _list_labels(self) -> list[str]:
        try:
            return [r["label"] for r in self._records("CALL db.labels() YIELD label RETURN label")]
        except QueryError:
            return super()._list_labels()

    def _list_rels(self) -> list[str]:
        try:
            return [
                r["relationshipType"]
                for r in self._records(
                    "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType"
                )
            ]
        except QueryError:
            return super()._list_rels()

    def _list_indexes(self) -> list[dict[str, Any]]:
        try:
            with self._session() as session:
                return [_neo_value(r.data()) for r in session.run("SHOW INDEXES")]
        except Exception:  # noqa: BLE001 - servers without SHOW INDEXES: no index features
            return []

    # ------------------------------------------------------------------ GraphStore extras
    def iter_node_names(self, batch_size: int = 10_000) -> Iterator[list[tuple[str, str]]]:
        """One streamed query (the driver fetches in chunks) instead of SKIP/LIMIT pages."""
        cols = self.name_columns()
        try:
            with self._session() as session:
                batch: list[tuple[str, str]] = []
                for rec in session.run(self.cyp.node_names(cols), fetch_size=batch_size):
                    data = {k: _neo_value(v, True) for k, v in rec.items()}
                    batch += self.names_of_record(data, cols)
                    if len(batch) >= batch_size:
                        yield batch
                        batch = []
                if batch:
                    yield batch
        except Exception as exc:
            raise _backend_error(exc, self.uri, "query (node names)") from exc

    def _fetch(self, text: str, params: Mapping[str, Any] | None, timeout_s: float | None,
               max_rows: int | None) -> tuple[list[str], list[list[Any]]]:
        """Guarded queries: a rolled-back READ transaction with the server-side timeout."""
        return self._run(text, params, timeout_s=timeout_s, max_rows=max_rows)

    def worker_spec(self):
        """How a worker process reopens this graph (see byokg.cypher.worker)."""
        from byokg.cypher.worker import StoreSpec

        opts = {k: v for k, v in self._reopen["options"].items() if v is not None}
        return StoreSpec(factory="byokg.backends.neo4j:open_neo4j", uri=self._reopen["uri"],
                         options=opts)

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Plan ``cypher`` without running it: ``{"plan", "query_type", "read_only", "server"}``.

        ``query_type`` is the server's summary type (``r``, ``rw``, ``w``, ``s``); ArcadeDB
        reports ``w`` for every EXPLAIN, so ``read_only`` also applies byokg's own check.
        """
        from byokg.cypher.guard import check_query

        text = cypher.strip()
        if not text.upper().startswith("EXPLAIN"):
            text = "EXPLAIN " + text
        try:
            with self._session() as session:
                tx = session.begin_transaction(timeout=self.timeout_s)
                try:
                    result = tx.run(text, dict(params or {}))
                    list(result)
                    summary = result.consume()
                finally:
                    tx.rollback()
        except Exception as exc:
            raise _backend_error(exc, self.uri, "query (explain)") from exc
        qtype = summary.query_type
        return {
            "plan": _neo_value(summary.plan) if summary.plan is not None else None,
            "query_type": qtype,
            "server_query_type_reliable": not self.is_arcadedb,
            "read_only": check_query(cypher, dialect=self.dialect).allowed
            and (self.is_arcadedb or qtype in ("r", None)),
            "server": self.server_agent,
        }

    def _index_of(self, kind: str) -> dict[str, Any] | None:
        for idx in self.indexes:
            if str(idx.get("type", "")).upper() == kind and idx.get("entityType", "NODE") == "NODE":
                return idx
        return None

    def fulltext_search(self, texts: Sequence[str], *, k: int = 3) -> dict[str, list[tuple[str, float]]]:
        """Per text, best ``k`` nodes of the first node full-text index (Lucene syntax escaped)."""
        idx = self._index_of("FULLTEXT")
        if idx is None:
            from byokg.errors import CapabilityError

            raise CapabilityError(f"{self.uri} has no node full-text index", uri=self.uri)
        out: dict[str, list[tuple[str, float]]] = {}
        q = (
            "UNWIND $texts AS t CALL db.index.fulltext.queryNodes($index, t.q) YIELD node, score "
            f"WITH t, node, score ORDER BY score DESC "
            f"RETURN t.t AS t, collect([{self.cyp.id_expr('node')}, score])[0..$k] AS hits"
        )
        texts = list(dict.fromkeys(texts))
        payload = [{"t": t, "q": _LUCENE_SPECIAL.sub(r"\\\1", t)} for t in texts if t.strip()]
        found = {}
        if payload:
            for rec in self._records(q, {"texts": payload, "index": idx["name"], "k": int(k)}):
                found[rec["t"]] = [(str(a), float(b)) for a, b in rec["hits"]]
        for t in texts:
            out[t] = found.get(t, [])
        return out

    def vector_search(
        self, vectors: Sequence[Sequence[float]], *, k: int = 3
    ) -> list[list[tuple[str, float]]]:
        idx = self._index_of("VECTOR")
        if idx is None:
            from byokg.errors import CapabilityError

            raise CapabilityError(f"{self.uri} has no node vector index", uri=self.uri)
        q = (
            "UNWIND range(0, size($vecs) - 1) AS j "
            "CALL db.index.vector.queryNodes($index, $k, $vecs[j]) YIELD node, score "
            f"RETURN j, collect([{self.cyp.id_expr('node')}, score]) AS hits"
        )
        vecs = [[float(x) for x in v] for v in vectors]
        out: list[list[tuple[str, float]]] = [[] for _ in vecs]
        if vecs:
            for rec in self._records(q, {"vecs": vecs, "index": idx["name"], "k": int(k)}):
                out[int(rec["j"])] = [(str(a), float(b)) for a, b in rec["hits"]]
        return out

    def close(self) -> None:
        super().close()  # the worker pool
        try:
            self._driver.close()
        except Exception:  # noqa: BLE001 - closing twice is fine
            pass


def open_neo4j(uri: str, **options: Any) -> Neo4jGraph:
    """Backend factory registered for every Bolt scheme."""
    return Neo4jGraph(uri, **options)


# ---------------------------------------------------------------------------- loader


class _Writer:
    """Batched writes in WRITE sessions (the loader is the only writer)."""

    dialect = "neo4j"

    def __init__(self, uri: str, auth: tuple[str, str] | None = None, database: str | None = None):
        parsed = parse_uri(uri)
        self.uri = redact(uri)
        self.database = database or parsed["database"] or os.environ.get("NEO4J_DATABASE") or None
        self.driver = None
        try:
            self.driver = _driver(parsed["address"], auth or parsed["auth"] or env_auth(), 10.0)
            _verify(self.driver, self.database)
        except Exception as exc:
            if self.driver is not None:
                self.driver.close()
            raise _backend_error(exc, self.uri, "connecting") from exc
        self._pending: list[tuple[str, list[dict[str, Any]]]] = []
        self._pending_rows = 0

    def run(self, cypher: str, **params: Any) -> None:
        import neo4j

        try:
            with self.driver.session(
                database=self.database, default_access_mode=neo4j.WRITE_ACCESS
            ) as s:
                s.execute_write(lambda tx: tx.run(cypher, params).consume())
        except Exception as exc:
            raise _backend_error(exc, self.uri, "loading") from exc

    def batches(self, cypher: str, rows: list[dict[str, Any]], size: int = LOAD_BATCH) -> None:
        """Queue ``UNWIND $rows`` statements of ``size`` rows; they are sent several per
        transaction (~``LOAD_TX_ROWS`` rows each: commits dominate on small groups)."""
        for i in range(0, len(rows), size):
            chunk = rows[i : i + size]
            self._pending.append((cypher, chunk))
            self._pending_rows += len(chunk)
            if self._pending_rows >= LOAD_TX_ROWS:
                self.flush()

    def flush(self) -> None:
        import neo4j

        pending, self._pending, self._pending_rows = self._pending, [], 0
        if not pending:
            return

        def work(tx):
            for cypher, chunk in pending:
                tx.run(cypher, rows=chunk).consume()

        try:
            with self.driver.session(
                database=self.database, default_access_mode=neo4j.WRITE_ACCESS
            ) as s:
                s.execute_write(work)
        except Exception as exc:
            raise _backend_error(exc, self.uri, "loading") from exc

    def create_nodes(self, label: str, rows: list[dict[str, Any]], size: int) -> None:
        """``CREATE`` with explicit ``SET n.k = r.k`` per key (several times faster on ArcadeDB
        than ``SET n = r``; a key missing from a row sets nothing)."""
        keys = list(dict.fromkeys(k for r in rows for k in r))
        sets = ", ".join(f"n.{esc(k)} = r.{esc(k)}" for k in keys)
        self.batches(f"UNWIND $rows AS r CREATE (n:{esc(label)}) SET {sets}", rows, size)

    def create_edges(
        self, src: tuple[str, str], rel: str, dst: tuple[str, str], rows: list[dict[str, Any]],
        size: int,
    ) -> None:
        """Rows ``{"s", "d", "p"}``: one ``MATCH (a), (b) CREATE (a)-[:rel]->(b)`` per batch."""
        with_props = any(r.get("p") for r in rows)
        self.batches(
            f"UNWIND $rows AS r MATCH (a:{esc(src[0])} {{{esc(src[1])}: r.s}}), "
            f"(b:{esc(dst[0])} {{{esc(dst[1])}: r.d}}) "
            f"CREATE (a)-[e:{esc(rel)}]->(b)" + (" SET e = r.p" if with_props else ""),
            rows,
            size,
        )

    def index(self, label: str, prop: str) -> None:
        name = re.sub(r"\W", "_", f"byokg_{label}_{prop}")
        try:
            self.run(f"CREATE INDEX {esc(name)} IF NOT EXISTS FOR (n:{esc(label)}) ON (n.{esc(prop)})")
        except BackendError as exc:
            if "already exists" not in str(exc).lower() and "equivalent" not in str(exc).lower():
                raise

    def close(self) -> None:
        self._pending = []
        self.driver.close()


def load_neo4j(
    sources: list[str],
    into: str,
    mapping: str | None = None,
    skip_bad_rows: bool = False,
    *,
    auth: tuple[str, str] | None = None,
    database: str | None = None,
    batch_size: int = LOAD_BATCH,
    limits: Any = None,
    columns: Sequence[str] | None = None,
) -> LoadSummary:
    """``byokg load``: triple CSV/JSONL files (validated and deduplicated by byokg.io.readers)
    become ``(:Entity {id, name})`` nodes (or the JSONL node's first label) and typed
    relationships; with ``mapping`` the sources are property-graph CSV folders described by a
    byokg/pgmapping.py mapping file. Writes only here, in WRITE sessions."""
    w = _Writer(into, auth, database)
    try:
        if mapping:
            return load_property_graph(w, sources, redact(into), mapping, batch_size,
                                       skip_bad_rows, limits)
        return load_triples(w, sources, redact(into), skip_bad_rows, batch_size, limits,
                            columns)
    finally:
        w.close()


@hookimpl
def register_backends(register):
    for scheme in SCHEMES:
        register(scheme, open_neo4j, loader=load_neo4j)
