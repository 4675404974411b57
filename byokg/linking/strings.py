"""Millions of strings without millions of Python objects: one UTF-8 buffer plus offsets.

The fuzzy name index holds every node's name, every distinct normalised key and every word of
the graph (11M names at Freebase size). As Python ``list[str]`` and ``dict[str, int]`` they cost
about 100 bytes a string; here a string costs its UTF-8 bytes plus a 4- or 8-byte offset.

- :class:`StrArray`: ``n`` strings in one ``uint8`` buffer, string ``i`` decoded on access.
- :class:`StrBuilder`: appends strings into a growing buffer (no list of them kept).
- :func:`hash_strings` / :func:`hash_one`: a 64-bit hash of every string of a buffer (numpy,
  no Python loop per string) and the same hash of one string (pure Python, for lookups).
- :class:`StrLookup`: string -> position, by binary search over the sorted hashes; the
  candidates are compared byte for byte, so a hash collision never gives a wrong answer.
- :func:`intern`: the distinct strings in first-seen order and each string's number, checked
  byte for byte (a 64-bit collision is retried with another multiplier, never merged).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from itertools import accumulate

import numpy as np

_MASK = (1 << 64) - 1
# odd 64-bit multipliers of the polynomial hash; a different one is tried after a collision
_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
                0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53)
_CHUNK_BYTES = 1 << 22  # bytes hashed at a time (bounds the temporary uint64 arrays)


class StrArray(Sequence[str]):
    """``n`` strings stored as UTF-8 in ``data`` (``uint8``); string ``i`` is
    ``data[off[i]:off[i + 1]]``. Read-only; ``len``, indexing and iteration decode on access."""

    __slots__ = ("_mv", "data", "off")

    def __init__(self, data: np.ndarray, off: np.ndarray) -> None:
        self.data = data
        self.off = off
        self._mv = memoryview(data)

    @classmethod
    def from_strings(cls, strings: Iterable[str]) -> StrArray:
        b, part = StrBuilder(), []
        for s in strings:
            part.append(s)
            if len(part) >= 65_536:
                b.extend(part)
                part = []
        b.extend(part)
        return b.finish()

    def decode(self, start: int, end: int) -> list[str]:
        """Strings ``start`` to ``end - 1`` as a list."""
        mv, off = self._mv, self.off[start:end + 1].tolist()
        return [str(mv[a:b], "utf-8", "surrogatepass") for a, b in zip(off, off[1:], strict=False)]

    def __len__(self) -> int:
        return len(self.off) - 1

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        if i < 0:
            i += len(self.off) - 1
        return str(self._mv[self.off[i]:self.off[i + 1]], "utf-8", "surrogatepass")

    def raw(self, i: int) -> memoryview:
        """String ``i``'s UTF-8 bytes (a view, no copy)."""
        return self._mv[self.off[i]:self.off[i + 1]]

    def __iter__(self) -> Iterator[str]:
        step = 65_536
        for s in range(0, len(self), step):
            yield from self.decode(s, min(s + step, len(self)))

    def byte_lengths(self) -> np.ndarray:
        return np.diff(self.off)

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes + self.off.nbytes)

    def take(self, idx: np.ndarray) -> StrArray:
        """The strings at ``idx``, in that order, as a new array."""
        out = StrBuilder()
        mv, step = self._mv, 65_536
        for s in range(0, len(idx), step):
            part = np.asarray(idx[s:s + step], np.int64)
            starts, ends = self.off[part].tolist(), self.off[part + 1].tolist()
            out.extend_raw(b"".join([mv[a:b] for a, b in zip(starts, ends, strict=True)]),
                           np.asarray(ends, np.int64) - np.asarray(starts, np.int64))
        return out.finish()


