"""Loaders: the core's triple readers (byokg.io.readers: CSV/TSV/JSONL/folders) into the memory
backend, networkx, and every bad-input path (file, line, reason)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from byokg.backends.memory import GraphBuilder
from byokg.backends.memory import MemoryGraph
from byokg.backends.memory import load_path

from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.graph.open import open_graph
from byokg.io import readers
from byokg.io.readers import load_csv
from byokg.io.readers import load_jsonl

ROWS = [("Ada", "knows", "Bob"), ("Bob", "lives_in", "Paris"), ("Paris", "capital_of", "France")]


def build_csv(path, engine, **kw):
    b, rep = load_csv(path, builder=GraphBuilder(), engine=engine, **kw)
    return b.build("memory:t", rep), rep


# ----------------------------------------------------------------------------- formats


@pytest.mark.parametrize("header", ["head,relation,tail", "subject,predicate,object",
                                    "Head , Relation , Tail", "h,r,t", ":START_ID,:TYPE,:END_ID"])
def test_csv_header_names_the_columns(write, engine, header, edge_set):
    p = write("kg.csv", header + "\n" + "".join(f"{h},{r},{t}\n" for h, r, t in ROWS))
    g, rep = build_csv(p, engine)
    assert edge_set(g) == set(ROWS)
    assert rep.rows == 3 and rep.bad_rows == 0 and rep.triplets == 3
    assert not g.has_node("head") and not g.has_node("subject")


@pytest.mark.parametrize(("header", "order"), [
    ("source,target,relation", (0, 2, 1)),  # what networkx's to_pandas_edgelist writes
    ("relation,head,tail", (1, 0, 2)),
    ("to,from,type", (1, 2, 0)),
    ("object,subject,predicate", (1, 2, 0)),
])
def test_csv_column_order_comes_from_the_header(write, engine, header, order, edge_set):
    rows = [",".join(
        (h, r, t)[order.index(k)] for k in range(3)) for h, r, t in ROWS]
    p = write("kg.csv", header + "\n" + "\n".join(rows) + "\n")
    g, _ = build_csv(p, engine)
    assert edge_set(g) == set(ROWS)


def test_csv_without_a_header_is_an_error_naming_the_accepted_names(write, engine):
    p = write("kg.csv", "Ada,knows,Bob\nBob,lives_in,Paris\n")
    e = _err(load_csv, p, engine=engine)
    assert str(e) == (
        f"{p}:1: no header: the first line 'Ada,knows,Bob' does not name the columns; the first "
        "line must name the three columns in any order (head: head/subject/source/from/src/h/s/"
        "start/:start_id; relation: relation/predicate/type/rel/relationship/relation_type/"
        "edge_type/label/r/p/:type; tail: tail/object/target/to/dst/t/o/end/:end_id), e.g. "
        "head,relation,tail; or, for a file without a header, give their order: "
        "memory:PATH?columns=head,relation,tail, byokg load --columns head,relation,tail")


def test_the_no_header_error_shows_the_line_as_written(write):
    p = write("kb.txt", "Kismet|directed_by|William Dieterle\n")
    assert "the first line 'Kismet|directed_by|William Dieterle' does not name" in str(
        _err(load_csv, p))


@pytest.mark.parametrize(("columns", "order"), [
    (("head", "relation", "tail"), (0, 1, 2)),
    (("relation", "head", "tail"), (1, 0, 2)),
    (("source", "target", "relation"), (0, 2, 1)),
])
def test_a_file_without_a_header_reads_with_its_column_order(write, engine, columns, order,
                                                            edge_set):
    rows = ["|".join((h, r, t)[order.index(k)] for k in range(3)) for h, r, t in ROWS]
    p = write("kb.txt", "\n".join(rows) + "\n")
    g, rep = build_csv(p, engine, columns=columns)
    assert edge_set(g) == set(ROWS)  # the first line is a row, not a header
    assert rep.rows == 3 and rep.triplets == 3


def test_a_bad_row_of_a_file_without_a_header_is_named_by_its_own_line(write, engine):
    p = write("kb.txt", "Ada|knows|Bob\nBob|lives_in\n")
    e = _err(load_csv, p, engine=engine, columns=("head", "relation", "tail"))
    assert e.line == 2 and "expected 3 fields" in str(e)
    p = write("kb2.txt", "Ada|knows\nBob|lives_in|Paris\n")
    assert _err(load_csv, p, engine=engine, columns=("head", "relation", "tail")).line == 1


@pytest.mark.parametrize("columns", [("head", "tail"), ("head", "head", "tail"),
                                     ("head", "relation", "weight")])
def test_columns_must_name_three_roles_once(write, columns):
    p = write("kb.txt", "a|b|c\n")
    with pytest.raises(ConfigError, match="name the three columns in the file's order"):
        load_csv(p, columns=columns)


def test_memory_uri_and_load_take_the_column_order(write, tmp_path):
    from click.testing import CliRunner

    from byokg.cli import cli

    p = write("kb.txt", "Kismet|directed_by|William Dieterle\nKismet|release_year|1944\n")
    g = open_graph(f"memory:{p}?columns=head,relation,tail")
    assert g.stats().triplets == 2 and g.has_node("Kismet")
    out = tmp_path / "kb.jsonl"
    r = CliRunner().invoke(cli, ["load", str(p), "--into", f"memory:{out}",
                                 "--columns", "head,relation,tail"])
    assert r.exit_code == 0, r.output
    assert open_graph(f"memory:{out}").stats().triplets == 2


@pytest.mark.parametrize(("header", "what"), [
    ("source,target,weight", "unknown column(s) 'weight' in the header 'source,target,weight'"),
    ("head,relation,tail,weight", "unknown column(s) 'weight' in the header "
                                  "'head,relation,tail,weight'"),
    ("head,tail", "the header 'head,tail' has 2 columns; a triple file has 3"),
    ("head,source,tail", "the header 'head,source,tail' names a column twice"),
])
def test_unknown_header_is_an_error(write, header, what):
    e = _err(load_csv, write("kg.csv", header + "\na,b,c\n"))
    assert str(e).startswith(f"{e.source}:1: {what}; the first line must name the three columns")


@pytest.mark.parametrize(
    ("name", "delim"), [("kg.tsv", "\t"), ("kg.txt", "\t"), ("kg.csv", ";"), ("kg.csv", "|")]
)
def test_delimiters_sniffed(write, engine, name, delim, edge_set):
    text = delim.join(("head", "relation", "tail")) + "\n"
    text += "".join(delim.join(r) + "\n" for r in ROWS)
    p = write(name, text.replace("Paris", "Paris, Texas"))  # a comma inside a field is data
    g, _ = build_csv(p, engine)
    assert ("Bob", "lives_in", "Paris, Texas") in edge_set(g)
    assert len(g) == 3


def test_quoted_fields_with_commas_and_quotes(write, engine, edge_set):
    p = write(
        "kg.csv",
        'head,relation,tail\n"Washington, D.C.",capital_of,"United States"\n'
        '"The ""Boss""",born_in,"Long Branch, New Jersey"\r\n',
    )
    g, _ = build_csv(p, engine)
    assert edge_set(g) == {
        ("Washington, D.C.", "capital_of", "United States"),
        ('The "Boss"', "born_in", "Long Branch, New Jersey"),
    }


