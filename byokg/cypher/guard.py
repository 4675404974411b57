"""Read-only guard for generated Cypher: the one check every backend uses.

The guard reads a query the way the engines do, then accepts only what it could read as read
clauses:

1. **normalise** (NFKC, format characters dropped, one kind of line break and space) and refuse
   control, private-use and unassigned characters; the normalised text is what runs;
2. **lex strictly** (:mod:`byokg.cypher.lexer`): where two engines' grammars would split the
   text differently — a block comment that ``**/`` closes for Neo4j but not for Kùzu, an escape
   only some engines know, ``$0CREATE``, a currency sign inside a name — the query is refused;
   a second reading without backslash escapes must not turn string content into a clause;
3. **parse** the tokens with the read-only grammar (:mod:`byokg.cypher.parser`): there are no
   rules for CREATE, MERGE, SET, DELETE, REMOVE, FOREACH, LOAD, COPY, COMMENT ON, ATTACH, USE,
   INSTALL, EXPORT, CHECKPOINT, transactions or any other write/admin statement, so they cannot
   be accepted, while a keyword in a name position (``AS show``, ``(start:Category)``) is a
   name; one statement only; no ``CALL { … } IN TRANSACTIONS``;
4. **allow-lists** (:mod:`byokg.cypher.policy`): every function and procedure the query calls
   must be a known read-only one for the dialect (``apoc.cypher.*``, ``sql.*``, file and
   network functions are refused).

:func:`confirm_with_explain` adds the database's own opinion where it has one (Neo4j's EXPLAIN
query type; Kùzu's plan operators); it can only turn an acceptance into a refusal.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict

from .lexer import Kind
from .lexer import LexError
from .lexer import Token
from .lexer import code_tokens
from .lexer import normalize
from .lexer import tokenize
from .parser import WRITE_CLAUSES
from .parser import ParseError
from .parser import ParseResult
from .parser import parse
from .policy import allowed_procedures
from .policy import function_refusal

MAX_QUERY_CHARS = 100_000

# Kept for callers that list the words a write clause starts with.
WRITE_KEYWORDS: frozenset[str] = WRITE_CLAUSES

# Dialects whose EXPLAIN reports no statement type (Kùzu prints a plan only).
NO_QUERY_TYPE = frozenset({"kuzu", "ladybug", "falkordb"})

# Kùzu plan operators (``NAME[id]`` boxes of EXPLAIN) that write, read files or change the
# session or catalogue: the EXPLAIN second opinion refuses a plan holding one.
_KUZU_OPERATOR = re.compile(r"\b([A-Z][A-Z0-9_]*)\[\d+\]")
_KUZU_FUNCTION = re.compile(r"Function: ([A-Za-z0-9_]+)")
_KUZU_WRITE_OPERATORS = re.compile(
    r"INSERT|BATCH_INSERT|SET_PROPERTY|DELETE|MERGE|COPY_\w+|STANDALONE_CALL|CREATE_\w+|"
    r"DROP\w*|ALTER\w*|(ATTACH|DETACH|USE|EXPORT|IMPORT)_DATABASE|TRANSACTION|CHECKPOINT|"
    r"\w*_?EXTENSION|INSTALL\w*|COMMENT\w*|PARTITIONER")
# table functions (``Function: NAME`` in a TABLE_FUNCTION_CALL box) that read files or build
_KUZU_WRITE_FUNCTIONS = re.compile(
    r"READ_CSV\w*|READ_PARQUET|READ_NPY|READ_PANDAS|READ_\w*JSON\w*|JSON_SCAN|FILE_INFO|"
    r"CREATE_\w+|DROP_\w+|PROJECT_GRAPH\w*|CLEAR_WARNINGS|\w*_EXTENSION\w*")

# FalkorDB plan operators (one per line of GRAPH.EXPLAIN) that write or read files.
_FALKORDB_WRITE_OPERATORS = re.compile(
    r"^\s*(Create|Update|Delete|Merge|MergeCreate|Foreach|Load CSV)\b", re.M)

# Look-alike letters (Cyrillic, Greek, …) mapped to the Latin letter they imitate. NFKC leaves
# these alone, so a keyword spelt with them is caught here.
_CONFUSABLES = str.maketrans(
    {
        "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K",
        "М": "M", "О": "O", "Р": "P", "Ѕ": "S", "Т": "T", "Х": "X", "У": "Y", "Ԁ": "D",
        "а": "a", "с": "c", "е": "e", "і": "i", "ј": "j", "о": "o", "р": "p", "ѕ": "s",
        "х": "x", "у": "y", "ԁ": "d", "һ": "h", "ӏ": "l", "Ӏ": "I", "ԛ": "q", "ԝ": "w",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v",
        "τ": "t", "ι": "i", "κ": "k", "ρ": "p", "α": "a", "ε": "e",
        "ı": "i", "ſ": "s", "ℓ": "l", "Ɩ": "l",
    }
)  # fmt: skip


class GuardVerdict(BaseModel):
    """Whether a query may run, why not, and the text that was checked (and will be run)."""

    model_config = ConfigDict(frozen=True)

    allowed: bool
    reason: str = ""
    normalized_query: str = ""
    keywords_found: tuple[str, ...] = ()
    procedures: tuple[str, ...] = ()  # allowed procedures the query calls
    functions: tuple[str, ...] = ()  # functions the query calls
    notes: tuple[str, ...] = ()  # normalisation notes, EXPLAIN confirmation
    # the final RETURN's sort keys as written (() without ORDER BY; None: not fully parsed)
    order_by: tuple[str, ...] | None = None


class _Refusal(Exception):
    def __init__(self, reason: str, keyword: str = "") -> None:
        self.reason, self.keyword = reason, keyword
        super().__init__(reason)


def _skeleton(word: str) -> str:
    """Upper-case Latin skeleton of a word: accents dropped, look-alikes mapped."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_CONFUSABLES))
    kept = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    return kept.translate(_CONFUSABLES).upper()