class StrBuilder:
    """Appends strings to one UTF-8 buffer; :meth:`finish` returns the :class:`StrArray`."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._off = array("q", [0])

    def __len__(self) -> int:
        return len(self._off) - 1

    def append(self, s: str) -> None:
        self._buf += s.encode("utf-8", "surrogatepass")
        self._off.append(len(self._buf))

    def extend(self, strings: Sequence[str]) -> None:
        """Append many strings at once (one join, offsets summed in C)."""
        bs = [x.encode("utf-8", "surrogatepass") for x in strings]
        self._buf += b"".join(bs)
        self._off.extend(accumulate(map(len, bs), initial=self._off[-1]))
        self._off.pop(len(self._off) - len(bs) - 1)  # ``initial`` repeated the last offset

    def extend_raw(self, blob: bytes, lengths: np.ndarray) -> None:
        """Append ``len(lengths)`` strings given as their concatenated UTF-8 bytes."""
        base = len(self._buf)
        self._buf += blob
        self._off.extend((np.cumsum(lengths, dtype=np.int64) + base).tolist())

    def finish(self) -> StrArray:
        data = np.frombuffer(self._buf, np.uint8) if self._buf else np.zeros(0, np.uint8)
        off = np.frombuffer(self._off, np.int64)
        small = off.astype(np.uint32) if len(self._buf) < (1 << 32) else off.copy()
        self._buf, self._off = bytearray(), array("q", [0])
        return StrArray(data, small)


def _powers(m: int, n: int) -> np.ndarray:
    """``m ** j mod 2**64`` for ``j < n`` (``uint64``)."""
    out = np.empty(max(n, 1), np.uint64)
    out[0] = 1
    with np.errstate(over="ignore"):
        k = 1
        while k < n:  # doubling: out[k:2k] = out[:k] * m**k
            step = min(k, n - k)
            out[k:k + step] = out[:step] * (np.uint64(pow(m, k, 1 << 64)))
            k += step
    return out


def _finalize(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser (uint64 in place)."""
    with np.errstate(over="ignore"):
        h ^= h >> np.uint64(30)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(27)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(31)
    return h


def hash_strings(strings: StrArray, seed: int = 0) -> np.ndarray:
    """A 64-bit hash of every string: ``sum((byte_j + 1) * M**j) + len * M'`` mod 2**64 with
    ``M`` the ``seed``-th multiplier, then splitmix64's finaliser. Equal to :func:`hash_one`."""
    m = _MULTIPLIERS[seed % len(_MULTIPLIERS)]
    n = len(strings)
    off = np.asarray(strings.off, np.int64)
    lens = np.diff(off)
    out = np.zeros(n, np.uint64)
    pw = _powers(m, int(lens.max()) + 1 if n else 1)
    s = 0
    while s < n:  # chunks of about _CHUNK_BYTES bytes (at least one string)
        e = int(np.searchsorted(off, off[s] + _CHUNK_BYTES, side="right")) - 1
        e = min(max(e, s + 1), n)
        a, b = int(off[s]), int(off[e])
        ln = lens[s:e]
        if b > a:
            d = strings.data[a:b].astype(np.uint64) + np.uint64(1)
            pos = np.arange(b - a, dtype=np.int64) - np.repeat(off[s:e] - a, ln)
            with np.errstate(over="ignore"):
                d *= pw[pos]
            nz = np.flatnonzero(ln)
            out[s + nz] = np.add.reduceat(d, off[s:e][nz] - a)
        s = e
    with np.errstate(over="ignore"):
        out += lens.astype(np.uint64) * np.uint64(m ^ 0x5851F42D4C957F2D)
    return _finalize(out)


def hash_one(b: bytes | memoryview, seed: int = 0) -> int:
    """:func:`hash_strings` of one string's UTF-8 bytes (pure Python: one lookup is a few bytes)."""
    m = _MULTIPLIERS[seed % len(_MULTIPLIERS)]
    h, p = 0, 1
    for c in bytes(b):
        h = (h + (c + 1) * p) & _MASK
        p = (p * m) & _MASK
    h = (h + len(b) * (m ^ 0x5851F42D4C957F2D)) & _MASK
    h ^= h >> 30
    h = (h * 0xBF58476D1CE4E5B9) & _MASK
    h ^= h >> 27
    h = (h * 0x94D049BB133111EB) & _MASK
    return h ^ (h >> 31)


