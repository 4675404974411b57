"""The repair loop: run a generated query, and on failure ask the LLM to fix it.

Each attempt ends in one of

* ``ok`` – rows came back: done;
* ``error`` – the query, the database's whole message, a hint for the error's class
  (:func:`error_class`: syntax, unknown property / label / relationship type / variable /
  function, type mismatch) and the schema-level checks (nearest existing labels, types,
  properties) go back to the LLM;
* ``empty`` – entity verification runs; if something the query names does not exist, the
  checks with the nearest existing names / values go back to the LLM;
* ``verified_empty`` – every entity exists, so "no rows" is the answer (a negative existential):
  stop, no retry;
* ``rejected`` / ``timeout`` / connection or auth errors – deterministic, a retry cannot fix
  them: stop.

At most ``max_attempts`` queries run (default 3). An LLM reply without a query, or repeating an
earlier query, also stops the loop.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg.contracts import GraphSchema
from byokg.contracts import LLMCall
from byokg.models.base import prompt_checksum
from byokg.models.replies import extract_query

from .dialects import dialect_hints
from .execute import Execution
from .execute import Status
from .execute import execute
from .verify import VerificationReport
from .verify import verify
from .worker import isolate

DEFAULT_MAX_ATTEMPTS = 3
MAX_SCHEMA_CHARS = 2500

SYSTEM = (
    "You repair openCypher queries. Answer with one read-only query inside <cypher></cypher> "
    "and nothing else. Never write to the graph."
)

MAX_ERROR_CHARS = 4000  # the engine's message goes to the LLM whole up to this size (cut marked)

# Error classes the repair prompt distinguishes (``error_class``); each has its own hint.
_HINTS = {
    "syntax": "The database could not parse the query. Fix the syntax for this dialect; keep the "
    "query's intent, its labels, relationship types and properties.",
    "unknown_property": "The query reads a property {name}that the label or relationship does "
    "not have. Use a property the schema lists for it (see the checks for the nearest ones).",
    "unknown_label": "The query names a node label {name}that does not exist. Use a label from "
    "the schema (see the checks for the nearest ones).",
    "unknown_relationship": "The query names a relationship type {name}that does not exist, or "
    "uses it between labels it does not connect. Use a relationship type and direction from the "
    "schema.",
    "unknown_variable": "The query uses a variable {name}that is not bound at that point. Bind it "
    "in MATCH, or carry it through WITH, before using it.",
    "unknown_function": "The query calls a function {name}this database does not have. Use a "
    "function of this dialect (see the dialect notes).",
    "type_mismatch": "A value has the wrong type for the operation (the names exist: keep them). "
    "The schema gives each property's type: text that holds numbers or dates must be converted "
    "with the dialect's conversion functions before arithmetic, aggregation or a numeric "
    "comparison, and text is compared with quoted strings.",
    "planning": "The database could not plan the query. Use only names from the schema and "
    "functions of this dialect; see the checks.",
    "runtime": "The query failed while running. Read the database's message and change the part "
    "it names; keep the query's intent.",
    "empty": "The query ran but returned no rows, and some names or values it uses do not exist "
    "in the graph. Use the nearest existing ones listed below if they match the question.",
}

ERROR_CLASSES = tuple(_HINTS)

_N = r"[`'\"]?([A-Za-z_][\w.]*)[`'\"]?"
_CLASS_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (cls, re.compile(rx, re.I)) for cls, rx in (
        ("unknown_property", rf"cannot find property {_N}"),
        ("unknown_property", rf"property {_N} (?:does not exist|not found|is not defined)"),
        ("unknown_property", rf"unknown property {_N}"),
        ("unknown_variable", rf"variable {_N} (?:is )?not (?:in scope|defined)"),
        ("unknown_function", rf"(?:unknown function|function {_N} (?:does not exist|is not "
                             r"defined|not found))"),
        ("unknown_function", rf"function {_N} is not defined"),
        ("type_mismatch", r"conversion exception|cast failed|could not convert|type mismatch|"
                          r"did not receive correct arguments|cannot compare|incompatible types?|"
                          r"expected (?:a |an )?(?:numeric|number|integer|float|string|boolean)|"
                          r"invalid (?:argument|input) type|typeerror|cannot be coerced"),
        ("unknown_table", rf"table {_N} does not exist"),
        ("unknown_table", rf"(?:label|type|vertex type|edge type) (?:with name )?{_N} "
                          r"(?:does not exist|was not found|not found)"),
        ("unknown_table", rf"unknown (?:label|relationship type|type) {_N}"),
    ))


def error_class(error: str, error_kind: str | None, query: str = "") -> tuple[str, str | None]:
    """The repair class of an engine error and the name it is about (None when it names none).

    Classes: ``syntax``, ``unknown_property``, ``unknown_label``, ``unknown_relationship``,
    ``unknown_variable``, ``unknown_function``, ``type_mismatch``, else ``planning`` /
    ``runtime`` by the engine's own kind. A missing table is a relationship type when the
    query writes it inside ``[...]``, else a label."""
    if error_kind == "syntax":
        return "syntax", None
    for cls, rx in _CLASS_PATTERNS:
        m = rx.search(error or "")
        if not m:
            continue
        name = next((g for g in m.groups() if g), None)
        if cls == "unknown_table":
            rel = bool(name) and re.search(rf"\[[^\]]*:\s*`?{re.escape(name)}`?(?!\w)", query)
            cls = "unknown_relationship" if rel else "unknown_label"
        return cls, name
    return ("planning" if error_kind == "planning" else "runtime"), None


def _hint(cls: str, name: str | None) -> str:
    return _HINTS.get(cls, _HINTS["runtime"]).format(name=f"`{name}` " if name else "")


def full_message(error: str | None, limit: int = MAX_ERROR_CHARS) -> str:
    """The engine's message, whole up to ``limit`` characters (a cut is marked)."""
    msg = (error or "").strip()
    if len(msg) <= limit:
        return msg
    return msg[:limit] + f" … [message cut: {len(msg) - limit:,} more characters]"


