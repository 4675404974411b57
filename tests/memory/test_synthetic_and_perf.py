"""The synthetic KG generator and the perf harness (benchmarks/ is not installed)."""

from __future__ import annotations

import json
import re
from collections import Counter

import numpy as np
import pytest
from byokg.backends.memory import load_path

from benchmarks import perf
from benchmarks import synthetic


def test_deterministic_and_distinct():
    a = list(synthetic.generate(5_000, seed=1))
    assert a == list(synthetic.generate(5_000, seed=1))
    assert a != list(synthetic.generate(5_000, seed=2))
    assert len(a) == len(set(a)) == 5_000
    assert all(h != t for h, _, t in a)
    assert all(x and not re.search(r'[,"\t\n]', x) for row in a for x in row)


def test_power_law_hubs_and_node_kinds():
    kg = synthetic.build(20_000, seed=0)
    out_deg = np.bincount(kg.heads, minlength=len(kg.node_names))
    in_deg = np.bincount(kg.tails, minlength=len(kg.node_names))
    deg = out_deg + in_deg
    assert deg.min() >= 1  # every listed node is used
    assert deg.max() > 100 * np.median(deg)  # a few huge hubs
    assert np.median(deg) <= 4
    assert ((out_deg > 0) & (in_deg == 0)).sum() > 100  # heads only
    assert ((out_deg == 0) & (in_deg > 0)).sum() > 100  # tails only


def test_relations_freebase_style():
    kg = synthetic.build(50_000, seed=0)
    assert len(kg.relation_names) == len(set(kg.relation_names)) == 2000
    assert all(re.fullmatch(r"[a-z_]+\.[a-z_]+\.[a-z_]+", r) for r in kg.relation_names)
    used = np.unique(kg.rels)
    assert 1000 < len(used) <= 2000
    counts = np.bincount(kg.rels)
    assert counts.max() > 50 * np.median(counts[counts > 0])  # skewed like real KGs


def test_names_share_tokens():
    names = synthetic.names(5_000)
    assert len(names) == len(set(names)) == 5_000
    assert not any(n.startswith("m.0") for n in names)
    tokens = Counter(t for n in names for t in set(n.split()))
    # many names share a token with many others: fuzzy linking has near misses
    assert all(c >= 50 for _, c in tokens.most_common(20))
    assert names == synthetic.names(5_000)


def test_write_csv_round_trip(tmp_path, edge_set):
    p = synthetic.write_csv(tmp_path / "s.csv", 3_000, seed=5)
    assert open(p, encoding="utf-8").readline() == "head,relation,tail\n"
    g, rep = load_path(p)
    assert rep.rows == 3_000 and rep.bad_rows == 0 and rep.duplicates == 0
    assert edge_set(g) == set(synthetic.generate(3_000, seed=5))


def test_perf_sections_discovered_and_failures_are_rows():
    assert "memory" in perf.discover()
    results, errors, reference, elapsed = perf.run_sections(["no_such_section"], 10)
    assert "no_such_section" in errors and "ModuleNotFoundError" in errors["no_such_section"]
    table = perf.format_table(results, errors, reference)
    assert "no_such_section  ERROR" in table


@pytest.mark.slow
def test_perf_memory_section_end_to_end(tmp_path, capsys):
    out = tmp_path / "perf.json"
    rc = perf.main(["--scale", "3000", "--only", "memory", "--quick", "--json", str(out)])
    data = json.loads(out.read_text())
    assert rc == 0 and data["errors"] == {} and data["scale"] == 3000
    mem = data["results"]["memory"]
    assert mem["triplets"] == 3000 and mem["load_s"] > 0 and mem["rss_mb"] > 0
    assert mem["nbr_batch1000_triplets"] > 0
    assert data["reference"]["memory"]["load_s"]["anchor"] == 11.5
    assert "machine" in data and data["machine"]["cpu_count"] >= 1
    printed = capsys.readouterr().out
    assert re.search(r"memory\s+load_s\s+[\d.]+\s+anchor 11.5 s; goal <= 5 s (MET|MISSED)", printed)


@pytest.mark.slow
@pytest.mark.parametrize("section", ["engine", "paths", "linking"])
def test_perf_sections_run_against_the_current_api(section):
    """A section that calls an API the code no longer has fails here, not in a closing note."""
    results, errors, _, _ = perf.run_sections([section], 3000, quick=True)
    assert errors == {} and results[section]
