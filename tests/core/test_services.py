"""Services builds the configured models once, with their options, and shares them."""

from __future__ import annotations

import threading

import pytest

from byokg import registry
from byokg.config import RunConfig
from byokg.errors import ConfigError
from byokg.hookspecs import hookimpl
from byokg.models.services import Services

BUILT: list[tuple[str, dict]] = []


class _Recorder:
    @hookimpl
    def register_embedders(self, register):
        register("test-emb", lambda **kw: BUILT.append(("emb", kw)) or ("emb", kw))

    @hookimpl
    def register_rerankers(self, register):
        register("test-rr", lambda **kw: BUILT.append(("rr", kw)) or ("rr", kw))


@pytest.fixture
def recorder():
    BUILT.clear()
    registry.register_plugin(_Recorder(), name="test-services")
    yield
    registry.unregister_plugin("test-services")


def test_models_get_their_options_and_are_built_once(recorder):
    cfg = RunConfig(embedder="test-emb", embedder_options={"path": "/m"},
                    reranker="test-rr", reranker_options={"path": "/r", "batch": 8})
    svc = Services(cfg)
    threads = [threading.Thread(target=lambda: (svc.embedder, svc.reranker)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert svc.embedder == ("emb", {"path": "/m"})
    assert svc.reranker == ("rr", {"path": "/r", "batch": 8})
    assert sorted(k for k, _ in BUILT) == ["emb", "rr"]  # once each, despite 8 threads


def test_no_reranker_configured_means_none_and_no_llm_means_none():
    svc = Services(RunConfig())
    assert svc.reranker is None
    assert svc.llm is None


def test_unknown_names_are_clear_errors():
    with pytest.raises(ConfigError, match="unknown reranker 'nope'"):
        _ = Services(RunConfig(reranker="nope")).reranker
    with pytest.raises(ConfigError, match="unknown LLM provider"):
        _ = Services(RunConfig(llm="nope:model")).llm


def test_shared_builds_once():
    svc = Services()
    calls = []
    for _ in range(3):
        svc.shared("k", lambda: calls.append(1) or len(calls))
    assert svc.shared("k", lambda: 99) == 1 and calls == [1]


def test_own_caches_share_the_models_built_once_on_first_use(recorder):
    """A question graph's services (with_own_caches): the run's models, built on first use
    and once for all graphs, and caches of their own (a question's view reads them)."""
    base = Services(RunConfig(embedder="test-emb", reranker="test-rr"))
    one, two = base.with_own_caches(), base.with_own_caches()
    assert BUILT == []  # nothing built before it is used
    assert one.embedder is two.embedder is base.embedder
    assert one.for_question(None).reranker is base.reranker
    assert sorted(k for k, _ in BUILT) == ["emb", "rr"]
    assert one.shared("index", lambda: "one's") == "one's"
    assert two.shared("index", lambda: "two's") == "two's"
    assert one.for_question(None).shared("index", lambda: "other") == "one's"
    assert "index" not in base.cache


def test_tool_params_errors_name_the_field():
    from byokg.pipeline.tools import ToolParams

    class P(ToolParams):
        k: int = 3

    cfg = RunConfig(params={"my-tool": {"k": "many"}})
    with pytest.raises(ConfigError, match=r"params\.my-tool\.k"):
        cfg.tool_params("my-tool", P)
    with pytest.raises(ConfigError, match="valid fields: k"):
        RunConfig(params={"my-tool": {"kk": 1}}).tool_params("my-tool", P)
