"""LLM providers: Bedrock (botocore Stubber), OpenAI-compatible (local HTTP server), replay, cache."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from byokg.errors import ConfigError, LLMError
from byokg.llm import backoff_delays, create_llm
from byokg.models import prompt_checksum


@pytest.fixture
def no_sleep(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr("byokg.llm.sleep", slept.append)
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
    from byokg.llm.bedrock import BedrockLLM

    client, stub = bedrock
    stub.add_response("converse", CONVERSE_OK, _expected("Where?"))
    llm = BedrockLLM(MODEL, client=client, max_tokens=256, temperature=0.2)
    r = llm.complete("Where?")
    assert r.text.startswith("<answers>") and r.prompt_tokens == 42 and r.completion_tokens == 7
    assert r.model == f"bedrock:{MODEL}" and no_sleep == []
    stub.assert_no_pending_responses()


def test_bedrock_throttle_then_success(bedrock, no_sleep):
    from byokg.llm.bedrock import BedrockLLM

    client, stub = bedrock
    for _ in range(2):
        stub.add_client_error("converse", service_error_code="ThrottlingException",
                              service_message="Too many requests", http_status_code=429)
    stub.add_response("converse", CONVERSE_OK, _expected("Where?"))
    llm = BedrockLLM(MODEL, client=client, max_tokens=256, temperature=0.2, backoff_base=1.0, backoff_cap=30)
    assert llm.complete("Where?").text
    assert len(no_sleep) == 2 and 0 < no_sleep[0] <= 1.0 and no_sleep[1] <= 2.0
    stub.assert_no_pending_responses()


def test_bedrock_failure_raises_with_code(bedrock, no_sleep):
    from byokg.llm.bedrock import BedrockLLM

    client, stub = bedrock
    stub.add_client_error("converse", service_error_code="AccessDeniedException",
                          service_message="no access to model", http_status_code=403)
    llm = BedrockLLM(MODEL, client=client)
    with pytest.raises(LLMError) as ei:
        llm.complete("Where?")
    assert ei.value.code == "AccessDeniedException" and "no access" in str(ei.value) and no_sleep == []


def test_bedrock_throttled_forever_gives_up(bedrock, no_sleep):
    from byokg.llm.bedrock import BedrockLLM

    client, stub = bedrock
    for _ in range(3):
        stub.add_client_error("converse", service_error_code="ThrottlingException", http_status_code=429)
    llm = BedrockLLM(MODEL, client=client, retries=2)
    with pytest.raises(LLMError, match="after 3 attempts") as ei:
        llm.complete("x")
    assert ei.value.code == "ThrottlingException" and len(no_sleep) == 2


def test_backoff_is_capped_with_jitter():
    d = backoff_delays(8, base=1.0, cap=5.0, rng=lambda: 1.0)
    assert d[:3] == [1.0, 2.0, 4.0] and max(d) == 5.0
    lo = backoff_delays(3, base=1.0, cap=5.0, rng=lambda: 0.0)
    assert lo == [0.5, 1.0, 2.0]


# --------------------------------------------------------------------------- openai-compatible


class _Handler(BaseHTTPRequestHandler):
    plan: list[int] = []  # status codes to answer before succeeding
    seen: list[dict] = []

    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        if type(self).plan:
            code = type(self).plan.pop(0)
            self.send_response(code)
            self.end_headers()
            self.wfile.write(b'{"error": {"message": "nope"}}')
            return
        prompt = body["messages"][-1]["content"]
        reply = {
            "id": "x",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": f"echo: {prompt[:20]}"}}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 3},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def server():
    _Handler.plan, _Handler.seen = [], []
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield srv, f"http://127.0.0.1:{srv.server_address[1]}/v1"
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)


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
