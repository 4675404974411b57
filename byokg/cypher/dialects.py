"""Dialect awareness: prompt hints per backend and portable rewrites applied before execution.

:func:`dialect_hints` is what the KG-Linker prompt says about the store's Cypher dialect;
:func:`rewrite` turns common Neo4j-isms into the store's dialect, working on lexer tokens (never
inside string literals or comments) and returning the list of rewrites it applied so the trace
records them. Every Kùzu rewrite below was checked on kuzu 0.11.3 (see tests/cypher).
"""

from __future__ import annotations

import re
from typing import Any

from .lexer import Kind
from .lexer import LexError
from .lexer import Token
from .lexer import code_tokens
from .lexer import depths
from .lexer import quote_name
from .lexer import tokenize

# The Kùzu family: Kùzu and its fork LadybugDB read the same Cypher (same rewrites, hints,
# procedures and quoting rules); byokg.cypher.kuzuengine describes what differs.
KUZU_FAMILY: frozenset[str] = frozenset({"kuzu", "ladybug"})


def is_kuzu_family(dialect: str | None) -> bool:
    """Whether ``dialect`` is Kùzu's or a fork's (LadybugDB)."""
    return (dialect or "").lower() in KUZU_FAMILY


# Words Kùzu 0.11.3's parser rejects as a bare label / relationship type name (checked with
# ``MATCH (n:Word)`` for each candidate keyword).
KUZU_RESERVED: frozenset[str] = frozenset(
    """ACYCLIC ALL AND ANY ASC ASCENDING CASE CAST COLUMN CREATE DBTYPE DEFAULT DESC DESCENDING
    DISTINCT ELSE END ENDS EXISTS FALSE GLOB GROUP HEADERS HINT IN INSTALL JOIN MACRO MULTI_JOIN
    NONE NOT NULL ON ONLY OPTIONAL OR ORDER PRIMARY PROFILE SHORTEST SINGLE STARTS TABLE THEN
    TRAIL TRUE UNION UNWIND WHEN WHERE WITH WSHORTEST XOR""".split()
)

# Neo4j function -> Kùzu function (same arguments, same meaning).
KUZU_FUNCTIONS: dict[str, str] = {
    "tofloat": "to_double",
    "tointeger": "to_int64",
    "tostring": "to_string",
    "toboolean": "to_bool",
    "split": "string_split",
    "datetime": "timestamp",
}

_HINTS: dict[str, str] = {
    "kuzu": """Cypher dialect: Kùzu (embedded, openCypher with differences).
- Every node pattern needs a label and every relationship a type where the query depends on it; tables are typed (a schema exists for every label).
- Reserved words used as labels must be backtick-quoted, e.g. (o:`Order`).
- No shortestPath()/allShortestPaths(): write MATCH p = (a)-[* SHORTEST 1..4]-(b) (or `* ALL SHORTEST 1..4`).
- No list comprehensions [x IN l WHERE .. | ..]: use list_filter(l, x -> ..) and list_transform(l, x -> ..).
- Pattern subqueries need MATCH: COUNT { MATCH (a)-[:R]->() } and EXISTS { MATCH ... }; count{(a)-->()} and exists((a)-->()) fail.
- WITH ... ORDER BY must be followed by SKIP or LIMIT.
- Functions: to_double/to_int64/to_string/to_bool instead of toFloat/toInteger/toString/toBoolean; string_split instead of split; lower/upper (toLower/toUpper also work); round(x, digits) needs the digits argument; no replace(), head(), last(), stDev(), percentileCont(), datetime(): use timestamp('YYYY-MM-DD hh:mm:ss').
- Lists and substring() are 1-based: substring(s, 1, n) is the first n characters; l[1] is the first element.
- date() parses only 'YYYY-MM-DD'; use date(substring(s, 1, 10)) for longer strings.
- Labels of a node: label(n) (one label per node); there is no elementId().""",
    "neo4j": """Cypher dialect: Neo4j 5 Cypher.
- Use shortestPath((a)-[*..k]-(b)) for shortest paths; list comprehensions and pattern comprehensions work.
- Use COUNT { (a)-[:R]->() } / EXISTS { ... } subqueries, not size((a)-->()) (removed in Neo4j 5).
- Values compared with strings stay strings: convert with toFloat()/toInteger() where a property is stored as text.
- substring() is 0-based.""",
    "neptune-analytics": """Cypher dialect: Amazon Neptune Analytics openCypher.
- openCypher only: no APOC, no Neo4j-specific procedures; schema via CALL neptune.graph.pg_schema().
- No shortestPath()/allShortestPaths() function; use a bounded variable-length pattern with ORDER BY length(p) LIMIT 1.
- Variable-length patterns must be bounded (e.g. *1..3); no list/pattern comprehension over paths.
- Vector search: CALL neptune.algo.vectors.topKByEmbedding(...).""",
    "neptune-db": """Cypher dialect: Amazon Neptune Database openCypher.
- openCypher only: no APOC, no procedures besides neptune.* ones; no shortestPath().
- Variable-length patterns should be bounded (e.g. *1..3); MERGE/CALL subqueries are limited.
- No datetime() with time zones beyond UTC; use string comparison for dates stored as text.""",
}
_HINTS["falkordb"] = """Cypher dialect: FalkorDB (openCypher on Redis, queries run read-only).
- No elementId(): use id(n) (an integer).
- shortestPath() only in WITH/RETURN and only directed: MATCH (a {..}), (b {..}) RETURN shortestPath((a)-[*..4]->(b)); for either direction use CALL algo.SPpaths({sourceNode: a, targetNode: b, relDirection: 'both', maxLen: 4}) YIELD path.
- Full-text search: CALL db.idx.fulltext.queryNodes('Label', 'words') YIELD node, score.
- Schema: CALL db.labels(), db.relationshipTypes(), db.propertyKeys(), db.meta.stats(); no APOC.
- String functions: string.join(list, sep), string.matchRegEx(s, re); list helpers list.dedup(l), list.sort(l); substring() is 0-based; toFloat/toInteger/toString work."""
_HINTS["ladybug"] = _HINTS["kuzu"].replace(
    "Cypher dialect: Kùzu (embedded,", "Cypher dialect: LadybugDB (Kùzu's fork, embedded,")
