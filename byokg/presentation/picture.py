"""The evidence picture: an answer's evidence subgraph as a self-contained HTML page.

Drawn from an :class:`~byokg.pipeline.answer.Answer` alone (``entities``, ``answer_ids``, ``names`` and
the ``evidence`` items' paths and triplets): question entities on the left, the facts walked from
them with relation labels, answer nodes highlighted. Inline SVG and CSS, no script and no network
at view time (the page's Content-Security-Policy forbids both). The layout is deterministic: the
same Answer gives the same bytes.

All graph text and LLM text is untrusted: it is made terminal-safe (control characters and bidi
overrides shown as escapes) and HTML-escaped before it enters the page, so ``<script>`` in a node
name is shown as text.
"""

from __future__ import annotations

import hashlib
import html
import os
from collections import deque
from collections.abc import Iterable
from pathlib import Path as FsPath
from typing import Protocol

from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.contracts import ContextItem
from byokg.contracts import MentionLinks
from byokg.contracts import Triplet
from byokg.errors import InputError
from byokg.language.text import normalize
from byokg.presentation.termsafe import terminal_safe

MAX_NODES = 40  # drawn; facts that would add more nodes are listed, not drawn (and counted)
MAX_EDGES = 80
NODE_W, NODE_H = 184, 40
COL_GAP, ROW_GAP = 150, 28
MARGIN = 24
ARC = 64  # how far an edge between two nodes of one column bulges to the right
LABEL_CHARS, NAME_CHARS = 24, 25

_FROZEN = ConfigDict(frozen=True)


class Answer(Protocol):
    """What the picture reads of an answer (:class:`byokg.pipeline.answer.Answer` has it)."""

    question: str
    answers: list[str]
    evidence: list[ContextItem]
    answer_ids: dict[str, list[str]]
    entities: list[MentionLinks]
    names: dict[str, str]


class PictureNode(BaseModel):
    """A node of the picture with its place: column (hops from the question entities) and row."""

    model_config = _FROZEN

    id: str
    label: str
    role: str  # "entity" | "answer" | "entity answer" | "node" | "value"
    mention: str | None = None  # the question's words for an entity node
    column: int = 0
    row: int = 0


class PictureEdge(BaseModel):
    """One drawn arrow ``head -[relations]-> tail`` in the stored direction: every fact from
    ``head`` to ``tail`` shares one arrow and one label."""

    model_config = _FROZEN

    head: str
    relations: tuple[str, ...]
    tail: str
    lane: int = 0  # 1 for the arrow back when both directions between two nodes are drawn


class EvidencePicture(BaseModel):
    """What the page draws; ``not_drawn`` counts evidence facts left out by the caps."""

    model_config = _FROZEN

    nodes: tuple[PictureNode, ...] = ()
    edges: tuple[PictureEdge, ...] = ()
    not_drawn: int = 0


# --------------------------------------------------------------------------- the graph


def _item_triplets(item: ContextItem) -> list[Triplet]:
    if item.path is not None and item.path.hops:
        return item.path.triplets()
    return list(item.triplets)


