"""The fuzzy name index as it was before its strings moved into buffers (lists and dicts of
Python strings): the reference the compact index must answer exactly like. Test code only.

Its query methods are the compact index's own (inherited); only the storage is the old one.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from byokg.errors import InputError
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
