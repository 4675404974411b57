"""The fuzzy name index as it was before its strings moved into buffers (lists and dicts of
Python strings): the reference the compact index must answer exactly like. Test code only.

Fuzzy name index: exact/alias lookup, token + n-gram candidate generation, rapidfuzz scoring.

Built once from ``store.iter_node_names()``. A mention is normalised (case, accents, punctuation,
whitespace); an exact or alias hit scores 1.0 and always ranks first. Otherwise each mention
word is matched to the graph's word vocabulary (itself and spellings within one or two edits,
found through a character bigram/trigram index over the vocabulary), every name holding those
words gets an IDF-weighted overlap score in one ``numpy.bincount``, and only the best couple of
hundred names are scored with rapidfuzz. No mention ever scores every name.

The fuzzy score (:func:`score_names`) is
``max(ratio, token_sort_ratio, token_set_ratio * (0.6 + 0.4 * len_ratio)) / 100`` on the
normalised strings, capped at 0.99 so it never ties an exact match: typos go through
``ratio``, word order through ``token_sort_ratio``, a mention longer than the name ("wynton
marsalis trumpeter" -> "Wynton Marsalis") through ``token_set_ratio``, discounted by how much
of the longer string the shorter one covers (so "Wynton Marsalis" beats "Wynton").
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from byokg.errors import InputError
from byokg.language import lexicon
from byokg.language.grams import fast_normalize, gram_table
from byokg.linking import fuzzy
from byokg.linking.interning import intern_names
from byokg.linking.manifest import (
    Manifest,
    byokg_version,
    fingerprint,
    read_manifest,
    write_manifest,
)

log = logging.getLogger("byokg.linking")

FORMAT = 1
FUZZY_CAP = 0.99
_WORD = re.compile(r"[^\W_]+", re.UNICODE)

STOP_WORDS = lexicon.NAME_STOPWORDS  # function words that never make a name match alone


_GLUED_BEFORE = "-&+#@/_"  # a character joined to the span: it is part of a longer token
_GLUED_AFTER = "-&+#@/_'’"


def short_name_ok(span: str) -> bool:
    """Whether a span of 1–3 characters is written like a name: it has a capital letter or a
    digit ("Go", "C", "R", "UK", "Io", "U2"), and is not a common word ("In", "It", "A") unless
    written in capitals ("US", "IT")."""
    if not any(c.isupper() or c.isdigit() for c in span):
        return False
    common = span.lower() in STOP_WORDS
    return not common or (span.isupper() and len(span) >= 2)


class Spot(BaseModel):
    """A graph name found verbatim (after normalisation) in a text.

    ``start``/``end`` are character offsets into the original text; ``exact`` is True when the
    span is written exactly like one of the nodes' names (same case and accents).
    """

    model_config = ConfigDict(frozen=True)

    mention: str
    start: int
    end: int
    ids: tuple[str, ...]
    exact: bool


class NameIndex(fuzzy.NameIndex):
    """Normalised names and aliases -> node ids, with an n-gram inverted index for fuzzy search.

    Build with :meth:`from_store` or :meth:`from_pairs`; persist with :meth:`save` /
    :meth:`load`. The first pair seen for a node id is its name, later pairs are aliases (the
    order ``iter_node_names`` yields them in).
    """

    def __init__(
        self,
        *,
        node_ids: list[str],
        node_names: list[str],
        keys: list[str],
        key_raw: list[str],
        key_ptr: np.ndarray,
        entry_node: np.ndarray,
        entry_alias: np.ndarray,
        fingerprint: str,
        count: int,
        tables: dict[str, np.ndarray] | None = None,
    ) -> None:
        self.node_ids = node_ids
        self.node_names = node_names
        self.keys = keys
        self.key_raw = key_raw
        self.key_ptr = key_ptr
        self.entry_node = entry_node
        self.entry_alias = entry_alias
        self.fingerprint = fingerprint
        self.count = count
        self.lookup: dict[str, int] = {k: i for i, k in enumerate(keys)}
        if tables is None:
            tables = _token_tables(keys)
        self.vocab_list: list[str] = tables.pop("vocab")  # type: ignore[assignment]
        self.tables = tables
        self.vocab: dict[str, int] = {t: i for i, t in enumerate(self.vocab_list)}
        self.tok_ptr = tables["tok_ptr"]
        self.tok_post = tables["tok_post"]
        self.vgram_codes = tables["vgram_codes"]
        self.vgram_ptr = tables["vgram_ptr"]
        self.vgram_post = tables["vgram_post"]
        self.vgram_count = tables["vgram_count"]
        n = max(len(keys), 1)
        df = np.diff(self.tok_ptr).astype(np.float64)
        self.idf = np.log1p(n / np.maximum(df, 1.0))
        self.max_idf = float(math.log1p(n))
        self.key_weight = np.bincount(
            self.tok_post, weights=np.repeat(self.idf, np.diff(self.tok_ptr)), minlength=len(keys)
        )
        self._tok_cache: dict[str, list[tuple[int, float]]] = {}
        self._initials_table: tuple[list[str], list[int]] | None = None

    # ------------------------------------------------------------------ building
    @classmethod
    def from_pairs(
        cls, pairs: Iterable[tuple[str, str]], *, fingerprint_: str | None = None
    ) -> NameIndex:
        """Build from ``(node_id, name_or_alias)`` pairs."""
        pairs = pairs if isinstance(pairs, list) else list(pairs)
        t = intern_names(pairs, fast_normalize)
        return cls(
            node_ids=t.node_ids,
            node_names=t.node_names,
            keys=t.keys,
            key_raw=t.key_raw,
            key_ptr=t.key_ptr,
            entry_node=t.entry_node,
            entry_alias=t.entry_alias,
            fingerprint=fingerprint_ or fingerprint(pairs),
            count=len(pairs),
        )

    @classmethod
    def from_store(cls, store: Any) -> NameIndex:
        from byokg.linking.manifest import collect_names

        t0 = time.perf_counter()
        pairs, fp = collect_names(store)
        index = cls.from_pairs(pairs, fingerprint_=fp)
        log.info("built name index for %s: %d names in %.2fs", store.uri,
                 len(pairs), time.perf_counter() - t0)
        return index

    # the query methods (exact, search, spot, initials …) are the compact index's own, unchanged
    # by the move into buffers: inherited, so this class differs only in how it stores

    # ------------------------------------------------------------------ persistence
    def manifest(self, store_uri: str | None = None) -> Manifest:
        return Manifest(kind="names", format=FORMAT, byokg_version=byokg_version(),
                        count=self.count, fingerprint=self.fingerprint, store_uri=store_uri)

    def save(self, folder: str | Path, *, store_uri: str | None = None) -> Path:
        """Write the index and (last) its manifest into ``folder``."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "manifest.json").unlink(missing_ok=True)
        np.savez(folder / "names.npz", key_ptr=self.key_ptr, entry_node=self.entry_node,
                 entry_alias=self.entry_alias, **self.tables)
        with open(folder / "names.json", "w", encoding="utf-8") as fh:
            json.dump({"node_ids": self.node_ids, "node_names": self.node_names,
                       "keys": self.keys, "key_raw": self.key_raw, "vocab": self.vocab_list},
                      fh, ensure_ascii=False)
        write_manifest(folder, self.manifest(store_uri))
        return folder

    @classmethod
    def load(cls, folder: str | Path, *, expect_fingerprint: str | None = None) -> NameIndex:
        """Load a saved index; :class:`InputError` when it is missing, broken or stale."""
        folder = Path(folder)
        man = read_manifest(folder)
        if man is None or man.kind != "names":
            raise InputError("no name index here (manifest.json missing)", source=str(folder))
        if man.format != FORMAT:
            raise InputError(f"index format {man.format} != {FORMAT}; rebuild it",
                             source=str(folder))
        if expect_fingerprint is not None and man.fingerprint != expect_fingerprint:
            raise InputError("index is stale: the graph's names changed since it was built",
                             source=str(folder))
        try:
            arrays = np.load(folder / "names.npz")
            with open(folder / "names.json", encoding="utf-8") as fh:
                strings = json.load(fh)
            return cls(
                node_ids=strings["node_ids"], node_names=strings["node_names"],
                keys=strings["keys"], key_raw=strings["key_raw"],
                key_ptr=arrays["key_ptr"], entry_node=arrays["entry_node"],
                entry_alias=arrays["entry_alias"], fingerprint=man.fingerprint, count=man.count,
                tables={"vocab": strings["vocab"], **{k: arrays[k] for k in _TABLES}},
            )
        except (OSError, KeyError, ValueError) as exc:
            raise InputError(f"cannot read name index ({exc}); delete it to rebuild",
                             source=str(folder)) from None


