"""Render a GraphSchema compactly in Cypher-like form, optionally within a token budget."""

from __future__ import annotations

from collections.abc import Sequence

from .contracts import GraphSchema
from .text import count_tokens


def _fmt(value: object, limit: int = 40) -> str:
    s = repr(value) if not isinstance(value, str) else f'"{value}"'
    return s if len(s) <= limit else s[: limit - 4] + '…"'


def render_schema(
    schema: GraphSchema,
    *,
    relation_order: Sequence[str] | None = None,
    max_tokens: int | None = None,
) -> str:
    """``(:Label {prop: sample, …})`` lines, then ``(:A)-[:REL]->(:B)`` lines.

    ``relation_order`` lists relations most relevant first; with ``max_tokens`` the tail of that
    order is cut and the number of omitted relations is stated, never silently dropped.
    """
    lines = ["Node labels:"]
    for lab in schema.node_labels:
        props = ", ".join(
            f"{p.name}: {_fmt(p.samples[0])}" if p.samples else p.name for p in lab.properties
        )
        count = f"  // {lab.count:,} nodes" if lab.count is not None else ""
        lines.append(f"(:{lab.name} {{{props}}}){count}")
    lines.append("Relationships:")
    by_name = {r.name: r for r in schema.relation_types}
    names = list(relation_order) if relation_order is not None else list(by_name)
    names = [n for n in names if n in by_name] + [n for n in by_name if n not in set(names)]
    used = count_tokens("\n".join(lines))
    shown = 0
    for name in names:
        rel = by_name[name]
        pats = rel.patterns or ()
        pat = pats[0] if pats else None
        line = f"(:{pat.src})-[:{name}]->(:{pat.dst})" if pat else f"()-[:{name}]->()"
        if len(pats) > 1:
            line += " | " + " | ".join(f"(:{p.src})->(:{p.dst})" for p in pats[1:3])
        if rel.samples:
            h, t = rel.samples[0]
            line += f"  e.g. {_fmt(h, 30)} -> {_fmt(t, 30)}"
        cost = count_tokens(line) + 1
        if max_tokens is not None and used + cost > max_tokens and shown:
            break
        lines.append(line)
        used += cost
        shown += 1
    omitted = len(names) - shown
    if omitted:
        lines.append(f"// {omitted} more relationship types omitted (least relevant to the question)")
    return "\n".join(lines)