def test_bom_blank_lines_and_crlf(write, engine, edge_set):
    p = write("kg.csv", "\ufeffhead,relation,tail\r\n\r\na,r,b\r\n\r\nb,r,c\r\n")
    g, rep = build_csv(p, engine)
    assert edge_set(g) == {("a", "r", "b"), ("b", "r", "c")} and rep.rows == 2


def test_fast_and_exact_readers_agree(tmp_path, edge_set):
    pytest.importorskip("pyarrow")
    from benchmarks.synthetic import write_csv

    p = write_csv(tmp_path / "syn.csv", 20_000, seed=3)
    fast, rep_fast = build_csv(p, "pyarrow")
    exact, rep_exact = build_csv(p, "python")
    assert edge_set(fast) == edge_set(exact)
    assert sorted(fast._ids) == sorted(exact._ids) and len(fast) == 20_000
    assert rep_fast.rows == rep_exact.rows == 20_000
    # edge order (used by per-node caps) is file order in both
    assert [fast._ids[h] for h in fast.heads[:50]] == [exact._ids[h] for h in exact.heads[:50]]


def test_the_fast_readers_space_test_is_str_isspace():
    """The pyarrow path finds space-padded names with one RE2 pattern; it must call a space
    exactly what Python's str.isspace() (and so the exact reader) does, for every character."""
    pa = pytest.importorskip("pyarrow")
    pc = pytest.importorskip("pyarrow.compute")
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    want = [c.isspace() for c in chars]
    for names in (["a" + c for c in chars], [c + "a" for c in chars]):
        got = pc.match_substring_regex(pa.array(names), readers.EDGE_SPACE).to_pylist()
        assert got == want


