"""What the HTTP and MCP servers share: one engine and graph chosen at start, the request and
response models, limits, and a bounded worker pool with per-request timeouts.

Read-only by construction: no request carries a query; every graph read goes through the
engine (whose generated Cypher runs behind the guard in an isolated worker), the linker, the
store's schema or the profile. Imports no web framework (the servers import theirs).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from typing import Self
from typing import TypeVar

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg.cancel import Cancelled
from byokg.cancel import CancelToken
from byokg.cancel import current as current_token
from byokg.cancel import scope as cancel_scope
from byokg.contracts import ContextItem
from byokg.contracts import GraphSchema
from byokg.contracts import MentionLinks
from byokg.contracts import TraceEvent
from byokg.errors import ByokgError
from byokg.errors import InputError
from byokg.errors import LLMError
from byokg.errors import invalid_text
from byokg.pipeline.answer import Answer
from byokg.pipeline.answer import Retrieval
from byokg.redaction import redact_text
from byokg.redaction import redact_uri

log = logging.getLogger("byokg.serve")
T = TypeVar("T")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class ServeLimits(BaseModel):
    """Limits every request is held to (``byokg serve --help`` names the options)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_body_bytes: int = Field(64 * 1024, ge=256, description="HTTP request body size")
    max_question_chars: int = Field(2000, ge=1, description="characters in a question")
    max_items: int = Field(50, ge=1, description="mentions in one link request")
    timeout: float = Field(60.0, gt=0, description="seconds a request may take")
    max_concurrency: int = Field(4, ge=1, le=64, description="requests answered side by side")
    max_queue: int = Field(32, ge=0, description="requests waiting for a worker")
    read_timeout: float = Field(10.0, gt=0, description="seconds a client has to send its "
                                "request headers, and again its body")
    max_connections: int = Field(256, ge=2, description="open HTTP connections at most")
    allow_hosts: tuple[str, ...] = Field(
        (), description="Host names the HTTP API answers besides the loopback names (and the "
                        "address it is bound to); '*' answers any")


# --------------------------------------------------------------------------- request/response


class QuestionIn(BaseModel):
    """A question for ``ask`` or ``retrieve``."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(description="the question in natural language")


class LinkIn(BaseModel):
    """Entity mentions to link to graph nodes."""

    model_config = ConfigDict(extra="forbid")
    mentions: list[str] = Field(description="names as a person would write them")


class LinkOut(BaseModel):
    """Candidates for each mention, best first (ids, display names, scores, method)."""

    links: list[MentionLinks]


class _ResultOut(BaseModel):
    """A response built from an engine result: its same-named fields and its trace's warnings."""

    @classmethod
    def of(cls, result: Answer | Retrieval) -> Self:
        fields = {f: getattr(result, f) for f in cls.model_fields if f != "warnings"}
        return cls(**fields, warnings=result.trace.warnings)


class AskOut(_ResultOut):
    """An answer with its evidence: the answers as the graph names them, the supporting context
    items (tool, round, score, triplets or path or query), the linked entities, display names
    of every node id, and the run's warnings."""

    question: str
    answers: list[str]
    answer_ids: dict[str, list[str]] = Field(default_factory=dict)
    truncated: bool = Field(False, description="the answer list is cut (max_answers, or rows "
                                               "cut at a cap): more answers exist")
    total: int | None = Field(None, description="answers in all, when known")
    evidence: list[ContextItem] = Field(default_factory=list)
    entities: list[MentionLinks] = Field(default_factory=list)
    names: dict[str, str] = Field(default_factory=dict)
    warnings: list[TraceEvent] = Field(default_factory=list)


class RetrieveOut(_ResultOut):
    """Ranked context for a question without an answer (best first), with provenance."""

    question: str
    context: list[ContextItem] = Field(default_factory=list)
    entities: list[MentionLinks] = Field(default_factory=list)
    names: dict[str, str] = Field(default_factory=dict)
    warnings: list[TraceEvent] = Field(default_factory=list)


class Health(BaseModel):
    status: str = "ok"
    graph: str
    nodes: int
    triplets: int
    llm: str
    busy: int = Field(description="requests running or waiting")


class Busy(ByokgError):
    """Every worker is busy and the queue is full."""


class Timeout(ByokgError):
    """A request ran past the server's timeout (it is abandoned, the server keeps serving)."""


