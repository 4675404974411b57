"""Fixtures for the engine tests: a scripted LLM provider registered through the real hook."""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from byokg.hookspecs import hookimpl
from byokg.models import LLMResponse

SCRIPTS: dict[str, Callable[[str, int], str]] = {}


class ScriptLLM:
    """Replies from ``SCRIPTS[name](prompt, call_index)``; records every prompt it saw."""

    def __init__(self, name: str) -> None:
        self.name = f"script:{name}"
        self.script = SCRIPTS[name]
        self.prompts: list[str] = []
        self._lock = threading.Lock()

    def complete(self, prompt, *, system=None, max_tokens=None, temperature=None):
        with self._lock:
            self.prompts.append(prompt)
            n = len(self.prompts) - 1
        text = self.script(prompt, n)
        return LLMResponse(text=text, model=self.name, prompt_tokens=len(prompt) // 4,
                           completion_tokens=len(text) // 4)


CREATED: list[ScriptLLM] = []


def _factory(rest, **options):
    llm = ScriptLLM(rest)
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
