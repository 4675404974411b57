"""``byokg serve --mcp``: the official SDK's own client, over stdio, spawning the command as a
subprocess; lists the tools with their schemas and calls them on the demo graph and on a Kùzu
property graph the test builds (names in their own properties, integer keys, edge properties)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession  # noqa: E402
from mcp import StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

pytestmark = pytest.mark.server

EXE = Path(sys.executable).with_name("byokg")
TOOLS = {"ask", "retrieve", "link", "schema", "profile"}


def session(graph: str, fn, *extra: str, errlog=None):
    """Run ``fn(session)`` against ``byokg serve --mcp --graph GRAPH`` over stdio."""
    params = StdioServerParameters(command=str(EXE),
                                   args=["serve", "--mcp", "--graph", graph, *extra],
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})

    async def main():
        async with stdio_client(params, errlog=errlog or sys.stderr) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await fn(s)

    return asyncio.run(asyncio.wait_for(main(), 180))


def test_mcp_on_the_demo_graph(tmp_path):
    async def run(s: ClientSession):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        ask = await s.call_tool("ask", {"question": "Where was Satchmo born?"})
        ret = await s.call_tool("retrieve", {"question": "What instruments does Trombone Shorty "
                                                         "play?"})
        link = await s.call_tool("link", {"mentions": ["Satchmo"]})
        schema = await s.call_tool("schema", {})
        profile = await s.call_tool("profile", {})
        empty = await s.call_tool("ask", {"question": "   "})
        long = await s.call_tool("retrieve", {"question": "Who? " * 100})
        query = await s.call_tool("ask", {"question": "Who?", "cypher": "MATCH (n) DELETE n"})
        return tools, ask, ret, link, schema, profile, empty, long, query

    with open(tmp_path / "stderr.txt", "w") as err:
        tools, ask, ret, link, schema, profile, empty, long, query = session(
            "memory:demo", run, "--max-question-chars", "300", errlog=err)
    assert set(tools) == TOOLS
    for t in tools.values():  # typed input and output schemas, read-only hints
        assert t.inputSchema["type"] == "object" and t.outputSchema, t.name
        assert t.annotations.readOnlyHint is True
    assert tools["ask"].inputSchema["required"] == ["question"]
    assert "evidence" in tools["ask"].outputSchema["properties"]
    assert not {"query", "cypher"} & set(json.dumps([t.inputSchema for t in tools.values()])
                                         .split('"'))
    assert not ask.isError, ask.content
    out = ask.structuredContent
    assert out["answers"][:1] == ["New Orleans"]
    assert out["evidence"] and out["evidence"][0]["tool"]
    assert any("New Orleans" in e["text"] for e in out["evidence"])
    assert out["names"]["Louis Armstrong"] == "Louis Armstrong"
    assert json.loads(ask.content[0].text)["answers"] == out["answers"]  # text mirror too
    r = ret.structuredContent
    assert "answers" not in r
    assert {"trombone", "trumpet"} <= {n.lower() for it in r["context"] for n in
                                       (r["names"].get(i, i) for i in it["nodes"])}
    assert link.structuredContent["links"][0]["candidates"][0]["id"] == "Louis Armstrong"
    assert "born_in" in {x["name"] for x in schema.structuredContent["relation_types"]}
    assert "born_in" in {x["name"] for x in profile.structuredContent["relations"]}
    assert empty.isError and "empty" in empty.content[0].text
    assert long.isError and "at most 300" in long.content[0].text
    assert query.isError, query.content  # no tool takes a query


@pytest.fixture
def kuzu_graph(tmp_path):
    pytest.importorskip("kuzu")
    from byokg.io.loading import load_into

    (tmp_path / "staff.csv").write_text(
        "staff_no,display_label,joined,desk\n101,Ilsa Marrow,2019-03-01,K7\n"
        "102,Tomas Fenwright,2021-11-30,Q2\n", encoding="utf-8")
    (tmp_path / "desks.csv").write_text(
        "DeskCode,floor_name\nK7,Kestrel Floor\nQ2,Quarry Floor\n", encoding="utf-8")
    (tmp_path / "mentors.csv").write_text("mentor,mentee,since\n101,102,2022-01-15\n",
                                          encoding="utf-8")
    mapping = {
        "nodes": [
            {"label": "Staffer", "file": "staff.csv", "key": "staff_no", "name": "display_label",
             "properties": {"staff_no": "int", "display_label": "string", "joined": "string"}},
            {"label": "Desk", "file": "desks.csv", "key": "DeskCode", "name": "floor_name",
             "properties": {"DeskCode": "string", "floor_name": "string"}},
        ],
        "edges": [
            {"type": "SITS_AT", "file": "staff.csv", "src_label": "Staffer",
             "src_column": "staff_no", "dst_label": "Desk", "dst_column": "desk"},
            {"type": "MENTORS", "file": "mentors.csv", "src_label": "Staffer",
             "src_column": "mentor", "dst_label": "Staffer", "dst_column": "mentee",
             "properties": {"since": "string"}},
        ],
    }
    m = tmp_path / "mapping.json"
    m.write_text(json.dumps(mapping), encoding="utf-8")
    uri = f"kuzu:{tmp_path / 'staff.kz'}"
    load_into([str(tmp_path)], uri, mapping=str(m))
    return uri


def test_mcp_on_a_kuzu_graph(kuzu_graph, tmp_path):
    async def run(s: ClientSession):
        names = {t.name for t in (await s.list_tools()).tools}
        ask = await s.call_tool("ask", {"question": "Who does Ilsa Marrow mentor?"})
        ret = await s.call_tool("retrieve", {"question": "Where does Tomas Fenwright sit?"})
        link = await s.call_tool("link", {"mentions": ["Tomas Fenwright"]})
        return names, ask, ret, link

    with open(tmp_path / "stderr.txt", "w") as err:
        names, ask, ret, link = session(kuzu_graph, run, errlog=err)
    assert names == TOOLS
    assert not ask.isError, ask.content
    out = ask.structuredContent
    assert out["answers"][:1] == ["Tomas Fenwright"], out
    assert out["evidence"]
    assert not ret.isError, ret.content
    r = ret.structuredContent
    shown = {r["names"].get(i, i) for it in r["context"] for i in it["nodes"]}
    assert "Quarry Floor" in shown, r["context"]
    cand = link.structuredContent["links"][0]["candidates"][0]
    assert cand["name"] == "Tomas Fenwright"


def test_mcp_over_streamable_http_with_port(tmp_path):
    import socket
    import subprocess
    import time

    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    err = open(tmp_path / "stderr.txt", "w")
    proc = subprocess.Popen([str(EXE), "serve", "--mcp", "--graph", "memory:demo", "--port",
                             str(port)], stdout=subprocess.DEVNULL, stderr=err)

    async def main():
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write, _):
            async with ClientSession(read, write) as s:
                await s.initialize()
                names = {t.name for t in (await s.list_tools()).tools}
                return names, await s.call_tool("ask", {"question": "Where was Satchmo born?"})

    try:
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
            assert time.monotonic() < deadline
            time.sleep(0.2)
        names, ask = asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        err.close()
    assert names == TOOLS
    assert ask.structuredContent["answers"][:1] == ["New Orleans"]


def test_mcp_refuses_a_foreign_host_on_every_loopback_address(tmp_path):
    """Issue 26, finding 3: bound to 127.0.0.2 the streamable HTTP transport answered a
    foreign Host with 200 (the SDK's DNS-rebinding check covers only 127.0.0.1, localhost
    and ::1). Now every bind checks Host and Origin against the allow-list."""
    import socket
    import subprocess
    import time

    import httpx
    from mcp.client.streamable_http import streamable_http_client

    host = "127.0.0.2"
    with socket.socket() as sock:
        sock.bind((host, 0))
        port = sock.getsockname()[1]
    err = open(tmp_path / "stderr.txt", "w")
    proc = subprocess.Popen([str(EXE), "serve", "--mcp", "--graph", "memory:demo", "--host", host,
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=err)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream",
               "Content-Type": "application/json"}

    async def main():
        async with streamable_http_client(f"http://{host}:{port}/mcp") as (read, write, _):
            async with ClientSession(read, write) as s:
                await s.initialize()
                return await s.call_tool("link", {"mentions": ["Satchmo"]})

    try:
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as probe:
                if probe.connect_ex((host, port)) == 0:
                    break
            assert proc.poll() is None, (tmp_path / "stderr.txt").read_text()
            assert time.monotonic() < deadline
            time.sleep(0.2)
        url = f"http://{host}:{port}/mcp"
        foreign = httpx.post(url, json=init, headers={**headers, "Host": f"rebind.example:{port}"},
                             timeout=30)
        assert foreign.status_code == 421, foreign.text
        origin = httpx.post(url, json=init, headers={**headers, "Origin": "http://evil.example"},
                            timeout=30)
        assert origin.status_code == 403, origin.text
        linked = asyncio.run(asyncio.wait_for(main(), 120))  # its own address is allowed
        assert linked.structuredContent["links"][0]["candidates"][0]["id"] == "Louis Armstrong"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        err.close()
