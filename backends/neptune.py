"""Amazon Neptune backends over boto3 (imported lazily).

* ``neptune-graph://GRAPH_ID`` — Neptune Analytics: client ``neptune-graph``,
  ``execute_query(language="OPEN_CYPHER")``, schema from ``CALL neptune.graph.pg_schema()``,
  vector search with ``neptune.algo.vectors.topK.byEmbedding`` (capability ``vector``).
* ``neptune-db://HOST[:PORT]`` — Neptune Database: client ``neptunedata`` with
  ``endpoint_url=https://HOST:PORT`` (default 8182), ``execute_open_cypher_query``,
  ``get_propertygraph_summary`` for the schema, ``execute_open_cypher_explain_query``.

Region, credentials and endpoint come from the standard AWS configuration (a boto3 Session;
``?region=``/``?profile=`` in the URI or the ``region``/``profile`` options override it).
Throttling and transient errors are retried with capped exponential backoff and full jitter
(:class:`byokg.models.retry.RetryPolicy`)
(botocore's own retries are switched off so attempts are counted in one place); other errors
raise :class:`byokg.errors.QueryError` / :class:`byokg.errors.BackendError` with the AWS code.
Node ids are Neptune's ``~id``. The shared openCypher builders and the guarded ``query()``
live in the core (``byokg.cypher.storecommon``); Neptune has no read-only session, so byokg's
guard is the gate, and ``queryTimeoutMilliseconds`` (Analytics) bounds a query on the server.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs
from urllib.parse import urlsplit

from byokg.cypher.storecommon import CypherDialect
from byokg.cypher.storecommon import CypherGraphBase
from byokg.cypher.storecommon import _plain
from byokg.errors import BackendError
from byokg.errors import CapabilityError
from byokg.errors import ConfigError
from byokg.errors import QueryError
from byokg.graph.store import Capability
from byokg.hookspecs import hookimpl
from byokg.models.retry import RetryPolicy

RETRYABLE_CODES = frozenset(
    {
        "ThrottlingException",
        "Throttling",
        "TooManyRequestsException",
        "ServiceUnavailable",
        "ServiceUnavailableException",
        "InternalServerException",
        "InternalFailureException",
        "ConcurrentModificationException",
        "RequestTimeout",
        "RequestTimeoutException",
        "CancelledByMaintenanceException",
        "ClientTimeoutException",
        "ConflictException",  # Neptune Analytics: concurrent modification of the graph
    }
)


def _aws_code(exc: Exception) -> tuple[str | None, int | None]:
    resp = getattr(exc, "response", None) or {}
    code = (resp.get("Error") or {}).get("Code")
    status = (resp.get("ResponseMetadata") or {}).get("HTTPStatusCode")
    return code, status


def _is_transient(exc: Exception) -> bool:
    from botocore.exceptions import ConnectionError as BotoConnectionError
    from botocore.exceptions import ReadTimeoutError

    if isinstance(exc, BotoConnectionError | ReadTimeoutError):
        return True
    code, status = _aws_code(exc)
    return code in RETRYABLE_CODES or (status is not None and status >= 500)


def _parse(uri: str, scheme: str) -> tuple[str, dict[str, str]]:
    parts = urlsplit(uri)
    if parts.scheme.lower() != scheme or not parts.netloc:
        raise ConfigError(f"{uri!r}: expected {scheme}://…")
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    accepted = ("region", "profile", "port") if scheme == "neptune-db" else ("region", "profile")
    unknown = [k for k in query if k not in accepted]
    if unknown:
        raise ConfigError(f"{uri!r}: unknown option {unknown[0]!r} ({scheme}:// URIs accept "
                          f"{', '.join(['display', *accepted])})")
    return parts.netloc, query


class _NeptuneBase(CypherGraphBase):
    """Shared: boto3 client, retries, error mapping; subclasses send one query."""

    service = ""

    def __init__(
        self,
        uri: str,
        *,
        client: Any = None,
        region: str | None = None,
        profile: str | None = None,
        endpoint_url: str | None = None,
        max_attempts: int = 5,
        backoff_base_s: float = 0.2,
        backoff_cap_s: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
        id_property: str = "~id",
        name_property: str | None = None,
        timeout_s: float | None = None,
        **_: Any,
    ) -> None:
        names = (name_property,) if name_property else ()
        cyp = CypherDialect(
            id_property=id_property, name_properties=names, element_id_fn="id",
            element_id_fallback=False,
        )
        super().__init__(uri, cyp)
        if max_attempts < 1:
            raise ConfigError("max_attempts must be at least 1")
        self.retry = RetryPolicy(max_attempts - 1, backoff_base_s, backoff_cap_s, sleep=sleep)
        self.timeout_s = timeout_s
        self.attempts = 0  # total requests sent (for tests and traces)
        self._region, self._profile, self._endpoint = region, profile, endpoint_url
        self._reopen = None if client is not None else {  # how a worker process reopens it
            "region": region, "profile": profile, "endpoint_url": endpoint_url,
            "max_attempts": max_attempts, "backoff_base_s": backoff_base_s,
            "backoff_cap_s": backoff_cap_s, "id_property": id_property,
            "name_property": name_property, "timeout_s": timeout_s}
        self.client = client if client is not None else self._make_client()

    def worker_spec(self) -> Any:
        """A spec for byokg.cypher.worker (None with an injected client, e.g. a Stubber)."""
        if self._reopen is None:
            return None
        from byokg.cypher.worker import StoreSpec

        factory = ("byokg.backends.neptune:open_neptune_graph" if self.service == "neptune-graph"
                   else "byokg.backends.neptune:open_neptune_db")
        return StoreSpec(factory=factory, uri=self.uri,
                         options={k: v for k, v in self._reopen.items() if v is not None})

    def _make_client(self) -> Any:
        try:
            import boto3
            from botocore.config import Config
        except ImportError as exc:  # pragma: no cover - boto3 is an optional extra
            raise ConfigError("Neptune backends need boto3: pip install 'byokg[neptune]'") from exc
        try:
            session = boto3.Session(profile_name=self._profile, region_name=self._region)
            # a socket read never waits longer than a query may run (plus slack); the worker
            # process enforces the wall clock of LLM-written queries
            read_timeout = (self.timeout_s or 60.0) + 10.0
            cfg = Config(retries={"total_max_attempts": 1, "mode": "standard"},
                         read_timeout=read_timeout, connect_timeout=10)
            kwargs: dict[str, Any] = {"config": cfg}
            if self._endpoint:
                kwargs["endpoint_url"] = self._endpoint
            return session.client(self.service, **kwargs)
        except Exception as exc:
            raise BackendError(f"{self.uri}: cannot create the {self.service} client: {exc}",
                               uri=self.uri) from exc

    def _call(self, op: str, **kwargs: Any) -> Any:
        """One API call with retries; typed errors carrying the AWS code."""
        from botocore.exceptions import BotoCoreError
        from botocore.exceptions import ClientError

        for attempt in range(self.retry.attempts):
            self.attempts += 1
            try:
                return getattr(self.client, op)(**kwargs)
            except (ClientError, BotoCoreError) as exc:
                code, status = _aws_code(exc)
                if _is_transient(exc) and attempt + 1 < self.retry.attempts:
                    self.retry.sleep(self.retry.delay(attempt))
                    continue
                what = "query" if "query" in op.lower() else op
                cls = QueryError if what == "query" else BackendError
                tries = f" after {attempt + 1} attempts" if attempt else ""
                raise cls(
                    f"{self.uri}: {op} failed{tries}: {code or type(exc).__name__}"
                    f"{f' (HTTP {status})' if status else ''}: {exc}",
                    uri=self.uri,
                    code=code,
                ) from exc
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _rows(results: list[dict[str, Any]]) -> tuple[list[str], list[list[Any]]]:
        cols: list[str] = []
        for r in results:
            for k in r:
                if k not in cols:
                    cols.append(k)
        return cols, [[_plain(r.get(c)) for c in cols] for r in results]

    def shortest_paths(self, pairs, *, max_hops: int = 3, k: int = 1):
        raise CapabilityError(
            f"{self.uri}: Neptune openCypher has no shortestPath(); byokg uses its own BFS "
            "over neighbors() (capability 'shortest_path' is not declared)",
            uri=self.uri,
        )


class NeptuneAnalyticsGraph(_NeptuneBase):
    """``neptune-graph://GRAPH_ID`` (Neptune Analytics)."""

    dialect = "neptune-analytics"
    service = "neptune-graph"

    def __init__(self, uri: str, **options: Any) -> None:
        graph_id, q = _parse(uri, "neptune-graph")
        options.setdefault("region", q.get("region"))
        options.setdefault("profile", q.get("profile"))
        self.graph_id = graph_id
        super().__init__(uri, **options)
        self.capabilities = frozenset(
            {Capability.CYPHER, Capability.EXPLAIN, Capability.VECTOR, Capability.PROFILE}
        )
        self._pg: dict[str, Any] | None = None

    def _run(self, cypher: str, params: Mapping[str, Any] | None = None, *,
             timeout_s: float | None = None) -> tuple[list[str], list[list[Any]]]:
        kwargs: dict[str, Any] = {
            "graphIdentifier": self.graph_id,
            "queryString": cypher,
            "language": "OPEN_CYPHER",
        }
        if params:
            kwargs["parameters"] = dict(params)
        timeout = timeout_s or self.timeout_s
        if timeout:
            kwargs["queryTimeoutMilliseconds"] = int(timeout * 1000)
        resp = self._call("execute_query", **kwargs)
        payload = resp["payload"]
        body = payload.read() if hasattr(payload, "read") else payload
        data = json.loads(body) if isinstance(body, bytes | str) else body
        return self._rows(data.get("results", []))

    def pg_schema(self) -> dict[str, Any]:
        """``CALL neptune.graph.pg_schema()``: nodeLabels, edgeLabels, *LabelDetails, labelTriples."""
        if self._pg is None:
            cols, rows = self._run("CALL neptune.graph.pg_schema() YIELD schema RETURN schema")
            self._pg = rows[0][0] if rows else {}
        return self._pg

    def _list_labels(self) -> list[str]:
        return list(self.pg_schema().get("nodeLabels", []))

    def _list_rels(self) -> list[str]:
        return list(self.pg_schema().get("edgeLabels", []))

    def _label_types(self) -> dict[str, dict[str, str]]:
        return _detail_types(self.pg_schema().get("nodeLabelDetails", {}))

    def _rel_types(self) -> dict[str, dict[str, str]]:
        return _detail_types(self.pg_schema().get("edgeLabelDetails", {}))

    def _rel_pairs(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for t in self.pg_schema().get("labelTriples", []):
            out.setdefault(t.get("~type", ""), []).append((t.get("~from", ""), t.get("~to", "")))
        return out

    def schema(self, *, samples: int = 3):
        """From pg_schema (names, property types, label triples) plus sampled values."""
        from byokg.contracts import GraphSchema
        from byokg.contracts import NodeLabel
        from byokg.contracts import PropertyInfo
        from byokg.contracts import RelationPattern
        from byokg.contracts import RelationType

        if samples in self._schema:
            return self._schema[samples]
        pg = self.pg_schema()
        base = super().schema(samples=samples) if samples else None
        sampled_nodes = {n.name: n for n in base.node_labels} if base else {}
        sampled_rels = {r.name: r for r in base.relation_types} if base else {}
        labels = []
        for lab in self.labels()[: self.max_labels]:
            props = (pg.get("nodeLabelDetails", {}).get(lab) or {}).get("properties", {})
            got = {p.name: p for p in sampled_nodes[lab].properties} if lab in sampled_nodes else {}
            labels.append(NodeLabel(
                name=lab,
                count=sampled_nodes[lab].count if lab in sampled_nodes else None,
                properties=tuple(
                    PropertyInfo(
                        name=k,
                        type=",".join((v or {}).get("datatypes", [])) or None,
                        samples=got[k].samples if k in got else (),
                    )
                    for k, v in list(props.items())[: self.max_properties]
                ),
            ))
        triples: dict[str, list[tuple[str, str]]] = {}
        for t in pg.get("labelTriples", []):
            triples.setdefault(t.get("~type", ""), []).append((t.get("~from", ""), t.get("~to", "")))
        rels = []
        for rel in self.relation_types()[: self.max_relations]:
            props = (pg.get("edgeLabelDetails", {}).get(rel) or {}).get("properties", {})
            s = sampled_rels.get(rel)
            rels.append(RelationType(
                name=rel,
                count=s.count if s else None,
                patterns=tuple(RelationPattern(src=a, dst=b) for a, b in triples.get(rel, [])),
                properties=tuple(
                    PropertyInfo(name=k, type=",".join((v or {}).get("datatypes", [])) or None)
                    for k, v in props.items()
                ),
                samples=s.samples if s else (),
            ))
        out = GraphSchema(node_labels=tuple(labels), relation_types=tuple(rels))
        self._schema[samples] = out
        return out

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "graphIdentifier": self.graph_id, "queryString": cypher,
            "language": "OPEN_CYPHER", "explainMode": "STATIC",
        }
        if params:
            kwargs["parameters"] = dict(params)
        resp = self._call("execute_query", **kwargs)
        payload = resp["payload"]
        plan = payload.read() if hasattr(payload, "read") else payload
        plan = plan.decode("utf-8", "replace") if isinstance(plan, bytes) else plan
        return {"plan": plan, "query_type": None, "read_only": _guard_allows(self, cypher)}

    def vector_search(self, vectors: Sequence[Sequence[float]], *, k: int = 3
                      ) -> list[list[tuple[str, float]]]:
        """One request per vector: topK.byEmbedding needs a static embedding (no UNWIND)."""
        q = (
            "CALL neptune.algo.vectors.topK.byEmbedding({embedding: $embedding, topK: $k}) "
            f"YIELD node, score RETURN {self.cyp.id_expr('node')} AS id, score"
        )
        out = []
        for v in vectors:
            _, rows = self._run(q, {"embedding": [float(x) for x in v], "k": int(k)})
            out.append([(str(i), float(s)) for i, s in rows])
        return out


