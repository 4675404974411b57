"""Guarded execution of one Cypher query: rewrite, guard, LIMIT, run, classify, render.

:func:`execute` never raises for a query problem: it returns an :class:`Execution` whose
``status`` says what happened (``ok``, ``empty``, ``error``, ``rejected``, ``timeout``) and, for
errors, an ``error_kind`` and whether a retry could help (``retryable``).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import enum
import math
import time
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg import cancel
from byokg.contracts import ContextItem
from byokg.contracts import QueryResult
from byokg.errors import BackendError
from byokg.errors import QueryError
from byokg.errors import ReadOnlyViolation

from .dialects import TripleRewriteError
from .dialects import rewrite
from .dialects import triple_layout
from .guard import GuardVerdict
from .guard import check_query
from .guard import confirm_with_explain
from .lexer import Kind
from .lexer import LexError
from .lexer import Token
from .lexer import code_tokens
from .lexer import tokenize
from .worker import EngineCrash
from .worker import IsolatedStore
from .worker import isolate

AGGREGATES = frozenset(
    {
        "count", "sum", "avg", "min", "max", "collect", "stdev", "stdevp", "percentilecont",
        "percentiledisc", "list", "mean", "median", "any_value",
    }
)  # fmt: skip


class Status(enum.StrEnum):
    OK = "ok"
    EMPTY = "empty"
    VERIFIED_EMPTY = "verified_empty"  # empty, and every entity the query names exists
    ERROR = "error"
    REJECTED = "rejected"  # the read-only guard refused it
    TIMEOUT = "timeout"


class Execution(BaseModel):
    """One query run: what was asked, what ran, what came back or what went wrong."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    query: str
    executed: str | None = None
    status: Status
    result: QueryResult | None = None
    error: str | None = None
    # syntax | planning | runtime | timeout | crashed | connection | auth | rejected
    error_kind: str | None = None
    retryable: bool = False
    rewrites: list[str] = Field(default_factory=list)
    limit_injected: bool = False
    guard: GuardVerdict | None = None
    seconds: float = 0.0
    stderr: str | None = None  # what a crashed or stopped worker wrote last (captured)


# --------------------------------------------------------------------------- LIMIT injection


def _final_return(toks: list[Token]) -> int | None:
    """Index of the outermost query's last RETURN, or None when LIMIT must not be added."""
    depth = 0
    last = None
    for i, t in enumerate(toks):
        if t.kind is Kind.PUNCT and t.text in "([{":
            depth += 1
        elif t.kind is Kind.PUNCT and t.text in ")]}":
            depth -= 1
        elif depth == 0 and t.kind is Kind.WORD and not (i and toks[i - 1].is_punct(".", ":")):
            up = t.text.upper()
            if up == "UNION":
                return None  # a LIMIT would bind to the last branch only
            if up == "RETURN":
                last = i
            elif last is not None and up in {"MATCH", "WITH", "UNWIND", "CALL", "OPTIONAL"}:
                last = None  # RETURN inside e.g. a FOREACH-free CALL {…} is at depth>0; be safe
    return last


def has_aggregate(toks: list[Token]) -> bool:
    """True when an aggregating function is called outside ``{…}`` subqueries."""
    braces = 0
    for i, t in enumerate(toks):
        if t.is_punct("{"):
            braces += 1
        elif t.is_punct("}"):
            braces -= 1
        elif (
            braces == 0
            and t.kind is Kind.WORD
            and t.text.lower() in AGGREGATES
            and i + 1 < len(toks)
            and toks[i + 1].is_punct("(")
            and not (i and toks[i - 1].is_punct("."))
        ):
            return True
    return False


def inject_limit(query: str, limit: int) -> tuple[str, bool]:
    """Add ``LIMIT limit`` to the outermost RETURN of a non-aggregating query without one.

    Never touches: queries whose final RETURN aggregates (``RETURN count(*)``, grouped counts),
    queries that already have a LIMIT there, UNION queries, queries not ending in RETURN (a
    standalone CALL), and text the lexer cannot read. Returns (query, injected?).
    """
    try:
        toks = code_tokens(tokenize(query))
    except LexError:
        return query, False
    if toks and toks[-1].is_punct(";"):
        toks = toks[:-1]
    ret = _final_return(toks)
    if ret is None:
        return query, False
    tail = toks[ret:]
    depth = 0
    prev: Token | None = None
    for t in tail:
        if t.kind is Kind.PUNCT and t.text in "([{":
            depth += 1
        elif t.kind is Kind.PUNCT and t.text in ")]}":
            depth -= 1
        elif depth == 0 and t.is_word("LIMIT") and not (prev and prev.is_punct(".", ":")):
            return query, False
        prev = t
    if has_aggregate(tail):
        return query, False
    end = toks[-1].end
    return f"{query[:end]} LIMIT {int(limit)}{query[end:]}", True


