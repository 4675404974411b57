"""Per-question subgraphs in RoG's format: ``rog-webqsp`` and ``rog-cwq``.

RoG, GNN-RAG, SubgraphRAG and ToG evaluate WebQSP and CWQ on one Freebase subgraph per question,
distributed as one record per question (JSON Lines, or Parquet on the Hugging Face hub)::

    {"id": "WebQTest-0", "question": "what does jamaican people speak",
     "answer": ["Jamaican English", "Jamaican Creole English Language"],
     "q_entity": ["Jamaica"], "a_entity": ["Jamaican English", ...],
     "graph": [["Jamaica", "location.country.languages_spoken", "Jamaican English"], ...],
     "choices": []}

Records are read one at a time (:func:`load_rog` returns a streamed :class:`Dataset`): the runner
builds each question's graph in memory when that question is answered and drops it after, so
memory holds the graphs of the questions in flight, never the whole file. Named nodes are names
already in RoG's files; a record may add ``entity_names`` (``{id: name}``) to name the others.

A record that cannot be used (invalid JSON, a field missing or of the wrong type, a triple that
is not three non-empty strings, an id seen before) is reported with its file, line (JSON Lines)
or row (Parquet) and field in ``Dataset.bad_rows``, and the run goes on; a question without gold
answers is listed in ``excluded``.
"""

from __future__ import annotations

import glob
import json
import logging
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path as FsPath
from typing import Any

from ..errors import InputError
from .datasets import Dataset
from .datasets import Example
from .datasets import Excluded

log = logging.getLogger("byokg.eval")

JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
PARQUET_SUFFIXES = (".parquet", ".pq")
MAX_RECORD_BYTES = 1 << 30  # one JSON line at most (RoG's largest records are tens of MB)
PARQUET_BATCH = 16  # records decoded at a time from a Parquet file
FIELDS = ("id", "question", "answer", "answers", "q_entity", "a_entity", "graph", "entity_names")


@dataclass
class Subgraph:
    """One question's graph: its triples as read, the names a record gives, where it came from."""

    triples: list[tuple[str, str, str]]
    names: dict[str, str] = field(default_factory=dict)
    where: str = ""

    def __len__(self) -> int:
        return len(self.triples)

    def open(self) -> Any:
        """The graph in memory (the ``memory`` backend's ``from_triplets``), built now."""
        from byokg.graph.open import graph_from_triplets

        return graph_from_triplets(self.triples, names=self.names or None)


class BadRecord(ValueError):
    """A record that cannot be used: ``field`` names what is wrong."""

    def __init__(self, field_: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field_


def data_files(path: str | FsPath) -> list[FsPath]:
    """The record files of ``--data``: a file, a folder (its JSON Lines and Parquet files,
    sorted) or a glob pattern (``data/test-*.parquet``, as the Hugging Face shards are named)."""
    text = str(path)
    if any(c in text for c in "*?["):
        found = sorted(FsPath(p) for p in glob.glob(text))
        if not found:
            raise InputError("no file matches this pattern", source=text)
        files = [f for f in found if f.is_file()]
    else:
        p = FsPath(text)
        if not p.exists():
            raise InputError("no such file or folder", source=text)
        files = sorted(f for f in p.iterdir() if f.is_file()) if p.is_dir() else [p]
        if p.is_dir():
            files = [f for f in files if f.suffix.lower() in JSONL_SUFFIXES + PARQUET_SUFFIXES]
            if not files:
                raise InputError(f"no {', '.join(JSONL_SUFFIXES + PARQUET_SUFFIXES)} files in "
                                 "this folder", source=text)
    for f in files:
        if f.suffix.lower() not in JSONL_SUFFIXES + PARQUET_SUFFIXES:
            raise InputError("expected JSON Lines (.jsonl) or Parquet (.parquet) records",
                             source=str(f))
    return files


def _strings(obj: Mapping[str, Any], key: str, *, required: bool) -> list[str]:
    val = obj.get(key)
    if val is None:
        if required:
            raise BadRecord(key, "missing (expected a list of strings)")
        return []
    if not isinstance(val, list | tuple) or not all(isinstance(x, str) for x in val):
        raise BadRecord(key, "expected a list of strings")
    return [str(x) for x in val]


def _triples(raw: Any) -> list[tuple[str, str, str]]:
    if raw is None:
        raise BadRecord("graph", "missing (expected a list of [head, relation, tail])")
    if not isinstance(raw, list | tuple):
        raise BadRecord("graph", f"expected a list of [head, relation, tail], not {type(raw).__name__}")
    out: list[tuple[str, str, str]] = []
    for i, t in enumerate(raw):
        if (not isinstance(t, list | tuple) or len(t) != 3
                or not all(isinstance(x, str) and x.strip() for x in t)):
            shown = json.dumps(t, ensure_ascii=False, default=str)[:120]
            raise BadRecord(f"graph[{i}]", f"{shown} is not [head, relation, tail] of three "
                                           "non-empty strings")
        out.append((t[0], t[1], t[2]))
    return out


def parse_record(obj: Any, where: str) -> Example:
    """One RoG record as an :class:`Example` carrying its :class:`Subgraph` (raises
    :class:`BadRecord` naming the field)."""
    if not isinstance(obj, Mapping):
        raise BadRecord(None, "expected a JSON object")
    qid = obj.get("id")
    if qid is not None and not isinstance(qid, str | int):
        raise BadRecord("id", "expected a string")
    question = obj.get("question")
    if not isinstance(question, str) or not question.strip():
        raise BadRecord("question", "missing or not a non-empty string")
    key = "answer" if "answer" in obj or "answers" not in obj else "answers"
    answers = _strings(obj, key, required=True)
    q_entity = _strings(obj, "q_entity", required=False)
    a_entity = _strings(obj, "a_entity", required=False)
    triples = _triples(obj.get("graph"))
    names = obj.get("entity_names") or {}
    if not isinstance(names, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in names.items()):
        raise BadRecord("entity_names", "expected an object of id: name strings")
    if not answers and a_entity:
        answers = list(a_entity)
    meta: dict[str, Any] = {"record": where, "q_entity": q_entity, "a_entity": a_entity}
    return Example(id=str(qid) if qid is not None else where, question=question.strip(),
                   answers=answers, topic_entities=q_entity, meta=meta,
                   graph=Subgraph(triples, dict(names), where))


def _jsonl_records(path: FsPath) -> Iterator[tuple[str, Any]]:
    """(``FILE:LINE``, parsed object or the BadRecord) per non-empty line."""
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror}", source=str(path)) from None
    with fh:
        line_no = 0
        while True:
            try:
                line = fh.readline(MAX_RECORD_BYTES + 1)
            except UnicodeDecodeError as exc:
                raise InputError(f"not UTF-8 text ({exc.reason}); save the file as UTF-8",
                                 source=str(path), line=line_no + 1) from None
            if not line:
                return
            line_no += 1
            where = f"{path}:{line_no}"
            if len(line) > MAX_RECORD_BYTES and not line.endswith("\n"):
                raise InputError(f"a record longer than {MAX_RECORD_BYTES:,} characters",
                                 source=str(path), line=line_no)
            if not line.strip():
                continue
            try:
                yield where, json.loads(line)
            except (ValueError, RecursionError) as exc:
                msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
                yield where, BadRecord(None, f"invalid JSON ({msg})")