def build_picture(answer: Answer) -> EvidencePicture:
    """The evidence subgraph of ``answer`` with a deterministic layered layout.

    Long because it is one pass in the order the picture is read (facts, entities, answers,
    caps, layout), each step reading the maps the step before built."""
    names = answer.names

    def display(nid: str) -> str:
        return names.get(nid) or nid

    # the facts, in evidence order (short paths first), deduplicated
    facts: list[Triplet] = []
    seen: set[tuple[str, str, str]] = set()
    for item in answer.evidence:
        for t in _item_triplets(item):
            if t.key not in seen:
                seen.add(t.key)
                facts.append(t)
    in_facts = {n for t in facts for n in (t.head, t.tail)}

    # question entities: the candidates the evidence uses, else each mention's best candidate
    entity_ids: list[str] = []
    mentions: dict[str, str] = {}
    for ml in answer.entities:
        used = [c for c in ml.candidates if c.id in in_facts] or list(ml.candidates[:1])
        for c in used:
            if c.id not in mentions:
                entity_ids.append(c.id)
                mentions[c.id] = ml.mention
                if c.id not in names and c.name:
                    names = {**names, c.id: c.name}

    # answers: their ids, else a drawn node whose name is the answer, else a value box
    answer_ids: list[str] = []
    values: list[str] = []
    by_name: dict[str, str] = {}
    for n in sorted(in_facts | set(entity_ids)):
        by_name.setdefault(normalize(display(n)), n)
    for ans in answer.answers:
        ids = answer.answer_ids.get(ans) or []
        if not ids and normalize(ans) in by_name:
            ids = [by_name[normalize(ans)]]
        if not ids:
            values.append(ans)
        answer_ids.extend(i for i in ids if i not in answer_ids)

    # caps: keep facts in order while they add no more than MAX_NODES nodes in all
    nodes: list[str] = list(dict.fromkeys([*entity_ids, *answer_ids]))
    node_set = set(nodes)
    drawn: list[Triplet] = []
    not_drawn = 0
    for t in facts:
        new = [n for n in dict.fromkeys((t.head, t.tail)) if n not in node_set]
        if len(drawn) >= MAX_EDGES or len(node_set) + len(new) > max(MAX_NODES, len(nodes)):
            not_drawn += 1
            continue
        drawn.append(t)
        for n in new:
            node_set.add(n)
            nodes.append(n)

    columns = _columns(nodes, drawn, entity_ids, answer_ids)
    answer_set, entity_set = set(answer_ids), set(entity_ids)
    placed = _rows(nodes, drawn, columns, display)
    out_nodes: list[PictureNode] = []
    for nid in nodes:
        role = " ".join(r for r, s in (("entity", entity_set), ("answer", answer_set)) if nid in s)
        out_nodes.append(PictureNode(id=nid, label=display(nid), role=role or "node",
                                     mention=mentions.get(nid), column=columns[nid],
                                     row=placed[nid]))
    last = max([n.column for n in out_nodes] + [1 if out_nodes else 0])
    rows_in_last = sum(1 for n in out_nodes if n.column == last)
    for k, val in enumerate(values):
        out_nodes.append(PictureNode(id=f"value:{k}", label=val, role="value", column=last,
                                     row=rows_in_last + k))
    return EvidencePicture(nodes=tuple(out_nodes), edges=tuple(_lanes(drawn)), not_drawn=not_drawn)


def _columns(nodes: list[str], facts: list[Triplet], entities: list[str],
             answers: list[str]) -> dict[str, int]:
    """Hops from the question entities (edges read both ways); a part of the picture that no
    entity reaches counts hops from its first answer (or its first node)."""
    adj: dict[str, list[str]] = {n: [] for n in nodes}
    for t in facts:
        adj[t.head].append(t.tail)
        adj[t.tail].append(t.head)
    col: dict[str, int] = {}

    def bfs(starts: Iterable[str]) -> None:
        queue = deque()
        for s in starts:
            if s not in col:
                col[s] = 0
                queue.append(s)
        while queue:
            n = queue.popleft()
            for m in adj[n]:
                if m not in col:
                    col[m] = col[n] + 1
                    queue.append(m)

    bfs(entities)
    for n in [*answers, *nodes]:
        if n not in col:
            bfs([n])
    return col


def _rows(nodes: list[str], facts: list[Triplet], columns: dict[str, int],
          display) -> dict[str, int]:
    """Order each column by the mean row of its neighbours in earlier columns (fewer crossings);
    ties by first appearance, so the order is stable."""
    adj: dict[str, list[str]] = {n: [] for n in nodes}
    for t in facts:
        adj[t.head].append(t.tail)
        adj[t.tail].append(t.head)
    first = {n: i for i, n in enumerate(nodes)}
    rows: dict[str, int] = {}
    for c in range(max(columns.values(), default=-1) + 1):
        members = [n for n in nodes if columns[n] == c]

        def key(n: str, c: int = c) -> tuple[float, int]:
            before = [rows[m] for m in adj[n] if m in rows and columns[m] < c]
            return (sum(before) / len(before) if before else float("inf"), first[n])

        for r, n in enumerate(sorted(members, key=key)):
            rows[n] = r
    return rows