@pytest.mark.parametrize("name", ["Kansas\u00a0", "\u3000Kansas", "Kansas\x85", "Kan sas ", " Kansas"])
def test_unicode_padded_names_read_alike_on_both_paths(write, name, edge_set):
    pytest.importorskip("pyarrow")
    p = write("pad.csv", f"head,relation,tail\n{name},r,b\nc,r,d\n")
    fast, rep_fast = build_csv(p, "auto")
    exact, rep_exact = build_csv(p, "python")
    assert edge_set(fast) == edge_set(exact) == {(name.strip(), "r", "b"), ("c", "r", "d")}
    assert rep_fast.stripped == rep_exact.stripped == 1


def test_fast_path_declines_quoted_files(write, edge_set):
    pytest.importorskip("pyarrow")
    p = write("q.csv", 'head,relation,tail\n"a",r,b\n')
    with pytest.raises(InputError, match="pyarrow fast path"):
        load_csv(p, engine="pyarrow")
    assert edge_set(build_csv(p, "auto")[0]) == {("a", "r", "b")}


def test_jsonl_triplets_nodes_and_properties(write):
    p = write(
        "kg.jsonl",
        '{"id": "m.1", "name": "Ada Lovelace", "labels": ["Person"], "aliases": ["Ada King"],'
        ' "properties": {"born": 1815}}\n'
        '{"head": "m.1", "relation": "wrote", "tail": "Note G", "properties": {"year": 1843}}\n'
        "\n"
        '{"head": "m.1", "relation": "born_in", "tail": "London"}\n'
        '{"id": "Note G", "label": "Work"}\n'
        '{"id": "lonely"}\n',
    )
    g, rep = load_path(p)
    assert rep.rows == 5 and g.stats().triplets == 2 and g.stats().nodes == 4
    node = g.get_nodes(["m.1"])["m.1"]
    assert node.name == "Ada Lovelace" and node.labels == ("Person",)
    assert node.aliases == ("Ada King",) and node.properties == {"born": 1815}
    assert g.get_nodes(["Note G"])["Note G"].labels == ("Work",)
    assert g.has_node("lonely") and g.neighbors(["lonely"])["lonely"].total == 0
    wrote = g.neighbors(["m.1"], relations=["wrote"])["m.1"].triplets[0]
    assert wrote.properties == {"year": 1843}
    assert g.display_names(["m.1"]) == {"m.1": "Ada Lovelace"}
    assert ("m.1", "Ada King") in [p for b in g.iter_node_names() for p in b]
    assert g.node_ids_by_name(["ada king"]) == {"ada king": ["m.1"]}


def test_folder_of_files(tmp_path, write, edge_set):
    write("kg/a.csv", "head,relation,tail\na,r,b\n")
    write("kg/b.tsv", "head\trelation\ttail\nb\tr\tc\na\tr\tb\n")  # one duplicate
    write("kg/nodes.jsonl", '{"id": "a", "name": "Alpha"}\n')
    write("kg/README.md", "not data")  # not read: named in the report's notes
    g, rep = load_path(tmp_path / "kg")
    assert rep.notes == [f"{tmp_path / 'kg'}: not read (not .csv/.tsv/.tab/.txt/.jsonl/.ndjson): "
                         "README.md"]
    assert edge_set(g) == {("a", "r", "b"), ("b", "r", "c")}
    assert rep.duplicates == 1 and g.stats().duplicates_skipped == 1
    assert g.display_names(["a"]) == {"a": "Alpha"}
    g2 = open_graph(f"memory:{tmp_path / 'kg'}")
    assert g2.stats().triplets == 2 and g2.uri == f"memory:{tmp_path / 'kg'}"


