"""``byokg ask --file questions.txt|.jsonl --out answers.jsonl``: many questions, one graph load.

Input: a text file (one question a line; blank lines and ``#`` comments skipped and counted) or
JSON lines (``{"question": …, "id": …}``; ``id`` optional). Output: one JSON line per question
(``id``, ``question``, ``answers``, ``answer_ids``, ``truncated`` and ``total`` (the answer list
was cut, how many there are), ``evidence``, ``warnings`` (how many) with ``warning_texts`` and
``error_texts`` (what the run's warnings and errors say: a failed or crashed query among them),
``error`` (the question itself failed), the cost — ``llm_calls``, ``prompt_tokens``,
``completion_tokens``, ``seconds`` and ``stage_seconds`` — and ``key``), written as each
finishes (input order with one worker). Beside it, ``OUT.run.json`` records the graph, the run
configuration, the questions answered side by side (``batch_workers``) and the threads each
question's tools run on (``tool_threads``, ``RunConfig.workers``): re-running with the same
``--out`` skips the questions already answered and retries the ones that failed; a changed
setting is an error naming it (the two worker counts may change).
"""

from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from byokg.config import settings_diff
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import invalid_text
from byokg.io.files import open_append
from byokg.io.files import write_fresh
from byokg.redaction import redact_settings

# settings a re-run may change: they decide how fast, not what is answered ("workers": the
# name batch_workers had before)
RESUMABLE = frozenset({"workers", "batch_workers", "tool_threads", "run_config.workers", "file"})
MAX_TEXTS = 20  # warning and error texts written per question


@dataclass(frozen=True)
class Item:
    key: str  # what resuming matches on: the id, or the question text
    id: str
    question: str
    problem: str | None = None  # why this line cannot be asked (written as its error row)


@dataclass
class BatchSummary:
    answered: int = 0
    failed: int = 0
    skipped: int = 0  # already answered in OUT
    retried: int = 0  # failed before, asked again
    blank: int = 0  # blank or comment lines
    duplicates: int = 0  # the same id/question again in the input

    def line(self) -> str:
        parts = [f"{self.answered} answered", f"{self.failed} failed"]
        for name in ("skipped", "retried", "blank", "duplicates"):
            n = getattr(self, name)
            if n:
                label = {"skipped": "already answered (skipped)", "retried": "retried",
                         "blank": "blank/comment lines", "duplicates": "duplicates skipped"}[name]
                parts.append(f"{n} {label}")
        return ", ".join(parts)


