"""Read-only guard for generated Cypher.

The guard *parses* rather than greps: the query is NFKC-normalised with invisible format
characters removed, then tokenised by :mod:`byokg.cypher.lexer`, so string literals, comments
and backtick-quoted names are masked and a keyword is only a keyword where the database would
read it as one. It rejects

* write and admin clauses (CREATE, MERGE, SET, DELETE, DETACH, REMOVE, DROP, ALTER, FOREACH,
  LOAD CSV / LOAD FROM / LOAD EXTENSION, COPY, INSTALL, IMPORT/EXPORT DATABASE, ATTACH, USE,
  transaction and user administration …);
* more than one statement (a ``;`` followed by anything but whitespace or comments);
* ``CALL { … } IN [n CONCURRENT] TRANSACTIONS`` (``TRANSACTION[S]`` after ``IN``/``CONCURRENT``);
* ``CALL proc(...)`` unless ``proc`` is on the read-only allow-list of the store's dialect;
* APOC / DBMS functions that run Cypher or write (``apoc.cypher.*``, ``apoc.create.*`` …);
* keywords spelt with look-alike letters (Cyrillic ``С``), control or private-use characters.

Backends disagree on small lexical details (backslash escapes in strings); the guard lexes the
query both with and without backslash escapes and rejects if *either* reading finds a write, so
a backend that reads ``'a\\' CREATE …`` differently cannot be exploited.

Where the store supports EXPLAIN with a query type (Neo4j: summary ``query_type`` ``"r"``),
:func:`confirm_with_explain` double-checks an accepted query; on Kùzu and ArcadeDB, which report
no query type, the lexical guard alone decides.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from .lexer import Kind, LexError, Token, code_tokens, normalize, tokenize

# Clause keywords that write, administer, touch files or switch graphs.
WRITE_KEYWORDS: frozenset[str] = frozenset(
    {
        "CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "ALTER", "FOREACH",
        "LOAD", "COPY", "INSTALL", "UNINSTALL", "IMPORT", "EXPORT", "ATTACH", "USE",
        "CHECKPOINT", "BEGIN", "COMMIT", "ROLLBACK", "GRANT", "REVOKE", "DENY", "RENAME",
        "START", "STOP", "TERMINATE", "ENABLE", "DISABLE", "SHOW", "UPDATE", "INSERT",
        "TRUNCATE", "UPSERT",
    }
)  # fmt: skip

# Read-only procedures per dialect (lower-case). Unknown procedures are rejected.
_NEO4J_PROCS = {
    "db.labels", "db.relationshiptypes", "db.propertykeys", "db.schema.visualization",
    "db.schema.nodetypeproperties", "db.schema.reltypeproperties", "db.indexes",
    "db.index.fulltext.querynodes", "db.index.fulltext.queryrelationships",
    "db.index.vector.querynodes", "db.index.vector.queryrelationships", "db.info",
    "db.ping", "dbms.components", "apoc.meta.schema", "apoc.meta.data", "apoc.meta.stats",
    "apoc.meta.graph", "apoc.meta.nodetypeproperties", "apoc.meta.reltypeproperties",
    "db.constraints",
}  # fmt: skip
_KUZU_PROCS = {
    "show_tables", "table_info", "show_connection", "show_functions", "show_indexes",
    "show_sequences", "show_attached_databases", "show_loaded_extensions",
    "show_official_extensions", "db_version", "current_setting", "show_warnings",
    "query_fts_index", "query_vector_index", "show_projected_graphs", "stats_info",
    "storage_info", "show_macros",
}  # fmt: skip
_NEPTUNE_PROCS = {
    "neptune.graph.pg_schema", "neptune.algo.vectors.topkbyembedding",
    "neptune.algo.vectors.topkbynode", "neptune.algo.vectors.get",
    "neptune.algo.vectors.distance", "neptune.algo.vectors.distancebyembedding",
}  # fmt: skip

ALLOWED_PROCEDURES: dict[str, frozenset[str]] = {
    "neo4j": frozenset(_NEO4J_PROCS),
    "arcadedb": frozenset(_NEO4J_PROCS),
    "kuzu": frozenset(_KUZU_PROCS),
    "neptune-analytics": frozenset(_NEPTUNE_PROCS),
    "neptune-db": frozenset({"neptune.graph.pg_schema"}),
}

# Dialects whose EXPLAIN reports no statement type (Kùzu prints a plan only).
NO_QUERY_TYPE = frozenset({"kuzu"})

# Dotted function names that run Cypher, write, or reach outside the graph.
_BAD_FUNCTION_PREFIXES = (
    "apoc.cypher.", "apoc.periodic.", "apoc.do.", "apoc.trigger.", "apoc.export.",
    "apoc.import.", "apoc.load.", "apoc.create.", "apoc.merge.", "apoc.refactor.",
    "apoc.atomic.", "apoc.lock.", "apoc.schema.", "apoc.systemdb.", "apoc.nodes.delete",
    "apoc.custom.", "apoc.uuid.", "apoc.ttl.", "apoc.log.", "dbms.", "gds.", "db.create",
    "db.index.fulltext.create", "db.index.vector.create", "apoc.util.sleep",
)  # fmt: skip

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
    notes: tuple[str, ...] = ()  # normalisation notes, EXPLAIN confirmation


def allowed_procedures(dialect: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The read-only procedure allow-list for ``dialect`` (lower-case names) plus ``extra``."""
    base = ALLOWED_PROCEDURES.get((dialect or "neo4j").lower())
    if base is None:  # unknown dialect: the Neo4j introspection set
        base = ALLOWED_PROCEDURES["neo4j"]
    return base | {e.lower() for e in extra}