def test_open_graph_uri_forms(write):
    p = write("kg.csv", "head,relation,tail\na,r,b\n")
    assert open_graph(f"memory:{p}").stats().triplets == 1
    assert open_graph(f"memory://{p}").stats().triplets == 1
    with pytest.raises(ConfigError, match="needs a path"):
        open_graph("memory:")


def test_networkx_digraph_and_multidigraph(edge_set):
    nx = pytest.importorskip("networkx")
    d = nx.DiGraph()
    d.add_edge("a", "b", relation="knows", weight=0.5)
    d.add_edge("b", 3, relation="has")  # non-string ids become strings
    g = MemoryGraph.from_networkx(d)
    assert edge_set(g) == {("a", "knows", "b"), ("b", "has", "3")}
    assert g.neighbors(["a"])["a"].triplets[0].properties == {"weight": 0.5}
    m = nx.MultiDiGraph()
    m.add_edge("a", "b", key="knows")  # key names the relation
    m.add_edge("a", "b", key="likes")
    m.add_edge("a", "c", rel="works_at")  # attribute names the relation
    m.add_edge("a", "c", key="x", rel="founded")  # the attribute wins over the key
    g = MemoryGraph.from_networkx(m, relation_attr="rel")
    assert edge_set(g) == {
        ("a", "knows", "b"),
        ("a", "likes", "b"),
        ("a", "works_at", "c"),
        ("a", "founded", "c"),
    }
    assert g.neighbors(["b"], direction="in")["b"].total == 2


def test_networkx_errors():
    nx = pytest.importorskip("networkx")
    with pytest.raises(InputError, match="undirected"):
        MemoryGraph.from_networkx(nx.Graph([("a", "b")]))
    d = nx.DiGraph()
    d.add_edge("a", "b")
    with pytest.raises(InputError, match=r"'a' -> 'b' has no 'relation' attribute"):
        MemoryGraph.from_networkx(d)
    m = nx.MultiDiGraph()
    m.add_edge("a", "b")  # integer key 0, no attribute
    with pytest.raises(InputError, match="nor a string key"):
        MemoryGraph.from_networkx(m)


# ----------------------------------------------------------------------------- bad input


def _err(fn, *a, **kw) -> InputError:
    with pytest.raises(InputError) as ei:
        fn(*a, **kw)
    return ei.value


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("head,relation,tail\na,r,b\na,r\n", 3, "expected 3 fields"),
        ("h,r,t\na,r,b\n\n\na,r,b,c\n", 5, "found 4"),
        ("h,r,t\na,r,b\na,,b\n", 3, "empty relation"),
        ("h,r,t\na,r,b\n,r,b\n", 3, "empty head"),
        ("h,r,t\na,r,\n", 2, "empty tail"),
        ("h,r,t\na,r,b\na, ,b\n", 3, "empty relation"),
        ("h,r,t\na,r,b\n   \n", 3, "found 1"),
        ("source,target,relation\na,b,\n", 2, "empty relation"),
    ],
)
def test_csv_bad_rows_name_file_line_reason(write, engine, text, line, reason):
    p = write("bad.csv", text)
    e = _err(load_csv, p, engine=engine)
    assert e.source == str(p) and e.line == line
    assert reason in str(e) and "--skip-bad-rows" in str(e)
    assert str(e).startswith(f"{p}:{line}: ")


def test_csv_line_numbers_count_physical_lines(write):
    p = write("bad.csv", 'h,r,t\na,r,"multi\nline"\nb,r\n')
    assert _err(load_csv, p).line == 4


def test_csv_bad_quoting(write, engine):
    p = write("bad.csv", 'h,r,t\na,r,b\na,"r"x,b\n')
    e = _err(load_csv, p, engine=engine)
    assert e.line == 3 and "unreadable CSV" in str(e)


