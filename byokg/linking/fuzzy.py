"""Fuzzy name index: exact/alias lookup, token + n-gram candidate generation, rapidfuzz scoring.

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

import hashlib
import logging
import math
import re
import time
from array import array
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.language import lexicon
from byokg.language.grams import _codes
from byokg.language.grams import fast_normalize
from byokg.language.grams import gram_codes

from ..contracts import Candidate
from ..contracts import MentionLinks
from ..errors import InputError
from .manifest import Fingerprint
from .manifest import Manifest
from .manifest import byokg_version
from .manifest import read_manifest
from .manifest import write_manifest
from .strings import StrArray
from .strings import StrBuilder
from .strings import StrLookup
from .strings import intern

log = logging.getLogger("byokg.linking")

FORMAT = 2  # 2: strings in buffers (names.npz + ids.npz); 1 kept them in names.json
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

    Strings live in buffers (:mod:`byokg.linking.strings`), not Python lists: ``raw`` holds
    the names as written (node ``i``'s name is ``raw[i]`` unless ``node_name_ref`` maps it,
    key ``k``'s first spelling is ``raw[key_raw_ref[k]]``), a key is recomputed from its
    spelling (``fast_normalize``), and keys and words are found by hash (:class:`StrLookup`).
    The node ids are the store's own list when it has one (the memory backend), else a buffer.
    """

    def __init__(
        self,
        *,
        node_ids: Sequence[str],
        raw: StrArray,
        node_name_ref: np.ndarray | None,
        key_raw_ref: np.ndarray,
        key_hashes: np.ndarray,
        key_order: np.ndarray,
        key_seed: int,
        key_ptr: np.ndarray,
        entry_node: np.ndarray,
        entry_alias: np.ndarray,
        fingerprint: str,
        count: int,
        tables: dict[str, Any],
        ids_digest: str | None = None,
        key_weight: np.ndarray | None = None,
    ) -> None:
        self.node_ids = node_ids
        self.raw = raw
        self.node_name_ref = node_name_ref
        self.key_raw_ref = key_raw_ref
        self.node_names = _Ref(raw, node_name_ref, len(node_ids))
        self.key_raw = _Ref(raw, key_raw_ref, len(key_raw_ref))
        self.keys = _Keys(self.key_raw)
        self.lookup = StrLookup.from_sorted(self.keys, key_hashes, key_order, key_seed)
        self.key_ptr = key_ptr
        self.entry_node = entry_node
        self.entry_alias = entry_alias
        self.fingerprint = fingerprint
        self.count = count
        self.ids_digest = ids_digest
        self.vocab_list: StrArray = tables["vocab"]
        self.vocab = StrLookup.from_sorted(self.vocab_list, tables["vocab_hashes"],
                                           tables["vocab_order"], int(tables["vocab_seed"]))
        self.tables = {k: tables[k] for k in _TABLES}
        self._set_postings(tables, len(key_raw_ref))
        self.key_weight = (key_weight if key_weight is not None else
                           _key_weight(self.tok_ptr, self.tok_post, self.idf, len(key_raw_ref)))
        self._tok_cache: dict[str, list[tuple[int, float]]] = {}
        self._initials_table: tuple[np.ndarray, np.ndarray] | None = None

    def _set_postings(self, tables: dict[str, Any], n_keys: int) -> None:
        """The word and vowel-gram postings from ``tables`` and each word's IDF over
        ``n_keys`` keys."""
        self.tok_ptr = tables["tok_ptr"]
        self.tok_post = tables["tok_post"]
        self.vgram_codes = tables["vgram_codes"]
        self.vgram_ptr = tables["vgram_ptr"]
        self.vgram_post = tables["vgram_post"]
        self.vgram_count = tables["vgram_count"]
        n = max(n_keys, 1)
        df = np.diff(self.tok_ptr).astype(np.float64)
        self.idf = np.log1p(n / np.maximum(df, 1.0))
        self.max_idf = float(math.log1p(n))

    # ------------------------------------------------------------------ building
    @classmethod
    def from_pairs(
        cls, pairs: Iterable[tuple[str, str]], *, fingerprint_: str | None = None
    ) -> NameIndex:
        """Build from ``(node_id, name_or_alias)`` pairs."""
        fp = None if fingerprint_ else Fingerprint()
        return cls._build(_batches(pairs), fp, fingerprint_)

    @classmethod
    def from_store(cls, store: Any, *, batch_size: int = 50_000) -> NameIndex:
        """Build from ``store.iter_node_names()`` in one streamed pass (the pairs are never
        held in a list); the node ids are the store's own when it exposes them (``csr``)."""
        t0 = time.perf_counter()
        batches = ([(str(i), str(n)) for i, n in batch]
                   for batch in store.iter_node_names(batch_size=batch_size))
        index = cls._build(batches, Fingerprint(), None, shared_ids=_store_ids(store))
        log.info("built name index for %s: %d names in %.2fs", store.uri,
                 index.count, time.perf_counter() - t0)
        return index

    @classmethod
    def _build(cls, batches: Iterable[Sequence[tuple[str, str]]], fp: Fingerprint | None,
               fingerprint_: str | None, *, shared_ids: Sequence[str] | None = None
               ) -> NameIndex:
        t = _intern_pairs(batches, fp, shared_ids)
        tables = _token_tables(t.pop("tokens"), t.pop("tok_word"), t.pop("tok_key"),
                               len(t["key_raw_ref"]))
        fingerprint_ = fingerprint_ or (fp.hexdigest() if fp is not None else "")
        return cls(fingerprint=fingerprint_, tables=tables, **t)

    def __len__(self) -> int:
        return len(self.key_raw_ref)

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

        Skipped: n-grams made only of stop words, bare numbers under four digits that name no
        node by themselves or follow a quantity word ("top 5", "more than 3"), and one-word
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
                prev = words[i - 1][0] if i else ""
                if ki is None or self._skip(words[i:i + n], text, ki, prev):
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

    def _skip(self, words: list[tuple[str, int, int]], text: str, ki: int,
              prev: str = "") -> bool:
        if len(words) == 1:
            w, s, e = words[0]
            if w.isdigit():
                # a short number is spotted only as a node named by it alone (a triple's
                # literal tail, "number *7*", "*28* years old"), not as a quantity
                return len(w) < 4 and (prev in lexicon.QUANTITY_CUES
                                       or self.key_raw[ki] != w)
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
            table = self._initials_table = _initials_table(self.key_raw)
        letters = acronym.replace(".", "").upper()
        if len(letters) < 2:
            return []
        keys, kis = table
        out: dict[str, bool] = {}
        i = int(np.searchsorted(keys, letters))
        while i < len(keys) and (ini := str(keys[i])).startswith(letters) and len(out) < limit:
            for nd, _a in self._nodes_of(int(kis[i])):
                exact = ini == letters
                out[self.node_ids[nd]] = out.get(self.node_ids[nd], False) or exact
            i += 1
        return sorted(out.items(), key=lambda kv: not kv[1])

    # ------------------------------------------------------------------ persistence
    def manifest(self, store_uri: str | None = None) -> Manifest:
        return Manifest(kind="names", format=FORMAT, byokg_version=byokg_version(),
                        count=self.count, fingerprint=self.fingerprint, store_uri=store_uri)

    def save(self, folder: str | Path, *, store_uri: str | None = None) -> Path:
        """Write the index and (last) its manifest into ``folder``: ``names.npz`` (every
        table and string buffer), ``ids.npz`` (the node ids) and ``manifest.json``."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "manifest.json").unlink(missing_ok=True)
        (folder / "names.json").unlink(missing_ok=True)  # format 1's strings
        extra = {} if self.node_name_ref is None else {"node_name_ref": self.node_name_ref}
        np.savez(folder / "names.npz", raw_data=self.raw.data, raw_off=self.raw.off,
                 key_raw_ref=self.key_raw_ref, key_hashes=self.lookup.hashes,
                 key_order=self.lookup.order, key_seed=np.int64(self.lookup.seed),
                 key_ptr=self.key_ptr, entry_node=self.entry_node,
                 entry_alias=self.entry_alias, key_weight=self.key_weight,
                 vocab_data=self.vocab_list.data, vocab_off=self.vocab_list.off,
                 vocab_hashes=self.vocab.hashes, vocab_order=self.vocab.order,
                 vocab_seed=np.int64(self.vocab.seed),
                 ids_digest=np.str_(self.ids_digest or ids_digest(self.node_ids)),
                 **extra, **self.tables)
        ids = (self.node_ids if isinstance(self.node_ids, StrArray)
               else StrArray.from_strings(self.node_ids))
        np.savez(folder / "ids.npz", data=ids.data, off=ids.off)
        del ids
        write_manifest(folder, self.manifest(store_uri))
        return folder

    @classmethod
    def load(cls, folder: str | Path, *, expect_fingerprint: str | None = None,
             store: Any = None) -> NameIndex:
        """Load a saved index; :class:`InputError` when it is missing, broken or stale. With
        ``store``, the node ids are the store's own list when it holds the same ids in the same
        order (checked by digest), else they are read from ``ids.npz``."""
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
            with np.load(folder / "names.npz") as z:
                a = {k: z[k] for k in z.files}
            digest = str(a.pop("ids_digest"))
            node_ids: Sequence[str] | None = _store_ids(store) if store is not None else None
            if node_ids is not None and ids_digest(node_ids) != digest:
                node_ids = None
            if node_ids is None:
                with np.load(folder / "ids.npz") as z:
                    node_ids = StrArray(z["data"], z["off"])
            tables = {k: a[k] for k in _TABLES}
            tables.update(vocab=StrArray(a["vocab_data"], a["vocab_off"]),
                          vocab_hashes=a["vocab_hashes"], vocab_order=a["vocab_order"],
                          vocab_seed=int(a["vocab_seed"]))
            return cls(
                node_ids=node_ids, raw=StrArray(a["raw_data"], a["raw_off"]),
                node_name_ref=a.get("node_name_ref"), key_raw_ref=a["key_raw_ref"],
                key_hashes=a["key_hashes"], key_order=a["key_order"],
                key_seed=int(a["key_seed"]), key_ptr=a["key_ptr"],
                entry_node=a["entry_node"], entry_alias=a["entry_alias"],
                fingerprint=man.fingerprint, count=man.count, tables=tables,
                ids_digest=digest, key_weight=a["key_weight"],
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


class _Ref(Sequence[str]):
    """``raw[ref[i]]`` (``raw[i]`` when ``ref`` is None): names and key spellings are
    references into one buffer of names as written."""

    __slots__ = ("n", "raw", "ref")

    def __init__(self, raw: StrArray, ref: np.ndarray | None, n: int) -> None:
        self.raw, self.ref, self.n = raw, ref, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        if i < 0:
            i += self.n
        return self.raw[i if self.ref is None else int(self.ref[i])]

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(self.n))


class _Keys(Sequence[str]):
    """The normalised keys, recomputed from their first spelling (``fast_normalize`` is what
    made them, so this is exact) instead of stored a second time."""

    __slots__ = ("spelling",)

    def __init__(self, spelling: Sequence[str]) -> None:
        self.spelling = spelling

    def __len__(self) -> int:
        return len(self.spelling)

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        return fast_normalize(self.spelling[i])

    def __iter__(self) -> Iterator[str]:
        return (fast_normalize(s) for s in self.spelling)


def _batches(pairs: Iterable[tuple[str, str]], size: int = 50_000
             ) -> Iterator[list[tuple[str, str]]]:
    batch: list[tuple[str, str]] = []
    for p in pairs:
        batch.append(p)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _store_ids(store: Any) -> Sequence[str] | None:
    """The store's own node-id list (position = node number), when it exposes one."""
    from byokg.graph.store import Capability
    from byokg.graph.store import has_capability

    if store is None or not has_capability(store, Capability.CSR):
        return None
    ids = getattr(store.csr(), "ids", None)
    return ids if isinstance(ids, list) else None


