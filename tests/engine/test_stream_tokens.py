"""The answer stage's LLM text through ``Engine.stream()`` as ``token`` events, from a local
OpenAI-compatible server that really streams (``tests/llm_stub.py``): in order, before the final
answer, the LLM call recorded as for a whole reply; closing the stream mid-answer hangs up on
the LLM."""

from __future__ import annotations

import threading
import time

import llm_stub
import pytest

from byokg import graph_from_triplets
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine

TRIPLETS, QUESTION = llm_stub.ALMA_TRIPLETS, llm_stub.ALMA_QUESTION
ANSWER_REPLY, LINKER_REPLY, reply = llm_stub.ALMA_ANSWER, llm_stub.ALMA_LINKER, llm_stub.alma_reply


@pytest.fixture
def stub():
    s = llm_stub.ChatStub(reply, piece=3, delay=0.04).start()
    yield s
    s.stop()


def _engine(stub) -> Engine:
    return Engine(graph_from_triplets(TRIPLETS, uri="memory:stream-tokens"),
                  RunConfig(llm="openai:m", llm_options={"base_url": stub.url, "api_key": "k"}))


def test_answer_tokens_arrive_as_token_events_before_the_answer(stub):
    engine = _engine(stub)
    seen: list = []
    t0 = time.monotonic()
    for ev in engine.stream(QUESTION):
        seen.append((time.monotonic() - t0, ev))
    kinds = [ev.kind for _, ev in seen]
    tokens = [(t, ev) for t, ev in seen if ev.kind == "token"]
    assert len(tokens) == len(range(0, len(ANSWER_REPLY), 3))  # one event per streamed piece
    assert "".join(ev.token for _, ev in tokens) == ANSWER_REPLY
    assert all(ev.stage == "answer" for _, ev in tokens)
    last_merge = max(i for i, k in enumerate(kinds) if k == "merge")
    first_token = kinds.index("token")
    assert last_merge < first_token and kinds[-1] == "answer"
    assert kinds[first_token:-1] == ["token"] * len(tokens)  # nothing else between
    # they came as the server sent them, not all at once at the end
    assert tokens[-1][0] - tokens[0][0] > 0.2
    answer = seen[-1][1].answer
    assert answer.answers == ["Ostrava Polytechnic"]
    # the call is recorded as for a whole reply: the usage of the last chunk, seconds
    calls = [c for c in answer.trace.llm_calls if c.purpose == "answer"]
    assert len(calls) == 1 and calls[0].completion_tokens == 5 and calls[0].seconds > 0.2
    # only the answer call streamed; the KG-Linker calls did not ask to
    assert stub.streamed.count(True) == 1 and stub.streamed[-1] is True


def test_ask_with_a_callback_gets_the_same_tokens(stub):
    engine = _engine(stub)
    pieces: list[str] = []
    answer = engine.ask(QUESTION, on_event=lambda ev: pieces.append(ev.token)
                        if ev.kind == "token" else None)
    assert "".join(pieces) == ANSWER_REPLY and answer.answers == ["Ostrava Polytechnic"]
    before = len(stub.streamed)
    engine.ask(QUESTION)  # no listener: nothing streams
    assert True not in stub.streamed[before:]


def test_closing_the_stream_mid_answer_hangs_up_on_the_llm(stub):
    stub.reply = lambda p, b: ("<answers>\n" + "Ostrava Polytechnic\n" * 20 + "</answers>"
                               if "Answer the question" in p else LINKER_REPLY)
    engine = _engine(stub)
    it = engine.stream(QUESTION)
    for ev in it:
        if ev.kind == "token":
            break
    it.close()
    deadline = time.monotonic() + 10
    while stub.hung_up == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stub.hung_up == 1  # the LLM's stream was closed, not read to its end
    assert stub.chunks_sent < 60  # of ~150 pieces
    for t in threading.enumerate():
        if t.name == "byokg-stream":
            t.join(timeout=10)
            assert not t.is_alive()
