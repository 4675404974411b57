"""End to end through `byokg ask`: an LLM (a local OpenAI-compatible server) writes queries that
try to read a local file into the rows (LOAD FROM, table functions, comment and escape tricks).
The file's content must never appear in any prompt the LLM receives, the trace must say why the
queries did not run, and `--explain` must show it."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

_spec = importlib.util.spec_from_file_location(
    "byokg_llm_stub", Path(__file__).resolve().parents[1] / "llm_stub.py")
llm_stub = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(llm_stub)

SECRET = "TOPSECRET-f11e-7ea5"
HONEST = "MATCH (k:Category) RETURN k.categoryName AS honest"


def _stealers(path: str) -> list[str]:
    return [
        f"LOAD FROM '{path}' (header=false, file_format='csv') RETURN *",
        f"MATCH (c:Category) RETURN 1 /* **/ ' */ LOAD FROM '{path}' (file_format='csv') "
        "RETURN * //'",
        f"MATCH (c:Category) WHERE c.categoryID = $0LOAD FROM '{path}' RETURN *",
        f"CALL read_csv_serial('{path}') RETURN *",
        f"RETURN 'x\\' LOAD FROM \\'{path}\\' RETURN * //'",
        f"MATCH (c:Category) RETURN c.categoryName AS show UNION LOAD FROM '{path}' RETURN *",
    ]


@pytest.fixture
def llm(monkeypatch):
    queries: list[str] = []

    def reply(prompt: str, body: dict) -> str:
        if "<cypher>" in prompt and "Graph context" not in prompt:
            return "<entities>\nSeafood\n</entities>\n<cypher>\n" + "\n\n".join(
                queries) + "\n</cypher>"
        if "Query that was run" in prompt:  # a repair request
            return "<cypher>\n" + queries[0] + "\n</cypher>"
        return "<answers>\nunknown\n</answers>"

    stub = llm_stub.ChatStub(reply).start()
    stub.queries = queries
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    yield stub
    stub.stop()


@pytest.mark.parametrize("batch", [0, 1, 2])
def test_no_file_content_reaches_a_prompt(llm, nw_kuzu_path, tmp_path, batch) -> None:
    from byokg.cli import cli

    secret = tmp_path / "secret.csv"
    secret.write_text(f"{SECRET}\nname,{SECRET}-2\n")
    stealers = _stealers(str(secret))
    # two stealers and one honest read (the tool runs at most 3 queries per round)
    llm.queries[:] = [*stealers[batch * 2:batch * 2 + 2], HONEST]
    res = CliRunner().invoke(cli, [
        "ask", "Which categories are there?", "--graph", f"kuzu:{nw_kuzu_path}",
        "--llm", "openai:test", "--tools", "cypher", "--json"])
    assert res.exit_code == 0, res.output
    assert llm.prompts, "the LLM was never asked"
    for p in llm.prompts:
        assert SECRET not in p
    assert SECRET not in res.output
    trace = json.loads(res.output)["trace"]
    cypher = [e for e in trace["events"] if e["source"] == "cypher" and e["data"].get("query")]
    stolen = [e for e in cypher if not e["data"]["query"].startswith(HONEST)]
    assert stolen and all(e["data"].get("outcome") != "ok" for e in stolen), stolen
    assert any(e["data"].get("error_kind") == "rejected" for e in stolen)
    honest = [e for e in cypher if e["data"]["query"].startswith(HONEST)]
    assert honest and honest[0]["data"]["outcome"] == "ok"  # ran in the worker process
    # its rows answer the question (no second round: they fit it) and no stolen line does
    assert "Seafood" in json.loads(res.output)["answers"]

    shown = CliRunner().invoke(cli, [
        "ask", "Which categories are there?", "--graph", f"kuzu:{nw_kuzu_path}",
        "--llm", "openai:test", "--tools", "cypher", "--explain"])
    assert shown.exit_code == 0, shown.output
    assert SECRET not in shown.output
    assert "Warnings" in shown.output and re.search(r"cypher.*rejected", shown.output), \
        shown.output
