"""Library code changes no process-global setting (issue 23): importing byokg, loading a CSV,
guarding a deeply nested query, linking densely and answering questions leave the csv field limit,
the recursion limit, the environment, the logging configuration and the thread counts of torch
and FAISS as they were. Only the command line sets such things (``byokg.cli.process_settings``).

Run in a fresh interpreter, so nothing else in the test session has touched them."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(r'''
    import csv, json, logging, os, sys, tempfile
    state_libs = {}
    try:
        import torch
        state_libs["torch"] = lambda: torch.get_num_threads()
    except ImportError:
        pass
    try:
        import faiss
        state_libs["faiss"] = lambda: faiss.omp_get_max_threads()
    except ImportError:
        pass
    import numpy  # noqa: F401

    calls = []  # setters called from byokg's own code (a set-and-restore counts too)

    def spy(owner, name):
        real = getattr(owner, name)

        def wrapper(*args, **kwargs):
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if (args or kwargs) and caller.startswith("byokg"):
                calls.append(f"{caller}: {name}")
            return real(*args, **kwargs)
        setattr(owner, name, wrapper)

    spy(csv, "field_size_limit")
    spy(sys, "setrecursionlimit")
    for method in ("addFilter", "addHandler", "setLevel", "removeHandler"):
        spy(logging.Logger, method)
    if "torch" in state_libs:
        spy(torch, "set_num_threads")
    if "faiss" in state_libs:
        spy(faiss, "omp_set_num_threads")
    real_putenv = os.putenv

    def putenv(key, value):
        if sys._getframe(2).f_globals.get("__name__", "").startswith("byokg"):
            calls.append(f"byokg: os.environ[{key!r}]")
        return real_putenv(key, value)
    os.putenv = putenv

    def logging_state():
        out = {}
        loggers = [("", logging.getLogger())] + [
            (n, lg) for n, lg in sorted(logging.Logger.manager.loggerDict.items())
            if isinstance(lg, logging.Logger)]
        for name, lg in loggers:
            out[name] = [lg.level, [id(h) for h in lg.handlers],
                         [type(f).__name__ for f in lg.filters], lg.propagate, lg.disabled]
        return out

    def snapshot(known_loggers=None):
        logs = logging_state()
        if known_loggers is not None:  # loggers libraries made since: not byokg's doing
            logs = {k: v for k, v in logs.items() if k in known_loggers}
        return {"csv": csv.field_size_limit(), "recursion": sys.getrecursionlimit(),
                "env": dict(os.environ), "logging": logs,
                "libs": {k: f() for k, f in state_libs.items()}}

    before = snapshot()
    import byokg
    from byokg import Engine, RunConfig, open_graph
    from byokg.cypher.guard import check_query

    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "g.csv")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("head,relation,tail\n")
        fh.write("Ada Brandt,born_in,Aldwick\nAldwick,located_in,Aravel\n")
        fh.write("Boris Castellano,born_in,Brennmoor\nBrennmoor,located_in,Borduria\n")
        fh.write("Ada Brandt,spouse,Boris Castellano\n")
    store = open_graph("memory:" + path)
    deep = "RETURN " + "(" * 60 + "1" + ")" * 60 + " AS n"
    verdict = check_query(deep, dialect="kuzu")
    engine = Engine(store, RunConfig(llm="none"))
    answers = [engine.ask(q).answers for q in (
        "Where was Ada Brandt born?", "In which country was Boris Castellano born?",
        "Who is the spouse of Ada Brandt?")]
    dense = Engine(store, RunConfig(llm="none", embedder=os.environ["EMBEDDER"],
                                    params={"entity-linker": {"method": "both"}}))
    answers.append(dense.ask("Where was Ada Brand born?").answers)
    after = snapshot(known_loggers=set(before["logging"]))
    print(json.dumps({"before": before, "after": after, "answers": answers,
                      "deep_allowed": verdict.allowed, "calls": calls}))
''')


def _run(embedder: str) -> dict:
    env = {k: v for k, v in __import__("os").environ.items()
           if k not in ("HF_HUB_OFFLINE", "TOKENIZERS_PARALLELISM")}
    env["EMBEDDER"] = embedder
    env["BYOKG_CACHE_DIR"] = "off"
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("embedder", ["static", "minilm"])
def test_a_run_changes_no_process_setting(embedder):
    got = _run(embedder)
    before, after = got["before"], got["after"]
    assert got["answers"][0][:1] == ["Aldwick"] and got["deep_allowed"]
    assert got["calls"] == []
    assert after["csv"] == before["csv"]
    assert after["recursion"] == before["recursion"]
    assert after["env"] == before["env"]
    assert after["libs"] == before["libs"]
    assert after["logging"] == before["logging"]


def test_the_command_line_sets_them():
    """The CLI is where process settings live: it raises the csv field limit and the recursion
    limit, and keeps the embedding libraries off the network and their thread pools quiet."""
    code = ("import csv, os, sys; from byokg.cli import process_settings; process_settings(); "
            "print(csv.field_size_limit(), sys.getrecursionlimit(), os.environ['HF_HUB_OFFLINE'],"
            " os.environ['TOKENIZERS_PARALLELISM'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    assert int(out[0]) >= 1 << 20 and int(out[1]) > 20_000 and out[2:] == ["1", "false"]