_HINTS["arcadedb"] = _HINTS["neo4j"].replace("Neo4j 5 Cypher", "ArcadeDB openCypher (Bolt)")


# Kùzu triple graphs (``byokg load`` of head,relation,tail files): see _kuzu_triples below.
KUZU_TRIPLE_HINT = """- This graph was loaded from triples: every edge is stored in ONE rel table {rel} whose `{prop}` property holds the relation name the schema shows. Write the relation name as the type, as shown (-[:capital]->, -[r:a|b]->, -[:a*1..3]->; dotted names as written or `backticked`): byokg rewrites it to -[r:{rel} {{{prop}: 'capital'}}]-> (alternatives: WHERE r.{prop} IN [..]; variable length: Kùzu's recursive filter). Writing that form yourself also works. Return r.{prop} for a relation's name."""
KUZU_TRIPLE_HINT_MAYBE = """- Graphs loaded from triples (one node label Entity, relations between Entity nodes) store every edge in ONE rel table REL whose `type` property holds the relation name the schema shows: write the relation name as the type, as shown (-[:capital]->, -[r:a|b]->, -[:a*1..3]->); byokg rewrites it to -[r:REL {type: 'capital'}]->. Return r.type for a relation's name."""


def dialect_hints(dialect: str, *, store: Any = None, triple_graph: bool | None = None) -> str:
    """What an LLM writing Cypher for ``dialect`` should know (empty for an unknown dialect).

    For Kùzu, ``store`` (or ``triple_graph``) says whether the graph is a triple graph whose
    relations are values of ``REL.type``: True adds how to write relations there, False adds
    nothing, and unknown (neither given) adds a short conditional note.
    """
    base = _HINTS.get((dialect or "").lower(), "")
    if not base or not is_kuzu_family(dialect):
        return base
    layout = triple_layout(store) if store is not None else None
    if store is not None:
        triple_graph = layout is not None
    if triple_graph is False:
        return base
    if layout is not None:
        return base + "\n" + KUZU_TRIPLE_HINT.format(rel=layout.rel_table,
                                                     prop=layout.type_property)
    if triple_graph:
        return base + "\n" + KUZU_TRIPLE_HINT.format(rel="REL", prop="type")
    return base + "\n" + KUZU_TRIPLE_HINT_MAYBE


# --------------------------------------------------------------------------- rewrites


class _Editor:
    """Collects (start, end, replacement) edits and applies them right to left."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.edits: list[tuple[int, int, str]] = []

    def replace(self, start: int, end: int, new: str) -> None:
        self.edits.append((start, end, new))

    def apply(self) -> str:
        out = self.text
        for start, end, new in sorted(self.edits, key=lambda e: (e[0], e[1]), reverse=True):
            out = out[:start] + new + out[end:]
        return out


def _match(toks: list[Token], i: int) -> int:
    """Index of the bracket closing the one opened at ``toks[i]`` (or -1)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    open_ch = toks[i].text
    close_ch = pairs[open_ch]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].is_punct(open_ch):
            depth += 1
        elif toks[j].is_punct(close_ch):
            depth -= 1
            if depth == 0:
                return j
    return -1


