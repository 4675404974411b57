"""Fixtures for the engine tests: a scripted LLM provider registered through the real hook."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest

from byokg.hookspecs import hookimpl
from byokg.testing import ScriptedLLM

SCRIPTS: dict[str, Callable[[str, int], str]] = {}


CREATED: list[ScriptedLLM] = []


def _factory(rest, **options):
    llm = ScriptedLLM(SCRIPTS[rest], name=f"script:{rest}")
    CREATED.append(llm)
    return llm


@hookimpl
def register_llms(register):
    register("script", _factory)


@pytest.fixture
def script_llm():
    """Register the ``script:NAME`` provider; yields a namespace to add scripts and see calls."""
    from byokg import registry

    module = SimpleNamespace(register_llms=register_llms)
    registry.register_plugin(module, name="test-script-llm")
    CREATED.clear()
    try:
        yield SimpleNamespace(scripts=SCRIPTS, created=CREATED)
    finally:
        registry.unregister_plugin("test-script-llm")
        SCRIPTS.clear()


@pytest.fixture
def tool_runs(monkeypatch):
    """Every tool run of the engine as ``(question, tool name, request key)``, in order."""
    from byokg.pipeline.engine import Engine

    ran: list[tuple[str, str, str | None]] = []
    real = Engine._run_tool

    def spy(self, tool, request):
        ran.append((request.question, tool.name, tool.request_key(request)))
        return real(self, tool, request)

    monkeypatch.setattr(Engine, "_run_tool", spy)
    return ran


@pytest.fixture(scope="session")
def festivals(tmp_path_factory):
    """The typed festival graph of benchmarks/llmpath_graph.py in Kùzu, in two naming styles
    (``camel``; ``spaced``: labels and property names with spaces and brackets): per style its
    URI, its generated questions with their gold rows, and the generated data."""
    from benchmarks.llmpath_graph import build
    from benchmarks.llmpath_graph import generate

    folder = tmp_path_factory.mktemp("festivals")
    data = generate()
    out = {}
    for style in ("camel", "spaced"):
        uri, questions = build(folder / f"{style}.kz", style, data)
        out[style] = SimpleNamespace(uri=uri, questions=questions, data=data)
    return out


@pytest.fixture
def festival_store(festivals):
    """``festival_store(style)``: the festival graph opened (closed when the test ends)."""
    from byokg.graph.open import open_graph

    opened = []

    def open_style(style: str = "spaced"):
        store = open_graph(festivals[style].uri)
        opened.append(store)
        return store

    yield open_style
    for s in opened:
        s.close()
