"""Entity verification for a query that came back empty.

:func:`extract_entities` reads (with the lexer, never regexes over raw text) the labels,
relationship types, properties and literal values a query uses; :func:`verify` checks each
against the store's schema and, for values, with small *parameterised* auxiliary queries
(labels and property keys come from the schema and are backtick-quoted; values are always
``$v``). For anything missing it suggests the nearest existing names / values by Levenshtein
similarity (rapidfuzz) over the schema and over the property's values (fetched with a capped
query). When every entity exists the empty result is a real answer ("verified empty").
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Literal

from pydantic import BaseModel
from pydantic import Field

from .dialects import TripleLayout
from .dialects import relation_name_at
from .dialects import triple_layout
from .lexer import Kind
from .lexer import LexError
from .lexer import Token
from .lexer import UnsafeIdentifier
from .lexer import code_tokens
from .lexer import quote_identifier
from .lexer import tokenize

VALUE_SAMPLE_CAP = 5000  # distinct values fetched per property for suggestions
SUGGESTIONS = 3
MIN_SIMILARITY = 0.45
_SUBQUERY_WORDS = {"EXISTS", "COUNT", "CALL", "COLLECT"}
_STRING_OPS = {"CONTAINS": "CONTAINS", "STARTS": "STARTS WITH", "ENDS": "ENDS WITH"}


@dataclass
class UsedEntities:
    """What a query refers to. ``values`` holds (variable, property, operator, value)."""

    labels: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    var_labels: dict[str, list[str]] = field(default_factory=dict)
    var_rels: dict[str, list[str]] = field(default_factory=dict)
    properties: list[tuple[str, str]] = field(default_factory=list)  # (variable, property)
    values: list[tuple[str, str, str, Any]] = field(default_factory=list)


def _literal(tok: Token, params: Mapping[str, Any]) -> tuple[bool, Any]:
    if tok.kind is Kind.STRING:
        return True, tok.value
    if tok.kind is Kind.NUMBER:
        try:
            return True, int(tok.text.replace("_", ""))
        except ValueError:
            try:
                return True, float(tok.text)
            except ValueError:
                return False, None
    if tok.kind is Kind.PARAM and tok.value in params:
        v = params[tok.value]
        return (True, v) if isinstance(v, str | int | float) and not isinstance(v, bool) else (
            False, None)
    return False, None


def _name(tok: Token) -> str | None:
    if tok.kind is Kind.WORD:
        return tok.text
    if tok.kind is Kind.NAME:
        return tok.value
    return None


def extract_entities(query: str, params: Mapping[str, Any] | None = None) -> UsedEntities:
    """Labels, relationship types, properties and literal values used by ``query``."""
    try:
        toks = code_tokens(tokenize(query))
    except LexError:
        return UsedEntities()
    return _Extractor(toks, params or {}).run()


class _Extractor:
    """One pass over the tokens with a stack of what each open bracket is."""

    def __init__(self, toks: list[Token], params: Mapping[str, Any]) -> None:
        self.toks, self.params, self.n = toks, params, len(toks)
        self.out = UsedEntities()
        self.stack: list[str] = []  # "node" | "rel" | "list" | "map" | "sub"
        self.var: list[str | None] = []  # variable of the enclosing node/rel pattern

    def run(self) -> UsedEntities:
        i = 0
        while i < self.n:
            t = self.toks[i]
            if t.kind is Kind.PUNCT and t.text in "([{":
                i = self._open(i)
            elif t.kind is Kind.PUNCT and t.text in ")]}":
                if self.stack:
                    self.stack.pop()
                    self.var.pop()
                i += 1
            else:
                i = self._label(i) or self._map_entry(i) or self._property(i) or i + 1
        return self.out

    def _open(self, i: int) -> int:
        toks, t = self.toks, self.toks[i]
        prev = toks[i - 1] if i else None
        if t.text == "(":
            self.stack.append("node")
        elif t.text == "[":
            self.stack.append("rel" if prev is not None and prev.is_punct("-", "<-") else "list")
        else:
            is_sub = prev is not None and prev.kind is Kind.WORD and (
                prev.text.upper() in _SUBQUERY_WORDS)
            self.stack.append("sub" if is_sub else "map")
        self.var.append(None)
        # the pattern's variable: ( var :Label … ) / [ var :TYPE … ]
        if t.text in "([" and i + 1 < self.n and toks[i + 1].kind is Kind.WORD and (
            i + 2 < self.n and toks[i + 2].is_punct(":", "{", ")", "]")
        ):
            self.var[-1] = toks[i + 1].text
        return i + 1

    def _label(self, i: int) -> int:
        """``:Label`` / ``:TYPE`` / ``|TYPE``: the index after it, or 0."""
        toks, t, out = self.toks, self.toks[i], self.out
        top = self.stack[-1] if self.stack else None
        prev = toks[i - 1] if i else None
        if not (t.is_punct(":", "|") and top != "map" and i + 1 < self.n):
            return 0
        nm, nxt = _name(toks[i + 1]), i + 2
        if top == "rel":  # dotted names like people.person.place_of_birth, unquoted
            nm, nxt = relation_name_at(toks, i + 1)
        if nm is None or not (t.text == ":" or top == "rel"):
            return 0
        if top == "rel":
            if nm not in out.relations:
                out.relations.append(nm)
            if self.var[-1]:
                out.var_rels.setdefault(self.var[-1], []).append(nm)
            return nxt
        if top not in ("node", None, "sub", "list") or prev is None:
            return 0
        if nm not in out.labels:
            out.labels.append(nm)
        var = self.var[-1] if top == "node" and prev.kind is not Kind.WORD else None
        var = var or (prev.text if prev.kind is Kind.WORD else None)
        if var:
            out.var_labels.setdefault(var, []).append(nm)
        return i + 2

    def _map_entry(self, i: int) -> int:
        """``{key: literal}`` inside a node or relationship pattern."""
        toks, t, out = self.toks, self.toks[i], self.out
        top = self.stack[-1] if self.stack else None
        if not (top == "map" and t.kind in (Kind.WORD, Kind.NAME) and i + 2 < self.n
                and toks[i + 1].is_punct(":")):
            return 0
        owner = self.var[-2] if len(self.var) >= 2 else None
        owner_kind = self.stack[-2] if len(self.stack) >= 2 else None
        ok, val = _literal(toks[i + 2], self.params)
        key = _name(t) or ""
        if owner_kind in ("node", "rel"):
            alias = owner or f"_anon{i}"
            if owner is None:  # anonymous pattern: remember its label/type for the check
                lbl = _pattern_label(toks, i, owner_kind)
                if lbl:
                    (out.var_rels if owner_kind == "rel" else out.var_labels).setdefault(
                        alias, []).append(lbl)
            out.properties.append((alias, key))
            if ok:
                out.values.append((alias, key, "=", val))
        return i + 3

    def _property(self, i: int) -> int:
        """``var.prop``, and comparisons of it with a literal."""
        toks, t, n = self.toks, self.toks[i], self.n
        prev = toks[i - 1] if i else None
        if not (t.kind is Kind.WORD and i + 2 < n and toks[i + 1].is_punct(".")
                and toks[i + 2].kind in (Kind.WORD, Kind.NAME)
                and not (prev is not None and prev.is_punct("."))
                and not (i + 3 < n and toks[i + 3].is_punct("(", "."))):
            return 0
        var, prop = t.text, _name(toks[i + 2]) or ""
        self.out.properties.append((var, prop))
        if i + 3 < n:
            self._compared(var, prop, i + 3)
        if prev is not None and prev.is_punct("=") and i >= 2:  # literal = var.prop
            ok, val = _literal(toks[i - 2], self.params)
            if ok:
                self.out.values.append((var, prop, "=", val))
        return i + 3

    def _compared(self, var: str, prop: str, j: int) -> None:
        toks, n, values = self.toks, self.n, self.out.values
        op_tok = toks[j]
        if op_tok.is_punct("=") and j + 1 < n:
            ok, val = _literal(toks[j + 1], self.params)
            if ok:
                values.append((var, prop, "=", val))
        elif op_tok.kind is Kind.WORD and op_tok.text.upper() in _STRING_OPS:
            k = j + 1
            if op_tok.text.upper() != "CONTAINS" and k < n and toks[k].is_word("WITH"):
                k += 1
            if k < n:
                ok, val = _literal(toks[k], self.params)
                if ok and isinstance(val, str):
                    values.append((var, prop, _STRING_OPS[op_tok.text.upper()], val))
        elif op_tok.is_word("IN") and j + 1 < n and toks[j + 1].is_punct("["):
            k = j + 2
            while k < n and not toks[k].is_punct("]"):
                ok, val = _literal(toks[k], self.params)
                if ok:
                    values.append((var, prop, "=", val))
                k += 1


def _pattern_label(toks: list[Token], map_index: int, kind: str) -> str | None:
    """The first :Label / :TYPE of the pattern whose property map holds ``toks[map_index]``."""
    j = map_index
    while j > 0 and not toks[j].is_punct("(" if kind == "node" else "["):
        j -= 1
    for k in range(j, map_index):
        if toks[k].is_punct(":") and k + 1 < len(toks):
            return _name(toks[k + 1])
    return None


# --------------------------------------------------------------------------- checking


class EntityCheck(BaseModel):
    kind: Literal["label", "relation", "property", "value"]
    name: str  # the label / type / property / value as the query wrote it
    owner: str | None = None  # label or relationship type the property/value belongs to
    property: str | None = None
    exists: bool
    suggestions: list[str] = Field(default_factory=list)
    detail: str = ""

    def describe(self) -> str:
        if self.kind == "value":
            what = f"value {self.name!r} of {self.owner}.{self.property}"
        elif self.kind == "property":
            what = f"property {self.name!r} on {self.owner}"
        else:
            what = f"{self.kind} {self.name!r}"
        if self.exists:
            return f"{what}: exists"
        sug = f"; nearest existing: {', '.join(repr(s) for s in self.suggestions)}" if (
            self.suggestions) else "; no similar name found"
        return f"{what}: NOT FOUND{sug}" + (f" ({self.detail})" if self.detail else "")


class VerificationReport(BaseModel):
    checks: list[EntityCheck] = Field(default_factory=list)
    queries: int = 0  # auxiliary queries run

    @property
    def all_exist(self) -> bool:
        return all(c.exists for c in self.checks)

    @property
    def missing(self) -> list[EntityCheck]:
        return [c for c in self.checks if not c.exists]

    def feedback(self) -> str:
        return "\n".join(f"- {c.describe()}" for c in self.checks)


def nearest(word: str, choices: Sequence[str], k: int = SUGGESTIONS,
            min_score: float = MIN_SIMILARITY) -> list[str]:
    """Up to ``k`` choices closest to ``word`` by normalised Levenshtein similarity."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.utils import default_process

    if not choices:
        return []
    hits = process.extract(
        word, list(dict.fromkeys(choices)), scorer=Levenshtein.normalized_similarity,
        processor=default_process, limit=k, score_cutoff=min_score,
    )
    return [h[0] for h in hits]


