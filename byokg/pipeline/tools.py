"""Base classes for retrieval tools and entity linkers, and the shared services they use.

A tool is registered through the ``register_tools`` hook as ``register(name, factory)``; the
factory returns a :class:`Tool` (retrieval: returns ContextItems) or a :class:`Linker`
(links mentions to node ids). Tools declare the store capabilities they need and whether they
need an LLM; the engine offers a tool only where both are met.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict

from byokg.config import RunConfig
from byokg.contracts import Artifacts, ContextItem, LLMCall, MentionLinks, TraceEvent
from byokg.graph.store import GraphStore

if TYPE_CHECKING:
    from byokg.graph.profile import GraphProfile
    from byokg.language.analysis import QuestionAnalysis
    from byokg.models.base import LLM, Embedder, Reranker


_T = TypeVar("_T")

class ToolParams(BaseModel):
    """Base of every tool's parameters; unknown fields are an error naming the field."""

    model_config = ConfigDict(extra="forbid")


def as_params(given: Any, model: type[ToolParams]) -> Any:
    """``given`` (a params model, a dict or None) validated as ``model``."""
    if isinstance(given, model):
        return given
    data = given.model_dump() if hasattr(given, "model_dump") else dict(given or {})
    return model(**data)


class Services:
    """Shared, lazily built models for one run: LLM, embedder, reranker, linker.

    Building is thread-safe; each is created once per Services object.
    """

    def __init__(
        self,
        config: RunConfig | None = None,
        *,
        llm: LLM | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self.config = config or RunConfig()
        self._llm = llm
        self._embedder = embedder
        self._reranker = reranker
        self._llm_built = llm is not None
        self._lock = threading.RLock()
        self.cache: dict[Hashable, Any] = {}  # per-run caches shared by tools (indexes, embeddings)

    @property
    def llm(self) -> LLM | None:
        with self._lock:
            if not self._llm_built:
                self._llm_built = True
                spec = self.config.llm
                if spec and spec != "none":
                    from byokg.models.llm import create_llm

                    self._llm = create_llm(spec, **self.config.llm_options)
            return self._llm

    @property
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                from byokg.models.embedders import create_embedder

                self._embedder = create_embedder(self.config.embedder, **self.config.embedder_options)
            return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        """The configured cross-encoder, or None (callers fall back to embedder cosine)."""
        with self._lock:
            if self._reranker is None and self.config.reranker:
                from byokg.pipeline import registry

                self._reranker = registry.rerankers().create(
                    self.config.reranker, **self.config.reranker_options
                )
            return self._reranker

    def shared(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """Get-or-build a per-run cached object (e.g. an index) under ``key`` (a string or a
        tuple naming the store and what is built)."""
        with self._lock:
            if key not in self.cache:
                self.cache[key] = build()
            return self.cache[key]

    def for_question(self, budget: Any) -> Services:
        """A view of these services for one question: the same models, caches and config, the
        LLM counted against ``budget`` (a :class:`byokg.pipeline.budget.CallBudget`)."""
        return _QuestionServices(self, budget)

    def per_question(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """Get-or-build something that lives as long as one question (a query's result that a
        later stage or round would otherwise run again). Outside a question: built each time."""
        return build()

    def peek(self, key: Hashable) -> Any:
        """What :meth:`per_question` holds under ``key`` for this question (None: nothing)."""
        return None

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key`` for the rest of this question (no-op outside one)."""


class _QuestionServices(Services):
    """Services of one question: everything delegated to the run's, the LLM budgeted."""

    def __init__(self, base: Services, budget: Any) -> None:
        from byokg.pipeline.budget import budgeted

        self.base = base
        self.config = base.config
        self.cache = base.cache
        self._lock = base._lock
        self.budget = budget
        self._question_llm = budgeted(base.llm, budget)
        self._scratch: dict[Hashable, Any] = {}
        self._scratch_lock = threading.Lock()

    @property
    def llm(self) -> LLM | None:
        return self._question_llm

    @property
    def embedder(self) -> Embedder:
        return self.base.embedder

    @property
    def reranker(self) -> Reranker | None:
        return self.base.reranker

    def shared(self, key: Hashable, build: Callable[[], _T]) -> _T:
        return self.base.shared(key, build)

    def for_question(self, budget: Any) -> Services:
        return self.base.for_question(budget)

    def per_question(self, key: Hashable, build: Callable[[], _T]) -> _T:
        with self._scratch_lock:
            if key in self._scratch:
                return self._scratch[key]
        value = build()  # outside the lock: tools of one round build side by side
        with self._scratch_lock:
            return self._scratch.setdefault(key, value)

    def peek(self, key: Hashable) -> Any:
        with self._scratch_lock:
            return self._scratch.get(key)

    def put(self, key: Hashable, value: Any) -> None:
        with self._scratch_lock:
            self._scratch[key] = value


@dataclass
class ToolRequest:
    """What the engine hands a retrieval tool for one round."""

    question: str
    store: GraphStore
    services: Services
    params: ToolParams
    iteration: int = 0
    artifacts: Artifacts = field(default_factory=Artifacts)
    entities: list[MentionLinks] = field(default_factory=list)  # linked question entities
    answers: list[MentionLinks] = field(default_factory=list)  # linked draft answers
    analysis: QuestionAnalysis | None = None  # the question, analysed once (None: built on use)
    profile: GraphProfile | None = None  # the graph's profile (None: built on use)
    llm_calls_used: int = 0  # LLM calls this tool already made for this question
    llm_calls_left: int | None = None  # calls the question's budget still allows (None: no cap)

    def __post_init__(self) -> None:
        if self.analysis is None:
            from byokg.language.analysis import analyze

            self.analysis = analyze(self.question)

    @property
    def entity_ids(self) -> list[str]:
        return list(dict.fromkeys(i for m in self.entities for i in m.ids))

    @property
    def answer_ids(self) -> list[str]:
        return list(dict.fromkeys(i for m in self.answers for i in m.ids))

    def graph_profile(self) -> GraphProfile:
        """The graph's profile (the engine passes it; built once per run otherwise)."""
        if self.profile is None:
            from byokg.graph.profile import get_profile

            self.profile = get_profile(self.store, self.services)
        return self.profile


@dataclass
class StageOutput:
    """Trace material every stage returns (tools, proposers, answerers): events, LLM calls and
    counters; the engine copies it into the question's trace."""

    events: list[TraceEvent] = field(default_factory=list)
    llm_calls: list[LLMCall] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    iteration: int | None = None  # the round the events belong to (the engine fills it in)

    def event(self, source: str, message: str, *, level: str = "info", **data: Any) -> None:
        self.events.append(TraceEvent(level=level, source=source, message=message,
                                      iteration=self.iteration, data=data))


@dataclass
class ToolResult(StageOutput):
    """A retrieval tool's output: context items with provenance, plus trace material."""

    items: list[ContextItem] = field(default_factory=list)


REQUEST_FIELDS = ("entities", "answers", "entity_mentions", "relation_paths", "cypher",
                  "draft_answers")


def request_key(request: ToolRequest, reads: frozenset[str] | None = None) -> str:
    """The request's fields named in ``reads`` (all of :data:`REQUEST_FIELDS` when None) as one
    canonical JSON text."""
    import json

    art = request.artifacts
    values = {
        "entities": request.entity_ids,
        "answers": request.answer_ids,
        "entity_mentions": list(art.entities),
        "relation_paths": [str(r) for r in art.relation_paths],
        "cypher": list(art.cypher),
        "draft_answers": list(art.draft_answers),
    }
    fields = REQUEST_FIELDS if reads is None else tuple(f for f in REQUEST_FIELDS if f in reads)
    return json.dumps({f: values[f] for f in fields}, ensure_ascii=False, sort_keys=True)


def unavailable(obj: Any, store: GraphStore, services: Services) -> str | None:
    """Why a tool or stage cannot run on this store in this run (None: it can)."""
    if obj.applicable(store, services):
        return None
    missing = sorted(set(getattr(obj, "requires", ())) - set(getattr(store, "capabilities", ())))
    if missing:
        return f"needs store capabilities {missing}"
    if getattr(obj, "needs_llm", False) and services.llm is None:
        return "needs an LLM (--llm)"
    return "not applicable"


class Component(ABC):
    """What every registered stage has: a kind, a name said once, the store capabilities and
    LLM it needs, and its parameters model (``RunConfig.params[name]`` is validated by it)."""

    kind: ClassVar[str]
    name: ClassVar[str] = ""  # said once: here, with register(Class); else the registered name
    description: ClassVar[str] = ""
    requires: ClassVar[frozenset[str]] = frozenset()  # store capabilities
    needs_llm: ClassVar[bool] = False
    default: ClassVar[bool] = False  # retrieval tools: part of the default multi-strategy set
    Params: ClassVar[type[ToolParams]] = ToolParams

    def applicable(self, store: GraphStore, services: Services) -> bool:
        caps = getattr(store, "capabilities", frozenset())
        if not self.requires <= caps:
            return False
        return not (self.needs_llm and services.llm is None)


class Tool(Component):
    """A retrieval tool: one round's request in, ContextItems (with provenance) out."""

    kind: ClassVar[str] = "retrieval"
    default: ClassVar[bool] = True
    # the request fields the result depends on (see request_key); None: all of them
    reads: ClassVar[frozenset[str] | None] = None

    def request_key(self, request: ToolRequest) -> str | None:
        """What this tool's result depends on, as text: the engine runs a tool once per question
        for each key (a later round with the same key is a repeat and is skipped). Built from
        the fields named in ``reads`` (``entities``, ``answers``: linked ids; ``entity_mentions``,
        ``relation_paths``, ``cypher``, ``draft_answers``: the proposal's); None never skips."""
        return request_key(request, self.reads)

    def params(self, request: ToolRequest) -> Any:
        """The request's parameters as this tool's ``Params`` model (validated from whatever the
        caller passed: the engine already passes the right model)."""
        return as_params(request.params, self.Params)

    @abstractmethod
    def run(self, request: ToolRequest) -> ToolResult: ...


class Linker(Component):
    """Links mentions (entity names, draft answers) to graph nodes, grouped per mention."""

    kind: ClassVar[str] = "linker"

    @abstractmethod
    def link(
        self,
        mentions: Sequence[str],
        *,
        store: GraphStore,
        services: Services,
        params: ToolParams,
    ) -> list[MentionLinks]: ...
