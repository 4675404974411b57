"""Triple readers shared by every backend's loader: CSV/TSV/JSONL files (or folders of them)
into one :class:`TripleBuilder`, frozen into a deduplicated :class:`TripleTable`.

Rules (they refuse to guess; every error names the file and line):

* CSV/TSV: the first line is a header naming the three columns in any order —
  ``head``/``subject``/``source``/``from``/…, ``relation``/``predicate``/``type``/…,
  ``tail``/``object``/``target``/``to``/… (:data:`HEADER_NAMES`); a file without one, or with
  other columns, is an error listing the accepted names. Delimiter sniffed from the header.
  A row with another number of fields, an empty field, a NUL byte or a quote inside an
  unquoted field is a bad row; spaces around a field are dropped and counted in the report.
  pyarrow's multithreaded reader is used for clean files; anything irregular falls back to the
  csv module, so bad rows are always reported the same way.
* JSONL: triple rows ``{"head","relation","tail"[,"properties"]}`` and node records
  ``{"id"[,"name","labels","aliases","properties"]}``.
* :class:`Limits`: a line (or CSV field) longer than ``line_bytes``, a JSON number of more than
  ``number_digits`` digits or nesting deeper than ``depth`` is an error naming the limit and how
  to raise it (``--max-line-bytes`` … on ``byokg load``, ``BYOKG_MAX_LINE_BYTES`` …), so an
  endless or hostile input stops with a line, not a MemoryError or RecursionError.
* Folders: the data files directly inside (sorted); a subfolder is an error, other files are
  named in the report's notes. Every target reads folders through :func:`source_files`.
* Sources that yield no triplet are an error (a header-only file, node records only).

A bad row is an :class:`~byokg.errors.InputError` naming file and line, or with
``skip_bad_rows`` is counted in the :class:`LoadReport` with its reason (the first five kept).
Names are interned to dense ints and the triples kept as int32 columns, so a 1.5M-triple file
costs tens of MB here. numpy and pyarrow load only when a table is frozen or a CSV read.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import stat
import sys
from array import array
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path as FsPath
from typing import TYPE_CHECKING
from typing import Any

from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import invalid_text

if TYPE_CHECKING:
    import numpy as np

    from byokg.contracts import Triplet

__all__ = [
    "DEFAULT_LABEL",
    "HEADER_NAMES",
    "Limits",
    "LoadReport",
    "RowReport",
    "TRIPLE_SUFFIXES",
    "TripleBuilder",
    "TripleTable",
    "load_csv",
    "load_jsonl",
    "read_sources",
    "source_files",
    "trim_heap",
]

DEFAULT_LABEL = "Entity"  # the label of a node that has none
MAX_REASONS = 5  # bad-row reasons kept per report
TRIPLE_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".jsonl", ".ndjson")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
_PACK_LIMIT = 2**63  # (head, relation, tail) ids packed into one int64 key below this
# accepted header names per column (case and spaces ignored; any column order)
HEADER_NAMES: dict[str, tuple[str, ...]] = {
    "head": ("head", "subject", "source", "from", "src", "h", "s", "start", ":start_id"),
    "relation": ("relation", "predicate", "type", "rel", "relationship", "relation_type",
                 "edge_type", "label", "r", "p", ":type"),
    "tail": ("tail", "object", "target", "to", "dst", "t", "o", "end", ":end_id"),
}
_ROLE_OF = {name: role for role, names in HEADER_NAMES.items() for name in names}
_FIELDS = ("head", "relation", "tail")
_FIX_HINT = (
    "; fix the row, or skip bad rows (--skip-bad-rows, BYOKG_SKIP_BAD_ROWS=1 or skip_bad_rows=True)"
)
_ENGINES = ("auto", "pyarrow", "python")


# --------------------------------------------------------------------------- limits


@dataclass(frozen=True)
class Limits:
    """Size limits of the readers; each error names the limit and how to raise it."""

    line_bytes: int = 1 << 20  # longest line (and CSV field)
    number_digits: int = 100  # longest JSON number
    depth: int = 64  # deepest JSON nesting

    OPTIONS = {"line_bytes": ("--max-line-bytes", "BYOKG_MAX_LINE_BYTES"),
               "number_digits": ("--max-number-digits", "BYOKG_MAX_NUMBER_DIGITS"),
               "depth": ("--max-depth", "BYOKG_MAX_DEPTH")}

    @classmethod
    def from_env(cls, **given: int | None) -> Limits:
        """Limits from the arguments given, else the ``BYOKG_MAX_*`` environment variables,
        else the defaults."""
        vals: dict[str, int] = {}
        for name, (_flag, env) in cls.OPTIONS.items():
            v = given.get(name)
            if v is None and os.environ.get(env):
                try:
                    v = int(os.environ[env])
                except ValueError:
                    raise ConfigError(f"{env}={os.environ[env]!r} is not a whole number") from None
            if v is not None:
                if v < 1:
                    raise ConfigError(f"{env} / {_flag} must be at least 1 (got {v})")
                vals[name] = v
        return cls(**vals)

    def hint(self, name: str) -> str:
        flag, env = self.OPTIONS[name]
        return (f"the limit is {getattr(self, name):,}; raise it with {flag} N on byokg load "
                f"or {env}=N")


def field_limit_error(limits: Limits) -> str:
    """What a CSV field over the csv module's field limit is told: the limit in force (Python's
    csv module keeps one for the whole process, which byokg never changes: the byokg CLI raises
    it to ``--max-line-bytes`` at start), and how to raise it."""
    cap = csv.field_size_limit()
    if cap >= limits.line_bytes:
        return f"a field longer than {limits.line_bytes:,} characters ({limits.hint('line_bytes')})"
    return (f"a field longer than {cap:,} characters, the csv module's field limit in this "
            f"process (the byokg command line raises it to {limits.line_bytes:,}, its "
            "--max-line-bytes; a program calls csv.field_size_limit(N) before loading)")


class _LimitExceeded(ValueError):
    pass


# --------------------------------------------------------------------------- reports


@dataclass(kw_only=True)
class RowReport:
    """Bad rows skipped by a load, with the first reasons (shared by every loader's report)."""

    bad_rows: int = 0
    reasons: list[str] = field(default_factory=list)

    def bad(self, reason: str) -> None:
        self.bad_rows += 1
        if len(self.reasons) < MAX_REASONS:
            self.reasons.append(reason)

    def absorb(self, other: RowReport) -> None:
        """Add ``other``'s bad rows and (up to the cap) its reasons to this report."""
        self.bad_rows += other.bad_rows
        self.reasons.extend(other.reasons[: MAX_REASONS - len(self.reasons)])


@dataclass(kw_only=True)
class LoadReport(RowReport):
    """What reading triple files did: rows read, nodes and triplets kept (set when the table
    is frozen), duplicates counted, bad rows skipped."""

    source: str = ""
    rows: int = 0
    nodes: int = 0
    triplets: int = 0
    duplicates: int = 0
    stripped: int = 0  # fields that had spaces around them (dropped)
    notes: list[str] = field(default_factory=list)  # what else the user should know

    def absorb(self, other: RowReport) -> None:
        super().absorb(other)
        if isinstance(other, LoadReport):
            self.rows += other.rows
            self.stripped += other.stripped
            self.notes.extend(n for n in other.notes if n not in self.notes)


# --------------------------------------------------------------------------- builder and table


class _Interner(dict):
    """name -> dense int id; a missing name gets the next id (``d[name]`` interns at C speed)."""

    __slots__ = ()

    def __missing__(self, key: str) -> int:
        v = self[key] = len(self)
        return v


def _intern(index: dict[str, int], names: list[str], key: str) -> int:
    """``index[key]`` (a new key gets the next id), keeping ``names`` in step with ``index``."""
    idx = index[key]
    if idx == len(names):
        names.append(key)
    elif idx > len(names):  # names interned in bulk since the last sync
        names.extend(itertools.islice(index, len(names), None))
    return idx


@dataclass(frozen=True)
class TripleTable:
    """Deduplicated triples (first occurrence kept) as int32 columns over interned names, with
    the node records read from JSONL. ``heads[e]``/``tails[e]`` index ``node_ids``,
    ``rels[e]`` indexes ``rel_names``; ``edge_props`` and the node dicts are keyed by index."""

    node_ids: list[str]
    node_index: dict[str, int]
    rel_names: list[str]
    rel_index: dict[str, int]
    heads: np.ndarray
    rels: np.ndarray
    tails: np.ndarray
    edge_props: dict[int, dict[str, Any]]
    names: dict[int, str]
    aliases: dict[int, tuple[str, ...]]
    labels: dict[int, tuple[str, ...]]
    node_props: dict[int, dict[str, Any]]
    duplicates: int = 0
    bad_rows: int = 0

    def __len__(self) -> int:
        return len(self.heads)

    def name(self, i: int) -> str:
        """Display name of node ``i`` (its id when it has none)."""
        return self.names.get(i, self.node_ids[i])

    def label(self, i: int) -> str:
        """First label of node ``i`` (:data:`DEFAULT_LABEL` when it has none)."""
        labs = self.labels.get(i)
        return labs[0] if labs else DEFAULT_LABEL

    def triplets(self) -> Iterable[Triplet]:
        """Every triplet in table order, with its properties."""
        from byokg.contracts import Triplet

        ids, rel_names, props = self.node_ids, self.rel_names, self.edge_props
        rows = zip(self.heads.tolist(), self.rels.tolist(), self.tails.tolist(), strict=True)
        for e, (h, r, t) in enumerate(rows):  # validated when read: no second validation
            yield Triplet.model_construct(head=ids[h], relation=rel_names[r], tail=ids[t],
                                          properties=dict(props.get(e, ())))


class TripleBuilder:
    """Accumulates triplets and node records; :meth:`freeze` deduplicates them into a table."""

    def __init__(self) -> None:
        self.node_index: dict[str, int] = _Interner()
        self.node_ids: list[str] = []
        self.rel_index: dict[str, int] = _Interner()
        self.rel_names: list[str] = []
        self.heads = array("i")
        self.rels = array("i")
        self.tails = array("i")
        self.edge_props: dict[int, dict[str, Any]] = {}
        self.names: dict[int, str] = {}
        self.aliases: dict[int, tuple[str, ...]] = {}
        self.labels: dict[int, tuple[str, ...]] = {}
        self.node_props: dict[int, dict[str, Any]] = {}

    def node(self, node_id: str) -> int:
        """The id of ``node_id`` (interned on first sight)."""
        return _intern(self.node_index, self.node_ids, node_id)

    def relation(self, name: str) -> int:
        """The id of relation ``name`` (interned on first sight)."""
        return _intern(self.rel_index, self.rel_names, name)

    def _sync(self) -> None:
        """Append names interned directly through ``node_index[...]`` (bulk loaders)."""
        if len(self.node_ids) < len(self.node_index):
            self.node_ids.extend(itertools.islice(self.node_index, len(self.node_ids), None))
        if len(self.rel_names) < len(self.rel_index):
            self.rel_names.extend(itertools.islice(self.rel_index, len(self.rel_names), None))

    def add(
        self, head: str, relation: str, tail: str, properties: dict[str, Any] | None = None
    ) -> None:
        if properties:
            self.edge_props[len(self.heads)] = dict(properties)
        self.heads.append(self.node(head))
        self.rels.append(self.relation(relation))
        self.tails.append(self.node(tail))

    def add_columns(
        self, heads: Sequence[str], relations: Sequence[str], tails: Sequence[str]
    ) -> None:
        """Add many triplets given as three equally long columns of non-empty strings."""
        self._sync()
        nidx, ridx = self.node_index, self.rel_index
        self.heads.extend(map(nidx.__getitem__, heads))
        self.rels.extend(map(ridx.__getitem__, relations))
        self.tails.extend(map(nidx.__getitem__, tails))
        self._sync()

    def add_encoded(
        self,
        node_names: Sequence[str],
        heads: np.ndarray,
        tails: np.ndarray,
        rel_names: Sequence[str],
        rels: np.ndarray,
    ) -> None:
        """Add triplets already dictionary-encoded: ``heads``/``tails`` index ``node_names``,
        ``rels`` indexes ``rel_names`` (as a columnar reader produces them)."""
        import numpy as np

        self._sync()
        nmap = self._encode(self.node_index, node_names)
        rmap = self._encode(self.rel_index, rel_names)
        self._sync()
        for arr, codes, m in (
            (self.heads, heads, nmap),
            (self.rels, rels, rmap),
            (self.tails, tails, nmap),
        ):
            arr.frombytes((codes if m is None else m[codes]).astype(np.int32, copy=False).tobytes())

    @staticmethod
    def _encode(index: dict[str, int], names: Sequence[str]) -> np.ndarray | None:
        """Ids for distinct ``names`` (None when they are exactly 0..n-1 of a fresh index)."""
        import numpy as np

        if not index:
            index.update(zip(names, range(len(names)), strict=True))
            if len(index) == len(names):
                return None
            index.clear()  # names were not distinct: intern one by one
        return np.fromiter(map(index.__getitem__, names), np.int32, len(names))

    def add_node(
        self,
        node_id: str,
        *,
        name: str | None = None,
        labels: Sequence[str] = (),
        aliases: Sequence[str] = (),
        properties: dict[str, Any] | None = None,
    ) -> None:
        idx = self.node(node_id)
        if name is not None and name != node_id:
            self.names[idx] = name
        if labels:
            self.labels[idx] = tuple(labels)
        if aliases:
            self.aliases[idx] = tuple(
                dict.fromkeys(list(self.aliases.get(idx, ())) + list(aliases))
            )
        if properties:
            self.node_props.setdefault(idx, {}).update(properties)

    def __len__(self) -> int:
        return len(self.heads)

    def freeze(self, report: LoadReport | None = None) -> TripleTable:
        """The deduplicated table (first occurrence of each (head, relation, tail) kept, with
        its properties); duplicates and the kept count go into ``report``."""
        import numpy as np

        self._sync()
        heads = np.frombuffer(self.heads, dtype=np.int32)
        rels = np.frombuffer(self.rels, dtype=np.int32)
        tails = np.frombuffer(self.tails, dtype=np.int32)
        first = _first_occurrences(heads, rels, tails, len(self.node_ids), len(self.rel_names))
        dups = len(heads) - len(first)
        if dups:
            heads, rels, tails = heads[first], rels[first], tails[first]
            edge_props = _renumber(self.edge_props, first)
        else:
            heads, rels, tails = heads.copy(), rels.copy(), tails.copy()
            edge_props = self.edge_props
        if report is not None:
            report.duplicates += dups
            report.triplets = len(heads)
            report.nodes = len(self.node_ids)
        return TripleTable(
            node_ids=self.node_ids,
            node_index=dict(self.node_index),
            rel_names=self.rel_names,
            rel_index=dict(self.rel_index),
            heads=heads,
            rels=rels,
            tails=tails,
            edge_props=edge_props,
            names=self.names,
            aliases=self.aliases,
            labels=self.labels,
            node_props=self.node_props,
            duplicates=dups,
            bad_rows=report.bad_rows if report else 0,
        )


def _first_occurrences(
    heads: np.ndarray, rels: np.ndarray, tails: np.ndarray, n_nodes: int, n_rels: int
) -> np.ndarray:
    """Sorted edge indices of the first occurrence of each distinct (head, relation, tail)."""
    import numpy as np

    if not len(heads):
        return np.zeros(0, dtype=np.int64)
    if n_nodes * n_nodes * max(n_rels, 1) < _PACK_LIMIT:
        keys = (heads.astype(np.int64) * max(n_rels, 1) + rels) * max(n_nodes, 1) + tails
        ordered = np.sort(keys)
        if (ordered[1:] == ordered[:-1]).any():  # duplicates: find first occurrences
            _, first = np.unique(keys, return_index=True)
        else:
            first = np.arange(len(keys))
    else:  # too many ids to pack into one int64: lexicographic sort instead
        order = np.lexsort((tails, rels, heads))
        h, r, t = heads[order], rels[order], tails[order]
        new = np.ones(len(order), dtype=bool)
        new[1:] = (h[1:] != h[:-1]) | (r[1:] != r[:-1]) | (t[1:] != t[:-1])
        # the first occurrence in file order is the smallest index in each run (stable sort)
        first = order[new]
    first.sort()
    return first


def _renumber(edge_props: dict[int, dict[str, Any]], first: np.ndarray) -> dict[int, dict[str, Any]]:
    """Edge properties re-keyed by position among the kept edges ``first``."""
    import numpy as np

    if not edge_props:
        return {}
    olds = np.fromiter(edge_props, np.int64, len(edge_props))
    pos = np.searchsorted(first, olds).clip(max=len(first) - 1)
    kept = (first[pos] == olds).tolist()
    return {
        new_pos: edge_props[o]
        for o, new_pos, keep in zip(olds.tolist(), pos.tolist(), kept, strict=True)
        if keep
    }


# --------------------------------------------------------------------------- files and folders


def source_files(sources: Sequence[str | os.PathLike[str]],
                 report: LoadReport | None = None) -> list[FsPath]:
    """The data files of ``sources``: files as given, folders as the data files directly inside
    them (sorted). A subfolder is an error (byokg does not guess whether it belongs to the
    graph); other files are named in ``report.notes``."""
    files: list[FsPath] = []
    for src in sources:
        p = FsPath(src)
        if not p.exists():
            raise InputError("no such file or folder", source=str(p))
        if not p.is_dir():
            files.append(p)
            continue
        entries = sorted(p.iterdir())
        subs = [f.name for f in entries if f.is_dir()]
        if subs:
            raise InputError(
                f"this folder has subfolders ({', '.join(subs[:5])}); byokg reads the data files "
                "directly inside a folder: pass each folder you mean as its own source",
                source=str(p))
        found = [f for f in entries if f.suffix.lower() in TRIPLE_SUFFIXES]
        for f in found:
            check_regular(f)
        if not found:
            raise InputError(f"no {', '.join(TRIPLE_SUFFIXES)} files in this folder", source=str(p))
        other = [f.name for f in entries if f.suffix.lower() not in TRIPLE_SUFFIXES]
        if other and report is not None:
            report.notes.append(f"{p}: not read (not {'/'.join(TRIPLE_SUFFIXES)}): "
                                + ", ".join(other[:5]) + (" …" if len(other) > 5 else ""))
        files += found
    return files


def read_sources(
    sources: Sequence[str | os.PathLike[str]],
    *,
    skip_bad_rows: bool = False,
    builder: TripleBuilder | None = None,
    limits: Limits | None = None,
    columns: Sequence[str] | None = None,
) -> tuple[TripleBuilder, LoadReport]:
    """Read every triple file of ``sources`` (files or folders) into one builder; ``columns``:
    the column order of CSV/TSV files that have no header (JSONL names its fields).

    Sources that read to no triplet are an error (naming the node records and the first bad
    rows, when there were any).
    """
    if not sources:
        raise ConfigError("no source files to load")
    limits = limits or Limits.from_env()
    b = builder if builder is not None else TripleBuilder()
    total = LoadReport(source=",".join(str(s) for s in sources))
    for f in source_files(sources, total):
        if f.suffix.lower() in JSONL_SUFFIXES:
            _, rep = load_jsonl(f, builder=b, skip_bad_rows=skip_bad_rows, limits=limits)
        else:
            _, rep = load_csv(f, builder=b, skip_bad_rows=skip_bad_rows, limits=limits,
                              columns=columns)
        total.absorb(rep)
    if total.stripped:
        total.notes.append(f"{total.stripped:,} field(s) had spaces around them; the spaces were "
                           "dropped")
    if not len(b):
        why = []
        if b.node_ids:
            why.append(f"{len(b.node_ids):,} node record(s) but no head/relation/tail row")
        if total.reasons:
            why.append(f"{total.bad_rows} bad rows skipped, first: {total.reasons[0]}")
        raise InputError("no triplets loaded" + (f" ({'; '.join(why)})" if why else "")
                         + "; a graph needs head/relation/tail rows", source=total.source)
    return b, total


def trim_heap() -> None:
    """Give freed heap pages back to the OS after a big load (glibc keeps them otherwise, and
    the reader threads' arenas would stay resident). A no-op off glibc."""
    global _MALLOC_TRIM
    if _MALLOC_TRIM is None:
        try:
            import ctypes

            _MALLOC_TRIM = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _MALLOC_TRIM = False
    if _MALLOC_TRIM:
        _MALLOC_TRIM(0)


_MALLOC_TRIM: Any = None


# --------------------------------------------------------------------------- CSV / TSV


def _sniff_delimiter(first_line: str, path: str) -> str:
    if path.lower().endswith((".tsv", ".tab")) or "\t" in first_line:
        return "\t"
    try:
        return csv.Sniffer().sniff(first_line, delimiters=",;|").delimiter
    except csv.Error:
        return ","


def _accepted_headers() -> str:
    return "; ".join(f"{role}: {'/'.join(names)}" for role, names in HEADER_NAMES.items())


def header_columns(header: Sequence[str], src: str, *, given: bool = False,
                   first_line: str | None = None) -> tuple[int, int, int]:
    """Positions of the head, relation and tail columns named by a header row (or, ``given``,
    by the ``columns`` option of a file without one, a ConfigError when wrong); anything else
    is an InputError naming what was found and the accepted names."""
    names = [h.strip().lstrip("\ufeff").lower() for h in header]
    roles = [_ROLE_OF.get(n) for n in names]
    if len(names) != 3 or None in roles or len(set(roles)) != 3:
        if given:
            raise ConfigError(f"columns={','.join(header)!r} for {src}: name the three columns "
                              f"in the file's order, each once ({_accepted_headers()}), e.g. "
                              "head,relation,tail")
        shown = (first_line.rstrip("\r\n") if first_line is not None
                 else ",".join(h.strip() for h in header))[:120]
        fix = (f"; the first line must name the three columns in any order "
               f"({_accepted_headers()}), e.g. head,relation,tail; or, for a file without a "
               "header, give their order: memory:PATH?columns=head,relation,tail, byokg load "
               "--columns head,relation,tail")
        unknown = [h.strip() for h, r in zip(header, roles, strict=True) if r is None]
        if not any(roles):
            what = f"no header: the first line {shown!r} does not name the columns"
        elif unknown:
            what = f"unknown column(s) {', '.join(map(repr, unknown))} in the header {shown!r}"
        elif len(names) != 3:
            what = f"the header {shown!r} has {len(names)} columns; a triple file has 3"
        else:
            what = f"the header {shown!r} names a column twice"
        raise InputError(what + fix, source=src, line=1)
    pos = {r: i for i, r in enumerate(roles)}
    return pos["head"], pos["relation"], pos["tail"]


def _row_reason(row: list[str], delim: str, order: Sequence[str] = _FIELDS) -> str:
    if len(row) != 3:
        shown = "tab" if delim == "\t" else delim
        return (f"expected 3 fields ({delim.join(order)}, delimiter {shown!r}), found {len(row)}")
    nul = [("\x00" in x) for x in row]
    if any(nul):
        return f"NUL byte in the {order[nul.index(True)]} field"
    return f"empty {order[[bool(x.strip()) for x in row].index(False)]} field"


def _first_bad_utf8_line(path: str | os.PathLike[str]) -> tuple[int, str]:
    """(line number, reason) of the first line that is not valid UTF-8."""
    with open(path, "rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                return line_no, f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1}"
    return 0, "undecodable"


def _not_utf8(path: str | os.PathLike[str]) -> InputError:
    line_no, why = _first_bad_utf8_line(path)
    return InputError(f"not UTF-8 text ({why}); save the file as UTF-8", source=str(path),
                      line=line_no)


def _open_text(path: str | os.PathLike[str], **kwargs: Any) -> Any:
    try:
        return open(path, encoding="utf-8-sig", **kwargs)
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", source=str(path)) from None


def check_regular(path: str | os.PathLike[str]) -> None:
    """Raise InputError unless ``path`` is a regular file (a FIFO, socket or device in a data
    folder would block or never end: it is named, never read)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source=str(path)) from None
    if not stat.S_ISREG(mode):
        kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "special")
        raise InputError(f"not a regular file ({kind}); byokg reads only regular files from a "
                         "folder: move it out or rename it", source=str(path))


def _regular(path: str | os.PathLike[str]) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def bounded_lines(fh: Any, src: str, limits: Limits, start: int = 0) -> Iterator[str]:
    """The lines of a text file, each at most ``limits.line_bytes`` characters: a longer line
    (an endless input) is an InputError naming its number and the limit."""
    n = start
    cap = limits.line_bytes
    while True:
        line = fh.readline(cap + 1)
        if not line:
            return
        n += 1
        if len(line) > cap and not line.endswith("\n"):
            raise InputError(f"line longer than {cap:,} characters ({limits.hint('line_bytes')})",
                             source=src, line=n)
        yield line


def load_csv(
    path: str | os.PathLike[str],
    *,
    builder: TripleBuilder | None = None,
    skip_bad_rows: bool = False,
    delimiter: str | None = None,
    engine: str = "auto",
    limits: Limits | None = None,
    columns: Sequence[str] | None = None,
) -> tuple[TripleBuilder, LoadReport]:
    """Read a triple CSV/TSV whose header names its columns (see the module doc); a file
    without a header is read when ``columns`` names its three columns in order (e.g.
    ``("head", "relation", "tail")``, the names a header may use).

    A bad row is an :class:`InputError` naming file and line, or with ``skip_bad_rows`` is
    counted and its reason kept in the report (the first 5).

    ``engine``: ``"auto"`` uses pyarrow's multithreaded CSV reader when pyarrow is installed and
    the file is a regular file without quote characters or NUL bytes, and falls back to the
    Python readers whenever that read finds anything irregular (so bad rows are always reported
    the same way); ``"python"`` always uses the csv module; ``"pyarrow"`` requires the fast path.
    """
    if engine not in _ENGINES:
        raise ConfigError(f"unknown CSV engine {engine!r}; use one of {', '.join(_ENGINES)}")
    limits = limits or Limits.from_env()
    b = builder if builder is not None else TripleBuilder()
    src = str(path)
    report = LoadReport(source=src)
    with _open_text(path, newline="") as fh:
        try:
            first = next(bounded_lines(fh, src, limits), "")
        except UnicodeDecodeError:
            raise _not_utf8(path) from None
        if not first.strip() and (not first or not fh.read(1)):
            raise InputError("the file is empty; expected a header (e.g. head,relation,tail) "
                             "and rows", source=src)
        delim = delimiter or _sniff_delimiter(first, src)
        if columns is not None:
            cols = header_columns(list(columns), src, given=True)
        else:
            cols = header_columns(next(csv.reader(io.StringIO(first), delimiter=delim), []),
                                  src, first_line=first)
        data_first = first if columns is not None else None  # no header: line 1 is a row
        if engine in ("auto", "pyarrow") and _regular(path) and not _needs_exact_reader(path):
            if _load_csv_arrow(path, b, report, delim, cols, limits.line_bytes // 3,
                               header=columns is None):
                return b, report
        if engine == "pyarrow":
            raise InputError("the pyarrow fast path could not read this file", source=src)
        _load_csv_python(fh, b, report, delim, cols, skip_bad_rows, path, limits, data_first)
    return b, report


def _needs_exact_reader(path: str | os.PathLike[str]) -> bool:
    """Whether the file has quote characters or NUL bytes (the csv module reads those)."""
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            if b'"' in chunk or b"\x00" in chunk:
                return True
    return False


def stray_quote(record: str, delim: str) -> int | None:
    """1-based number of the first field with a quote inside an unquoted field, or None."""
    field_no, i, n = 1, 0, len(record)
    at_start = True
    quoted = False
    while i < n:
        c = record[i]
        if quoted:
            if c == '"':
                if i + 1 < n and record[i + 1] == '"':
                    i += 1
                else:
                    quoted = False
        elif c == delim:
            field_no += 1
            at_start = True
            i += 1
            continue
        elif c == '"':
            if not at_start:
                return field_no
            quoted = True
        elif c not in "\r\n":
            pass
        at_start = False
        i += 1
    return None


def _load_csv_python(
    fh: Any,
    b: TripleBuilder,
    report: LoadReport,
    delim: str,
    cols: tuple[int, int, int],
    skip_bad_rows: bool,
    path: str | os.PathLike[str],
    limits: Limits,
    data_first: str | None = None,
) -> None:
    """The exact reader: csv module over bounded lines, interning through the builder's dict.
    ``data_first``: the file's first line, already read, when it is a row (no header).

    Long because the row loop is the hot path of a load: its checks are inlined, with the
    builder's appends bound to locals, and its csv and decoding errors are turned into messages
    naming the line in one place."""
    src = str(path)
    raw: list[str] = []
    offset = 0 if data_first is not None else 1  # lines before the reader's first

    def lines() -> Iterator[str]:
        if data_first is not None:
            raw.append(data_first)
            yield data_first
        for line in bounded_lines(fh, src, limits, start=1):
            raw.append(line)
            yield line

    reader = csv.reader(lines(), delimiter=delim, strict=True)
    b._sync()
    nidx, ridx = b.node_index, b.rel_index
    hs, rs, ts = b.heads.append, b.rels.append, b.tails.append
    ih, ir, it = cols
    order = [""] * 3
    for role, pos in zip(_FIELDS, cols, strict=True):
        order[pos] = role
    before = len(b.heads)
    try:
        for row in reader:
            record, raw[:] = "".join(raw), []
            line_no = offset + reader.line_num
            if not row:  # blank line
                continue
            reason = None
            if len(row) == 3 and '"' in record:
                bad = stray_quote(record, delim)
                if bad is not None:
                    reason = (f"a quote inside the unquoted {order[bad - 1] or 'field'} field "
                              f"(field {bad}); quote the whole field and double the quotes in it")
            if reason is None and len(row) == 3:
                h, r, t = row[ih], row[ir], row[it]
                if h and r and t and "\x00" not in h + r + t:
                    sh, sr, st = h.strip(), r.strip(), t.strip()
                    if sh and sr and st:
                        if (sh, sr, st) != (h, r, t):
                            report.stripped += (sh != h) + (sr != r) + (st != t)
                        hs(nidx[sh])
                        rs(ridx[sr])
                        ts(nidx[st])
                        continue
            reason = reason or _row_reason(row, delim, order)
            if not skip_bad_rows:
                raise InputError(reason + _FIX_HINT, source=src, line=line_no)
            report.bad(f"{src}:{line_no}: {reason}")
    except csv.Error as exc:
        msg = str(exc)
        if "field larger than field limit" in msg:
            raise InputError(field_limit_error(limits), source=src,
                             line=offset + reader.line_num) from None
        raise InputError(
            f"unreadable CSV ({exc}); check the quoting of this row",
            source=src,
            line=offset + reader.line_num,
        ) from None
    except UnicodeDecodeError:
        raise _not_utf8(path) from None
    finally:
        b._sync()
    report.rows += len(b.heads) - before + report.bad_rows


def _load_csv_arrow(
    path: str | os.PathLike[str],
    b: TripleBuilder,
    report: LoadReport,
    delim: str,
    cols: tuple[int, int, int],
    limit: int = 1 << 20,
    *,
    header: bool = True,
) -> bool:
    """Fast path: pyarrow reads and dictionary-encodes the columns in C++.

    Called only for regular files without quote characters or NUL bytes (pyarrow is more
    lenient than the csv module about quoting); returns False, having added nothing, whenever
    the file has a row with the wrong field count, an empty or space-padded field or invalid
    UTF-8, so the exact reader reports it.
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return False
    # The system allocator hands freed pages back (release_unused -> malloc_trim), so the
    # load's temporary Arrow buffers do not stay resident as with the default pool.
    pool = pa.system_memory_pool()
    table = _arrow_table(path, delim, cols, pool, skip=1 if header else 0)
    if table is None:
        return False
    n = table.num_rows
    cols_ = [table.column(name) for name in _FIELDS]
    nodes = pc.dictionary_encode(
        pa.chunked_array(cols_[0].chunks + cols_[2].chunks, pa.string()), memory_pool=pool
    )
    rels = pc.dictionary_encode(cols_[1], memory_pool=pool)
    del table, cols_
    trim_heap()  # the reader threads' heap arenas: hand the table's pages back now
    node_codes, node_dict = _arrow_codes(nodes)
    del nodes
    rel_codes, rel_dict = _arrow_codes(rels)
    del rels
    if _irregular_arrow(node_dict, limit) or _irregular_arrow(rel_dict, limit):
        return False  # an empty, space-padded or over-long field: the exact reader reports it
    node_names, rel_names = node_dict.to_pylist(), rel_dict.to_pylist()
    del node_dict, rel_dict
    b.add_encoded(node_names, node_codes[:n], node_codes[n:], rel_names, rel_codes)
    del node_codes, rel_codes, node_names, rel_names
    pool.release_unused()
    report.rows += n
    return True


# a first or last character that str.isspace() calls a space, as RE2 spells the same set (ASCII
# and C1 controls the csv module treats as spaces, and Unicode's separators Z*)
_SPACE_CLASS = r"[\t\n\x0b\x0c\r\x1c-\x1f\x85\pZ]"
EDGE_SPACE = rf"^{_SPACE_CLASS}|{_SPACE_CLASS}$"


def _irregular_arrow(names: Any, limit: int) -> bool:
    """Whether an Arrow string array holds an empty name, one with a space first or last, or
    one longer than ``limit`` characters (vectorised: 11M names in under a second)."""
    import pyarrow.compute as pc

    if not len(names):
        return False
    lengths = pc.min_max(pc.utf8_length(names))
    if lengths["min"].as_py() == 0 or lengths["max"].as_py() > limit:
        return True
    return bool(pc.any(pc.match_substring_regex(names, EDGE_SPACE)).as_py())


def _arrow_table(path: str | os.PathLike[str], delim: str, cols: tuple[int, int, int],
                 pool: Any, skip: int = 1) -> Any:
    """The three string columns read by pyarrow, or None when a row is irregular."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    irregular = 0

    def on_invalid(_row: Any) -> str:
        nonlocal irregular
        irregular += 1
        return "skip"

    names = [""] * 3
    for role, pos in zip(_FIELDS, cols, strict=True):
        names[pos] = role
    try:
        table = pacsv.read_csv(
            str(path),
            read_options=pacsv.ReadOptions(column_names=names, skip_rows=skip),
            parse_options=pacsv.ParseOptions(
                delimiter=delim, quote_char=False, invalid_row_handler=on_invalid
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={n: pa.string() for n in names}, strings_can_be_null=False
            ),
            memory_pool=pool,
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return None
    return None if irregular else table


def _arrow_codes(enc: Any) -> tuple[np.ndarray, Any]:
    """(int32 codes, dictionary as an Arrow string array) of a dictionary-encoded chunked
    array."""
    import numpy as np
    import pyarrow as pa

    if enc.num_chunks == 0:
        return np.zeros(0, dtype=np.int32), pa.array([], pa.string())
    # chunks share one growing dictionary: the last chunk's is the union
    dictionary = enc.chunk(enc.num_chunks - 1).dictionary
    idx = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in enc.chunks])
    return idx.astype(np.int32, copy=False), dictionary


# --------------------------------------------------------------------------- JSONL


def load_jsonl(
    path: str | os.PathLike[str],
    *,
    builder: TripleBuilder | None = None,
    skip_bad_rows: bool = False,
    limits: Limits | None = None,
) -> tuple[TripleBuilder, LoadReport]:
    """Read JSONL: triple rows ``{"head","relation","tail"[,"properties"]}`` and node rows
    ``{"id"[,"name","labels","aliases","properties"]}``; lines, numbers and nesting within
    ``limits``."""
    limits = limits or Limits.from_env()
    b = builder if builder is not None else TripleBuilder()
    src = str(path)
    report = LoadReport(source=src)
    saved = sys.get_int_max_str_digits()
    if saved and limits.number_digits > saved:  # Python's own cap on int() below the user's
        sys.set_int_max_str_digits(limits.number_digits)
    with _open_text(path) as fh:
        try:
            for line_no, line in enumerate(bounded_lines(fh, src, limits), start=1):
                if not line.strip():
                    continue
                report.rows += 1
                reason = _jsonl_row(b, line, limits)
                if reason is None:
                    continue
                if not skip_bad_rows:
                    raise InputError(reason + _FIX_HINT, source=src, line=line_no)
                report.bad(f"{src}:{line_no}: {reason}")
        except UnicodeDecodeError:
            raise _not_utf8(path) from None
        finally:
            sys.set_int_max_str_digits(saved)
    if report.rows == 0:
        raise InputError("the file is empty; expected one JSON object per line", source=src)
    return b, report


def _json_depth(line: str) -> int:
    """Deepest bracket nesting of a JSON text (brackets inside strings ignored)."""
    depth = best = 0
    in_str = esc = False
    for c in line:
        if in_str:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "[{":
            depth += 1
            best = max(best, depth)
        elif c in "]}":
            depth -= 1
    return best


def _parse_json(line: str, limits: Limits) -> Any:
    """``json.loads`` with the number and nesting limits (raises _LimitExceeded)."""
    if line.count("[") + line.count("{") > limits.depth and _json_depth(line) > limits.depth:
        raise _LimitExceeded(f"JSON nested deeper than {limits.depth} levels "
                             f"({limits.hint('depth')})")

    def number(text: str, conv: Any) -> Any:
        digits = sum(c.isdigit() for c in text)
        if digits > limits.number_digits:
            raise _LimitExceeded(f"a number of {digits:,} digits ({limits.hint('number_digits')})")
        return conv(text)

    return json.loads(line, parse_int=lambda t: number(t, int),
                      parse_float=lambda t: number(t, float))


def _jsonl_row(b: TripleBuilder, line: str, limits: Limits) -> str | None:
    """Add one JSONL row; return a reason string when the row is bad."""
    try:
        obj = _parse_json(line, limits)
    except _LimitExceeded as exc:
        return str(exc)
    except json.JSONDecodeError as exc:
        return f"invalid JSON ({exc.msg} at column {exc.colno})"
    except RecursionError:
        return f"JSON nested too deeply ({limits.hint('depth')})"
    if not isinstance(obj, dict):
        return "expected a JSON object"
    if ("\\ud" in line or "\\uD" in line) and (bad := _invalid_text_in(obj)):
        return bad
    props = obj.get("properties") or None
    if props is not None and not isinstance(props, dict):
        return "field 'properties' must be an object"
    if "head" in obj or "relation" in obj or "tail" in obj:
        vals = []
        for key in _FIELDS:
            val = obj.get(key)
            if not isinstance(val, str | int | float) or isinstance(val, bool) or str(val) == "":
                return f"field {key!r} is missing or not a non-empty string"
            if "\x00" in str(val):
                return f"NUL character in field {key!r}"
            vals.append(str(val))
        b.add(vals[0], vals[1], vals[2], props)
        return None
    if "id" in obj:
        return _jsonl_node(b, obj, props)
    return "a row needs head/relation/tail (a triplet) or id (a node record)"


def _invalid_text_in(value: Any, where: str = "") -> str | None:
    """Why a parsed JSON value holds text no UTF-8 can store (a lone surrogate written as an
    escape, ``"\\ud800"``), naming the field; None when it is fine."""
    if isinstance(value, str):
        bad = invalid_text(value)
        return f"field {where or 'value'!r}: {bad}" if bad else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(
        value, list) else ()
    for k, v in items:
        name = f"{where}.{k}" if where else str(k)
        if isinstance(k, str) and invalid_text(k):
            return f"a field name in {where or 'the row'!r}: {invalid_text(k)}"
        bad = _invalid_text_in(v, name)
        if bad:
            return bad
    return None


def _jsonl_node(b: TripleBuilder, obj: dict[str, Any], props: dict | None) -> str | None:
    nid = obj["id"]
    if not isinstance(nid, str | int) or str(nid) == "":
        return "field 'id' must be a non-empty string"
    if "\x00" in str(nid):
        return "NUL character in field 'id'"
    labels = obj.get("labels") or ([obj["label"]] if obj.get("label") else [])
    aliases = obj.get("aliases") or []
    if not isinstance(labels, list) or not isinstance(aliases, list):
        return "fields 'labels' and 'aliases' must be lists"
    name = obj.get("name")
    b.add_node(
        str(nid),
        name=str(name) if name is not None else None,
        labels=[str(x) for x in labels],
        aliases=[str(x) for x in aliases],
        properties=props,
    )
    return None