def ids_digest(ids: Sequence[str]) -> str:
    """An order-dependent digest of a node-id sequence (lengths and bytes of every id)."""
    h = hashlib.blake2b(digest_size=16)
    step = 65_536
    for s in range(0, len(ids), step):
        chunk = (ids.decode(s, min(s + step, len(ids))) if isinstance(ids, StrArray)
                 else list(ids[s:s + step]))
        h.update(np.fromiter(map(len, chunk), np.int64, len(chunk)).tobytes())
        h.update("".join(chunk).encode("utf-8", "surrogatepass"))
    return f"{len(ids):x}-{h.hexdigest()}"


def _intern_pairs(batches: Iterable[Sequence[tuple[str, str]]], fp: Fingerprint | None,
                  shared_ids: Sequence[str] | None) -> dict[str, Any]:
    """Nodes, keys and their entries from ``(node id, name)`` pairs, streamed in batches.

    One pass in Python appends each new node's name (and its id, unless ``shared_ids`` already
    lists the nodes in pair order) and each pair's key to buffers; consecutive pairs of one id
    are one node. Nodes and keys are then interned by hash (:func:`intern`), so a node whose
    pairs are not consecutive is still one node, and the tables are made with numpy. Long because the
    pass and its bookkeeping (aliases, first spellings) belong together.
    """
    names, aliases, keyb, tokb = StrBuilder(), StrBuilder(), StrBuilder(), StrBuilder()
    own_ids: StrBuilder | None = None if shared_ids is not None else StrBuilder()
    e_node, e_first, ntok, tok_idx = array("i"), array("b"), array("i"), array("i")
    count, p, prev = 0, -1, None
    norm = fast_normalize
    for batch in batches:
        if fp is not None:
            fp.update(batch)
        count += len(batch)
        b_names: list[str] = []
        b_ids: list[str] = []
        b_keys: list[str] = []
        b_alias: list[str] = []
        local: dict[str, int] = {}  # the batch's distinct words (a word repeats across batches)
        b_tok_idx: list[int] = []
        b_ntok: list[int] = []
        b_node: list[int] = []
        b_first: list[bool] = []
        setdefault = local.setdefault
        for nid, name in batch:
            first = nid != prev
            if first:
                p += 1
                prev = nid
                b_names.append(name)
                b_ids.append(nid)
            key = norm(name)
            if not key:
                continue
            b_keys.append(key)
            b_node.append(p)
            b_first.append(first)
            if not first:
                b_alias.append(name)
            toks = set(key.split())  # the key's words, in the order the old index saw them
            b_ntok.append(len(toks))
            b_tok_idx += [setdefault(t, len(local)) for t in toks]
        names.extend(b_names)
        if own_ids is None and shared_ids is not None:
            at = p + 1 - len(b_ids)
            if p >= len(shared_ids) or shared_ids[at:p + 1] != b_ids:  # type: ignore[index]
                own_ids = StrBuilder()  # not the store's nodes in order: keep our own ids
                own_ids.extend(shared_ids[:at])  # type: ignore[index]
        if own_ids is not None:
            own_ids.extend(b_ids)
        keyb.extend(b_keys)
        aliases.extend(b_alias)
        tok_base = len(tokb)
        tokb.extend(list(local))
        tok_idx.frombytes((np.asarray(b_tok_idx, np.int32) + np.int32(tok_base)).tobytes())
        ntok.frombytes(np.asarray(b_ntok, np.int32).tobytes())
        e_node.extend(b_node)
        e_first.extend(b_first)
    n_prov = p + 1
    node_ids: Sequence[str]
    if own_ids is None:
        node_ids = shared_ids if n_prov == len(shared_ids) else shared_ids[:n_prov]  # type: ignore[index]
        number = first_prov = None
        digest = None
    else:
        ids_sa = own_ids.finish()
        number, first_prov, _h, _seed = intern(ids_sa)
        node_ids = ids_sa if len(first_prov) == n_prov else ids_sa.take(first_prov)
        del ids_sa, _h
        digest = None
    names_sa, alias_sa = names.finish(), aliases.finish()
    raw = _concat(names_sa, alias_sa)
    del names_sa, alias_sa
    prov = np.frombuffer(e_node, np.int32) if len(e_node) else np.zeros(0, np.int32)
    first_pair = (np.frombuffer(e_first, np.int8) if len(e_first) else np.zeros(0, np.int8)
                  ).astype(np.bool_)
    del e_first
    # where each keyed pair's spelling is in ``raw``: its node's name, or its own alias entry
    raw_at = np.cumsum(~first_pair, dtype=np.int64) - 1 + n_prov
    raw_at[first_pair] = prov[first_pair]
    if number is None:
        node = prov.astype(np.int32)
        alias = ~first_pair
        node_name_ref = None
    else:
        node = number[prov].astype(np.int32)
        alias = ~(first_pair & (first_prov[node] == prov))
        node_name_ref = None if len(first_prov) == n_prov else first_prov.astype(np.int32)
    del prov, e_node, first_pair
    keys_sa = keyb.finish()
    knum, kfirst, khash, kseed = intern(keys_sa)
    del keys_sa
    n_keys = len(kfirst)
    # the words of each distinct key: those of its first pair (a repeated key adds none)
    nt = np.frombuffer(ntok, np.int32) if len(ntok) else np.zeros(0, np.int32)
    tp = np.repeat(np.arange(len(nt), dtype=np.int32), nt)  # the keyed pair of every word
    del nt, ntok
    key_first = np.zeros(len(knum), np.bool_)
    key_first[kfirst] = True
    keep = key_first[tp]  # a repeated key's words: all seen before, in its first pair
    tok_key = knum[tp[keep]].astype(np.int32)
    del tp, key_first
    ti = np.frombuffer(tok_idx, np.int32) if len(tok_idx) else np.zeros(0, np.int32)
    tok_word = ti[keep]  # into ``tokens``: each batch's distinct words, in first-seen order
    del ti, tok_idx, keep
    tokens = tokb.finish()
    key_raw_ref = raw_at[kfirst].astype(np.int32 if len(raw) < (1 << 31) else np.int64)
    del raw_at
    order = np.argsort(knum, kind="stable")
    ptr_type = np.int32 if len(knum) < (1 << 31) else np.int64
    key_ptr = np.zeros(n_keys + 1, ptr_type)
    np.cumsum(np.bincount(knum, minlength=n_keys), out=key_ptr[1:])
    entry_node, entry_alias = node[order], alias[order]
    del order, knum, node, alias
    kord = np.argsort(khash, kind="stable")
    return {"node_ids": node_ids, "raw": raw, "node_name_ref": node_name_ref,
            "key_raw_ref": key_raw_ref, "key_hashes": khash[kord],
            "key_order": kord.astype(np.int32), "key_seed": kseed, "key_ptr": key_ptr,
            "entry_node": entry_node, "entry_alias": entry_alias, "count": count,
            "ids_digest": digest, "tokens": tokens, "tok_word": tok_word, "tok_key": tok_key}


