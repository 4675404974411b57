"""FlagEmbedding embedder and reranker loading (tiny random BERT built here, no hub) and the
real MiniLM weights."""

from __future__ import annotations

import numpy as np
import pytest

from byokg import registry
from byokg.config import RunConfig
from byokg.errors import ConfigError
from byokg.errors import ModelNotFoundError
from byokg.models.embedders import create_embedder
from byokg.models.embedders import default_embedder_name
from byokg.models.embedders import minilm_available
from byokg.models.services import Services


def test_missing_model_paths_are_clear_errors(tmp_path):
    missing = tmp_path / "no-such-model"
    with pytest.raises(ModelNotFoundError) as exc:
        registry.rerankers().create("flag", path=str(missing))
    assert str(missing) in str(exc.value) and "pip install 'byokg[embeddings]'" in str(exc.value)
    with pytest.raises(ModelNotFoundError) as exc:
        registry.embedders().create("flag", path=str(missing))
    assert str(missing) in str(exc.value) and "byokg[embeddings]" in str(exc.value)
    with pytest.raises(ModelNotFoundError, match="path="):
        registry.rerankers().create("flag")
    with pytest.raises(ConfigError, match="path="):
        registry.embedders().create("flag")


def test_cosine_reranker_with_lexical():
    rr = registry.rerankers().create("cosine", embedder="lexical")
    s = rr.score("Acme Corp", ["ACME Corporation", "banana bread"])
    assert len(s) == 2 and s[0] > s[1]
    assert rr.score("x", []) == []


def test_default_embedder_name():
    assert default_embedder_name() == ("minilm" if minilm_available() else "static")


@pytest.mark.model
def test_flag_embedder_with_tiny_bert(tiny_bert):
    emb = create_embedder("flag", path=str(tiny_bert), pooling="mean")
    assert emb.name == f"flag:{tiny_bert.name}" and emb.dim == 32
    v = emb.encode(["acme corp", "banana bread", "wynton marsalis"], batch_size=2)
    assert v.shape == (3, 32) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert not np.allclose(v[0], v[1])
    # cached per process: the same options give the same loaded model
    assert create_embedder("flag", path=str(tiny_bert), pooling="mean") is emb
    cls = create_embedder("flag", path=str(tiny_bert), pooling="cls")
    assert cls is not emb and not np.allclose(cls.encode(["acme corp"])[0], v[0])


@pytest.mark.model
def test_flag_reranker_with_tiny_bert(tiny_reranker):
    rr = registry.rerankers().create("flag", path=str(tiny_reranker))
    s = rr.score("acme corp", ["acme corporation", "banana bread", "new orleans"], batch_size=2)
    assert len(s) == 3 and all(0.0 <= x <= 1.0 for x in s)  # sigmoid-normalised
    assert len(set(round(x, 6) for x in s)) > 1
    assert rr.score("acme", []) == []


@pytest.mark.model
def test_services_reranker_from_env(tiny_reranker, monkeypatch):
    monkeypatch.setenv("BYOKG_RERANKER_PATH", str(tiny_reranker))
    rr = Services(RunConfig(reranker="flag")).reranker
    assert rr is not None and rr.name == f"flag:{tiny_reranker.name}"


@pytest.mark.model
@pytest.mark.skipif(not minilm_available(), reason="MiniLM package not installed")
def test_minilm_ranking_is_sensible():
    emb = create_embedder("minilm")
    assert emb.name == "minilm" and emb.dim == 384
    v = emb.encode(["Acme Corp", "ACME Corporation", "banana bread"])
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.3
    assert create_embedder() is emb  # the default, cached
    rr = registry.rerankers().create("cosine")
    s = rr.score("Acme Corp", ["banana bread", "ACME Corporation"])
    assert s[1] > s[0]