def final_limit(query: str) -> int | None:
    """The integer of the outermost RETURN's own ``LIMIT n`` (None: no LIMIT there, a
    parameter or expression, UNION, or text the lexer cannot read). When a query returns that
    many rows, more may exist: its writer cut the list, not byokg."""
    try:
        toks = code_tokens(tokenize(query))
    except LexError:
        return None
    if toks and toks[-1].is_punct(";"):
        toks = toks[:-1]
    ret = _final_return(toks)
    if ret is None:
        return None
    depth = 0
    prev: Token | None = None
    tail = toks[ret:]
    for i, t in enumerate(tail):
        if t.kind is Kind.PUNCT and t.text in "([{":
            depth += 1
        elif t.kind is Kind.PUNCT and t.text in ")]}":
            depth -= 1
        elif depth == 0 and t.is_word("LIMIT") and not (prev and prev.is_punct(".", ":")):
            nxt = tail[i + 1] if i + 1 < len(tail) else None
            if nxt is not None and nxt.kind is Kind.NUMBER and nxt.text.isdigit():
                return int(nxt.text)
            return None
        prev = t
    return None


# --------------------------------------------------------------------------- errors


_SYNTAX = ("parser exception", "syntaxerror", "syntax error", "invalid input", "mismatched input")
_PLANNING = (
    "binder exception", "catalog exception", "does not exist", "not defined", "unknown function",
    "variable", "not in scope", "cannot find property", "semanticerror", "type mismatch",
    "unknown procedure", "no procedure", "not found",
)  # fmt: skip
_TIMEOUT = ("timeout", "timed out", "interrupted", "transactiontimedout", "terminated")
_CONNECTION = (
    "serviceunavailable", "connection refused", "couldn't connect", "could not connect",
    "failed to establish", "connection reset", "sessionexpired", "broken pipe", "unreachable",
)  # fmt: skip
_AUTH = ("unauthorized", "authentication", "credentials", "forbidden", "access denied", "security")


def classify_error(exc: BaseException) -> tuple[str, bool]:
    """(error_kind, retryable) for an exception raised by a store's query()."""
    if isinstance(exc, ReadOnlyViolation):
        return "rejected", False
    if isinstance(exc, EngineCrash):
        return "crashed", False
    if isinstance(exc, TimeoutError) or getattr(exc, "code", None) == "timeout":
        return "timeout", False
    msg = f"{getattr(exc, 'code', '') or ''} {exc}".lower()
    if any(k in msg for k in _AUTH):
        return "auth", False
    if any(k in msg for k in _CONNECTION) or isinstance(exc, ConnectionError | OSError):
        return "connection", False
    if any(k in msg for k in _TIMEOUT):
        return "timeout", False
    if "read only" in msg or "read-only" in msg or "accessmode" in msg or "write" in msg and (
        "not allowed" in msg or "forbidden" in msg
    ):
        return "rejected", False
    if any(k in msg for k in _SYNTAX):
        return "syntax", True
    if any(k in msg for k in _PLANNING):
        return "planning", True
    if isinstance(exc, QueryError | RuntimeError | ValueError | TypeError):
        return "runtime", True
    if isinstance(exc, BackendError):
        return "connection", False
    return "runtime", True


# --------------------------------------------------------------------------- execution


def ran_key(store: Any, query: str, timeout_s: float | None, row_limit: int) -> tuple[Any, ...]:
    """Where a question's services keep one execution of ``query`` under these limits, for a
    later stage to read instead of running it again (``Services.put`` / ``peek``)."""
    return ("cypher-ran", store, query, timeout_s, row_limit)


