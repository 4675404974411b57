"""``byokg eval``: run a dataset through a strategy and archive everything.

Archive layout (``--out DIR``):
- ``config.json``: everything needed to rerun (dataset, data path, graph, LLM, strategy, the run
  configuration, prompt checksums, package versions);
- ``predictions.jsonl``: one line per question, appended and flushed as each finishes (a crash
  loses nothing; ``--resume`` skips the ids already there);
- ``summary.json``: ``{"metrics": {name: {mean, ci_low, ci_high, n}}, "n", "excluded", ...}``;
- ``report.md`` plus PNG plots.

Datasets registered with ``per_question_graphs=True`` (``rog-webqsp``, ``rog-cwq``) bring one
graph per question instead of ``--graph``: each question is answered by an engine on its own
graph, built in memory when the question starts and dropped when it ends (the run's LLM,
embedder and reranker are shared; caches keyed by the graph are not).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import threading
import time
from collections.abc import Callable
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import as_completed
from concurrent.futures import wait
from importlib import metadata
from importlib import resources
from itertools import islice
from pathlib import Path as FsPath
from typing import Any

from pydantic import BaseModel
from pydantic import Field

from byokg.language.text import count_tokens

from ..config import RunConfig
from ..config import settings_diff
from ..errors import ConfigError
from ..io.files import write_fresh
from ..models.services import Services
from ..redaction import redact_argv
from ..redaction import redact_settings
from . import metrics as M
from .datasets import Dataset
from .datasets import Example

RECALL_K = (10, 50)
GOLD_ROW_LIMIT = 10_000

# Strategy presets reproducing the paper's Table 1 rows (plus the offline linker).
STRATEGIES: dict[str, dict[str, Any]] = {
    "offline": {"llm": "none", "tools": None},
    "vanilla-llm": {"tools": []},
    "graph-query": {"tools": ["cypher"]},
    "text-retrieval": {"tools": ["triplet-retrieval"]},
    "graph-reranker": {"tools": ["graph-reranker"]},
    "agentic": {"tools": ["agentic"]},
    "multi": {"tools": None},
    "gold-query": {"tools": []},  # oracle: runs the example's gold Cypher (Northwind)
    # routing (issue 17): aggregation questions and typed-graph lookups Cypher-first, K candidate
    # queries checked by execution, arithmetic over rows in Python; the optional query critic
    "routed": {"tools": None, "proposer": "routed-linker", "answerer": "rows-answer"},
    "routed-query": {"tools": ["cypher"], "proposer": "routed-linker", "answerer": "rows-answer"},
    "routed-critic": {"tools": ["cypher"], "proposer": "routed-linker", "answerer": "rows-answer",
                      "query_critic": True},
    "graph-query-critic": {"tools": ["cypher"], "query_critic": True},
    # issue 25: the offline stages first; their answer is kept (no LLM call) when its
    # confidence is at least this, else every default tool with the KG-Linker
    "hybrid": {"tools": None, "offline_first": 0.8},
}


class EvalSettings(BaseModel):
    dataset: str
    data: str
    graph: str | None = Field(None, description="graph URI; None for datasets that bring one "
                                                "graph per question")
    llm: str = "none"
    strategy: str = "offline"
    limit: int | None = Field(None, ge=1, description="evaluate the first N questions")
    workers: int = Field(1, ge=1, le=64, description="questions answered side by side")
    judge: str | None = None
    dataset_options: dict[str, Any] = Field(default_factory=dict)
    config: RunConfig = Field(default_factory=RunConfig)


# Settings a resumed run may change: they decide how many and how fast, not what is measured.
RESUMABLE_CHANGES = frozenset({"settings.limit", "settings.workers"})


def strategy_config(strategy: str, base: RunConfig, llm: str) -> RunConfig:
    """The RunConfig a strategy name (or ``tools:a,b``) stands for."""
    data = base.model_dump()
    data["llm"] = llm
    if strategy.startswith("tools:"):
        data["tools"] = [t.strip() for t in strategy[6:].split(",") if t.strip()]
        return RunConfig(**data)
    if strategy not in STRATEGIES:
        raise ConfigError(
            f"unknown strategy {strategy!r}; use one of {', '.join(STRATEGIES)} or tools:NAME,NAME"
        )
    preset = STRATEGIES[strategy]
    data.update({k: v for k, v in preset.items() if k != "llm"})
    if "llm" in preset:
        data["llm"] = preset["llm"]
    if strategy not in ("offline", "gold-query") and data["llm"] == "none":
        raise ConfigError(f"strategy {strategy!r} needs an LLM (--llm SPEC); offline runs use --strategy offline")
    return RunConfig(**data)


def prompt_checksums() -> dict[str, str]:
    out = {}
    try:
        root = resources.files("byokg.prompts")
    except ModuleNotFoundError:
        return out
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.endswith((".txt", ".md")):
            out[entry.name] = hashlib.sha256(entry.read_bytes()).hexdigest()[:16]
    return out


def package_versions() -> dict[str, str]:
    names = ["byokg", "pydantic", "pluggy", "rapidfuzz", "numpy", "kuzu", "neo4j", "boto3",
             "FlagEmbedding", "faiss-cpu", "torch", "transformers"]
    out = {"python": platform.python_version()}
    for n in names:
        try:
            out[n] = metadata.version(n)
        except metadata.PackageNotFoundError:
            continue
    return out


class Archive:
    """The run folder; predictions are appended under a lock and fsync'ed."""

    def __init__(self, out: FsPath) -> None:
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        self.pred_path = out / "predictions.jsonl"
        self._lock = threading.Lock()

    def done_ids(self) -> set[str]:
        if not self.pred_path.exists():
            return set()
        ids = set()
        good_lines = []
        with open(self.pred_path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    ids.add(json.loads(line)["id"])
                    good_lines.append(line)
                except (ValueError, KeyError):
                    continue  # a line cut by a crash: rewritten below, the question reruns
        with open(self.pred_path, "w", encoding="utf-8") as fh:
            fh.writelines(good_lines)
        return ids

    def append(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        with self._lock, open(self.pred_path, "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())

    def records(self) -> list[dict[str, Any]]:
        if not self.pred_path.exists():
            return []
        with open(self.pred_path, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]


def _rows_from_answer(answer: Any) -> list[list[Any]] | None:
    for item in answer.context:
        if item.kind == "query" and item.rows is not None:
            return [list(r) for r in item.rows.rows]
    return None


def score_example(ex: Example, answers: list[str], context: list[str], rows: list[list[Any]] | None) -> dict[str, float]:
    gold = ex.gold_answer_forms()
    alt = ex.meta.get("alternative_answers") or []
    with_alt = gold + [[a] for a in alt]
    out = {
        "hit": M.hit(answers, with_alt),
        "hit_exact": M.hit(answers, with_alt, lenient=False),
        "hit@1": M.hit_at_1(answers, with_alt),
        "hit@1_exact": M.hit_at_1(answers, with_alt, lenient=False),
        "em": M.exact_match(answers, gold),
        "f1": M.f1(answers, gold),
    }
    for k in RECALL_K:
        out[f"recall@{k}"] = M.recall_at_k(context, gold, k)
    if ex.gold_rows is not None:
        sc = M.execution_accuracy(
            rows or [],
            ex.gold_rows,
            gold_truncated=bool(ex.meta.get("gold_truncated")),
            ignore_node_keys=ex.meta.get("ignore_node_keys") or (),
        )
        out["exec_acc"] = sc.exact
        out["exec_partial"] = sc.partial
        if not ex.meta.get("gold_has_limit"):  # a LIMIT over ties makes any of several row sets right
            out["exec_acc_no_limit"] = sc.exact
    return out


def _gold_query_answer(store: Any, ex: Example) -> tuple[list[str], list[str], list[list[Any]] | None, dict]:
    """The oracle strategy: run the example's gold Cypher through byokg's read-only path."""
    if not ex.gold_query:
        return [], [], None, {"error": "example has no gold query"}
    from ..cypher.execute import Status  # the Cypher tool's guarded, read-only path
    from ..cypher.execute import execute  # the Cypher tool's guarded, read-only path

    t0 = time.perf_counter()
    run = execute(store, ex.gold_query, row_limit=GOLD_ROW_LIMIT)
    info: dict[str, Any] = {"seconds": time.perf_counter() - t0, "status": str(run.status),
                            "rewrites": run.rewrites}
    if run.status not in (Status.OK, Status.EMPTY) or run.result is None:
        info["error"] = f"{run.error_kind}: {run.error}"
        return [], [], [], info
    res = run.result
    rows = [list(r) for r in res.rows]
    answers = list(dict.fromkeys(str(v) for r in rows for v in r if v is not None))
    return answers, [" | ".join(map(str, r)) for r in rows], rows, info


def archived_config(settings: EvalSettings, run_cfg: RunConfig) -> dict[str, Any]:
    """What ``config.json`` records to rerun the evaluation, secrets redacted (an API key, a
    password in the graph URI or on the command line): never the values themselves."""
    return redact_settings({
        "settings": settings.model_dump(mode="json"),
        "run_config": run_cfg.model_dump(mode="json"),
        "prompt_checksums": prompt_checksums(),
        "versions": package_versions(),
        "command": redact_argv(list(sys.argv)),
    })


def check_resume(cfg_path: FsPath, record: dict[str, Any]) -> None:
    """``--resume`` must continue the archived run: every setting that changes what is measured
    (dataset, graph, LLM, strategy, judge, the run configuration …) must be the same."""
    try:
        old = json.loads(cfg_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"--resume: cannot read {cfg_path}: {exc}") from None
    parts = ("settings", "run_config")
    # an archive from before redaction may hold a secret: compared (and shown) redacted
    diff = settings_diff(redact_settings({k: old.get(k) for k in parts}),
                         {k: record[k] for k in parts}, ignore=RESUMABLE_CHANGES)
    if diff:
        shown = "; ".join(f"{k}: archived {was!r}, now {now!r}" for k, was, now in diff[:8])
        raise ConfigError(f"--resume with different settings than {cfg_path}: {shown} "
                          "(use the archived settings or a new --out)")


def _crash_of(trace: Any) -> str | None:
    """The first engine crash or worker timeout a question's tools recorded, if any."""
    for ev in getattr(trace, "events", ()):
        if (ev.data or {}).get("error_kind") in ("crashed",):
            return str(ev.data.get("error") or ev.message)
    return None


def _answer(engine: Any, store: Any, ex: Example) -> tuple[dict[str, Any], list[str], list[str],
                                                           list[list[Any]] | None]:
    """(record fields, answers, context texts, rows) for one question; raises on failure."""
    if engine is None:
        answers, ctx, rows, info = _gold_query_answer(store, ex)
        fields = dict(info, trace={}, stages={}, llm_calls=0)
        return fields, answers, ctx, rows
    ans = engine.ask(ex.question)
    fields: dict[str, Any] = {"trace": ans.trace.model_dump(mode="json"),
                              "stages": ans.trace.stage_seconds(),
                              "llm_calls": len(ans.trace.llm_calls)}
    if ans.truncated:  # the answer list is not complete, and says so
        fields.update(truncated=True, total=ans.total)
    crash = _crash_of(ans.trace)
    if crash:
        fields["error"] = f"a tool's query crashed its engine (the question went on): {crash}"
    return fields, list(ans.answers), [c.text for c in ans.context], _rows_from_answer(ans)


def _routing_metrics(trace: dict[str, Any]) -> dict[str, float]:
    """Per question: critic calls, and whether the question was answered Cypher-first (a
    routing winner) with the arithmetic done in Python (no answer call)."""
    counts = (trace or {}).get("counts") or {}
    calls = (trace or {}).get("llm_calls") or []
    won = any(k.endswith(".route_won") and v for k, v in counts.items())
    return {"critic_calls": float(sum(1 for c in calls if c.get("purpose") == "query-critic")),
            "cypher_first": float(won),
            "computed_answer": float(bool(counts.get("computed_answers")))}


def _graph_facts(store: Any, ex: Example) -> dict[str, Any]:
    """Size of a question's own graph and whether its topic entities and a gold answer are
    nodes of it (names and ids compared after normalisation): the ceiling of that question."""
    seen: set[str] = set()
    for batch in store.iter_node_names():
        for nid, name in batch:
            seen.add(M.normalize_answer(nid))
            seen.add(M.normalize_answer(name))
    gold = any(M.normalize_answer(f) in seen for forms in ex.gold_answer_forms() for f in forms)
    topics = ex.topic_entities
    return {"record": ex.meta.get("record"), "triplets": len(store), "nodes": store.stats().nodes,
            "topic_in_graph": any(M.normalize_answer(t) in seen for t in topics) if topics
            else None, "gold_in_graph": gold}


def _question_runner(engine: Any, store: Any, judge: Any, archive: Archive,
                     graph_engine: Callable[[Any], Any] | None = None
                     ) -> Callable[[Example], dict[str, Any]]:
    """What answers one question, scores it and archives the record. ``graph_engine``: for
    questions that bring their own graph, the engine for that graph (None: gold-query)."""

    def one(ex: Example) -> dict[str, Any]:
        t0 = time.perf_counter()
        record: dict[str, Any] = {"id": ex.id, "question": ex.question, "gold": ex.answers}
        q_engine, q_store, facts = engine, store, None
        try:
            if ex.graph is not None:  # the question's own graph, built now, dropped at the end
                q_store = ex.graph.open() if len(ex.graph) else None
                ex.graph = None
                facts = _graph_facts(q_store, ex) if q_store is not None else {
                    "record": ex.meta.get("record"), "triplets": 0, "nodes": 0,
                    "topic_in_graph": False, "gold_in_graph": False}
                q_engine = graph_engine(q_store) if graph_engine and q_store is not None else None
            if q_store is None and facts is not None:
                fields, answers, ctx, rows = {"trace": {}, "stages": {}, "llm_calls": 0}, [], [], None
                record["note"] = "the question's graph has no triplets: nothing to answer from"
            else:
                fields, answers, ctx, rows = _answer(q_engine, q_store, ex)
        except Exception as exc:  # one failing question is recorded, the run goes on
            fields, answers, ctx, rows = {"trace": {}, "stages": {}, "llm_calls": 0}, [], [], None
            record["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            if q_store is not store and hasattr(q_store, "close"):
                q_store.close()
        trace, stages, llm_calls = fields.pop("trace"), fields.pop("stages"), fields.pop(
            "llm_calls")
        record.update(fields)
        record["answers"] = answers
        record["metrics"] = score_example(ex, answers, ctx, rows)
        if judge is not None and "error" not in record:
            record["metrics"]["judge"] = judge(ex, answers)
        record["metrics"]["llm_calls"] = llm_calls
        run_cfg = getattr(q_engine, "config", None)
        if run_cfg is not None and (run_cfg.query_critic or run_cfg.proposer):
            record["metrics"].update(_routing_metrics(trace))
        record["metrics"]["kg_tokens"] = sum(count_tokens(c) for c in ctx)
        if facts is not None:
            record["subgraph"] = facts
            record["metrics"]["gold_in_graph"] = float(facts["gold_in_graph"])
        record["latency_s"] = time.perf_counter() - t0
        record["stages"] = stages
        record["context"] = ctx[: max(RECALL_K)]
        if rows is not None:
            record["rows"] = rows[:50]
        record["trace"] = trace
        archive.append(record)
        return record

    return one


def _check_graph_setting(settings: EvalSettings, per_question: bool, store: Any) -> None:
    """``--graph`` is needed, except for datasets that bring one graph per question, where it
    is refused (the run would not read it)."""
    if per_question and (settings.graph or store is not None):
        raise ConfigError(
            f"dataset {settings.dataset!r} brings one graph per question (the records' "
            f"'graph' field), so --graph {settings.graph or '(a store)'} would not be read; "
            "drop --graph")
    if not per_question and not settings.graph and store is None:
        raise ConfigError(f"dataset {settings.dataset!r} is answered over one graph: give "
                          "--graph URI (e.g. memory:triples.csv, kuzu:PATH, bolt://HOST)")


def run_eval(
    settings: EvalSettings,
    out_dir: str | FsPath,
    *,
    resume: bool = False,
    store: Any = None,
    progress: bool | None = None,
    engine_factory: Callable[[Any, RunConfig], Any] | None = None,
) -> dict[str, Any]:
    """Run (or resume) an evaluation and write the archive. Returns the summary dict.

    One question never stops the run: an exception, an engine crash or a timeout in a tool is
    recorded on that question (``error``) and the run goes on; ``--resume`` skips every
    question already in ``predictions.jsonl``, errored ones included. ``engine_factory(store,
    config)`` replaces the default engine (called once per question for datasets that bring
    their own graphs).
    """
    from byokg import registry
    from byokg.graph.open import open_graph

    out = FsPath(out_dir)
    cfg_path = out / "config.json"
    run_cfg = strategy_config(settings.strategy, settings.config, settings.llm)
    ds_entry = registry.datasets().get(settings.dataset)
    per_question = bool(ds_entry.meta.get("per_question_graphs"))
    _check_graph_setting(settings, per_question, store)
    config_record = archived_config(settings, run_cfg)
    _check_out(out, config_record, resume)

    own_store = store is None and not per_question
    if own_store:
        store = open_graph(settings.graph)  # a graph that cannot be opened: no archive
    try:
        archive = Archive(out)
        write_fresh(cfg_path, json.dumps(config_record, indent=2, default=str))
        opts = dict(settings.dataset_options)
        if ds_entry.meta.get("needs_store"):
            opts["store"] = store
        dataset: Dataset = ds_entry.factory(settings.data, **opts)
        todo, total = _pending(dataset, archive.done_ids() if resume else set(), settings.limit)
        engine, graph_engine = None, None
        if settings.strategy != "gold-query":
            if per_question:
                graph_engine = _per_graph_engines(run_cfg, engine_factory)
            else:
                engine = (engine_factory or _default_engine)(store, run_cfg)
        one = _question_runner(engine, store, _make_judge(settings.judge), archive, graph_engine)
        _run_parallel(one, todo, settings.workers, progress, total)
        return summarize(archive.records(), dataset, out)
    finally:
        if own_store and hasattr(store, "close"):
            store.close()


def _check_out(out: FsPath, config_record: dict[str, Any], resume: bool) -> None:
    """A resumed run must match the archived config; a fresh one must not overwrite predictions."""
    pred_path = out / "predictions.jsonl"
    if resume and (out / "config.json").exists():
        check_resume(out / "config.json", config_record)
    elif not resume and pred_path.exists() and pred_path.stat().st_size:
        raise ConfigError(f"{out} already holds predictions; pass --resume to continue or use a new --out")


def _pending(dataset: Dataset, done: set[str], limit: int | None) -> tuple[Iterable[Example], int | None]:
    """The examples still to run (after ``limit``, minus ``done``) and their count when known."""
    examples: Iterable[Example] = dataset.iter_examples()
    if limit:
        examples = islice(examples, limit)
    todo: Iterable[Example] = (ex for ex in examples if ex.id not in done)
    if dataset.streamed:
        return todo, None
    listed = list(todo)
    return listed, len(listed)


def _per_graph_engines(cfg: RunConfig, factory: Callable[[Any, RunConfig], Any] | None
                       ) -> Callable[[Any], Any]:
    """An engine per question graph: the given factory's, else the default engine with the
    run's models shared and that graph's own caches."""
    if factory is not None:
        return lambda store: factory(store, cfg)
    from byokg.pipeline.engine import Engine

    base = Services(cfg)
    return lambda store: Engine(store, cfg, services=base.with_own_caches())


def _default_engine(store: Any, cfg: RunConfig) -> Any:
    from byokg.pipeline.engine import Engine

    return Engine(store, cfg)


def _run_parallel(fn: Callable[[Example], Any], todo: Iterable[Example], workers: int,
                  progress: bool | None, total: int | None = None) -> None:
    """Answer ``todo`` with ``workers`` threads, at most ``2 * workers`` questions taken from it
    ahead of the answers (a streamed dataset is read only as fast as it is answered)."""
    from tqdm import tqdm

    bar = tqdm(total=total, desc="eval", unit="q", disable=(not progress) if progress is not None else None,
               file=sys.stderr)
    try:
        if workers <= 1:
            for ex in todo:
                fn(ex)
                bar.update(1)
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                pending: set[Any] = set()
                for ex in todo:
                    pending.add(pool.submit(fn, ex))
                    if len(pending) >= 2 * workers:
                        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for f in finished:
                            f.result()
                            bar.update(1)
                for f in as_completed(pending):
                    f.result()
                    bar.update(1)
    finally:
        bar.close()


def _make_judge(spec: str | None) -> Callable[[Example, list[str]], float] | None:
    if not spec:
        return None
    from byokg.models.llm import create_llm

    from .judge import judge_answer

    llm = create_llm(spec)
    return lambda ex, answers: judge_answer(llm, ex.question, ex.answers, answers)


def summarize(records: list[dict[str, Any]], dataset: Dataset, out: FsPath) -> dict[str, Any]:
    """Aggregate per-question metrics (mean + bootstrap CI), write summary.json and report.md."""
    names: list[str] = []
    for r in records:
        for k in r.get("metrics", {}):
            if k not in names:
                names.append(k)
    metrics = {}
    for name in names:
        vals = [r["metrics"][name] for r in records if name in r.get("metrics", {})]
        metrics[name] = M.bootstrap_ci(vals).model_dump()
    lat = sorted(r.get("latency_s", 0.0) for r in records)
    stage_tot: dict[str, float] = {}
    for r in records:
        for k, v in (r.get("stages") or {}).items():
            stage_tot[k] = stage_tot.get(k, 0.0) + v
    summary = {
        "metrics": metrics,
        "n": len(records),
        "excluded": len(dataset.excluded),
        "excluded_examples": [e.model_dump() for e in dataset.excluded],
        "bad_rows": dataset.bad_rows,
        "errors": sum(1 for r in records if r.get("error")),
        "latency_p50_s": lat[len(lat) // 2] if lat else None,
        "stage_mean_s": {k: v / max(len(records), 1) for k, v in stage_tot.items()},
    }
    sizes = [r["subgraph"]["triplets"] for r in records if r.get("subgraph")]
    if sizes:
        sizes.sort()
        summary["subgraph_triplets"] = {"mean": sum(sizes) / len(sizes),
                                        "p50": sizes[len(sizes) // 2], "max": sizes[-1],
                                        "empty": sum(1 for x in sizes if not x)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    from .report import write_report

    write_report(out, summary, records)
    return summary