class Attempt(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    number: int
    query: str
    outcome: str  # ok | error | empty | verified_empty | rejected | timeout
    execution: Execution
    verification: VerificationReport | None = None
    feedback: str | None = None  # the prompt part sent to the LLM after this attempt
    error_class: str | None = None  # the repair class of the failure (see ``error_class``)


class RepairResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    attempts: list[Attempt] = Field(default_factory=list)
    stopped: str = ""  # why the loop ended
    llm_calls: list[LLMCall] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)  # from the repair LLM's replies

    @property
    def final(self) -> Execution:
        return self.attempts[-1].execution

    @property
    def outcome(self) -> str:
        return self.attempts[-1].outcome if self.attempts else "none"

    @property
    def trail(self) -> list[str]:
        """The outcome of every attempt, in order (e.g. ``["error", "empty", "ok"]``)."""
        return [a.outcome for a in self.attempts]


def schema_summary(schema: GraphSchema, limit: int = MAX_SCHEMA_CHARS) -> str:
    lines = []
    for nl in schema.node_labels:
        props = ", ".join(p.name + (f": {p.type}" if p.type else "") for p in nl.properties)
        lines.append(f"(:{nl.name} {{{props}}})")
    for rt in schema.relation_types:
        pats = ", ".join(f"(:{p.src})-[:{rt.name}]->(:{p.dst})" for p in rt.patterns)
        props = ", ".join(p.name for p in rt.properties)
        lines.append(f"[:{rt.name}] {pats}" + (f" {{{props}}}" if props else ""))
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _feedback(
    question: str, attempt: Attempt, dialect: str, schema_text: str,
    max_chars: int | None = None,
) -> str:
    ex = attempt.execution
    query = ex.executed or ex.query
    if attempt.outcome == "empty":
        cls, name = "empty", None
    else:
        cls, name = error_class(ex.error or "", ex.error_kind, query)
    attempt.error_class = cls
    parts = [
        f"Question: {question}",
        f"Dialect: {dialect or 'openCypher'}",
        "Query that was run:",
        query,
    ]
    if attempt.outcome == "empty":
        parts.append("Result: no rows.")
    else:
        parts.append(f"Database error ({cls.replace('_', ' ')}):\n{full_message(ex.error)}")
    if attempt.verification and attempt.verification.checks:
        parts.append("Checks of the names and values the query uses:")
        parts.append(attempt.verification.feedback())
    parts.append(f"Hint: {_hint(cls, name)}")
    hints = dialect_hints(dialect)
    if hints and cls != "empty":
        parts.append(hints)
    last = "Write the corrected query inside <cypher></cypher>."
    if schema_text:
        room = None if max_chars is None else max_chars - len("\n".join([*parts, last])) - 10
        if room is not None and len(schema_text) > room:  # cut at a line, and say so
            keep = schema_text[:max(room - 60, 0)].rsplit("\n", 1)[0]
            schema_text = keep + "\n// … the rest of the schema left out for the prompt size"
        parts.append("Schema:\n" + schema_text)
    parts.append(last)
    return "\n".join(parts)


