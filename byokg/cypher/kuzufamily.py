"""The Kùzu-family graph store and loader, shared by ``kuzu:PATH`` (kuzu 0.11.3) and
``ladybug:PATH`` (LadybugDB, Kùzu's maintained fork): the backends (``byokg.backends.kuzu``,
``byokg.backends.ladybug``) are this class with an engine description
(:mod:`byokg.cypher.kuzuengine`: module, file format, names), nothing more.

Reading: the database is opened read-only through a symlink in a private temporary folder, so
nothing the engine writes beside a database (``.wal``, ``.shadow``) ever lands next to the user's
files; untrusted queries pass byokg's guard and run in a worker process (byokg.cypher.worker)
that reopens the graph the same way. The schema comes from the catalog
(``show_tables``, ``table_info``, ``show_connection``, ``show_indexes``); every GraphStore
lookup is one Cypher query for the whole id batch (``UNWIND $keys``), with per-node caps applied
in Cypher (``list_slice(collect(…))``) and totals from ``count(*)``.

Two layouts are understood:

* **property graphs** (any Kùzu database, e.g. Northwind): each rel table is one relation type;
  node id = the ``id`` property (``id_property``) where a table has it as a STRING, else
  ``Label:key`` (the table's primary-key value), which is stable, readable and never collides
  between tables (an INT64 ``id`` in two tables would);
* **triple graphs** written by ``byokg load`` from triple CSV/JSONL: one node table
  ``Entity(id, name, aliases)`` and ONE rel table ``REL(FROM Entity TO Entity, type STRING)``
  whose ``type`` holds the original relation name (dots and all). The table carries the comment
  ``byokg:type-property=type``. One table instead of one table per relation because Freebase-like
  graphs have thousands of relations and Kùzu plans an untyped ``-[r]-`` over every rel table:
  with 1,000 rel tables a 100-id one-hop took ~530 ms vs ~40 ms with one table, and loading
  ~32 s vs ~0.6 s (100k triplets).

Display names: chosen per table by the graph's profile (:mod:`byokg.graph.profile`) from the
catalogue and a bounded sample (a table comment ``byokg:name=COL`` written by the loader from a
mapping's ``name`` is a hint it follows; ``name_properties=`` and ``?display=Label.prop`` in the
URI override it). URI options: ``kuzu:PATH?display=…&id_property=…&timeout=…&buffer_pool_mb=…
&threads=…&max_db_mb=…&process=auto|local|hosted``, read with the same query-string rules as
Bolt URIs (``process``: see :func:`byokg.cypher.kuzuengine.connect`).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from decimal import Decimal
from pathlib import Path as FsPath
from typing import Any
from typing import ClassVar

from byokg.contracts import Direction
from byokg.contracts import GraphSchema
from byokg.contracts import GraphStats
from byokg.contracts import Neighborhood
from byokg.contracts import Node
from byokg.contracts import NodeLabel
from byokg.contracts import Path
from byokg.contracts import PropertyInfo
from byokg.contracts import RelationPattern
from byokg.contracts import RelationType
from byokg.contracts import Triplet
from byokg.cypher.dialects import kuzu_bare_name
from byokg.cypher.dialects import kuzu_string
from byokg.cypher.lexer import UnsafeIdentifier
from byokg.cypher.lexer import quote_identifier
from byokg.cypher.storecommon import GuardedQueries
from byokg.errors import BackendError
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import QueryError
from byokg.graph.profile import profile_graph
from byokg.graph.store import BaseGraphStore
from byokg.graph.store import Capability
from byokg.graph.store import GraphSample
from byokg.graph.store import LabelSample
from byokg.graph.store import RelationSample
from byokg.graph.store import SampledNode
from byokg.graph.store import edge_multiplicity

from .kuzuengine import KUZU
from .kuzuengine import KuzuEngine
from .kuzuengine import check_file_format
from .kuzuengine import connect
from .kuzuengine import require_engine

TRIPLE_NODE_TABLE = "Entity"
TRIPLE_REL_TABLE = "REL"
TYPE_COMMENT = "byokg:type-property="
NAME_COMMENT = "byokg:name="
URI_OPTIONS = {"id_property": str, "timeout": float, "buffer_pool_mb": int, "threads": int,
               "max_db_mb": int, "name_properties": str, "process": str}
_MAX_ERR = 4000  # the engine message goes to repair whole (its useful part often comes last)


def _q(name: str) -> str:
    """Quote an identifier by Kùzu's rules (a backtick or control character cannot be written:
    refused with QueryError naming it)."""
    try:
        return quote_identifier(name, "kuzu")
    except UnsafeIdentifier as exc:
        raise QueryError(f"{exc}; byokg cannot query it") from None


def _s(value: str) -> str:
    """A Kùzu string literal (backslash escapes) for names that go into ``'…'`` positions."""
    return kuzu_string(str(value))


def _path_of(uri: str, engine: KuzuEngine = KUZU) -> str:
    from byokg.graph.open import split_query

    target = split_query(uri)[0]
    target = target.split(":", 1)[1] if ":" in target else target
    if target.startswith("//"):
        target = target[2:]
    if not target:
        raise ConfigError(f"{engine.name}: URI needs a database path, e.g. "
                          f"{engine.name}:./graph{engine.suffix}")
    return os.path.expanduser(target)


def _uri_options(uri: str, engine: KuzuEngine = KUZU) -> dict[str, Any]:
    """Options from the URI's query string (``?timeout=5&threads=2``), typed; an unknown or
    malformed one is a ConfigError listing what is accepted."""
    from byokg.graph.open import split_query

    out: dict[str, Any] = {}
    for key, value in split_query(uri)[1].items():
        conv = URI_OPTIONS.get(key)
        if conv is None:
            raise ConfigError(f"{uri!r}: unknown option {key!r} ({engine.name}: URIs accept "
                              f"{', '.join(['display', *URI_OPTIONS])})")
        try:
            out["timeout_s" if key == "timeout" else key] = conv(value)
        except ValueError:
            raise ConfigError(f"{uri!r}: option {key}={value!r} is not a {conv.__name__}") from None
    return out


# --------------------------------------------------------------------------- catalog


@dataclass
class _NodeTable:
    name: str
    props: dict[str, str]  # property -> Kùzu type
    pk: str
    id_prop: str | None  # the configured id property when the table has it as a STRING
    hint: str | None  # display property named by the loader (table comment)
    comment: str = ""

    @property
    def key_prop(self) -> str:
        return self.id_prop or self.pk

    def node_id(self, key: Any) -> str:
        return str(key) if self.id_prop else f"{self.name}:{key}"

    def convert_key(self, text: str) -> Any:
        typ = self.props.get(self.key_prop, "STRING").upper()
        if typ.startswith(("INT", "UINT", "SERIAL")):
            return int(text)
        if typ in ("DOUBLE", "FLOAT"):
            return float(text)
        return text


@dataclass
class _RelTable:
    name: str
    props: dict[str, str]
    pairs: list[tuple[str, str]]  # (src table, dst table)
    type_prop: str | None = None  # typed-by-property table (triple layout)
    comment: str = ""


@dataclass
class _Catalog:
    nodes: dict[str, _NodeTable] = field(default_factory=dict)
    rels: dict[str, _RelTable] = field(default_factory=dict)
    fts: dict[str, list[tuple[str, list[str]]]] = field(default_factory=dict)  # table -> (idx, cols)
    vector: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # table -> (idx, col)


def _comment_value(comment: str, prefix: str) -> str | None:
    for part in (comment or "").split(";"):
        part = part.strip()
        if part.startswith(prefix):
            return part[len(prefix):].strip() or None
    return None


class KuzuFamilyGraph(GuardedQueries, BaseGraphStore):
    """A Kùzu-family database opened read-only as a GraphStore with the cypher capability; a
    backend subclasses it with its ``engine``, ``dialect`` and ``worker_factory``."""

    profiler = staticmethod(profile_graph)  # the graph's profile, built on first use

    engine: ClassVar[KuzuEngine] = KUZU
    worker_factory: ClassVar[str] = ""  # "module:callable" a worker process opens it with
    dialect = "kuzu"
    capabilities: frozenset[str] = frozenset(  # type: ignore[misc]
        {Capability.CYPHER, Capability.EXPLAIN, Capability.SHORTEST_PATH}
    )
    MAX_HOPS: ClassVar[int] = 10

    @classmethod
    def load(cls, sources: Sequence[str], into: str, **options: Any):
        """``byokg load --into SCHEME:PATH`` with this backend's engine (see :func:`load_into`)."""
        return load_into(cls.engine, sources, into, **options)

    def __init__(
        self,
        uri: str,
        *,
        id_property: str = "id",
        name_properties: Sequence[str] | str | None = None,
        timeout_s: float | None = 30.0,
        buffer_pool_mb: int | None = None,
        threads: int | None = None,
        max_db_mb: int | None = None,
        process: str = "auto",
        **_: Any,
    ) -> None:
        eng = self.engine
        require_engine(eng)
        opts = _uri_options(uri, eng)
        id_property = opts.pop("id_property", id_property)
        timeout_s = opts.pop("timeout_s", timeout_s)
        buffer_pool_mb = opts.pop("buffer_pool_mb", buffer_pool_mb)
        threads = opts.pop("threads", threads)
        max_db_mb = opts.pop("max_db_mb", max_db_mb)
        process = opts.pop("process", process)
        name_properties = name_properties or opts.pop("name_properties", None)
        self.uri = uri
        self.path = _path_of(uri, eng)
        if not os.path.exists(self.path):
            raise BackendError(
                f"cannot open {uri}: no {eng.title} database at {self.path} (create one with "
                f"`byokg load FILES --into {uri}`)",
                uri=uri,
            )
        check_file_format(eng, self.path, uri)
        if isinstance(name_properties, str):
            name_properties = [p.strip() for p in name_properties.split(",") if p.strip()]
        self.id_property = id_property
        self.name_properties = tuple(name_properties or ())
        self.default_timeout_s = timeout_s
        self._options = {"id_property": id_property, "timeout_s": timeout_s,
                         "buffer_pool_mb": buffer_pool_mb,
                         "threads": threads, "max_db_mb": max_db_mb}
        self.notes: list[str] = []  # what the store could not use (an index's extension)
        self._open(process)
        self._cat = self._read_catalog()
        if self.name_properties:  # the legacy option: the first of them each table has
            self.display_override = {
                t.name: (p,) for t in self._cat.nodes.values()
                for p in [next((x for x in self.name_properties if x in t.props), None)] if p}
        self._rel_names: dict[str, list[tuple[str, str | None]]] | None = None
        self._rel_counts: dict[str, int] = {}
        caps = set(type(self).capabilities) | {Capability.PROFILE}
        if self._cat.fts:
            caps.add(Capability.FULLTEXT)
        if self._cat.vector:
            caps.add(Capability.VECTOR)
        self.capabilities = frozenset(caps)

    def _open(self, process: str) -> None:
        """The read-only connection on a private view of the database folder."""
        o = self._options
        self._view = _ReadOnlyView(self.path, self.engine)
        try:
            self._conn: Any = connect(self.engine, self._view.path, read_only=True, uri=self.uri,
                                      db_options={"buffer_pool_mb": o["buffer_pool_mb"],
                                                  "max_db_mb": o["max_db_mb"]},
                                      threads=o["threads"], process=process)
        except RuntimeError as exc:  # the engines raise RuntimeError for everything
            self._view.close()
            raise BackendError(f"cannot open {self.uri}: {exc}", uri=self.uri) from None
        except BaseException:
            self._view.close()
            raise

    @property
    def hosted(self) -> bool:
        """Whether the engine runs in a child process (another family engine is loaded here)."""
        return bool(getattr(self._conn, "hosted", False))

    # ------------------------------------------------------------------ low level
    def _run(self, cypher: str, params: Mapping[str, Any] | None = None,
             timeout_s: float | None = None) -> Any:
        t = self.default_timeout_s if timeout_s is None else timeout_s
        try:
            self._conn.set_query_timeout(int(t * 1000) if t else 0)
            return self._conn.execute(cypher, dict(params or {}))
        except RuntimeError as exc:
            msg = str(exc)
            code = "timeout" if "interrupted" in msg.lower() or "timeout" in msg.lower() else None
            raise QueryError(f"{self.engine.title} query failed: {msg[:_MAX_ERR]}", uri=self.uri,
                             code=code) from None

    def _rows(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[list[Any]]:
        res = self._run(cypher, params)
        out = []
        while res.has_next():
            out.append(res.get_next())
        return _lower_keys(out) if self.engine.upper_internal_keys else out

    def _read_catalog(self) -> _Catalog:
        cat = _Catalog()
        tables = self._rows("CALL show_tables() RETURN name, type, comment")
        for name, typ, comment in tables:
            if typ not in ("NODE", "REL"):
                continue
            info = self._rows(f"CALL table_info({_s(name)}) RETURN *")
            props = {row[1]: str(row[2]) for row in info}
            if typ == "NODE":
                pk = next((row[1] for row in info if row[-1] is True), next(iter(props)))
                hint = _comment_value(comment, NAME_COMMENT)
                id_ok = props.get(self.id_property, "").upper() == "STRING"
                cat.nodes[name] = _NodeTable(
                    name=name,
                    props=props,
                    pk=pk,
                    id_prop=self.id_property if id_ok else None,
                    hint=hint if hint in props else None,
                    comment=comment or "",
                )
            else:
                conns = self._rows(f"CALL show_connection({_s(name)}) RETURN *")
                type_prop = _comment_value(comment, TYPE_COMMENT)
                cat.rels[name] = _RelTable(
                    name=name,
                    props=props,
                    pairs=[(r[0], r[1]) for r in conns],
                    type_prop=type_prop if type_prop in props else None,
                    comment=comment or "",
                )
        try:
            indexes = self._rows("CALL show_indexes() RETURN *")
        except QueryError:
            indexes = []
        for row in indexes:
            table, idx, kind, cols = row[0], row[1], row[2], row[3]
            loaded = row[4] if len(row) > 4 else True  # extension_loaded
            if kind == "FTS" and (loaded is not False or self._load_extension("FTS")):
                cat.fts.setdefault(table, []).append((idx, list(cols)))
            elif kind == "HNSW" and (loaded is not False or self._load_extension("VECTOR")):
                cat.vector.setdefault(table, []).append((idx, cols[0]))
        return cat

    def _load_extension(self, name: str) -> bool:
        """Load an installed extension an index needs; False (the index is not used, and the
        store says so in ``notes``) when the engine cannot."""
        try:
            self._rows(f"LOAD EXTENSION {name}")
            return True
        except QueryError as exc:
            self.notes.append(f"{name} index not used: {str(exc)[:200]}")
            return False

    # ------------------------------------------------------------------ ids
    def _resolve(self, ids: Sequence[str]) -> dict[str, list[tuple[str, Any]]]:
        """Table -> [(requested id, key value)], for every table where an id may live."""
        out: dict[str, list[tuple[str, Any]]] = {}
        id_tables = [t for t in self._cat.nodes.values() if t.id_prop]
        for nid in dict.fromkeys(ids):
            for t in id_tables:
                try:
                    out.setdefault(t.name, []).append((nid, t.convert_key(nid)))
                except ValueError:
                    pass
            label, sep, rest = nid.partition(":")
            t = self._cat.nodes.get(label)
            if sep and t is not None and not t.id_prop:
                try:
                    out.setdefault(t.name, []).append((nid, t.convert_key(rest)))
                except ValueError:
                    pass
        return {k: v for k, v in out.items() if v}

    def _key_expr(self, var: str) -> str:
        """A STRING expression with the key (id property or primary key) of ``var``'s table."""
        tables = list(self._cat.nodes.values())
        if len(tables) == 1 or len({t.key_prop for t in tables}) == 1:
            return f"CAST({var}.{_q(tables[0].key_prop)} AS STRING)"
        whens = " ".join(
            f"WHEN label({var}) = {_s(t.name)} THEN CAST({var}.{_q(t.key_prop)} AS STRING)"
            for t in tables
        )
        return f"CASE {whens} END"

    def _id_from(self, label: str, key: Any) -> str:
        t = self._cat.nodes.get(label)
        return str(key) if t is None else t.node_id(key)

    def _node_from_dict(self, d: Mapping[str, Any]) -> Node:
        label = d.get("_label", "")
        t = self._cat.nodes[label]
        props = {k: v for k, v in d.items() if not k.startswith("_") and v is not None}
        nid = t.node_id(props.get(t.key_prop))
        rule = self.rule_for((label,))
        name, aliases = self.name_node(nid, (label,), props)
        hide = {t.key_prop, *rule.aliases, *(rule.parts if len(rule.parts) == 1 else ())}
        return Node.model_construct(
            id=nid,
            name=name,
            labels=(label,),
            aliases=aliases,
            properties={k: v for k, v in props.items() if k not in hide},
        )

    # ------------------------------------------------------------------ relations
    def _relation_map(self) -> dict[str, list[tuple[str, str | None]]]:
        """Relation name -> [(rel table, type value or None)]."""
        if self._rel_names is None:
            names: dict[str, list[tuple[str, str | None]]] = {}
            for rt in self._cat.rels.values():
                if rt.type_prop:
                    rows = self._rows(
                        f"MATCH ()-[r:{_q(rt.name)}]->() RETURN r.{_q(rt.type_prop)} AS t, count(*) "
                        "ORDER BY t"
                    )
                    for t, n in rows:
                        if t is None:
                            continue
                        names.setdefault(str(t), []).append((rt.name, str(t)))
                        self._rel_counts[str(t)] = self._rel_counts.get(str(t), 0) + int(n)
                else:
                    names.setdefault(rt.name, []).append((rt.name, None))
            self._rel_names = names
        return self._rel_names

    def relation_types(self) -> list[str]:
        return list(self._relation_map())

    @property
    def triple_rel_table(self) -> str | None:
        """The rel table typed by a property (triple layout, ``REL``), or None for a pure
        property graph. Its relation names are the values of :attr:`triple_type_property`."""
        return next((rt.name for rt in self._cat.rels.values() if rt.type_prop), None)

    @property
    def triple_type_property(self) -> str | None:
        """The property of :attr:`triple_rel_table` holding relation names (``type``)."""
        return next((rt.type_prop for rt in self._cat.rels.values() if rt.type_prop), None)

    @property
    def table_names(self) -> frozenset[str]:
        """Every node and rel table name of the catalog (as Kùzu spells them)."""
        return frozenset(self._cat.nodes) | frozenset(self._cat.rels)

    def _rel_pattern(
        self, relations: Sequence[str] | None, src: str | None, direction: Direction
    ) -> tuple[str, str, dict[str, Any], list[str]] | None:
        """(label part like ``:A|B``, WHERE condition, params) for a relation filter from the
        table ``src``; None when no rel table can match."""
        tables = []
        for rt in self._cat.rels.values():
            if src is None:
                tables.append(rt)
                continue
            ok = any(
                (direction in (Direction.OUT, Direction.BOTH) and s == src)
                or (direction in (Direction.IN, Direction.BOTH) and d == src)
                for s, d in rt.pairs
            )
            if ok:
                tables.append(rt)
        if relations is None:
            if not tables:
                return None
            return ":" + "|".join(_q(t.name) for t in tables), "", {}, [t.name for t in tables]
        rmap = self._relation_map()
        chosen: dict[str, list[str]] = {}
        for r in dict.fromkeys(relations):
            for table, value in rmap.get(r, []):
                if any(t.name == table for t in tables):
                    chosen.setdefault(table, [])
                    if value is not None:
                        chosen[table].append(value)
        if not chosen:
            return None
        conds, params = [], {}
        plain = [t for t, vals in chosen.items() if not vals]
        for i, (t, vals) in enumerate((t, v) for t, v in chosen.items() if v):
            tp = self._cat.rels[t].type_prop
            params[f"rt{i}"] = vals
            conds.append(f"(label(r) = {_s(t)} AND r.{_q(tp)} IN $rt{i})")  # type: ignore[arg-type]
        if plain and conds:
            conds.append("label(r) IN $plain_rels")
            params["plain_rels"] = plain
        where = " OR ".join(conds)
        return ":" + "|".join(_q(t) for t in chosen), where, params, list(chosen)

    def _relation_of(self, r: Mapping[str, Any]) -> str:
        rt = self._cat.rels.get(r.get("_label", ""))
        if rt is not None and rt.type_prop:
            return str(r.get(rt.type_prop))
        return str(r.get("_label"))

    def _rel_props(self, r: Mapping[str, Any]) -> dict[str, Any]:
        rt = self._cat.rels.get(r.get("_label", ""))
        skip = rt.type_prop if rt is not None else None
        return {k: v for k, v in r.items() if not k.startswith("_") and v is not None and k != skip}

    # ------------------------------------------------------------------ GraphStore
    def _rel_name_expr(self, tables: Sequence[str]) -> str:
        typed = [t for t in tables if self._cat.rels[t].type_prop]
        if not typed:
            return "label(r)"
        props = {self._cat.rels[t].type_prop for t in typed}
        if len(typed) == len(tables) and len(props) == 1:
            return f"r.{_q(props.pop())}"
        whens = " ".join(
            f"WHEN label(r) = {_s(t)} THEN r.{_q(self._cat.rels[t].type_prop)}"  # type: ignore[arg-type]
            for t in typed
        )
        return f"CASE {whens} ELSE label(r) END"

    def _neighbors(
        self, ids: list[str], direction: Direction, relations: list[str] | None, lim: int | None
    ) -> dict[str, Neighborhood]:
        """One-hop triplets per id: one query for the whole batch (``WHERE a.key IN $keys``;
        BOTH is one undirected match, each edge's direction read from ``r._src``), cap applied
        in Cypher with ``list_slice(collect(…))``, totals from ``count(*)``.

        Long because one batched query is built per node table from the same pieces; the rows
        are read back by :meth:`_neighbor_rows`."""
        key_of: dict[tuple[str, str], list[str]] = {}
        plain: list[tuple[str, dict[str, Any]]] = []  # parts without rel properties (UNION-able)
        with_props: list[tuple[str, dict[str, Any]]] = []

        def sl(expr: str) -> str:
            return f"list_slice(collect({expr}), 1, {lim})" if lim is not None else f"collect({expr})"

        n = 0
        for table, items in self._resolve(ids).items():
            t = self._cat.nodes[table]
            for nid, k in items:
                key_of.setdefault((table, str(k)), []).append(nid)
            pat = self._rel_pattern(relations, table, direction)
            if pat is None:
                continue
            labels, where, p, tables = pat
            n += 1
            p = {f"{name}_{n}": v for name, v in p.items()}
            where = re.sub(r"\$(\w+)", lambda m, n=n: f"${m.group(1)}_{n}", where)
            p[f"k_{n}"] = [k for _, k in items]
            left, right = {Direction.OUT: ("-", "->"), Direction.IN: ("<-", "-"),
                           Direction.BOTH: ("-", "-")}[direction]
            # direction of each edge: does it start at `a`? (one undirected match for BOTH)
            is_out = {Direction.OUT: "true", Direction.IN: "false",
                      Direction.BOTH: "struct_extract(r, '_src') = id(a)"}[direction]
            needs_props = any(
                set(self._cat.rels[x].props) - {self._cat.rels[x].type_prop} for x in tables
            )
            w = f" AND ({where})" if where else ""
            q = (
                f"MATCH (a:{_q(table)}){left}[r{labels}]{right}(b) "
                f"WHERE a.{_q(t.key_prop)} IN $k_{n}{w} "
                f"RETURN {_s(table)} AS tl, CAST(a.{_q(t.key_prop)} AS STRING) AS k, "
                f"count(*) AS total, {sl(is_out)} AS io, {sl(self._rel_name_expr(tables))} AS rn, "
                f"{sl('label(b)')} AS bl, {sl(self._key_expr('b'))} AS bk"
            )
            if needs_props:
                with_props.append((q + f", {sl('r')} AS rs", p))
            else:
                plain.append((q, p))
        rows: list[list[Any]] = []
        if plain:
            params = {k: v for _, p in plain for k, v in p.items()}
            rows += self._rows(" UNION ALL ".join(q for q, _ in plain), params)
        for q, p in with_props:
            rows += self._rows(q, p)
        found = self._neighbor_rows(rows, key_of)
        out: dict[str, Neighborhood] = {}
        for nid in ids:
            trips, total = found.get(nid, ([], 0))
            if lim is not None:
                trips = trips[:lim]
            out[nid] = Neighborhood.model_construct(
                node=nid, triplets=tuple(trips), total=total, truncated=len(trips) < total
            )
        return out

    def _neighbor_rows(
        self, rows: list[list[Any]], key_of: dict[tuple[str, str], list[str]]
    ) -> dict[str, tuple[list[Triplet], int]]:
        """(triplets, total) per node id from the rows of the neighbour queries (one row per
        node table and key, its edges as parallel lists)."""
        found: dict[str, tuple[list[Triplet], int]] = {}
        for row in rows:
            tl, k, total, io, rn, bl, bk = row[:7]
            rs = row[7] if len(row) > 7 else None
            for nid in key_of.get((tl, k), []):
                trips = []
                for j, (out_edge, rel, lab, key) in enumerate(zip(io, rn, bl, bk, strict=False)):
                    other = self._id_from(lab, key)
                    h, tt = (nid, other) if out_edge else (other, nid)
                    props = self._rel_props(rs[j]) if rs else {}
                    trips.append(Triplet.model_construct(
                        head=h, relation=str(rel), tail=tt, properties=props))
                prev, ptotal = found.get(nid, ([], 0))
                found[nid] = (prev + trips, ptotal + int(total))
        return found

    def degrees(self, ids: Sequence[str], *, direction: Direction = Direction.BOTH) -> dict[str, int]:
        direction = Direction(direction)
        ids = [str(i) for i in ids]
        left, right = {Direction.OUT: ("-", "->"), Direction.IN: ("<-", "-"),
                       Direction.BOTH: ("-", "-")}[direction]
        parts, params = [], {}
        key_of: dict[tuple[str, str], list[str]] = {}
        for n, (table, items) in enumerate(self._resolve(ids).items()):
            t = self._cat.nodes[table]
            if self._rel_pattern(None, table, direction) is None:
                continue
            params[f"k{n}"] = [k for _, k in items]
            for nid, k in items:
                key_of.setdefault((table, str(k)), []).append(nid)
            parts.append(
                f"MATCH (a:{_q(table)}){left}[r]{right}() WHERE a.{_q(t.key_prop)} IN $k{n} "
                f"RETURN {_s(table)} AS tl, CAST(a.{_q(t.key_prop)} AS STRING) AS k, "
                "count(r) AS d"
            )
        out = dict.fromkeys(ids, 0)
        if parts:
            for tl, k, d in self._rows(" UNION ALL ".join(parts), params):
                for nid in key_of.get((tl, k), []):
                    out[nid] += int(d)
        return out

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node | None]:
        ids = [str(i) for i in ids]
        out: dict[str, Node | None] = dict.fromkeys(ids)
        for table, items in self._resolve(ids).items():
            t = self._cat.nodes[table]
            rows = self._rows(
                f"MATCH (n:{_q(table)}) WHERE n.{_q(t.key_prop)} IN $keys RETURN n",
                {"keys": [k for _, k in items]},
            )
            for (n,) in rows:
                node = self._node_from_dict(n)
                if node.id in out and out[node.id] is None:
                    out[node.id] = node
        return out

    def has_node(self, node_id: str) -> bool:
        return self.get_nodes([node_id])[node_id] is not None

    def iter_node_names(self, batch_size: int = 10_000) -> Iterator[list[tuple[str, str]]]:
        """Per table one streamed query for the key and the properties its display rule reads
        (the name, a composite's parts, aliases)."""
        batch: list[tuple[str, str]] = []
        for t in self._cat.nodes.values():
            rule = self.rule_for((t.name,))
            # the key is read once even when the rule names it (Kùzu refuses a column twice)
            cols = [p for p in dict.fromkeys(rule.properties) if p in t.props and p != t.key_prop]
            extra = "".join(f", n.{_q(p)}" for p in cols)
            res = self._run(f"MATCH (n:{_q(t.name)}) RETURN n.{_q(t.key_prop)}{extra}")
            while res.has_next():
                row = res.get_next()
                nid = t.node_id(row[0])
                props = {t.key_prop: row[0], **dict(zip(cols, row[1:], strict=True))}
                batch.append((nid, rule.name_of(props) or nid))
                batch += [(nid, a) for a in rule.aliases_of(props)]
                if len(batch) >= batch_size:
                    yield batch
                    batch = []
        if batch:
            yield batch

    # ------------------------------------------------------------------ profile
    def profile_fingerprint(self) -> str:
        """The catalogue (tables, columns, comments) and the database files' sizes and times:
        no query."""
        import hashlib

        h = hashlib.blake2b(digest_size=16)
        for t in self._cat.nodes.values():
            h.update(f"N|{t.name}|{sorted(t.props.items())}|{t.comment}".encode())
        for r in self._cat.rels.values():
            h.update(f"R|{r.name}|{sorted(r.props.items())}|{r.pairs}|{r.comment}".encode())
        real = os.path.realpath(self.path)
        for f in (real, real + ".wal"):
            try:
                st = os.stat(f)
            except OSError:
                continue
            h.update(f"{f}|{st.st_size}|{st.st_mtime_ns}".encode())
            if os.path.isdir(f):
                for name in sorted(os.listdir(f)):
                    sub = os.stat(os.path.join(f, name))
                    h.update(f"{name}|{sub.st_size}|{sub.st_mtime_ns}".encode())
        return h.hexdigest()

    def profile_sample(self, *, nodes_per_label: int = 200, edges_per_type: int = 200,
                       examples: int = 3) -> GraphSample:
        """Node and rel tables from the catalogue; per node table a count and the first
        ``nodes_per_label`` nodes, per relationship type a count and the first
        ``edges_per_type`` edges (2 queries each; the triple layout's relation names and counts
        in one grouped query, samples only for its first 200 types), and per relationship type
        its distinct heads and tails per label (two grouped queries; the triple layout's in two
        for all types). Long because both layouts share one pass over the catalogue."""
        queries = 0
        labels = []
        for t in self._cat.nodes.values():
            (count,) = self._rows(f"MATCH (n:{_q(t.name)}) RETURN count(n)")[0]
            rows = self._rows(f"MATCH (n:{_q(t.name)}) RETURN n LIMIT {int(nodes_per_label)}")
            queries += 2
            nodes = tuple(self._sampled(n) for (n,) in rows)
            labels.append(LabelSample(name=t.name, count=int(count), key=t.key_prop,
                                      types=dict(t.props), nodes=nodes, hint=t.hint))
        rels, notes = [], []
        triple = self.triple_rel_table is not None
        rmap = self._relation_map()
        queries += int(triple)
        ends = self._triple_ends() if triple else {}
        queries += 2 * int(triple)
        for i, (name, entries) in enumerate(rmap.items()):
            rt = self._cat.rels[entries[0][0]]
            pairs = tuple(dict.fromkeys(p for e in entries for p in self._cat.rels[e[0]].pairs))
            types = {k: v for k, v in rt.props.items() if k != rt.type_prop}
            if rt.type_prop and i >= 200:
                if i == 200:
                    notes.append(f"{len(rmap) - 200} relationship types beyond the first 200 "
                                 "were not sampled")
                rels.append(RelationSample(name=name, count=self._rel_counts.get(name),
                                           pairs=pairs, types=types,
                                           heads=ends.get(("h", name)),
                                           tails=ends.get(("t", name))))
                continue
            where, params = "", {}
            if rt.type_prop:
                where, params = f" WHERE r.{_q(rt.type_prop)} = $t", {"t": name}
                count = self._rel_counts.get(name, 0)
            else:
                (count,) = self._rows(f"MATCH ()-[r:{_q(rt.name)}]->() RETURN count(r)")[0]
                queries += 1
            got = self._rows(f"MATCH (a)-[r:{_q(rt.name)}]->(b){where} RETURN a, r, b "
                             f"LIMIT {int(edges_per_type)}", params)
            queries += 1
            if rt.type_prop:
                hc, tc = ends.get(("h", name)), ends.get(("t", name))
            else:
                (hc, tc), queries = self._rel_ends(rt.name), queries + 2
            many = edge_multiplicity(int(count), [str(a["_id"]) for a, _, _ in got],
                                     [str(b["_id"]) for _, _, b in got], hc, tc)
            rels.append(RelationSample(
                name=name, count=int(count), pairs=pairs, types=types,
                edges=tuple(self._rel_props(r) for _, r, _ in got),
                examples=tuple((self._sampled(a), self._sampled(b)) for a, _, b in got[:examples]),
                heads=hc, tails=tc, **many))
        return GraphSample(labels=tuple(labels), relations=tuple(rels), dialect=self.dialect,
                           ids_are_names=triple, queries=queries, notes=tuple(notes))

    def _rel_ends(self, table: str) -> tuple[dict[str, int] | None, dict[str, int] | None]:
        """Distinct heads and tails per label of one relationship table (two grouped queries
        over its edges; None when the engine cannot count them)."""
        out: list[dict[str, int] | None] = []
        for pat, var in ((f"(a)-[r:{_q(table)}]->()", "a"), (f"()-[r:{_q(table)}]->(a)", "a")):
            try:
                rows = self._rows(f"MATCH {pat} RETURN label({var}), count(DISTINCT id({var}))")
                out.append({str(lab): int(c) for lab, c in rows})
            except Exception:  # noqa: BLE001 - the counts are a help; the sample decides then
                out.append(None)
        return out[0], out[1]

    def _triple_ends(self) -> dict[tuple[str, str], dict[str, int]]:
        """Per relation name of the triple table, distinct heads ("h") and tails ("t") per
        label: two grouped queries over the whole table."""
        table, tp = self.triple_rel_table, self.triple_type_property
        out: dict[tuple[str, str], dict[str, int]] = {}
        for end, pat in (("h", f"(a)-[r:{_q(table or '')}]->()"),
                         ("t", f"()-[r:{_q(table or '')}]->(a)")):
            try:
                rows = self._rows(f"MATCH {pat} RETURN r.{_q(tp or '')}, label(a), "
                                  "count(DISTINCT id(a))")
            except Exception:  # noqa: BLE001 - as in _rel_ends
                continue
            for t, lab, c in rows:
                out.setdefault((end, str(t)), {})[str(lab)] = int(c)
        return out

    def _sampled(self, n: Mapping[str, Any]) -> SampledNode:
        t = self._cat.nodes[n["_label"]]
        props = {k: v for k, v in n.items() if not k.startswith("_") and v is not None}
        return SampledNode(id=t.node_id(props.get(t.key_prop)), labels=(t.name,),
                           properties=props)

    def schema(self, *, samples: int = 3) -> GraphSchema:
        labels = []
        for t in self._cat.nodes.values():
            (count,) = self._rows(f"MATCH (n:{_q(t.name)}) RETURN count(n)")[0]
            vals: dict[str, list[Any]] = {p: [] for p in t.props}
            if samples:
                for (n,) in self._rows(f"MATCH (n:{_q(t.name)}) RETURN n LIMIT 50"):
                    for p in t.props:
                        v = n.get(p)
                        if v is not None and v not in vals[p] and len(vals[p]) < samples:
                            vals[p].append(v)
            labels.append(NodeLabel(
                name=t.name,
                count=int(count),
                properties=tuple(
                    PropertyInfo(name=p, type=typ, samples=tuple(_short(v) for v in vals[p]))
                    for p, typ in t.props.items()
                ),
            ))
        rels = []
        rmap = self._relation_map()
        for name, entries in rmap.items():
            rt = self._cat.rels[entries[0][0]]
            if rt.type_prop:
                count = self._rel_counts.get(name, 0)
            else:
                (count,) = self._rows(f"MATCH ()-[r:{_q(rt.name)}]->() RETURN count(r)")[0]
            pairs = [p for e in entries for p in self._cat.rels[e[0]].pairs]
            smp: list[tuple[str, str]] = []
            props = {k: v for k, v in rt.props.items() if k != rt.type_prop}
            pvals: dict[str, list[Any]] = {k: [] for k in props}
            if samples and (not rt.type_prop or len(rmap) <= 200):
                where, params = "", {}
                if rt.type_prop:
                    where, params = f" WHERE r.{_q(rt.type_prop)} = $t", {"t": name}
                rows = self._rows(
                    f"MATCH (a)-[r:{_q(rt.name)}]->(b){where} RETURN a, r, b LIMIT {int(samples)}",
                    params,
                )
                smp = [(self._node_from_dict(a).display, self._node_from_dict(b).display)
                       for a, _, b in rows]
                for _, r, _ in rows:
                    for k in props:
                        v = r.get(k)
                        if v is not None and v not in pvals[k]:
                            pvals[k].append(_short(v))
            rels.append(RelationType(
                name=name,
                count=int(count),
                patterns=tuple(RelationPattern(src=s, dst=d) for s, d in dict.fromkeys(pairs)),
                properties=tuple(PropertyInfo(name=k, type=v, samples=tuple(pvals[k]))
                                 for k, v in props.items()),
                samples=tuple(smp),
            ))
        return GraphSchema(node_labels=tuple(labels), relation_types=tuple(rels))

    def stats(self) -> GraphStats:
        nodes = sum(self._rows(f"MATCH (n:{_q(t)}) RETURN count(n)")[0][0] for t in self._cat.nodes)
        trips = sum(self._rows(f"MATCH ()-[r:{_q(t)}]->() RETURN count(r)")[0][0] for t in self._cat.rels)
        return GraphStats(
            nodes=int(nodes),
            triplets=int(trips),
            relations=len(self._relation_map()),
            labels=len(self._cat.nodes),
        )

    # ------------------------------------------------------------------ paths
    def shortest_paths(
        self, pairs: Sequence[tuple[str, str]], *, max_hops: int = 3, k: int = 1
    ) -> dict[tuple[str, str], list[Path]]:
        """Shortest paths over both edge directions (``* SHORTEST`` / ``* ALL SHORTEST``)."""
        max_hops = max(0, min(int(max_hops), self.MAX_HOPS))
        pairs = list(dict.fromkeys((str(s), str(t)) for s, t in pairs))
        out: dict[tuple[str, str], list[Path]] = {p: [] for p in pairs}
        ids = list(dict.fromkeys(x for p in pairs for x in p))
        where = {nid: [] for nid in ids}  # id -> [(table, key)]
        for table, items in self._resolve(ids).items():
            for nid, key in items:
                where[nid].append((table, key))
        # One query per pair with both ends bound as parameters: Kùzu's recursive join was
        # 5-50x slower with either end UNWOUND from a list (it searched from every node).
        present = None
        todo: list[tuple[str, str, str, Any, str, Any]] = []
        for s, t in pairs:
            if s == t:
                present = present or self.get_nodes(ids)
                if present.get(s) is not None:
                    out[(s, t)] = [Path(nodes=(s,))]
                continue
            todo += [(s, t, ts, ks, tt, kt) for ts, ks in where[s] for tt, kt in where[t]]
        if max_hops < 1:
            return out
        mode = "SHORTEST" if k == 1 else "ALL SHORTEST"
        for s, t, ts, ks, tt, kt in todo:
            a_key, b_key = self._cat.nodes[ts].key_prop, self._cat.nodes[tt].key_prop
            rows = self._rows(
                f"MATCH p = (a:{_q(ts)} {{{_q(a_key)}: $source}})"
                f"-[* {mode} 1..{max_hops}]-(b:{_q(tt)} {{{_q(b_key)}: $target}}) "
                "RETURN nodes(p), rels(p)",
                {"source": ks, "target": kt},
            )
            for nodes, rels in rows:
                out[(s, t)].append(Path(
                    nodes=tuple(self._node_id_of(n) for n in nodes),
                    relations=tuple(self._relation_of(r) for r in rels),
                    inverted=tuple(r["_src"] != nodes[i]["_id"] for i, r in enumerate(rels)),
                ))
        for key, paths in out.items():
            uniq = {(p.nodes, p.relations, p.inverted): p for p in paths}
            out[key] = sorted(uniq.values(), key=lambda p: (p.nodes, p.relations, p.inverted))[:k]
        return out

    def _node_id_of(self, n: Mapping[str, Any]) -> str:
        t = self._cat.nodes[n["_label"]]
        return t.node_id(n.get(t.key_prop))

    # ------------------------------------------------------------------ Cypher
    def _fetch(self, text: str, params: Mapping[str, Any] | None, timeout_s: float | None,
               max_rows: int | None) -> tuple[list[str], list[list[Any]]]:
        """Guarded queries (see GuardedQueries.query): Kùzu itself is opened read-only."""
        res = self._run(text, params, timeout_s)
        rows: list[list[Any]] = []
        while res.has_next() and (max_rows is None or len(rows) < max_rows):
            rows.append([_plain(v) for v in res.get_next()])
        if self.engine.upper_internal_keys:
            rows = _lower_keys(rows)
        return res.get_column_names(), rows

    def worker_spec(self) -> Any:
        """How a worker process reopens this graph (byokg.cypher.worker): same path and
        options, with a buffer pool no larger than the worker's memory cap."""
        from byokg.cypher.worker import StoreSpec
        from byokg.cypher.worker import WorkerLimits

        opts = {k: v for k, v in self._options.items() if v is not None}
        cap = (getattr(self, "worker_limits", None) or WorkerLimits()).memory_mb
        opts["buffer_pool_mb"] = min(int(opts.get("buffer_pool_mb") or cap), max(64, cap // 2))
        return StoreSpec(factory=self.worker_factory, uri=self.uri, options=opts)

    def explain(self, cypher: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Plan ``cypher`` without running it; raises QueryError on syntax/binding errors."""
        text = cypher.lstrip()
        if text[:7].upper() != "EXPLAIN":
            text = "EXPLAIN " + text
        rows = self._rows(text, params)
        plan = "\n".join(str(c) for row in rows for c in row)
        return {"plan": plan, "dialect": self.dialect}

    # ------------------------------------------------------------------ search
    def fulltext_search(self, texts: Sequence[str], *, k: int = 3) -> dict[str, list[tuple[str, float]]]:
        """BM25 search over every FTS index (created by ``byokg load``), best first per text."""
        out: dict[str, list[tuple[str, float]]] = {}
        for text in texts:
            hits: dict[str, float] = {}
            for table, idxs in self._cat.fts.items():
                t = self._cat.nodes.get(table)
                if t is None:
                    continue
                for idx, _cols in idxs:
                    rows = self._rows(
                        f"CALL QUERY_FTS_INDEX({_s(table)}, {_s(idx)}, $q, top := $k) "
                        f"RETURN node.{_q(t.key_prop)}, score",
                        {"q": text, "k": int(k)},
                    )
                    for key, score in rows:
                        nid = t.node_id(key)
                        hits[nid] = max(hits.get(nid, 0.0), float(score))
            out[text] = sorted(hits.items(), key=lambda x: (-x[1], x[0]))[:k]
        return out

    def vector_search(self, vectors: Sequence[Sequence[float]], *, k: int = 3) -> list[list[tuple[str, float]]]:
        """Nearest nodes per vector over every HNSW index; score = 1 - cosine distance."""
        out = []
        for vec in vectors:
            hits: dict[str, float] = {}
            for table, idxs in self._cat.vector.items():
                t = self._cat.nodes[table]
                for idx, _col in idxs:
                    rows = self._rows(
                        f"CALL QUERY_VECTOR_INDEX({_s(table)}, {_s(idx)}, $v, $k) "
                        f"RETURN node.{_q(t.key_prop)}, distance",
                        {"v": [float(x) for x in vec], "k": int(k)},
                    )
                    for key, dist in rows:
                        nid = t.node_id(key)
                        hits[nid] = max(hits.get(nid, -1.0), 1.0 - float(dist))
            out.append(sorted(hits.items(), key=lambda x: (-x[1], x[0]))[:k])
        return out

    def close(self) -> None:
        from byokg.cypher.worker import close_pool

        close_pool(self)
        conn = getattr(self, "_conn", None)
        if conn is not None:
            try:
                conn.close()
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
            self._conn = None
        view = getattr(self, "_view", None)
        if view is not None:
            view.close()


class _ReadOnlyView:
    """A private folder holding a symlink to the user's database (and copies of its ``.wal`` /
    ``.shadow`` if present). Kùzu opens the link read-only, so whatever it creates next to the
    database file (``.wal``, ``.shadow`` — even read-only connections did on some statements)
    lands in the private folder, removed on close, never next to the user's files."""

    def __init__(self, path: str, engine: KuzuEngine = KUZU) -> None:
        self.dir = tempfile.mkdtemp(prefix=f"byokg-{engine.name}-ro-")
        real = os.path.realpath(path)
        self.path = os.path.join(self.dir, os.path.basename(real.rstrip(os.sep)) or "graph.kz")
        try:
            os.symlink(real, self.path, target_is_directory=os.path.isdir(real))
            for suffix in (".wal", ".shadow"):
                if os.path.isfile(real + suffix):  # a log a writer left: read it, never change it
                    shutil.copyfile(real + suffix, self.path + suffix)
        except OSError:
            self.close()
            raise

    def close(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _plain(v: Any) -> Any:
    """Kùzu returns INT128 (e.g. ``sum`` of INT64) as Decimal: give ints/floats instead."""
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


_INTERNAL_KEYS = {"_ID": "_id", "_LABEL": "_label", "_SRC": "_src", "_DST": "_dst"}


def _lower_keys(v: Any) -> Any:
    """LadybugDB's node and rel dicts name their internal fields ``_ID``, ``_LABEL``, ``_SRC``,
    ``_DST``; Kùzu's ``_id`` … : one spelling for the whole family."""
    if isinstance(v, list):
        return [_lower_keys(x) for x in v]
    if isinstance(v, dict):
        return {_INTERNAL_KEYS.get(k, k): _lower_keys(x) for k, x in v.items()}
    return v


def _short(v: Any, limit: int = 80) -> Any:
    return v[:limit] + "…" if isinstance(v, str) and len(v) > limit else v


# --------------------------------------------------------------------------- loading

_KUZU_TYPES = {"string": "STRING", "int": "INT64", "float": "DOUBLE", "bool": "BOOLEAN",
               "date": "DATE", "datetime": "TIMESTAMP"}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\- ]*$")


def _check_ident(name: str, what: str, source: str) -> str:
    if not name or "`" in name or not _IDENT.match(name):
        raise InputError(
            f"{what} {name!r} cannot be a Kùzu table name (letters, digits, _ . - and spaces; "
            "starting with a letter or _)",
            source=source,
        )
    return name


def _new_db(engine: KuzuEngine, into: str) -> Any:
    """A writable connection to a NEW database at ``into`` (an existing one is refused)."""
    require_engine(engine)
    path = _path_of(into, engine)
    p = FsPath(path)
    if p.exists() and (p.is_file() and p.stat().st_size > 0 or p.is_dir() and any(p.iterdir())):
        raise ConfigError(
            f"{into}: {path} already exists; byokg load writes a new {engine.title} database, "
            "choose a new path or delete the old one"
        )
    if p.is_dir():
        p.rmdir()
    p.parent.mkdir(parents=True, exist_ok=True)
    try:
        process = _uri_options(into, engine).get("process", "auto")
        return connect(engine, path, read_only=False, uri=into, process=process)
    except RuntimeError as exc:
        raise BackendError(f"cannot create a {engine.title} database at {path}: {exc}",
                           uri=into) from None


def _copy(
    conn: Any, table: str, columns: dict[str, list[Any]], tmp: str, options: str = "",
    types: dict[str, str] | None = None,
) -> None:
    """Bulk-load columns into ``table`` through a temporary Parquet file (COPY FROM).

    ``types`` maps a column to its mapping type (string/int/float/bool/string[]) so that a
    column of only NULLs still gets the right Parquet type."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not columns or not len(next(iter(columns.values()))):
        return
    arrow = {"string": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
             "date": pa.date32(), "datetime": pa.timestamp("us"),
             "string[]": pa.list_(pa.string())}
    types = types or {}
    arrays = {c: pa.array(v, type=arrow.get(types.get(c, ""))) for c, v in columns.items()}
    f = os.path.join(tmp, f"copy_{time.monotonic_ns()}.parquet")
    pq.write_table(pa.table(arrays), f)
    try:
        conn.execute(f"COPY {_q(table)} FROM {_s(f)}{options}")
    finally:
        os.remove(f)


def load_into(
    engine: KuzuEngine,
    sources: Sequence[str],
    into: str,
    *,
    mapping: str | None = None,
    skip_bad_rows: bool = False,
    fulltext: bool = True,
    limits: Any = None,
    columns: Sequence[str] | None = None,
    **_: Any,
):
    """``byokg load``: triple files (CSV/TSV/JSONL; ``columns``: the column order of header-less
    CSVs) or, with ``mapping``, property-graph CSVs into a NEW database of ``engine``. Creates
    an FTS index over display names unless ``fulltext=False``."""
    if mapping:
        return _load_property_graph(engine, sources, into, mapping, skip_bad_rows, fulltext,
                                    limits)
    return _load_triples(engine, sources, into, skip_bad_rows, fulltext, limits, columns)


def _load_triples(engine: KuzuEngine, sources: Sequence[str], into: str, skip_bad_rows: bool,
                  fulltext: bool, limits: Any = None, columns: Sequence[str] | None = None):
    """Triple files into one ``Entity`` node table and one ``REL`` rel table (module doc)."""
    from byokg.io.loading import LoadSummary
    from byokg.io.readers import read_sources

    b, report = read_sources(sources, skip_bad_rows=skip_bad_rows, limits=limits,
                             columns=columns)
    table = b.freeze(report)
    ids = table.node_ids
    nodes = {
        "id": ids,
        # a node without a name is named by its id (as in memory:), so the FTS
        # index also finds Freebase-style graphs whose ids are the names
        "name": [table.name(i) for i in range(len(ids))],
        "aliases": [list(table.aliases.get(i, ())) or None for i in range(len(ids))],
    }
    rels = {
        "from": [ids[i] for i in table.heads.tolist()],
        "to": [ids[i] for i in table.tails.tolist()],
        "type": [table.rel_names[r] for r in table.rels.tolist()],
    }
    del b
    with _writing(engine, into) as conn, \
            tempfile.TemporaryDirectory(prefix=f"byokg-{engine.name}-") as tmp:
        conn.execute(
            f"CREATE NODE TABLE {TRIPLE_NODE_TABLE}(id STRING PRIMARY KEY, name STRING, aliases STRING[])"
        )
        conn.execute(f"COMMENT ON TABLE {TRIPLE_NODE_TABLE} IS '{NAME_COMMENT}name'")
        conn.execute(
            f"CREATE REL TABLE {TRIPLE_REL_TABLE}(FROM {TRIPLE_NODE_TABLE} TO {TRIPLE_NODE_TABLE}, "
            "type STRING)"
        )
        conn.execute(f"COMMENT ON TABLE {TRIPLE_REL_TABLE} IS '{TYPE_COMMENT}type'")
        _copy(conn, TRIPLE_NODE_TABLE, nodes, tmp,
              types={"id": "string", "name": "string", "aliases": "string[]"})
        _copy(conn, TRIPLE_REL_TABLE, rels, tmp,
              types={"from": "string", "to": "string", "type": "string"})
        if fulltext:
            note = _create_fts(engine, conn, f"CALL CREATE_FTS_INDEX('{TRIPLE_NODE_TABLE}', "
                                             "'byokg_name_fts', ['name'])")
            if note:
                report.notes.append(note)
    return LoadSummary.of(into, report)


def _create_fts(engine: KuzuEngine, conn: Any, statement: str) -> str | None:
    """Run a CREATE_FTS_INDEX statement; where the engine has no FTS extension at hand
    (LadybugDB ships it as a download, and ``INSTALL FTS`` needs the network) load it if it was
    installed, else skip the index and return the note saying so."""
    try:
        conn.execute(statement)
        return None
    except RuntimeError as exc:
        if "FTS" not in str(exc).upper() or "extension" not in str(exc).lower():
            raise
    try:
        conn.execute("LOAD EXTENSION FTS")
        conn.execute(statement)
        return None
    except RuntimeError as exc:
        return (f"no full-text index: {engine.title}'s FTS extension is not installed "
                f"({str(exc).splitlines()[0][:160]}); names are linked by byokg's own index "
                f"(run INSTALL FTS once in {engine.title} where it can reach the network, then "
                "load again to get one)")


def _remove_db(path: str) -> None:
    """Remove a half-written database (a file or a folder, with its ``.wal``)."""
    for p in (path, path + ".wal", path + ".shadow"):
        if os.path.isdir(p):
            shutil.rmtree(p, ignore_errors=True)
        elif os.path.exists(p):
            os.remove(p)


@contextmanager
def _writing(engine: KuzuEngine, into: str) -> Iterator[Any]:
    """A connection to a NEW database at ``into``; on an engine error the half-written
    database is removed and the error raised as a BackendError naming the target."""
    conn = _new_db(engine, into)
    try:
        yield conn
    except BaseException as exc:
        conn.close()
        _remove_db(_path_of(into, engine))
        if isinstance(exc, RuntimeError):
            raise BackendError(f"loading into {into} failed: {exc}", uri=into) from None
        raise
    conn.close()


def _load_property_graph(
    engine: KuzuEngine, sources: Sequence[str], into: str, mapping: str, skip_bad_rows: bool,
    fulltext: bool, limits: Any = None,
):
    """Property-graph CSVs described by a mapping (byokg/pgmapping.py): one node table per
    label, one rel table per relationship type (``FROM a TO b`` for each label pair)."""
    from byokg.io import pgmapping

    m = pgmapping.PGMapping.load(mapping)
    if len(sources) != 1 or not FsPath(sources[0]).is_dir():
        raise ConfigError(
            "with --mapping, give exactly one folder holding the CSV files the mapping names "
            f"(got {list(sources)})"
        )
    base = FsPath(sources[0])
    rel_props = _pg_rel_properties(m, mapping)
    report = pgmapping.PGLoadReport()
    unused = m.unused_files(base)
    if unused:
        report.notes.append(f"{base}: not named by the mapping, not read: {', '.join(unused)}")
    with _writing(engine, into) as conn, \
            tempfile.TemporaryDirectory(prefix=f"byokg-{engine.name}-") as tmp:
        _create_pg_tables(conn, m, rel_props)
        keys: dict[str, set[Any]] = {spec.label: set() for spec in m.nodes}
        for spec, batch in m.iter_nodes(base, skip_bad_rows=skip_bad_rows, report=report,
                                         limits=limits):
            keys[spec.label].update(r[spec.key] for r in batch)
            _copy(conn, spec.label, {c: [r[c] for r in batch] for c in spec.properties}, tmp,
                  types=dict(spec.properties))
        pairs = {t: {(s.src_label, s.dst_label) for s in m.edges if s.type == t} for t in rel_props}
        key_types = {n.label: n.properties[n.key] for n in m.nodes}
        for spec, batch in m.iter_edges(base, skip_bad_rows=skip_bad_rows, report=report,
                                         known_keys=keys, limits=limits):
            cols = {"from": [r["src"] for r in batch], "to": [r["dst"] for r in batch]}
            cols.update({c: [r[c] for r in batch] for c in spec.properties})
            opts = (f" (from={_s(spec.src_label)}, to={_s(spec.dst_label)})"
                    if len(pairs[spec.type]) > 1 else "")
            _copy(conn, spec.type, cols, tmp, opts, types={
                "from": key_types[spec.src_label], "to": key_types[spec.dst_label],
                **spec.properties})
        if not report.edges:
            raise InputError(f"no relationships loaded ({report.nodes:,} nodes; "
                             f"{report.dangling:,} edge rows without both ends); a graph needs "
                             "edges: check the mapping's edge specs", source=mapping)
        if fulltext:
            for spec in m.nodes:
                if spec.name and not kuzu_bare_name(spec.name):
                    # Kùzu's FTS writes the property name unquoted into its own query text
                    report.notes.append(
                        f"{spec.label}: no full-text index on {spec.name!r} (Kùzu's full-text "
                        "index takes plain, unreserved property names only); names are linked "
                        "by byokg's own index")
                elif spec.name:
                    note = _create_fts(engine, conn, (
                        f"CALL CREATE_FTS_INDEX({_s(spec.label)}, "
                        f"{_s('byokg_' + spec.label + '_name_fts')}, [{_s(spec.name)}])"))
                    if note:
                        report.notes.append(note)
                        break
    return report.summary(into)


def _pg_rel_properties(m: Any, mapping: str) -> dict[str, dict[str, str]]:
    """Per relationship type, its typed properties; every name checked as a Kùzu table name,
    and every edge spec of a type must list the same properties with the same types."""
    for spec in m.nodes:
        _check_ident(spec.label, "node label", mapping)
    for spec in [*m.nodes, *m.edges]:
        for col in spec.properties:
            try:
                quote_identifier(col, "kuzu")
            except UnsafeIdentifier as exc:
                raise InputError(f"property {col!r} cannot be a Kùzu column name: {exc}",
                                 source=mapping, field="properties") from None
    out: dict[str, dict[str, str]] = {}
    for spec in m.edges:
        _check_ident(spec.type, "relationship type", mapping)
        props = out.setdefault(spec.type, dict(spec.properties))
        for c, t in spec.properties.items():
            if props.setdefault(c, t) != t:
                raise InputError(
                    f"relationship type {spec.type!r}: property {c!r} is typed both "
                    f"{props[c]} and {t} in different edge specs", source=mapping)
    for spec in m.edges:
        if set(spec.properties) != set(out[spec.type]):
            raise InputError(
                f"edge specs of {spec.type!r} must list the same properties", source=mapping)
    return out


def _create_pg_tables(conn: Any, m: Any, rel_props: dict[str, dict[str, str]]) -> None:
    for spec in m.nodes:
        cols = ", ".join(f"{_q(c)} {_KUZU_TYPES[t]}" for c, t in spec.properties.items())
        conn.execute(f"CREATE NODE TABLE {_q(spec.label)}({cols}, PRIMARY KEY({_q(spec.key)}))")
        if spec.name:
            conn.execute(f"COMMENT ON TABLE {_q(spec.label)} IS {_s(NAME_COMMENT + spec.name)}")
    for typ, props in rel_props.items():
        pairs = dict.fromkeys((s.src_label, s.dst_label) for s in m.edges if s.type == typ)
        conns = ", ".join(f"FROM {_q(a)} TO {_q(b)}" for a, b in pairs)
        pcols = "".join(f", {_q(c)} {_KUZU_TYPES[t]}" for c, t in props.items())
        conn.execute(f"CREATE REL TABLE {_q(typ)}({conns}{pcols})")