class NeptuneDatabaseGraph(_NeptuneBase):
    """``neptune-db://HOST[:PORT]`` (Neptune Database, openCypher over HTTPS)."""

    dialect = "neptune-db"
    service = "neptunedata"

    def __init__(self, uri: str, **options: Any) -> None:
        netloc, q = _parse(uri, "neptune-db")
        host, _, port = netloc.partition(":")
        self.host, self.port = host, int(port or q.get("port", 8182))
        options.setdefault("region", q.get("region"))
        options.setdefault("profile", q.get("profile"))
        options.setdefault("endpoint_url", f"https://{self.host}:{self.port}")
        super().__init__(uri, **options)
        self.capabilities = frozenset({Capability.CYPHER, Capability.EXPLAIN,
                                       Capability.PROFILE})
        self._summary: dict[str, Any] | None = None

    def _run(self, cypher: str, params: Mapping[str, Any] | None = None, *,
             timeout_s: float | None = None) -> tuple[list[str], list[list[Any]]]:
        kwargs: dict[str, Any] = {"openCypherQuery": cypher}
        if params:
            kwargs["parameters"] = json.dumps(dict(params), ensure_ascii=False)
        resp = self._call("execute_open_cypher_query", **kwargs)
        return self._rows(resp.get("results", []))

    def summary(self) -> dict[str, Any]:
        """``get_propertygraph_summary(mode="detailed")`` graphSummary."""
        if self._summary is None:
            resp = self._call("get_propertygraph_summary", mode="detailed")
            payload = resp.get("payload") or {}
            summary = dict(payload.get("graphSummary") or {})
            # the statistics' time sits next to the summary, not in it
            summary.setdefault("lastStatisticsComputationTime",
                               payload.get("lastStatisticsComputationTime"))
            self._summary = summary
        return self._summary

    def _list_labels(self) -> list[str]:
        return list(self.summary().get("nodeLabels", []))

    def _list_rels(self) -> list[str]:
        return list(self.summary().get("edgeLabels", []))

    def profile_fingerprint(self) -> str:
        """From the property-graph summary (one API call, cached): counts, labels, keys and the
        time its statistics were computed."""
        import hashlib

        s = self.summary()
        keys = ("numNodes", "numEdges", "nodeLabels", "edgeLabels", "nodeProperties",
                "edgeProperties", "lastStatisticsComputationTime")
        text = json.dumps({k: s.get(k) for k in keys}, sort_keys=True, default=str)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def stats(self):
        from byokg.contracts import GraphStats

        s = self.summary()
        return GraphStats(
            nodes=int(s.get("numNodes", 0)),
            triplets=int(s.get("numEdges", 0)),
            relations=int(s.get("numEdgeLabels", len(self.relation_types()))),
            labels=int(s.get("numNodeLabels", len(self.labels()))),
        )

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"openCypherQuery": cypher, "explainMode": "static"}
        if params:
            kwargs["parameters"] = json.dumps(dict(params), ensure_ascii=False)
        resp = self._call("execute_open_cypher_explain_query", **kwargs)
        plan = resp["results"]
        plan = plan.read() if hasattr(plan, "read") else plan
        plan = plan.decode("utf-8", "replace") if isinstance(plan, bytes) else plan
        return {"plan": plan, "query_type": None, "read_only": _guard_allows(self, cypher)}


def _detail_types(details: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """``{label: {property: datatype}}`` from pg_schema's ``*LabelDetails``."""
    out: dict[str, dict[str, str]] = {}
    for label, d in (details or {}).items():
        props = (d or {}).get("properties", {}) or {}
        out[label] = {k: ",".join((v or {}).get("datatypes", [])) for k, v in props.items()
                      if (v or {}).get("datatypes")}
    return out


def _guard_allows(store: Any, cypher: str) -> bool:
    from byokg.cypher.guard import check_query

    return check_query(cypher, dialect=store.dialect).allowed


def open_neptune_graph(uri: str, **options: Any) -> NeptuneAnalyticsGraph:
    return NeptuneAnalyticsGraph(uri, **options)


def open_neptune_db(uri: str, **options: Any) -> NeptuneDatabaseGraph:
    return NeptuneDatabaseGraph(uri, **options)


@hookimpl
def register_backends(register):
    register("neptune-graph", open_neptune_graph)
    register("neptune-db", open_neptune_db)
