"""The run's services: its lazily built LLM, embedder and reranker and the caches shared by every
stage (indexes, the profile, vectors); :meth:`Services.for_question` gives one question's view,
its LLM counted against the question's call budget and a scratch space that lives as long as
the question."""

from __future__ import annotations

import threading
from collections.abc import Callable
from collections.abc import Hashable
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

from byokg.config import RunConfig

if TYPE_CHECKING:
    from byokg.models.base import LLM
    from byokg.models.base import Embedder
    from byokg.models.base import Reranker

_T = TypeVar("_T")


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
                from byokg import registry

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
        LLM counted against ``budget`` (a :class:`byokg.models.budget.CallBudget`)."""
        return _QuestionServices(self, budget)

    def with_own_caches(self) -> Services:
        """A view of these services with caches of its own and the same models (built once, on
        first use, here): for a graph that lives as long as one question, whose indexes are
        dropped with it."""
        return _SharedModels(self)

    def without_llm(self, config: RunConfig) -> Services:
        """A view of these services with no LLM and another config (the hybrid strategy's
        offline pass): the same embedder, reranker and caches."""
        return _QuestionServices(self, None, config=config, llm=False)

    def per_question(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """Get-or-build something that lives as long as one question (a query's result that a
        later stage or round would otherwise run again). Outside a question: built each time."""
        return build()

    def peek(self, key: Hashable) -> Any:
        """What :meth:`per_question` holds under ``key`` for this question (None: nothing)."""
        return None

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` under ``key`` for the rest of this question (no-op outside one)."""


class _SharedModels(Services):
    """Services whose models are ``base``'s (built there, on first use), with their own
    config reference, lock and caches."""

    def __init__(self, base: Services) -> None:
        super().__init__(base.config)
        self.base = base

    @property
    def llm(self) -> LLM | None:
        return self.base.llm

    @property
    def embedder(self) -> Embedder:
        return self.base.embedder

    @property
    def reranker(self) -> Reranker | None:
        return self.base.reranker


class _QuestionServices(_SharedModels):
    """Services of one question: everything delegated to the run's (its caches too), the LLM
    budgeted."""

    def __init__(self, base: Services, budget: Any, *, config: RunConfig | None = None,
                 llm: bool = True) -> None:
        from byokg.models.budget import budgeted

        self.base = base
        self.config = config or base.config
        self.cache = base.cache
        self._lock = base._lock
        self.budget = budget
        self._question_llm = budgeted(base.llm, budget) if llm else None
        self._scratch: dict[Hashable, Any] = {}
        self._scratch_lock = threading.Lock()

    @property
    def llm(self) -> LLM | None:
        return self._question_llm

    def shared(self, key: Hashable, build: Callable[[], _T]) -> _T:
        return self.base.shared(key, build)

    def for_question(self, budget: Any) -> Services:
        if self._question_llm is None and self.config is not self.base.config:
            return _QuestionServices(self.base, budget, config=self.config, llm=False)
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
