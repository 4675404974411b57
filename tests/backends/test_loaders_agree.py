"""Every backend's ``byokg load`` reads triple files through the same core readers
(byokg.io.readers): the same sources give the same counts, the same skipped rows with the same
reasons, and the same graph, whichever store they go into."""

from __future__ import annotations

import pytest

from byokg.contracts import Direction
from byokg.errors import InputError
from byokg.graph.open import open_graph
from byokg.io.loading import load_into


@pytest.fixture
def sources(tmp_path):
    """A CSV with a bad row and a duplicate, a TSV, and JSONL node records with names."""
    d = tmp_path / "src"
    d.mkdir()
    (d / "a.csv").write_text(
        "subject,predicate,object\nAda,knows,Bob\nAda,knows,Bob\nBob,,Cy\n"
        '"Cy, Jr.",lives_in,Paris\n', encoding="utf-8")
    (d / "b.tsv").write_text("source\ttarget\trelation\nBob\tParis\tlives_in\nParis\tFrance\tin\n",
                             encoding="utf-8")  # the header says the column order
    (d / "nodes.jsonl").write_text(
        '{"id": "Ada", "name": "Ada Lovelace", "aliases": ["Ada King"]}\n'
        '{"id": "Paris", "labels": ["City"]}\n', encoding="utf-8")
    return [str(d / "a.csv"), str(d / "b.tsv"), str(d / "nodes.jsonl")]


def _loaded(into: str, sources: list[str]):
    summary = load_into(sources, into, skip_bad_rows=True)
    return summary, open_graph(into)


def _facts(store) -> tuple:
    ids = ["Ada", "Bob", "Cy, Jr.", "Paris", "France"]
    hoods = store.neighbors(ids, direction=Direction.OUT)
    edges = sorted(t.key for h in hoods.values() for t in h.triplets)
    return edges, store.display_names(["Ada", "Bob"]), store.stats().triplets


def _check_same(summary, store, ref_summary, ref_store):
    for field in ("nodes", "triplets", "duplicates", "bad_rows", "reasons"):
        assert getattr(summary, field) == getattr(ref_summary, field), field
    assert summary.bad_rows == 1 and "empty relation field" in summary.reasons[0]
    assert _facts(store) == _facts(ref_store)


def test_memory_and_kuzu_loaders_agree(sources, tmp_path):
    ref = _loaded(f"memory:{tmp_path / 'kg.jsonl'}", sources)
    assert ref[0].triplets == 4 and ref[0].duplicates == 1 and ref[0].nodes == 5
    kuzu = _loaded(f"kuzu:{tmp_path / 'kg.kz'}", sources)
    try:
        _check_same(*kuzu, *ref)
    finally:
        kuzu[1].close()


@pytest.mark.server
def test_bolt_loader_agrees_with_memory(sources, tmp_path, bolt_server):
    ref = _loaded(f"memory:{tmp_path / 'kg.jsonl'}", sources)
    db = bolt_server.create_database("loaders_agree")
    bolt = _loaded(bolt_server.uri_for(db), sources)
    try:
        _check_same(*bolt, *ref)
    finally:
        bolt[1].close()


def test_a_failed_load_leaves_no_half_written_database(tmp_path):
    """Every row bad: the readers refuse before the Kùzu database is created."""
    bad = tmp_path / "bad.csv"
    bad.write_text("head,relation,tail\na,b\nc,d\n", encoding="utf-8")
    target = tmp_path / "never.kz"
    with pytest.raises(InputError, match="no triplets loaded"):
        load_into([str(bad)], f"kuzu:{target}", skip_bad_rows=True)
    assert not target.exists()