def test_non_utf8_csv_and_jsonl(write, engine):
    p = write("bad.csv", b"h,r,t\na,r,b\nb,r,c\nc,r,\xff\xfe\n")
    e = _err(load_csv, p, engine=engine)
    assert e.line == 4 and "not UTF-8" in str(e) and "0xff" in str(e)
    p = write("bad.jsonl", b'{"head":"a","relation":"r","tail":"b"}\n{"head":"\xe9"}\n')
    e = _err(load_jsonl, p)
    assert e.line == 2 and "not UTF-8" in str(e)


@pytest.mark.parametrize("name", ["empty.csv", "empty.jsonl", "blank.csv"])
def test_empty_files(write, name):
    p = write(name, "\n" if name == "blank.csv" else "")
    e = _err(load_path, p)
    assert e.source == str(p) and ("empty" in str(e) or "no triplets" in str(e))


def test_header_only_file(write, tmp_path):
    p = write("h.csv", "head,relation,tail\n")
    e = _err(load_path, p)
    assert str(e) == f"{p}: no triplets loaded; a graph needs head/relation/tail rows"
    from byokg.io.loading import load_into  # every target refuses it, memory included

    e = _err(load_into, [str(p)], f"memory:{tmp_path / 'out.jsonl'}")
    assert str(e) == f"{p}: no triplets loaded; a graph needs head/relation/tail rows"
    assert not (tmp_path / "out.jsonl").exists()


def test_nodes_only_jsonl_is_an_error(write):
    p = write("n.jsonl", '{"id": "a", "name": "A"}\n{"id": "b"}\n')
    e = _err(load_path, p)
    assert str(e) == (f"{p}: no triplets loaded (2 node record(s) but no head/relation/tail "
                      "row); a graph needs head/relation/tail rows")


def test_missing_file_and_folder(tmp_path):
    e = _err(load_path, tmp_path / "nope.csv")
    assert "no such file" in str(e) and e.source == str(tmp_path / "nope.csv")
    e = _err(load_csv, tmp_path / "nope.csv")
    assert "cannot open" in str(e)
    e = _err(load_jsonl, tmp_path / "nope.jsonl")
    assert "cannot open" in str(e)
    (tmp_path / "empty_dir").mkdir()
    assert "no .csv" in str(_err(load_path, tmp_path / "empty_dir"))
    with pytest.raises(InputError, match="no such file"):
        open_graph(f"memory:{tmp_path / 'nope.csv'}")


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("{not json", "invalid JSON"),
        ("[1, 2, 3]", "expected a JSON object"),
        ('"just a string"', "expected a JSON object"),
        ('{"head": "a", "relation": "r"}', "field 'tail' is missing"),
        ('{"head": "a", "relation": "", "tail": "b"}', "field 'relation' is missing"),
        ('{"head": "a", "relation": true, "tail": "b"}', "field 'relation' is missing"),
        ('{"head": "a", "relation": "r", "tail": "b", "properties": [1]}', "'properties' must be"),
        ('{"name": "no id"}', "needs head/relation/tail"),
        ('{"id": ""}', "'id' must be a non-empty string"),
        ('{"id": "x", "aliases": "one"}', "must be lists"),
    ],
)
def test_jsonl_bad_rows(write, row, reason):
    p = write("bad.jsonl", '{"head": "a", "relation": "r", "tail": "b"}\n\n' + row + "\n")
    e = _err(load_jsonl, p)
    assert e.source == str(p) and e.line == 3 and reason in str(e)
    b, rep = load_jsonl(p, skip_bad_rows=True)
    assert rep.bad_rows == 1 and rep.reasons == [f"{p}:3: " + rep.reasons[0].split(": ", 1)[1]]
    assert reason in rep.reasons[0] and len(b) == 1