def _parquet_records(path: FsPath) -> Iterator[tuple[str, Any]]:
    """(``FILE row N``, record dict) per row (rows counted from 1), a few rows decoded at a time."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading Parquet needs pyarrow: pip install 'byokg[arrow]'",
                         source=str(path)) from None
    try:
        pf = pq.ParquetFile(str(path), buffer_size=1 << 20, pre_buffer=False)
    except Exception as exc:  # pyarrow raises its own error types for a file it cannot read
        raise InputError(f"not a readable Parquet file ({exc})", source=str(path)) from None
    columns = [c for c in pf.schema_arrow.names if c in FIELDS]
    row = 0
    for batch in pf.iter_batches(batch_size=PARQUET_BATCH, columns=columns):
        for rec in batch.to_pylist():
            row += 1
            yield f"{path} row {row}", rec


def iter_records(files: list[FsPath]) -> Iterator[tuple[str, Any]]:
    for f in files:
        if f.suffix.lower() in PARQUET_SUFFIXES:
            yield from _parquet_records(f)
        else:
            yield from _jsonl_records(f)


def load_rog(path: str | FsPath, *, name: str = "rog", **_: Any) -> Dataset:
    """RoG-format records (``--data FILE``, folder or glob) as a streamed dataset."""
    files = data_files(path)
    ds = Dataset(name=name, source=str(path), per_question_graphs=True)

    def stream() -> Iterator[Example]:
        seen: set[str] = set()
        for where, obj in iter_records(files):
            try:
                if isinstance(obj, BadRecord):
                    raise obj
                ex = parse_record(obj, where)
                if ex.id in seen:
                    raise BadRecord("id", f"{ex.id!r} was already used by an earlier record")
            except BadRecord as exc:
                what = f"field {exc.field!r}: " if exc.field else ""
                ds.bad_rows.append(f"{where}: {what}{exc}")
                log.warning("%s: %s%s (record skipped; the run goes on)", where, what, exc)
                continue
            seen.add(ex.id)
            if not ex.answers:
                ds.excluded.append(Excluded(id=ex.id, question=ex.question,
                                            reason=f"no gold answers ({where})"))
                continue
            yield ex

    ds.set_stream(stream)
    return ds


def load_rog_webqsp(path: str | FsPath, **options: Any) -> Dataset:
    return load_rog(path, name="rog-webqsp", **options)


def load_rog_cwq(path: str | FsPath, **options: Any) -> Dataset:
    return load_rog(path, name="rog-cwq", **options)
