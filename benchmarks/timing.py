"""Small timing helpers shared by the benchmark sections."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def p50_ms(fn: Callable[[], object], reps: int) -> float:
    """Median wall time of ``reps`` calls of ``fn``, in ms (two decimals)."""
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(times), 2)


def timed_asks(engine: object, questions: list[tuple[str, str]]) -> tuple[list[float], int]:
    """Ask each ``(question, gold)``: sorted latencies in ms and how many first answers were
    the gold one."""
    lat, hits = [], 0
    for q, gold in questions:
        t0 = time.perf_counter()
        a = engine.ask(q)  # type: ignore[attr-defined]
        lat.append(1000 * (time.perf_counter() - t0))
        hits += bool(a.answers) and a.answers[0] == gold
    return sorted(lat), hits