def _q(store: Any, text: str, params: Mapping[str, Any], timeout_s: float | None) -> list[tuple]:
    res = store.query(text, dict(params), timeout_s=timeout_s, row_limit=VALUE_SAMPLE_CAP)
    return [tuple(r) for r in res.rows]


def verify(
    store: Any,
    query: str,
    params: Mapping[str, Any] | None = None,
    *,
    schema: Any = None,
    timeout_s: float | None = 10.0,
    max_value_checks: int = 8,
) -> VerificationReport:
    """Check that every label, relationship type, property and literal value exists."""
    used = extract_entities(query, params)
    schema = schema if schema is not None else store.schema(samples=0)
    v = _Verifier(store, used, schema, timeout_s)
    layout = triple_layout(store)
    if layout is not None:
        _triple_entities(used, query, layout)
        v.rel_props.setdefault(layout.rel_table, sorted(
            {layout.type_property} | {p for ps in v.rel_props.values() for p in ps}))
    v.names()
    v.properties()
    v.values(max_value_checks)
    return v.report


class _Verifier:
    """The checks of :func:`verify`, sharing the schema's names."""

    def __init__(self, store: Any, used: UsedEntities, schema: Any, timeout_s: float | None):
        self.store, self.used, self.timeout_s = store, used, timeout_s
        self.label_props = {nl.name: [p.name for p in nl.properties] for nl in schema.node_labels}
        self.rel_props = {rt.name: [p.name for p in rt.properties] for rt in schema.relation_types}
        self.rel_names = list(self.rel_props)  # what a misspelt relation is compared with
        self.report = VerificationReport()

    def names(self) -> None:
        add = self.report.checks.append
        for lbl in self.used.labels:
            ok = lbl in self.label_props
            add(EntityCheck(kind="label", name=lbl, exists=ok,
                            suggestions=[] if ok else nearest(lbl, list(self.label_props))))
        for rel in self.used.relations:
            ok = rel in self.rel_props
            add(EntityCheck(kind="relation", name=rel, exists=ok,
                            suggestions=[] if ok else nearest(rel, self.rel_names)))

    def owners(self, var: str) -> list[tuple[str, str]]:
        """(kind, name) of the existing labels / types bound to ``var``."""
        out = [("node", lb) for lb in self.used.var_labels.get(var, []) if lb in self.label_props]
        out += [("rel", rt) for rt in self.used.var_rels.get(var, []) if rt in self.rel_props]
        return out

    def guess(self, var: str, prop: str) -> list[tuple[str, str]]:
        """Owners for a variable no pattern labels (``MATCH (n)``, ``WITH x AS y``): every
        label / type whose schema lists ``prop`` (at most 5)."""
        if var in self.used.var_labels or var in self.used.var_rels:
            return []  # bound to a missing label/type: already reported
        out = [("node", lb) for lb, ps in self.label_props.items() if prop in ps]
        out += [("rel", rt) for rt, ps in self.rel_props.items() if prop in ps]
        return out[:5]

    def pool(self, kind: str, owner: str) -> list[str]:
        return self.label_props[owner] if kind == "node" else self.rel_props[owner]

    def properties(self) -> None:
        used, checks = self.used, self.report.checks
        all_props = sorted({p for ps in self.label_props.values() for p in ps}
                           | {p for ps in self.rel_props.values() for p in ps})
        seen: set[tuple[str, str]] = set()
        for var, prop in used.properties:
            found = self.owners(var)
            if not found and not (var in used.var_labels or var in used.var_rels) and all_props:
                if (f"?{var}", prop) not in seen and not self.guess(var, prop):
                    seen.add((f"?{var}", prop))
                    checks.append(EntityCheck(
                        kind="property", name=prop, owner="any label or type", exists=False,
                        suggestions=nearest(prop, all_props)))
                continue
            for kind, owner in found:
                pool = self.pool(kind, owner)
                if (owner, prop) in seen or not pool:
                    continue  # no properties listed: nothing to compare against
                seen.add((owner, prop))
                ok = prop in pool
                checks.append(EntityCheck(kind="property", name=prop, owner=owner, exists=ok,
                                          suggestions=[] if ok else nearest(prop, pool)))

    def values(self, max_checks: int) -> None:
        checked = 0
        done: set[tuple[str, str, str, str]] = set()
        for var, prop, op, val in self.used.values:
            bound = self.owners(var)
            candidates = bound or self.guess(var, prop)
            if not bound and candidates:  # unlabeled variable: the value must exist somewhere
                key = ("?", prop, op, repr(val))
                if key in done or checked >= max_checks:
                    continue
                done.add(key)
                checked += 1
                self._anywhere(candidates, prop, op, val)
                continue
            for kind, owner in bound:
                pool = self.pool(kind, owner)
                key = (owner, prop, op, repr(val))
                if (pool and prop not in pool) or key in done or checked >= max_checks:
                    continue  # a missing property is already reported
                done.add(key)
                checked += 1
                self.report.checks.append(_check_value(self.store, kind, owner, prop, op, val,
                                                       self.timeout_s, self.report))

    def _anywhere(self, candidates: list[tuple[str, str]], prop: str, op: str, val: Any) -> None:
        parts = [_check_value(self.store, k, o, prop, op, val, self.timeout_s, self.report)
                 for k, o in candidates[:3]]
        hit = [c for c in parts if c.exists]
        sugg = list(dict.fromkeys(x for c in parts for x in c.suggestions))[:SUGGESTIONS]
        self.report.checks.append(EntityCheck(
            kind="value", name=str(val), property=prop, exists=bool(hit),
            owner=hit[0].owner if hit else "/".join(o for _, o in candidates[:3]),
            suggestions=[] if hit else sugg))


