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

import bisect
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

from byokg.contracts import Candidate, MentionLinks
from byokg.errors import InputError
from byokg.language import lexicon
from byokg.language.grams import fast_normalize, gram_codes, gram_table
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


class NameIndex:
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

    def __len__(self) -> int:
        return len(self.keys)

    # ------------------------------------------------------------------ lookup
    def _nodes_of(self, key_idx: int) -> list[tuple[int, bool]]:
        s, e = self.key_ptr[key_idx], self.key_ptr[key_idx + 1]
        return list(zip(self.entry_node[s:e].tolist(), self.entry_alias[s:e].tolist(), strict=True))

    def exact(self, mention: str) -> list[tuple[str, bool]]:
        """Node ids whose name or alias normalises like ``mention``: ``[(id, is_alias)]``."""
        ki = self.lookup.get(fast_normalize(mention))
        if ki is None:
            return []
        return [(self.node_ids[n], a) for n, a in self._nodes_of(ki)]

    def token_matches(self, token: str, *, limit: int = 64) -> list[tuple[int, float]]:
        """Vocabulary tokens close to ``token``: ``[(token id, similarity)]``.

        The token itself (similarity 1) plus tokens within an OSA edit distance of 1 (tokens
        of 3-5 characters) or 2 (longer), found through the vocabulary's gram index;
        similarity 0.85 per edit. A token absent from the vocabulary that splits into two
        vocabulary tokens ("wyntonmarsalis") matches both halves.
        """
        cached = self._tok_cache.get(token)
        if cached is not None:
            return cached
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        out: list[tuple[int, float]] = []
        tid = self.vocab.get(token)
        if tid is not None:
            out.append((tid, 1.0))
        allowed = 0 if len(token) <= 2 else 1 if len(token) <= 5 else 2
        if allowed and len(self.vgram_codes):
            cand = _overlap_top(self.vgram_codes, self.vgram_ptr, self.vgram_post,
                                self.vgram_count, gram_codes(token), limit)
            if len(cand):
                words = [self.vocab_list[i] for i in cand.tolist()]
                dist = process.cdist([token], words, scorer=OSA.distance, score_cutoff=allowed,
                                     dtype=np.int32)[0]
                for i in np.flatnonzero(dist <= allowed).tolist():
                    if int(cand[i]) != tid:
                        out.append((int(cand[i]), 0.85 ** int(dist[i])))
        if tid is None:
            for cut in range(2, len(token) - 1):
                a, b = self.vocab.get(token[:cut]), self.vocab.get(token[cut:])
                if a is not None and b is not None:
                    out.extend(((a, 0.9), (b, 0.9)))
                    break
        if len(self._tok_cache) > 100_000:
            self._tok_cache.clear()
        self._tok_cache[token] = out
        return out

    def candidate_keys(self, key: str, *, limit: int = 200, budget: int = 400_000) -> np.ndarray:
        """Indices of the keys most likely to match ``key`` (before rapidfuzz scoring).

        Every mention token is matched to vocabulary tokens (itself and close spellings); the
        keys holding them get an IDF-weighted overlap score in one ``bincount``. Keys are
        ranked two ways and the union of both top lists taken: weighted Dice overlap (typos,
        word order) and the share of the key the mention covers (mentions longer than the
        name). ``budget`` bounds the postings read: the most common tokens are skipped beyond
        it (they carry little weight).
        """
        toks = list(dict.fromkeys(key.split()))
        tids: list[int] = []
        wts: list[float] = []
        mention_w = 0.0
        for t in toks:
            matches = self.token_matches(t)
            mention_w += max((float(self.idf[i]) for i, s in matches if s == 1.0),
                             default=self.max_idf)
            for i, sim in matches:
                tids.append(i)
                wts.append(float(self.idf[i]) * sim)
        if not tids:
            return np.zeros(0, np.int64)
        ti = np.asarray(tids, np.int64)
        starts, ends = self.tok_ptr[ti], self.tok_ptr[ti + 1]
        lens = ends - starts
        order = np.argsort(lens, kind="stable")
        keep = order[np.cumsum(lens[order]) <= budget]
        if not len(keep):
            keep = order[:1]
        parts = [self.tok_post[starts[i]:ends[i]] for i in keep.tolist()]
        post = np.concatenate(parts) if len(parts) > 1 else parts[0]
        w = np.repeat(np.asarray(wts, np.float64)[keep], lens[keep])
        uniq, shared = _weighted_counts(post, w, len(self.keys))
        if len(uniq) <= limit:
            return uniq
        kw = self.key_weight[uniq]
        dice = 2.0 * shared / (mention_w + kw)
        cover = shared / np.maximum(kw, 1e-9) + shared * 1e-3  # ties: longer names first
        half = limit // 2
        top_d = np.argpartition(-dice, half)[:half]
        top_c = np.argpartition(-cover, half)[:half]
        return uniq[np.union1d(top_d, top_c)]

    def search(
        self,
        mentions: Sequence[str],
        top_k: int = 3,
        min_score: float = 0.6,
        *,
        fuzzy: bool = True,
        limit: int = 200,
    ) -> list[MentionLinks]:
        """Top ``top_k`` nodes per mention, grouped per mention, best first.

        Exact and alias matches score 1.0 and come first; fuzzy matches score in
        ``[min_score, 0.99]``. Several nodes sharing a name each get a candidate.
        """
        return [self._search_one(m, top_k, min_score, fuzzy, limit) for m in mentions]

    def _search_one(self, mention: str, top_k: int, min_score: float, fuzzy: bool,
                    limit: int) -> MentionLinks:
        key = fast_normalize(mention)
        best: dict[int, tuple[float, int, str]] = {}  # node -> (score, rank, method)
        last = 2.0
        if not key or top_k <= 0:
            return MentionLinks(mention=mention)
        ki = self.lookup.get(key)
        if ki is not None:
            for node, alias in self._nodes_of(ki):
                cand = (1.0, 1 if alias else 2, "alias" if alias else "exact")
                if node not in best or cand[:2] > best[node][:2]:
                    best[node] = cand
        if fuzzy and len(best) < top_k:
            need = top_k - len(best)
            fuzzy_nodes: set[int] = set()
            for k_idx, score in self.fuzzy_keys(key, limit=limit, min_score=min_score):
                if len(fuzzy_nodes) >= need and score < last:
                    break  # sorted best first: the rest cannot enter the top k
                last = score
                for node, _alias in self._nodes_of(k_idx):
                    if node not in best:
                        fuzzy_nodes.add(node)
                        best[node] = (score, 0, "fuzzy")
        ranked = sorted(best.items(), key=lambda kv: (-kv[1][1], -kv[1][0],
                                                      self.node_ids[kv[0]]))
        return MentionLinks(
            mention=mention,
            candidates=tuple(
                Candidate(id=self.node_ids[n], name=self.node_names[n], score=round(s, 4), method=m)
                for n, (s, _r, m) in ranked[:top_k]
            ),
        )

    def fuzzy_keys(
        self, key: str, *, limit: int = 200, min_score: float = 0.0
    ) -> list[tuple[int, float]]:
        """``(key index, score)`` of the best fuzzy matches of a normalised key, best first."""
        cand = self.candidate_keys(key, limit=limit)
        if not len(cand):
            return []
        score = score_names(key, [self.keys[i] for i in cand.tolist()])
        ok = np.flatnonzero(score >= min_score)
        ok = ok[np.argsort(-score[ok], kind="stable")]
        return [(int(cand[i]), float(score[i])) for i in ok.tolist()]

    # ------------------------------------------------------------------ spotting
    def spot(self, text: str, max_ngram: int = 6, *, max_ids: int = 20) -> list[Spot]:
        """Graph names occurring in ``text``: longest non-overlapping n-gram matches.

        Skipped: n-grams made only of stop words, bare numbers under four digits, and one-word
        names of one to three characters unless the text writes them exactly as a node's name
        (case kept), like a name (:func:`short_name_ok`: "Go", "C", "UK", "Io"), at word
        boundaries ("C" is not spotted in "C++" or "C#"). ``ids`` holds at most ``max_ids``
        nodes.
        """
        words: list[tuple[str, int, int]] = []  # (normalised word, start, end)
        for m in _WORD.finditer(text):
            for w in fast_normalize(m.group()).split():
                words.append((w, m.start(), m.end()))
        found: list[tuple[int, int, int]] = []  # (i, n, key index)
        for i in range(len(words)):
            for n in range(min(max_ngram, len(words) - i), 0, -1):
                ki = self.lookup.get(" ".join(w for w, _s, _e in words[i:i + n]))
                if ki is None or self._skip(words[i:i + n], text, ki):
                    continue
                found.append((i, n, ki))
        found.sort(key=lambda f: (-f[1], f[0]))
        taken = [False] * len(words)
        spots: list[Spot] = []
        for i, n, ki in found:
            if any(taken[i:i + n]):
                continue
            for j in range(i, i + n):
                taken[j] = True
            start, end = words[i][1], words[i + n - 1][2]
            span = text[start:end]
            nodes = self._nodes_of(ki)
            ids = tuple(dict.fromkeys(self.node_ids[nd] for nd, _a in nodes))[:max_ids]
            exact = span == self.key_raw[ki] or any(span == self.node_names[nd] for nd, _a in nodes)
            spots.append(Spot(mention=span, start=start, end=end, ids=ids, exact=exact))
        spots.sort(key=lambda s: s.start)
        return spots

    def _skip(self, words: list[tuple[str, int, int]], text: str, ki: int) -> bool:
        if len(words) == 1:
            w, s, e = words[0]
            if w.isdigit():
                return len(w) < 4
            if len(w) <= 3 and len(text[s:e]) <= 3:
                return not self._short_name_here(text, s, e, ki)
        return all(w in STOP_WORDS for w, _s, _e in words)

    def _short_name_here(self, text: str, s: int, e: int, ki: int) -> bool:
        """A 1–3 character name stands at ``text[s:e]``: written like a name, exactly as one of
        the nodes' names or aliases (case kept), not glued to other characters."""
        span = text[s:e]
        if not short_name_ok(span):
            return False
        before = text[s - 1] if s > 0 else " "
        after = text[e] if e < len(text) else " "
        if before.isalnum() or after.isalnum() or before in _GLUED_BEFORE or after in _GLUED_AFTER:
            return False
        if span == self.key_raw[ki]:
            return True
        return any(span == self.node_names[nd] for nd, _a in self._nodes_of(ki)[:50])

    def initials(self, acronym: str, *, limit: int = 200) -> list[tuple[str, bool]]:
        """Node ids whose name's capitalised words start with the letters of ``acronym``
        ("USA" -> *United States of America*; "US" also reaches it as a prefix of its
        initials), exact initials first: ``[(id, exact)]``. The table is built on first use."""
        table = self._initials_table
        if table is None:
            pairs = sorted((ini, ki) for ki, raw in enumerate(self.key_raw)
                           if len(ini := _initials(raw)) >= 2)
            table = self._initials_table = ([p[0] for p in pairs], [p[1] for p in pairs])
        letters = acronym.replace(".", "").upper()
        if len(letters) < 2:
            return []
        keys, kis = table
        out: dict[str, bool] = {}
        i = bisect.bisect_left(keys, letters)
        while i < len(keys) and keys[i].startswith(letters) and len(out) < limit:
            for nd, _a in self._nodes_of(kis[i]):
                exact = keys[i] == letters
                out[self.node_ids[nd]] = out.get(self.node_ids[nd], False) or exact
            i += 1
        return sorted(out.items(), key=lambda kv: not kv[1])

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
