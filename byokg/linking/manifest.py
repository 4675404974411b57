"""Index manifests: what an on-disk index was built from, so a stale one is detected.

Every saved index (fuzzy name index, dense FAISS index) sits in its own folder next to a
``manifest.json`` recording the index kind, its format version, the byokg version, the number of
names, a fingerprint of the node set and (for dense indexes) the embedder name and dimension. On
load the caller passes what it expects; any difference is reported as a reason string and the
index is rebuilt, never used.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict

from ..errors import InputError

log = logging.getLogger("byokg.linking")

MANIFEST = "manifest.json"
_MASK = (1 << 64) - 1


class Manifest(BaseModel):
    """What an index was built from; compared field by field on load."""

    model_config = ConfigDict(extra="allow")

    kind: str  # "names" | "dense"
    format: int
    byokg_version: str
    count: int  # (node id, name) pairs indexed
    fingerprint: str  # of the node set, see :func:`fingerprint`
    store_uri: str | None = None
    embedder: str | None = None
    dim: int | None = None


def byokg_version() -> str:
    from .. import __version__

    return __version__


class Fingerprint:
    """Order-independent fingerprint of ``(node_id, name)`` pairs.

    A sum and a xor of 64-bit BLAKE2b digests of every pair plus the pair count: the same node
    set in any iteration order gives the same value (database backends do not promise an
    order); adding, removing or renaming one node changes it.
    """

    def __init__(self) -> None:
        self.total = 0
        self.xor = 0
        self.count = 0

    def update(self, pairs: Iterable[tuple[str, str]]) -> None:
        total, xor, n = self.total, self.xor, 0
        b2 = hashlib.blake2b
        for node_id, name in pairs:
            digest = b2(f"{node_id}\x1f{name}".encode(), digest_size=8).digest()
            h = int.from_bytes(digest, "little")
            total += h
            xor ^= h
            n += 1
        self.total, self.xor, self.count = total & _MASK, xor, self.count + n

    def hexdigest(self) -> str:
        return f"{self.count:x}-{self.total:016x}{self.xor:016x}"


def fingerprint(pairs: Iterable[tuple[str, str]]) -> str:
    fp = Fingerprint()
    fp.update(pairs)
    return fp.hexdigest()


def collect_names(store: Any, batch_size: int = 50_000) -> tuple[list[tuple[str, str]], str]:
    """All ``(node_id, name)`` pairs of a store plus their fingerprint, in one pass."""
    pairs: list[tuple[str, str]] = []
    fp = Fingerprint()
    for batch in store.iter_node_names(batch_size=batch_size):
        batch = [(str(i), str(n)) for i, n in batch]
        fp.update(batch)
        pairs.extend(batch)
    return pairs, fp.hexdigest()


def store_fingerprint(store: Any, batch_size: int = 50_000) -> str:
    fp = Fingerprint()
    for batch in store.iter_node_names(batch_size=batch_size):
        fp.update((str(i), str(n)) for i, n in batch)
    return fp.hexdigest()


def write_manifest(folder: Path, manifest: Manifest) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest.model_dump(), indent=2, sort_keys=True))
    tmp.replace(folder / MANIFEST)  # the manifest is written last: a half-saved index has none


def read_manifest(folder: Path) -> Manifest | None:
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        return Manifest(**json.loads(path.read_text()))
    except (ValueError, TypeError) as exc:
        raise InputError(f"not a valid index manifest ({exc}); delete the folder to rebuild",
                         source=str(path)) from None


def mismatch(found: Manifest | None, expected: dict[str, Any]) -> str | None:
    """Why ``found`` does not match ``expected`` (None when it does)."""
    if found is None:
        return "no manifest"
    data = found.model_dump()
    diffs: Sequence[str] = [
        f"{k}: index has {data.get(k)!r}, expected {v!r}"
        for k, v in expected.items()
        if data.get(k) != v
    ]
    return "; ".join(diffs) or None


def default_index_dir() -> Path:
    """Where indexes are kept by default: the cache root (``$BYOKG_CACHE_DIR`` or
    ``~/.cache/byokg``), next to the graphs' profiles."""
    from byokg.config import cache_root

    return cache_root() or Path.home() / ".cache" / "byokg"
