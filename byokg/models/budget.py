"""The LLM call budget of one question (``RunConfig.max_llm_calls``).

The engine wraps the run's LLM once per question in a :class:`BudgetedLLM`; every stage reaches
the model through ``request.services.llm``, so every call (the KG-Linker's, a tool's, a query
repair's, the answer's) is counted against one :class:`CallBudget`. A call beyond the budget
raises :class:`BudgetExhausted` (an :class:`~byokg.errors.LLMError`), which stages treat like a
failed call: they stop with what they have. ``reserve`` keeps calls back for later stages (the
engine keeps one for the answer while the proposer and the tools run).
"""

from __future__ import annotations

import threading
from typing import Any

from byokg.cancel import check as check_cancelled
from byokg.errors import LLMError


class BudgetExhausted(LLMError):
    """The question's LLM call budget is spent (``code == "budget"``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="budget")


class CallBudget:
    """Thread-safe count of one question's LLM calls against an optional limit."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.used = 0
        self.refused = 0
        self.reserve = 0
        self._lock = threading.Lock()

    def left(self) -> int | None:
        """Calls still allowed (None: no limit), the reserve not subtracted."""
        with self._lock:
            return None if self.limit is None else max(0, self.limit - self.used)

    def can_spend(self, n: int = 1) -> bool:
        """Whether ``n`` calls fit besides the reserve."""
        with self._lock:
            return self.limit is None or self.used + n + self.reserve <= self.limit

    def take(self) -> None:
        with self._lock:
            if self.limit is not None and self.used + 1 + self.reserve > self.limit:
                self.refused += 1
                raise BudgetExhausted(
                    f"LLM call budget of {self.limit} per question spent ({self.used} made"
                    + (f", {self.reserve} kept for the answer" if self.reserve else "") + ")")
            self.used += 1


class BudgetedLLM:
    """An LLM whose calls are counted against a :class:`CallBudget` (everything else is the
    wrapped model's)."""

    def __init__(self, llm: Any, budget: CallBudget) -> None:
        self.llm = llm
        self.budget = budget
        self.name = llm.name

    def complete(self, prompt: str, **kwargs: Any) -> Any:
        check_cancelled()  # a stopped question makes no call, whatever the model
        self.budget.take()
        return self.llm.complete(prompt, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.llm, name)


def budgeted(llm: Any, budget: CallBudget) -> Any:
    """``llm`` counted against ``budget``; None stays None (a run without an LLM)."""
    return None if llm is None else BudgetedLLM(llm, budget)
