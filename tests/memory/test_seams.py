"""The seams between the core and the memory backend: the ``csr`` capability, building and
loading through the registry (``graph_from_triplets``, ``byokg load --into memory:``), the
built-in demo graph located by the core, the shared readers, argument normalisation."""

from __future__ import annotations

import json

import numpy as np
import pytest

from byokg import registry
from byokg.contracts import Direction
from byokg.contracts import Triplet
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.graph.csr import CsrView
from byokg.graph.open import builtin_graph
from byokg.graph.open import graph_from_triplets
from byokg.graph.open import open_graph
from byokg.graph.store import BaseGraphStore
from byokg.graph.store import Capability
from byokg.graph.store import csr_view
from byokg.hookspecs import hookimpl
from byokg.io.loading import load_into
from byokg.io.readers import LoadReport
from byokg.io.readers import RowReport
from byokg.io.readers import read_sources

ROWS = [("a", "r", "b"), ("b", "s", "c"), ("c", "r", "a"), ("a", "r", "b")]


# ----------------------------------------------------------------------------- csr capability


def test_memory_store_declares_csr_and_hands_over_its_arrays():
    g = graph_from_triplets(ROWS, uri="memory:rows")
    assert g.uri == "memory:rows" and Capability.CSR in g.capabilities
    view = csr_view(g)
    assert isinstance(view, CsrView)
    assert view.heads is g.heads and view.out_ptr is g.out_ptr  # the store's arrays, no copy
    edges = {(view.ids[h], view.relations[r], view.ids[t])
             for h, r, t in zip(view.heads.tolist(), view.rels.tolist(), view.tails.tolist(),
                                strict=True)}
    assert edges == set(ROWS) and len(view.heads) == 3  # the duplicate stored once
    a = view.index["a"]
    assert int(view.degree(np.array([a]))[0]) == 2
    e, owner, stored, other = view.edges_of(np.array([a], dtype=np.int64))
    got = sorted((view.relations[view.rels[x]], bool(s), view.ids[o])
                 for x, s, o in zip(e.tolist(), stored.tolist(), other.tolist(), strict=True))
    assert got == [("r", False, "c"), ("r", True, "b")] and set(owner.tolist()) == {a}


def test_csr_view_needs_the_capability_and_a_real_view():
    g = graph_from_triplets(ROWS)

    class Undeclared:
        capabilities = frozenset()
        csr = g.csr

    class WrongType:
        capabilities = frozenset({Capability.CSR})

        def csr(self):
            return {"heads": g.heads}

    assert csr_view(Undeclared()) is None
    assert csr_view(WrongType()) is None


# ----------------------------------------------------------------------------- registry seams


def test_graph_from_triplets_checks_rows_and_backend():
    with pytest.raises(InputError, match=r"triplet #2 .* not three non-empty strings"):
        graph_from_triplets([("a", "r", "b"), ("a", "", "b")])
    g = graph_from_triplets([Triplet(head="x", relation="r", tail="y", properties={"w": 1})])
    assert g.neighbors(["x"])["x"].triplets[0].properties == {"w": 1}
    with pytest.raises(ConfigError, match="cannot build a graph from triplets"):
        graph_from_triplets(ROWS, backend="kuzu")


class _NoLoaderPlugin:
    @staticmethod
    @hookimpl
    def register_backends(register):
        register("noload", lambda uri, **_: graph_from_triplets(ROWS, uri=uri))


