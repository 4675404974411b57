"""``byokg load`` for Cypher servers (Neo4j / Bolt, FalkorDB): the reading, checking and
batching shared by their loaders, written through a small :class:`CypherWriter` each backend
implements (its own client, sessions and write command). Backends import this from the core.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from typing import Protocol

from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.io.loading import LoadSummary

from .storecommon import _plain
from .storecommon import esc


class CypherWriter(Protocol):
    """What the shared loaders need from a backend's writer."""

    dialect: str  # quoting rules of the names (byokg.cypher.lexer.quote_identifier)

    def create_nodes(self, label: str, rows: list[dict[str, Any]], size: int) -> None: ...

    def create_edges(self, src: tuple[str, str], rel: str, dst: tuple[str, str],
                     rows: list[dict[str, Any]], size: int) -> None: ...

    def index(self, label: str, prop: str) -> None: ...

    def flush(self) -> None: ...


def check_names(names: Any, what: str, source: str, dialect: str = "neo4j") -> None:
    """Refuse labels / relation types / property keys that cannot be written into query text
    (see :func:`byokg.cypher.lexer.quote_identifier`), naming the name and the source."""
    for name in names:
        try:
            esc(name, dialect)
        except ConfigError as exc:
            raise InputError(f"{what} {name!r} cannot be written into a Cypher query: {exc}; "
                             "rename it in the source", source=source, field=what) from None




def load_triples(
    w: CypherWriter, sources: list[str], into: str, skip_bad_rows: bool, batch_size: int,
    limits: Any = None, columns: Sequence[str] | None = None,
) -> LoadSummary:
    """Triple CSV/JSONL files (validated and deduplicated by byokg.io.readers) become
    ``(:Entity {id, name})`` nodes (or the JSONL node's first label) and typed relationships,
    written through ``w``; ``into`` is the target as it may be shown (no password)."""
    from byokg.io.readers import read_sources

    b, report = read_sources(sources, skip_bad_rows=skip_bad_rows, limits=limits,
                             columns=columns)
    table = b.freeze(report)
    source = ",".join(map(str, sources))
    d = w.dialect
    check_names({lb for ls in table.labels.values() for lb in ls}, "node label", source, d)
    check_names(set(table.rel_names), "relation", source, d)
    check_names({k for p in table.node_props.values() for k in p}, "node property", source, d)
    by_label: dict[str, list[dict[str, Any]]] = {}
    for i, nid in enumerate(table.node_ids):
        props: dict[str, Any] = {k: _plain(v) for k, v in table.node_props.get(i, {}).items()}
        props["id"] = nid
        props["name"] = table.name(i)
        if i in table.aliases:
            props["aliases"] = list(table.aliases[i])
        by_label.setdefault(table.label(i), []).append(props)
    for label in by_label:
        w.index(label, "id")
    for label, rows in by_label.items():
        w.create_nodes(label, rows, batch_size)
    w.flush()
    label_of = {nid: table.label(i) for i, nid in enumerate(table.node_ids)}
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for t in table.triplets():
        key = (label_of[t.head], t.relation, label_of[t.tail])
        groups.setdefault(key, []).append(
            {"s": t.head, "d": t.tail, "p": {k: _plain(v) for k, v in t.properties.items()}}
        )
    for (sl, rel, dl), rows in groups.items():
        w.create_edges((sl, "id"), rel, (dl, "id"), rows, batch_size)
    w.flush()
    return LoadSummary.of(into, report)


def load_property_graph(
    w: CypherWriter,
    sources: list[str],
    into: str,
    mapping: str,
    batch_size: int,
    skip_bad_rows: bool = False,
    limits: Any = None,
) -> LoadSummary:
    """Property-graph CSVs via byokg.io.pgmapping (``sources[0]`` = the CSV folder): nodes keep
    their typed properties plus ``id = "Label:key"`` (byokg's node id, as in the Kùzu backend;
    a row that already has an ``id`` column keeps it); edges are matched on the label keys.
    Open the store with ``name_properties=mapping_name_properties(mapping)`` for display names.

    Long because the checks that must pass before anything is written (files, a relationship to
    load, safe names) come first, then nodes, then edges, in one transaction of the writer."""
    from pathlib import Path as FsPath

    from byokg.io.pgmapping import PGLoadReport
    from byokg.io.pgmapping import PGMapping

    spec = PGMapping.load(mapping)
    if not sources:
        raise ConfigError("give the folder holding the mapping's CSV files as the source")
    base = FsPath(sources[0])
    base_dir = base if base.is_dir() else base.parent
    report = PGLoadReport()
    unused = spec.unused_files(base_dir)
    if unused:
        report.notes.append(f"{base_dir}: not named by the mapping, not read: {', '.join(unused)}")
    probe = PGLoadReport()  # nothing is written when the mapping yields no relationship
    if not any(True for _ in spec.iter_edges(base_dir, batch_size=1, skip_bad_rows=skip_bad_rows,
                                             report=probe, limits=limits)):
        raise InputError(f"no relationships loaded ({probe.dangling:,} edge rows without both "
                         "ends); a graph needs edges: check the mapping's edge specs",
                         source=mapping)
    check_names({n.label for n in spec.nodes}, "node label", mapping, w.dialect)
    check_names({e.type for e in spec.edges}, "relationship type", mapping, w.dialect)
    check_names({c for n in spec.nodes for c in n.properties}
                | {c for e in spec.edges for c in e.properties}, "property", mapping, w.dialect)
    keys = {n.label: n.key for n in spec.nodes}
    for n in spec.nodes:
        w.index(n.label, n.key)
        w.index(n.label, "id")
    for node_spec, rows in spec.iter_nodes(
        base_dir, batch_size=batch_size, skip_bad_rows=skip_bad_rows, report=report, limits=limits
    ):
        out = []
        for r in rows:
            r = {k: v for k, v in r.items() if v is not None}
            r.setdefault("id", f"{node_spec.label}:{r[node_spec.key]}")
            out.append(r)
        w.create_nodes(node_spec.label, out, batch_size)
    w.flush()
    for edge_spec, rows in spec.iter_edges(
        base_dir, batch_size=batch_size, skip_bad_rows=skip_bad_rows, report=report, limits=limits
    ):
        out = [
            {"s": r["src"], "d": r["dst"],
             "p": {k: v for k, v in r.items() if k not in ("src", "dst") and v is not None}}
            for r in rows
        ]
        w.create_edges(
            (edge_spec.src_label, keys[edge_spec.src_label]),
            edge_spec.type,
            (edge_spec.dst_label, keys[edge_spec.dst_label]),
            out,
            batch_size,
        )
    w.flush()
    return report.summary(into)



def mapping_name_properties(mapping: str) -> tuple[str, ...]:
    """Display-name properties of a property-graph mapping (its nodes' ``name`` columns): pass
    as ``name_properties=`` when opening the loaded graph (hints the profile follows)."""
    from byokg.io.pgmapping import PGMapping

    return tuple(dict.fromkeys(n.name for n in PGMapping.load(mapping).nodes if n.name))