def read_questions(path: str | Path, summary: BatchSummary) -> list[Item]:
    """The questions of a .txt or .jsonl file, in order, duplicates dropped (and counted).

    A line that is not UTF-8, or a question that is not valid text (a lone surrogate), becomes
    an item with a ``problem``: its row in OUT says so and the other questions are asked. Ids
    are compared as written: ``1`` and ``"1"`` in one file are a conflict (an error naming
    both lines), since both would be ``"1"`` in OUT."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the questions: {exc.strerror}", source=str(p)) from None
    jsonl = p.suffix.lower() in (".jsonl", ".ndjson")
    items: list[Item] = []
    seen: dict[str, tuple[int, str]] = {}  # key -> (line, question)
    ids: dict[str, tuple[int, Any]] = {}  # id as text -> (line, id as written)
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()  # the file's last newline ends a line, it does not start one
    for n, raw in enumerate(lines, 1):
        raw = raw.removesuffix(b"\r")
        try:
            line = raw.decode("utf-8").removeprefix("\ufeff" if n == 1 else "")
        except UnicodeDecodeError as exc:
            why = (f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}); "
                   "save the file as UTF-8")
            items.append(_undecodable(p, n, raw, jsonl, _where(p, n, why)))
            continue
        if not line.strip() or (not jsonl and line.lstrip().startswith("#")):
            summary.blank += 1
            continue
        item = _jsonl_item(p, n, line, ids) if jsonl else Item(
            key=f"q:{line.strip()}", id=f"line-{n}", question=line.strip())
        bad = invalid_text(item.question) or invalid_text(item.id)
        if bad:
            item = Item(key=_printable(item.key), id=_printable(item.id),
                        question=_printable(item.question),
                        problem=_where(p, n, f"the question is not valid text: {bad}"))
        if item.key in seen:
            summary.duplicates += 1
            first, asked = seen[item.key]
            if asked != item.question:
                print(f"note: {p}:{n}: id {item.id!r} was already given on line {first} to "
                      "another question; this line is skipped (give it its own id)",
                      file=sys.stderr)
            continue
        seen[item.key] = (n, item.question)
        items.append(item)
    return items


def _jsonl_item(p: Path, n: int, line: str, ids: dict[str, tuple[int, Any]]) -> Item:
    """One JSON line as an item (bad JSON or a missing question are errors for the file)."""
    try:
        row = json.loads(line)
    except ValueError as exc:
        raise InputError(f"invalid JSON: {exc}", source=str(p), line=n) from None
    q = row.get("question") if isinstance(row, dict) else None
    if not isinstance(q, str) or not q.strip():
        raise InputError('no "question" text in this row (expected {"question": "…", '
                         '"id": "…"})', source=str(p), line=n, field="question")
    rid = row.get("id")
    if rid is None:
        return Item(key=f"q:{q.strip()}", id=f"line-{n}", question=q)
    qid = str(rid)
    before = ids.setdefault(qid, (n, rid))
    if json.dumps(before[1]) != json.dumps(rid):
        raise InputError(f"the id {json.dumps(rid)} conflicts with the id "
                         f"{json.dumps(before[1])} on line {before[0]}: both are written "
                         f'"{qid}" in the answers; give each question its own id',
                         source=str(p), line=n, field="id")
    return Item(key=f"id:{rid}", id=qid, question=q)


def _undecodable(p: Path, n: int, raw: bytes, jsonl: bool, problem: str) -> Item:
    """The item of a line that is not UTF-8: its row keeps the line's id when the rest of the
    line still reads as a JSON object with one."""
    text = raw.decode("utf-8", "backslashreplace").strip()
    rid = None
    if jsonl:
        try:
            row = json.loads(raw.decode("utf-8", "replace"))
            rid = row.get("id") if isinstance(row, dict) else None
        except ValueError:
            pass
    if isinstance(rid, str | int) and not isinstance(rid, bool):
        return Item(key=_printable(f"id:{rid}"), id=_printable(str(rid)), question=text,
                    problem=problem)
    return Item(key=f"line:{n}", id=f"line-{n}", question=text, problem=problem)


def _where(p: Path, n: int, why: str) -> str:
    return f"InputError: {p}:{n}: {why}"


def _printable(text: str) -> str:
    """``text`` with lone surrogates written as escapes (``\\ud800``), so it can be saved."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _settings(graph: str, cfg: Any, file: str, workers: int) -> dict[str, Any]:
    """The run's settings as written to ``OUT.run.json`` (and compared on resume): secrets
    redacted (``api_key``, passwords in URIs …), never the values themselves."""
    return redact_settings({"graph": graph, "run_config": cfg.model_dump(mode="json"),
                            "file": file, "batch_workers": workers,
                            "tool_threads": cfg.workers})