def test_load_into_goes_through_the_registry(tmp_path):
    src = tmp_path / "kg.csv"
    src.write_text("head,relation,tail\na,r,b\na,r,b\nb,r,c\n", encoding="utf-8")
    nodes = tmp_path / "nodes.jsonl"
    nodes.write_text('{"id": "a", "name": "Alpha", "labels": ["Letter"]}\n', encoding="utf-8")
    out = tmp_path / "out" / "kg.jsonl"
    summary = load_into([str(src), str(nodes)], f"memory:{out}")
    assert (summary.target, summary.nodes, summary.triplets, summary.duplicates) == (
        f"memory:{out}", 3, 2, 1)
    assert "loaded 2 triplets over 3 nodes" in summary.summary()
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == {"id": "a", "name": "Alpha", "labels": ["Letter"]}
    g = open_graph(f"memory:{out}")
    assert g.stats().triplets == 2 and g.display_names(["a"]) == {"a": "Alpha"}
    with pytest.raises(ConfigError, match="--mapping is for property-graph stores"):
        load_into([str(src)], f"memory:{tmp_path / 'x.jsonl'}", mapping="m.json")
    with pytest.raises(ConfigError, match="must be a .jsonl file"):
        load_into([str(src)], f"memory:{tmp_path / 'x.csv'}")
    registry.register_plugin(_NoLoaderPlugin, name="test-noload")
    try:
        with pytest.raises(ConfigError, match=r"'noload' \(plugin test-noload\) does not support"):
            load_into([str(src)], "noload:x")
    finally:
        registry.unregister_plugin("test-noload")


def test_demo_graph_is_located_by_the_core():
    path = builtin_graph("demo")
    assert path is not None and path.name == "demo_kg.jsonl" and path.is_file()
    assert builtin_graph("no-such-graph") is None
    g = open_graph("memory:demo")
    assert g.uri == "memory:demo" and g.stats().triplets > 600


# ----------------------------------------------------------------------------- shared readers


def test_read_sources_files_and_folders_one_report(tmp_path):
    (tmp_path / "kg").mkdir()
    (tmp_path / "kg" / "a.csv").write_text("h,r,t\na,r,b\nbad\n", encoding="utf-8")
    (tmp_path / "kg" / "b.tsv").write_text("h\tr\tt\nb\tr\tc\nx\ty\n", encoding="utf-8")
    extra = tmp_path / "c.jsonl"
    extra.write_text('{"head":"c","relation":"r","tail":"a"}\n{"oops": 1}\n', encoding="utf-8")
    b, rep = read_sources([tmp_path / "kg", extra], skip_bad_rows=True)
    table = b.freeze(rep)
    assert (rep.rows, rep.bad_rows, rep.triplets, rep.nodes) == (6, 3, 3, 3)
    assert [r.split(": ", 1)[0].rsplit("/", 1)[-1] for r in rep.reasons] == [
        "a.csv:3", "b.tsv:3", "c.jsonl:2"]
    assert rep.source == f"{tmp_path / 'kg'},{extra}"
    assert [t.key for t in table.triplets()] == [("a", "r", "b"), ("b", "r", "c"), ("c", "r", "a")]
    with pytest.raises(ConfigError, match="no source files"):
        read_sources([])


def test_reports_keep_the_first_five_reasons_across_files():
    total = LoadReport(source="x")
    for i in range(4):
        part = LoadReport(source=f"f{i}", rows=3)
        part.bad(f"f{i}:1: one")
        part.bad(f"f{i}:2: two")
        total.absorb(part)
    assert total.bad_rows == 8 and total.rows == 12 and len(total.reasons) == 5
    assert total.reasons[-1] == "f2:1: one"
    rows_only = RowReport()
    rows_only.absorb(total)
    assert rows_only.bad_rows == 8 and rows_only.reasons == total.reasons


# ----------------------------------------------------------------------------- neighbors args


def test_neighbors_arguments_are_normalised_once():
    g = graph_from_triplets([("1", "r", "2"), ("1", "s", "3")])
    got = g.neighbors([1, "1", 1], direction="out", relations=("r",), limit_per_node=-4)
    assert list(got) == ["1"]
    assert (got["1"].total, got["1"].triplets, got["1"].truncated) == (1, (), True)
    assert g.neighbors(iter(["1"]), direction=Direction.IN)["1"].total == 0

    class Bare(BaseGraphStore):
        pass

    with pytest.raises(NotImplementedError, match="Bare implements neither"):
        Bare().neighbors(["x"])
