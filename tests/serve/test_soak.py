"""Soak (issue 26): 200 mixed requests, hostile ones included, against ``byokg serve --http``
while 50 slow clients hold connections open; ``/health`` answers throughout and the server's
memory stays bounded. The figures: ``python -m benchmarks.perf --only soak``."""

from __future__ import annotations

import pytest

pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from benchmarks.bench_soak import soak  # noqa: E402

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_soak_with_slow_clients_open():
    out = soak(n_requests=200, n_slow=50)
    assert out["soak_unexpected"] == 0, (out["_unexpected"], out["_statuses"])
    assert out["soak_health_failures"] == 0, out["_health_failures"]
    assert out["soak_health_ok"] >= 10  # the prober got answers all along
    assert out["soak_framing_status"] in (400, 413)
    assert out["soak_slow_reconnects"] > 0  # slow clients are dropped (and came back)
    growth = out["soak_rss_peak_mb"] - out["soak_rss_start_mb"]
    assert growth < 300, out  # a 200 KiB body per request never grows the server by much