_TABLES = ("tok_ptr", "tok_post", "vgram_codes", "vgram_ptr", "vgram_post", "vgram_count")


def _initials(raw: str) -> str:
    """The initials of a name's capitalised words ("United States of America" -> "USA"); empty
    when a word is neither capitalised nor a lower-case function word, or for one word."""
    parts = raw.replace("-", " ").split()
    if not 2 <= len(parts) <= 6:
        return ""
    out = []
    for w in parts:
        if w[:1].isupper():
            out.append(w[0])
        elif w.lower() not in STOP_WORDS:
            return ""
    return "".join(out)


def _token_tables(keys: Sequence[str]) -> dict:
    """Word vocabulary, word -> keys postings, and a gram index over the vocabulary."""
    vocab: dict[str, int] = {}
    tid: list[int] = []
    kid: list[int] = []
    setdefault = vocab.setdefault
    for ki, k in enumerate(keys):
        for t in set(k.split()):
            tid.append(setdefault(t, len(vocab)))
            kid.append(ki)
    n = max(len(keys), 1)
    pair = np.asarray(tid, np.int64) * n + np.asarray(kid, np.int64)
    pair.sort()
    tok = pair // n
    tok_post = (pair - tok * n).astype(np.int32)
    tok_ptr = np.zeros(len(vocab) + 1, np.int64)
    np.cumsum(np.bincount(tok, minlength=len(vocab)), out=tok_ptr[1:])
    vocab_list = list(vocab)
    vcodes, vptr, vpost, vcount = gram_table(vocab_list)
    return {"vocab": vocab_list, "tok_ptr": tok_ptr, "tok_post": tok_post,
            "vgram_codes": vcodes, "vgram_ptr": vptr, "vgram_post": vpost, "vgram_count": vcount}