def _kuzu_reserved_labels(toks: list[Token], ed: _Editor, applied: list[str]) -> None:
    stack: list[str] = []
    for i, t in enumerate(toks):
        if t.kind is Kind.PUNCT and t.text in "([{":
            stack.append(t.text)
        elif t.kind is Kind.PUNCT and t.text in ")]}":
            if stack:
                stack.pop()
        elif (
            t.kind is Kind.WORD
            and t.text.upper() in KUZU_RESERVED
            and i > 0
            and (
                (toks[i - 1].is_punct(":") and stack[-1:] != ["{"])
                or (toks[i - 1].is_punct("|") and stack[-1:] == ["["])
                or toks[i - 1].is_word("AS")
            )
        ):
            ed.replace(t.start, t.end, quote_name(t.text))
            applied.append(f"backtick reserved name {t.text} -> `{t.text}`")


def _kuzu_functions(toks: list[Token], ed: _Editor, applied: list[str]) -> None:
    for i, t in enumerate(toks[:-1]):
        if t.kind is not Kind.WORD or not toks[i + 1].is_punct("("):
            continue
        if i and toks[i - 1].is_punct("."):
            continue  # a namespaced function, not ours
        new = KUZU_FUNCTIONS.get(t.text.lower())
        if (
            t.text.lower() == "length"
            and i + 5 < len(toks)
            and toks[i + 2].kind is Kind.WORD
            and toks[i + 3].is_punct(".")
            and toks[i + 4].kind in (Kind.WORD, Kind.NAME)
            and toks[i + 5].is_punct(")")
        ):
            new = "size"  # length(n.prop) is a string length; Kùzu's length() takes paths
        if new:
            ed.replace(t.start, t.end, new)
            applied.append(f"function {t.text}() -> {new}()")


def _kuzu_shortest(text: str, toks: list[Token], ed: _Editor, applied: list[str]) -> None:
    for i, t in enumerate(toks[:-1]):
        kind = t.text.lower() if t.kind is Kind.WORD else ""
        if kind not in ("shortestpath", "allshortestpaths") or not toks[i + 1].is_punct("("):
            continue
        close = _match(toks, i + 1)
        if close < 0:
            continue
        rels = [j for j in range(i + 2, close) if toks[j].is_punct("[")]
        if len(rels) != 1:
            continue  # only single-relationship patterns are rewritten
        r_open = rels[0]
        r_close = _match(toks, r_open)
        if r_close < 0:
            continue
        star = next((j for j in range(r_open, r_close) if toks[j].is_punct("*")), None)
        word = "ALL SHORTEST" if kind == "allshortestpaths" else "SHORTEST"
        if star is None:
            ed.replace(toks[r_close].start, toks[r_close].start, f"* {word} 1..30")
        else:
            rng = toks[star + 1 : r_close]
            lo, hi = "1", "30"
            dots = next((k for k, x in enumerate(rng) if x.is_punct("..")), None)
            if dots is not None:
                before = [x.text for x in rng[:dots] if x.kind is Kind.NUMBER]
                after = [x.text for x in rng[dots + 1 :] if x.kind is Kind.NUMBER]
                lo = before[0] if before else lo
                hi = after[0] if after else hi
            else:
                nums = [x.text for x in rng if x.kind is Kind.NUMBER]
                if nums:
                    lo = hi = nums[0]
            rng = [x for x in rng if x.kind is Kind.NUMBER or x.is_punct("..")]
            end = rng[-1].end if rng else toks[star].end
            ed.replace(toks[star].start, end, f"* {word} {lo}..{hi}")
        ed.replace(t.start, toks[i + 1].end, "")  # drop "shortestPath("
        ed.replace(toks[close].start, toks[close].end, "")  # and its ")"
        applied.append(f"{t.text}(...) -> [* {word} ..]")


