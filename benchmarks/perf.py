"""Performance benchmarks: ``python -m benchmarks.perf --scale N --json OUT [--only a,b] [--quick]``.

Every ``benchmarks/bench_<section>.py`` module is a section. It exposes

    def run(scale: int, results: dict, *, quick: bool = False) -> None

which fills ``results`` with flat numeric metrics (``results["load_s"] = 2.1``). A module may
also define ``REFERENCE = {metric: {"anchor": 11.5, "goal": 5.0, "unit": "s"}}``; the table then
shows the anchor (the reference implementation's figure) and the goal (an upper bound) beside
the measured value, and whether the goal is met.

A section that fails to import or raises is reported as an error row (and under ``"errors"`` in
the JSON), never a crash of the whole run. The JSON is
``{"scale", "quick", "machine": {...}, "results": {section: {...}}, "reference": {...},
"elapsed_s": {section: s}, "errors": {section: message}}``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def discover() -> list[str]:
    """Section names (``bench_<name>.py`` -> ``name``), sorted."""
    return sorted(p.stem[len("bench_") :] for p in HERE.glob("bench_*.py"))


def machine_info() -> dict[str, Any]:
    info: dict[str, Any] = {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
    }
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu_model"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        info["load_avg_1m"] = round(os.getloadavg()[0], 2)
    except OSError:
        pass
    try:
        import psutil

        info["ram_gb"] = round(psutil.virtual_memory().total / 2**30, 1)
    except ImportError:
        pass
    for mod in ("numpy", "pyarrow", "pydantic"):
        try:
            info[mod] = importlib.import_module(mod).__version__
        except ImportError:
            info[mod] = None
    try:
        info["git_commit"] = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=HERE.parent,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def run_sections(
    sections: list[str], scale: int, *, quick: bool = False
) -> tuple[dict[str, dict], dict[str, str], dict[str, dict], dict[str, float]]:
    """Run sections in order; returns (results, errors, reference, elapsed)."""
    results: dict[str, dict] = {}
    errors: dict[str, str] = {}
    reference: dict[str, dict] = {}
    elapsed: dict[str, float] = {}
    for name in sections:
        res: dict[str, Any] = {}
        results[name] = res
        t0 = time.perf_counter()
        try:
            mod = importlib.import_module(f"benchmarks.bench_{name}")
            ref = getattr(mod, "REFERENCE", None)
            if ref:
                reference[name] = dict(ref)
            mod.run(scale, res, quick=quick)
        except Exception as exc:  # a failing section is a row, not a crash
            tb = traceback.format_exception(exc)
            errors[name] = f"{type(exc).__name__}: {exc}".strip()
            print(f"[{name}] failed:\n" + "".join(tb[-3:]), file=sys.stderr)
        elapsed[name] = round(time.perf_counter() - t0, 2)
    return results, errors, reference, elapsed


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:,.3f}" if abs(v) < 10 else f"{v:,.1f}"
    return str(v)


def format_table(
    results: dict[str, dict], errors: dict[str, str], reference: dict[str, dict]
) -> str:
    rows: list[tuple[str, str, str, str]] = [("section", "metric", "value", "reference")]
    for section, metrics in results.items():
        ref = reference.get(section, {})
        for metric, value in metrics.items():
            note = ""
            if metric in ref:
                r = ref[metric]
                unit = r.get("unit", "")
                parts = []
                if "anchor" in r:
                    parts.append(f"anchor {r['anchor']:g}{unit}")
                if "goal" in r:
                    met = isinstance(value, int | float) and value <= r["goal"]
                    parts.append(f"goal <= {r['goal']:g}{unit} {'MET' if met else 'MISSED'}")
                if r.get("note"):
                    parts.append(r["note"])
                note = "; ".join(parts)
            rows.append((section, metric, _fmt(value), note))
        if section in errors:
            rows.append((section, "ERROR", errors[section][:120], ""))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for i, r in enumerate(rows):
        lines.append(
            "  ".join(
                c.ljust(w) if j != 2 else c.rjust(w)
                for j, (c, w) in enumerate(zip(r, widths, strict=True))
            ).rstrip()
        )
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.perf", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--scale", type=int, default=1_500_000, help="triplets in the synthetic KG")
    ap.add_argument("--json", dest="json_out", help="write results as JSON to this file")
    ap.add_argument(
        "--only", help="comma-separated sections (default: all): " + ",".join(discover())
    )
    ap.add_argument("--quick", action="store_true", help="fewer repetitions and smaller probes")
    args = ap.parse_args(argv)
    available = discover()
    sections = available
    if args.only:
        sections = [s.strip() for s in args.only.split(",") if s.strip()]
        unknown = [s for s in sections if s not in available]
        if unknown:
            ap.error(f"unknown section(s) {', '.join(unknown)}; available: {', '.join(available)}")
    machine = machine_info()
    print(
        f"byokg perf: scale={args.scale:,} sections={','.join(sections)} quick={args.quick} "
        f"load_avg={machine.get('load_avg_1m')} cpus={machine.get('cpu_count')}",
        flush=True,
    )
    results, errors, reference, elapsed = run_sections(sections, args.scale, quick=args.quick)
    print(format_table(results, errors, reference))
    out = {
        "scale": args.scale,
        "quick": args.quick,
        "machine": machine,
        "results": results,
        "reference": reference,
        "elapsed_s": elapsed,
        "errors": errors,
    }
    if args.json_out:
        path = Path(args.json_out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
