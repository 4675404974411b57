"""GraphProfile: what byokg knows about the user's graph, computed once per graph and shared.

Per label: its size, the property that names its nodes (the *display* property, chosen from the
values and the property name together: text, short, nearly unique, written like a name — or,
for a label without one, a readable composite such as ``category + year`` whose parts are
categories alone but unique together), the key property, aliases (list properties of short
texts), and each property's type and example values. Per relationship type: its domain and
range labels, size, cardinality and properties with types. Which properties are numbers and dates (typed, or written as text).

Built from the store's own catalogue and a bounded sample (:meth:`profile_sample` of stores
with the ``profile`` capability; the schema otherwise) — never a full scan — then cached: on
the store object for the process and on disk keyed by the graph's URI, a cheap content
fingerprint and the display overrides, so ``ask``, ``eval``, ``link`` and ``index`` reuse it and
a changed graph gets a new one. The store then names its nodes by the profile's display rules
(:meth:`byokg.graph.store.BaseGraphStore.display_rules`), so linking, answers, evidence, the schema and
the KG-Linker prompt all use the same names. Overrides: ``?display=Person.fullName`` in any
graph URI, ``--display`` on the CLI, ``RunConfig.display`` (:func:`parse_display`).

This module is also the one home of two graph-wide notions: the display name of a node
(:func:`display_names`) and whether a node is unnamed (a Freebase CVT / blank node,
:func:`is_unnamed`), which is never an answer and is described by its neighbours instead.

:func:`relation_stats` adds, on demand, how informative each relation is from a bounded sample of
edges (share of unnamed or literal-like tails, how many edges share a tail, the tails' degree):
hub relations (types, galleries, containers) and low-information ones (images, web pages) are
recognised from the graph itself, never from a list of names; :func:`relation_weights` turns
that into a down-weighting that the question's own relevance overrides.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import logging
import math
import os
import re
import statistics
import threading
import time
import weakref
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import ValidationError

from byokg.config import graph_cache_dir
from byokg.errors import ConfigError
from byokg.graph.store import Capability
from byokg.graph.store import DisplayRule
from byokg.graph.store import GraphSample
from byokg.graph.store import GraphStore
from byokg.graph.store import LabelSample
from byokg.graph.store import RelationSample
from byokg.graph.store import SampledNode
from byokg.graph.vocabulary import CompileItem
from byokg.graph.vocabulary import NameProperty
from byokg.graph.vocabulary import Vocabulary
from byokg.graph.vocabulary import apply_lexicon
from byokg.graph.vocabulary import compile_words
from byokg.graph.vocabulary import derive_vocabulary
from byokg.graph.vocabulary import lexicon_current
from byokg.graph.vocabulary import llm_phrases
from byokg.graph.vocabulary import read_lexicon
from byokg.graph.vocabulary import with_llm_phrases
from byokg.language import lexicon
from byokg.language.grams import fast_normalize
from byokg.language.literals import is_integer
from byokg.language.literals import is_iso_date
from byokg.language.literals import is_literal_like
from byokg.language.literals import is_number

__all__ = [
    "GraphProfile",
    "LabelProfile",
    "PropertyProfile",
    "RelationProfile",
    "apply_display",
    "build_profile",
    "display_names",
    "get_profile",
    "RelationStats",
    "is_literal_like",
    "is_unnamed",
    "parse_display",
    "profile_graph",
    "relation_stats",
    "relation_weights",
]

log = logging.getLogger("byokg.graph.profile")

FORMAT = 4  # of the cached profile files (4: relationship ends, date formats, example rows)
SAMPLE_NODES = 200  # nodes sampled per label
SAMPLE_EDGES = 200  # edges sampled per relationship type
EXAMPLES = 3  # example values kept per property
MIN_DISPLAY_SCORE = 0.55
MIN_DISTINCT = 0.8  # share of distinct values a display property needs
MAX_DISPLAY_CHARS = 60  # average length above which a text is a description, not a name
_FROZEN = ConfigDict(frozen=True)
_UNNAMED_ID = re.compile(r"^[a-z]{1,3}\.[A-Za-z0-9_]+$")  # m.0abc, g.11b…, _.b1 style ids
_MISSING = lexicon.MISSING_VALUES
_URLISH = re.compile(r"://|^www\.|^[^@\s]+@[^@\s]+\.\w+$")
_IDENT_CHARS = re.compile(r"[_:/\\#@|]|\.\w")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# A prior from the property's *name* (English words, byokg.language.lexicon)
_NAME_WORDS = lexicon.NAME_PROPERTY_WORDS
_ALIAS_WORDS = lexicon.ALIAS_PROPERTY_WORDS
_ID_WORDS = lexicon.ID_PROPERTY_WORDS


# --------------------------------------------------------------------------- models


_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def cypher_name(name: str) -> str:
    """A label, relationship type or property name as a query must write it: backtick-quoted
    when it is not a plain identifier (``Known As`` -> ```Known As```)."""
    return name if _PLAIN_NAME.fullmatch(name) else "`" + name.replace("`", "``") + "`"


class PropertyProfile(BaseModel):
    """One property: the store's type, its kind, example values, and what the sample showed."""

    model_config = _FROZEN

    name: str
    type: str | None = None  # the store's own type name ("INT64", "DATE", "str", …)
    kind: str = "unknown"  # string | int | float | bool | date | datetime | list | map | unknown
    text_kind: str | None = None  # "number" / "date" for text whose values are numbers / dates
    text_format: str | None = None  # how dates written as text look: 'YYYY-MM-DD hh:mm:ss.SSS'
    examples: tuple[Any, ...] = ()  # JSON values (dates in ISO form)
    filled: float | None = None  # share of sampled nodes that have it
    distinct: float | None = None  # share of distinct values among those

    @property
    def is_number(self) -> bool:
        return self.kind in ("int", "float")

    @property
    def is_date(self) -> bool:
        return self.kind in ("date", "datetime")


class DisplayCandidate(BaseModel):
    """How one property scored as the label's display property, and why."""

    model_config = _FROZEN

    property: str
    score: float
    why: str


class LabelProfile(BaseModel):
    model_config = _FROZEN

    name: str
    count: int | None = None
    display: str | None = None  # property that names its nodes (None: see display_parts / id)
    display_parts: tuple[str, ...] = ()  # properties joined into the name (one, or a composite)
    aliases: tuple[str, ...] = ()  # properties whose values are other names of the node
    key: str | None = None  # property that identifies its nodes (None: the node id)
    reason: str = ""  # why the display was chosen
    alias_why: dict[str, str] = {}  # alias property -> why it names the nodes too
    candidates: tuple[DisplayCandidate, ...] = ()  # best first
    properties: tuple[PropertyProfile, ...] = ()
    example: dict[str, Any] = {}  # the properties of one sampled node (the fullest), as JSON

    def prop(self, name: str) -> PropertyProfile | None:
        return next((p for p in self.properties if p.name == name), None)

    @property
    def rule(self) -> DisplayRule:
        return DisplayRule(parts=self.display_parts, aliases=self.aliases)


