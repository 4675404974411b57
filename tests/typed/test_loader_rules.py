"""Loaders that refuse to guess: one test per rule, each asserting the exact error line (file,
line, counts, what to do). Header rules of triple CSVs are in tests/memory/test_loaders.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from byokg.cli import cli
from byokg.errors import InputError
from byokg.io.loading import load_into
from byokg.io.pgmapping import PGLoadReport
from byokg.io.pgmapping import PGMapping
from byokg.io.readers import Limits
from byokg.io.readers import load_csv
from byokg.io.readers import load_jsonl
from byokg.io.readers import read_sources

FIX = "; fix the row, or skip bad rows (--skip-bad-rows, BYOKG_SKIP_BAD_ROWS=1 or skip_bad_rows=True)"


def _err(fn, *a, **kw) -> str:
    with pytest.raises(InputError) as ei:
        fn(*a, **kw)
    return str(ei.value)


# --------------------------------------------------------------------------- property graphs

MAPPING = {
    "nodes": [{"label": "Person", "file": "people.csv", "key": "pid",
               "properties": {"pid": "int", "fullName": "string", "born": "date"}}],
    "edges": [{"type": "KNOWS", "file": "knows.csv", "src_label": "Person", "src_column": "a",
               "dst_label": "Person", "dst_column": "b", "properties": {"since": "int"}}],
}


@pytest.fixture()
def pg(tmp_path, write_file):
    write_file(tmp_path / "csv" / "people.csv",
           "pid,fullName,born\n1,Ann Lee,1970-01-02\n2,Bo Chen,1980-05-06\n3,Cy Diaz,\n")
    write_file(tmp_path / "csv" / "knows.csv", "a,b,since\n1,2,2001\n2,3,2004\n")
    m = write_file(tmp_path / "mapping.json", json.dumps(MAPPING))
    return tmp_path / "csv", m


def _nodes(base: Path, m: Path, **kw):
    return list(PGMapping.load(m).iter_nodes(base, **kw))


@pytest.mark.parametrize(("row", "message"), [
    ("4,Di Fox,1990-01-01,extra", "expected 3 fields (as the header), found 4; set extra_fields "
                                  '= "ignore" on this spec in the mapping to drop the extra fields'),
    ("4,Di Fox", "expected 3 fields (as the header), found 2: the row is missing fields"),
    ("4,Di\x00Fox,1990-01-01", "NUL byte in field 'fullName'"),
    ('4,Di "Foxy" Fox,1990-01-01', "a quote inside the unquoted field 'fullName' (field 2); quote "
                                   "the whole field and double the quotes in it"),
    ("4,Di Fox,01/02/1990", "column 'born': '01/02/1990' is not a date"),
])
def test_pg_bad_rows_name_file_line_and_counts(pg, row, message):
    base, m = pg
    people = base / "people.csv"
    people.write_text(people.read_text() + row + "\n", encoding="utf-8")
    assert _err(_nodes, base, m) == f"{people}:5: {message}; fix the row or pass --skip-bad-rows"


def test_pg_skip_bad_rows_lists_and_counts_them(pg, tmp_path):
    base, m = pg
    people = base / "people.csv"
    people.write_text(people.read_text() + "4,Di Fox\n5,Ed Gu,1991-02-03,x\n6,Flo Ha,1992-03-04\n",
                      encoding="utf-8")
    summary = load_into([str(base)], f"kuzu:{tmp_path / 'g.kz'}", mapping=str(m),
                        skip_bad_rows=True)
    assert (summary.nodes, summary.triplets, summary.bad_rows) == (4, 2, 2)
    assert summary.summary().splitlines() == [
        f"loaded 2 triplets over 4 nodes into kuzu:{tmp_path / 'g.kz'}",
        "bad rows skipped: 2; first reasons:",
        f"  {people}:5: expected 3 fields (as the header), found 2: the row is missing fields",
        f"  {people}:6: expected 3 fields (as the header), found 4; set extra_fields = "
        '"ignore" on this spec in the mapping to drop the extra fields',
    ]


def test_pg_extra_fields_ignore_counts_per_file_and_names_lines(pg):
    base, m = pg
    data = json.loads(m.read_text())
    data["nodes"][0]["extra_fields"] = "ignore"
    data["edges"].append({**data["edges"][0], "type": "LIKES"})  # people.csv read once more
    data["edges"][1]["file"] = "people.csv"
    data["edges"][1].update(src_column="pid", dst_column="pid", properties={})
    m.write_text(json.dumps(data))
    people = base / "people.csv"
    people.write_text(people.read_text() + "".join(f"{i},N{i},1990-01-01,x\n" for i in range(4, 12)),
                      encoding="utf-8")
    rep = PGLoadReport()
    mp = PGMapping.load(m)
    list(mp.iter_nodes(base, report=rep))
    with pytest.raises(InputError, match="found 4"):  # the edge spec did not opt in
        list(mp.iter_edges(base, report=rep))
    assert rep.shortened == {"people.csv": list(range(5, 13))}  # counted once per file
    assert rep.summary("t").notes == [
        'people.csv: 8 row(s) had more fields than the header; the extra fields were ignored '
        '(extra_fields = "ignore"), lines 5, 6, 7, 8, 9, …']


def test_pg_mapping_without_relationships_is_an_error(pg, tmp_path):
    base, m = pg
    data = json.loads(m.read_text())
    data["edges"] = []
    m.write_text(json.dumps(data))
    target = tmp_path / "nodes-only.kz"
    assert _err(load_into, [str(base)], f"kuzu:{target}", mapping=str(m)) == (
        f"{m}: no relationships loaded (3 nodes; 0 edge rows without both ends); a graph needs "
        "edges: check the mapping's edge specs")
    assert not target.exists()


def test_pg_files_the_mapping_does_not_name_are_noted(pg, tmp_path, write_file):
    base, m = pg
    write_file(base / "unused.csv", "x\n1\n")
    summary = load_into([str(base)], f"kuzu:{tmp_path / 'g.kz'}", mapping=str(m))
    assert summary.notes == [f"{base}: not named by the mapping, not read: unused.csv"]


# --------------------------------------------------------------------------- triple files


def test_nul_byte_in_a_triple_field(tmp_path, write_file):
    p = write_file(tmp_path / "kg.csv", "head,relation,tail\na,r,b\na,r\x00x,c\n")
    assert _err(load_csv, p) == f"{p}:3: NUL byte in the relation field{FIX}"
    p = write_file(tmp_path / "kg.jsonl", '{"head": "a", "relation": "r", "tail": "b\\u0000"}\n')
    assert _err(load_jsonl, p) == f"{p}:1: NUL character in field 'tail'{FIX}"


def test_stray_quote_in_a_triple_field(tmp_path, write_file):
    p = write_file(tmp_path / "kg.csv", 'source,target,relation\na,b,r\nThe "Boss",c,r\n')
    assert _err(load_csv, p) == (
        f'{p}:3: a quote inside the unquoted head field (field 1); quote the whole field and '
        f"double the quotes in it{FIX}")
    ok = write_file(tmp_path / "ok.csv", 'source,target,relation\n"The ""Boss""",c,r\n')
    b, _ = load_csv(ok)
    assert b.node_ids == ['The "Boss"', "c"]


