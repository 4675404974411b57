"""report.md with tables and PNG plots for one run, and side-by-side comparison of runs."""

from __future__ import annotations

import json
import math
from pathlib import Path as FsPath
from typing import Any

ACCURACY_METRICS = ("hit", "hit_exact", "hit@1", "hit@1_exact", "em", "f1", "recall@10",
                    "recall@50", "exec_acc", "exec_partial", "judge")
# what each metric means, shown beside it in report.md (docs/evaluation.md has the long form)
METRIC_NOTES = {
    "hit": "a gold answer among the answers (lenient: also as whole words inside one)",
    "hit_exact": "a gold answer among the answers, exact after normalisation",
    "hit@1": "the first answer is a gold answer (lenient)",
    "hit@1_exact": "the first answer is a gold answer, exact",
    "em": "answer set equals gold set",
    "f1": "set F1 of answers against gold (exact)",
    "recall@10": "share of gold answers in the top-10 context items",
    "recall@50": "share of gold answers in the top-50 context items",
    "gold_in_graph": "a gold answer is a node of the question's own graph (the ceiling)",
    "llm_calls": "LLM calls per question",
    "kg_tokens": "tokens of the final graph context per question",
    "exec_acc": "result rows equal the gold rows",
    "exec_partial": "F1 over result rows",
    "judge": "LLM-as-judge (1 / 0.5 / 0)",
}


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.3f}"
    return str(v)


def _plots(out: FsPath, summary: dict[str, Any], records: list[dict[str, Any]]) -> list[str]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    made = []
    acc = {k: v["mean"] for k, v in summary["metrics"].items() if k in ACCURACY_METRICS}
    if acc:
        fig, ax = plt.subplots(figsize=(6, 3))
        names = list(acc)
        means = [acc[n] for n in names]
        lo = [acc[n] - summary["metrics"][n]["ci_low"] for n in names]
        hi = [summary["metrics"][n]["ci_high"] - acc[n] for n in names]
        ax.bar(names, means, yerr=[lo, hi], capsize=3, color="#4c72b0")
        ax.set_ylim(0, 1)
        ax.set_title("accuracy (95% bootstrap CI)")
        fig.tight_layout()
        fig.savefig(out / "accuracy.png", dpi=100)
        plt.close(fig)
        made.append("accuracy.png")
    stages = summary.get("stage_mean_s") or {}
    if stages:
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.barh(list(stages), [v * 1000 for v in stages.values()], color="#55a868")
        ax.set_xlabel("mean ms per question")
        ax.set_title("latency by stage")
        fig.tight_layout()
        fig.savefig(out / "latency.png", dpi=100)
        plt.close(fig)
        made.append("latency.png")
    calls = [r.get("metrics", {}).get("llm_calls", 0) for r in records]
    if records:
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.hist(calls, bins=range(0, max(calls + [1]) + 2), color="#c44e52", align="left")
        ax.set_xlabel("LLM calls per question")
        ax.set_ylabel("questions")
        fig.tight_layout()
        fig.savefig(out / "llm_calls.png", dpi=100)
        plt.close(fig)
        made.append("llm_calls.png")
    return made


def _md(text: str) -> str:
    """One line of a user's file shown in a Markdown list: no line breaks, no table pipes."""
    return " ".join(str(text).split()).replace("|", "\\|")[:400]


def write_report(out: FsPath, summary: dict[str, Any], records: list[dict[str, Any]]) -> FsPath:
    cfg: dict[str, Any] = {}
    run: dict[str, Any] = {}
    if (out / "config.json").exists():
        saved = json.loads((out / "config.json").read_text())
        cfg, run = saved.get("settings", {}), saved.get("run_config") or {}
    lines = [
        f"# byokg eval: {cfg.get('dataset', '?')} / {cfg.get('strategy', '?')}",
        "",
        f"graph `{cfg.get('graph') or 'one per question (the records)'}`, LLM "
        f"`{cfg.get('llm', '?')}`, data `{cfg.get('data', '?')}`",
        "",
        f"proposer `{run.get('proposer') or 'default'}`, answerer "
        f"`{run.get('answerer') or 'default'}`, query critic "
        f"**{'on' if run.get('query_critic') else 'off'}**",
        "",
        f"questions scored: {summary['n']}, excluded: {summary['excluded']}, errors: {summary['errors']}",
        "",
        "| metric | mean | 95% CI | n | meaning |",
        "|---|---|---|---|---|",
    ]
    for name, m in summary["metrics"].items():
        lines.append(f"| {name} | {_fmt(m['mean'])} | {_fmt(m['ci_low'])} – {_fmt(m['ci_high'])} "
                     f"| {m['n']} | {METRIC_NOTES.get(name, '')} |")
    sub = summary.get("subgraph_triplets")
    if sub:
        lines += ["", f"one graph per question: {sub['mean']:,.1f} triplets on average (median "
                      f"{sub['p50']}, largest {sub['max']}, {sub['empty']} empty)"]
    if summary.get("latency_p50_s") is not None:
        lines += ["", f"p50 latency per question: {summary['latency_p50_s'] * 1000:.1f} ms"]
    if summary.get("stage_mean_s"):
        lines += ["", "| stage | mean ms |", "|---|---|"]
        lines += [f"| {k} | {v * 1000:.1f} |" for k, v in summary["stage_mean_s"].items()]
    for png in _plots(out, summary, records):
        lines += ["", f"![{png[:-4]}]({png})"]
    if summary.get("bad_rows"):
        lines += ["", "## Bad records (not scored)", ""]
        lines += [f"- {_md(row)}" for row in summary["bad_rows"][:200]]
        if len(summary["bad_rows"]) > 200:
            lines.append(f"- … {len(summary['bad_rows']) - 200} more in summary.json")
    if summary.get("excluded_examples"):
        lines += ["", "## Excluded questions", ""]
        lines += [f"- {e['id']}: {e['question']} — {e['reason']}" for e in summary["excluded_examples"][:200]]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


def compare_runs(dirs: list[str | FsPath]) -> str:
    """Metrics of several runs side by side, with deltas against the first."""
    runs = []
    for d in dirs:
        p = FsPath(d) / "summary.json"
        if not p.exists():
            from ..errors import InputError

            raise InputError("no summary.json (is this a byokg eval --out folder?)", source=str(p))
        runs.append((FsPath(d).name or str(d), json.loads(p.read_text())))
    names: list[str] = []
    for _, s in runs:
        names += [k for k in s["metrics"] if k not in names]
    header = ["metric"] + [n for n, _ in runs]
    rows = [header]
    base = runs[0][1]["metrics"]
    for name in names:
        row = [name]
        for i, (_, s) in enumerate(runs):
            m = s["metrics"].get(name)
            if m is None:
                row.append("-")
                continue
            cell = _fmt(m["mean"])
            if i and name in base and not math.isnan(m["mean"]) and not math.isnan(base[name]["mean"]):
                cell += f" ({m['mean'] - base[name]['mean']:+.3f})"
            row.append(cell)
        rows.append(row)
    rows.append(["n"] + [str(s["n"]) for _, s in runs])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