def execute(
    store: Any,
    query: str,
    params: Mapping[str, Any] | None = None,
    *,
    timeout_s: float | None = 30.0,
    row_limit: int = 100,
    apply_rewrites: bool = True,
    extra_procedures: Iterable[str] = (),
    confirm: bool = True,
    isolated: bool = True,
) -> Execution:
    """Run untrusted ``query`` read-only on ``store`` (a store with the ``cypher`` capability).

    The query is guarded, rewritten for the dialect, guarded again, and run in the store's
    worker process (:mod:`byokg.cypher.worker`) unless ``isolated`` is False or the store
    cannot be reopened in a child; there the EXPLAIN second opinion (``confirm``) runs too.

    Long because it is the one path every untrusted query takes, written in order (guard,
    rewrite, guard again, isolate, confirm, run, mark); splitting it would hide a step."""
    cancel.check()  # a stopped question runs no query (one under way: byokg.cypher.worker)
    t0 = time.perf_counter()
    dialect = store.dialect
    extra = tuple(extra_procedures)
    first = check_query(query, dialect=dialect, extra_procedures=extra)
    if not first.allowed:
        return Execution(query=query, status=Status.REJECTED, error=first.reason,
                         error_kind="rejected", guard=first,
                         seconds=time.perf_counter() - t0)
    try:
        text, applied = (
            rewrite(first.normalized_query, dialect or "", triples=triple_layout(store))
            if apply_rewrites else (first.normalized_query, [])
        )
    except TripleRewriteError as exc:  # a relation pattern a triple graph cannot express
        return Execution(query=query, status=Status.ERROR, error=str(exc),
                         error_kind="planning", retryable=True, guard=first,
                         seconds=time.perf_counter() - t0)
    own_limit = final_limit(text)
    text, injected = inject_limit(text, row_limit + 1)
    verdict = check_query(text, dialect=dialect, extra_procedures=extra)
    runner = isolate(store) if isolated else store
    in_worker = isinstance(runner, IsolatedStore)
    if verdict.allowed and confirm and not in_worker:
        verdict = confirm_with_explain(store, verdict, params)
    if not verdict.allowed:
        return Execution(query=query, executed=text, status=Status.REJECTED,
                         error=verdict.reason, error_kind="rejected", guard=verdict,
                         rewrites=applied, seconds=time.perf_counter() - t0)
    run_text = verdict.normalized_query
    kwargs: dict[str, Any] = {"timeout_s": timeout_s, "row_limit": row_limit + 1}
    if extra:
        kwargs["procedures"] = extra
    if in_worker and confirm:
        kwargs["confirm"] = True
    try:
        raw = runner.query(run_text, used_params(run_text, params), **kwargs)
    except Exception as exc:  # noqa: BLE001 - every backend failure is classified and reported
        kind, retryable = classify_error(exc)
        return Execution(
            query=query, executed=run_text,
            status=Status.TIMEOUT if kind == "timeout" else (
                Status.REJECTED if kind == "rejected" else Status.ERROR),
            error=str(exc) or type(exc).__name__, error_kind=kind, retryable=retryable,
            rewrites=applied, limit_injected=injected, guard=verdict,
            seconds=time.perf_counter() - t0, stderr=getattr(exc, "stderr", None) or None,
        )
    result = cap_rows(raw, row_limit).model_copy(update={
        "row_cap": row_limit, "sort_columns": sort_columns(verdict.order_by, raw.columns),
        "limit": own_limit})
    return Execution(
        query=query, executed=run_text,
        status=Status.OK if result.rows else Status.EMPTY,
        result=result, rewrites=applied, limit_injected=injected, guard=verdict,
        seconds=time.perf_counter() - t0,
    )


