"""``byokg eval`` and ``byokg eval compare``."""

from __future__ import annotations

import json

import click

from byokg.commands.common import echo_safe
from byokg.presentation.termsafe import json_safe

from .options import RegistryOption
from .options import display_option
from .options import llm_option


@click.group("eval", invoke_without_command=True)
@click.option("--dataset", cls=RegistryOption, registry_kind="datasets",
              help="Dataset name: {names}.")
@click.option("--data", "data_path", help="Path of the dataset file or folder (rog-*: a JSONL or "
                                            "Parquet file, a folder or a glob of shards).")
@click.option("--graph", "graph_uri", help="Graph URI, e.g. memory:PATH, kuzu:PATH, bolt://HOST "
                                           "(not for rog-webqsp / rog-cwq: each record brings its "
                                           "own graph).")
@llm_option("--llm", default="none", show_default=True)
@click.option("--strategy", default="offline", show_default=True,
              help="offline, vanilla-llm, graph-query, text-retrieval, graph-reranker, agentic, multi, "
                   "gold-query, routed, routed-query, routed-critic, graph-query-critic, or "
                   "tools:NAME,NAME.")
@click.option("--limit", type=click.IntRange(min=1), help="Evaluate the first N questions (N >= 1).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Questions answered in parallel (1-64).")
@click.option("--out", "out_dir", help="Archive folder (config.json, predictions.jsonl, summary.json, report.md).")
@click.option("--resume", is_flag=True, help="Skip questions already in OUT/predictions.jsonl.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="RunConfig JSON/TOML.")
@click.option("--iterations", type=click.IntRange(1, 10), help="T_R refinement rounds (1-10).")
@click.option("--judge", help="LLM spec for LLM-as-judge scoring (rubric v1).")
@click.option("--option", "ds_options", multiple=True, help="Dataset option KEY=VALUE (e.g. gold_source=file).")
@display_option
@click.option("--json", "as_json", is_flag=True, help="Print only the summary as JSON on stdout.")
@click.pass_context
def eval_group(ctx, dataset, data_path, graph_uri, llm, strategy, limit, workers, out_dir, resume,
               config_path, iterations, judge, ds_options, display, as_json):
    """Evaluate a strategy on a dataset and archive the run."""
    if ctx.invoked_subcommand is not None:
        return
    from byokg import registry

    per_question = bool(dataset) and dataset in registry.datasets() and bool(
        registry.datasets().get(dataset).meta.get("per_question_graphs"))
    if per_question and graph_uri:
        raise click.UsageError(f"--dataset {dataset} brings one graph per question (each record's "
                               f"'graph' field); --graph {graph_uri} would not be read: drop it")
    missing = [n for n, v in (("--dataset", dataset), ("--data", data_path),
                              ("--graph", graph_uri or per_question), ("--out", out_dir)) if not v]
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)} (or use `byokg eval compare DIR...`)")
    from ..config import RunConfig
    from ..eval.runner import EvalSettings
    from ..eval.runner import run_eval

    cfg = RunConfig.load(config_path) if config_path else RunConfig()
    if iterations:
        cfg = cfg.model_copy(update={"iterations": iterations})
    if display:  # wins over the config file's display per label; archived in config.json
        from byokg.graph.profile import parse_display

        merged = {**parse_display(cfg.display), **parse_display(display)}
        cfg = cfg.model_copy(update={"display": {k: list(v) for k, v in merged.items()}})
    opts = {}
    for item in ds_options:
        if "=" not in item:
            raise click.UsageError(f"--option {item!r}: expected KEY=VALUE")
        k, v = item.split("=", 1)
        opts[k] = v
    settings = EvalSettings(dataset=dataset, data=data_path, graph=graph_uri, llm=llm, strategy=strategy,
                            limit=limit, workers=workers, judge=judge, dataset_options=opts, config=cfg)
    summary = run_eval(settings, out_dir, resume=resume, progress=None if not as_json else False)
    brief = {"metrics": {k: round(v["mean"], 4) for k, v in summary["metrics"].items()},
             "n": summary["n"], "excluded": summary["excluded"], "errors": summary["errors"],
             "bad_records": len(summary.get("bad_rows") or []), "archive": str(out_dir)}
    if as_json:
        click.echo(json_safe(json.dumps(brief)))
        return
    width = max((len(k) for k in brief["metrics"]), default=6)
    for k, v in brief["metrics"].items():
        echo_safe(f"{k:<{width}}  {v}")
    echo_safe(f"questions: {brief['n']}, excluded: {brief['excluded']}, errors: {brief['errors']}"
              f", bad records: {brief['bad_records']}")
    for row in (summary.get("bad_rows") or [])[:5]:
        echo_safe(f"  bad record: {row}")
    if brief["bad_records"] > 5:
        echo_safe(f"  … {brief['bad_records'] - 5} more in {out_dir}/summary.json")
    echo_safe(f"archive: {out_dir}")


@eval_group.command("compare")
@click.argument("dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def compare(dirs):
    """Print metrics of several runs side by side with deltas against the first."""
    from ..eval.report import compare_runs

    echo_safe(compare_runs(list(dirs)))
