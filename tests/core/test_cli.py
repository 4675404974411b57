"""The ``byokg`` command line: plugins, stats, schema, load; --help everywhere; errors are one line
(traceback only with --debug), both through click's runner and the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from core_helpers import venv_env

from byokg import registry
from byokg.cli import cli
from byokg.cli import main
from byokg.errors import ConfigError
from byokg.graph.open import open_graph
from byokg.hookspecs import HOOK_KINDS
from byokg.hookspecs import hookimpl

BYOKG = str(Path(sys.executable).parent / "byokg")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str):
    result = runner.invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def console(*args: str, cwd=None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([BYOKG, *args], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env=venv_env(**env))


# --------------------------------------------------------------------------- commands


def test_plugins_json_keys(runner):
    data = json.loads(invoke(runner, "plugins", "--json").output)["registered"]
    assert set(data) == {"tools", "backends", "llms", "embedders", "rerankers", "datasets"}
    assert set(data) == set(HOOK_KINDS.values())
    assert data["backends"]["memory"] == "byokg.backends.memory"
    assert data == registry.describe()


def test_plugins_text(runner):
    out = invoke(runner, "plugins").output
    for kind in HOOK_KINDS.values():
        assert f"{kind}:" in out
    assert any(line.split() == ["memory", "byokg.backends.memory"] for line in out.splitlines())


def test_stats_demo(runner, demo_store):
    st = demo_store.stats()
    out = invoke(runner, "stats", "--graph", "memory:demo").output
    assert f"nodes:     {st.nodes:,}" in out
    assert f"triplets:  {st.triplets:,}" in out
    assert f"relations: {st.relations:,}" in out
    data = json.loads(invoke(runner, "stats", "--graph", "memory:demo", "--json").output)
    assert data == st.model_dump()


def test_schema_demo(runner, demo_store):
    out = invoke(runner, "schema", "--graph", "memory:demo").output
    assert out.startswith("Node labels:") and "Relationships:" in out
    assert "(:Person {" in out and "(:Person)-[:born_in]->(:City)" in out
    data = json.loads(invoke(runner, "schema", "--graph", "memory:demo", "--json").output)
    assert {"node_labels", "relation_types"} <= set(data)
    rels = {r["name"]: r for r in data["relation_types"]}
    assert set(rels) == set(demo_store.relation_types())
    assert {"src": "Person", "dst": "City"} in rels["born_in"]["patterns"]
    samples = json.loads(invoke(runner, "schema", "--graph", "memory:demo", "--json",
                                "--samples", "1").output)
    person = next(lab for lab in samples["node_labels"] if lab["name"] == "Person")
    assert all(len(p["samples"]) <= 1 for p in person["properties"])


def test_load_csv_round_trip(runner, tmp_path):
    src = tmp_path / "a.csv"
    src.write_text(
        "head,relation,tail\n"
        "Björk,born_in,Reykjavík\n"
        "Reykjavík,located_in,Iceland\n"
        "\"Washington, D.C.\",located_in,United States\n"
        "Björk,born_in,Reykjavík\n",  # a duplicate: counted, kept once
        encoding="utf-8",
    )
    out = tmp_path / "out" / "graph.jsonl"
    res = invoke(runner, "load", str(src), "--into", f"memory:{out}")
    assert "loaded 3 triplets over 5 nodes" in res.output
    assert "duplicates skipped: 1" in res.output
    store = open_graph(f"memory:{out}")
    st = store.stats()
    assert (st.nodes, st.triplets, st.relations) == (5, 3, 2)
    hood = store.neighbors(["Reykjavík"])["Reykjavík"]
    assert {t.key for t in hood.triplets} == {("Björk", "born_in", "Reykjavík"),
                                              ("Reykjavík", "located_in", "Iceland")}
    assert store.get_nodes(["Washington, D.C."])["Washington, D.C."] is not None
    stats_out = invoke(runner, "stats", "--graph", f"memory:{out}").output
    assert "triplets:  3" in stats_out


def test_load_jsonl_keeps_node_records(runner, tmp_path):
    src = tmp_path / "g.jsonl"
    src.write_text(
        '{"id": "Q1", "name": "Louis Armstrong", "labels": ["Person"], "aliases": ["Satchmo"],'
        ' "properties": {"birth_year": 1901}}\n'
        '{"head": "Q1", "relation": "born_in", "tail": "New Orleans",'
        ' "properties": {"source": "demo"}}\n',
        encoding="utf-8",
    )
    out = tmp_path / "copy.jsonl"
    invoke(runner, "load", str(src), "--into", f"memory:{out}")
    store = open_graph(f"memory:{out}")
    node = store.get_nodes(["Q1"])["Q1"]
    assert (node.name, node.labels, node.aliases) == ("Louis Armstrong", ("Person",), ("Satchmo",))
    assert node.properties == {"birth_year": 1901}
    (t,) = store.neighbors(["Q1"])["Q1"].triplets
    assert t.properties == {"source": "demo"}


def test_load_bad_rows(runner, tmp_path):
    src = tmp_path / "bad.tsv"
    src.write_text("head\trelation\ttail\na\tr\tb\nonly\ttwo\nc\tr\td\n", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    result = runner.invoke(cli, ["load", str(src), "--into", f"memory:{out}"])
    assert result.exit_code != 0
    assert isinstance(result.exception, Exception) and f"{src}:3" in str(result.exception)
    ok = invoke(runner, "load", str(src), "--into", f"memory:{out}", "--skip-bad-rows")
    assert "loaded 2 triplets" in ok.output
    assert "bad rows skipped: 1" in ok.output and "expected 3 fields" in ok.output
    assert f"{src}:3" in ok.output  # the reason names the line


def test_load_target_must_be_jsonl(runner, tmp_path):
    src = tmp_path / "a.csv"
    src.write_text("a,r,b\n", encoding="utf-8")
    result = runner.invoke(cli, ["load", str(src), "--into", f"memory:{tmp_path / 'x.csv'}"])
    assert result.exit_code != 0 and "must be a .jsonl file" in str(result.exception)


# --------------------------------------------------------------------------- help, usage


def _all_commands(group: click.Group, ctx: click.Context, prefix: tuple[str, ...] = ()):
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        yield (*prefix, name), cmd
        if isinstance(cmd, click.Group):
            yield from _all_commands(cmd, click.Context(cmd, parent=ctx), (*prefix, name))


def test_help_on_every_command(runner):
    top = invoke(runner, "--help").output
    commands = list(_all_commands(cli, click.Context(cli)))
    names = [path for path, _ in commands]
    assert {("plugins",), ("load",), ("schema",), ("stats",)} <= set(names)
    for path, cmd in commands:
        if len(path) == 1:
            assert path[0] in top
        out = invoke(runner, *path, "--help").output
        assert out.startswith("Usage: "), path
        assert (cmd.get_short_help_str() or "").strip(), f"{path} has no help text"
        short = invoke(runner, *path, "-h").output
        assert short == out


def test_version(runner):
    assert "0.1.0" in invoke(runner, "--version").output


def test_usage_error_exits_2(runner):
    result = runner.invoke(cli, ["stats"])
    assert result.exit_code == 2 and "Missing option '--graph'" in result.output


# --------------------------------------------------------------------------- errors


def test_error_is_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["stats", "--graph", "nope:x"])
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: no backend for URI scheme 'nope'")
    assert "Traceback" not in err


def test_debug_raises(capsys):
    with pytest.raises(ConfigError, match="no backend"):
        main(["--debug", "stats", "--graph", "nope:x"])


def test_unexpected_error_is_one_line_too(capsys):
    class Boom:
        @hookimpl
        def register_backends(self, register):
            def open_boom(uri, **kw):
                raise RuntimeError("kaput")

            register("boom", open_boom)

    registry.register_plugin(Boom(), name="test-boom")
    try:
        with pytest.raises(SystemExit) as exc:
            main(["stats", "--graph", "boom:x"])
        assert exc.value.code == 1
        err = capsys.readouterr().err
        assert err == "error: RuntimeError: kaput (rerun with --debug for a traceback)\n"
        with pytest.raises(RuntimeError, match="kaput"):
            main(["--debug", "stats", "--graph", "boom:x"])
    finally:
        registry.unregister_plugin("test-boom")


@pytest.mark.slow
def test_console_script_errors(tmp_path):
    proc = console("stats", "--graph", f"memory:{tmp_path / 'missing.csv'}", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "missing.csv" in lines[0]
    assert "no such file" in lines[0]
    debug = console("--debug", "stats", "--graph", f"memory:{tmp_path / 'missing.csv'}",
                    cwd=tmp_path)
    assert debug.returncode == 1
    assert "Traceback (most recent call last)" in debug.stderr and "InputError" in debug.stderr


@pytest.mark.slow
def test_console_script_commands(tmp_path):
    proc = console("plugins", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads(proc.stdout)["registered"]) == set(HOOK_KINDS.values())
    proc = console("stats", "--graph", "memory:demo", "--json", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["triplets"] >= 600
    proc = console("schema", "--graph", "memory:demo", cwd=tmp_path)
    assert proc.returncode == 0 and "(:Person)-[:born_in]->(:City)" in proc.stdout
    proc = console("--help", cwd=tmp_path)
    assert proc.returncode == 0 and "Commands:" in proc.stdout


def test_the_command_process_collects_less_and_freezes_at_exit(tmp_path):
    """``run`` (the console script) raises the collector's thresholds and freezes what is
    alive when the command ends, even when it exits with an error; ``main`` (in-process
    callers) changes neither."""
    code = ("import gc, sys\n"
            "from byokg import cli\n"
            "before = (gc.get_threshold(), gc.get_freeze_count())\n"
            "cli.main(['plugins', '--json'])\n"
            "assert (gc.get_threshold(), gc.get_freeze_count()) == before, before\n"
            "sys.argv = ['byokg', 'stats', '--graph', 'memory:' + sys.argv[1]]\n"
            "try:\n"
            "    cli.run()\n"
            "except SystemExit as exc:\n"
            "    print(exc.code, gc.get_threshold() == cli.GC_THRESHOLDS,\n"
            "          gc.get_freeze_count() > 1000, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "missing.csv")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env=venv_env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[-1] == "1 True True", proc.stderr
    assert "missing.csv" in proc.stderr


def test_help_lists_what_the_registry_holds():
    """--llm / --dataset / --embedder help is read from the registry when shown, so a plugin's
    provider appears in it."""
    from types import SimpleNamespace

    from click.testing import CliRunner

    from byokg import registry
    from byokg.cli import cli
    from byokg.hookspecs import hookimpl

    @hookimpl
    def register_llms(register):
        register("help-probe", lambda rest, **kw: None)

    @hookimpl
    def register_datasets(register):
        register("help-probe-ds", lambda path, **kw: None)

    registry.register_plugin(SimpleNamespace(register_llms=register_llms,
                                             register_datasets=register_datasets),
                             name="test-help-probe")
    try:
        runner = CliRunner()
        ask_help = " ".join(runner.invoke(cli, ["ask", "--help"]).output.split())
        assert "help-probe:…" in ask_help and "openai:…" in ask_help and "none" in ask_help
        eval_help = " ".join(runner.invoke(cli, ["eval", "--help"]).output.split())
        assert "help-probe-ds" in eval_help and "help-probe:…" in eval_help
        link_help = " ".join(runner.invoke(cli, ["link", "--help"]).output.split())
        assert "minilm" in link_help and "lexical" in link_help
    finally:
        registry.unregister_plugin("test-help-probe")
