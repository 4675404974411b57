"""Dense FAISS index: cosine search, persistence, manifest mismatch -> rebuild."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from byokg.backends.memory import MemoryGraph

from byokg.config import RunConfig
from byokg.errors import InputError
from byokg.linking.dense import DenseIndex
from byokg.linking.indexes import get_dense_index
from byokg.models.embedders import LexicalEmbedder
from byokg.models.embedders import create_embedder
from byokg.models.services import Services

PAIRS = [("a", "Acme Corporation"), ("a", "ACME"), ("b", "Banana Bread Bakery"),
         ("c", "Wynton Marsalis"), ("d", "New Orleans"), ("e", "Acme Corporation")]


def test_lexical_embedder_is_normalised_and_deterministic():
    emb = LexicalEmbedder(dim=256)
    v = emb.encode(["Acme Corp", "ACME Corporation", "banana bread", ""])
    assert v.shape == (4, 256) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v[:3], axis=1), 1.0, atol=1e-5)
    sims = v @ v[0]
    assert sims[1] > sims[2] + 0.3  # spelling neighbours are closer
    # same vectors in a fresh interpreter (no PYTHONHASHSEED dependence)
    code = ("from byokg.models.embedders import LexicalEmbedder;"
            "print(LexicalEmbedder(dim=256).encode(['Acme Corp'])[0].round(5).tolist())")
    other = json.loads(subprocess.check_output([sys.executable, "-c", code], text=True))
    assert np.allclose(other, v[0], atol=1e-5)


def test_dense_search_and_shared_names():
    index = DenseIndex.from_pairs(PAIRS, LexicalEmbedder(), progress=False)
    assert len(index) == 5  # distinct texts; the alias "ACME" is its own row
    (ml,) = index.search(["acme corporation"], top_k=3)
    ids = [c.id for c in ml.candidates]
    assert set(ids[:2]) == {"a", "e"}  # two nodes share the name
    assert all(c.method == "dense" for c in ml.candidates)
    assert ml.candidates[0].score == pytest.approx(1.0, abs=1e-4)
    scores = [c.score for c in ml.candidates]
    assert scores == sorted(scores, reverse=True)
    (none,) = index.search(["Acme"], top_k=3, min_score=1.01)
    assert none.candidates == ()


def test_dense_save_load_and_mismatch(tmp_path):
    emb = LexicalEmbedder()
    index = DenseIndex.from_pairs(PAIRS, emb, progress=False)
    index.save(tmp_path / "d", store_uri="memory:x")
    man = json.loads((tmp_path / "d" / "manifest.json").read_text())
    assert man["embedder"] == emb.name and man["dim"] == emb.dim and man["count"] == len(PAIRS)
    assert man["fingerprint"] == index.fingerprint and man["byokg_version"]
    loaded = DenseIndex.load(tmp_path / "d", emb, expect_fingerprint=index.fingerprint)
    assert loaded.search(["Wynton"]) == index.search(["Wynton"])
    with pytest.raises(InputError, match="embedder"):
        DenseIndex.load(tmp_path / "d", LexicalEmbedder(dim=128))
    with pytest.raises(InputError, match="names changed"):
        DenseIndex.load(tmp_path / "d", emb, expect_fingerprint="1-0")


def test_dense_index_rebuilt_for_other_embedder_or_changed_graph(tmp_path):
    g = MemoryGraph.from_triplets([("Acme Corporation", "based_in", "New Orleans")],
                                  uri="memory:dn")
    svc = lambda: Services(RunConfig(index_dir=str(tmp_path), embedder="lexical"))  # noqa: E731
    assert get_dense_index(g, svc()).status == "built"
    assert get_dense_index(g, svc()).status == "loaded"
    g2 = MemoryGraph.from_triplets([("Acme Corporation", "based_in", "Baton Rouge")],
                                   uri="memory:dn")
    rebuilt = get_dense_index(g2, svc())
    assert rebuilt.status.startswith("rebuilt: fingerprint")
    assert rebuilt.search(["Baton Rouge"], top_k=1)[0].candidates[0].id == "Baton Rouge"
    # a manifest that disagrees on the embedder dimension is never used
    folder = next(p for p in (tmp_path).glob("*/dense-*"))
    man = json.loads((folder / "manifest.json").read_text())
    man["dim"] = 7
    (folder / "manifest.json").write_text(json.dumps(man))
    assert get_dense_index(g2, svc()).status.startswith("rebuilt: dim")


def test_create_embedder_by_name():
    assert create_embedder("lexical").name == "lexical-512"
    assert create_embedder("lexical", dim=64).dim == 64


def test_numpy_fallback_matches_faiss(tmp_path, monkeypatch):
    from byokg.linking import dense

    emb = LexicalEmbedder()
    with_faiss = DenseIndex.from_pairs(PAIRS, emb, progress=False)
    monkeypatch.setattr(dense, "_has_faiss", lambda: False)
    plain = DenseIndex.from_pairs(PAIRS, emb, progress=False)
    assert isinstance(plain.index, dense.NumpyFlatIP)
    for m in ["acme", "Wynton Marsalis", "bakery bread"]:
        a = with_faiss.search([m], top_k=3)[0]
        b = plain.search([m], top_k=3)[0]
        assert a.ids[:2] == b.ids[:2]  # the third may be a tie at similarity ~0
        assert [c.score for c in a.candidates] == pytest.approx([c.score for c in b.candidates],
                                                                abs=1e-4)
    plain.save(tmp_path / "np")
    assert (tmp_path / "np" / "vectors.npy").is_file()
    again = DenseIndex.load(tmp_path / "np", emb)
    assert again.search(["acme"]) == plain.search(["acme"])


def test_lexical_embedder_spreads_grams_and_ranks_by_spelling():
    """Regression: distinct grams must land in distinct buckets (a weak hash once folded 77
    grams into 17 of 512 buckets, making unrelated texts look similar)."""
    import numpy as np

    from byokg.language.grams import _codes
    from byokg.models.embedders import _mix64

    _, codes = _codes(["the quick brown fox jumps over the lazy dog"])
    distinct = np.unique(codes)
    buckets = np.unique(_mix64(distinct) % np.uint64(512))
    assert len(buckets) >= 0.85 * len(distinct)
    v = LexicalEmbedder().encode(["xyz qqq", "birth place", "place of birth", "Acme Corp",
                                  "ACME Corporation", "banana bread"])
    sim = v @ v.T
    assert abs(sim[0, 1]) < 0.1  # nothing shared
    assert sim[1, 2] > 0.5 and sim[3, 4] > 0.5  # shared spelling
    assert sim[3, 4] > sim[3, 5] + 0.4


def test_a_few_queries_score_like_a_batch():
    """A few mentions are scored in one thread over the index's vectors, a batch by FAISS (or
    BLAS): both give the same candidates and scores."""
    import random

    from byokg.linking.dense import SMALL_BATCH

    rng = random.Random(7)
    words = {"".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 12)))
             for _ in range(400)}
    pairs = [(f"n{i}", w.title()) for i, w in enumerate(sorted(words))]
    index = DenseIndex.from_pairs(pairs, LexicalEmbedder(), progress=False)
    mentions = [pairs[3][1][:-1], pairs[50][1] + "s", pairs[200][1].lower(), "Qwerty"]
    few = index.search(mentions, top_k=5)
    batch = index.search(mentions * SMALL_BATCH, top_k=5)[: len(mentions)]
    for a, b in zip(few, batch, strict=True):  # equal scores may come in either order

        def ranked(links):
            return sorted((-round(c.score, 3), c.id) for c in links.candidates)

        assert ranked(a) == ranked(b) and a.candidates[0].id == b.candidates[0].id
