"""Dialect awareness: prompt hints per backend and portable rewrites applied before execution.

:func:`dialect_hints` is what the KG-Linker prompt says about the store's Cypher dialect;
:func:`rewrite` turns common Neo4j-isms into the store's dialect, working on lexer tokens (never
inside string literals or comments) and returning the list of rewrites it applied so the trace
records them. Every Kùzu rewrite below was checked on kuzu 0.11.3 (see tests/cypher).
"""

from __future__ import annotations

from .lexer import Kind, LexError, Token, code_tokens, quote_name, tokenize

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
_HINTS["arcadedb"] = _HINTS["neo4j"].replace("Neo4j 5 Cypher", "ArcadeDB openCypher (Bolt)")


def dialect_hints(dialect: str) -> str:
    """What an LLM writing Cypher for ``dialect`` should know (empty for an unknown dialect)."""
    return _HINTS.get((dialect or "").lower(), "")


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


def rewrite(query: str, dialect: str) -> tuple[str, list[str]]:
    """Apply portable rewrites for ``dialect``; returns the new query and what was applied.

    Only Kùzu has rewrites today (Neo4j-compatible engines take the generated Cypher as is).
    A query the lexer cannot read is returned unchanged (the guard reports why).
    """
    if (dialect or "").lower() != "kuzu":
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
    ed = _Editor(query)
    _kuzu_reserved_labels(toks, ed, applied)
    _kuzu_functions(toks, ed, applied)
    _kuzu_subquery_match(toks, ed, applied)
    _kuzu_with_order(toks, ed, applied)
    return ed.apply(), applied