def used_params(query: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The parameters ``query`` refers to (Kùzu rejects unused ones)."""
    if not params:
        return {}
    try:
        names = {t.value.strip("`") for t in tokenize(query) if t.kind is Kind.PARAM}
    except LexError:
        return dict(params)
    return {k: v for k, v in params.items() if k in names}


def plain(v: Any) -> Any:
    """A backend value as plain Python: numbers stay numbers, nodes become property dicts."""
    if isinstance(v, bool) or v is None or isinstance(v, int | str):
        return v
    if isinstance(v, float):
        return v
    if isinstance(v, decimal.Decimal):
        return int(v) if v == v.to_integral_value() and abs(v) < 2**63 else float(v)
    if isinstance(v, _dt.datetime | _dt.date | _dt.time):
        return v.isoformat()
    if isinstance(v, _dt.timedelta):
        return str(v)
    if isinstance(v, Mapping):
        return {str(k): plain(x) for k, x in v.items() if not str(k).startswith("_") or k == "_label"}
    if isinstance(v, list | tuple | set):
        return [plain(x) for x in v]
    props = getattr(v, "_properties", None)  # neo4j driver Node / Relationship
    if isinstance(props, Mapping):
        out = {k: plain(x) for k, x in props.items()}
        labels = getattr(v, "labels", None) or getattr(v, "type", None)
        if labels:
            out["_label"] = ":".join(sorted(labels)) if not isinstance(labels, str) else labels
        return out
    return str(v)


def sort_columns(order_by: tuple[str, ...] | None, columns: tuple[str, ...] | list[str]
                 ) -> tuple[int, ...] | None:
    """The returned columns a query's ORDER BY keys name (``()`` without ORDER BY; None when a
    key is not a returned column or the keys are unknown)."""
    if order_by is None:
        return None
    cols = [" ".join(c.split()) for c in columns]
    out = []
    for key in order_by:
        k = " ".join(key.split())
        if k not in cols:
            return None
        out.append(cols.index(k))
    return tuple(out)


def cap_rows(result: QueryResult, row_limit: int) -> QueryResult:
    rows = tuple(tuple(plain(v) for v in r) for r in result.rows)
    truncated = result.truncated or len(rows) > row_limit
    return QueryResult(columns=tuple(result.columns), rows=rows[:row_limit],
                       truncated=truncated, elapsed_ms=result.elapsed_ms)


# --------------------------------------------------------------------------- rendering


def format_value(v: Any, max_chars: int = 120) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isfinite(v) and v == int(v) and abs(v) < 1e15:
            s = f"{v:.1f}"
        else:
            s = f"{v:.10g}"
    elif isinstance(v, Mapping):
        inner = ", ".join(f"{k}: {format_value(x, 40)}" for k, x in v.items())
        s = "{" + inner + "}"
    elif isinstance(v, list | tuple):
        s = "[" + ", ".join(format_value(x, 40) for x in v) + "]"
    else:
        s = str(v)
    s = s.replace("\n", " ").replace("|", "\\|")
    return s if len(s) <= max_chars else s[: max_chars - 1] + "…"


def format_row(row: Sequence[Any]) -> str:
    """One row of :func:`render_table`."""
    return "| " + " | ".join(format_value(v) for v in row) + " |"


def render_table(result: QueryResult, *, row_limit: int | None = None, rows_left_out: int = 0
                 ) -> str:
    """A column-named text table; a last line says how many rows and whether the cap cut it
    (``rows_left_out``: rows of this result not shown, for the token budget)."""
    cols = list(result.columns)
    if not cols and result.rows:
        cols = [f"col{i + 1}" for i in range(len(result.rows[0]))]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)] if cols else []
    lines.extend(format_row(r) for r in result.rows)
    n = len(result.rows)
    tail = f"({n} row{'s' if n != 1 else ''}"
    if result.truncated:
        cap = row_limit if row_limit is not None else result.row_cap or n
        tail += f"; TRUNCATED at the row cap of {cap}, more rows exist"
    elif result.limit_reached:
        tail += f"; the query's own LIMIT {result.limit} was reached: more rows may exist"
    lines.append(tail + ")")
    if rows_left_out:
        lines.append(f"[{rows_left_out} more row(s) of this result left out for the token budget]")
    return "\n".join(lines)


def cell_name(value: Any, profile: Any = None) -> str | None:
    """A query cell as an answer: text and numbers as written; a whole node (a property map
    with ``_label``) by its display name under the graph's profile, else its key, else its
    first name-like text; None for an empty cell or a list or map that is no node."""
    if value is None or isinstance(value, list | tuple):
        return None
    if not isinstance(value, Mapping):
        return format_value(value, 300)
    lab = profile.label(str(value.get("_label"))) if profile is not None else None
    props = {k: v for k, v in value.items() if not str(k).startswith("_") and v is not None}
    if lab is not None:
        name = lab.rule.name_of(props)
        if name:
            return name
        if lab.key and props.get(lab.key) is not None:
            return format_value(props[lab.key], 300)
    texts = [(str(k), v) for k, v in props.items() if isinstance(v, str) and v.strip()]
    named = [v for k, v in texts if k.lower().endswith(("name", "title", "label"))]
    return (named or [v for _, v in texts] or [None])[0]


def query_text(query: str, result: QueryResult, *, rows_left_out: int = 0) -> str:
    """What the LLM reads of a query result: the query, then its table."""
    return f"Query: {query}\n" + render_table(result, rows_left_out=rows_left_out)


def to_context_item(
    execution: Execution, *, tool: str = "cypher", iteration: int = 0, row_limit: int | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> ContextItem:
    """A ``kind="query"`` ContextItem: the table as text, the rows and the query that ran."""
    result = execution.result or QueryResult()
    if row_limit is not None and result.row_cap is None:
        result = result.model_copy(update={"row_cap": row_limit})
    text = query_text(execution.executed or execution.query, result)
    return ContextItem(
        text=text, tool=tool, iteration=iteration, kind="query",
        query=execution.executed or execution.query, rows=result,
        metadata={"status": str(execution.status), "rewrites": list(execution.rewrites),
                  "limit_injected": execution.limit_injected, "truncated": result.truncated,
                  **dict(metadata or {})},
    )
