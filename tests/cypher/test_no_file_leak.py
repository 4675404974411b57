"""End to end through `byokg ask`: an LLM (a local OpenAI-compatible server) writes queries that
try to read a local file into the rows (LOAD FROM, table functions, comment and escape tricks).
The file's content must never appear in any prompt the LLM receives, the trace must say why the
queries did not run, and `--explain` must show it."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

SECRET = "TOPSECRET-f11e-7ea5"


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


class _LLM(BaseHTTPRequestHandler):
    prompts: list[str] = []
    queries: list[str] = []

    def do_POST(self):  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = "\n".join(m["content"] for m in body["messages"])
        type(self).prompts.append(prompt)
        if "<cypher>" in prompt and "Graph context" not in prompt:
            reply = "<entities>\nSeafood\n</entities>\n<cypher>\n" + "\n\n".join(
                type(self).queries) + "\n</cypher>"
        elif "repair" in prompt.lower() or "Query that was run" in prompt:
            reply = "<cypher>\n" + type(self).queries[0] + "\n</cypher>"
        else:
            reply = "<answers>\nunknown\n</answers>"
        out = json.dumps({"id": "x", "object": "chat.completion", "model": body["model"],
                          "choices": [{"index": 0, "message": {"role": "assistant",
                                                               "content": reply}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


@pytest.fixture
def llm(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _LLM)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    _LLM.prompts = []
    yield _LLM
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("batch", [0, 1, 2])
def test_no_file_content_reaches_a_prompt(llm, nw_kuzu_path, tmp_path, batch) -> None:
    from byokg.cli import cli

    secret = tmp_path / "secret.csv"
    secret.write_text(f"{SECRET}\nname,{SECRET}-2\n")
    stealers = _stealers(str(secret))
    llm.queries = stealers[batch * 2:batch * 2 + 2]  # the linker returns at most 3 queries
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
    assert cypher and all(e["data"].get("outcome") != "ok" for e in cypher), cypher
    assert any(e["data"].get("error_kind") == "rejected" for e in cypher)

    shown = CliRunner().invoke(cli, [
        "ask", "Which categories are there?", "--graph", f"kuzu:{nw_kuzu_path}",
        "--llm", "openai:test", "--tools", "cypher", "--explain"])
    assert shown.exit_code == 0, shown.output
    assert SECRET not in shown.output
    assert "Warnings" in shown.output and re.search(r"cypher.*rejected", shown.output), \
        shown.output