def _kuzu_with_order(toks: list[Token], ed: _Editor, applied: list[str]) -> None:
    """``WITH … ORDER BY x`` without SKIP/LIMIT -> add ``SKIP 0`` (same rows, same order)."""
    depth = 0
    with_depth = 0
    in_with = False
    saw_order = False
    clause_start = {"MATCH", "OPTIONAL", "WITH", "RETURN", "UNWIND", "CALL", "UNION", "WHERE"}
    for i, t in enumerate(toks):
        if t.kind is Kind.PUNCT and t.text in "([{":
            depth += 1
        elif t.kind is Kind.PUNCT and t.text in ")]}":
            depth -= 1
        if t.kind is not Kind.WORD:
            continue
        up = t.text.upper()
        if up == "WITH" and not (i and toks[i - 1].is_punct(".", ":")):
            if in_with and saw_order and depth == with_depth:
                ed.replace(toks[i - 1].end, toks[i - 1].end, " SKIP 0")
                applied.append("WITH … ORDER BY without SKIP/LIMIT -> added SKIP 0")
            in_with, saw_order = True, False
            with_depth = depth
            continue
        if not in_with or depth != with_depth:
            continue
        if up == "ORDER" and i + 1 < len(toks) and toks[i + 1].is_word("BY"):
            saw_order = True
        elif up in ("SKIP", "LIMIT"):
            in_with = False
        elif up in clause_start and saw_order:
            ed.replace(toks[i - 1].end, toks[i - 1].end, " SKIP 0")
            applied.append("WITH … ORDER BY without SKIP/LIMIT -> added SKIP 0")
            in_with = False
        elif up in clause_start:
            in_with = False


def _kuzu_subquery_match(toks: list[Token], ed: _Editor, applied: list[str]) -> None:
    """``COUNT { (a)-->() }`` / ``EXISTS { (a)-->() }`` -> ``COUNT { MATCH (a)-->() }``;
    ``exists((a)-->())`` -> ``EXISTS { MATCH (a)-->() }``."""
    for i, t in enumerate(toks[:-2]):
        if not t.is_word("COUNT", "EXISTS"):
            continue
        nxt, after = toks[i + 1], toks[i + 2]
        if nxt.is_punct("{") and after.is_punct("("):
            ed.replace(after.start, after.start, "MATCH ")
            applied.append(f"{t.text} {{ pattern }} -> {t.text.upper()} {{ MATCH pattern }}")
        elif t.is_word("EXISTS") and nxt.is_punct("(") and after.is_punct("("):
            close = _match(toks, i + 1)
            if close > 0 and any(toks[j].is_punct("-", "->", "<-") for j in range(i + 2, close)):
                ed.replace(t.start, nxt.end, "EXISTS { MATCH ")
                ed.replace(toks[close].start, toks[close].end, " }")
                applied.append("exists(pattern) -> EXISTS { MATCH pattern }")


def _kuzu_list_comprehension(
    text: str, toks: list[Token], ed: _Editor, applied: list[str]
) -> None:
    """``[x IN l WHERE p | e]`` -> ``list_transform(list_filter(l, x -> p), x -> e)``."""
    i = 0
    while i < len(toks) - 3:
        t = toks[i]
        if not (
            t.is_punct("[")
            and toks[i + 1].kind is Kind.WORD
            and toks[i + 2].is_word("IN")
            and not (i and (toks[i - 1].is_punct("-", "<-")))
        ):
            i += 1
            continue
        close = _match(toks, i)
        if close < 0:
            i += 1
            continue
        var = toks[i + 1].text
        depth, where_at, bar_at = 0, None, None
        for j in range(i + 3, close):
            tj = toks[j]
            if tj.kind is Kind.PUNCT and tj.text in "([{":
                depth += 1
            elif tj.kind is Kind.PUNCT and tj.text in ")]}":
                depth -= 1
            elif depth == 0 and tj.is_word("WHERE") and where_at is None:
                where_at = j
            elif depth == 0 and tj.is_punct("|") and bar_at is None:
                bar_at = j
        if where_at is None and bar_at is None:
            i = close + 1
            continue
        src_end = where_at if where_at is not None else bar_at
        src = text[toks[i + 3].start : toks[src_end].start].strip()
        expr = src
        if where_at is not None:
            pend = bar_at if bar_at is not None else close
            pred = text[toks[where_at].end : toks[pend].start].strip()
            expr = f"list_filter({expr}, {var} -> {pred})"
        if bar_at is not None:
            proj = text[toks[bar_at].end : toks[close].start].strip()
            expr = f"list_transform({expr}, {var} -> {proj})"
        ed.replace(t.start, toks[close].end, expr)
        applied.append("list comprehension -> list_filter/list_transform")
        i = close + 1


