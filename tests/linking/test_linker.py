"""The entity-linker tool: registration, params, methods, union, store indexes, index cache."""

from __future__ import annotations

import logging
from typing import ClassVar

import pytest
from byokg.backends.memory import MemoryGraph
from byokg.plugins.linking.linker import EntityLinker
from byokg.plugins.linking.linker import EntityLinkerParams
from byokg.plugins.linking.linker import union

from byokg import registry
from byokg.config import RunConfig
from byokg.errors import ConfigError
from byokg.graph.store import Capability
from byokg.linking.indexes import get_name_index
from byokg.models.services import Services
from byokg.pipeline.tools import Linker

TRIPLES = [
    ("Wynton Marsalis", "born_in", "New Orleans"),
    ("Branford Marsalis", "born_in", "Breaux Bridge"),
    ("New Orleans", "located_in", "Louisiana"),
    ("Acme Corporation", "based_in", "New Orleans"),
]


def graph(extra=(), uri="memory:test-linker"):
    return MemoryGraph.from_triplets([*TRIPLES, *extra], uri=uri)


def test_registered_tool_is_a_linker():
    linker = registry.tools().create("entity-linker")
    assert isinstance(linker, Linker) and isinstance(linker, EntityLinker)
    assert registry.tools().get("entity-linker").plugin == "byokg.plugins.linking"
    assert {"minilm", "flag", "lexical"} <= set(registry.embedders().names())
    assert {"flag", "cosine"} <= set(registry.rerankers().names())


def test_params_validation_names_the_field():
    cfg = RunConfig(params={"entity-linker": {"method": "magic"}})
    with pytest.raises(ConfigError, match="params.entity-linker.method"):
        cfg.tool_params("entity-linker", EntityLinkerParams)
    with pytest.raises(ConfigError, match="top_kk"):
        RunConfig(params={"entity-linker": {"top_kk": 2}}).tool_params(
            "entity-linker", EntityLinkerParams)


def test_link_fuzzy_grouping_and_duplicates():
    g = graph()
    out = EntityLinker().link(["Wynton Marsalls", "", "new orleans", "Wynton Marsalls"],
                              store=g, services=Services(), params=EntityLinkerParams())
    assert [m.mention for m in out] == ["Wynton Marsalls", "", "new orleans", "Wynton Marsalls"]
    assert out[0].candidates[0].id == "Wynton Marsalis"
    assert out[0] == out[3]
    assert out[1].candidates == ()
    assert out[2].candidates[0].method == "exact"


def test_auto_is_fuzzy_without_embedder_and_both_with_one():
    g = graph()
    fuzzy_only = EntityLinker().link(["Acme Corp"], store=g, services=Services(),
                                     params=EntityLinkerParams(top_k=3))
    assert {c.method for c in fuzzy_only[0].candidates} <= {"exact", "alias", "fuzzy"}
    svc = Services(RunConfig(embedder="lexical"))
    both = EntityLinker().link(["Acme Corp"], store=g, services=svc,
                               params=EntityLinkerParams(top_k=2, min_score=0.99,
                                                         dense_min_score=0.0))
    methods = [c.method for c in both[0].candidates]
    assert "dense" in methods
    assert both[0].candidates[0].id == "Acme Corporation"
    assert len(both[0].candidates) == len({c.id for c in both[0].candidates}) <= 4


def test_dense_only_with_lexical():
    svc = Services(RunConfig(embedder="lexical"))
    out = EntityLinker().link(["Branford Marsalis"], store=graph(), services=svc,
                              params=EntityLinkerParams(method="dense", top_k=1))
    (c,) = out[0].candidates
    assert (c.id, c.method) == ("Branford Marsalis", "dense")
    assert c.score == pytest.approx(1.0, abs=1e-3)


def test_union_keeps_first_method_and_order():
    from byokg.contracts import Candidate
    from byokg.contracts import MentionLinks

    a = [MentionLinks(mention="m",
                      candidates=(Candidate(id="x", name="X", score=1, method="exact"),))]
    b = [MentionLinks(mention="m", candidates=(
        Candidate(id="x", name="X", score=0.9, method="dense"),
        Candidate(id="y", name="Y", score=0.8, method="dense")))]
    (m,) = union(a, b)
    assert [(c.id, c.method) for c in m.candidates] == [("x", "exact"), ("y", "dense")]


# ---------------------------------------------------------------------- store indexes
class SearchableFake(MemoryGraph):
    """A memory graph that also declares full-text and vector search, recording calls."""

    capabilities: ClassVar[frozenset[str]] = frozenset({Capability.FULLTEXT, Capability.VECTOR})

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.calls: list[str] = []

    def iter_node_names(self, batch_size=10_000):
        self.calls.append("iter_node_names")
        yield from super().iter_node_names(batch_size)

    def fulltext_search(self, texts, *, k=3):
        self.calls.append("fulltext")
        return {t: [("Wynton Marsalis", 7.5), ("New Orleans", 1.2)] for t in texts}

    def vector_search(self, vectors, *, k=3):
        self.calls.append("vector")
        assert all(len(v) == 512 for v in vectors)
        return [[("Louisiana", 0.77)] for _ in vectors]