def _done_rows(out: Path, run_file: Path, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows already in OUT (after checking the settings match), or [] for a new run."""
    if not out.exists() or out.stat().st_size == 0:
        return []
    if not run_file.exists():
        raise ConfigError(f"{out} already holds answers but {run_file.name} (its settings) is "
                          "missing; use a new --out")
    try:
        old = redact_settings(json.loads(run_file.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {run_file}: {exc}") from None
    diff = settings_diff(old, settings, ignore=RESUMABLE)
    if diff:
        shown = "; ".join(f"{k}: was {was!r}, now {now!r}" for k, was, now in diff[:8])
        raise ConfigError(f"{out} was written with different settings: {shown} (re-run with the "
                          "same settings to resume, or use a new --out)")
    rows = []
    for n, line in enumerate(out.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except ValueError:  # a line cut by a crash: asked again
            print(f"note: {out} line {n} is not complete JSON; that question is asked again",
                  file=sys.stderr)
    return rows


def answer_row(item: Item, answer: Any | None, error: str | None, seconds: float
               ) -> dict[str, Any]:
    """One OUT line: the answer, its evidence, what went wrong and what it cost."""
    trace = answer.trace if answer is not None else None
    events = trace.warnings if trace is not None else []

    def texts(level: str) -> list[str]:
        return [f"{ev.source}: {' '.join(ev.message.split())[:300]}" for ev in events
                if ev.level == level][:MAX_TEXTS]

    return {
        "id": item.id, "question": item.question,
        "answers": list(answer.answers) if answer is not None else [],
        "answer_ids": dict(answer.answer_ids) if answer is not None else {},
        "truncated": bool(answer.truncated) if answer is not None else False,
        "total": answer.total if answer is not None else None,
        "evidence": [e.model_dump(mode="json") for e in answer.evidence] if answer else [],
        "warnings": len(events),
        "warning_texts": texts("warning"), "error_texts": texts("error"),
        "error": error,
        "llm_calls": len(trace.llm_calls) if trace is not None else 0,
        "prompt_tokens": trace.prompt_tokens if trace is not None else 0,
        "completion_tokens": trace.completion_tokens if trace is not None else 0,
        "seconds": round(seconds, 4),
        "stage_seconds": ({k: round(v, 4) for k, v in trace.stage_seconds().items()}
                          if trace is not None else {}),
        "key": item.key,
    }


def run_batch(engine: Any, *, graph: str, cfg: Any, file: str, out: str, workers: int = 1,
              progress: bool | None = None) -> BatchSummary:
    """Answer every question of ``file`` into ``out`` (see the module doc)."""
    from tqdm import tqdm

    summary = BatchSummary()
    items = read_questions(file, summary)
    out_p = Path(out)
    if out_p.is_symlink():
        raise ConfigError(f"{out_p} is a symbolic link; give the path of a regular file "
                          "(byokg does not write through links)")
    run_file = out_p.with_name(out_p.name + ".run.json")
    settings = _settings(graph, cfg, str(Path(file).resolve()), workers)
    rows = _done_rows(out_p, run_file, settings)
    done = {r.get("key") for r in rows if not r.get("error")}
    failed_before = {r.get("key") for r in rows if r.get("error")}
    todo = [it for it in items if it.key not in done]
    summary.skipped = len(items) - len(todo)
    summary.retried = sum(1 for it in todo if it.key in failed_before)
    # start the engine before any question: a bad config fails the batch, not each question
    engine.check_graph()
    engine.stages()
    engine.linker()
    engine.tools()
    out_p.parent.mkdir(parents=True, exist_ok=True)
    write_fresh(run_file, json.dumps(settings, indent=2))  # never through a planted symlink
    kept = [r for r in rows if not r.get("error")]
    if len(kept) != len(rows):  # failed rows are replaced by the retry's
        write_fresh(out_p, "".join(_json_line(r) for r in kept))

    def one(item: Item) -> dict[str, Any]:
        if item.problem:  # not asked: the row says why
            return answer_row(item, None, item.problem, 0.0)
        t0 = time.perf_counter()
        try:
            return answer_row(item, engine.ask(item.question), None, time.perf_counter() - t0)
        except Exception as exc:  # written with the question; the batch goes on
            return answer_row(item, None, f"{type(exc).__name__}: {exc}",
                              time.perf_counter() - t0)

    show = sys.stderr.isatty() if progress is None else progress
    with open_append(out_p) as fh, tqdm(
            total=len(todo), disable=not show, file=sys.stderr, unit="q",
            desc="questions") as bar, ThreadPoolExecutor(max_workers=workers) as pool:
        for fut in as_completed([pool.submit(one, it) for it in todo]):
            row = fut.result()
            fh.write(_json_line(row))
            fh.flush()
            if row["error"]:
                summary.failed += 1
            else:
                summary.answered += 1
            bar.update(1)
    return summary


def _json_line(row: dict[str, Any]) -> str:
    """One OUT line; text that UTF-8 cannot hold (an error quoting bad input) is escaped."""
    line = json.dumps(row, ensure_ascii=False) + "\n"
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(row) + "\n"
    return line
