"""Base classes for retrieval tools and entity linkers, and the shared services they use.

A tool is registered through the ``register_tools`` hook as ``register(name, factory)``; the
factory returns a :class:`Tool` (retrieval: returns ContextItems) or a :class:`Linker`
(links mentions to node ids). Tools declare the store capabilities they need and whether they
need an LLM; the engine offers a tool only where both are met.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict

from .config import RunConfig
from .contracts import Artifacts, ContextItem, LLMCall, MentionLinks, TraceEvent
from .store import GraphStore

if TYPE_CHECKING:
    from .models import LLM, Embedder, Reranker


class ToolParams(BaseModel):
    """Base of every tool's parameters; unknown fields are an error naming the field."""

    model_config = ConfigDict(extra="forbid")


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
        self.cache: dict[str, Any] = {}  # per-run caches shared by tools (indexes, embeddings)

    @property
    def llm(self) -> LLM | None:
        with self._lock:
            if not self._llm_built:
                self._llm_built = True
                spec = self.config.llm
                if spec and spec != "none":
                    from .llm import create_llm  # provided by the engine issue

                    self._llm = create_llm(spec, **self.config.llm_options)
            return self._llm

    @property
    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                from .linking.embedders import create_embedder  # provided by the linking issue

                self._embedder = create_embedder(self.config.embedder, **self.config.embedder_options)
            return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        """The configured cross-encoder, or None (callers fall back to embedder cosine)."""
        with self._lock:
            if self._reranker is None and self.config.reranker:
                from . import registry

                self._reranker = registry.rerankers().create(
                    self.config.reranker, **self.config.reranker_options
                )
            return self._reranker

    def shared(self, key: str, build: Any) -> Any:
        """Get-or-build a per-run cached object (e.g. an index) under ``key``."""
        with self._lock:
            if key not in self.cache:
                self.cache[key] = build()
            return self.cache[key]


@dataclass
class ToolRequest:
    """What the engine hands a retrieval tool for one iteration."""

    question: str
    store: GraphStore
    services: Services
    params: ToolParams
    iteration: int = 0
    artifacts: Artifacts = field(default_factory=Artifacts)
    entities: list[MentionLinks] = field(default_factory=list)  # linked question entities
    answers: list[MentionLinks] = field(default_factory=list)  # linked draft answers
    context: list[ContextItem] = field(default_factory=list)  # merged context so far

    @property
    def entity_ids(self) -> list[str]:
        return list(dict.fromkeys(i for m in self.entities for i in m.ids))

    @property
    def answer_ids(self) -> list[str]:
        return list(dict.fromkeys(i for m in self.answers for i in m.ids))


@dataclass
class ToolResult:
    items: list[ContextItem] = field(default_factory=list)
    events: list[TraceEvent] = field(default_factory=list)
    llm_calls: list[LLMCall] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def event(self, source: str, message: str, *, level: str = "info", **data: Any) -> None:
        self.events.append(TraceEvent(level=level, source=source, message=message, data=data))


class Tool(ABC):
    """A retrieval tool: one iteration's request in, ContextItems (with provenance) out."""

    kind: ClassVar[str] = "retrieval"
    name: ClassVar[str] = ""  # said once: here, with register(ToolClass)
    description: ClassVar[str] = ""
    requires: ClassVar[frozenset[str]] = frozenset()  # store capabilities
    needs_llm: ClassVar[bool] = False
    default: ClassVar[bool] = True  # part of the default multi-strategy set
    Params: ClassVar[type[ToolParams]] = ToolParams

    def applicable(self, store: GraphStore, services: Services) -> bool:
        caps = getattr(store, "capabilities", frozenset())
        if not self.requires <= caps:
            return False
        return not (self.needs_llm and services.llm is None)

    @abstractmethod
    def run(self, request: ToolRequest) -> ToolResult: ...


class Linker(ABC):
    """Links mentions (entity names, draft answers) to graph nodes, grouped per mention."""

    kind: ClassVar[str] = "linker"
    name: ClassVar[str] = ""  # a lazily registered linker gets its registered name
    description: ClassVar[str] = ""
    requires: ClassVar[frozenset[str]] = frozenset()
    needs_llm: ClassVar[bool] = False
    default: ClassVar[bool] = False
    Params: ClassVar[type[ToolParams]] = ToolParams

    def applicable(self, store: GraphStore, services: Services) -> bool:
        return self.requires <= getattr(store, "capabilities", frozenset())

    @abstractmethod
    def link(
        self,
        mentions: Sequence[str],
        *,
        store: GraphStore,
        services: Services,
        params: ToolParams,
    ) -> list[MentionLinks]: ...