# Raised inside an abandoned question at its next step, or inside the LLM call or query under
# way, so that it stops instead of running on for nobody (a BaseException: no stage's error
# handling keeps it). The older name of byokg.cancel.Cancelled.
Abandoned = Cancelled


def _call(token: CancelToken, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    """``fn(*args)`` under the request's cancel token (byokg.cancel)."""
    with cancel_scope(token):
        return fn(*args)


def _stop_check() -> Callable[[Any], None] | None:
    """An ``on_event`` listener that stops the question once its request was abandoned (the
    LLM call or query under way is stopped by the token itself)."""
    token = current_token()
    if token is None:
        return None

    def check(_event: Any) -> None:
        token.check()
    return check


def text_problem(text: str) -> str | None:
    """Why ``text`` is not valid text (:func:`byokg.errors.invalid_text`), or None."""
    return invalid_text(text)


def client_message(exc: BaseException) -> str:
    """What a client is told about a failed request: the error's message with URIs and secrets
    redacted; an LLM failure only as its kind and status (the provider's reply may echo keys or
    internal addresses): the full text goes to the server log, redacted."""
    if isinstance(exc, LLMError):
        log.warning("LLM failure: %s", redact_text(str(exc)))
        return llm_summary(exc)
    return redact_text(str(exc))


def llm_summary(exc: LLMError) -> str:
    """A provider failure told to clients: its code (HTTP status, AWS error code, timeout …).
    A provider's own safe summary (``exc.summary``) is used when it sets one."""
    summary = getattr(exc, "summary", None)
    if isinstance(summary, str) and summary:
        return redact_text(summary)
    code = getattr(exc, "code", None)
    return "the LLM call failed" + (f" ({code})" if code else "") + "; see the server log"


# --------------------------------------------------------------------------- the service


class Service:
    """One engine over one graph, shared by every request (thread-safe: the engine's questions
    share only the run's caches; stages, tools and the profile are built before serving)."""

    def __init__(self, engine: Any, *, limits: ServeLimits | None = None, llm: str = "none",
                 owns_store: bool = False) -> None:
        self.engine = engine
        self.store = engine.store
        self.limits = limits or ServeLimits()
        self.llm = llm
        self.owns_store = owns_store
        self._pool = ThreadPoolExecutor(max_workers=self.limits.max_concurrency,
                                        thread_name_prefix="byokg-serve")
        self._pending = 0
        self._lock = threading.Lock()
        self._schema: GraphSchema | None = None

    @classmethod
    def open(cls, graph: str, *, llm: str | None = None, config_file: str | None = None,
             limits: ServeLimits | None = None) -> Service:
        """Open the graph and build the engine once (the LLM and graph are fixed from here)."""
        from byokg.graph.open import open_graph
        from byokg.pipeline.engine import Engine

        from ..config import RunConfig

        cfg = RunConfig.load(config_file) if config_file else RunConfig()
        if llm is not None:
            cfg = cfg.model_copy(update={"llm": llm})
        store = open_graph(graph)
        try:
            svc = cls(Engine(store, cfg), limits=limits, llm=cfg.llm or "none", owns_store=True)
            svc.prepare()
        except BaseException:
            store.close()
            raise
        return svc

    def prepare(self) -> None:
        """Build what the engine would build on the first question, before requests race."""
        e = self.engine
        e.check_graph()
        e.stages()
        e.linker()
        e.tools()
        _ = e.profile
        self.stats = self.store.stats()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self.owns_store:
            self.store.close()

    # ------------------------------------------------------------------ checks
    def question(self, text: str) -> str:
        if not isinstance(text, str) or not text.strip():
            raise InputError("the question is empty", source="question")
        bad = text_problem(text)
        if bad:
            raise InputError(f"the question is not valid text: {bad}", source="question")
        if len(text) > self.limits.max_question_chars:
            raise InputError(f"the question has {len(text):,} characters; this server takes at "
                             f"most {self.limits.max_question_chars:,} (--max-question-chars)",
                             source="question")
        return text

    def mentions(self, mentions: list[str]) -> list[str]:
        if not mentions:
            raise InputError("no mentions given", source="mentions")
        if len(mentions) > self.limits.max_items:
            raise InputError(f"{len(mentions)} mentions; this server takes at most "
                             f"{self.limits.max_items} per request (--max-items)",
                             source="mentions")
        for i, m in enumerate(mentions):
            if not isinstance(m, str) or not m.strip():
                raise InputError(f"mention {i} is empty", source="mentions")
            bad = text_problem(m)
            if bad:
                raise InputError(f"mention {i} is not valid text: {bad}", source="mentions")
            if len(m) > self.limits.max_question_chars:
                raise InputError(f"mention {i} has {len(m):,} characters; at most "
                                 f"{self.limits.max_question_chars:,}", source="mentions")
        return mentions

    # ------------------------------------------------------------------ the operations (sync)
    def ask(self, question: str) -> Answer:
        return self.engine.ask(self.question(question), on_event=_stop_check())

    def retrieve(self, question: str) -> Retrieval:
        return self.engine.retrieve(self.question(question), on_event=_stop_check())

    def link(self, mentions: list[str]) -> LinkOut:
        linker, params = self.engine.linker()
        links = linker.link(self.mentions(mentions), store=self.store,
                            services=self.engine.services, params=params)
        return LinkOut(links=[m.without_literal_ids() for m in links])

    def schema(self) -> GraphSchema:
        with self._lock:
            if self._schema is None:
                self._schema = self.store.schema()
            return self._schema

    def profile(self) -> dict[str, Any]:
        """The graph profile as JSON (whatever ``get_profile`` returns)."""
        prof = self.engine.profile
        dump = getattr(prof, "model_dump", None)
        return dump(mode="json") if dump else dict(prof)

    def health(self) -> Health:
        return Health(graph=redact_uri(self.store.uri or "graph"),
                      nodes=self.stats.nodes,
                      triplets=self.stats.triplets, llm=self.llm, busy=self._pending)

    # ------------------------------------------------------------------ bounded, timed runs
    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the worker pool, within the timeout. A full queue raises
        :class:`Busy`; a run past the timeout raises :class:`Timeout` and is abandoned: a
        question still waiting is cancelled, a running one stops at its next step (the step
        under way, say a graph query, ends first, within its own limits)."""
        with self._lock:
            if self._pending >= self.limits.max_concurrency + self.limits.max_queue:
                raise Busy(f"the server is busy ({self._pending} requests running or waiting); "
                           "retry later")
            self._pending += 1
        token = CancelToken()
        fut = self._pool.submit(_call, token, fn, args)
        fut.add_done_callback(self._done)
        waited = asyncio.wrap_future(fut)
        try:
            return await asyncio.wait_for(asyncio.shield(waited), self.limits.timeout)
        except TimeoutError:
            self._abandon(token, fut, waited, f"past the {self.limits.timeout:g}s timeout")
            raise Timeout(f"the request took longer than {self.limits.timeout:g}s (--timeout) "
                          "and was abandoned") from None
        except asyncio.CancelledError:  # the client went away (an MCP cancel, a closed stream)
            self._abandon(token, fut, waited, "the client went away")
            raise

    @staticmethod
    def _abandon(token: CancelToken, fut: Any, waited: asyncio.Future[Any], why: str) -> None:
        """Stop a run nobody waits for: a queued one never starts, a running one stops its
        LLM call or query under way (byokg.cancel)."""
        token.cancel(f"the request was abandoned: {why}")
        fut.cancel()  # only takes when it has not started
        waited.add_done_callback(_ignore_outcome)

    def _done(self, _fut: Any) -> None:
        with self._lock:
            self._pending -= 1


def _ignore_outcome(fut: asyncio.Future[Any]) -> None:
    """An abandoned run's outcome is read here, so asyncio does not log it as never retrieved."""
    if not fut.cancelled():
        fut.exception()


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")


def allowed_hosts(bind: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The Host names a server bound to ``bind`` answers (against DNS rebinding): the loopback
    names, the bound address itself (unless a wildcard) and ``extra`` (``--allow-host``);
    ``("*",)`` when ``extra`` holds ``*``."""
    if "*" in extra:
        return ("*",)
    names = ["127.0.0.1", "localhost", "::1"]
    if bind not in ("0.0.0.0", "::", ""):
        names.append(bind.strip("[]"))
    names += [h.strip().lower().strip("[]") for h in extra if h.strip()]
    return tuple(dict.fromkeys(n.lower() for n in names))


def host_of(header: str) -> str:
    """The host name of a Host header or an Origin (port and scheme dropped; IPv6 brackets
    removed; lower case)."""
    h = header.strip().lower()
    if "://" in h:
        h = h.split("://", 1)[1]
    h = h.split("/", 1)[0]
    if h.startswith("["):
        return h[1:].split("]", 1)[0]
    return h.rsplit(":", 1)[0] if h.count(":") == 1 else h