def _triple_entities(used: UsedEntities, query: str, layout: TripleLayout) -> None:
    """On a Kùzu triple graph a relation is a value of ``REL.type``: turn the type filters a
    (rewritten) query uses — ``[r:REL {type: 'x'}]``, ``r.type IN […]`` on a REL variable, the
    first variable of a recursive filter ``(e, n | WHERE e.type …)`` — into relation names."""
    try:
        toks = code_tokens(tokenize(query))
    except LexError:
        toks = []
    step_vars = {  # ( e , n | … : the per-step relationship variables of recursive filters
        toks[k + 1].text for k in range(len(toks) - 4)
        if toks[k].is_punct("(") and toks[k + 1].kind is Kind.WORD and toks[k + 2].is_punct(",")
        and toks[k + 3].kind is Kind.WORD and toks[k + 4].is_punct("|")
    }
    table = layout.rel_table.lower()

    def is_rel_var(var: str) -> bool:
        return var in step_vars or any(t.lower() == table for t in used.var_rels.get(var, []))

    keep: list[tuple[str, str, str, Any]] = []
    converted: set[str] = set()
    for var, prop, op, val in used.values:
        if prop == layout.type_property and op == "=" and isinstance(val, str) and is_rel_var(
                var):
            converted.add(var)
            if val not in used.relations:
                used.relations.append(val)
        else:
            keep.append((var, prop, op, val))
    used.values = keep
    used.properties = [(v, p) for v, p in used.properties
                       if not (p == layout.type_property and (v in converted or is_rel_var(v)))]
    for var in step_vars:  # a recursive filter's variable is bound to the triple table
        used.var_rels.setdefault(var, [layout.rel_table])
    names = [r for r in used.relations if r.lower() != table]  # REL itself only when alone
    used.relations = names or [layout.rel_table for r in used.relations if r.lower() == table][:1]
    for var, types in used.var_rels.items():  # properties of REL variables: REL's columns
        used.var_rels[var] = [layout.rel_table if t.lower() == table else t for t in types]