def fake_store():
    base = graph(uri="memory:fake")
    return SearchableFake(base.table, "memory:fake")


def test_store_fulltext_and_vector_replace_local_indexes():
    store = fake_store()
    svc = Services(RunConfig(embedder="lexical"))
    out = EntityLinker().link(["Wynton Marsalls"], store=store, services=svc,
                              params=EntityLinkerParams(method="both"))
    cands = out[0].candidates
    assert [c.method for c in cands] == ["fulltext", "vector"]
    assert cands[0].id == "Wynton Marsalis" and 0.9 < cands[0].score < 1.0  # rescored 0..1
    assert cands[1].id == "Louisiana" and cands[1].score == pytest.approx(0.77)
    assert "iter_node_names" not in store.calls  # no local index was built
    assert store.calls.count("fulltext") == 1 and store.calls.count("vector") == 1
    # min_score applies to rescored full-text hits ("New Orleans" is far from the mention)
    assert "New Orleans" not in [c.id for c in cands]


def test_store_fulltext_exact_and_opt_out():
    store = fake_store()
    out = EntityLinker().link(["wynton marsalis"], store=store, services=Services(),
                              params=EntityLinkerParams())
    assert out[0].candidates[0].method == "exact"
    local = EntityLinker().link(["Wynton Marsalls"], store=store, services=Services(),
                                params=EntityLinkerParams(use_store_index=False))
    assert local[0].candidates[0].method == "fuzzy"
    assert "iter_node_names" in store.calls


# ---------------------------------------------------------------------- index cache
def test_name_index_shared_per_run_and_saved(tmp_path):
    g = graph()
    svc = Services(RunConfig(index_dir=str(tmp_path)))
    first = get_name_index(g, svc)
    assert first.status == "built"
    assert get_name_index(g, svc) is first  # one index per store per run
    again = get_name_index(g, Services(RunConfig(index_dir=str(tmp_path))))
    assert again.status == "loaded"
    assert again.search(["Wynton Marsalls"]) == first.search(["Wynton Marsalls"])


def test_stale_index_is_detected_and_rebuilt(tmp_path, caplog):
    uri = "memory:changing"
    get_name_index(graph(uri=uri), Services(RunConfig(index_dir=str(tmp_path))))
    changed = graph([("Ellis Marsalis", "father_of", "Wynton Marsalis")], uri=uri)
    with caplog.at_level(logging.WARNING, logger="byokg.linking"):
        index = get_name_index(changed, Services(RunConfig(index_dir=str(tmp_path))))
    assert index.status.startswith("rebuilt: fingerprint")
    assert any("stale" in r.message for r in caplog.records)
    # the new node is found: the answer reflects the changed graph, not the old index
    assert index.search(["Ellis Marsalis"])[0].candidates[0].id == "Ellis Marsalis"
    reloaded = get_name_index(changed, Services(RunConfig(index_dir=str(tmp_path))))
    assert reloaded.status == "loaded"


def test_fulltext_misses_fall_back_to_local_index():
    class Missing(SearchableFake):
        def fulltext_search(self, texts, *, k=3):
            self.calls.append("fulltext")
            return {t: [] for t in texts}

    base = graph(uri="memory:miss")
    store = Missing(base.table, "memory:miss")
    out = EntityLinker().link(["Wynton Marsalls"], store=store, services=Services(),
                              params=EntityLinkerParams(method="fuzzy"))
    assert out[0].candidates[0].id == "Wynton Marsalis"
    assert out[0].candidates[0].method == "fuzzy"
    assert store.calls[:2] == ["fulltext", "iter_node_names"]
    strict = EntityLinker().link(["Wynton Marsalls"], store=store, services=Services(),
                                 params=EntityLinkerParams(method="fuzzy",
                                                           store_index_fallback=False))
    assert strict[0].candidates == ()


@pytest.mark.slow
def test_real_kuzu_fulltext(tmp_path):
    """A Kùzu file loaded by ``byokg load`` declares full-text search; the linker uses it and
    falls back to the local index for what BM25 over names misses (the alias "USA")."""
    pytest.importorskip("kuzu")
    from byokg.demo import DEMO_GRAPH
    from byokg.graph.open import open_graph
    from byokg.io.loading import load_into

    uri = f"kuzu:{tmp_path / 'demo.kz'}"
    load_into([str(DEMO_GRAPH)], uri)
    store = open_graph(uri)
    try:
        if Capability.FULLTEXT not in store.capabilities:
            pytest.skip("this Kùzu build has no FTS extension")
        out = EntityLinker().link(["Wynton Marsalls", "Marsalis Wynton", "USA"], store=store,
                                  services=Services(), params=EntityLinkerParams())
    finally:
        store.close()
    assert out[0].candidates[0].id == "Wynton Marsalis"
    assert out[0].candidates[0].method == "fulltext"
    assert out[1].candidates[0].id == "Wynton Marsalis"
    assert (out[2].candidates[0].id, out[2].candidates[0].method) == ("United States", "alias")