def _check_characters(text: str) -> None:
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Co", "Cs", "Cn")
                and c not in "\t\n"), None)
    if bad is not None:  # NUL & co. end C strings early; private-use/unassigned hide text
        raise _Refusal(f"control, private-use or unassigned character U+{ord(bad):04X} in the "
                       "query", f"U+{ord(bad):04X}")


def _check_lookalikes(toks: list[Token]) -> None:
    for t in toks:
        if t.kind is Kind.WORD and not t.text.isascii():
            skel = _skeleton(t.text)
            if skel in WRITE_CLAUSES or skel == "CALL":
                raise _Refusal(f"keyword {skel} spelt with look-alike characters ({t.text!r})",
                               skel)


_JAVA_UNICODE = re.compile(r"\\u+([0-9a-fA-F]{4})")


def _danger(toks: list[Token]) -> Counter[str]:
    """Clause words (look-alikes too), ``;`` and refused functions among code tokens."""
    out: Counter[str] = Counter()
    for i, t in enumerate(toks):
        if t.is_punct(";"):
            out[";"] += 1
        elif t.kind in (Kind.WORD, Kind.NAME):
            word = _skeleton(t.text) if t.kind is Kind.WORD else ""
            if word in WRITE_CLAUSES or word == "CALL":
                out[word] += 1
            name, j = _dotted(toks, i)
            if j < len(toks) and toks[j].is_punct("(") and function_refusal(name) and "." in name:
                out[name.lower()] += 1
    return out


def _check_other_reading(text: str, primary: list[Token]) -> None:
    """Engines that read the text differently must not find more clauses in it: one without
    backslash escapes ends ``'a\\' CREATE …`` at the backslash, and a Java-style parser that
    decodes ``\\u0027`` before lexing ends ``'a\\u0027 CREATE …`` there (or a ``//``
    comment at ``\\u000a``)."""
    readings = []
    if "\\" in text:
        readings.append(("engines that read backslashes literally",
                         lambda: tokenize(text, backslash_escapes=False)))
    if _JAVA_UNICODE.search(text):
        decoded = _JAVA_UNICODE.sub(lambda m: chr(int(m.group(1), 16)), text)
        readings.append(("parsers that decode \\uXXXX before reading the query",
                         lambda: tokenize(decoded)))
    if not readings:
        return
    base = _danger(primary)
    for who, lex in readings:
        try:
            other = _danger(code_tokens(lex()))
        except LexError:
            continue  # that reading does not lex: such an engine refuses the query
        extra = other - base
        if extra:
            kw = next(iter(extra))
            raise _Refusal(f"the query hides {kw!r} from byokg's reading: {who} see it as "
                           "code (it sits in a string or comment otherwise)", kw)