def rewrite(
    query: str, dialect: str, *, triples: TripleLayout | None = None
) -> tuple[str, list[str]]:
    """Apply portable rewrites for ``dialect``; returns the new query and what was applied.

    Only the Kùzu family (Kùzu, LadybugDB) has rewrites today (Neo4j-compatible engines take
    the generated Cypher as is).
    ``triples`` (from :func:`triple_layout`) turns relation names into the triple graph's rel
    table plus a type filter; a pattern that cannot be rewritten raises
    :class:`TripleRewriteError` naming the relations. A query the lexer cannot read is
    returned unchanged (the guard reports why).
    """
    if not is_kuzu_family(dialect):
        return query, []
    applied: list[str] = []
    try:
        toks = code_tokens(tokenize(query))
    except LexError:
        return query, []
    # Passes that change structure run one at a time, each on freshly lexed text.
    for pass_fn in (_kuzu_list_comprehension, _kuzu_shortest):
        ed = _Editor(query)
        pass_fn(query, toks, ed, applied)
        if ed.edits:
            query = ed.apply()
            toks = code_tokens(tokenize(query))
    if triples is not None:  # after shortestPath(): it then sees [:capital* SHORTEST 1..k]
        ed = _Editor(query)
        _kuzu_triples(query, toks, ed, applied, triples)
        if ed.edits:
            query = ed.apply()
            toks = code_tokens(tokenize(query))
    ed = _Editor(query)
    _kuzu_reserved_labels(toks, ed, applied)
    _kuzu_functions(toks, ed, applied)
    _kuzu_subquery_match(toks, ed, applied)
    _kuzu_with_order(toks, ed, applied)
    return ed.apply(), applied


# --------------------------------------------------------------------------- Kùzu triple graphs
#
# ``byokg load triples.csv --into kuzu:PATH`` stores every edge in ONE rel table ``REL`` whose
# ``type`` property holds the relation name, while the GraphStore API (and so the rendered
# schema the KG-Linker sees) reports the relation names themselves. A query written against the
# schema, ``-[:capital]->``, would fail ("Table capital does not exist"); these rewrites turn
# such relationship types into the rel table plus a type filter (all checked on kuzu 0.11.3):
#
# * ``-[r:capital {…}]->``   -> ``-[r:REL {type: 'capital', …}]->`` (inline property map);
# * ``-[r:a|b]->``           -> ``-[r:REL]->`` and ``r.type IN ['a', 'b']`` added to the
#   enclosing MATCH's WHERE (a generated variable when the pattern has none);
# * ``-[:a|b*1..3]->``       -> ``-[:REL*1..3 (byokg_e, byokg_n | WHERE byokg_e.type IN […])]->``
#   (Kùzu's recursive-pattern filter; an existing filter gets the condition AND-ed in).

_REL_NAME_PUNCT = frozenset({".", "-", "/"})
_CLAUSE_END = frozenset(
    {"RETURN", "WITH", "MATCH", "OPTIONAL", "UNWIND", "CALL", "UNION", "ORDER", "SKIP", "LIMIT"}
)
_RANGE_WORDS = frozenset({"SHORTEST", "ALL", "TRAIL", "ACYCLIC", "WSHORTEST"})
_PLAIN_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class TripleRewriteError(ValueError):
    """A relationship pattern on a Kùzu triple graph that cannot be rewritten safely."""


class TripleLayout:
    """What the rewrite needs to know about a Kùzu triple graph (see :func:`triple_layout`)."""

    def __init__(self, rel_table: str, type_property: str, tables: frozenset[str] | set[str],
                 relations: list[str] | tuple[str, ...]) -> None:
        self.rel_table = rel_table
        self.type_property = type_property
        self.tables = frozenset(t.lower() for t in tables)  # Kùzu table names ignore case
        self.relations = tuple(relations)
        self._known = frozenset(relations)

    def is_table(self, name: str) -> bool:
        return name.lower() in self.tables

    def knows(self, relation: str) -> bool:
        return relation in self._known

    def relation_list(self, limit: int = 40) -> str:
        names = [r for r in self.relations if not self.is_table(r)]
        more = f", … ({len(names) - limit} more)" if len(names) > limit else ""
        return ", ".join(names[:limit]) + more


def triple_layout(store: Any) -> TripleLayout | None:
    """The triple layout of a Kùzu store (``triple_rel_table`` set), else None. Cached on the
    store object (its catalog is read once when it is opened)."""
    if store is None or not is_kuzu_family(store.dialect or ""):
        return None
    table = getattr(store, "triple_rel_table", None)
    if not table:
        return None
    cached = getattr(store, "_byokg_triple_layout", None)
    if isinstance(cached, TripleLayout):
        return cached
    tables = getattr(store, "table_names", None) or {table}
    relations = list(store.relation_types()) if hasattr(store, "relation_types") else []
    layout = TripleLayout(table, getattr(store, "triple_type_property", None) or "type",
                          set(tables), relations)
    try:
        store._byokg_triple_layout = layout
    except AttributeError:  # a store with __slots__: recompute next time
        pass
    return layout