class RelationProfile(BaseModel):
    model_config = _FROZEN

    name: str
    count: int | None = None
    domain: tuple[str, ...] = ()  # labels of heads
    range: tuple[str, ...] = ()  # labels of tails
    pairs: tuple[tuple[str, str], ...] = ()  # (head label, tail label), most common first
    cardinality: str | None = None  # one-to-one | many-to-one | one-to-many | many-to-many
    properties: tuple[PropertyProfile, ...] = ()
    examples: tuple[tuple[str, str], ...] = ()  # (head display, tail display)
    # distinct nodes per label with an edge of this type going out / coming in, counted in the
    # data (empty: not counted); with the label's size this is the relation's coverage
    heads: dict[str, int] = {}
    tails: dict[str, int] = {}


class GraphProfile(BaseModel):
    """See the module doc. ``uri`` names the graph it describes."""

    model_config = _FROZEN

    uri: str = ""
    dialect: str | None = None
    labels: tuple[LabelProfile, ...] = ()
    relations: tuple[RelationProfile, ...] = ()
    ids_are_names: bool = False  # node ids are readable names (triple graphs)
    overrides: dict[str, tuple[str, ...]] = {}
    fingerprint: str = ""
    seconds: float = 0.0  # time it took to build
    queries: int = 0  # store round trips the build made
    source: str = "built"  # built | cache (disk) — not saved
    notes: tuple[str, ...] = ()
    vocabulary: Vocabulary = Vocabulary()  # names, relation and label phrases (vocabulary.py)

    def label(self, name: str) -> LabelProfile | None:
        return next((lab for lab in self.labels if lab.name == name), None)

    def relation(self, name: str) -> RelationProfile | None:
        return next((r for r in self.relations if r.name == name), None)

    @property
    def relation_names(self) -> list[str]:
        return [r.name for r in self.relations]

    def display_rules(self) -> dict[str, DisplayRule]:
        """Label -> how its nodes are named (what the store applies)."""
        return {lab.name: lab.rule for lab in self.labels}

    def display_of(self, label: str) -> tuple[str, ...]:
        """The properties that name ``label``'s nodes (empty: its nodes are named by their id)."""
        lab = self.label(label)
        return lab.display_parts if lab is not None else ()

    @property
    def numbers(self) -> list[str]:
        """``Label.prop`` / ``TYPE.prop`` of every number property (typed, or numbers as text)."""
        return self._where(lambda p: p.is_number or p.text_kind == "number")

    @property
    def dates(self) -> list[str]:
        """``Label.prop`` / ``TYPE.prop`` of every date property (typed, or dates as text)."""
        return self._where(lambda p: p.is_date or p.text_kind == "date")

    def _where(self, test: Any) -> list[str]:
        out = [f"{lab.name}.{p.name}" for lab in self.labels for p in lab.properties if test(p)]
        return out + [f"{r.name}.{p.name}" for r in self.relations for p in r.properties if test(p)]

    def naming_lines(self, labels: Sequence[str] | None = None, limit: int = 12) -> list[str]:
        """One line per label saying which property names its nodes (for the KG-Linker)."""
        out = []
        for lab in self.labels:
            if labels is not None and lab.name not in labels:
                continue
            if lab.display_parts:
                shown = [cypher_name(p) for p in lab.display_parts]
                joined = " + ' ' + ".join(shown)
                what = (f"property {shown[0]}" if len(shown) == 1
                        else f"properties {joined} together")
            elif self.ids_are_names:
                what = "their id"
            else:
                what = f"their key {cypher_name(lab.key)}" if lab.key else "their id"
            out.append(f"{cypher_name(lab.name)} nodes are named by {what}")
            if len(out) >= limit:
                break
        return out

    def describe(self) -> str:
        """What was chosen and why, as readable lines (``byokg profile``)."""
        lines = [f"graph: {self.uri}  ({len(self.labels)} labels, {len(self.relations)} "
                 f"relationship types; {self.source} in {self.seconds:.2f}s, "
                 f"{self.queries} store queries)"]
        if self.ids_are_names:
            lines.append("node ids are names (a triple graph)")
        for lab in self.labels:
            count = f"{lab.count:,}" if lab.count is not None else "?"
            shown = " + ".join(lab.display_parts) if lab.display_parts else "(the node id)"
            lines.append(f"\n(:{lab.name})  {count} nodes")
            lines.append(f"  display: {shown}  — {lab.reason}")
            for a in lab.aliases:
                lines.append(f"  alias:   {a}" + (f"  — {lab.alias_why[a]}"
                                                   if a in lab.alias_why else ""))
            lines.append(f"  key:     {lab.key or '(the node id)'}")
            for c in lab.candidates[:4]:
                lines.append(f"    {c.score:5.2f}  {c.property}: {c.why}")
            for p in lab.properties:
                lines.append(f"  - {_prop_line(p)}")
        for r in self.relations:
            pairs = ", ".join(f"(:{a})->(:{b})" for a, b in r.pairs[:3]) or "?"
            count = f"{r.count:,}" if r.count is not None else "?"
            card = f", {r.cardinality}" if r.cardinality else ""
            lines.append(f"\n[:{r.name}]  {pairs}  {count} edges{card}")
            for p in r.properties:
                lines.append(f"  - {_prop_line(p)}")
            if r.examples:
                lines.append("  e.g. " + "; ".join(f"{a} -> {b}" for a, b in r.examples[:2]))
        if self.numbers:
            lines.append("\nnumbers: " + ", ".join(self.numbers[:40]))
        if self.dates:
            lines.append("dates:   " + ", ".join(self.dates[:40]))
        lines += [f"note: {n}" for n in self.notes]
        words = self.vocabulary.describe_lines()
        if words:
            lines += ["", "vocabulary (how questions may say the relations and labels):", *words]
        return "\n".join(lines)


def _prop_line(p: PropertyProfile) -> str:
    kind = p.kind + (f" ({p.text_kind}s as text)" if p.text_kind else "")
    typ = f" [{p.type}]" if p.type else ""
    ex = ", ".join(cypher_literal(v, p.kind) for v in p.examples[:EXAMPLES])
    return f"{p.name}: {kind}{typ}" + (f"  e.g. {ex}" if ex else "")


# --------------------------------------------------------------------------- literals