def _canon(q: str) -> str:
    return " ".join(q.split()).rstrip(";").lower()


def run_with_repair(
    store: Any,
    query: str,
    *,
    question: str = "",
    llm: Any = None,
    params: Mapping[str, Any] | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    verify_entities: bool = True,
    timeout_s: float | None = 30.0,
    row_limit: int = 100,
    extra_procedures: Iterable[str] = (),
    schema: GraphSchema | None = None,
    max_tokens: int = 600,
    ran: Execution | None = None,
    schema_text: Callable[[], str] | None = None,
    max_prompt_chars: int | None = None,
) -> RepairResult:
    """Run ``query``; repair it with ``llm`` on errors and unverified empty results. ``ran``:
    the execution of ``query`` a caller already made with the same limits (it is not run
    again; the routed proposer's winning candidate). ``schema_text`` gives the schema the
    repair prompt shows (the KG-Linker's, so both agree; default: a summary of the store's
    schema); ``max_prompt_chars`` bounds the prompt (the schema is cut, and says so)."""
    if max_attempts < 1:
        raise ValueError("max_attempts must be at least 1")
    loop = _Loop(isolate(store), question, llm, params, verify_entities, timeout_s, row_limit,
                 tuple(extra_procedures), schema, max_tokens)
    loop.schema_text, loop.max_prompt_chars = schema_text, max_prompt_chars
    if ran is not None and ran.query == query:
        loop.ran = ran
    current = query
    seen = {_canon(query)}
    for number in range(1, max_attempts + 1):
        stop = loop.attempt(number, current)
        if stop:
            loop.out.stopped = stop
            return loop.out
        if number == max_attempts:
            loop.out.stopped = f"gave up after {max_attempts} attempt(s)"
            return loop.out
        new, stop = loop.ask_llm()
        if stop:
            loop.out.stopped = stop
            return loop.out
        if _canon(new) in seen:
            loop.out.stopped = "LLM repeated an earlier query"
            return loop.out
        seen.add(_canon(new))
        current = new
    return loop.out


