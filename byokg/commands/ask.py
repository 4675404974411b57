"""``byokg ask`` and ``byokg demo``."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import click

from byokg.commands.common import echo_safe
from byokg.presentation.termsafe import json_safe
from byokg.presentation.termsafe import terminal_safe

from .options import display_option
from .options import llm_option

DEMO_QUESTIONS = 3
log = logging.getLogger("byokg.cli")


def _config(config_file: str | None, **overrides: Any):
    from byokg.config import RunConfig

    cfg = RunConfig.load(config_file) if config_file else RunConfig()
    upd = {k: v for k, v in overrides.items() if v is not None}
    return cfg.model_validate({**cfg.model_dump(), **upd}) if upd else cfg


def answer_json(answer: Any) -> dict[str, Any]:
    trace = answer.trace.model_dump(mode="json")
    trace["prompt_tokens"] = answer.trace.prompt_tokens
    trace["completion_tokens"] = answer.trace.completion_tokens
    trace["stage_seconds"] = answer.trace.stage_seconds()
    # LLM calls, tokens, runs and repeats per stage (kg-linker, tool:NAME, answer)
    trace["stage_summary"] = {k: v.model_dump() for k, v in answer.trace.stage_summary().items()}
    return {
        "question": answer.question,
        "answers": answer.answers,
        "answer_ids": answer.answer_ids,
        "truncated": answer.truncated,  # the list is cut (max_answers, or rows cut at a cap)
        "total": answer.total,  # how many answers there are in all, when known
        "evidence": [e.model_dump(mode="json") for e in answer.evidence],
        "trace": trace,
    }


def cut_note(answer: Any) -> str | None:
    """The line saying an answer list is not complete (None when it is)."""
    if not answer.truncated:
        return None
    total = f"{answer.total:,}" if answer.total else "more (how many is not known)"
    return (f"note: {len(answer.answers)} of {total} answers shown: the list was cut (set "
            "max_answers in the run config for more; --json says truncated/total)")


@click.command()
@click.argument("question", required=False)
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. memory:demo or kuzu:./g.kz.")
@llm_option("--llm", "llm", default=None, help="LLM spec: {names} (default none: offline).")
@click.option("--iterations", type=click.IntRange(1, 10), default=None, help="Refinement rounds (default 2).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Run config (JSON or TOML).")
@click.option("--tools", default=None, help="Comma-separated retrieval tools (default: all that apply).")
@click.option("--json", "as_json", is_flag=True, help="Print {question, answers, evidence, trace} as JSON.")
@click.option("--explain", is_flag=True, help="Print the evidence as readable paths.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the evidence picture (a self-contained HTML page) to this file.")
@click.option("--file", "questions_file", type=click.Path(dir_okay=False), default=None,
              help="Answer every question of this file (.txt: one a line; .jsonl: "
                   '{"question", "id"}) into --out, the graph loaded once.')
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None,
              help="JSON lines written by --file; re-running skips questions already answered.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Questions of --file answered side by side.")
@display_option
def ask(
    question: str,
    graph_uri: str,
    llm: str | None,
    iterations: int | None,
    config_file: str | None,
    tools: str | None,
    as_json: bool,
    explain: bool,
    html_file: str | None,
    questions_file: str | None,
    out_file: str | None,
    workers: int,
    display: str | None,
) -> None:
    """Answer QUESTION from the graph, with the facts that support the answer; or every
    question of --file into --out."""
    from byokg.graph.open import open_graph
    from byokg.pipeline.engine import Engine

    _check_modes(question, questions_file, out_file, as_json or explain or bool(html_file))
    tool_list = [t.strip() for t in tools.split(",") if t.strip()] if tools else None
    cfg = _config(config_file, llm=llm, iterations=iterations, tools=tool_list)
    if display:  # also in the run's settings, so a batch re-run with another --display is named
        from byokg.graph.profile import parse_display

        merged = {**parse_display(cfg.display), **parse_display(display)}
        cfg = cfg.model_copy(update={"display": {k: list(v) for k, v in merged.items()}})
    store = open_graph(graph_uri, display=display)
    if questions_file is not None:
        from .batch import run_batch

        try:
            summary = run_batch(Engine(store, cfg), graph=graph_uri, cfg=cfg,
                                file=questions_file, out=out_file, workers=workers)
        finally:
            store.close()
        click.echo(f"{terminal_safe(out_file)}: {summary.line()}", err=True)
        return
    try:
        answer = Engine(store, cfg).ask(question)
    finally:
        store.close()
    log_trace(answer)
    _print_answer(answer, as_json=as_json, explain=explain, html_file=html_file)


def _check_modes(question: str | None, questions_file: str | None, out_file: str | None,
                 one_question_output: bool) -> None:
    """One QUESTION or --file (with --out), and the output options that go with each."""
    if (question is None) == (questions_file is None):
        raise click.UsageError("give a QUESTION or --file FILE (not both)")
    if questions_file is not None and one_question_output:
        raise click.UsageError("--json, --explain and --html are for one QUESTION; --file "
                               "writes JSON lines to --out")
    if questions_file is not None and out_file is None:
        raise click.UsageError("--file needs --out answers.jsonl")
    if questions_file is None and out_file is not None:
        raise click.UsageError("--out is for --file")


def _print_answer(answer: Any, *, as_json: bool, explain: bool, html_file: str | None) -> None:
    """One answer as the options ask: the evidence picture, JSON, the explanation, or one
    answer per line with the cut noted on stderr."""
    from byokg.pipeline.engine import explain as explain_text

    if html_file:
        from byokg.presentation.picture import write_page

        written = write_page(answer, html_file)
        click.echo(f"evidence picture: {terminal_safe(written)}", err=True)
    if as_json:
        click.echo(json_safe(json.dumps(answer_json(answer), indent=2, ensure_ascii=False,
                                        default=str)))
        return
    if explain:
        echo_safe(explain_text(answer))
        return
    if answer.answers:  # one answer per line: a newline inside an answer is shown as \n
        echo_safe("\n".join(terminal_safe(a) for a in answer.answers))
    else:
        click.echo("(no answer found in the graph)")
    note = cut_note(answer)
    if note:  # on stderr: stdout stays one answer per line
        click.echo(note, err=True)


def log_trace(answer: Any) -> None:
    """The run's trace on the log: warnings with -v, every event and stage time with -vv."""
    if not log.isEnabledFor(logging.INFO):
        return
    for ev in answer.trace.events:
        level = logging.INFO if ev.level in ("warning", "error") else logging.DEBUG
        rnd = f" (round {ev.iteration + 1})" if ev.iteration is not None else ""
        log.log(level, "%s %s%s: %s", ev.level, ev.source, rnd, ev.message)
    stages = ", ".join(f"{k} {v:.3f}s" for k, v in answer.trace.stage_seconds().items())
    log.info("%d answer(s), %d evidence item(s); %s", len(answer.answers), len(answer.evidence),
             stages)