def cypher_literal(value: Any, kind: str | None = None, *, dialect: str | None = None,
                   limit: int = 40) -> str:
    """``value`` as a Cypher literal (``'text'``, ``true``, ``date('2001-10-10')``, ``[1, 2]``),
    never a Python repr; long strings are cut with ``…``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dt.datetime) or (kind == "datetime" and isinstance(value, str)):
        fn = "timestamp" if dialect in ("kuzu", "ladybug") else "datetime"
        text = value.isoformat() if isinstance(value, dt.datetime) else value
        return f"{fn}('{text}')"
    if isinstance(value, dt.date) or (kind == "date" and isinstance(value, str)):
        text = value.isoformat() if isinstance(value, dt.date) else value
        return f"date('{text}')"
    if isinstance(value, list | tuple):
        inner = [cypher_literal(v, dialect=dialect, limit=limit) for v in list(value)[:4]]
        return "[" + ", ".join(inner) + (", …" if len(value) > 4 else "") + "]"
    if isinstance(value, dict):
        inner = [f"{k}: {cypher_literal(v, dialect=dialect, limit=limit)}"
                 for k, v in list(value.items())[:4]]
        return "{" + ", ".join(inner) + "}"
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", " ") + "'"


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in list(value)[:5]]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in list(value.items())[:5]}
    return str(value)


# --------------------------------------------------------------------------- kinds


def type_kind(type_name: str | None) -> str | None:
    """The kind of a store type name (Kùzu, Neo4j, Neptune, Python): None when unknown."""
    t = (type_name or "").strip().upper()
    if not t:
        return None
    if t.endswith("[]") or t.startswith(("LIST", "ARRAY")) or t in ("TUPLE",):
        return "list"
    if t.startswith(("MAP", "STRUCT")) or t in ("DICT",):
        return "map"
    if t.startswith(("INT", "UINT", "SERIAL", "LONG", "SHORT", "BYTE", "TINYINT", "SMALLINT",
                     "BIGINT", "HUGEINT")):
        return "int"
    if t.startswith(("DOUBLE", "FLOAT", "DECIMAL", "REAL", "NUMERIC")):
        return "float"
    if t.startswith("BOOL"):
        return "bool"
    if t.startswith(("TIMESTAMP", "DATETIME", "LOCALDATETIME", "ZONEDDATETIME")):
        return "datetime"
    if t.startswith("DATE"):
        return "date"
    if t.startswith(("STRING", "STR", "TEXT", "VARCHAR", "CHAR")):
        return "string"
    return None


def value_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, dt.datetime):
        return "datetime"
    if isinstance(value, dt.date):
        return "date"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "map"
    return "unknown"


def _kind_of(type_name: str | None, values: Sequence[Any]) -> str:
    kinds = {value_kind(v) for v in values}
    if len(kinds) == 1:  # what the values are beats a vague type name ("str,int")
        only = next(iter(kinds))
        declared = type_kind(type_name)
        return declared if declared in ("date", "datetime") and only == "string" else only
    if kinds == {"int", "float"}:
        return "float"
    return type_kind(type_name) or ("string" if "string" in kinds else "unknown")


def _present(values: Sequence[Any]) -> list[Any]:
    return [v for v in values if v is not None
            and not (isinstance(v, str) and v.strip().lower() in _MISSING)]


def _text_kind(texts: Sequence[str]) -> str | None:
    if not texts:
        return None
    if sum(is_number(t) for t in texts) >= 0.9 * len(texts):
        return "number"
    if sum(is_iso_date(t) for t in texts) >= 0.9 * len(texts) or date_format(texts):
        return "date"
    return None


# how a date written as text looks, per shape of its digits (the shape is the text with every
# digit written 9): what the KG-Linker is told so it compares text dates in their own format
_DATE_SHAPES = {"9999-99-99": "YYYY-MM-DD", "9999/99/99": "YYYY/MM/DD",
                "9999.99.99": "YYYY.MM.DD", "99.99.9999": "DD.MM.YYYY", "9999-99": "YYYY-MM",
                "99/99/9999": "??/??/YYYY", "99-99-9999": "??-??-YYYY"}
_TIME_SHAPES = {"99:99": "hh:mm", "99:99:99": "hh:mm:ss", "99:99:99.999": "hh:mm:ss.SSS",
                "99:99:99.999999": "hh:mm:ss.SSSSSS"}


def date_format(texts: Sequence[str]) -> str | None:
    """The format shared by at least 90% of ``texts`` when they are dates written as text
    (``'YYYY-MM-DD hh:mm:ss.SSS'``, ``'YYYY/MM/DD'``, ``'DD/MM/YYYY'``; day and month told apart
    by a value above 12), else None."""
    shapes: dict[str, int] = {}
    for t in texts:
        shape = re.sub(r"\d", "9", t.strip())
        shapes[shape] = shapes.get(shape, 0) + 1
    if not shapes:
        return None
    shape, n = max(shapes.items(), key=lambda kv: kv[1])
    if n < 0.9 * len(texts):
        return None
    day, sep, time_ = shape.partition("T") if "T" in shape else shape.partition(" ")
    fmt = _DATE_SHAPES.get(day)
    if fmt is None or (time_ and time_.rstrip("Z") not in _TIME_SHAPES):
        return None
    if fmt.startswith("??"):  # day-first or month-first: a part above 12 tells
        firsts = {int(t.strip()[:2]) for t in texts if t.strip()[:2].isdigit()}
        seconds = {int(t.strip()[3:5]) for t in texts if t.strip()[3:5].isdigit()}
        d, m = ("DD", "MM") if max(firsts, default=0) > 12 else (
            ("MM", "DD") if max(seconds, default=0) > 12 else ("DD", "MM"))
        fmt = fmt.replace("??", d, 1).replace("??", m, 1)
    if time_:
        fmt += sep + _TIME_SHAPES[time_.rstrip("Z")] + ("Z" if time_.endswith("Z") else "")
    return fmt


def name_words(prop: str) -> list[str]:
    """The words of a property name: ``knownName`` -> known, name; ``product_ID`` -> product, id."""
    return [w.lower() for w in _CAMEL.findall(prop)]


# --------------------------------------------------------------------------- display choice


def _is_ident(v: str) -> bool:
    """Written like an identifier: one token with digits and letters, or separators, or an
    all-capitals code (``Q7186``, ``nobel-physics-1903``, ``m.0abc``, ``ALFKI``)."""
    if any(c.isspace() for c in v):
        return False
    if _IDENT_CHARS.search(v):
        return True
    has_digit = any(c.isdigit() for c in v)
    if has_digit and any(c.isalpha() for c in v):
        return True
    return len(v) >= 3 and v.isupper()


def _score_display(prop: str, values: Sequence[Any], n: int, *, label: str, kind: str,
                   position: int, is_key: bool, hint: bool, part_of: str | None = None,
                   ) -> tuple[float, str, bool]:
    """(score, why, eligible) of ``prop`` as the display property of ``label``."""
    vals = [v.strip() for v in _present(values) if isinstance(v, str)]
    if kind != "string" or not vals:
        return 0.0, f"{kind}, not text", False
    filled = len(vals) / max(n, 1)
    distinct = len(set(vals)) / len(vals)
    avg = sum(map(len, vals)) / len(vals)
    facts = f"{filled:.0%} filled, {distinct:.0%} distinct, {avg:.0f} chars"
    if hint:
        return 2.0, f"named by the graph's own metadata ({facts})", True
    if filled < 0.5:
        return 0.1, f"only {filled:.0%} of nodes have it", False
    if avg > MAX_DISPLAY_CHARS:
        return 0.2, f"long text ({avg:.0f} chars on average): a description", False
    letters = sum(any(c.isalpha() for c in v) for v in vals) / len(vals)
    tk = _text_kind(vals)
    if letters < 0.8 or tk is not None:
        return 0.15, f"values are {tk + 's' if tk else 'mostly numbers or symbols'}", False
    urlish = sum(bool(_URLISH.search(v)) for v in vals) / len(vals)
    if urlish > 0.5:
        return 0.15, "values are addresses (URLs or e-mails)", False
    ident = sum(map(_is_ident, vals)) / len(vals)
    title = sum(v[:1].isupper() for v in vals) / len(vals)
    digits = sum(sum(c.isdigit() for c in v) / len(v) for v in vals) / len(vals)
    words = name_words(prop)
    score = (0.35 + 0.25 * distinct + 0.15 * title + (0.1 if 2 <= avg <= 40 else 0.05)
             - 0.35 * ident - 0.3 * digits - 0.005 * position)
    notes = [facts]
    if ident > 0.5:
        notes.append("identifier-like values")
    if title > 0.5:
        notes.append("written like names")
    if _NAME_WORDS & set(words):
        score += 0.15
        notes.append("its name says it names things")
    if set(name_words(label)) <= set(words) and len(words) > len(name_words(label)):
        score += 0.1
        notes.append(f"its name contains the label {label}")
    if words and words[-1] in _ID_WORDS:
        score -= 0.25
        notes.append("its name says it identifies")
    if is_key:
        score -= 0.15
        notes.append("the key")
    if part_of:
        score -= 0.1
        notes.append(f"names a part ({part_of}…, like other {part_of}… properties)")
    eligible = distinct >= (MIN_DISTINCT if len(vals) >= 10 else 0.5) and score >= MIN_DISPLAY_SCORE
    if distinct < MIN_DISTINCT:
        notes.append("repeats: a category, not a name")
    return round(score, 3), ", ".join(notes), eligible


def _composite(label: LabelSample, kinds: dict[str, str], order: list[str],
               ) -> tuple[tuple[str, str], str] | None:
    """Two properties that are categories alone but unique together (``category + year``)."""
    rows = [nd.properties for nd in label.nodes]
    n = len(rows)
    if n < 5:
        return None

    def stats(p: str) -> tuple[float, float, list[Any]]:
        vals = _present([r.get(p) for r in rows])
        if not vals:
            return 0.0, 1.0, []
        return len(vals) / n, len({str(v) for v in vals}) / len(vals), vals

    firsts, seconds = [], []
    for p in order:
        if p == label.key or (name_words(p)[-1:] and name_words(p)[-1] in _ID_WORDS):
            continue
        filled, distinct, vals = stats(p)
        values = len({str(v) for v in vals})
        if filled < 0.9 or distinct > 0.5 or values < 2:
            continue  # a part repeats: each value names several nodes
        kind = kinds.get(p, "unknown")
        if kind == "string":
            texts = [str(v).strip() for v in vals]
            tk = _text_kind(texts)
            if tk is None:
                avg = sum(map(len, texts)) / len(texts)
                if avg <= 30 and distinct <= 0.35 and values <= 50 and not any(map(_is_ident,
                                                                                   texts)):
                    firsts.append(p)  # a category: few values, each shared by several nodes
            elif tk == "date" or all(is_integer(t) for t in texts):
                seconds.append(p)
        elif kind in ("int", "date", "datetime"):
            seconds.append(p)
    best: tuple[float, tuple[str, str]] | None = None
    for a in firsts:
        for b in [*seconds, *firsts]:
            if a == b:
                continue
            both = [(str(r.get(a)), str(r.get(b))) for r in rows
                    if _present([r.get(a)]) and _present([r.get(b)])]
            if len(both) < 0.9 * n:
                continue
            uniq = len(set(both)) / len(both)
            rank = uniq - (0.05 if b in firsts else 0.0) - 0.001 * (order.index(a) + order.index(b))
            if uniq >= 0.95 and (best is None or rank > best[0]):
                best = (rank, (a, b))
    if best is None:
        return None
    a, b = best[1]
    return best[1], (f"no single property names these nodes; {a} and {b} are categories alone "
                     "but unique together")


def _label_profile(lab: LabelSample, override: tuple[str, ...] | None,
                   ids_are_names: bool) -> LabelProfile:
    nodes = lab.nodes
    n = len(nodes)
    order = list(dict.fromkeys([*lab.types, *(k for nd in nodes for k in nd.properties)]))
    props, kinds = _property_profiles(lab, order)
    groups = _sub_parts(order, lab)
    cands = []
    for pos, p in enumerate(order):
        score, why, ok = _score_display(
            p, [nd.properties.get(p) for nd in nodes], n, label=lab.name, kind=kinds[p],
            position=pos, is_key=p == lab.key, hint=p == lab.hint, part_of=groups.get(p))
        cands.append((score, ok, p, why))
    cands.sort(key=lambda c: (-c[0], order.index(c[2])))
    candidates = tuple(DisplayCandidate(property=p, score=s, why=w) for s, _, p, w in cands)
    why = {p: "a list of short texts" for p in order
           if kinds[p] == "list" and _alias_list(nodes, p)}
    parts, reason = _display_choice(lab, override, cands, kinds, order, ids_are_names)
    why.update(_scalar_aliases(nodes, order, kinds, parts, groups, lab.key))
    why = {p: w for p, w in why.items() if p not in parts}
    row = _typical_row(nodes)
    example = {k: (x[:60] if isinstance(x := _jsonable(v), str) else x)
               for k, v in (row.properties if row else {}).items() if _present([v])}
    return LabelProfile(
        name=lab.name, count=lab.count, display=parts[0] if len(parts) == 1 else None,
        display_parts=parts, aliases=tuple(p for p in order if p in why), key=lab.key,
        reason=reason, alias_why=why, candidates=candidates[:6], properties=tuple(props),
        example=example)


def _property_profiles(lab: LabelSample, order: list[str]
                       ) -> tuple[list[PropertyProfile], dict[str, str]]:
    """Each property of the label's sampled nodes profiled (type, kind, text form, examples,
    fill and distinct shares), and its kind by name."""
    nodes = lab.nodes
    n = len(nodes)
    props: list[PropertyProfile] = []
    kinds: dict[str, str] = {}
    for p in order:
        raw = [nd.properties.get(p) for nd in nodes]
        present = _present(raw)
        kind = _kind_of(lab.types.get(p), present)
        kinds[p] = kind
        texts = [v.strip() for v in present if isinstance(v, str)] if kind == "string" else []
        examples = tuple(dict.fromkeys(_jsonable(v) for v in present
                                       if not isinstance(v, list | dict)))[:EXAMPLES]
        if kind in ("list", "map"):
            examples = tuple(_jsonable(v) for v in present[:1])
        props.append(PropertyProfile(
            name=p, type=lab.types.get(p), kind=kind, text_kind=_text_kind(texts),
            text_format=date_format(texts) if texts else None,
            examples=examples, filled=round(len(present) / n, 3) if n else None,
            distinct=round(len({str(v) for v in present}) / len(present), 3) if present else None))
    return props, kinds


def _display_choice(lab: LabelSample, override: tuple[str, ...] | None, cands: list,
                    kinds: dict[str, str], order: list[str], ids_are_names: bool
                    ) -> tuple[tuple[str, ...], str]:
    """The properties that name the label's nodes and why: the display option, else the best
    name-like property, else a composite of parts, else the ids."""
    if override is not None:
        missing = [p for p in override if p not in kinds]
        if missing and lab.nodes:
            raise ConfigError(
                f"display {lab.name}.{'+'.join(override)}: {lab.name} has no property "
                f"{missing[0]!r} (properties: {', '.join(order) or 'none'})")
        return tuple(override), "set by the display option"
    if cands and cands[0][1]:
        return (cands[0][2],), f"the best name-like property ({cands[0][3]})"
    comp = _composite(lab, kinds, order)
    if comp is not None:
        return comp
    if ids_are_names:
        return (), "node ids are the names"
    return (), ("no property names these nodes; they are shown by their id"
                if lab.nodes else "no nodes sampled")


def _tokens(value: Any) -> set[str]:
    return set(fast_normalize(str(value)).split()) if isinstance(value, str) else set()


def _scalar_aliases(nodes: Sequence[SampledNode], order: Sequence[str], kinds: dict[str, str],
                    parts: tuple[str, ...], groups: dict[str, str], key: str | None,
                    ) -> dict[str, str]:
    """Text properties besides the display that name the nodes too (``knownName`` beside
    ``fullName``), each with why: written like names (short, mostly letters, not identifiers,
    numbers, dates or addresses, rarely repeated) and either named like a name (``…Name``,
    ``title``, ``alias``; not a part's name such as ``contactName``) or sharing words with
    the display name on most nodes. A property holding one word of the display name (a first
    or last name) is a part of the name, not an alias."""
    out: dict[str, str] = {}
    for p in order:
        if p in parts or p == key or kinds.get(p) != "string":
            continue
        pairs = [(v.strip(), nd.properties) for nd in nodes
                 if isinstance(v := nd.properties.get(p), str) and _present([v])]
        vals = [v for v, _ in pairs]
        if not vals:
            continue
        if (sum(map(len, vals)) / len(vals) > MAX_DISPLAY_CHARS or _text_kind(vals) is not None
                or sum(any(c.isalpha() for c in v) for v in vals) < 0.8 * len(vals)
                or sum(map(_is_ident, vals)) > 0.5 * len(vals)
                or sum(bool(_URLISH.search(v)) for v in vals) > 0.5 * len(vals)
                or (len(vals) >= 5 and len(set(vals)) < 0.6 * len(vals))):
            continue
        shared, single = 0, 0
        both = 0
        for v, props in pairs:
            shown = set().union(*(_tokens(props.get(q)) for q in parts)) if parts else set()
            if not shown:
                continue
            both += 1
            mine = _tokens(v)
            if mine and len(mine & shown) >= 0.5 * len(mine):
                shared += 1
                single += len(mine) == 1
        words = name_words(p)
        named = bool(words) and words[-1] not in _ID_WORDS and any(
            w in _NAME_WORDS or w in _ALIAS_WORDS or w.endswith(lexicon.NAME_WORD_ENDING)
            for w in words)
        if both and single >= 0.5 * both:
            continue  # one word of the display name: a first or last name
        if both and shared >= 0.5 * both:
            out[p] = f"shares words with the display name on {shared} of {both} sampled nodes"
        elif named and p not in groups:
            out[p] = "written like names, and its name says it names things"
    return out


def _shape(v: Any) -> str:
    """A value's kind, text split into numbers, dates and words (to tell a typical row)."""
    kind = value_kind(v)
    if kind != "string":
        return kind
    return _text_kind([v.strip()]) or ("words" if any(c.isalpha() for c in v) else "symbols")


def _typical_row(nodes: Sequence[SampledNode]) -> SampledNode | None:
    """The sampled node whose values look most like each property's usual values (a row whose
    columns slipped, a postcode in the country column, loses), the fullest among equals: the
    one row the schema's examples come from."""
    if not nodes:
        return None
    usual: dict[str, dict[str, int]] = {}
    for nd in nodes:
        for k, v in nd.properties.items():
            if _present([v]):
                shapes = usual.setdefault(k, {})
                shapes[_shape(v)] = shapes.get(_shape(v), 0) + 1
    common = {k: max(c.items(), key=lambda kv: kv[1])[0] for k, c in usual.items()}

    def score(nd: SampledNode) -> float:
        got = [common.get(k) == _shape(v) for k, v in nd.properties.items() if _present([v])]
        return sum(got) - 2 * (len(got) - sum(got))

    return max(nodes, key=score)


def _sub_parts(order: Sequence[str], lab: LabelSample) -> dict[str, str]:
    """Properties whose first word other properties share (``contactName``, ``contactTitle``;
    ``shipName``, ``shipCity``): together they describe a part of the node (its contact, its
    destination), so their name is not the node's. The label's own word does not count."""
    label_words = set(name_words(lab.name))
    first: dict[str, list[str]] = {}
    for p in order:
        words = name_words(p)
        if len(words) >= 2 and p != lab.key and words[-1] not in _ID_WORDS:
            first.setdefault(words[0], []).append(p)
    return {p: w for w, ps in first.items() if len(ps) > 1 and w not in label_words for p in ps}


def _alias_list(nodes: Sequence[SampledNode], prop: str) -> bool:
    """A list property whose items are short texts (other names)."""
    items = [x for nd in nodes for x in (nd.properties.get(prop) or ())]
    return bool(items) and all(isinstance(x, str) and 0 < len(x) <= MAX_DISPLAY_CHARS
                               for x in items)


def _relation_profile(rel: RelationSample, rules: dict[str, DisplayRule]) -> RelationProfile:
    order = list(dict.fromkeys([*rel.types, *(k for e in rel.edges for k in e)]))
    props = []
    for p in order:
        present = _present([e.get(p) for e in rel.edges])
        kind = _kind_of(rel.types.get(p), present)
        texts = [v.strip() for v in present if isinstance(v, str)] if kind == "string" else []
        props.append(PropertyProfile(
            name=p, type=rel.types.get(p), kind=kind, text_kind=_text_kind(texts),
            text_format=date_format(texts) if texts else None, examples=tuple(dict.fromkeys(_jsonable(v) for v in present
                                         if not isinstance(v, list | dict)))[:EXAMPLES],
            filled=round(len(present) / len(rel.edges), 3) if rel.edges else None))
    card = None
    if rel.many_tails is not None and rel.many_heads is not None:
        card = {(False, False): "one-to-one", (False, True): "many-to-one",
                (True, False): "one-to-many", (True, True): "many-to-many"}[
                    (rel.many_tails, rel.many_heads)]

    def name(nd: SampledNode) -> str:
        for lab in nd.labels:
            if lab in rules:
                return rules[lab].name_of(nd.properties) or nd.id
        return nd.id

    return RelationProfile(
        name=rel.name, count=rel.count, domain=tuple(dict.fromkeys(a for a, _ in rel.pairs)),
        range=tuple(dict.fromkeys(b for _, b in rel.pairs)), pairs=rel.pairs, cardinality=card,
        properties=tuple(props), examples=tuple((name(h), name(t)) for h, t in rel.examples),
        heads=dict(rel.heads or {}), tails=dict(rel.tails or {}))


def build_profile(sample: GraphSample, *, uri: str = "",
                  overrides: Mapping[str, Sequence[str]] | None = None,
                  fingerprint: str = "") -> GraphProfile:
    """The profile of a graph from its :class:`~byokg.graph.store.GraphSample` (pure: no store)."""
    t0 = time.perf_counter()
    over = {k: tuple(v) for k, v in (overrides or {}).items()}
    known = {lab.name for lab in sample.labels}
    unknown = [k for k in over if k not in known]
    if unknown:
        raise ConfigError(f"display option names label {unknown[0]!r}, which this graph does not "
                          f"have (labels: {', '.join(sorted(known)) or 'none'})")
    labels = tuple(_label_profile(lab, over.get(lab.name), sample.ids_are_names)
                   for lab in sample.labels)
    rules = {lab.name: lab.rule for lab in labels}
    relations = tuple(_relation_profile(r, rules) for r in sample.relations)
    return GraphProfile(uri=uri, dialect=sample.dialect, labels=labels, relations=relations,
                        ids_are_names=sample.ids_are_names, overrides=over,
                        fingerprint=fingerprint, seconds=time.perf_counter() - t0,
                        queries=sample.queries, notes=sample.notes,
                        vocabulary=_derived_vocabulary(labels, relations))


def _derived_vocabulary(labels: Sequence[LabelProfile],
                        relations: Sequence[RelationProfile]) -> Vocabulary:
    """The vocabulary the graph's own names give (no lexicon, no LLM)."""
    def names(lab: LabelProfile) -> list[NameProperty]:
        out = [NameProperty(property=p, role="display", why=lab.reason)
               for p in lab.display_parts]
        return out + [NameProperty(property=a, role="alias", why=lab.alias_why.get(a, ""))
                      for a in lab.aliases]

    return derive_vocabulary(((r.name, r.domain, r.range) for r in relations),
                             ((lab.name, names(lab)) for lab in labels))


# --------------------------------------------------------------------------- from a store


def _sample_of(store: GraphStore) -> GraphSample:
    """The store's own sample, or one read from its schema (a store without ``profile``)."""
    fn = getattr(store, "profile_sample", None)
    if Capability.PROFILE in store.capabilities and callable(fn):
        return fn(nodes_per_label=SAMPLE_NODES, edges_per_type=SAMPLE_EDGES, examples=EXAMPLES)
    sch = store.schema(samples=EXAMPLES)
    labels = []
    for lab in sch.node_labels:
        depth = max((len(p.samples) for p in lab.properties), default=0)
        nodes = tuple(SampledNode(id=f"{lab.name}#{i}", labels=(lab.name,), properties={
            p.name: p.samples[i] for p in lab.properties if i < len(p.samples)})
            for i in range(depth))
        labels.append(LabelSample(name=lab.name, count=lab.count, nodes=nodes,
                                  types={p.name: p.type for p in lab.properties if p.type}))
    rels = [RelationSample(name=r.name, count=r.count,
                           pairs=tuple((p.src, p.dst) for p in r.patterns),
                           types={p.name: p.type for p in r.properties if p.type},
                           examples=tuple((SampledNode(id=a), SampledNode(id=b))
                                          for a, b in r.samples))
            for r in sch.relation_types]
    return GraphSample(labels=tuple(labels), relations=tuple(rels),
                       dialect=store.dialect, queries=0,
                       notes=("the store has no profile capability: profiled from its schema",))


def _fingerprint(store: GraphStore) -> str:
    fn = getattr(store, "profile_fingerprint", None)
    if Capability.PROFILE in store.capabilities and callable(fn):
        return str(fn())
    st = store.stats()
    text = f"{st.nodes}|{st.triplets}|{st.relations}|" + "|".join(sorted(store.relation_types()))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


# profiles of stores that do not keep their own (no ``use_profile``), weakly keyed by the store
_PROFILES: weakref.WeakKeyDictionary[Any, GraphProfile] = weakref.WeakKeyDictionary()
_PROFILES_LOCK = threading.Lock()


def _cache_file(store: GraphStore, over: Mapping[str, tuple[str, ...]],
                cache_dir: str | os.PathLike[str] | None) -> Path | None:
    folder = graph_cache_dir(store.uri, cache_dir)
    if folder is None:
        return None
    tag = hashlib.sha1(json.dumps(sorted(over.items())).encode()).hexdigest()[:8]
    return folder / f"profile-{tag}.json"


def _read_cache(path: Path | None, fingerprint: str | None, *,
                vocabulary_only: bool = False) -> Any:
    """The cached profile when its fingerprint is ``fingerprint``; with ``vocabulary_only``
    the vocabulary of whatever profile is cached (None: none or unreadable)."""
    if path is None or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            return None
        if vocabulary_only:
            return Vocabulary.model_validate(data["profile"].get("vocabulary") or {})
        if data.get("fingerprint") != fingerprint:
            return None
        return GraphProfile.model_validate(data["profile"]).model_copy(update={"source": "cache"})
    except (OSError, ValueError, KeyError, AttributeError, ValidationError) as exc:
        log.warning("ignoring unreadable profile cache %s (%s)", path, exc)
        return None


def _write_cache(path: Path | None, profile: GraphProfile) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}-{threading.get_ident()}")
        tmp.write_text(json.dumps({"format": FORMAT, "fingerprint": profile.fingerprint,
                                   "profile": profile.model_dump(mode="json")},
                                  ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:  # a cache that cannot be written costs time, nothing else
        log.warning("could not write the profile cache %s (%s)", path, exc)


# --------------------------------------------------------------------------- a profile's words


def compile_items(profile: GraphProfile) -> list[CompileItem]:
    """What the LLM is shown of ``profile``: each relation with the labels it connects and an
    example edge, each label with its size and an example name."""
    out = []
    for r in profile.relations:
        pairs = ", ".join(f"(:{a})->(:{b})" for a, b in r.pairs[:2])
        ex = f"e.g. {r.examples[0][0]} -> {r.examples[0][1]}" if r.examples else ""
        out.append(CompileItem(kind="relation", name=r.name,
                               detail=_clip(" ".join(x for x in (pairs, ex) if x))))
    for lab in profile.labels:
        ex = next((str(p.examples[0]) for p in lab.properties
                   if p.name in lab.display_parts and p.examples), "")
        count = f"{lab.count:,} nodes" if lab.count is not None else ""
        out.append(CompileItem(kind="label", name=lab.name, detail=_clip(
            ", ".join(x for x in (count, f"e.g. {ex}" if ex else "") if x))))
    return out


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def profile_words(profile: GraphProfile, lexicon: str | None, *, llm: Any = None,
                  recompile: bool = False) -> GraphProfile:
    """``profile`` with its vocabulary brought up to date: the lexicon at ``lexicon`` applied
    when the vocabulary was built with another file or content (the LLM's phrases kept), and
    the graph's words compiled by ``llm`` when given and not done yet (or ``recompile``).
    Returns ``profile`` itself when nothing changed."""
    vocab = profile.vocabulary
    if not lexicon_current(vocab, lexicon):
        vocab = apply_lexicon(vocab, read_lexicon(lexicon) if lexicon else None)
    if llm is not None and (recompile or vocab.compiled is None):
        vocab = compile_words(vocab, compile_items(profile), llm)
    if vocab is profile.vocabulary:
        return profile
    return profile.model_copy(update={"vocabulary": vocab})


def carry_llm_phrases(profile: GraphProfile, old: Vocabulary | None) -> GraphProfile:
    """``profile`` (just built) with the LLM phrases and compilation record of ``old`` (an
    earlier vocabulary of the same graph) for the relations and labels it still has."""
    if old is None or old.compiled is None:
        return profile
    rels, labs = llm_phrases(old)
    vocab = with_llm_phrases(profile.vocabulary, rels, labs, old.compiled)
    return profile.model_copy(update={"vocabulary": vocab})


def profile_graph(store: GraphStore, *, refresh: bool = False,
                  cache_dir: str | os.PathLike[str] | None = None, llm: Any = None,
                  recompile: bool = False) -> GraphProfile:
    """The profile of ``store``: the one it already names its nodes by, else read from the disk
    cache (keyed by the graph's URI, a content fingerprint and the display overrides) or built
    from the store's sample; handed to the store (:meth:`~byokg.graph.store.BaseGraphStore.
    use_profile`), so it names its nodes by the profile's display rules. Its vocabulary has the
    store's lexicon file (``store.lexicon``) applied, and with ``llm`` the graph's words
    compiled once (again with ``recompile``); both are cached with it."""
    over = {k: tuple(v) for k, v in (store.display_override or {}).items()}
    lexicon = lexicon_of(store)
    prof = _known_profile(store)
    if (prof is not None and not refresh and not recompile and prof.overrides == over
            and lexicon_current(prof.vocabulary, lexicon, check_digest=False)
            and (llm is None or prof.vocabulary.compiled is not None)):
        return prof
    t0 = time.perf_counter()
    fp = _fingerprint(store)
    path = _cache_file(store, over, cache_dir)
    prof = None if refresh else _read_cache(path, fp)
    built = prof is None
    if prof is None:
        prof = build_profile(_sample_of(store), uri=store.uri, overrides=over,
                             fingerprint=fp)
        prof = prof.model_copy(update={"seconds": time.perf_counter() - t0})
        prof = carry_llm_phrases(prof, _read_cache(path, None, vocabulary_only=True))
        log.info("profiled %s in %.2fs (%d queries)", prof.uri, prof.seconds, prof.queries)
    words = profile_words(prof, lexicon, llm=llm, recompile=recompile)
    if built or words is not prof:
        _write_cache(path, words.model_copy(update={"source": "built"}))
    prof = words
    use = getattr(store, "use_profile", None)
    if callable(use):
        use(prof)
    else:
        with _PROFILES_LOCK, contextlib.suppress(TypeError):  # not weak-referenceable
            _PROFILES[store] = prof
    return prof


def lexicon_of(store: GraphStore) -> str | None:
    """The lexicon file the store's vocabulary is built with (``?lexicon=`` in its URI or
    ``RunConfig.lexicon``; None: none)."""
    got = getattr(store, "lexicon", None)
    return str(got) if got else None


def apply_lexicon_option(store: GraphStore, path: str | os.PathLike[str] | None, *,
                         prefer: bool = False) -> str | None:
    """Name the lexicon file of ``store``'s vocabulary (an absolute path is kept): with
    ``prefer`` it replaces the store's own (a URI), else a store that has one keeps it (a run
    config). The vocabulary is rebuilt on next use when it changes. Returns the lexicon."""
    cur = lexicon_of(store)
    if path is None or (cur is not None and not prefer):
        return cur
    new = str(Path(path).expanduser().resolve())
    if new != cur:
        if not Path(new).is_file():
            raise ConfigError(f"lexicon file {path}: not found (give the path of a .toml or "
                              ".json file; see docs/profile.md, 'The vocabulary')")
        store.lexicon = new  # type: ignore[attr-defined]
        with _PROFILES_LOCK, contextlib.suppress(TypeError):
            _PROFILES.pop(store, None)
    return new


def _known_profile(store: GraphStore) -> GraphProfile | None:
    got = getattr(store, "profile", None)
    if isinstance(got, GraphProfile):
        return got
    with _PROFILES_LOCK:
        try:
            return _PROFILES.get(store)
        except TypeError:
            return None


def get_profile(store: GraphStore, services: Any) -> GraphProfile:
    """The profile of ``store`` (kept on the store once built; see :func:`profile_graph`); the
    run's ``index_dir`` is where it is cached on disk when set."""
    known = _known_profile(store)
    over = {k: tuple(v) for k, v in (store.display_override or {}).items()}
    llm = None
    if services.config.compile_words:  # the run's LLM, not a question's budgeted view
        llm = getattr(services, "base", services).llm
    if (known is not None and known.overrides == over
            and lexicon_current(known.vocabulary, lexicon_of(store), check_digest=False)
            and (llm is None or known.vocabulary.compiled is not None)):
        return known
    return profile_graph(store, cache_dir=services.config.index_dir, llm=llm)


# --------------------------------------------------------------------------- overrides


def parse_display(spec: str | Mapping[str, Any] | Sequence[str] | None) -> dict[str, tuple[str, ...]]:
    """Display overrides from ``"Person.fullName,Prize.category+year"`` (a ``+`` or a space
    joins the parts of a composite name), a list of such items, or ``{label: prop | [props]}``;
    a malformed item is a ConfigError saying what to write."""
    if spec is None:
        return {}
    items: list[tuple[str, Any]]
    if isinstance(spec, Mapping):
        items = list(spec.items())
    else:
        parts = spec.split(",") if isinstance(spec, str) else list(spec)
        items = []
        for raw in (str(x).strip() for x in parts):
            if not raw:
                continue
            label, dot, props = raw.partition(".")
            if not dot or not label.strip() or not props.strip():
                raise ConfigError(f"display item {raw!r} is not Label.property (e.g. "
                                  "display=Person.fullName,Prize.category+year)")
            items.append((label.strip(), props))
    out: dict[str, tuple[str, ...]] = {}
    for label, props in items:
        names = props if isinstance(props, list | tuple) else re.split(r"[+\s]+", str(props))
        names = [str(p).strip() for p in names if str(p).strip()]
        if not names:
            raise ConfigError(f"display item for label {label!r} names no property")
        out[str(label)] = tuple(names)
    return out


def apply_display(store: GraphStore, spec: Any, *, prefer: bool = False,
                  ) -> dict[str, tuple[str, ...]]:
    """Add display overrides to ``store``: with ``prefer`` they replace the store's own for
    the same labels (a URI or ``--display``), else labels already set keep theirs (a run
    config). The profile is rebuilt on next use when they change. Returns the overrides."""
    new = parse_display(spec)
    cur = dict(store.display_override or {})
    merged = {**cur, **new} if prefer else {**new, **cur}
    if merged != cur:
        setter = getattr(store, "set_display", None)
        if callable(setter):
            setter(merged)
        else:
            store.display_override = merged  # type: ignore[attr-defined]
        with _PROFILES_LOCK, contextlib.suppress(TypeError):
            _PROFILES.pop(store, None)
    return merged


# --------------------------------------------------------------------------- names


def display_names(store: GraphStore, ids: Sequence[str], *,
                  missing_as_id: bool = True) -> dict[str, str | None]:
    """Display name per id in one batched call; a node without a name gets its id (or None with
    ``missing_as_id=False``)."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return {}
    fn = getattr(store, "display_names", None)
    if callable(fn):
        got = fn(ids)
        names = {i: (got.get(i) or None) for i in ids}
    else:
        names = {i: (n.name or None) if n is not None else None
                 for i, n in store.get_nodes(ids).items()}
    return {i: (n or i) for i, n in names.items()} if missing_as_id else names


def is_unnamed(node_id: str, name: str | None = None) -> bool:
    """A node without a name of its own whose id is a machine id (Freebase CVT ``m.0abc``,
    ``g.11b…``, blank nodes): never an answer; described by its neighbours instead."""
    return (not name or name == node_id) and bool(_UNNAMED_ID.match(node_id))


# --------------------------------------------------------------------------- relation statistics

STATS_SAMPLE_NODES = 5000  # nodes whose out-edges are read for the statistics
SAMPLE_EDGES_PER_NODE = 50
SAMPLE_DEGREES = 5000  # distinct tails whose name and degree are read (spread over relations)
HUB_DECADES = 2.5  # tails this many powers of ten above the usual degree score as a full hub


class RelationStats(BaseModel):
    """One relation in the sample: edges seen, and what its tails look like."""

    model_config = _FROZEN

    name: str
    edges: int = 0
    heads: int = 0
    tails: int = 0
    unnamed_tails: float = 0.0  # share of sampled tails without a name of their own
    literal_tails: float = 0.0  # share of sampled tails that look like values (file, URL, date)
    tail_degree: float = 0.0  # median degree of the sampled tails
    noise: float = 0.0  # 0 (informative) .. 1 (hub or low-information), see relation_stats


def relation_stats(store: GraphStore, services: Any = None, *,
                   sample_nodes: int = STATS_SAMPLE_NODES) -> dict[str, RelationStats]:
    """Per relation, from a bounded sample (the out-edges of the first ``sample_nodes`` nodes
    the store lists, the degrees of up to :data:`SAMPLE_DEGREES` of their tails: three batched
    calls); built once per store and run when ``services`` is given. ``noise`` is the largest of
    the literal-like share, half the unnamed share and the hub score (the tails' median degree
    against the sample's, on a log scale: :data:`HUB_DECADES` powers of ten above the usual
    degree score 1)."""
    if services is not None:
        key = ("relation-stats", store, sample_nodes)
        return services.shared(key, lambda: relation_stats(store, sample_nodes=sample_nodes))
    from byokg.contracts import Direction

    seen_ids: dict[str, None] = {}
    for batch in store.iter_node_names(batch_size=max(sample_nodes, 1)):
        seen_ids.update(dict.fromkeys(i for i, _n in batch))
        if len(seen_ids) >= sample_nodes:
            break
    ids = list(seen_ids)[:sample_nodes]
    if not ids:
        return {}
    hoods = store.neighbors(ids, direction=Direction.OUT, limit_per_node=SAMPLE_EDGES_PER_NODE)
    edges: dict[str, list[tuple[str, str]]] = {}
    for nid in ids:
        hood = hoods.get(nid)
        for t in (hood.triplets if hood is not None else ()):
            edges.setdefault(t.relation, []).append((t.head, t.tail))
    # the same number of distinct tails from every relation, so each gets looked at
    per_rel = max(3, SAMPLE_DEGREES // max(len(edges), 1))
    picked = {rel: sorted({t for _h, t in es})[:per_rel] for rel, es in edges.items()}
    tails = sorted({t for ts in picked.values() for t in ts})
    names = display_names(store, tails, missing_as_id=False)
    degree = store.degrees(tails) if tails else {}
    ref = statistics.median(store.degrees(ids).values())
    out = {}
    for rel in sorted(edges):
        es, seen = edges[rel], picked[rel]
        unnamed = sum(1 for t in seen if is_unnamed(t, names.get(t))
                      or (names.get(t) is None and not is_literal_like(t)))
        literal = sum(1 for t in seen if is_literal_like(names.get(t) or t))
        degs = [degree[t] for t in seen if t in degree]
        tail_deg = float(statistics.median(degs)) if degs else 0.0
        hub = min(1.0, max(0.0, math.log10(max(tail_deg, 1.0) / max(ref, 1.0)) / HUB_DECADES))
        n = max(len(seen), 1)
        stats = RelationStats(name=rel, edges=len(es), heads=len({h for h, _t in es}),
                              tails=len({t for _h, t in es}), unnamed_tails=round(unnamed / n, 4),
                              literal_tails=round(literal / n, 4), tail_degree=tail_deg)
        noise = max(stats.literal_tails, 0.5 * stats.unnamed_tails, hub)
        out[rel] = stats.model_copy(update={"noise": round(noise, 4)})
    return out


def relation_weights(stats: Mapping[str, RelationStats], relevance: Mapping[str, float], *,
                     floor: float = 0.05) -> dict[str, float]:
    """Weight in [floor, 1] per relation of ``relevance`` (its relevance to the question, 0..1):
    ``1 - noise * (1 - relevance)``, so a hub relation the question asks about keeps its weight
    and one it does not is pushed down; relations outside the sample weigh 1."""
    out = {}
    for rel, r in relevance.items():
        st = stats.get(rel)
        noise = st.noise if st is not None else 0.0
        out[rel] = round(max(floor, 1.0 - noise * (1.0 - max(0.0, min(1.0, r)))), 4)
    return out