def _check_calls(functions: Iterable[str], procedures: Iterable[str], procs: frozenset[str],
                 dialect: str | None) -> None:
    for f in functions:
        why = function_refusal(f)
        if why:
            raise _Refusal(why, f)
    for p in procedures:
        if p.lower() not in procs:
            raise _Refusal(f"procedure {p!r} is not on the read-only allow-list for "
                           f"{dialect or 'neo4j'}", "CALL")


# Words that are grammar, not functions, when followed by "(" (the lexical fallback).
_NOT_FUNCTIONS = frozenset(
    """MATCH WHERE AND OR XOR NOT IN RETURN WITH UNWIND AS CASE WHEN THEN ELSE END EXISTS COUNT
    COLLECT ALL ANY NONE SINGLE DISTINCT OPTIONAL UNION CONTAINS IS NULL BY ORDER SKIP LIMIT
    ASC DESC ASCENDING DESCENDING CALL YIELD ON USING HINT JOIN SHORTESTPATH ALLSHORTESTPATHS
    REDUCE CAST STARTS ENDS TRUE FALSE""".split())


def _lexically_clean(toks: list[Token], procs: frozenset[str], exc: ParseError) -> ParseResult:
    """Fallback for text the parser cannot read: refuse if any write/admin word, ``;`` with
    more text, unknown procedure or function appears anywhere outside a name position (after
    ``.`` or ``:``, or before ``:`` or ``.``); else list its calls for the allow-lists."""
    out = ParseResult()
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.is_punct(";") and nxt is not None:
            raise _Refusal("multiple statements: ';' followed by more text", ";")
        if t.kind not in (Kind.WORD, Kind.NAME):
            continue
        key = (prev is not None and prev.is_punct(".", ":", "::")) or (
            nxt is not None and nxt.is_punct(":", "."))
        if prev is not None and prev.is_punct("."):
            continue
        name, j = _dotted(toks, i)
        if j < len(toks) and toks[j].is_punct("(") and (
                "." in name or name.upper() not in _NOT_FUNCTIONS) and not (
                prev is not None and prev.is_word("CALL")):
            out.functions.append(name)
        if t.kind is not Kind.WORD or key:
            continue
        if t.upper in WRITE_CLAUSES:
            raise _Refusal(f"{exc}; and {t.upper} is a write or admin clause", t.upper)
        if t.upper in ("TRANSACTIONS", "TRANSACTION"):
            raise _Refusal(f"{exc}; and {t.upper} is not allowed", t.upper)
        if t.upper == "CALL" and not (nxt is not None and nxt.is_punct("{", "(")):
            out.procedures.append(_dotted(toks, i + 1)[0] or "?")
    return out


def _dotted(toks: list[Token], i: int) -> tuple[str, int]:
    """Read ``a.b.c`` (words or backtick names) at ``toks[i]``; return the name, next index."""
    parts: list[str] = []
    j = i
    while j < len(toks) and toks[j].kind in (Kind.WORD, Kind.NAME):
        parts.append(toks[j].value if toks[j].kind is Kind.NAME else toks[j].text)
        if j + 2 < len(toks) and toks[j + 1].is_punct(".") and toks[j + 2].kind in (
                Kind.WORD, Kind.NAME):
            j += 2
            continue
        j += 1
        break
    return ".".join(parts), j


def check_query(
    query: str,
    *,
    dialect: str | None = None,
    extra_procedures: Iterable[str] = (),
) -> GuardVerdict:
    """Decide whether ``query`` is a single read-only statement for ``dialect``.

    The verdict's ``normalized_query`` is the text that was checked (normalised, trailing ``;``
    removed); run that text, not the original.
    """
    if not isinstance(query, str) or not query.strip():
        return GuardVerdict(allowed=False, reason="empty query", normalized_query="")
    text, notes = normalize(query)
    try:
        if len(text) > MAX_QUERY_CHARS:
            raise _Refusal(f"query of {len(text):,} characters (limit {MAX_QUERY_CHARS:,})")
        _check_characters(text)
        try:
            toks = code_tokens(tokenize(text, strict=True, keep_comments=True))
        except LexError as exc:
            raise _Refusal(f"cannot parse query: {exc}") from None
        if not toks:
            raise _Refusal("query has no code (only comments)")
        _check_other_reading(text, code_tokens(tokenize(text)))
        _check_lookalikes(toks)
        procs = allowed_procedures(dialect, extra_procedures)
        try:
            result = parse(toks)
            order_by: tuple[str, ...] | None = result.order_by
        except ParseError as exc:
            if exc.keyword:
                raise _Refusal(str(exc), exc.keyword) from None
            # Not a read query the parser knows: the engine will report the syntax error
            # (useful to the repair loop) as long as nothing in it could write.
            result = _lexically_clean(toks, procs, exc)
            order_by = None
            notes.append(f"not fully parsed ({exc}); no write or admin keyword, function or "
                         "procedure outside the allow-lists in it")
        _check_calls(result.functions, result.procedures, procs, dialect)
    except _Refusal as r:
        return GuardVerdict(allowed=False, reason=r.reason, normalized_query=text,
                            keywords_found=(r.keyword,) if r.keyword else (), notes=tuple(notes))
    if toks[-1].is_punct(";"):  # run a single statement: drop the trailing ';'
        text = text[: toks[-1].start].rstrip()
    return GuardVerdict(
        allowed=True,
        normalized_query=text,
        procedures=tuple(dict.fromkeys(result.procedures)),
        functions=tuple(dict.fromkeys(result.functions)),
        notes=tuple(notes),
        order_by=order_by,
    )


