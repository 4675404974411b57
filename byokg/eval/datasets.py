"""Evaluation datasets: WebQSP, CWQ, Northwind text2cypher, and generic JSONL (per-question
subgraphs in RoG's format: :mod:`byokg.eval.subgraphs`).

Every loader returns a :class:`Dataset` whose ``excluded`` list names each question left out and
why (no gold answers, gold query failed or came back empty); malformed rows are an error naming
file and line, or with ``skip_bad_rows`` are listed in ``bad_rows``. Nothing is dropped silently.
A streamed dataset (:meth:`Dataset.set_stream`) reads its examples one at a time while the run
goes; its ``excluded`` and ``bad_rows`` fill as it is read.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path as FsPath
from typing import Any

from pydantic import BaseModel
from pydantic import Field
from pydantic import PrivateAttr

from ..errors import InputError


class Example(BaseModel):
    id: str
    question: str
    answers: list[str] = Field(default_factory=list)
    # alternative gold answer sets (e.g. RoG's) that also count as correct, per answer
    aliases: dict[str, list[str]] = Field(default_factory=dict)
    topic_entities: list[str] = Field(default_factory=list)
    gold_relation_paths: list[list[str]] = Field(default_factory=list)
    gold_query: str | None = None
    gold_rows: list[list[Any]] | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    # the question's own graph (a :class:`byokg.eval.subgraphs.Subgraph`), for datasets that
    # carry one graph per question; never archived
    graph: Any = Field(None, exclude=True, repr=False)

    def gold_answer_forms(self) -> list[list[str]]:
        """Each gold answer with its aliases, for the metrics."""
        return [[a, *self.aliases.get(a, [])] for a in self.answers]


class Excluded(BaseModel):
    id: str
    question: str
    reason: str


class Dataset(BaseModel):
    name: str
    source: str
    examples: list[Example] = Field(default_factory=list)
    excluded: list[Excluded] = Field(default_factory=list)
    bad_rows: list[str] = Field(default_factory=list)
    per_question_graphs: bool = False  # each example brings its own graph (Example.graph)
    _stream: Callable[[], Iterator[Example]] | None = PrivateAttr(None)

    def __len__(self) -> int:
        return len(self.examples)

    def set_stream(self, stream: Callable[[], Iterator[Example]]) -> None:
        """Examples come from ``stream()`` one at a time instead of the ``examples`` list."""
        self._stream = stream

    @property
    def streamed(self) -> bool:
        return self._stream is not None

    def iter_examples(self) -> Iterator[Example]:
        """The examples in order: the list, or the stream (read once per call)."""
        if self._stream is None:
            return iter(self.examples)
        return self._stream()


def _iter_jsonl(path: FsPath, skip_bad_rows: bool, bad: list[str]) -> Iterator[tuple[int, dict]]:
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot open dataset: {exc.strerror}", source=str(path)) from None
    with fh:
        for line_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("expected a JSON object")
            except ValueError as exc:
                msg = f"invalid row: {exc}"
                if not skip_bad_rows:
                    raise InputError(msg + "; fix it or pass skip_bad_rows", source=str(path), line=line_no) from None
                bad.append(f"{path}:{line_no}: {msg}")
                continue
            yield line_no, obj


def _require(obj: dict, key: str, kind: type | tuple[type, ...], path: FsPath, line: int) -> Any:
    val = obj.get(key)
    if not isinstance(val, kind):
        raise InputError(f"missing or invalid field (expected {getattr(kind, '__name__', kind)})",
                         source=str(path), line=line, field=key)
    return val


def _topic_names(raw: Any) -> list[str]:
    if isinstance(raw, dict):
        return [str(v) for v in raw.values()]
    if isinstance(raw, list):
        return [str(v) for v in raw]
    return []


def load_freebase_qa(path: str | FsPath, *, name: str, skip_bad_rows: bool = False, **_: Any) -> Dataset:
    """WebQSP / CWQ JSONL (``../shared/data/freebase/*.jsonl``)."""
    p = FsPath(path)
    ds = Dataset(name=name, source=str(p))
    for line_no, obj in _iter_jsonl(p, skip_bad_rows, ds.bad_rows):
        try:
            qid = str(obj.get("id") or f"{p.name}:{line_no}")
            question = _require(obj, "question", str, p, line_no)
            answers = [str(a) for a in _require(obj, "answers", list, p, line_no)]
        except InputError as exc:
            if not skip_bad_rows:
                raise
            ds.bad_rows.append(str(exc))
            continue
        rog = [str(a) for a in obj.get("rog_answers") or []]
        if not answers and rog:
            answers, rog = rog, []
        if not answers:
            ds.excluded.append(Excluded(id=qid, question=question, reason="no gold answers"))
            continue
        extra = [a for a in rog if a not in answers]
        ex = Example(
            id=qid,
            question=question,
            answers=answers,
            topic_entities=_topic_names(obj.get("topic_entities")),
            gold_relation_paths=[list(map(str, x)) for x in obj.get("gold_relation_paths") or []],
            meta={k: obj[k] for k in ("compositionality_type", "hop_distance_topic_to_answer") if k in obj},
        )
        if extra:
            ex.meta["alternative_answers"] = extra
        ds.examples.append(ex)
    return ds


def load_webqsp(path: str | FsPath, **options: Any) -> Dataset:
    return load_freebase_qa(path, name="webqsp", **options)


def load_cwq(path: str | FsPath, **options: Any) -> Dataset:
    return load_freebase_qa(path, name="cwq", **options)


def load_generic_jsonl(path: str | FsPath, *, skip_bad_rows: bool = False, **_: Any) -> Dataset:
    """``{"question", "answers", optional "id", "topic_entities", "aliases"}`` per line."""
    p = FsPath(path)
    ds = Dataset(name="jsonl", source=str(p))
    for line_no, obj in _iter_jsonl(p, skip_bad_rows, ds.bad_rows):
        try:
            question = _require(obj, "question", str, p, line_no)
            answers = _require(obj, "answers", list, p, line_no)
        except InputError as exc:
            if not skip_bad_rows:
                raise
            ds.bad_rows.append(str(exc))
            continue
        qid = str(obj.get("id") or f"q{line_no}")
        if not answers:
            ds.excluded.append(Excluded(id=qid, question=question, reason="no gold answers"))
            continue
        aliases = obj.get("aliases") or {}
        ds.examples.append(
            Example(
                id=qid,
                question=question,
                answers=[str(a) for a in answers],
                aliases={str(k): [str(x) for x in v] for k, v in aliases.items()} if isinstance(aliases, dict) else {},
                topic_entities=_topic_names(obj.get("topic_entities")),
                gold_relation_paths=[list(map(str, x)) for x in obj.get("relation_paths") or obj.get("gold_relation_paths") or []],
            )
        )
    return ds


GOLD_FILE_ROWS = 50
NORTHWIND_FILES = ("neo4jlabs_t2c_gpt4turbo_northwind.csv", "text2typeql_northwind_queries.csv")


def _northwind_pairs(p: FsPath) -> list[tuple[str, str, str]]:
    """(source id, question, gold cypher) from the text2cypher CSV(s)."""
    files = [p / f for f in NORTHWIND_FILES if (p / f).exists()] if p.is_dir() else [p]
    if not files:
        raise InputError(f"no text2cypher CSV found (expected one of {', '.join(NORTHWIND_FILES)})", source=str(p))
    out = []
    for f in files:
        try:
            fh = open(f, encoding="utf-8", newline="")
        except OSError as exc:
            raise InputError(f"cannot open: {exc.strerror}", source=str(f)) from None
        with fh:
            reader = csv.DictReader(fh)
            for col in ("question", "cypher"):
                if col not in (reader.fieldnames or []):
                    raise InputError(f"missing column {col!r}", source=str(f), line=1)
            for row in reader:
                rid = row.get("source_row") or row.get("original_index") or str(reader.line_num)
                out.append((f"{f.stem}:{rid}", row["question"].strip(), row["cypher"].strip()))
    return out


def _northwind_file_gold(gf: FsPath, ds: Dataset) -> dict[str, list[tuple[str, list[list[Any]]]]]:
    """Gold rows per question from the shared gold file (only queries that ran OK with rows)."""
    out: dict[str, list[tuple[str, list[list[Any]]]]] = {}
    for _line, obj in _iter_jsonl(gf, False, ds.bad_rows):
        if obj.get("kuzu_status") == "ok" and obj.get("kuzu_rows"):
            out.setdefault(obj["question"].strip(), []).append((obj["cypher"], obj["kuzu_rows"]))
    return out


def _northwind_backend_gold(
    store: Any, cands: list[tuple[str, str]], timeout_s: float, reasons: list[str]
) -> tuple[str, list[list[Any]]] | None:
    """The first gold query that returns rows on ``store``; why each other failed goes to ``reasons``."""
    from ..cypher.execute import Status  # guarded, read-only, dialect rewrites
    from ..cypher.execute import execute  # guarded, read-only, dialect rewrites

    for _sid, cypher in cands:
        run = execute(store, cypher, timeout_s=timeout_s, row_limit=10_000)
        if run.status == Status.OK and run.result is not None:
            return cypher, [list(r) for r in run.result.rows]
        if run.status == Status.EMPTY:
            reasons.append("gold query returned no rows")
        else:  # reported per question, never silently dropped
            reasons.append(f"gold query {run.status}: {(run.error or '').splitlines()[0][:160]}")
    return None


def _northwind_example(
    qid: str, question: str, cands: list[tuple[str, str]], cypher: str, rows: list[list[Any]], from_file: bool
) -> Example:
    """One Northwind example: gold answers are the distinct cell values of the gold rows."""
    answers = list(dict.fromkeys(str(v) for r in rows for v in r if v is not None))[:50]
    return Example(
        id=qid,
        question=question,
        answers=answers,
        gold_query=cypher,
        gold_rows=rows,
        meta={
            "sources": [s for s, _ in cands],
            # the shared gold file keeps only the first GOLD_FILE_ROWS rows of a result
            "gold_truncated": from_file and len(rows) >= GOLD_FILE_ROWS,
            "gold_has_limit": _has_limit(cypher),
            # Northwind's schema has no `id`; byokg's Bolt loader adds one as node key
            "ignore_node_keys": ["id"],
        },
    )


def load_northwind(
    path: str | FsPath,
    *,
    store: Any = None,
    gold_source: str = "backend",
    gold_file: str | FsPath | None = None,
    timeout_s: float = 30.0,
    **_: Any,
) -> Dataset:
    """Northwind text2cypher: one example per unique question.

    ``gold_source="backend"``: the gold answer is the gold Cypher's result on ``store`` (a store
    with the ``cypher`` capability); a question whose gold queries all fail or return nothing is
    excluded with the reason. ``gold_source="file"``: gold rows come from
    ``kuzu_gold_results.jsonl`` (next to the CSV folder unless ``gold_file`` is given).
    """
    p = FsPath(path)
    ds = Dataset(name="northwind", source=str(p))
    by_question: dict[str, list[tuple[str, str]]] = {}
    for sid, question, cypher in _northwind_pairs(p):
        by_question.setdefault(question, []).append((sid, cypher))
    file_gold: dict[str, list[tuple[str, list[list[Any]]]]] = {}
    if gold_source == "file":
        gf = FsPath(gold_file) if gold_file else (p.parent if p.is_dir() else p.parent.parent) / "kuzu_gold_results.jsonl"
        file_gold = _northwind_file_gold(gf, ds)
    elif gold_source != "backend":
        raise InputError(f"gold_source must be 'backend' or 'file', not {gold_source!r}", field="gold_source")
    elif store is None or "cypher" not in store.capabilities:
        raise InputError(
            "northwind needs a graph with the cypher capability (kuzu:, bolt://, neptune…) to run "
            "the gold queries; or use gold_source='file'",
            field="graph",
        )
    for idx, (question, cands) in enumerate(by_question.items()):
        qid = f"nw{idx:04d}"
        reasons: list[str] = []
        if gold_source == "file":
            got = file_gold.get(question)
            chosen = got[0] if got else None
            if not chosen:
                reasons.append("no gold query ran OK with rows in the gold file")
        else:
            chosen = _northwind_backend_gold(store, cands, timeout_s, reasons)
        if chosen is None:
            ds.excluded.append(Excluded(id=qid, question=question, reason="; ".join(reasons)))
            continue
        ds.examples.append(_northwind_example(qid, question, cands, *chosen, gold_source == "file"))
    return ds


def _has_limit(cypher: str) -> bool:
    """Whether the query has a LIMIT outside strings and comments (its rows may then depend on
    how the engine breaks ties)."""
    from ..cypher.lexer import tokenize

    try:
        toks = tokenize(cypher)
    except ValueError:
        return "limit" in cypher.lower()
    return any(t.is_word("LIMIT") for t in toks)