def _check_value(
    store: Any, kind: str, owner: str, prop: str, op: str, val: Any,
    timeout_s: float | None, report: VerificationReport,
) -> EntityCheck:
    dialect = store.dialect
    try:  # names come from the schema; written by the engine's rules or not at all
        name, p = quote_identifier(owner, dialect), f"n.{quote_identifier(prop, dialect)}"
    except UnsafeIdentifier as exc:
        return EntityCheck(kind="value", name=str(val), owner=owner, property=prop, exists=False,
                           detail=f"not checked: {exc}")
    pat = f"(n:{name})" if kind == "node" else f"()-[n:{name}]->()"
    try:
        report.queries += 1
        rows = _q(store, f"MATCH {pat} WHERE {p} {op} $v RETURN count(*) AS c", {"v": val},
                  timeout_s)
        ok = bool(rows and rows[0][0])
    except Exception as exc:  # noqa: BLE001 - e.g. a type mismatch: report it as not found
        return EntityCheck(kind="value", name=str(val), owner=owner, property=prop, exists=False,
                           detail=f"comparison failed: {str(exc).splitlines()[0][:160]}")
    if ok or not isinstance(val, str):
        return EntityCheck(kind="value", name=str(val), owner=owner, property=prop, exists=ok)
    try:
        report.queries += 1
        rows = _q(store, f"MATCH {pat} WHERE {p} IS NOT NULL RETURN DISTINCT {p} AS v "
                  f"LIMIT {VALUE_SAMPLE_CAP}", {}, timeout_s)
        values = [r[0] for r in rows if isinstance(r[0], str)]
    except Exception:  # noqa: BLE001 - suggestions are best effort
        values = []
    if op != "=":  # CONTAINS / STARTS WITH: compare against same-length windows too
        sugg = _nearest_substring(val, values)
    else:
        sugg = nearest(val, values)
    return EntityCheck(kind="value", name=val, owner=owner, property=prop, exists=False,
                       suggestions=sugg)


def _nearest_substring(val: str, values: Sequence[str]) -> list[str]:
    from rapidfuzz import fuzz
    from rapidfuzz import process
    from rapidfuzz.utils import default_process

    hits = process.extract(val, list(dict.fromkeys(values)), scorer=fuzz.partial_ratio,
                           processor=default_process, limit=SUGGESTIONS, score_cutoff=60)
    return [h[0] for h in hits]