def _lanes(facts: list[Triplet]) -> list[PictureEdge]:
    """One arrow per (head, tail) with all its relations, in first-seen order."""
    rels: dict[tuple[str, str], list[str]] = {}
    for t in facts:
        rels.setdefault((t.head, t.tail), [])
        if t.relation not in rels[(t.head, t.tail)]:
            rels[(t.head, t.tail)].append(t.relation)
    out = []
    for (h, t), names in rels.items():
        lane = 1 if h != t and (t, h) in rels and list(rels).index((t, h)) < list(rels).index(
            (h, t)) else 0
        out.append(PictureEdge(head=h, relations=tuple(names), tail=t, lane=lane))
    return out


# --------------------------------------------------------------------------- drawing


def _text(value: object) -> str:
    """Untrusted text made safe for HTML text and attribute values."""
    return html.escape(terminal_safe(value), quote=True)


def _short(value: object, limit: int) -> str:
    s = terminal_safe(value)
    return html.escape(s if len(s) <= limit else s[: limit - 1] + "…", quote=True)


def _xy(node: PictureNode) -> tuple[int, int]:
    return (MARGIN + node.column * (NODE_W + COL_GAP), MARGIN + node.row * (NODE_H + ROW_GAP))


def _uid(pic: EvidencePicture, answer: Answer) -> str:
    """A short id from the content, unique enough to keep two pictures on one page apart."""
    h = hashlib.sha1(answer.question.encode("utf-8", "surrogatepass"))
    h.update(pic.model_dump_json().encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:10]


