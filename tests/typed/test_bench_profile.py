"""benchmarks/bench_profile.py runs against the current API (quick: no Bolt server)."""

from __future__ import annotations

import pytest

from benchmarks import perf

pytest.importorskip("kuzu")


@pytest.mark.slow
def test_profile_section_runs_and_reports_its_figures(shared_data):
    if not (shared_data / "northwind" / "graph" / "import").is_dir():
        pytest.fail("Northwind CSVs not found (set BYOKG_SHARED_DATA)")
    results, errors, _, _ = perf.run_sections(["profile"], 3000, quick=True)
    assert errors == {}
    got = results["profile"]
    assert got["profile_memory_relations"] > 0
    # 2 per node table, 4 per rel table (count, sample, distinct heads and tails)
    assert got["profile_northwind_kuzu_queries"] == 26
    assert got["profile_cache_kuzu_hit"] == 1
    assert 0.0 <= got["typed_hit_at_1"] <= 1.0 and got["first_prompt_chars"] > 1000