def _skeleton(word: str) -> str:
    """Upper-case Latin skeleton of a word: accents dropped, look-alikes mapped."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_CONFUSABLES))
    kept = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    return kept.translate(_CONFUSABLES).upper()


def _dotted_name(toks: list[Token], i: int) -> tuple[str, int]:
    """Read ``a.b.c`` (words or backtick names) starting at ``toks[i]``; return name, next index."""
    parts: list[str] = []
    j = i
    while j < len(toks) and toks[j].kind in (Kind.WORD, Kind.NAME):
        parts.append(toks[j].value if toks[j].kind is Kind.NAME else toks[j].text)
        if j + 2 < len(toks) and toks[j + 1].is_punct(".") and toks[j + 2].kind in (
            Kind.WORD,
            Kind.NAME,
        ):
            j += 2
            continue
        j += 1
        break
    return ".".join(parts), j


def _scan(toks: list[Token], procs: frozenset[str]) -> tuple[str | None, list[str], list[str]]:
    """Look for writes in one token stream. Returns (reason or None, keywords, procedures)."""
    found: list[str] = []
    called: list[str] = []
    reason: str | None = None

    def fail(msg: str, kw: str) -> None:
        nonlocal reason
        found.append(kw)
        if reason is None:
            reason = msg

    for i, t in enumerate(toks):
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.kind is Kind.PUNCT:
            if t.text == ";" and nxt is not None:
                fail("multiple statements: ';' followed by more text", ";")
            elif len(t.text) == 1 and (
                unicodedata.category(t.text)[0] == "C" or t.text in "\x7f"
            ):
                fail(f"control or unassigned character U+{ord(t.text):04X}", t.text)
            continue
        if t.kind is Kind.NAME and not (prev and prev.is_punct(".")):
            name, j = _dotted_name(toks, i)  # `apoc`.`cypher`.run(...) or `apoc.cypher.run`(...)
            if j < len(toks) and toks[j].is_punct("(") and name.lower().startswith(
                _BAD_FUNCTION_PREFIXES
            ):
                fail(f"function {name} may write or run Cypher", name)
        if t.kind is not Kind.WORD:
            continue
        # A word right after '.' is a property key, right after ':' a label or type name,
        # right before ':' a map key or a variable getting a label, right before '.' a
        # variable whose property is read: no grammar reads any of those as a clause.
        is_key = (prev is not None and prev.is_punct(".", ":", "::")) or (
            nxt is not None and nxt.is_punct(":", ".")
        )
        word = t.text.upper()
        if not word.isascii():
            if any(unicodedata.category(c) in ("Co", "Cn", "Cs") for c in t.text):
                fail(f"private-use or unassigned character in {t.text!r}", t.text)
                continue
            skel = _skeleton(t.text)
            if skel in WRITE_KEYWORDS or skel == "CALL":
                fail(f"keyword {skel} spelt with look-alike characters ({t.text!r})", skel)
                continue
        if nxt is not None and nxt.is_punct(".") and not (prev and prev.is_punct(".")):
            name, j = _dotted_name(toks, i)
            if j < len(toks) and toks[j].is_punct("(") and name.lower().startswith(
                _BAD_FUNCTION_PREFIXES
            ):
                fail(f"function {name} may write or run Cypher", name)
                continue
        if is_key:
            continue
        if word in WRITE_KEYWORDS:
            fail(f"write or admin clause {word} is not allowed in a read-only query", word)
        elif word in ("TRANSACTIONS", "TRANSACTION") and prev is not None and (
            prev.is_word("IN", "CONCURRENT")
        ):
            fail("CALL { … } IN TRANSACTIONS is not allowed in a read-only query", word)
        elif word == "CALL":
            if nxt is None:
                fail("CALL without a procedure", "CALL")
            elif nxt.is_punct("{", "("):
                continue  # a subquery; its body is scanned like the rest
            else:
                name, _ = _dotted_name(toks, i + 1)
                if name.lower() in procs:
                    called.append(name)
                else:
                    fail(f"procedure {name or nxt.text!r} is not on the read-only allow-list", "CALL")
    return reason, found, called


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
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Co", "Cs", "Cn")
                and c not in "\t\n"), None)
    if bad is not None:  # NUL & co. end C strings early; private-use/unassigned hide text
        return GuardVerdict(allowed=False, reason=f"control, private-use or unassigned character "
                            f"U+{ord(bad):04X} in the query", normalized_query=text,
                            keywords_found=(f"U+{ord(bad):04X}",), notes=tuple(notes))
    procs = allowed_procedures(dialect, extra_procedures)
    try:
        primary = tokenize(text, backslash_escapes=True, keep_comments=True)
    except LexError as exc:
        return GuardVerdict(allowed=False, reason=f"cannot parse query: {exc}", normalized_query=text)
    readings = [code_tokens(primary)]
    if "\\" in text:  # a backend without backslash escapes would split literals differently
        try:
            readings.append(code_tokens(tokenize(text, backslash_escapes=False)))
        except LexError:
            pass  # that reading does not parse, so such a backend would refuse the query
    called: list[str] = []
    for toks in readings:
        reason, found, procs_called = _scan(toks, procs)
        if reason:
            return GuardVerdict(
                allowed=False,
                reason=reason,
                normalized_query=text,
                keywords_found=tuple(dict.fromkeys(found)),
                notes=tuple(notes),
            )
        called.extend(procs_called)
    code = readings[0]
    if not code:
        return GuardVerdict(allowed=False, reason="query has no code (only comments)",
                            normalized_query=text, notes=tuple(notes))
    # drop one trailing ';' (and any comment after it) so the text is a single statement
    if code[-1].is_punct(";"):
        text = text[: code[-1].start].rstrip()
    return GuardVerdict(
        allowed=True,
        normalized_query=text,
        procedures=tuple(dict.fromkeys(called)),
        notes=tuple(notes),
    )


def confirm_with_explain(
    store: Any, verdict: GuardVerdict, params: Mapping[str, Any] | None = None
) -> GuardVerdict:
    """Second opinion from the database where it reports a query type (Neo4j: ``"r"``).

    Only stores with the ``explain`` capability whose plan carries ``query_type`` (or ``type``)
    are asked; otherwise the lexical verdict stands (Kùzu reports none; ArcadeDB's is flagged
    ``server_query_type_reliable=False`` by the neo4j backend because it always says "w"). An explain
    failure leaves the verdict unchanged: running the query will report the same error.
    """
    if not verdict.allowed or "explain" not in getattr(store, "capabilities", frozenset()):
        return verdict
    if str(getattr(store, "dialect", "")).lower() in NO_QUERY_TYPE or getattr(
        store, "is_arcadedb", False
    ):
        return verdict  # the plan carries no (reliable) query type: save the round trip
    try:
        plan = store.explain(verdict.normalized_query, dict(params or {}))
    except Exception:  # noqa: BLE001 - the real run reports the error with its message
        return verdict
    qtype = None
    if isinstance(plan, Mapping):
        qtype = plan.get("query_type", plan.get("type"))
        if plan.get("server_query_type_reliable") is False:
            # ArcadeDB answers "w" for every EXPLAIN: its type says nothing, the lexer decides
            return verdict.model_copy(update={
                "notes": verdict.notes + ("EXPLAIN query type unreliable on this server",)})
    if qtype is None:
        return verdict
    qtype = str(qtype).lower()
    if qtype in ("r", "read_only", "read"):
        return verdict.model_copy(update={"notes": verdict.notes + ("EXPLAIN query_type r",)})
    return verdict.model_copy(
        update={
            "allowed": False,
            "reason": f"EXPLAIN reports query type {qtype!r}, not read-only 'r'",
            "keywords_found": verdict.keywords_found + (f"query_type={qtype}",),
        }
    )