def test_skip_bad_rows_counts_and_first_five_reasons(write, engine):
    good = "h,r,t\n" + "".join(f"n{i},r,n{i + 1}\n" for i in range(10))
    bad = "x,y\n" * 3 + "a,,b\n" + "1,2,3,4\n" * 3
    p = write("mixed.csv", good + bad + "n0,r,n1\n")  # and one duplicate
    with pytest.raises(InputError):
        load_csv(p, engine=engine)
    g, rep = build_csv(p, engine, skip_bad_rows=True)
    assert rep.bad_rows == 7 and len(rep.reasons) == 5
    assert (
        rep.reasons[0] == f"{p}:12: expected 3 fields (head,relation,tail, delimiter ','), found 2"
    )
    assert rep.reasons[3] == f"{p}:15: empty relation field"
    assert rep.rows == 18 and rep.duplicates == 1 and len(g) == 10
    assert g.stats().duplicates_skipped == 1 and g.stats().bad_rows_skipped == 7
    # through load_path / open_graph as well
    g2, rep2 = load_path(p, skip_bad_rows=True)
    assert rep2.bad_rows == 7 and len(g2) == 10 and g2.stats().bad_rows_skipped == 7
    assert open_graph(f"memory:{p}", skip_bad_rows=True).stats().bad_rows_skipped == 7


def test_all_rows_bad_is_an_error_even_when_skipping(write):
    e = _err(load_path, write("allbad.csv", "h,r,t\na,b\nc,d\n"), skip_bad_rows=True)
    assert "no triplets loaded (2 bad rows skipped" in str(e)


def test_reasons_across_folder_name_each_file(tmp_path, write):
    write("kg/a.csv", "h,r,t\na,r\n")
    write("kg/b.csv", "h,r,t\nb,r,c\nb,,c\n")
    _, rep = load_path(tmp_path / "kg", skip_bad_rows=True)
    assert rep.bad_rows == 2
    assert re.match(r".*a\.csv:2: expected 3 fields", rep.reasons[0])
    assert re.match(r".*b\.csv:3: empty relation", rep.reasons[1])


def test_duplicates_counted_not_silently_dropped(write, engine):
    p = write("dups.csv", "h,r,t\na,r,b\na,r,b\na,r,b\nb,r,a\n")
    g, rep = build_csv(p, engine)
    assert rep.rows == 4 and rep.duplicates == 2 and len(g) == 2
    assert g.stats().duplicates_skipped == 2


def test_builder_shared_across_loaders(write, edge_set):
    b = GraphBuilder()
    load_csv(write("a.csv", "h,r,t\na,r,b\n"), builder=b)
    load_jsonl(write("b.jsonl", '{"head":"b","relation":"s","tail":"c"}\n'), builder=b)
    load_csv(write("c.csv", "h,r,t\nc,r,a\nx,s,y\n"), builder=b)
    g = b.build()
    assert edge_set(g) == {("a", "r", "b"), ("b", "s", "c"), ("c", "r", "a"), ("x", "s", "y")}
    assert len(g._ids) == len(set(g._ids)) == 5 and g._rels == ["r", "s"]
    assert all(g._index[n] == i for i, n in enumerate(g._ids))


def test_auto_engine_takes_the_fast_path_on_clean_files(write, monkeypatch):
    pytest.importorskip("pyarrow")
    def boom(*a, **kw):
        raise AssertionError("the Python reader should not run for a clean unquoted file")

    monkeypatch.setattr(readers, "_load_csv_python", boom)
    b, rep = load_csv(write("clean.csv", "head,relation,tail\na,r,b\nb,s,c\n"))
    assert len(b) == 2 and rep.rows == 2
    with pytest.raises(AssertionError, match="should not run"):  # irregular file falls back
        load_csv(write("bad.csv", "h,r,t\na,r,b\nb,s\n"))


def test_fallback_from_fast_reader_is_exact_on_big_files(tmp_path):
    # A big quote-free file with irregular rows far apart: auto backs out of pyarrow and the
    # csv-module reader gives the same error lines, reasons and graph.
    lines = ["head,relation,tail"] + [f"n{i},r{i % 7},n{i + 1}" for i in range(60_000)]
    lines[100] = ""  # blank line: skipped, still counted for line numbers
    lines[40_000] = "x,y"
    lines[55_555] = "a,,b"
    p = tmp_path / "big.csv"
    p.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    results = {}
    for engine in ("auto", "python"):
        with pytest.raises(InputError) as ei:
            load_csv(p, engine=engine)
        assert ei.value.line == 40_001
        b, rep = load_csv(p, engine=engine, skip_bad_rows=True)
        assert rep.bad_rows == 2 and rep.rows == 59_999
        assert rep.reasons[1] == f"{p}:55556: empty relation field"
        results[engine] = (list(b.heads), list(b.rels), list(b.tails), b.node_ids, b.rel_names)
    assert results["auto"] == results["python"]


