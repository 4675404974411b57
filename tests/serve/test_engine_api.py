"""Engine.retrieve (evidence without an answer), aask/aretrieve, and stream (typed stage events
through the on_event seam), on a small graph of our own and on the demo graph."""

from __future__ import annotations

import asyncio
import threading

import pytest

from byokg import graph_from_triplets
from byokg.config import RunConfig
from byokg.errors import InputError
from byokg.pipeline.answer import Answer
from byokg.pipeline.answer import Retrieval
from byokg.pipeline.answer import StageEvent
from byokg.pipeline.engine import Engine
from byokg.testing import triples

# relation names unlike the demo's, a literal value, a two-hop chain
TRIPLETS = triples("""
    Quillon Vale | HAS_ALMA_MATER | Ostrava Polytechnic
    Ostrava Polytechnic | SITUATED-IN | Brnova
    Quillon Vale | wrote | The Copper Orchard
    The Copper Orchard | pub.year | 1987
    Mirela Dask | HAS_ALMA_MATER | Ostrava Polytechnic
""")
QUESTION = "Which school is the alma mater of Quillon Vale?"


@pytest.fixture(scope="module")
def engine():
    return Engine(graph_from_triplets(TRIPLETS, uri="memory:serve-api-test"),
                  RunConfig(llm="none"))


def test_retrieve_returns_ranked_evidence_without_an_answer(engine, monkeypatch):
    def no_answer(*a, **k):
        raise AssertionError("retrieve ran the answer stage")

    monkeypatch.setattr(Engine, "_answer_stage", no_answer)
    monkeypatch.setattr(Engine, "_answer", no_answer)
    r = engine.retrieve(QUESTION)
    assert isinstance(r, Retrieval) and r.question == QUESTION
    assert r.context, "no evidence"
    assert [m.mention for m in r.entities if "Quillon Vale" in m.ids]
    texts = " ".join(it.text for it in r.context)
    assert "Ostrava Polytechnic" in texts
    for it in r.context:  # provenance on every item
        assert it.tool and it.iteration >= 0
    assert r.names["Quillon Vale"] == "Quillon Vale"
    assert r.trace.counts["context_selected"] == len(r.context)
    assert not [c for c in r.trace.llm_calls]
    # same rounds as ask: the answer's context is the retrieval's context
    monkeypatch.undo()
    a = engine.ask(QUESTION)
    assert [it.text for it in a.context] == [it.text for it in r.context]
    assert "Ostrava Polytechnic" in a.answers


def test_async_api_matches_sync(engine):
    async def main():
        return await asyncio.gather(engine.aask(QUESTION), engine.aretrieve(QUESTION),
                                    engine.aask("Where is Ostrava Polytechnic situated?"))

    a, r, b = asyncio.run(main())
    assert isinstance(a, Answer) and isinstance(r, Retrieval)
    assert a.answers == engine.ask(QUESTION).answers
    assert "Brnova" in b.answers
    assert [it.text for it in r.context] == [it.text for it in engine.retrieve(QUESTION).context]


def test_async_errors_are_raised(engine):
    with pytest.raises(InputError, match="empty"):
        asyncio.run(engine.aask("   "))


def test_stream_yields_typed_stage_events_in_order(engine):
    events = list(engine.stream(QUESTION))
    assert all(isinstance(e, StageEvent) for e in events)
    kinds = [e.kind for e in events]
    assert kinds[0] == "proposal" and kinds[-1] == "answer"
    assert kinds.count("answer") == 1
    assert "links" in kinds and "tool" in kinds and "merge" in kinds
    assert kinds.index("proposal") < kinds.index("links") < kinds.index("tool") < kinds.index(
        "merge")
    final = events[-1].answer
    assert final is not None and final.answers == engine.ask(QUESTION).answers
    # each tool's items are the ones the answer's context took from that tool in that round
    tool_items = {(e.stage, e.round, it.text) for e in events if e.kind == "tool"
                  for it in e.items}
    for it in final.context:
        assert (f"tool:{it.tool}", it.iteration, it.text) in tool_items or it.tool == "context"
    merged = sum(e.new_items or 0 for e in events if e.kind == "merge")
    assert merged == final.trace.counts["context_items_new"]
    proposals = [e for e in events if e.kind == "proposal"]
    assert [e.artifacts for e in proposals] == final.trace.artifacts
    assert [e.round for e in proposals] == list(range(len(proposals)))
    links = [e.links for e in events if e.kind == "links"]
    assert links == final.trace.links
    assert all(e.token is None for e in events)  # offline: no answer LLM, no token events


def test_stream_without_answer_ends_with_the_retrieval(engine):
    events = list(engine.stream(QUESTION, answer=False))
    assert events[-1].kind == "retrieval" and events[-1].retrieval is not None
    assert "answer" not in [e.kind for e in events]
    assert events[-1].retrieval.context


def test_on_event_callback_sees_what_stream_yields(engine):
    seen: list[StageEvent] = []
    a = engine.ask(QUESTION, on_event=seen.append)
    assert seen[-1].answer == a
    assert [e.kind for e in seen] == [e.kind for e in engine.stream(QUESTION)]


def test_stream_raises_bad_input_at_once_and_errors_from_the_run(engine):
    with pytest.raises(InputError, match="too long"):
        engine.stream("x " * 5000)

    class Boom(RuntimeError):
        pass

    def fail(ev):
        raise Boom("listener failed")

    with pytest.raises(Boom):
        engine.ask(QUESTION, on_event=fail)


def test_closing_a_stream_early_stops_the_run(engine, monkeypatch):
    gate = threading.Event()
    real_retrieve, real_answer = Engine._retrieve, Engine._answer
    calls: list[str] = []

    def held_retrieve(self, q, rnd, artifacts):
        calls.append(f"tools {rnd}")
        assert gate.wait(10)  # the consumer closes the stream while the tools run
        return real_retrieve(self, q, rnd, artifacts)

    def spy_answer(self, q):
        calls.append("answer")
        return real_answer(self, q)

    monkeypatch.setattr(Engine, "_retrieve", held_retrieve)
    monkeypatch.setattr(Engine, "_answer", spy_answer)
    it = engine.stream(QUESTION)
    assert next(it).kind == "proposal"
    assert next(it).kind == "links"
    it.close()
    gate.set()
    for t in threading.enumerate():
        if t.name == "byokg-stream":
            t.join(timeout=10)
            assert not t.is_alive()
    assert calls == ["tools 0"]  # stopped at the merge after the consumer left: no answer


def test_stream_on_the_demo_graph(demo_store):
    engine = Engine(demo_store, RunConfig(llm="none"))
    events = list(engine.stream("Where was Wynton Marsalis born?"))
    assert events[-1].answer.answers[:1] == ["New Orleans"]
    tool_events = [e for e in events if e.kind == "tool"]
    assert tool_events and all(e.stage.startswith("tool:") for e in tool_events)
    assert any(e.items for e in tool_events)