def test_spaces_around_fields_are_dropped_and_counted(tmp_path, write_file):
    p = write_file(tmp_path / "kg.csv", "head,relation,tail\n a , r ,b\nb,r, c\n")
    b, rep = read_sources([p])
    assert b.node_ids == ["a", "b", "c"] and rep.stripped == 3
    assert rep.notes == ["3 field(s) had spaces around them; the spaces were dropped"]


def test_over_long_numbers_are_an_error_with_a_limit_to_raise(tmp_path, write_file):
    big = "9" * 5000
    p = write_file(tmp_path / "kg.jsonl",
               '{"head": "a", "relation": "r", "tail": "b"}\n'
               f'{{"head": "a", "relation": "r", "tail": "c", "properties": {{"n": {big}}}}}\n')
    assert _err(load_jsonl, p) == (
        f"{p}:2: a number of 5,000 digits (the limit is 100; raise it with --max-number-digits N "
        f"on byokg load or BYOKG_MAX_NUMBER_DIGITS=N){FIX}")
    b, _ = load_jsonl(p, limits=Limits(number_digits=5000))
    assert len(b) == 2


def test_deep_nesting_is_an_error_with_a_limit_to_raise(tmp_path, write_file):
    deep = "[" * 100_000 + "]" * 100_000
    p = write_file(tmp_path / "kg.jsonl",
               f'{{"head": "a", "relation": "r", "tail": "b", "properties": {{"x": {deep}}}}}\n')
    assert _err(load_jsonl, p) == (
        f"{p}:1: JSON nested deeper than 64 levels (the limit is 64; raise it with --max-depth N "
        f"on byokg load or BYOKG_MAX_DEPTH=N){FIX}")