def test_env_var_skips_bad_rows_with_a_warning(write, monkeypatch, caplog):
    p = write("mixed.csv", "h,r,t\na,r,b\nbad row\nb,r,c\n")
    with pytest.raises(InputError, match="BYOKG_SKIP_BAD_ROWS=1"):
        open_graph(f"memory:{p}")
    monkeypatch.setenv("BYOKG_SKIP_BAD_ROWS", "1")
    with caplog.at_level("WARNING", logger="byokg.backends.memory"):
        g = open_graph(f"memory:{p}")
    assert len(g) == 2 and g.stats().bad_rows_skipped == 1
    assert "skipped 1 bad rows" in caplog.text and "mixed.csv:3: expected 3 fields" in caplog.text
    # an explicit argument wins over the environment
    with pytest.raises(InputError):
        open_graph(f"memory:{p}", skip_bad_rows=False)


def test_builder_bulk_columns(edge_set):
    b = GraphBuilder()
    b.add("x", "r", "a")
    b.add_columns(["a", "b", "a"], ["r", "s", "r"], ["b", "c", "b"])
    g = b.build()
    assert edge_set(g) == {("x", "r", "a"), ("a", "r", "b"), ("b", "s", "c")}
    assert g._ids == ["x", "a", "b", "c"] and g.stats().duplicates_skipped == 1


@pytest.mark.parametrize("packed", [True, False])
def test_dedup_keeps_first_occurrence_and_its_properties(write, monkeypatch, packed):
    if not packed:  # the lexsort path used when ids are too many to pack into an int64
        monkeypatch.setattr(readers, "_PACK_LIMIT", 0)
    p = write(
        "d.jsonl",
        '{"head":"a","relation":"r","tail":"b","properties":{"v":1}}\n'
        '{"head":"b","relation":"r","tail":"c","properties":{"v":2}}\n'
        '{"head":"a","relation":"r","tail":"b","properties":{"v":3}}\n'
        '{"head":"c","relation":"s","tail":"a"}\n'
        '{"head":"b","relation":"r","tail":"c"}\n'
        '{"head":"c","relation":"r","tail":"a","properties":{"v":6}}\n',
    )
    g, rep = load_path(p)
    assert rep.duplicates == 2 and len(g) == 4
    got = [(t.key, t.properties) for t in g._triplets(np.arange(len(g)))]
    assert got == [
        (("a", "r", "b"), {"v": 1}),
        (("b", "r", "c"), {"v": 2}),
        (("c", "s", "a"), {}),
        (("c", "r", "a"), {"v": 6}),
    ]


def test_node_records_named_by_a_name_property_are_found_by_it(tmp_path):
    """``{"id": "p1", "properties": {"name": "Vera Lind"}}`` is named "Vera Lind" (the profile
    names Curators by ``name``), not "p1": a question's mention links to it."""
    import json

    from byokg.graph.profile import profile_graph

    rows = []
    for i in range(6):
        rows.append({"id": f"p{i}", "labels": ["Curator"], "properties": {"name": f"Vera Lind{i}"}})
        rows.append({"id": f"i{i}", "labels": ["Item"], "name": f"Amphora {i}"})
        rows.append({"head": f"p{i}", "relation": "handles", "tail": f"i{i}"})
    path = tmp_path / "museum.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with open_graph(f"memory:{path}") as store:
        profile_graph(store, cache_dir=tmp_path / "cache")
        assert store.display_names(["p1", "i1"]) == {"p1": "Vera Lind1", "i1": "Amphora 1"}
        assert store.node_ids_by_name(["Vera Lind1"])["Vera Lind1"] == ["p1"]
