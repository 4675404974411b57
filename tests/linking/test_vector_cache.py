"""What a CLI call leaves on disk for the next one on the same graph: the text vectors of the
model of meaning (per graph and embedder) and the name index, in the graph's cache folder."""

from __future__ import annotations

import numpy as np
import pytest

from byokg.config import RunConfig
from byokg.config import graph_cache_dir
from byokg.graph.open import open_graph
from byokg.linking.indexes import get_name_index
from byokg.models import cache as vcache
from byokg.models import similarity
from byokg.models.cache import VectorFile
from byokg.models.cache import vector_file
from byokg.models.embedders import LexicalEmbedder
from byokg.models.services import Services
from byokg.pipeline.engine import Engine

ROWS = """head,relation,tail
Ada Quill,place_of_birth,Northport
Northport,located_in,Varnland
Ada Quill,occupation,Cartographer
Bram Toll,place_of_birth,Eastmere
Eastmere,located_in,Varnland
Bram Toll,employer,Varnland Survey
"""


@pytest.fixture
def graph_uri(tmp_path, monkeypatch) -> str:
    monkeypatch.setenv("BYOKG_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "kg.csv"
    path.write_text(ROWS, encoding="utf-8")
    return f"memory:{path}"


def _forget(monkeypatch) -> None:
    """What a new process starts with: no vectors in memory, no open vector files."""
    monkeypatch.setattr(similarity, "_VECTORS", similarity.weakref.WeakKeyDictionary())
    monkeypatch.setattr(vcache, "_FILES", {})


def test_vector_file_round_trip_and_what_it_refuses(tmp_path, monkeypatch):
    emb = LexicalEmbedder(64)
    f = vector_file(tmp_path, emb)
    got = similarity.encode_cached(emb, ["born in", "located in"], file=f)
    assert f.due() and f.flush() == 2 and f.flush() == 0 and not f.due()
    similarity.encode_cached(emb, ["employer"], file=f)
    assert not f.due()  # written once already: new vectors wait for more or for time
    monkeypatch.setattr(vcache, "FLUSH_TEXTS", 1)
    assert f.due() and vcache.flush_vector_files(tmp_path) == 1
    again = VectorFile(f.path, emb)  # another process
    held = again.get(["born in", "located in", "employer", "unseen"])
    assert set(held) == {"born in", "located in", "employer"}
    assert np.allclose(held["born in"], got[0])
    assert VectorFile(f.path, LexicalEmbedder(32)).get(["born in"]) == {}  # another dimension
    f.path.write_bytes(b"not a zip file")
    assert VectorFile(f.path, emb).get(["born in"]) == {}  # unreadable: ignored, rebuilt


def test_second_run_embeds_nothing_it_embedded_before(graph_uri, monkeypatch):
    from byokg.models.static import StaticEmbedder

    calls: list[int] = []
    real = StaticEmbedder.encode

    def counting(self, texts, **kw):
        calls.append(list(texts))
        return real(self, texts, **kw)

    monkeypatch.setattr(StaticEmbedder, "encode", counting)
    question = "Where was Ada Quill born?"
    cfg = RunConfig(embedder="static")
    _forget(monkeypatch)
    with open_graph(graph_uri) as store:
        first = Engine(store, cfg).ask(question)
    words = {"place of birth", "located in", "occupation", "employer"}  # the graph's relations
    assert words & {t for c in calls for t in c}
    folder = graph_cache_dir(graph_uri)
    assert list(folder.glob("vectors-static-*.npz"))
    calls.clear()
    _forget(monkeypatch)
    with open_graph(graph_uri) as store:
        second = Engine(store, cfg).ask(question)
    # only what this question brings (itself, its context lines, itself with its entity
    # masked for the offline scorer's meaning) is embedded again
    assert not words & {t for c in calls for t in c}
    masked = {t for c in calls for t in c if set(t.split()) < set(question.split())}
    assert {t for c in calls for t in c} - masked <= {question,
                                                      *(i.text for i in second.context)}
    assert second.answers == first.answers


def test_name_index_is_kept_next_to_the_profile(graph_uri):
    with open_graph(graph_uri) as store:
        assert get_name_index(store, Services(RunConfig())).status == "built"
    with open_graph(graph_uri) as store:
        index = get_name_index(store, Services(RunConfig()))
    assert index.status == "loaded" and index.exact("Ada Quill")
    assert (graph_cache_dir(graph_uri) / "names" / "manifest.json").is_file()


def test_cache_off_keeps_nothing(graph_uri, monkeypatch, tmp_path):
    monkeypatch.setenv("BYOKG_CACHE_DIR", "off")
    assert graph_cache_dir(graph_uri) is None
    with open_graph(graph_uri) as store:
        Engine(store, RunConfig(embedder="static")).ask("Where was Ada Quill born?")
    assert not (tmp_path / "cache").exists()
