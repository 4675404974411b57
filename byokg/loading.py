"""``byokg load``: read triple files and write them into a graph store."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path as FsPath

from .errors import ConfigError
from .graph import uri_scheme


@dataclass
class LoadSummary:
    target: str
    nodes: int = 0
    triplets: int = 0
    duplicates: int = 0
    bad_rows: int = 0
    reasons: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [
            f"loaded {self.triplets:,} triplets over {self.nodes:,} nodes into {self.target}",
        ]
        if self.duplicates:
            lines.append(f"duplicates skipped: {self.duplicates:,}")
        if self.bad_rows:
            lines.append(f"bad rows skipped: {self.bad_rows:,}; first reasons:")
            lines += [f"  {r}" for r in self.reasons]
        return "\n".join(lines)


def load_into(
    sources: list[str], into: str, *, mapping: str | None = None, skip_bad_rows: bool = False
) -> LoadSummary:
    """Load ``sources`` into the store at ``into``.

    ``memory:FILE.jsonl`` writes a validated, deduplicated JSONL file the memory backend reads;
    other schemes use the ``loader`` their backend registered (see docs/backends.md).
    """
    from . import registry

    scheme = uri_scheme(into)
    if scheme == "memory":
        if mapping:
            raise ConfigError("--mapping is for property-graph stores (kuzu, neo4j), not memory:")
        return _load_memory(sources, into, skip_bad_rows)
    reg = registry.backends()
    entry = reg.get(scheme)
    loader = entry.meta.get("loader")
    if loader is None:
        raise ConfigError(f"backend {scheme!r} (plugin {entry.plugin}) does not support `byokg load`")
    return loader(sources, into, mapping=mapping, skip_bad_rows=skip_bad_rows)


def _load_memory(sources: list[str], into: str, skip_bad_rows: bool) -> LoadSummary:
    from .backends.memory import GraphBuilder, LoadReport, load_csv, load_jsonl

    out = FsPath(into.split(":", 1)[1])
    if out.suffix not in (".jsonl", ".ndjson"):
        raise ConfigError(f"memory target {out} must be a .jsonl file")
    b = GraphBuilder()
    total = LoadReport(source=",".join(sources))
    for src in sources:
        loader = load_jsonl if src.endswith((".jsonl", ".ndjson")) else load_csv
        _, rep = loader(src, builder=b, skip_bad_rows=skip_bad_rows)
        total.bad_rows += rep.bad_rows
        total.reasons.extend(rep.reasons)
    graph = b.build(into, total)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        for nid, node in graph.get_nodes(list(b.node_ids)).items():
            if node is None:
                continue
            rec: dict = {}
            if node.name and node.name != nid:
                rec["name"] = node.name
            if node.aliases:
                rec["aliases"] = list(node.aliases)
            if node.labels and node.labels != ("Entity",):
                rec["labels"] = list(node.labels)
            if node.properties:
                rec["properties"] = node.properties
            if rec:
                fh.write(json.dumps({"id": nid, **rec}, ensure_ascii=False) + "\n")
        for e in range(len(graph)):
            t = graph._triplet(e)
            row = {"head": t.head, "relation": t.relation, "tail": t.tail}
            if t.properties:
                row["properties"] = t.properties
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    st = graph.stats()
    return LoadSummary(
        target=into,
        nodes=st.nodes,
        triplets=st.triplets,
        duplicates=total.duplicates,
        bad_rows=total.bad_rows,
        reasons=total.reasons[:5],
    )
