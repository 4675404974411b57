"""A parsed copy of a graph's triple files, kept in the cache folder so that the next process
opening the same files reads one binary file instead of parsing CSV or JSONL again.

A snapshot is keyed by what the parse depends on: every source file's absolute path, size and
modification time, the reading options (``skip_bad_rows``, ``columns``, the read limits), the
byokg version and the readers' code. Any change makes a new key, so a stale snapshot is never read; the read
report is kept with it, so the warnings a parse gave (bad rows skipped, notes) are given again
when the snapshot is read. Small sources are not kept (parsing them costs less than a file).

Format: one ``.npz`` (no pickles): the int32 columns, and the rest as UTF-8 JSON. A table whose
properties JSON cannot carry unchanged (tuples, NaN, non-text keys) is not kept.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from byokg.io.readers import Limits
from byokg.io.readers import LoadReport
from byokg.io.readers import TripleTable
from byokg.io.readers import source_files

FORMAT = 1
MIN_BYTES = 256 * 1024  # sources smaller than this are parsed each time
log = logging.getLogger(__name__)


def snapshot_path(root: Path, sources: Sequence[str | os.PathLike[str]], *,
                  skip_bad_rows: bool, columns: Sequence[str] | None,
                  limits: Limits) -> Path | None:
    """Where the snapshot of these sources read with these options lives under ``root``; None
    when they are too small to be worth one."""
    from byokg import __version__
    from byokg.io import readers

    files = source_files(sources, LoadReport())
    stats = [(str(f.resolve()), f.stat()) for f in files]
    if sum(s.st_size for _, s in stats) < MIN_BYTES:
        return None
    key = json.dumps({
        "format": FORMAT, "byokg": __version__, "reader": _source_digest(readers.__file__), "skip_bad_rows": bool(skip_bad_rows),
        "columns": list(columns) if columns else None, "limits": asdict(limits),
        "files": [[p, s.st_size, s.st_mtime_ns] for p, s in stats],
    }, sort_keys=True)
    ident = hashlib.sha256(json.dumps([p for p, _ in stats]).encode()).hexdigest()[:16]
    return root / "graphs" / f"{ident}-{hashlib.sha256(key.encode()).hexdigest()[:32]}.npz"


def _source_digest(file: str | None) -> str:
    """The readers' own code, so a changed parser never reads an old snapshot."""
    return hashlib.sha256(Path(file).read_bytes()).hexdigest()[:16] if file else ""


def _int_keyed(d: dict[str, Any], conv: Any = None) -> dict[int, Any]:
    return {int(k): (conv(v) if conv else v) for k, v in d.items()}


def _rest(table: TripleTable, report: LoadReport) -> dict[str, Any]:
    return {
        "node_ids": table.node_ids, "rel_names": table.rel_names,
        "edge_props": table.edge_props, "names": table.names,
        "aliases": {k: list(v) for k, v in table.aliases.items()},
        "labels": {k: list(v) for k, v in table.labels.items()},
        "node_props": table.node_props, "duplicates": table.duplicates,
        "bad_rows": table.bad_rows, "report": asdict(report),
    }


def _table(rest: dict[str, Any], heads: np.ndarray, rels: np.ndarray,
           tails: np.ndarray) -> tuple[TripleTable, LoadReport]:
    node_ids, rel_names = rest["node_ids"], rest["rel_names"]
    table = TripleTable(
        node_ids=node_ids, node_index={n: i for i, n in enumerate(node_ids)},
        rel_names=rel_names, rel_index={n: i for i, n in enumerate(rel_names)},
        heads=heads, rels=rels, tails=tails,
        edge_props=_int_keyed(rest["edge_props"]), names=_int_keyed(rest["names"]),
        aliases=_int_keyed(rest["aliases"], tuple), labels=_int_keyed(rest["labels"], tuple),
        node_props=_int_keyed(rest["node_props"]), duplicates=rest["duplicates"],
        bad_rows=rest["bad_rows"])
    return table, LoadReport(**rest["report"])


def save_snapshot(path: Path, table: TripleTable, report: LoadReport) -> bool:
    """Write the snapshot (atomically: a reader never sees half a file); False, with a debug
    line, when the table does not round-trip through JSON or the folder cannot be written."""
    try:
        blob = json.dumps(_rest(table, report), ensure_ascii=False, allow_nan=False)
        back, _ = _table(json.loads(blob), table.heads, table.rels, table.tails)
        same = (back.node_index == table.node_index and back.rel_index == table.rel_index
                and back.edge_props == table.edge_props and back.names == table.names
                and back.aliases == table.aliases and back.labels == table.labels
                and back.node_props == table.node_props)
        if not same:
            log.debug("graph snapshot not kept: the table does not round-trip through JSON")
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(fh, heads=table.heads, rels=table.rels, tails=table.tails,
                         rest=np.frombuffer(blob.encode("utf-8"), dtype=np.uint8))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        ident = path.name.split("-", 1)[0]
        for old in path.parent.glob(f"{ident}-*.npz"):  # the same files' earlier versions
            if old != path:
                old.unlink(missing_ok=True)
        return True
    except (OSError, TypeError, ValueError) as exc:
        log.debug("graph snapshot not kept: %s", exc)
        return False


def load_snapshot(path: Path) -> tuple[TripleTable, LoadReport] | None:
    """The table and read report kept at ``path``; None when there is none or it cannot be
    read (it is then parsed again and rewritten)."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            rest = json.loads(z["rest"].tobytes().decode("utf-8"))
            return _table(rest, z["heads"], z["rels"], z["tails"])
    except (OSError, KeyError, TypeError, ValueError) as exc:
        log.warning("graph snapshot %s could not be read (%s); parsing the sources again",
                    path, exc)
        return None