class _Loop:
    """The state of one repair loop: run an attempt, check it, ask the LLM for the next."""

    def __init__(self, store: Any, question: str, llm: Any, params: Mapping[str, Any] | None,
                 verify_entities: bool, timeout_s: float | None, row_limit: int,
                 extra: tuple[str, ...], schema: GraphSchema | None, max_tokens: int) -> None:
        self.store, self.question, self.llm, self.params = store, question, llm, params
        self.verify_entities, self.timeout_s, self.row_limit = verify_entities, timeout_s, row_limit
        self.extra, self.max_tokens = extra, max_tokens
        self.dialect = store.dialect or ""
        self._schema: list[GraphSchema | None] = [schema] if schema is not None else []
        self.out = RepairResult()
        self.ran: Execution | None = None  # the first attempt's execution, made by the caller
        self.schema_text: Callable[[], str] | None = None
        self.max_prompt_chars: int | None = None

    def schema(self) -> GraphSchema | None:
        if not self._schema:
            try:
                self._schema.append(self.store.schema(samples=0))
            except Exception:  # noqa: BLE001 - schema is a help for the prompt, not required
                return None
        return self._schema[0]

    def attempt(self, number: int, query: str) -> str:
        """Run ``query``; return why the loop stops now, or "" to repair."""
        if number == 1 and self.ran is not None:
            ex = self.ran
        else:
            ex = execute(self.store, query, self.params, timeout_s=self.timeout_s,
                         row_limit=self.row_limit, extra_procedures=self.extra)
        att = Attempt(number=number, query=query, execution=ex, outcome=str(ex.status))
        self.out.attempts.append(att)
        if ex.status is Status.OK:
            return "ok"
        if ex.status in (Status.REJECTED, Status.TIMEOUT) or (
            ex.status is Status.ERROR and not ex.retryable
        ):
            return f"deterministic {ex.error_kind or ex.status} error: retry cannot fix it"
        if ex.status is Status.ERROR:
            att.error_class = error_class(ex.error or "", ex.error_kind, ex.executed or query)[0]
        sch = self.schema()
        if ex.status is Status.EMPTY:
            return self._check_empty(att, query, sch)
        if sch is not None and ex.status is Status.ERROR:
            try:  # schema-level checks only (no value queries) to name the nearest labels etc.
                att.verification = verify(self.store, ex.executed or query, self.params,
                                          schema=sch, max_value_checks=0)
            except Exception:  # noqa: BLE001
                att.verification = None
        return ""

    def _check_empty(self, att: Attempt, query: str, sch: GraphSchema | None) -> str:
        ex = att.execution
        if not self.verify_entities:
            return "empty result (entity verification off)"
        try:
            report = verify(self.store, ex.executed or query, self.params, schema=sch,
                            timeout_s=self.timeout_s)
        except Exception as exc:  # noqa: BLE001 - cannot verify: report the empty result
            return f"empty result; verification failed: {exc}"
        att.verification = report
        if report.all_exist:
            att.outcome = str(Status.VERIFIED_EMPTY)
            ex.status = Status.VERIFIED_EMPTY
            return "verified empty: every entity exists, no rows is the answer"
        return ""

    def ask_llm(self) -> tuple[str, str]:
        """(the LLM's next query, "") or ("", why the loop stops)."""
        if self.llm is None:
            return "", "no LLM to repair the query"
        att = self.out.attempts[-1]
        if self.schema_text is not None:
            text = self.schema_text()
        else:
            sch = self.schema()
            text = schema_summary(sch) if sch else ""
        prompt = _feedback(self.question, att, self.dialect, text, self.max_prompt_chars)
        att.feedback = prompt
        t0 = time.perf_counter()
        try:
            resp = self.llm.complete(prompt, system=SYSTEM, max_tokens=self.max_tokens,
                                     temperature=0.0)
        except Exception as exc:  # noqa: BLE001 - an LLM failure ends the repair, reported
            return "", f"LLM failed during repair: {exc}"
        self.out.warnings.extend(resp.warnings)
        self.out.llm_calls.append(LLMCall(
            purpose="cypher-repair",
            model=resp.model or self.llm.name,
            prompt_checksum=prompt_checksum(prompt, SYSTEM),
            prompt_tokens=resp.prompt_tokens,
            completion_tokens=resp.completion_tokens,
            seconds=time.perf_counter() - t0, cached=resp.cached,
        ))
        new = extract_query(resp.text)
        return (new, "") if new else ("", "LLM reply held no query")