def _concat(a: StrArray, b: StrArray) -> StrArray:
    data = np.concatenate([a.data, b.data])
    off = np.concatenate([np.asarray(a.off, np.int64), np.asarray(b.off[1:], np.int64) + len(a.data)])
    return StrArray(data, off.astype(np.uint32) if len(data) < (1 << 32) else off)


def _token_tables(words: StrArray, tok_word: np.ndarray, tok_key: np.ndarray, n_keys: int
                  ) -> dict[str, Any]:
    """Word vocabulary (first-seen order), word -> keys postings, and a gram index over the
    vocabulary. Every key's distinct words, in key order, are ``words[tok_word]`` of key
    ``tok_key`` (``words`` lists each batch's distinct words, so a word may repeat across
    batches; interned here by hash, no dict of words)."""
    wnum, wfirst, thash, tseed = intern(words)
    vocab = words.take(wfirst) if len(wfirst) < len(words) else words
    del words
    n_vocab = len(wfirst)
    tnum = wnum.astype(np.int32)[tok_word]
    del wnum
    counts = np.bincount(tnum, minlength=n_vocab)
    tok_ptr = np.zeros(n_vocab + 1, np.int64)
    np.cumsum(counts, out=tok_ptr[1:])
    # keys come in order, so a stable sort by word leaves each word's keys sorted
    order = np.argsort(tnum, kind="stable")
    del tnum
    tok_post = tok_key[order]
    del order, tok_key
    vcodes, vptr, vpost, vcount = _gram_table(vocab)
    vord = np.argsort(thash, kind="stable")
    return {"vocab": vocab, "vocab_hashes": thash[vord], "vocab_order": vord.astype(np.int32),
            "vocab_seed": tseed, "tok_ptr": tok_ptr, "tok_post": tok_post,
            "vgram_codes": vcodes, "vgram_ptr": vptr, "vgram_post": vpost, "vgram_count": vcount}


