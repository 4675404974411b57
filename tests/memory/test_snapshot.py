"""The parsed copy of a ``memory:`` graph's files kept in the cache folder (byokg.io.snapshot):
the next open reads it instead of parsing, any change to the files or options parses again, the
parse's warnings come back with it, and a damaged copy is parsed over, never trusted."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import byokg.backends.memory as memory
import pytest

from byokg.graph.open import open_graph
from byokg.io import snapshot


def _write_graph(path: Path, *, bad_row: bool = False, extra: str = "") -> None:
    """A typed JSONL graph over the snapshot threshold: people (names that are not their ids,
    aliases, labels, properties with dates and numbers) born in towns, since a year kept on
    the relationship."""
    import json

    rows = []
    for i in range(97):
        rows.append({"id": f"town_{i}", "name": f"Town {i}", "labels": ["Town"]})
    for i in range(3000):
        rows.append({"id": f"person_{i}", "name": f"Person Number {i}", "labels": ["Person"],
                     "aliases": [f"P{i}"], "properties": {"born": f"19{i % 100:02d}-01-02",
                                                          "height": 1.5 + i % 50 / 100}})
        rows.append({"head": f"person_{i}", "relation": "bornIn", "tail": f"town_{i % 97}",
                     "properties": {"since": 1900 + i % 100}})
        rows.append({"head": f"person_{i}", "relation": "knows",
                     "tail": f"person_{(i * 7) % 3000}"})
    lines = [json.dumps(r) for r in rows]
    if bad_row:
        lines.append('{"head": "only_a_head"}')
    lines.append(extra or json.dumps({"head": "person_0", "relation": "likes", "tail": "town_1"}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert path.stat().st_size >= snapshot.MIN_BYTES


def _snapshots(cache: Path) -> list[Path]:
    return sorted((cache / "graphs").glob("*.npz")) if (cache / "graphs").is_dir() else []


def _facts(store) -> tuple:
    """What a reader of the graph sees: every triplet with its properties, every node's name,
    labels, aliases and properties, and the counts."""
    ids = [i for batch in store.iter_node_names() for i, _ in batch]
    nodes = store.get_nodes(ids)
    hoods = store.neighbors(ids, direction="out")
    rows = sorted((t.head, t.relation, t.tail, tuple(sorted((t.properties or {}).items())))
                  for h in hoods.values() for t in h.triplets)
    return (len(store), str(store.stats()), rows,
            sorted((n.id, n.name, tuple(n.labels), tuple(sorted(n.properties.items())))
                   for n in nodes.values() if n is not None))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("BYOKG_CACHE_DIR", str(folder))
    return folder


def test_second_open_reads_the_snapshot_not_the_files(tmp_path, cache, monkeypatch):
    src = tmp_path / "people.jsonl"
    _write_graph(src)
    first = open_graph(f"memory:{src}")
    assert len(_snapshots(cache)) == 1

    def no_parse(*_a, **_k):
        raise AssertionError("the files were parsed again")

    monkeypatch.setattr(memory, "read_sources", no_parse)
    second = open_graph(f"memory:{src}")
    assert _facts(second) == _facts(first)
    node = second.get_nodes(["person_5"])["person_5"]
    assert (node.name, node.labels) == ("Person Number 5", ("Person",)) or (
        node.name == "Person Number 5" and "Person" in node.labels)
    assert node.properties == first.get_nodes(["person_5"])["person_5"].properties


def test_changed_file_or_options_parse_again(tmp_path, cache):
    src = tmp_path / "people.jsonl"
    _write_graph(src)
    before = open_graph(f"memory:{src}")
    _write_graph(src, extra='{"head": "person_1", "relation": "likes", "tail": "town_2"}')
    os.utime(src, ns=(src.stat().st_atime_ns, src.stat().st_mtime_ns + 1_000_000))
    after = open_graph(f"memory:{src}")
    likes = {(t.head, t.tail) for h in after.neighbors(["person_0", "person_1"],
                                                        relations=["likes"]).values()
             for t in h.triplets}
    assert likes == {("person_1", "town_2")}
    assert _facts(after) != _facts(before)
    assert len(_snapshots(cache)) == 1  # the new version's copy replaced the old one


def test_warnings_of_the_parse_come_back_with_the_snapshot(tmp_path, cache, caplog):
    src = tmp_path / "people.jsonl"
    _write_graph(src, bad_row=True)
    uri = f"memory:{src}?skip_bad_rows=1"
    with caplog.at_level(logging.WARNING, logger="byokg.backends.memory"):
        open_graph(uri)
        first = [r.getMessage() for r in caplog.records if "bad rows" in r.getMessage()]
        caplog.clear()
        again = open_graph(uri)
        second = [r.getMessage() for r in caplog.records if "bad rows" in r.getMessage()]
    assert first and second == first
    assert again.stats().bad_rows_skipped == 1


def test_a_damaged_snapshot_is_parsed_over(tmp_path, cache, caplog):
    src = tmp_path / "people.jsonl"
    _write_graph(src)
    good = _facts(open_graph(f"memory:{src}"))
    (snap,) = _snapshots(cache)
    snap.write_bytes(b"not a snapshot")
    with caplog.at_level(logging.WARNING, logger="byokg.io.snapshot"):
        assert _facts(open_graph(f"memory:{src}")) == good
    assert any("could not be read" in r.getMessage() for r in caplog.records)
    assert snap.read_bytes()[:2] == b"PK"  # rewritten as a real archive


def test_no_cache_folder_no_snapshot(tmp_path, monkeypatch):
    monkeypatch.setenv("BYOKG_CACHE_DIR", "off")
    src = tmp_path / "people.jsonl"
    _write_graph(src)
    assert len(open_graph(f"memory:{src}")) == 6001
    assert not list(tmp_path.rglob("*.npz"))


def test_small_files_are_not_kept(tmp_path, cache):
    src = tmp_path / "tiny.csv"
    src.write_text("head,relation,tail\na,r,b\n", encoding="utf-8")
    assert len(open_graph(f"memory:{src}")) == 1
    assert _snapshots(cache) == []
