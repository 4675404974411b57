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