def _weighted_counts(post: np.ndarray, w: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct ids in ``post`` and the summed weights of each."""
    if len(post) * 8 < n:  # few postings: sort them instead of touching all n ids
        uniq, inv = np.unique(post, return_inverse=True)
        return uniq, np.bincount(inv, weights=w)
    sums = np.bincount(post, weights=w, minlength=n)
    uniq = np.flatnonzero(sums)
    return uniq, sums[uniq]


def _overlap_top(codes: np.ndarray, ptr: np.ndarray, post: np.ndarray, count: np.ndarray,
                 query: np.ndarray, limit: int) -> np.ndarray:
    """Ids of the ``limit`` items sharing the most grams with ``query`` (by Dice overlap);
    ``count[i]`` is item ``i``'s number of distinct grams."""
    n = len(count)
    pos = np.searchsorted(codes, query)
    pos[pos >= len(codes)] = 0
    g = pos[codes[pos] == query]
    if not len(g):
        return np.zeros(0, np.int64)
    parts = [post[ptr[i]:ptr[i + 1]] for i in g.tolist()]
    ids = np.concatenate(parts)
    uniq, shared = _weighted_counts(ids, np.ones(len(ids)), n)
    if len(uniq) <= limit:
        return uniq
    dice = shared / (len(query) + count[uniq])
    return uniq[np.argpartition(-dice, limit)[:limit]]


def score_names(key: str, choices: Sequence[str]) -> np.ndarray:
    """Fuzzy similarity (0..0.99) of a normalised mention to normalised names.

    ``max(ratio, token_sort_ratio, token_set_ratio * (0.6 + 0.4 * len_ratio)) / 100``:
    ``ratio`` for typos in the written order, ``token_sort_ratio`` for word order,
    ``token_set_ratio`` for a mention that contains the name or the reverse, discounted by
    how much of the longer string the shorter covers.
    """
    from rapidfuzz import fuzz, process

    if not choices:
        return np.zeros(0, np.float32)
    q = [key]
    plain = process.cdist(q, choices, scorer=fuzz.ratio, dtype=np.float32)[0]
    srt = process.cdist(q, choices, scorer=fuzz.token_sort_ratio, dtype=np.float32)[0]
    sets = process.cdist(q, choices, scorer=fuzz.token_set_ratio, dtype=np.float32)[0]
    lens = np.fromiter((len(c) for c in choices), np.float32, len(choices))
    cov = np.minimum(lens, len(key)) / np.maximum(lens, len(key))
    score = np.maximum(np.maximum(plain, srt), sets * (0.6 + 0.4 * cov)) / 100.0
    return np.minimum(score, FUZZY_CAP)
