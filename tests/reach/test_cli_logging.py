"""-v/--verbose and --log-level on every command, through the standard logging module: records
go to stderr (stdout of --json stays pure JSON), the options work before or after the command,
and the library itself never configures logging."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from byokg.cli import cli
from byokg.cli import hoist_global_options

BYOKG = str(Path(sys.executable).parent / "byokg")
Q = "Where was Wynton Marsalis born?"


def console(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BYOKG_", "PYTHON"))}
    return subprocess.run([BYOKG, *args], capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("args", [
    ["-v", "ask", Q, "--graph", "memory:demo", "--json"],
    ["ask", Q, "--graph", "memory:demo", "--json", "-v"],
    ["ask", Q, "--verbose", "--graph", "memory:demo", "--json"],
    ["ask", Q, "--graph", "memory:demo", "--json", "--log-level", "info"],
    ["--log-level=INFO", "ask", Q, "--graph", "memory:demo", "--json"],
])
def test_verbose_logs_to_stderr_and_json_stays_pure(args):
    proc = console(*args)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["answers"][0] == "New Orleans"  # nothing else on stdout
    lines = proc.stderr.splitlines()
    assert "INFO byokg.cli: opened memory:demo" not in proc.stdout
    assert any(ln.startswith("INFO byokg.cli: 1 answer(s)") for ln in lines), proc.stderr
    assert not any(ln.startswith("DEBUG ") for ln in lines)


def test_quiet_by_default_and_debug_with_vv():
    quiet = console("ask", Q, "--graph", "memory:demo")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == "New Orleans\n"
    loud = console("ask", Q, "--graph", "memory:demo", "-vv")
    assert loud.returncode == 0 and loud.stdout == "New Orleans\n"
    assert any(ln.startswith("DEBUG byokg.cli: info ") for ln in loud.stderr.splitlines())
    exact = console("--log-level", "ERROR", "ask", Q, "--graph", "memory:demo", "-vv")
    assert exact.returncode == 0 and exact.stderr == ""  # --log-level overrides -v


@pytest.mark.parametrize("args, expected", [
    (["stats", "--graph", "memory:demo", "-v"], "INFO byokg.cli: opened memory:demo"),
    (["link", "Satchmo", "--graph", "memory:demo", "-v"], "INFO byokg.linking: "),
    (["schema", "--graph", "memory:demo", "--log-level", "INFO"], "INFO byokg.cli: opened"),
])
def test_other_commands_log_too(args, expected):
    result = CliRunner().invoke(cli, hoist_global_options(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert expected in result.stderr
    assert expected not in result.stdout


def test_cli_leaves_logging_as_it_found_it():
    root, pkg = logging.getLogger(), logging.getLogger("byokg")
    before = (list(root.handlers), root.level, pkg.level, list(pkg.handlers))
    result = CliRunner().invoke(cli, ["-vvv", "stats", "--graph", "memory:demo"])
    assert result.exit_code == 0, result.output
    assert (list(root.handlers), root.level, pkg.level, list(pkg.handlers)) == before


def test_library_never_configures_logging():
    code = (
        "import logging, byokg, byokg.cli, byokg.presentation.picture\n"
        "from byokg import ask\n"
        "a = ask('Where was Wynton Marsalis born?', 'memory:demo', llm='none')\n"
        "root, pkg = logging.getLogger(), logging.getLogger('byokg')\n"
        "print(a.answers[0], len(root.handlers), root.level, len(pkg.handlers), pkg.level)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["New", "Orleans", "0", str(logging.WARNING), "0", "0"]


def test_hoisting_global_options():
    assert hoist_global_options(["ask", "q", "-vv", "--graph", "g", "--log-level", "debug"]) == [
        "-vv", "--log-level", "debug", "ask", "q", "--graph", "g"]
    assert hoist_global_options(["ask", "--debug", "q", "--log-level=info"]) == [
        "--debug", "--log-level=info", "ask", "q"]
    # after "--" everything is an argument, even "-v"
    assert hoist_global_options(["ask", "--", "-v"]) == ["ask", "--", "-v"]
    assert hoist_global_options(["link", "-x", "--verbose"]) == ["--verbose", "link", "-x"]