def render_svg(answer: Answer, picture: EvidencePicture | None = None) -> str:
    """The evidence subgraph as one inline ``<svg>`` element."""
    pic = picture if picture is not None else build_picture(answer)
    uid = _uid(pic, answer)
    if not pic.nodes:
        return ('<svg class="byokg-graph" xmlns="http://www.w3.org/2000/svg" width="360" '
                'height="48" role="img" aria-label="no evidence"><text x="12" y="28" '
                'class="byokg-empty">No evidence to draw.</text></svg>')
    by_id = {n.id: n for n in pic.nodes}
    cols = max(n.column for n in pic.nodes) + 1
    rows = max(n.row for n in pic.nodes) + 1
    # room on the right for loops and arcs (labelled beside them) and their labels
    side = any(e.head == e.tail or (by_id[e.head].column == by_id[e.tail].column
                                    and abs(by_id[e.head].row - by_id[e.tail].row) > 1)
               for e in pic.edges)
    width = 2 * MARGIN + cols * NODE_W + (cols - 1) * COL_GAP + (ARC + 7 * LABEL_CHARS if side
                                                                  else ARC // 2)
    height = 2 * MARGIN + rows * NODE_H + (rows - 1) * ROW_GAP
    parts = [
        f'<svg class="byokg-graph" xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="evidence graph">',
        f'<defs><marker id="byokg-arrow-{uid}" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" class="byokg-arrowhead"/></marker></defs>',
        '<g class="byokg-edges">',
    ]
    for e in pic.edges:
        parts.append(_edge(by_id[e.head], by_id[e.tail], e, uid))
    parts.append('</g><g class="byokg-nodes">')
    for n in pic.nodes:
        parts.append(_node(n))
    parts.append("</g></svg>")
    return "".join(parts)


def _edge(a: PictureNode, b: PictureNode, e: PictureEdge, uid: str) -> str:
    ax, ay = _xy(a)
    bx, by = _xy(b)
    off = 20 * e.lane  # the arrow back between the same two nodes runs beside the first
    anchor = "middle"
    if a.id == b.id:  # facts from a node to itself: a loop on its right
        x0, y0 = ax + NODE_W, ay + NODE_H // 2
        d = f"M{x0},{y0 - 8} C{x0 + 44},{y0 - 30} {x0 + 44},{y0 + 30} {x0},{y0 + 8}"
        lx, ly, anchor = x0 + 38, y0 + 4, "start"
    elif a.column == b.column and abs(a.row - b.row) == 1:  # neighbours: straight down or up
        x = ax + NODE_W // 2 - off  # the arrow back runs left of the first, labelled on its left
        y1, y2 = (ay + NODE_H, by) if a.row < b.row else (ay, by + NODE_H)
        d = f"M{x},{y1} L{x},{y2}"
        lx, ly, anchor = (x + 6, (y1 + y2) // 2 + 4, "start") if not e.lane else (
            x - 6, (y1 + y2) // 2 + 4, "end")
    elif a.column == b.column:  # further apart in one column: an arc out to the right
        x1, ay, by = ax + NODE_W, ay + NODE_H // 2 + off // 2, by + NODE_H // 2 + off // 2
        bulge = ARC + abs(a.row - b.row) * 6 + off
        d = f"M{x1},{ay} C{x1 + bulge},{ay} {x1 + bulge},{by} {x1},{by}"
        lx, ly, anchor = x1 + bulge * 3 // 4 + 4, (ay + by) // 2 + 4, "start"
    else:
        ay, by = ay + NODE_H // 2 + off // 2, by + NODE_H // 2 + off // 2
        x1, x2 = (ax + NODE_W, bx) if a.column < b.column else (ax, bx + NODE_W)
        mid = (x1 + x2) // 2
        d = f"M{x1},{ay} C{mid},{ay} {mid},{by} {x2},{by}"
        lx, ly = mid, (ay + by) // 2 - 4 + off
    shown = " · ".join(e.relations[:2]) + (f" +{len(e.relations) - 2}" if len(e.relations) > 2
                                           else "")
    title = "; ".join(f"{a.label} -[{r}]-> {b.label}" for r in e.relations)
    return (f'<g class="byokg-edge"><title>{_text(title)}</title>'
            f'<path d="{d}" marker-end="url(#byokg-arrow-{uid})"/>'
            f'<text x="{lx}" y="{ly}" text-anchor="{anchor}">'
            f"{_short(shown, LABEL_CHARS)}</text></g>")


def _node(n: PictureNode) -> str:
    x, y = _xy(n)
    roles = " ".join(f"byokg-{r}" for r in n.role.split())
    tip = n.label if n.label == n.id or n.role == "value" else f"{n.label} [{n.id}]"
    if n.mention is not None and normalize(n.mention) != normalize(n.label):
        tip += f' (question: "{n.mention}")'
    sub = ""
    name_y = y + NODE_H // 2 + 4
    if n.mention is not None and normalize(n.mention) != normalize(n.label):
        name_y = y + 16
        sub = (f'<text class="byokg-sub" x="{x + NODE_W // 2}" y="{y + 32}" '
               f'text-anchor="middle">“{_short(n.mention, NAME_CHARS - 2)}”</text>')
    return (f'<g class="byokg-node {roles}" data-node="{_text(n.id)}"><title>{_text(tip)}</title>'
            f'<rect x="{x}" y="{y}" width="{NODE_W}" height="{NODE_H}" rx="7"/>'
            f'<text class="byokg-name" x="{x + NODE_W // 2}" y="{name_y}" '
            f'text-anchor="middle">{_short(n.label, NAME_CHARS)}</text>{sub}</g>')


_CSS = """
.byokg-view{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2937}
.byokg-view h1{font-size:18px;margin:0 0 6px}
.byokg-view h2{font-size:15px;margin:18px 0 6px}
.byokg-view .byokg-answers b{background:#dcfce7;padding:0 4px;border-radius:3px}
.byokg-view figure{margin:10px 0;overflow-x:auto}
.byokg-view figcaption,.byokg-view .byokg-meta,.byokg-view .byokg-note{color:#6b7280;font-size:12px}
.byokg-view .byokg-key{display:inline-block;width:11px;height:11px;border-radius:3px;
  margin:0 4px 0 12px;vertical-align:-1px;border:1.5px solid}
.byokg-graph text{font:12px system-ui,-apple-system,"Segoe UI",sans-serif;fill:#1f2937}
.byokg-graph .byokg-sub{font-size:11px;fill:#4b5563;font-style:italic}
.byokg-graph .byokg-node rect{fill:#f3f4f6;stroke:#6b7280;stroke-width:1.2}
.byokg-graph .byokg-entity rect,.byokg-key.byokg-entity{fill:#dbeafe;background:#dbeafe;stroke:#2563eb;border-color:#2563eb}
.byokg-graph .byokg-answer rect,.byokg-key.byokg-answer{fill:#dcfce7;background:#dcfce7;stroke:#16a34a;border-color:#16a34a;stroke-width:2}
.byokg-graph .byokg-entity.byokg-answer rect{fill:#fef9c3;stroke:#ca8a04}
.byokg-graph .byokg-value rect{fill:#dcfce7;stroke:#16a34a;stroke-dasharray:4 3}
.byokg-graph .byokg-edge path{fill:none;stroke:#94a3b8;stroke-width:1.4}
.byokg-graph .byokg-edge text{fill:#334155;font-size:11px;paint-order:stroke;stroke:#fff;
  stroke-width:4px;stroke-linejoin:round}
.byokg-graph .byokg-arrowhead{fill:#94a3b8}
.byokg-graph .byokg-edge:hover path{stroke:#0f172a;stroke-width:2}
.byokg-graph .byokg-node:hover rect{stroke-width:2.5}
.byokg-view ol,.byokg-view ul{padding-left:22px;margin:4px 0}
.byokg-view li{margin:2px 0}
"""


def render_fragment(answer: Answer) -> str:
    """The picture with the question, the answers, the entities and the evidence list, as one
    ``<div>`` (what ``Answer._repr_html_`` shows in a notebook)."""
    pic = build_picture(answer)
    answers = (", ".join(f"<b>{_text(a)}</b>" for a in answer.answers)
               if answer.answers else "<i>no answer found in the graph</i>")
    parts = [
        f'<div class="byokg-view"><style>{_CSS}</style>',
        f"<h1>{_text(answer.question)}</h1>",
        f'<p class="byokg-answers">Answer: {answers}</p>',
        f"<figure>{render_svg(answer, pic)}<figcaption>"
        '<span class="byokg-key byokg-entity"></span>question entity'
        '<span class="byokg-key byokg-answer"></span>answer'
        " · arrows point the way the graph stores each fact; hover for full names</figcaption>"
        "</figure>",
    ]
    if pic.not_drawn:
        parts.append(f'<p class="byokg-note">{pic.not_drawn} more fact(s) from the evidence are '
                     f"not drawn (the picture shows at most {MAX_NODES} nodes and {MAX_EDGES} "
                     "facts); all evidence is listed below.</p>")
    if answer.entities:
        parts.append("<h2>Question entities</h2><ul>")
        for ml in answer.entities:
            cands = "; ".join(
                f"{_text(c.name)}{'' if c.name == c.id else ' [' + _text(c.id) + ']'}"
                f' <span class="byokg-meta">{c.score:.2f} {_text(c.method)}</span>'
                for c in ml.candidates) or '<span class="byokg-meta">no match</span>'
            parts.append(f"<li>“{_text(ml.mention)}” → {cands}</li>")
        parts.append("</ul>")
    parts.append("<h2>Evidence</h2>")
    if answer.evidence:
        parts.append("<ol>")
        for it in answer.evidence:
            score = f"; score {it.score:.2f}" if it.score is not None else ""
            meta = f"{', '.join(it.tools)}; round {it.iteration + 1}{score}"
            parts.append(f'<li>{_text(it.text)} <span class="byokg-meta">[{_text(meta)}]'
                         "</span></li>")
        parts.append("</ol>")
    else:
        parts.append('<p class="byokg-note">No evidence.</p>')
    parts.append("</div>")
    return "".join(parts)


_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def render_page(answer: Answer) -> str:
    """A complete, self-contained HTML page (no script, no network; a CSP says so)."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>byokg evidence: {_text(answer.question)}</title>"
        "<style>body{margin:24px;background:#fff}</style></head><body>"
        f"{render_fragment(answer)}</body></html>\n"
    )


def write_page(answer: Answer, path: str | os.PathLike[str]) -> FsPath:
    """Write :func:`render_page` to ``path`` (UTF-8, replaced whole); returns the path."""
    target = FsPath(path)
    if target.is_dir():
        raise InputError("is a folder; give a file name such as answer.html", source=str(target))
    if not target.parent.is_dir():
        raise InputError(f"folder {str(target.parent)!r} does not exist; create it first",
                         source=str(target))
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        tmp.write_text(render_page(answer), encoding="utf-8")
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write: {exc.strerror}", source=str(target)) from None
    return target
