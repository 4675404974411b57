"""LLM providers: Bedrock (botocore Stubber), OpenAI-compatible (local HTTP server), replay, cache."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer

import pytest
from http_stub import LocalServer
from http_stub import StubHandler

from byokg.errors import ConfigError
from byokg.errors import LLMError
from byokg.models.base import prompt_checksum
from byokg.models.llm import create_llm
from byokg.models.retry import RetryPolicy


@pytest.fixture
def no_sleep(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr("byokg.models.retry.sleep", slept.append)
    return slept


# --------------------------------------------------------------------------- bedrock

CONVERSE_OK = {
    "output": {"message": {"role": "assistant", "content": [{"text": "<answers>\nNew Orleans\n</answers>"}]}},
    "stopReason": "end_turn",
    "usage": {"inputTokens": 42, "outputTokens": 7, "totalTokens": 49},
    "metrics": {"latencyMs": 12},
}
MODEL = "anthropic.claude-3-haiku-20240307-v1:0"


@pytest.fixture
def bedrock():
    import boto3
    from botocore.stub import Stubber

    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    stub = Stubber(client)
    stub.activate()
    yield client, stub
    stub.deactivate()


def _expected(prompt, max_tokens=256, temperature=0.2):
    return {
        "modelId": MODEL,
        "messages": [{"role": "user", "content": [{"text": prompt}]}],
        "inferenceConfig": {"maxTokens": max_tokens, "temperature": temperature},
    }


def test_bedrock_success_request_validated(bedrock, no_sleep):
    from byokg.models.bedrock import BedrockLLM

    client, stub = bedrock
    stub.add_response("converse", CONVERSE_OK, _expected("Where?"))
    llm = BedrockLLM(MODEL, client=client, max_tokens=256, temperature=0.2)
    r = llm.complete("Where?")
    assert r.text.startswith("<answers>") and r.prompt_tokens == 42 and r.completion_tokens == 7
    assert r.model == f"bedrock:{MODEL}" and no_sleep == []
    stub.assert_no_pending_responses()


def test_bedrock_throttle_then_success(bedrock, no_sleep):
    from byokg.models.bedrock import BedrockLLM

    client, stub = bedrock
    for _ in range(2):
        stub.add_client_error("converse", service_error_code="ThrottlingException",
                              service_message="Too many requests", http_status_code=429)
    stub.add_response("converse", CONVERSE_OK, _expected("Where?"))
    llm = BedrockLLM(MODEL, client=client, max_tokens=256, temperature=0.2, backoff_base=1.0, backoff_cap=30)
    assert llm.complete("Where?").text
    assert len(no_sleep) == 2 and 0 < no_sleep[0] <= 1.0 and no_sleep[1] <= 2.0
    stub.assert_no_pending_responses()


def test_bedrock_failure_raises_with_code(bedrock, no_sleep, caplog):
    from byokg.models.bedrock import BedrockLLM

    client, stub = bedrock
    stub.add_client_error("converse", service_error_code="AccessDeniedException",
                          service_message="no access to model", http_status_code=403)
    llm = BedrockLLM(MODEL, client=client)
    with caplog.at_level("WARNING", logger="byokg.llm"), pytest.raises(LLMError) as ei:
        llm.complete("Where?")
    assert ei.value.code == "AccessDeniedException" and no_sleep == []
    # the client's message: the status and AWS's code; AWS's own text only in the log
    assert "returned 403 (permission: AccessDeniedException)" in str(ei.value)
    assert "no access" not in str(ei.value) and "no access to model" in caplog.text


def test_bedrock_throttled_forever_gives_up(bedrock, no_sleep):
    from byokg.models.bedrock import BedrockLLM

    client, stub = bedrock
    for _ in range(3):
        stub.add_client_error("converse", service_error_code="ThrottlingException", http_status_code=429)
    llm = BedrockLLM(MODEL, client=client, retries=2)
    with pytest.raises(LLMError, match="after 3 attempts") as ei:
        llm.complete("x")
    assert ei.value.code == "ThrottlingException" and len(no_sleep) == 2


def test_backoff_is_capped_with_full_jitter():
    import random

    pol = RetryPolicy(8, base_s=1.0, cap_s=5.0, rng=random.Random(1))
    per_attempt = [[pol.delay(n) for _ in range(400)] for n in range(8)]
    bounds = [1.0, 2.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0]  # min(cap, base * 2**n)
    for waits, bound in zip(per_attempt, bounds, strict=True):
        assert 0.0 <= min(waits) and max(waits) <= bound
        assert min(waits) < 0.1 * bound and max(waits) > 0.9 * bound  # the whole [0, bound]
    assert len(pol.delays()) == 8


# --------------------------------------------------------------------------- openai-compatible


class _Handler(StubHandler):
    plan: list[int] = []  # status codes to answer before succeeding
    seen: list[dict] = []

    def do_POST(self):
        body = self.read_json()
        type(self).seen.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        if type(self).plan:
            self.send_body(type(self).plan.pop(0), b'{"error": {"message": "nope"}}')
            return
        prompt = body["messages"][-1]["content"]
        reply = {
            "id": "x",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": f"echo: {prompt[:20]}"}}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 3},
        }
        self.send_body(200, json.dumps(reply).encode())


@pytest.fixture
def server():
    _Handler.plan, _Handler.seen = [], []
    srv = LocalServer()
    srv.serve(_Handler)
    srv.start()
    yield srv.server, f"http://127.0.0.1:{srv.port}/v1"
    srv.stop()  # again after a test that stopped it: a no-op


def test_openai_compatible_round_trip(server, monkeypatch):
    _, base = server
    monkeypatch.setenv("OPENAI_BASE_URL", base)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm = create_llm("openai:my-model", temperature=0.3, max_tokens=99)
    r = llm.complete("hello there", system="be brief")
    assert r.text == "echo: hello there" and r.prompt_tokens == 11 and r.completion_tokens == 3
    req = _Handler.seen[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer sk-test"
    assert req["body"]["model"] == "my-model" and req["body"]["max_tokens"] == 99
    assert req["body"]["temperature"] == 0.3
    assert req["body"]["messages"][0] == {"role": "system", "content": "be brief"}


def test_openai_retries_429_and_5xx(server, no_sleep):
    _, base = server
    _Handler.plan = [429, 503]
    llm = create_llm("openai:m", base_url=base, api_key="k")
    assert llm.complete("hi").text == "echo: hi"
    assert len(_Handler.seen) == 3 and len(no_sleep) == 2


def test_openai_client_error_not_retried(server, no_sleep):
    _, base = server
    _Handler.plan = [400]
    llm = create_llm("openai:m", base_url=base, api_key="k")
    with pytest.raises(LLMError) as ei:
        llm.complete("hi")
    assert ei.value.code == "400" and len(_Handler.seen) == 1 and no_sleep == []


def test_openai_unreachable_raises_after_retries(no_sleep):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens here now
    llm = create_llm("openai:m", base_url=f"http://127.0.0.1:{port}/v1", retries=2, timeout=2)
    with pytest.raises(LLMError, match="after 3 attempts") as ei:
        llm.complete("hi")
    assert ei.value.code == "unreachable" and len(no_sleep) == 2


def test_unknown_and_malformed_specs():
    with pytest.raises(ConfigError, match="unknown LLM provider 'nope'.*registered: .*openai"):
        create_llm("nope:model")
    with pytest.raises(ConfigError, match="no provider prefix"):
        create_llm("gpt-4o")
    with pytest.raises(ConfigError, match="names no model"):
        create_llm("openai:")


# --------------------------------------------------------------------------- replay + cache


def test_replay_round_trip_with_server_stopped(server, tmp_path):
    srv, base = server
    cassette = tmp_path / "run.jsonl"
    rec = create_llm(f"replay:{cassette}?record=openai:m", base_url=base, api_key="k")
    first = rec.complete("question one")
    second = rec.complete("question two", system="sys")
    assert first.text == "echo: question one"
    srv.shutdown()  # the endpoint is gone: replay must not need it
    srv.server_close()
    rows = [json.loads(x) for x in cassette.read_text().splitlines()]
    assert [r["checksum"] for r in rows] == [prompt_checksum("question one"), prompt_checksum("question two", "sys")]
    rep = create_llm(f"replay:{cassette}")
    again = rep.complete("question one")
    assert again.text == first.text and again.cached and again.prompt_tokens == 11
    assert rep.complete("question two", system="sys").text == second.text
    with pytest.raises(LLMError) as ei:
        rep.complete("question three")
    msg = str(ei.value)
    assert prompt_checksum("question three") in msg and str(cassette) in msg and ei.value.code == "replay-miss"


def test_replay_with_missing_records_only_what_the_cassette_lacks(server, tmp_path):
    _, base = server
    cassette = tmp_path / "run.jsonl"
    create_llm(f"replay:{cassette}?record=openai:m", base_url=base, api_key="k").complete("one")
    _Handler.seen.clear()
    grow = create_llm(f"replay:{cassette}?record=openai:m&missing=1", base_url=base, api_key="k")
    assert grow.complete("one").cached  # replayed: the endpoint is not asked again
    assert not grow.complete("two").cached
    assert len(_Handler.seen) == 1
    rows = [json.loads(x) for x in cassette.read_text().splitlines()]
    assert [r["checksum"] for r in rows] == [prompt_checksum("one"), prompt_checksum("two")]
    # without missing=1, recording asks the model for every prompt (and appends it again)
    again = create_llm(f"replay:{cassette}?record=openai:m", base_url=base, api_key="k")
    assert not again.complete("one").cached and len(_Handler.seen) == 2
    with pytest.raises(ConfigError, match="missing=1"):
        create_llm(f"replay:{cassette}?record=openai:m&missing=maybe", base_url=base,
                   api_key="k")


def test_replay_missing_or_bad_cassette(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        create_llm(f"replay:{tmp_path / 'none.jsonl'}")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"checksum": "x", "response": "ok"}\nnot json\n')
    from byokg.errors import InputError

    with pytest.raises(InputError, match=r"bad.jsonl:2"):
        create_llm(f"replay:{bad}")


def test_response_cache_keyed_by_model_and_prompt(server, tmp_path):
    _, base = server
    llm = create_llm("openai:m", base_url=base, api_key="k", cache=str(tmp_path / "cache"))
    a = llm.complete("same prompt")
    b = llm.complete("same prompt")
    c = llm.complete("other prompt")
    assert not a.cached and b.cached and b.text == a.text and not c.cached
    assert len(_Handler.seen) == 2 and llm.hits == 1 and llm.misses == 2
    other_model = create_llm("openai:m2", base_url=base, api_key="k", cache=str(tmp_path / "cache"))
    assert not other_model.complete("same prompt").cached


# --------------------------------------------------------------------------- reply forms


class _FormHandler(BaseHTTPRequestHandler):
    """Answers with ``reply`` (a dict merged into a chat.completion) or, with ``drip``, sends a
    valid reply one byte every ``drip`` seconds; ``hang`` never answers."""

    reply: dict = {}
    drip: float | None = None
    hang = False
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802 - http.server API
        self.rfile.read(int(self.headers["Content-Length"]))
        if type(self).hang:
            time.sleep(30)
            return
        body = {"id": "x", "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]}
        body.update(type(self).reply)
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if type(self).drip is None:
            self.wfile.write(data)
            return
        for b in data:
            try:
                self.wfile.write(bytes([b]))
                self.wfile.flush()
            except OSError:
                return
            time.sleep(type(self).drip)


@pytest.fixture
def form_server():
    _FormHandler.reply, _FormHandler.drip, _FormHandler.hang = {}, None, False
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _FormHandler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    finally:
        srv.shutdown()
        srv.server_close()


def _message(content):
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}


def test_content_as_a_list_of_parts_is_joined(form_server):
    _FormHandler.reply = _message([{"type": "text", "text": "<answers>\nNew "},
                                   {"type": "text", "text": "Orleans\n</answers>"},
                                   {"type": "image_url", "image_url": {"url": "x"}}, " tail"])
    r = create_llm("openai:m", base_url=form_server, api_key="k").complete("q")
    assert r.text == "<answers>\nNew Orleans\n</answers> tail"
    assert any("non-text content part" in w and "image_url" in w for w in r.warnings)
    from byokg.plugins.kglinker.prompt import parse_reply

    assert parse_reply(r.text).draft_answers == ("New Orleans",)
    _FormHandler.reply = _message(None)  # no content at all: an empty reply, not a crash
    assert create_llm("openai:m", base_url=form_server, api_key="k").complete("q").text == ""


@pytest.mark.parametrize(("usage", "tokens", "warned"), [
    ({"prompt_tokens": 5, "completion_tokens": 2}, (5, 2), 0),
    ({"prompt_tokens": 5.0, "completion_tokens": "2"}, (5, 0), 1),
    ({"prompt_tokens": [1, 2], "completion_tokens": -3}, (0, 0), 2),
    ({"prompt_tokens": True}, (0, 0), 1),
    ([5, 2], (0, 0), 1),
    ("lots", (0, 0), 1),
    (None, (0, 0), 0),
])
def test_usage_is_optional_metadata(form_server, usage, tokens, warned):
    _FormHandler.reply = {"usage": usage}
    r = create_llm("openai:m", base_url=form_server, api_key="k").complete("q")
    assert r.text == "ok" and (r.prompt_tokens, r.completion_tokens) == tokens
    assert len(r.warnings) == warned, r.warnings
    assert all("usage" in w for w in r.warnings)


def test_wrongly_nested_tags_never_reach_an_answer(form_server):
    from byokg.plugins.kglinker.prompt import parse_reply

    replies = {
        "<answers>\nParis</entities>\n</answers>": ("Paris",),
        "<answers>\n- Paris</entities>\n- Lyon\n</answers>": ("Paris", "Lyon"),
        "<entities>\nParis</answers>\n</entities>": (),
        "<answers><answer>Paris</answer></answers>": ("Paris",),
        "<answers>\n</relation-paths>Nice<cypher>\n</answers>": ("Nice",),
    }
    llm = create_llm("openai:m", base_url=form_server, api_key="k")
    for text, answers in replies.items():
        _FormHandler.reply = _message(text)
        got = parse_reply(llm.complete("q").text)
        assert got.draft_answers == answers, (text, got.draft_answers)
        for item in got.draft_answers + got.entities:
            assert "<" not in item and ">" not in item, (text, item)


def test_a_slow_drip_reply_cannot_stretch_the_deadline(form_server, no_sleep):
    _FormHandler.drip = 0.2  # ~150 bytes: the whole reply would take ~30 s
    llm = create_llm("openai:m", base_url=form_server, api_key="k", timeout_s=1.0, budget_s=1.5,
                     retries=3)
    t0 = time.monotonic()
    with pytest.raises(LLMError) as ei:
        llm.complete("q")
    spent = time.monotonic() - t0
    assert spent < 3.0, spent  # the budget (1.5 s) bounds the whole call, drip or not
    assert ei.value.code == "timeout" and "budget 1.5 s" in str(ei.value)
    assert "budget_s" in str(ei.value)  # the message names the setting to change


def test_a_silent_endpoint_is_bounded_by_the_budget(form_server):
    _FormHandler.hang = True
    llm = create_llm("openai:m", base_url=form_server, api_key="k", timeout_s=0.5, budget_s=1.2,
                     retries=10, backoff_base=0.05, backoff_cap=0.1)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match=r"failed after \d+ attempts") as ei:
        llm.complete("q")
    assert time.monotonic() - t0 < 2.5 and ei.value.code == "timeout"


def test_defaults_do_not_wait_ten_minutes():
    from byokg.models.base import DEFAULT_BUDGET_S
    from byokg.models.openai import OpenAICompatLLM

    llm = OpenAICompatLLM("m", base_url="http://127.0.0.1:9/v1")
    assert llm.timeout_s == 60 and llm.budget_s == DEFAULT_BUDGET_S <= 180
    assert OpenAICompatLLM("m", timeout=5).timeout_s == 5  # the older option name still works
    with pytest.raises(ConfigError, match="positive"):
        OpenAICompatLLM("m", budget_s=0)


def test_replay_recording_passes_the_deadline_through(form_server, tmp_path, no_sleep):
    _FormHandler.drip = 0.2
    llm = create_llm(f"replay:{tmp_path / 'c.jsonl'}?record=openai:m", base_url=form_server,
                     api_key="k", timeout_s=0.6, budget_s=1.0)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match="budget 1 s"):
        llm.complete("q")
    assert time.monotonic() - t0 < 2.5
    assert not (tmp_path / "c.jsonl").exists() or not (tmp_path / "c.jsonl").read_text()


def test_bedrock_deadline_and_usage(bedrock, no_sleep):
    from byokg.models.bedrock import BedrockLLM

    class Slow:  # a Converse endpoint that takes 20 s to answer
        def converse(self, **req):
            time.sleep(20)

    llm = BedrockLLM(MODEL, client=Slow(), timeout_s=0.3, budget_s=0.8, retries=5)
    t0 = time.monotonic()
    with pytest.raises(LLMError, match="attempts") as ei:
        llm.complete("Where?")
    assert time.monotonic() - t0 < 2.0 and ei.value.code == "timeout"

    # Converse content is a list of blocks: text blocks joined, others (reasoning) skipped.
    # (The Stubber validates replies against the API model, so bad usage values cannot be
    # sent here; token_counts is the same code as for the OpenAI-compatible provider.)
    client, stub = bedrock
    odd = dict(CONVERSE_OK)
    odd["output"] = {"message": {"role": "assistant", "content": [
        {"reasoningContent": {"reasoningText": {"text": "hmm"}}}, {"text": "<answers>\nX\n"},
        {"text": "</answers>"}]}}
    stub.add_response("converse", odd, _expected("Where?", 1024, 0.0))
    r = BedrockLLM(MODEL, client=client).complete("Where?")
    assert r.text == "<answers>\nX\n</answers>" and r.prompt_tokens == 42
    assert any("non-text content part" in w for w in r.warnings)


def test_a_provider_without_its_model_says_what_the_spec_needs():
    """Built directly (create_llm refuses an empty spec before): the message names the
    provider, what its spec needs and an example."""
    from byokg.models.bedrock import BedrockLLM
    from byokg.models.openai import OpenAICompatLLM
    from byokg.models.replay import create_replay

    with pytest.raises(ConfigError, match=r"^openai: spec needs a model name, e\.g\. openai:"):
        OpenAICompatLLM("")
    with pytest.raises(ConfigError, match=r"^bedrock: spec needs a model id, e\.g\. bedrock:"):
        BedrockLLM("")
    with pytest.raises(ConfigError, match=r"^replay: spec needs a cassette file, e\.g\. replay:"):
        create_replay("?record=openai:gpt-4o-mini")
