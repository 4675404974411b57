"""Each stage's error policy (byokg/pipeline/policy.py), through the engine with stages that
fail on purpose: a tool's failure costs its context only, a linker's byokg error and any
proposer or answerer error end the question, running out of LLM calls ends the rounds (proposer)
or leaves no answer (answerer), and cancellation passes every handler."""

from __future__ import annotations

import pytest

from byokg.cancel import Cancelled
from byokg.config import RunConfig
from byokg.contracts import Artifacts
from byokg.errors import ConfigError
from byokg.errors import LLMError
from byokg.hookspecs import hookimpl
from byokg.models.budget import BudgetExhausted
from byokg.pipeline.engine import Engine
from byokg.pipeline.policy import POLICY
from byokg.pipeline.policy import Outcome
from byokg.pipeline.policy import outcome
from byokg.pipeline.stages import Answerer
from byokg.pipeline.stages import AnswerResult
from byokg.pipeline.stages import Proposal
from byokg.pipeline.stages import Proposer
from byokg.pipeline.tools import Linker
from byokg.pipeline.tools import Tool

QUESTION = "Where was Louis Armstrong born?"
RAISE: dict[str, BaseException | None] = {}  # stage -> what it raises in the current test


def _maybe_raise(stage: str) -> None:
    exc = RAISE.get(stage)
    if exc is not None:
        raise exc


class _Proposer(Proposer):
    name = "test-policy-proposer"

    def propose(self, request):
        _maybe_raise("proposer")
        return Proposal(artifacts=Artifacts(entities=("Louis Armstrong",), finish=True))


class _Answerer(Answerer):
    name = "test-policy-answer"

    def answer(self, request):
        _maybe_raise("answerer")
        return AnswerResult(answers=[f"{len(request.context)} items"])


class _Linker(Linker):
    name = "test-policy-linker"

    def link(self, mentions, *, store, services, params):
        _maybe_raise("linker")
        from byokg.registry import tools

        real = tools().create("entity-linker")
        return real.link(mentions, store=store, services=services,
                         params=real.Params())


class _Tool(Tool):
    name = "test-policy-tool"
    description = "fails on purpose"

    def retrieve(self, request, params, result):
        _maybe_raise("tool")


@hookimpl
def register_tools(register):
    for cls in (_Proposer, _Answerer, _Linker, _Tool):
        register(cls)


@pytest.fixture
def engine(demo_store, register_plugin):
    register_plugin("test-policy", register_tools=register_tools)
    RAISE.clear()
    cfg = RunConfig(proposer="test-policy-proposer", answerer="test-policy-answer",
                    linker="test-policy-linker", tools=["test-policy-tool", "one-hop"])
    yield Engine(demo_store, cfg)
    RAISE.clear()


def test_the_table_says_what_each_failure_does():
    assert outcome("tool", LLMError("x")) is Outcome.SKIP
    assert outcome("tool", ConfigError("x")) is Outcome.SKIP
    assert outcome("linker", ConfigError("x")) is Outcome.STOP
    assert outcome("linker", RuntimeError("x")) is Outcome.SKIP
    assert outcome("proposer", BudgetExhausted("x")) is Outcome.END_ROUNDS
    assert outcome("proposer", LLMError("x")) is Outcome.STOP
    assert outcome("answerer", BudgetExhausted("x")) is Outcome.EMPTY
    assert outcome("answerer", RuntimeError("x")) is Outcome.STOP
    for stage in POLICY:
        assert outcome(stage, Cancelled()) is Outcome.STOP  # never caught


def test_nothing_fails(engine):
    a = engine.ask(QUESTION)
    assert a.answers and a.answers[0] != "0 items"


@pytest.mark.parametrize("exc", [LLMError("provider down"), ConfigError("bad option"),
                                 RuntimeError("a bug")])
def test_a_failing_tool_costs_its_context_only(engine, exc):
    RAISE["tool"] = exc
    a = engine.ask(QUESTION)
    assert a.answers[0] != "0 items"  # one-hop's context is there
    errs = [e for e in a.trace.events if e.level == "error" and e.source == "test-policy-tool"]
    assert errs and type(exc).__name__ in errs[0].message


def test_a_linker_bug_links_nothing_and_the_question_goes_on(engine):
    RAISE["linker"] = RuntimeError("a bug")
    a = engine.ask(QUESTION)
    assert a.answers == ["0 items"]  # nothing linked, nothing retrieved, still an answer
    assert any(e.source == "linker" and e.level == "error" and "RuntimeError" in e.message
               for e in a.trace.events)


def test_a_linker_config_error_ends_the_question(engine):
    RAISE["linker"] = ConfigError("the index is missing")
    with pytest.raises(ConfigError, match="index is missing"):
        engine.ask(QUESTION)


@pytest.mark.parametrize("stage", ["proposer", "answerer"])
def test_a_proposer_or_answerer_error_ends_the_question_with_the_partial_answer(engine, stage):
    RAISE[stage] = LLMError("provider down")
    with pytest.raises(LLMError, match="provider down") as ei:
        engine.ask(QUESTION)
    assert ei.value.partial is not None and ei.value.trace is not None
    RAISE[stage] = RuntimeError("a bug")
    with pytest.raises(RuntimeError, match="a bug"):
        engine.ask(QUESTION)


def test_out_of_calls_ends_the_rounds_or_leaves_no_answer(engine):
    RAISE["proposer"] = BudgetExhausted("no calls left")
    a = engine.ask(QUESTION)
    assert a.answers == ["0 items"]  # no rounds ran; the answer stage still did
    assert any(e.source == "budget" for e in a.trace.events)
    RAISE.clear()
    RAISE["answerer"] = BudgetExhausted("no calls left")
    a = engine.ask(QUESTION)
    assert a.answers == [] and any(e.source == "budget" for e in a.trace.events)


@pytest.mark.parametrize("stage", ["proposer", "linker", "tool", "answerer"])
def test_cancellation_passes_every_stage(engine, stage):
    RAISE[stage] = Cancelled()
    with pytest.raises(Cancelled):
        engine.ask(QUESTION)
