"""The Freebase-size benchmark at toy scale: the generator's shape, its questions' gold answers,
and the measuring child end to end (the 35M run itself is not a test)."""

from __future__ import annotations

import json
import re
from collections import Counter

import numpy as np
import pytest

from benchmarks import bench_freebase_scale as fb
from benchmarks import perf


@pytest.fixture(scope="module")
def graph():
    return fb.generate(40_000, seed=3)


def test_freebase_shape(graph):
    n = len(graph.nodes)
    assert len(graph.heads) == 40_000 and len(set(graph.nodes)) == n  # distinct node strings
    keys = (graph.heads.astype(np.int64) * len(graph.relations) + graph.rels) * n + graph.tails
    assert len(np.unique(keys)) == 40_000  # distinct triplets
    assert all(r.count(".") >= 2 for r in graph.relations)  # domain.type.property
    assert not any(re.search(r"[,\"\n]", x) for x in graph.nodes)  # plain CSV, no quoting
    cvt = np.flatnonzero(graph.kind == 1)
    assert all(re.fullmatch(r"m\.0[0-9a-z_]+", graph.nodes[i]) for i in cvt[:200])
    out_deg = np.bincount(graph.heads, minlength=n)
    in_deg = np.bincount(graph.tails, minlength=n)
    used = cvt[(out_deg[cvt] + in_deg[cvt]) > 0]
    assert np.median(out_deg[used]) >= 2  # a CVT carries an n-ary fact
    assert (in_deg[used] >= 1).mean() > 0.9  # and hangs off its owner (a few trimmed)
    deg = out_deg + in_deg
    assert deg.max() > 50 * np.median(deg[deg > 0])  # hubs
    assert graph.nodes[int(deg.argmax())] in ("Male", "Female")
    kinds = Counter(graph.kind.tolist())
    assert kinds[0] > kinds[1] > kinds[2] > 0  # named > CVT > literal


def test_questions_gold_is_what_the_graph_says(graph):
    qs = fb.make_questions(graph, 30, seed=1)
    assert Counter(q["kind"] for q in qs) == {"one-hop": 18, "cvt": 7, "literal": 5}
    index = {x: i for i, x in enumerate(graph.nodes)}
    rel = {x: i for i, x in enumerate(graph.relations)}
    assert all(q["path"][-1].rsplit(".", 1)[-1].replace("_", " ") in q["question"] for q in qs)
    for q in qs:
        head = index[q["topic"]]
        assert q["topic"] in q["question"] and graph.kind[head] == 0
        ends = {head}
        for name in q["path"]:  # follow the question's relation path through the graph
            step = np.isin(graph.heads, list(ends)) & (graph.rels == rel[name])
            ends = set(graph.tails[step].tolist())
        assert set(q["answers"]) == {graph.nodes[t] for t in ends} != set()
        if q["kind"] == "cvt":
            assert len(q["path"]) == 2 and graph.kind[graph.tails[
                (graph.heads == head) & (graph.rels == rel[q["path"][0]])]].tolist()[0] == 1


def test_csv_reads_back_through_the_fast_reader(graph, tmp_path):
    from byokg.backends.memory import load_path

    path = tmp_path / "fb.csv"
    fb.write_csv(graph, path)
    assert path.read_text().splitlines()[0] == "head,relation,tail"
    g, rep = load_path(path)
    assert len(g) == 40_000 and rep.duplicates == 0 and len(g._ids) == int(
        (np.bincount(np.concatenate([graph.heads, graph.tails]), minlength=len(graph.nodes))
         > 0).sum())


def test_section_is_wired_into_perf():
    assert "freebase_scale" in perf.discover()


@pytest.mark.slow
def test_section_runs_end_to_end(tmp_path):
    res: dict = {}
    fb.run(20_000, res, quick=True, questions=6, data_dir=str(tmp_path))
    assert res["triplets"] == 20_000 and "child_error" not in res
    for key in ("load_s", "rss_mb", "peak_rss_mb", "profile_s", "name_index_s",
                "offline_p50_ms", "offline_p95_ms", "hit_at_1", "load_loadavg"):
        assert isinstance(res[key], int | float), key
    assert res["questions"] == 5 and 0.4 <= res["hit_at_1"] <= 1.0
    manifest = json.loads((tmp_path / "freebase_shape_20000.json").read_text())
    assert manifest["triplets"] == 20_000 and res["generated_reused"] is False
    assert fb.prepare(20_000, tmp_path, 6)[2]["reused"] is True  # kept files are reused
    table = perf.format_table({"freebase_scale": res}, {}, {"freebase_scale": fb.REFERENCE})
    assert re.search(r"freebase_scale\s+load_s\s+[\d.]+\s+goal <= 60 s (MET|MISSED)", table)
