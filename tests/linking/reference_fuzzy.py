"""The fuzzy name index as it was before its strings moved into buffers (lists and dicts of
Python strings): the reference the compact index must answer exactly like. Test code only.

Its query methods are the compact index's own (inherited); only the storage is the old one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from collections.abc import Sequence

import numpy as np

from byokg.language.grams import fast_normalize
from byokg.language.grams import gram_table
from byokg.linking import fuzzy
from byokg.linking.interning import intern_names
from byokg.linking.manifest import fingerprint

log = logging.getLogger("byokg.linking")

FORMAT = 1


class NameIndex(fuzzy.NameIndex):
    """Normalised names and aliases -> node ids, with an n-gram inverted index for fuzzy search.

    Built with :meth:`from_pairs`. The first pair seen for a node id is its name, later pairs
    are aliases (the order ``iter_node_names`` yields them in).
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
        self._set_postings(tables, len(keys))
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

    # the query methods (exact, search, spot, initials …) are the compact index's own, unchanged
    # by the move into buffers: inherited, so this class differs only in how it stores; the
    # tests build it from pairs only (format 1 on disk is tested by writing its files)


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
