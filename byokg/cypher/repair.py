"""The repair loop: run a generated query, and on failure ask the LLM to fix it.

Each attempt ends in one of

* ``ok`` – rows came back: done;
* ``error`` (syntax / planning / runtime) – the query, the database's message, a short hint and
  the schema-level checks (nearest existing labels, types, properties) go back to the LLM;
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
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from byokg.contracts import GraphSchema, LLMCall
from byokg.models import prompt_checksum

from .dialects import dialect_hints
from .execute import Execution, Status, execute
from .verify import VerificationReport, verify
from .worker import isolate

DEFAULT_MAX_ATTEMPTS = 3
MAX_SCHEMA_CHARS = 2500

SYSTEM = (
    "You repair openCypher queries. Answer with one read-only query inside <cypher></cypher> "
    "and nothing else. Never write to the graph."
)

_HINTS = {
    "syntax": "The database could not parse the query. Fix the syntax for this dialect; keep the "
    "query's intent.",
    "planning": "The query names something the database does not know (a label, relationship "
    "type, property, variable or function). Use only names from the schema; see the checks.",
    "runtime": "The query failed while running (e.g. a type conversion). Check property types: "
    "convert text with the dialect's conversion functions or compare with strings.",
    "empty": "The query ran but returned no rows, and some names or values it uses do not exist "
    "in the graph. Use the nearest existing ones listed below if they match the question.",
}


class Attempt(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    number: int
    query: str
    outcome: str  # ok | error | empty | verified_empty | rejected | timeout
    execution: Execution
    verification: VerificationReport | None = None
    feedback: str | None = None  # the prompt part sent to the LLM after this attempt


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


_TAG = re.compile(r"<cypher>(.*?)(?:</cypher>|$)", re.S | re.I)
_FENCE = re.compile(r"```(?:cypher|opencypher|sql)?\s*\n?(.*?)```", re.S | re.I)
_START = re.compile(r"^\s*(MATCH|OPTIONAL|WITH|UNWIND|CALL|RETURN)\b", re.I)


def extract_query(reply: str) -> str | None:
    """The query in an LLM reply: <cypher>…</cypher>, a ```cypher fence, or bare Cypher."""
    for rx in (_TAG, _FENCE):
        m = rx.search(reply)
        if m and m.group(1).strip():
            return m.group(1).strip()
    return reply.strip() if _START.match(reply) else None


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
    question: str, attempt: Attempt, dialect: str, schema_text: str
) -> str:
    ex = attempt.execution
    kind = "empty" if attempt.outcome == "empty" else (ex.error_kind or "runtime")
    parts = [
        f"Question: {question}",
        f"Dialect: {dialect or 'openCypher'}",
        "Query that was run:",
        ex.executed or ex.query,
    ]
    if attempt.outcome == "empty":
        parts.append("Result: no rows.")
    else:
        msg = (ex.error or "").strip()
        parts.append(f"Database error ({kind}): {msg[:800]}")
    if attempt.verification and attempt.verification.checks:
        parts.append("Checks of the names and values the query uses:")
        parts.append(attempt.verification.feedback())
    parts.append(f"Hint: {_HINTS.get(kind, _HINTS['runtime'])}")
    hints = dialect_hints(dialect)
    if hints and kind in ("syntax", "planning", "runtime"):
        parts.append(hints)
    if schema_text:
        parts.append("Schema:\n" + schema_text)
    parts.append("Write the corrected query inside <cypher></cypher>.")
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
) -> RepairResult:
    """Run ``query``; repair it with ``llm`` on errors and unverified empty results."""
    if max_attempts < 1:
        raise ValueError("max_attempts must be at least 1")
    loop = _Loop(isolate(store), question, llm, params, verify_entities, timeout_s, row_limit,
                 tuple(extra_procedures), schema, max_tokens)
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
        self.dialect = getattr(store, "dialect", "") or ""
        self._schema: list[GraphSchema | None] = [schema] if schema is not None else []
        self.out = RepairResult()

    def schema(self) -> GraphSchema | None:
        if not self._schema:
            try:
                self._schema.append(self.store.schema(samples=0))
            except Exception:  # noqa: BLE001 - schema is a help for the prompt, not required
                return None
        return self._schema[0]

    def attempt(self, number: int, query: str) -> str:
        """Run ``query``; return why the loop stops now, or "" to repair."""
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
        sch = self.schema()
        prompt = _feedback(self.question, att, self.dialect, schema_summary(sch) if sch else "")
        att.feedback = prompt
        t0 = time.perf_counter()
        try:
            resp = self.llm.complete(prompt, system=SYSTEM, max_tokens=self.max_tokens,
                                     temperature=0.0)
        except Exception as exc:  # noqa: BLE001 - an LLM failure ends the repair, reported
            return "", f"LLM failed during repair: {exc}"
        self.out.warnings.extend(getattr(resp, "warnings", None) or [])
        self.out.llm_calls.append(LLMCall(
            purpose="cypher-repair",
            model=getattr(resp, "model", "") or getattr(self.llm, "name", ""),
            prompt_checksum=prompt_checksum(prompt, SYSTEM),
            prompt_tokens=getattr(resp, "prompt_tokens", 0),
            completion_tokens=getattr(resp, "completion_tokens", 0),
            seconds=time.perf_counter() - t0, cached=getattr(resp, "cached", False),
        ))
        new = extract_query(getattr(resp, "text", "") or "")
        return (new, "") if new else ("", "LLM reply held no query")