class StrLookup:
    """Exact string -> position in a sequence of distinct strings: their hashes sorted, with
    the position of each. A lookup hashes the string, binary-searches and compares the
    candidates themselves, so a collision never gives a wrong answer."""

    __slots__ = ("hashes", "order", "seed", "strings")

    def __init__(self, strings: Sequence[str], hashes: np.ndarray, order: np.ndarray,
                 seed: int) -> None:
        self.strings, self.hashes, self.order, self.seed = strings, hashes, order, seed

    @classmethod
    def from_sorted(cls, strings: Sequence[str], hashes: np.ndarray, order: np.ndarray,
                    seed: int) -> StrLookup:
        """From hashes already sorted and the position of each (as saved)."""
        return cls(strings, hashes, order, seed)

    @classmethod
    def build(cls, strings: StrArray, seed: int = 0) -> StrLookup:
        h = hash_strings(strings, seed)
        order = np.argsort(h, kind="stable")
        return cls(strings, h[order], order.astype(np.int32), seed)

    def get(self, s: str, default: int | None = None) -> int | None:
        h = np.uint64(hash_one(s.encode("utf-8", "surrogatepass"), self.seed))
        hashes, n = self.hashes, len(self.hashes)
        i = int(np.searchsorted(hashes, h))
        while i < n and hashes[i] == h:
            pos = int(self.order[i])
            if self.strings[pos] == s:
                return pos
            i += 1
        return default

    def __getitem__(self, s: str) -> int:
        i = self.get(s)
        if i is None:
            raise KeyError(s)
        return i

    def __contains__(self, s: object) -> bool:
        return isinstance(s, str) and self.get(s) is not None

    def __len__(self) -> int:
        return len(self.order)


def intern(strings: StrArray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Distinct strings in first-seen order: ``(number, first, hashes, seed)`` where
    ``number[i]`` is string ``i``'s distinct number, ``first[k]`` the position of distinct
    string ``k``'s first occurrence and ``hashes[k]`` its hash under ``seed``.

    Strings are grouped by a 64-bit hash (one stable sort) and every repeat is compared byte
    for byte with the first of its group; a collision (two different strings, one hash) is
    retried with the next multiplier."""
    n = len(strings)
    for seed in range(len(_MULTIPLIERS)):
        h = hash_strings(strings, seed)
        order = np.argsort(h, kind="stable")
        hs = h[order]
        del h
        start = np.ones(n, np.bool_)
        np.not_equal(hs[1:], hs[:-1], out=start[1:])
        small = np.int32 if n < (1 << 31) else np.int64
        group = np.cumsum(start, dtype=small)
        group -= 1
        first_sorted = order[start]  # stable: the smallest position of each hash
        hashes = hs[start]
        del hs, start
        by_first = np.argsort(first_sorted, kind="stable")
        rank = np.empty(len(by_first), small)
        rank[by_first] = np.arange(len(by_first), dtype=small)
        number = np.empty(n, small)
        number[order] = rank[group]
        del order, group, rank
        first = first_sorted[by_first]
        if _same_as_first(strings, number, first):
            return number, first, hashes[by_first], seed
    raise RuntimeError("string interning: hash collisions under every multiplier")  # pragma: no cover


def _same_as_first(strings: StrArray, number: np.ndarray, first: np.ndarray) -> bool:
    """Every string equals the first string of its number: lengths compared at once, bytes in
    chunks of repeats (numpy gathers, no Python loop per string)."""
    rep = np.flatnonzero(first[number] != np.arange(len(number)))
    if not len(rep):
        return True
    off = np.asarray(strings.off, np.int64)
    lens = np.diff(off)
    ref = first[number[rep]]
    if np.any(lens[rep] != lens[ref]):
        return False
    data, step = strings.data, 1 << 19
    for s in range(0, len(rep), step):
        a, b, ln = off[rep[s:s + step]], off[ref[s:s + step]], lens[rep[s:s + step]]
        tot = int(ln.sum())
        if not tot:
            continue
        within = np.arange(tot, dtype=np.int64) - np.repeat(np.cumsum(ln) - ln, ln)
        if not np.array_equal(data[np.repeat(a, ln) + within], data[np.repeat(b, ln) + within]):
            return False
    return True
