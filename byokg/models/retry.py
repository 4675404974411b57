"""Retries with capped exponential back-off and full jitter, the one policy of the project.

The LLM providers (:class:`byokg.models.base.BaseLLM`) and the Neptune backend retry transient
failures with it: attempt ``n`` (0-based) waits ``uniform(0, min(cap, base * 2**n))`` before the
next one ("full jitter"), so clients that failed together do not retry together.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from byokg.errors import ConfigError


class RetryPolicy:
    """How often and how long to wait between attempts: ``retries`` after the first attempt,
    each wait drawn from ``[0, min(cap_s, base_s * 2**n)]``."""

    def __init__(self, retries: int = 4, base_s: float = 0.5, cap_s: float = 20.0, *,
                 sleep: Callable[[float], None] | None = None,
                 rng: random.Random | None = None) -> None:
        if retries < 0 or base_s < 0 or cap_s < 0:
            raise ConfigError(f"retry policy: retries, base and cap must be >= 0 (got {retries}, "
                              f"{base_s:g}, {cap_s:g})")
        self.retries, self.base_s, self.cap_s = retries, base_s, cap_s
        self._sleep = sleep
        self.rng = rng or random.Random()

    @property
    def attempts(self) -> int:
        return self.retries + 1

    def delay(self, attempt: int) -> float:
        """The wait after failed attempt ``attempt`` (0-based)."""
        return self.rng.uniform(0.0, min(self.cap_s, self.base_s * (2**attempt)))

    def delays(self) -> list[float]:
        """One wait per retry, in order."""
        return [self.delay(i) for i in range(self.retries)]

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (through the ``sleep`` given, so tests need not really wait)."""
        (self._sleep if self._sleep is not None else sleep)(max(0.0, seconds))


def sleep(seconds: float) -> None:  # indirection so tests can skip real sleeping
    """Wait between attempts; a stopped question (:mod:`byokg.cancel`) ends the wait at once."""
    from byokg.cancel import current
    from byokg.cancel import sleep as cancellable_sleep

    if current() is None:
        time.sleep(seconds)
    else:
        cancellable_sleep(seconds)
