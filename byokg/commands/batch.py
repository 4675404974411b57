"""``byokg ask --file questions.txt|.jsonl --out answers.jsonl``: many questions, one graph load.

Input: a text file (one question a line; blank lines and ``#`` comments skipped and counted) or
JSON lines (``{"question": …, "id": …}``; ``id`` optional). Output: one JSON line per question
(``id``, ``question``, ``answers``, ``answer_ids``, ``evidence``, ``warnings``, ``error``,
``seconds``, ``key``), written as each finishes (input order with one worker). Beside it, ``OUT.run.json`` records the graph and the run
configuration: re-running with the same ``--out`` skips the questions already answered and
retries the ones that failed; a changed setting is an error naming it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from byokg.config import settings_diff
from byokg.errors import ConfigError, InputError

# settings a re-run may change: they decide how fast, not what is answered
RESUMABLE = frozenset({"workers", "file"})


@dataclass(frozen=True)
class Item:
    key: str  # what resuming matches on: the id, or the question text
    id: str
    question: str


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
    """The questions of a .txt or .jsonl file, in order, duplicates dropped (and counted)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the questions: {exc.strerror}", source=str(p)) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", source=str(p)) from None
    jsonl = p.suffix.lower() in (".jsonl", ".ndjson")
    items: list[Item] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or (not jsonl and line.lstrip().startswith("#")):
            summary.blank += 1
            continue
        if jsonl:
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise InputError(f"invalid JSON: {exc}", source=str(p), line=n) from None
            q = row.get("question") if isinstance(row, dict) else None
            if not isinstance(q, str) or not q.strip():
                raise InputError('no "question" text in this row (expected {"question": "…", '
                                 '"id": "…"})', source=str(p), line=n, field="question")
            rid = row.get("id")
            qid = str(rid) if rid is not None else f"line-{n}"
            key = f"id:{rid}" if rid is not None else f"q:{q.strip()}"
        else:
            q, qid, key = line.strip(), f"line-{n}", f"q:{line.strip()}"
        if key in seen:
            summary.duplicates += 1
            continue
        seen.add(key)
        items.append(Item(key=key, id=qid, question=q))
    return items


def _settings(graph: str, cfg: Any, file: str, workers: int) -> dict[str, Any]:
    return {"graph": graph, "run_config": cfg.model_dump(mode="json"), "file": file,
            "workers": workers}


def _done_rows(out: Path, run_file: Path, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows already in OUT (after checking the settings match), or [] for a new run."""
    if not out.exists() or out.stat().st_size == 0:
        return []
    if not run_file.exists():
        raise ConfigError(f"{out} already holds answers but {run_file.name} (its settings) is "
                          "missing; use a new --out")
    try:
        old = json.loads(run_file.read_text(encoding="utf-8"))
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
    return {
        "id": item.id, "question": item.question,
        "answers": list(answer.answers) if answer is not None else [],
        "answer_ids": dict(answer.answer_ids) if answer is not None else {},
        "evidence": [e.model_dump(mode="json") for e in answer.evidence] if answer else [],
        "warnings": len(answer.trace.warnings) if answer is not None else 0,
        "error": error, "seconds": round(seconds, 4), "key": item.key,
    }


def run_batch(engine: Any, *, graph: str, cfg: Any, file: str, out: str, workers: int = 1,
              progress: bool | None = None) -> BatchSummary:
    """Answer every question of ``file`` into ``out`` (see the module doc)."""
    from tqdm import tqdm

    summary = BatchSummary()
    items = read_questions(file, summary)
    out_p = Path(out)
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
    run_file.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    kept = [r for r in rows if not r.get("error")]
    if len(kept) != len(rows):  # failed rows are replaced by the retry's
        tmp = out_p.with_name(out_p.name + ".tmp")
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept),
                       encoding="utf-8")
        os.replace(tmp, out_p)

    def one(item: Item) -> dict[str, Any]:
        t0 = time.perf_counter()
        try:
            return answer_row(item, engine.ask(item.question), None, time.perf_counter() - t0)
        except Exception as exc:  # written with the question; the batch goes on
            return answer_row(item, None, f"{type(exc).__name__}: {exc}",
                              time.perf_counter() - t0)

    show = sys.stderr.isatty() if progress is None else progress
    with open(out_p, "a", encoding="utf-8") as fh, tqdm(
            total=len(todo), disable=not show, file=sys.stderr, unit="q",
            desc="questions") as bar, ThreadPoolExecutor(max_workers=workers) as pool:
        for fut in as_completed([pool.submit(one, it) for it in todo]):
            row = fut.result()
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            if row["error"]:
                summary.failed += 1
            else:
                summary.answered += 1
            bar.update(1)
    return summary