def demo_questions(limit: int = DEMO_QUESTIONS) -> list[dict[str, Any]]:
    from byokg.demo import DEMO_QUESTIONS as path

    p = Path(path)
    if not p.is_file():
        raise click.ClickException(f"demo questions not found at {p}")
    rows = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows[:limit]


@click.command()
@llm_option("--llm", "llm", default="none", show_default=True, help="LLM spec: {names}.")
@click.option("-n", "count", default=DEMO_QUESTIONS, show_default=True, help="How many demo questions.")
def demo(llm: str, count: int) -> None:
    """Ask the built-in demo graph (memory:demo) a few questions, offline, with evidence."""
    from byokg.config import RunConfig
    from byokg.graph.open import open_graph
    from byokg.pipeline.engine import Engine
    from byokg.pipeline.engine import explain as explain_text

    store = open_graph("memory:demo")
    engine = Engine(store, RunConfig(llm=llm))
    right = 0
    rows = demo_questions(count)
    for row in rows:
        ans = engine.ask(row["question"])
        gold = {a.casefold() for a in row.get("answers", [])}
        ok = bool(ans.answers) and ans.answers[0].casefold() in gold
        right += ok
        log_trace(ans)
        echo_safe(explain_text(ans))
        expected = "; ".join(terminal_safe(a) for a in row.get("answers", []))
        echo_safe(f"expected: {expected}  [{'ok' if ok else 'miss'}]\n")
    echo_safe(f"{right}/{len(rows)} demo questions answered correctly (first answer), "
              f"LLM: {terminal_safe(llm)}")
