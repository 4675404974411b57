"""The LangChain and LlamaIndex retrievers, used through each framework's own retrieval call
(``invoke``/``ainvoke`` with callbacks; ``retrieve``/``aretrieve``), on a graph of our own and on
the demo graph; and ``import byokg`` loads neither framework."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from byokg import graph_from_triplets
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine

TRIPLETS = [("Harrow Fenn", "COMPOSED", "Opus Lantern"), ("Opus Lantern", "premiered.at",
            "Velde Hall"), ("Velde Hall", "IN_CITY", "Marrowgate"),
            ("Ilka Sorne", "COMPOSED", "Tidewater Suite")]
QUESTION = "Where did the work Harrow Fenn composed premiere?"


@pytest.fixture(scope="module")
def engine():
    return Engine(graph_from_triplets(TRIPLETS, uri="memory:integrations"), RunConfig())


def _expected(engine):
    return engine.retrieve(QUESTION)


def test_langchain_retriever_inside_invoke(engine):
    pytest.importorskip("langchain_core")
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.documents import Document

    from byokg.integrations.langchain import ByokgRetriever

    class Seen(BaseCallbackHandler):
        def __init__(self):
            self.started, self.ended = [], []

        def on_retriever_start(self, serialized, query, **kw):
            self.started.append(query)

        def on_retriever_end(self, documents, **kw):
            self.ended.append(documents)

    seen = Seen()
    retriever = ByokgRetriever(engine=engine)
    docs = retriever.invoke(QUESTION, config={"callbacks": [seen]})
    want = _expected(engine)
    assert all(isinstance(d, Document) for d in docs)
    assert [d.page_content for d in docs] == [it.text for it in want.context]
    assert seen.started == [QUESTION] and seen.ended == [docs]
    top = docs[0].metadata
    assert top["source"] == "byokg" and top["rank"] == 0 and top["tool"] == want.context[0].tool
    assert {"round", "score", "node_ids", "node_names", "triplets", "kind"} <= set(top)
    paths = [d.metadata for d in docs if "relation_path" in d.metadata]
    assert any(m["relation_path"][:2] == ["COMPOSED", "premiered.at"] for m in paths), paths
    assert "Velde Hall" in {n for d in docs for n in d.metadata["node_names"]}
    assert len({d.id for d in docs}) == len(docs)
    # async, and k
    adocs = asyncio.run(ByokgRetriever(engine=engine, k=2).ainvoke(QUESTION))
    assert [d.page_content for d in adocs] == [d.page_content for d in docs[:2]]


def test_langchain_retriever_from_graph_uri():
    pytest.importorskip("langchain_core")
    from byokg.integrations.langchain import ByokgRetriever

    docs = ByokgRetriever.from_graph("memory:demo", k=3).invoke("Where was Satchmo born?")
    assert 0 < len(docs) <= 3
    assert any("New Orleans" in n for d in docs for n in d.metadata["node_names"])


def test_llamaindex_retriever_inside_retrieve(engine):
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import NodeWithScore
    from llama_index.core.schema import QueryBundle
    from llama_index.core.schema import TextNode

    from byokg.integrations.llamaindex import ByokgRetriever

    retriever = ByokgRetriever(engine)
    nodes = retriever.retrieve(QUESTION)
    want = _expected(engine)
    assert all(isinstance(n, NodeWithScore) and isinstance(n.node, TextNode) for n in nodes)
    assert [n.node.get_content() for n in nodes] == [it.text for it in want.context]
    assert [n.score for n in nodes] == [it.score for it in want.context]
    meta = nodes[0].node.metadata
    assert meta["tool"] == want.context[0].tool and meta["rank"] == 0
    assert any(n.node.metadata.get("relation_path", [])[:1] == ["COMPOSED"] for n in nodes)
    anodes = asyncio.run(ByokgRetriever(engine, k=1).aretrieve(QueryBundle(QUESTION)))
    assert [n.node.node_id for n in anodes] == [nodes[0].node.node_id]


def test_llamaindex_retriever_from_graph_uri():
    pytest.importorskip("llama_index.core")
    from byokg.integrations.llamaindex import ByokgRetriever

    nodes = ByokgRetriever.from_graph("memory:demo").retrieve("Where was Satchmo born?")
    assert any("New Orleans" in n.node.metadata["node_names"] for n in nodes)


def test_import_byokg_loads_no_framework(run_python):
    code = ("import sys, byokg, byokg.integrations, byokg.serve, byokg.commands.serve\n"
            "bad = [m for m in ('langchain_core', 'llama_index', 'fastapi', 'uvicorn', 'mcp',"
            " 'starlette', 'httpx') if m in sys.modules]\nprint(','.join(bad))")
    assert run_python(code, timeout=60) == ""


@pytest.mark.parametrize("module,blocked,extra", [
    ("byokg.integrations.langchain", "langchain_core", "langchain"),
    ("byokg.integrations.llamaindex", "llama_index", "llamaindex"),
    ("byokg.serve.http", "fastapi", "server"),
    ("byokg.serve.mcp", "mcp", "server"),
])
def test_a_missing_extra_names_the_pip_command(module, blocked, extra, run_python):
    out = run_python(f"import sys; sys.modules[{blocked!r}] = None\n"
                     f"try:\n    import {module}\nexcept ModuleNotFoundError as exc:\n"
                     "    from byokg.cli import _missing_extra\n"
                     "    print(_missing_extra(exc) or exc)\n", timeout=60)
    assert f"pip install 'byokg[{extra}]'" in out, out


def test_serve_without_the_extra_is_one_line():
    code = ("import sys; sys.modules['fastapi'] = None\nfrom byokg.cli import main\n"
            "main(['serve', '--http', '--graph', 'memory:demo'])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "pip install 'byokg[server]'" in proc.stderr