def kuzu_string(value: str) -> str:
    """A Kùzu string literal for ``value`` (backslash escapes, as Kùzu's parser reads them)."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def kuzu_bare_name(name: str) -> bool:
    """Whether Kùzu reads ``name`` unquoted as that name (a plain word it does not reserve)."""
    return bool(_PLAIN_NAME.match(name)) and name.upper() not in KUZU_RESERVED


def _ident(name: str) -> str:
    return name if kuzu_bare_name(name) else quote_name(name)


def relation_name_at(toks: list[Token], i: int) -> tuple[str | None, int]:
    """The relationship type starting at ``toks[i]`` (after ``:`` or ``|``) and the index after
    it. Unquoted names are glued across adjacent ``.``, ``-`` and ``/`` (the rendered schema
    writes Freebase names like ``people.person.place_of_birth`` without backticks)."""
    if i >= len(toks):
        return None, i
    t = toks[i]
    if t.kind is Kind.NAME:
        return t.value, i + 1
    if not (t.kind is Kind.WORD or (t.is_punct("/") and i + 1 < len(toks)
                                    and toks[i + 1].kind is Kind.WORD)):
        return None, i
    parts = [t.text]
    j = i + 1
    while j < len(toks) and toks[j].start == toks[j - 1].end and (
        toks[j].kind in (Kind.WORD, Kind.NUMBER)
        or (toks[j].kind is Kind.PUNCT and toks[j].text in _REL_NAME_PUNCT)
    ):
        parts.append(toks[j].text)
        j += 1
    while j > i + 1 and toks[j - 1].kind is Kind.PUNCT:  # a trailing "." / "-" is not a name
        j -= 1
        parts.pop()
    return "".join(parts), j


class _RelPattern:
    """One ``[ … ]`` relationship pattern: its variable, types and where things are."""

    def __init__(self, toks: list[Token], open_i: int, close_i: int) -> None:
        self.open_i, self.close_i = open_i, close_i
        self.var: str | None = None
        self.names: list[str] = []
        self.type_start = self.type_end = -1  # char span of ":a|b"
        self.star: int | None = None
        self.range_end = -1  # index of the last range token
        self.filter_open: int | None = None  # "(" of an existing recursive filter
        self.map_open: int | None = None
        j = open_i + 1
        if j < close_i and toks[j].kind in (Kind.WORD, Kind.NAME) and not toks[j].is_punct(":"):
            self.var = toks[j].value if toks[j].kind is Kind.NAME else toks[j].text
            j += 1
        if j < close_i and toks[j].is_punct(":"):
            self.type_start = toks[j].start
            j += 1
            while j < close_i:
                name, nxt = relation_name_at(toks, j)
                if name is None:
                    break
                self.names.append(name)
                self.type_end = toks[nxt - 1].end
                j = nxt
                if j < close_i and toks[j].is_punct("|"):
                    j += 1
                    if j < close_i and toks[j].is_punct(":"):
                        j += 1
                    continue
                break
        if j < close_i and toks[j].is_punct("*"):
            self.star = j
            self.range_end = j
            j += 1
            while j < close_i and (toks[j].kind is Kind.NUMBER or toks[j].is_punct("..")
                                   or (toks[j].kind is Kind.WORD
                                       and toks[j].text.upper() in _RANGE_WORDS)):
                self.range_end = j
                j += 1
            if j < close_i and toks[j].is_punct("("):
                self.filter_open = j
                j = _match(toks, j) + 1 or close_i
        if j < close_i and toks[j].is_punct("{"):
            self.map_open = j


def _clause_bounds(toks: list[Token], at: int) -> tuple[int, int, int | None] | None:
    """For the pattern at ``toks[at]``: (MATCH index, end index, WHERE index or None) of the
    enclosing MATCH clause, the end being the first token after its WHERE expression."""
    depth = 0
    j = at - 1
    match_i = None
    while j >= 0:
        t = toks[j]
        if t.kind is Kind.PUNCT and t.text in ")]}":
            depth += 1
        elif t.kind is Kind.PUNCT and t.text in "([{":
            if depth == 0:
                return None  # the pattern sits inside a bracket that is not a MATCH clause
            depth -= 1
        elif depth == 0 and t.kind is Kind.WORD and not (j and toks[j - 1].is_punct(".", ":")):
            up = t.text.upper()
            if up == "MATCH":
                match_i = j
                break
            if (up in _CLAUSE_END or up == "WHERE") and not (
                    j and toks[j - 1].is_word("STARTS", "ENDS")):
                return None
        j -= 1
    if match_i is None:
        return None

    def scan(k: int, stop: frozenset[str]) -> int:
        d = 0
        while k < len(toks):
            t = toks[k]
            if t.kind is Kind.PUNCT and t.text in "([{":
                d += 1
            elif t.kind is Kind.PUNCT and t.text in ")]}":
                if d == 0:
                    return k
                d -= 1
            elif d == 0 and t.is_punct(";"):
                return k
            elif d == 0 and t.kind is Kind.WORD and t.text.upper() in stop and not (
                toks[k - 1].is_punct(".", ":") or toks[k - 1].is_word("STARTS", "ENDS")
            ):
                return k
            k += 1
        return k

    end = scan(at, _CLAUSE_END | {"WHERE"})
    if end < len(toks) and toks[end].is_word("WHERE"):
        return match_i, scan(end + 1, _CLAUSE_END), end
    return match_i, end, None


def _kuzu_triples(
    text: str, toks: list[Token], ed: _Editor, applied: list[str], layout: TripleLayout
) -> None:
    """Rewrite relation names of a Kùzu triple graph into the rel table plus a type filter
    (see the comment above): pattern by pattern, then ``type(r)``, then the WHERE additions."""
    rw = _TripleRewriter(text, toks, ed, applied, layout)
    for i, t in enumerate(toks):
        if t.is_punct("[") and i and toks[i - 1].is_punct("-", "<-"):
            close = _match(toks, i)
            if close >= 0:
                rw.pattern(i, close)
    rw.type_calls()
    rw.where_additions()


class _TripleRewriter:
    def __init__(self, text: str, toks: list[Token], ed: _Editor, applied: list[str],
                 layout: TripleLayout) -> None:
        self.text, self.toks, self.ed, self.applied, self.layout = text, toks, ed, applied, layout
        self.words = {t.text.lower() for t in toks if t.kind is Kind.WORD}
        self.counter = 0
        self.rel = _ident(layout.rel_table)
        self.prop = _ident(layout.type_property)
        # clause key (MATCH index) -> (end index, WHERE index, [conditions])
        self.where_adds: dict[int, tuple[int, int | None, list[str]]] = {}
        self.e_var: str | None = None
        self.n_var: str | None = None
        self.rel_vars: set[str] = set()  # single-hop variables bound to the triple rel table

    def fresh(self, base: str) -> str:
        while True:
            name = f"byokg_{base}{self.counter}"
            self.counter += 1
            if name.lower() not in self.words:
                return name

    def pattern(self, i: int, close: int) -> None:
        toks, layout = self.toks, self.layout
        pat = _RelPattern(toks, i, close)
        if pat.var and pat.star is None and all(
                n.lower() == layout.rel_table.lower() or not layout.is_table(n)
                for n in pat.names):
            self.rel_vars.add(pat.var)
        if not pat.names:
            return
        tables = [n for n in pat.names if layout.is_table(n)]
        if len(tables) == len(pat.names):
            return  # real rel tables (or node tables: Kùzu explains that itself)
        written = self.text[toks[i].start:toks[close].end]
        if tables:
            raise TripleRewriteError(
                f"relationship pattern {written} mixes the table {tables[0]} with relation "
                f"names; on this triple graph every relation is "
                f"{layout.rel_table}.{layout.type_property}: write -[:{layout.rel_table}]- "
                f"with a filter on {layout.type_property}, or only relation names "
                f"({layout.relation_list()})")
        names = list(dict.fromkeys(pat.names))
        values = ", ".join(kuzu_string(n) for n in names)
        unknown = [n for n in names if not layout.knows(n)]
        note = (f" (no edge has relation {', '.join(repr(u) for u in unknown)})"
                if unknown else "")
        if pat.star is not None:
            self._recursive(pat, written, values, note)
        elif len(names) == 1:
            self._single(pat, close, written, values, note)
        else:
            self._alternatives(pat, i, written, values, note)

    def _recursive(self, pat: _RelPattern, written: str, values: str, note: str) -> None:
        toks, ed, prop, layout = self.toks, self.ed, self.prop, self.layout
        ed.replace(pat.type_start, pat.type_end, f":{self.rel}")
        if pat.filter_open is not None:
            fo = pat.filter_open
            fclose = _match(toks, fo)
            inner = toks[fo + 1:fclose]
            where = next((k for k, x in enumerate(inner) if x.is_word("WHERE")), None)
            if not inner or inner[0].kind is not Kind.WORD or where is None:
                raise TripleRewriteError(
                    f"cannot add the relation filter to {written}: write its recursive "
                    f"filter as (e, n | WHERE e.{layout.type_property} IN [{values}])")
            w_tok = inner[where]
            ed.replace(w_tok.start, w_tok.end, f"WHERE {inner[0].text}.{prop} IN [{values}] AND (")
            ed.replace(toks[fclose].start, toks[fclose].start, ")")
        else:
            if self.e_var is None:
                self.e_var, self.n_var = self.fresh("e"), self.fresh("n")
            end = toks[pat.range_end].end
            ed.replace(end, end, f" ({self.e_var}, {self.n_var} | WHERE {self.e_var}.{prop} "
                                 f"IN [{values}])")
        self.applied.append(f"triple graph: {written} -> {layout.rel_table} with recursive "
                            f"filter {layout.type_property} IN [{values}]{note}")

    def _single(self, pat: _RelPattern, close: int, written: str, values: str,
                note: str) -> None:
        toks, ed, prop = self.toks, self.ed, self.prop
        ed.replace(pat.type_start, pat.type_end, f":{self.rel}")
        if pat.map_open is not None:
            m = toks[pat.map_open]
            sep = "" if toks[pat.map_open + 1].is_punct("}") else ", "
            ed.replace(m.end, m.end, f"{prop}: {values}{sep}")
        else:
            ed.replace(toks[close].start, toks[close].start, f" {{{prop}: {values}}}")
        self.applied.append(f"triple graph: {written} -> {self.layout.rel_table} "
                            f"{{{self.layout.type_property}: {values}}}{note}")

    def _alternatives(self, pat: _RelPattern, i: int, written: str, values: str,
                      note: str) -> None:
        layout = self.layout
        bounds = _clause_bounds(self.toks, i)
        if bounds is None:
            raise TripleRewriteError(
                f"{written}: alternative relation types outside a MATCH clause cannot be "
                f"rewritten on this triple graph; use MATCH with "
                f"-[r:{layout.rel_table}]- WHERE r.{layout.type_property} IN [{values}]")
        var = pat.var
        if var is None:
            var = self.fresh("r")
            self.ed.replace(pat.type_start, pat.type_end, f"{var}:{self.rel}")
        else:
            self.ed.replace(pat.type_start, pat.type_end, f":{self.rel}")
        match_i, end, where_i = bounds
        slot = self.where_adds.setdefault(match_i, (end, where_i, []))
        slot[2].append(f"{_ident(var)}.{self.prop} IN [{values}]")
        self.applied.append(f"triple graph: {written} -> {layout.rel_table} with WHERE "
                            f"{var}.{layout.type_property} IN [{values}]{note}")

    def type_calls(self) -> None:
        """``type(r)`` does not exist in Kùzu: the name is ``r.type``."""
        toks, text = self.toks, self.text
        level = depths(toks)
        for i in range(len(toks) - 3):
            if not (toks[i].is_word("TYPE") and toks[i + 1].is_punct("(")
                    and toks[i + 3].is_punct(")") and toks[i + 2].kind is Kind.WORD
                    and toks[i + 2].text in self.rel_vars
                    and not (i and toks[i - 1].is_punct(".", ":"))):
                continue
            v = toks[i + 2].text
            new = f"{v}.{self.prop}"
            nxt = toks[i + 4] if i + 4 < len(toks) else None
            if level[i] == 0 and i and (toks[i - 1].is_word("RETURN", "WITH", "DISTINCT")
                                        or toks[i - 1].is_punct(",")) and (
                    nxt is None or nxt.is_punct(",", ";")
                    or (nxt.kind is Kind.WORD and nxt.text.upper() in _CLAUSE_END)):
                new += f" AS {quote_name(text[toks[i].start:toks[i + 3].end])}"  # same column
            self.ed.replace(toks[i].start, toks[i + 3].end, new)
            self.applied.append(f"triple graph: type({v}) -> {v}.{self.layout.type_property}")

    def where_additions(self) -> None:
        for end, where_i, conds in self.where_adds.values():
            cond = " AND ".join(conds)
            last = self.toks[end - 1]
            if where_i is not None:
                w = self.toks[where_i]
                self.ed.replace(w.start, w.end, f"WHERE {cond} AND (")
                self.ed.replace(last.end, last.end, ")")
            else:
                self.ed.replace(last.end, last.end, f" WHERE {cond}")
