"""Render a graph's schema compactly in Cypher-like form, optionally within a token budget.

The render reads the graph's profile (:mod:`byokg.graph.profile`): per label the property that names
its nodes, the key, and each property with its type and an example written as a Cypher literal
(``'Marie Curie'``, ``date('1867-11-07')``, ``true`` — never a Python repr); per relationship
type its domain and range, cardinality, and its own properties with types. A plain
:class:`~byokg.contracts.GraphSchema` is rendered the same way (its samples decide the types).
"""

from __future__ import annotations

from collections.abc import Sequence

from byokg.contracts import GraphSchema
from byokg.graph.profile import (
    GraphProfile,
    LabelProfile,
    PropertyProfile,
    RelationProfile,
    cypher_literal,
    value_kind,
)
from byokg.language.text import count_tokens

MAX_PROPS = 12  # properties shown per label (the rest counted)
_KIND_NAMES = {"string": "STRING", "int": "INTEGER", "float": "FLOAT", "bool": "BOOLEAN",
               "date": "DATE", "datetime": "DATETIME", "list": "LIST", "map": "MAP"}


def as_profile(schema: GraphSchema | GraphProfile) -> GraphProfile:
    """A profile view of a plain schema (types from the sample values), or the profile itself."""
    if isinstance(schema, GraphProfile):
        return schema
    labels = []
    for lab in schema.node_labels:
        props = []
        for p in lab.properties:
            kinds = {value_kind(v) for v in p.samples if v is not None}
            kind = kinds.pop() if len(kinds) == 1 else "unknown"
            props.append(PropertyProfile(name=p.name, type=p.type, kind=kind,
                                         examples=tuple(p.samples)))
        labels.append(LabelProfile(name=lab.name, count=lab.count, properties=tuple(props)))
    rels = [RelationProfile(
        name=r.name, count=r.count, pairs=tuple((p.src, p.dst) for p in r.patterns),
        domain=tuple(dict.fromkeys(p.src for p in r.patterns)),
        range=tuple(dict.fromkeys(p.dst for p in r.patterns)),
        properties=tuple(PropertyProfile(name=p.name, type=p.type, examples=tuple(p.samples),
                                         kind=value_kind(p.samples[0]) if p.samples else "unknown")
                         for p in r.properties),
        examples=tuple(r.samples)) for r in schema.relation_types]
    return GraphProfile(labels=tuple(labels), relations=tuple(rels))


def _type(p: PropertyProfile) -> str:
    name = _KIND_NAMES.get(p.kind, (p.type or "").upper() or "ANY")
    if p.text_kind:
        name += f" ({p.text_kind}s as text)"
    return name


def _prop(p: PropertyProfile, dialect: str | None, tags: Sequence[str] = ()) -> str:
    text = f"{p.name}: {_type(p)}"
    if p.examples:
        text += " " + cypher_literal(p.examples[0], p.kind, dialect=dialect, limit=30)
    if tags:
        text += " [" + ", ".join(tags) + "]"
    return text


def label_line(lab: LabelProfile, dialect: str | None) -> str:
    """``(:Label {name prop first, key, other properties})  // N nodes``."""
    first = [*lab.display_parts, *([lab.key] if lab.key and lab.key not in lab.display_parts
                                   else [])]
    order = [p for p in first if lab.prop(p) is not None]
    order += [p.name for p in lab.properties if p.name not in order]
    parts = []
    for name in order[:MAX_PROPS]:
        p = lab.prop(name)
        assert p is not None
        tags = []
        if name in lab.display_parts:
            tags.append("name" if len(lab.display_parts) == 1 else "part of the name")
        if name == lab.key:
            tags.append("key")
        parts.append(_prop(p, dialect, tags))
    if len(order) > MAX_PROPS:
        parts.append(f"… {len(order) - MAX_PROPS} more")
    count = f"  // {lab.count:,} nodes" if lab.count is not None else ""
    return f"(:{lab.name} {{{', '.join(parts)}}}){count}"


def relation_line(rel: RelationProfile, dialect: str | None) -> str:
    """``(:A)-[:REL {props}]->(:B)  // cardinality, N edges  e.g. 'x' -> 'y'``."""
    props = ", ".join(_prop(p, dialect) for p in rel.properties[:MAX_PROPS])
    inner = f":{rel.name}" + (f" {{{props}}}" if props else "")
    pairs = rel.pairs or (("", ""),)
    a, b = pairs[0]
    line = f"(:{a})-[{inner}]->(:{b})" if a or b else f"()-[{inner}]->()"
    if len(pairs) > 1:
        line += " | " + " | ".join(f"(:{s})->(:{d})" for s, d in pairs[1:3])
    notes = [x for x in (rel.cardinality,
                         f"{rel.count:,} edges" if rel.count is not None else None) if x]
    if notes:
        line += "  // " + ", ".join(notes)
    if rel.examples:
        h, t = rel.examples[0]
        line += (f"  e.g. {cypher_literal(h, 'string', limit=30)} -> "
                 f"{cypher_literal(t, 'string', limit=30)}")
    return line


def render_schema(
    schema: GraphSchema | GraphProfile,
    *,
    relation_order: Sequence[str] | None = None,
    max_tokens: int | None = None,
) -> str:
    """``(:Label {prop: TYPE example, …})`` lines, then ``(:A)-[:REL {…}]->(:B)`` lines.

    ``relation_order`` lists relations most relevant first; with ``max_tokens`` the tail of that
    order is cut and the number of omitted relations is stated, never silently dropped.
    """
    prof = as_profile(schema)
    dialect = prof.dialect
    lines = ["Node labels:  ([name] names the nodes, [key] identifies them)"]
    lines += [label_line(lab, dialect) for lab in prof.labels]
    lines.append("Relationships:")
    by_name = {r.name: r for r in prof.relations}
    names = list(relation_order) if relation_order is not None else list(by_name)
    names = [n for n in names if n in by_name] + [n for n in by_name if n not in set(names)]
    used = count_tokens("\n".join(lines))
    shown = 0
    for name in names:
        line = relation_line(by_name[name], dialect)
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