def _gram_table(words: Sequence[str], chunk: int = 50_000
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`byokg.language.grams.gram_table` over ``words`` in chunks of words (the same
    tables; its temporary arrays are a few times the words' text, too much for millions).

    Three passes over the chunks: the distinct gram codes; the postings per gram; then each
    chunk's postings placed after the previous chunks' (chunks are in word order, so every
    gram's postings come out sorted)."""
    n = len(words)
    spans = [(s, min(s + chunk, n)) for s in range(0, n, chunk)]

    def grams(s: int, e: int) -> tuple[np.ndarray, np.ndarray]:
        part = words.decode(s, e) if isinstance(words, StrArray) else list(words[s:e])
        key_of, codes = _codes(part)
        return key_of + s, codes

    parts = [_distinct(grams(s, e)[1]) for s, e in spans]
    uniq = _distinct(np.concatenate(parts)) if parts else np.zeros(0, np.int64)
    del parts
    m = max(n, 1)

    def pairs(s: int, e: int) -> np.ndarray:
        key_of, codes = grams(s, e)
        p = np.searchsorted(uniq, codes).astype(np.int64)
        p *= m
        p += key_of
        return _distinct(p)  # sorted by (gram, word), each once

    per_gram = np.zeros(len(uniq), np.int64)
    per_word = np.zeros(n, np.int32)
    for s, e in spans:
        p = pairs(s, e)
        per_gram += np.bincount(p // m, minlength=len(uniq))
        per_word[s:e] = np.bincount(p % m - s, minlength=e - s)
    ptr = np.zeros(len(uniq) + 1, np.int64)
    np.cumsum(per_gram, out=ptr[1:])
    post = np.empty(int(ptr[-1]), np.int32)
    fill = ptr[:-1].copy()
    for s, e in spans:
        p = pairs(s, e)
        g = p // m
        new = np.ones(len(g), np.bool_)
        np.not_equal(g[1:], g[:-1], out=new[1:])
        at = np.flatnonzero(new)
        start = np.repeat(at, np.diff(np.append(at, len(g))))  # first posting of its gram
        post[fill[g] + (np.arange(len(p)) - start)] = p % m
        fill += np.bincount(g, minlength=len(uniq))
    return uniq, ptr, post, per_word


def _distinct(a: np.ndarray) -> np.ndarray:
    """Sorted distinct values (a sort and a mask: numpy 2's hashing ``np.unique`` is several
    times slower on millions of int64)."""
    a = np.sort(a)
    if len(a) > 1:
        keep = np.ones(len(a), np.bool_)
        np.not_equal(a[1:], a[:-1], out=keep[1:])
        a = a[keep]
    return a


def _key_weight(tok_ptr: np.ndarray, tok_post: np.ndarray, idf: np.ndarray, n_keys: int,
                step: int = 1 << 22) -> np.ndarray:
    """Summed IDF of every key's distinct words: ``bincount(tok_post, repeat(idf, df))`` in
    slices of about ``step`` postings (``np.add.at`` adds in the same order, so the sums are
    the same to the last bit) instead of one float per posting at once."""
    out = np.zeros(n_keys, np.float64)
    df = np.diff(tok_ptr)
    t = 0
    while t < len(df):
        e = int(np.searchsorted(tok_ptr, tok_ptr[t] + step, side="right")) - 1
        e = min(max(e, t + 1), len(df))
        a, b = int(tok_ptr[t]), int(tok_ptr[e])
        np.add.at(out, tok_post[a:b], np.repeat(idf[t:e], df[t:e]))
        t = e
    return out


def _initials_table(spellings: Sequence[str], chunk: int = 1 << 20
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Sorted initials (at most six letters: a fixed-width numpy string array) of every key
    that has two or more, with the key of each (ties in key order)."""
    parts: list[np.ndarray] = []
    kis = array("i")
    got: list[str] = []
    for ki, raw in enumerate(spellings):
        ini = _initials(raw)
        if len(ini) >= 2:
            got.append(ini)
            kis.append(ki)
            if len(got) >= chunk:
                parts.append(np.array(got, dtype="<U6"))
                got = []
    parts.append(np.array(got, dtype="<U6"))
    inis = np.concatenate(parts)
    del parts, got
    order = np.argsort(inis, kind="stable")
    keys = np.frombuffer(kis, np.int32) if len(kis) else np.zeros(0, np.int32)
    return inis[order], keys[order]


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
    from rapidfuzz import fuzz
    from rapidfuzz import process

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