def test_endless_input_stops_at_the_line_limit(tmp_path, write_file):
    p = write_file(tmp_path / "kg.jsonl", '{"head": "a", "relation": "r", "tail": "' + "x" * 3000)
    assert _err(load_jsonl, p, limits=Limits(line_bytes=2048)) == (
        f"{p}:1: line longer than 2,048 characters (the limit is 2,048; raise it with "
        "--max-line-bytes N on byokg load or BYOKG_MAX_LINE_BYTES=N)")
    c = write_file(tmp_path / "kg.csv", "head,relation,tail\na,r," + "y" * 5000 + "\n")
    assert _err(load_csv, c, limits=Limits(line_bytes=2048)) == (
        f"{c}:2: line longer than 2,048 characters (the limit is 2,048; raise it with "
        "--max-line-bytes N on byokg load or BYOKG_MAX_LINE_BYTES=N)")
    if os.path.exists("/dev/zero"):  # a stream without end
        assert _err(load_csv, "/dev/zero", limits=Limits(line_bytes=4096)).startswith(
            "/dev/zero:1: line longer than 4,096 characters")


def test_cli_flags_raise_the_limits(tmp_path, write_file):
    p = write_file(tmp_path / "kg.jsonl",
               '{"head": "a", "relation": "r", "tail": "b", "properties": {"n": '
               + "1" * 150 + "}}\n")
    out = tmp_path / "out.jsonl"
    res = CliRunner().invoke(cli, ["load", str(p), "--into", f"memory:{out}"])
    assert res.exit_code != 0 and "a number of 150 digits" in str(res.exception)
    res = CliRunner().invoke(cli, ["load", str(p), "--into", f"memory:{out}",
                                   "--max-number-digits", "200"], catch_exceptions=False)
    assert res.exit_code == 0 and "loaded 1 triplets" in res.output


@pytest.mark.parametrize("target", ["memory", "kuzu"])
def test_folders_are_read_the_same_way_by_every_target(tmp_path, target, write_file):
    pytest.importorskip("kuzu") if target == "kuzu" else None
    d = tmp_path / "kg"
    write_file(d / "a.csv", "head,relation,tail\na,r,b\n")
    write_file(d / "notes.md", "not data")
    into = f"memory:{tmp_path / 'o.jsonl'}" if target == "memory" else f"kuzu:{tmp_path / 'o.kz'}"
    summary = load_into([str(d)], into)
    assert summary.triplets == 1
    assert summary.notes == [f"{d}: not read (not .csv/.tsv/.tab/.txt/.jsonl/.ndjson): notes.md"]
    write_file(d / "old" / "b.csv", "head,relation,tail\nb,r,c\n")
    into2 = into.replace("o.", "p.")
    assert _err(load_into, [str(d)], into2) == (
        f"{d}: this folder has subfolders (old); byokg reads the data files directly inside a "
        "folder: pass each folder you mean as its own source")


def test_inputs_without_triplets_are_errors_for_every_target(tmp_path, write_file):
    nodes = write_file(tmp_path / "n.jsonl", '{"id": "a", "name": "A"}\n')
    for into in (f"memory:{tmp_path / 'o.jsonl'}", f"kuzu:{tmp_path / 'o.kz'}"):
        assert _err(load_into, [str(nodes)], into) == (
            f"{nodes}: no triplets loaded (1 node record(s) but no head/relation/tail row); a "
            "graph needs head/relation/tail rows")
    assert not (tmp_path / "o.kz").exists() and not (tmp_path / "o.jsonl").exists()