def confirm_with_explain(
    store: Any, verdict: GuardVerdict, params: Mapping[str, Any] | None = None
) -> GuardVerdict:
    """Second opinion from the database's planner where it gives one.

    Neo4j: EXPLAIN's summary ``query_type`` must be ``"r"``. Kùzu: the plan must not hold a
    write, file or session operator. ArcadeDB answers ``"w"`` for every EXPLAIN (the backend
    flags that with ``server_query_type_reliable=False``): the guard alone decides there. An
    EXPLAIN failure leaves the verdict unchanged: running the query reports the same error.
    """
    if not verdict.allowed or "explain" not in store.capabilities:
        return verdict
    if getattr(store, "is_arcadedb", False):
        return verdict  # the plan carries no reliable query type: save the round trip
    try:
        plan = store.explain(verdict.normalized_query, dict(params or {}))
    except Exception:  # noqa: BLE001 - the real run reports the error with its message
        return verdict
    if not isinstance(plan, Mapping):
        return verdict
    if plan.get("server_query_type_reliable") is False:
        return verdict.model_copy(update={
            "notes": verdict.notes + ("EXPLAIN query type unreliable on this server",)})
    qtype = plan.get("query_type", plan.get("type"))
    if qtype is None:
        return _check_plan_text(verdict, plan)
    qtype = str(qtype).lower()
    if qtype in ("r", "read_only", "read"):
        return verdict.model_copy(update={"notes": verdict.notes + ("EXPLAIN query_type r",)})
    return _refuse(verdict, f"EXPLAIN reports query type {qtype!r}, not read-only 'r'",
                   f"query_type={qtype}")


def _check_plan_text(verdict: GuardVerdict, plan: Mapping[str, Any]) -> GuardVerdict:
    """Kùzu family and FalkorDB: look for write/file/session operators in the printed plan."""
    dialect = str(plan.get("dialect", "")).lower()
    if dialect not in NO_QUERY_TYPE:
        return verdict
    text = str(plan.get("plan") or "")
    if dialect == "falkordb":
        found = _FALKORDB_WRITE_OPERATORS.search(text)
        if found is None:
            return verdict.model_copy(update={"notes": verdict.notes + ("EXPLAIN plan read-only",)})
        return _refuse(verdict, f"EXPLAIN plan holds the operator {found.group(1)}",
                       found.group(1))
    bad = next((op for op in _KUZU_OPERATOR.findall(text) if _KUZU_WRITE_OPERATORS.fullmatch(op)),
               None) or next((fn.upper() for fn in _KUZU_FUNCTION.findall(text)
                              if _KUZU_WRITE_FUNCTIONS.fullmatch(fn.upper())), None)
    if bad is None:
        return verdict.model_copy(update={"notes": verdict.notes + ("EXPLAIN plan read-only",)})
    return _refuse(verdict, f"EXPLAIN plan holds the operator {bad}", bad)


def _refuse(verdict: GuardVerdict, reason: str, keyword: str) -> GuardVerdict:
    return verdict.model_copy(update={
        "allowed": False, "reason": reason, "keywords_found": verdict.keywords_found + (keyword,)})


__all__ = ["GuardVerdict", "WRITE_KEYWORDS", "allowed_procedures", "check_query",
           "confirm_with_explain"]
