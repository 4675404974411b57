"""Render a graph's schema compactly in Cypher-like form, optionally within a budget.

The render reads the graph's profile (:mod:`byokg.graph.profile`): per label the property that
names its nodes, the key, and every property with its type and an example written as a Cypher
literal (``'Marie Curie'``, ``date('1867-11-07')``, ``true`` — never a Python repr), the examples
of one label taken from one real node (never mixed across nodes), a date kept as text with its
format (``STRING (dates as text 'YYYY-MM-DD hh:mm:ss.SSS')``); per relationship type its domain
and range, cardinality and coverage counted in the data (``8 of 24 Town have one``), and its
own properties with types. A plain :class:`~byokg.contracts.GraphSchema` is rendered the same
way (its samples decide the types).

Within a budget (characters or tokens) the labels a question touches keep every property; the
others are summarised (their name, key and best properties, the rest counted), then the least
relevant relationship types are cut, then untouched labels — each cut said in the text.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence

from byokg.contracts import GraphSchema
from byokg.graph.profile import GraphProfile
from byokg.graph.profile import LabelProfile
from byokg.graph.profile import PropertyProfile
from byokg.graph.profile import RelationProfile
from byokg.graph.profile import cypher_literal
from byokg.graph.profile import cypher_name
from byokg.graph.profile import value_kind
from byokg.language.text import count_tokens

SUMMARY_PROPS = 3  # properties a summarised label shows besides its name and key
_KIND_NAMES = {"string": "STRING", "int": "INTEGER", "float": "FLOAT", "bool": "BOOLEAN",
               "date": "DATE", "datetime": "DATETIME", "list": "LIST", "map": "MAP"}
_NO_EXAMPLE = object()


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
    if p.text_kind == "date" and p.text_format:
        name += f" (dates as text '{p.text_format}')"
    elif p.text_kind:
        name += f" ({p.text_kind}s as text)"
    return name


def _prop(p: PropertyProfile, dialect: str | None, tags: Sequence[str] = (),
          example: object = _NO_EXAMPLE) -> str:
    """``name: TYPE example [tags]``; ``example`` from the label's example node (absent there:
    no example, the share of nodes that have it instead), else the property's first example."""
    text = f"{cypher_name(p.name)}: {_type(p)}"
    if example is _NO_EXAMPLE:
        example = p.examples[0] if p.examples else None
        if example is not None:
            text += " " + cypher_literal(example, p.kind, dialect=dialect, limit=30)
    elif example is not None:
        text += " " + cypher_literal(example, p.kind, dialect=dialect, limit=30)
    elif p.filled is not None and p.filled < 1:
        text += f" ({p.filled:.0%} filled)"
    if tags:
        text += " [" + ", ".join(tags) + "]"
    return text


def label_line(lab: LabelProfile, dialect: str | None, *,
               rank: Callable[[str], float] | None = None, keep: int | None = None) -> str:
    """``(:Label {name prop first, key, the other properties best first})  // N nodes``; with
    ``keep``, only that many properties besides the name and key, the rest counted."""
    first = [*lab.display_parts, *([lab.key] if lab.key and lab.key not in lab.display_parts
                                   else [])]
    order = [p for p in first if lab.prop(p) is not None]
    rest = [p.name for p in lab.properties if p.name not in order]
    if rank is not None:  # best first, ties in the label's own order
        rest = sorted(rest, key=lambda n: (-round(rank(n), 6), rest.index(n)))
    shown = order + (rest if keep is None else rest[:keep])
    parts = []
    for name in shown:
        p = lab.prop(name)
        assert p is not None
        tags = []
        if name in lab.display_parts:
            tags.append("name" if len(lab.display_parts) == 1 else "part of the name")
        if name == lab.key:
            tags.append("key")
        ex = lab.example.get(name) if lab.example else _NO_EXAMPLE
        parts.append(_prop(p, dialect, tags, ex))
    hidden = len(order) + len(rest) - len(shown)
    if hidden:
        parts.append(f"… {hidden} more properties")
    count = f"  // {lab.count:,} nodes" if lab.count is not None else ""
    return f"(:{cypher_name(lab.name)} {{{', '.join(parts)}}}){count}"


def _coverage(ends: Mapping[str, int], labels: Mapping[str, LabelProfile], verb: str) -> str:
    """``8 of 24 Town have one`` per label (``every Artist has one`` when all do)."""
    out = []
    for name, n in ends.items():
        lab = labels.get(name)
        if lab is None or lab.count is None or not lab.count:
            continue
        if n >= lab.count:
            out.append(f"every {name} {verb.replace('have', 'has')}")
        else:
            out.append(f"{n:,} of {lab.count:,} {name} {verb}")
    return ", ".join(out)


def relation_line(rel: RelationProfile, dialect: str | None,
                  labels: Mapping[str, LabelProfile] | None = None) -> str:
    """``(:A)-[:REL {props}]->(:B)  // cardinality, N edges; coverage  e.g. 'x' -> 'y'``."""
    props = ", ".join(_prop(p, dialect) for p in rel.properties)
    inner = f":{cypher_name(rel.name)}" + (f" {{{props}}}" if props else "")
    pairs = [(cypher_name(s) if s else s, cypher_name(d) if d else d)
             for s, d in (rel.pairs or (("", ""),))]
    a, b = pairs[0]
    line = f"(:{a})-[{inner}]->(:{b})" if a or b else f"()-[{inner}]->()"
    if len(pairs) > 1:
        line += " | " + " | ".join(f"(:{s})->(:{d})" for s, d in pairs[1:3])
    notes = [x for x in (rel.cardinality,
                         f"{rel.count:,} edges" if rel.count is not None else None) if x]
    if labels and rel.heads:
        notes.append(_coverage(rel.heads, labels, "have one"))
    if labels and rel.tails:  # the far end only when some nodes are never reached
        part = {k: v for k, v in rel.tails.items()
                if labels.get(k) is not None and (labels[k].count or 0) > v}
        if part:
            notes.append(_coverage(part, labels, "have one pointing in"))
    notes = [n for n in notes if n]
    if notes:
        line += "  // " + "; ".join([", ".join(notes[:2]), *notes[2:]])
    if rel.examples:
        h, t = rel.examples[0]
        line += (f"  e.g. {cypher_literal(h, 'string', limit=30)} -> "
                 f"{cypher_literal(t, 'string', limit=30)}")
    return line


def _date_notes(prof: GraphProfile) -> list[str]:
    """How to compare the graph's dates: one line per text format, one for DATE values."""
    fmts = sorted({p.text_format for lab in prof.labels for p in lab.properties
                   if p.text_kind == "date" and p.text_format}
                  | {p.text_format for r in prof.relations for p in r.properties
                     if p.text_kind == "date" and p.text_format})
    typed = any(p.kind in ("date", "datetime") for lab in prof.labels for p in lab.properties)
    out = []
    for f in fmts:
        if not f.startswith("YYYY"):
            out.append(f"Dates as text '{f}' do not sort as text: compare their parts "
                       "(substring) or convert them first")
            continue
        timed = any(c in f for c in "hms")
        day = _written(f, "1997-01-02" if timed else "1997-01-01")
        rule = (f">= '{day}' (> '1997-01-01' would also match times on 1 January)" if timed
                else f"> '{day}'")
        out.append(f"Dates as text '{f}' compare as text in that format: after 1 January 1997 "
                   f"is {rule}")
    if typed:
        out.append("DATE properties compare with date('YYYY-MM-DD')")
    return out


def _written(fmt: str, iso_day: str) -> str:
    """``iso_day`` (YYYY-MM-DD) written in a text date format, its time at midnight."""
    y, m, d = iso_day.split("-")
    out = fmt.replace("YYYY", y).replace("MM", m).replace("DD", d)
    for part, zero in (("SSSSSS", "000000"), ("SSS", "000"), ("hh", "00"), ("mm", "00"),
                       ("ss", "00")):
        out = out.replace(part, zero)
    return out


def render_schema(
    schema: GraphSchema | GraphProfile,
    *,
    relation_order: Sequence[str] | None = None,
    max_tokens: int | None = None,
    max_chars: int | None = None,
    label_scores: Mapping[str, float] | None = None,
    touched: Sequence[str] | None = None,
    prop_rank: Callable[[str, str], float] | None = None,
) -> str:
    """``(:Label {prop: TYPE example, …})`` lines, then ``(:A)-[:REL {…}]->(:B)`` lines.

    ``relation_order`` lists relations most relevant first. With a budget (``max_tokens`` or
    ``max_chars``): labels not in ``touched`` are summarised, least relevant first
    (``label_scores``), then the tail of the relation order is cut, then untouched labels —
    each cut stated in the text, never silent. ``prop_rank(label, prop)`` orders properties.
    (Long because the three cuts share the lines built so far and are tried in order.)
    """
    prof = as_profile(schema)
    dialect = prof.dialect
    labels = {lab.name: lab for lab in prof.labels}
    by_name = {r.name: r for r in prof.relations}
    names = list(relation_order) if relation_order is not None else list(by_name)
    names = [n for n in names if n in by_name] + [n for n in by_name if n not in set(names)]
    keep_full = set(labels) if touched is None else set(touched) & set(labels)
    scores = label_scores or {}
    shrink = sorted((n for n in labels if n not in keep_full),
                    key=lambda n: (scores.get(n, 0.0), n))  # least relevant first

    def rank_of(lab: str) -> Callable[[str], float] | None:
        return (lambda p: prop_rank(lab, p)) if prop_rank is not None else None

    def size(text: str) -> int:
        return len(text) if max_chars is not None else count_tokens(text)

    budget = max_chars if max_chars is not None else max_tokens
    head = ["Node labels:  ([name] names the nodes, [key] identifies them; a label's examples "
            "come from one node)"]
    head += _date_notes(prof)
    summarised: set[str] = set()
    dropped: list[str] = []

    def label_lines() -> list[str]:
        out = []
        for lab in prof.labels:
            if lab.name in dropped:
                continue
            keep = SUMMARY_PROPS if lab.name in summarised else None
            out.append(label_line(lab, dialect, rank=rank_of(lab.name), keep=keep))
        if dropped:
            out.append(f"// {len(dropped)} more labels not shown (least relevant to the "
                       f"question): {', '.join(sorted(dropped))}")
        return out

    rel_lines = [relation_line(by_name[n], dialect, labels) for n in names]
    cost = [size(line) + 1 for line in rel_lines]
    lines = label_lines()
    room = (budget or 0) - 80  # kept for the line saying what was cut

    def base() -> int:
        return size("\n".join([*head, *lines, "Relationships:"]))

    shown = len(rel_lines)
    if budget is not None:
        for name in shrink:  # 1. summarise the labels the question does not touch
            if base() + sum(cost) <= room:
                break
            summarised.add(name)
            lines = label_lines()
        used, shown = base(), 0  # 2. the most relevant relationship types that fit (one at least)
        for c in cost:
            if shown and used + c > room:
                break
            used += c
            shown += 1
        for name in shrink:  # 3. leave out untouched labels
            if base() + sum(cost[:shown]) <= room:
                break
            dropped.append(name)
            lines = label_lines()
    out = [*head, *lines, "Relationships:", *rel_lines[:shown]]
    omitted = len(rel_lines) - shown
    if omitted:
        out.append(f"// {omitted} more relationship types omitted (least relevant to the question)")
    return "\n".join(out)
