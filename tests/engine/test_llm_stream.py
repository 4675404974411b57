"""Token streaming from the providers, replies cut while reading, provider errors summarised.

OpenAI-compatible: a local server that really streams (HTTP/1.1 chunked ``text/event-stream``,
one flushed event per piece; ``tests/llm_stub.py``). Bedrock: boto3 pointed at a local endpoint
that speaks the service's wire format (``vnd.amazon.eventstream`` frames with their CRCs;
``tests/bedrock_stub.py``), so botocore signs, sends and parses as it would from AWS (the
Stubber cannot stub an event stream: it validates ``stream`` as one dict).
"""

from __future__ import annotations

import json
import threading
import time
import tracemalloc
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer

import bedrock_stub
import llm_stub
import pytest
from http_stub import StubHandler
from http_stub import serving

from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import LLMError
from byokg.models.llm import create_llm

REPLY = "<answers>\nNew Orleans\n</answers>"
MODEL = "anthropic.claude-3-haiku-20240307-v1:0"


@pytest.fixture
def no_sleep(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr("byokg.models.retry.sleep", slept.append)
    return slept


@pytest.fixture
def chat():
    stubs = []

    def make(reply=lambda p, b: REPLY, **kw):
        stubs.append(llm_stub.ChatStub(reply, **kw).start())
        return stubs[-1]

    yield make
    for s in stubs:
        s.stop()


def _timed(sink: list):
    t0 = time.monotonic()
    return lambda piece: sink.append((time.monotonic() - t0, piece))


# --------------------------------------------------------------------------- openai-compatible


def test_openai_streams_pieces_as_the_server_sends_them(chat):
    stub = chat(piece=3, delay=0.05)
    llm = create_llm("openai:m", base_url=stub.url, api_key="k")
    got: list = []
    t0 = time.monotonic()
    r = llm.complete("Where was Satchmo born?", on_token=_timed(got))
    total = time.monotonic() - t0
    pieces = [p for _, p in got]
    assert pieces == [REPLY[i:i + 3] for i in range(0, len(REPLY), 3)]
    assert r.text == REPLY and "".join(pieces) == r.text
    # the first piece arrived while the server was still sending (12 events, 50 ms apart)
    assert got[0][0] < total / 2 and got[-1][0] - got[0][0] > 0.3
    assert stub.streamed == [True]
    # usage from the last chunk (stream_options.include_usage asked for it)
    assert (r.prompt_tokens, r.completion_tokens) == (len("Where was Satchmo born?") // 4, 5)
    assert r.warnings == []


def test_openai_stream_without_usage_is_estimated_by_the_stage(chat):
    from byokg.language.text import count_tokens
    from byokg.pipeline.stages import complete
    from byokg.pipeline.tools import StageOutput

    stub = chat(stream_usage=False)
    llm = create_llm("openai:m", base_url=stub.url, api_key="k")
    out = StageOutput()
    pieces: list[str] = []
    text = complete(llm, "a prompt of some length", purpose="answer", out=out,
                    on_token=pieces.append)
    assert text == REPLY and "".join(pieces) == REPLY and len(pieces) > 3
    call = out.llm_calls[0]  # recorded as for a whole reply: tokens (estimated) and seconds
    assert call.prompt_tokens == count_tokens("a prompt of some length")
    assert call.completion_tokens == count_tokens(REPLY) and call.seconds > 0


def test_openai_plain_json_to_a_stream_request_is_one_piece(chat):
    stub = chat(lambda p, b: {"choices": [{"index": 0, "message": {"role": "assistant",
                                                                    "content": REPLY}}]})
    llm = create_llm("openai:m", base_url=stub.url, api_key="k")
    pieces: list[str] = []
    assert llm.complete("q", on_token=pieces.append).text == REPLY
    assert pieces == [REPLY] and stub.streamed == [True]


def test_openai_server_that_refuses_to_stream_is_asked_whole_once(chat, no_sleep):
    stub = chat(refuse_stream=True)
    llm = create_llm("openai:m", base_url=stub.url, api_key="k")
    pieces: list[str] = []
    r = llm.complete("q", on_token=pieces.append)
    assert r.text == REPLY and pieces == [REPLY]
    assert any("refused a streamed request (HTTP 400)" in w for w in r.warnings)
    llm.complete("q2", on_token=pieces.append)
    assert stub.streamed == [True, False, False]  # not asked to stream again
    # stream=false never asks
    off = create_llm("openai:m", base_url=stub.url, api_key="k", stream=False)
    off.complete("q3", on_token=pieces.append)
    assert stub.streamed[-1] is False and len(stub.streamed) == 4


def test_openai_stream_that_breaks_off_is_not_retried(chat, no_sleep):
    stub = chat(piece=2, break_after=5)
    llm = create_llm("openai:m", base_url=stub.url, api_key="k", retries=3)
    pieces: list[str] = []
    with pytest.raises(LLMError, match=r"broke off after 8 characters") as ei:
        llm.complete("q", on_token=pieces.append)
    assert "".join(pieces) == REPLY[:8]
    assert len(stub.prompts) == 1 and no_sleep == []  # the pieces cannot be taken back
    assert ei.value.code == "unreachable"


def test_openai_stream_is_cut_at_max_reply_chars(chat):
    long = "x" * 5000
    stub = chat(lambda p, b: long, piece=100)
    llm = create_llm("openai:m", base_url=stub.url, api_key="k", max_reply_chars=1024)
    pieces: list[str] = []
    r = llm.complete("q", on_token=pieces.append)
    assert r.text == long[:1024] and "".join(pieces) == r.text
    assert any("cut at 1,024 characters while reading" in w for w in r.warnings)
    with pytest.raises(ConfigError, match="max_reply_chars"):
        create_llm("openai:m", base_url=stub.url, max_reply_chars=0)


# --------------------------------------------------------------------------- cut while reading


class _HugeReply(BaseHTTPRequestHandler):
    """Sends a 300 MiB reply (JSON, or a stream of events) lazily, 1 MiB at a time, and counts
    the bytes the client took before it hung up."""

    protocol_version = "HTTP/1.1"
    sent = 0
    stream = False
    SIZE = 300 * 1024 * 1024

    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802 - http.server API
        self.rfile.read(int(self.headers["Content-Length"]))
        block = b"a" * (1024 * 1024)
        if type(self).stream:
            event = b'data: {"choices": [{"index": 0, "delta": {"content": "' + block[:65000] + \
                b'"}}]}\n\n'
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()  # HTTP/1.1 without a length: the body ends when we close
            parts, size = iter(lambda: event, None), self.SIZE
        else:
            head = b'{"id": "x", "choices": [{"index": 0, "message": {"role": "assistant", ' \
                   b'"content": "'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(self.SIZE))
            self.end_headers()
            self.wfile.write(head)
            parts, size = iter(lambda: block, None), self.SIZE - len(head)
        try:
            while size > 0:
                data = next(parts)[:size]
                self.wfile.write(data)
                type(self).sent += len(data)
                size -= len(data)
        except OSError:
            pass
        self.close_connection = True


@pytest.fixture
def huge():
    _HugeReply.sent, _HugeReply.stream = 0, False
    with serving(_HugeReply) as url:
        yield f"{url}/v1"


@pytest.mark.parametrize("stream", [False, True])
def test_a_300_mib_reply_is_never_read_whole(huge, stream):
    _HugeReply.stream = stream
    llm = create_llm("openai:m", base_url=huge, api_key="k", timeout_s=60)
    pieces: list[str] = []
    tracemalloc.start()
    try:
        t0 = time.monotonic()
        r = (llm.complete("q", on_token=pieces.append) if stream else llm.complete("q"))
        spent = time.monotonic() - t0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 1024 * 1024, f"peak {peak / 2**20:.0f} MiB while reading"
    assert _HugeReply.sent < 100 * 1024 * 1024  # the client stopped reading long before 300 MiB
    assert r.text and set(r.text) == {"a"} and len(r.text) <= 200_000
    if stream:
        assert len(r.text) == 200_000 and "".join(pieces) == r.text
        assert any("cut at 200,000 characters while reading" in w for w in r.warnings)
    else:
        assert len(r.text) == 200_000
        assert any("reading stopped there (llm_options max_reply_bytes)" in w for w in r.warnings)
    assert spent < 20


def test_a_cut_reply_without_readable_text_is_a_clear_error(huge):
    class NoContent(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(10 * 1024 * 1024))
            self.end_headers()
            try:
                self.wfile.write(b'{"padding": "' + b"z" * (10 * 1024 * 1024 - 14))
            except OSError:
                pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), NoContent)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        llm = create_llm("openai:m", base_url=f"http://127.0.0.1:{srv.server_address[1]}/v1",
                         api_key="k", max_reply_bytes=1024 * 1024)
        with pytest.raises(LLMError, match=r"over 1,048,576 bytes \(llm_options "
                                           r"max_reply_bytes\)") as ei:
            llm.complete("q")
        assert ei.value.code == "too-large"
    finally:
        srv.shutdown()
        srv.server_close()


# --------------------------------------------------------------------------- error summaries

KEY = "sk-live-abcdef1234567890XYZ"
LEAKY_BODY = json.dumps({"error": {
    "message": f"Incorrect API key provided: {KEY}. Request to "
               "https://svc:hunter2@gateway.internal:8443/v1/chat with "
               f"Authorization: Bearer {KEY} refused",
    "type": "invalid_request_error", "code": "invalid_api_key"}}).encode()


class _Leaky(StubHandler):
    status = 401

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_body(type(self).status, LEAKY_BODY)


@pytest.fixture
def leaky():
    _Leaky.status = 401
    with serving(_Leaky) as url:
        yield f"{url}/v1"


@pytest.mark.parametrize("stream", [False, True])
def test_provider_error_body_is_summarised_and_logged_redacted(leaky, caplog, no_sleep, stream):
    llm = create_llm("openai:gpt-x", base_url=leaky, api_key=KEY)
    with caplog.at_level("WARNING", logger="byokg.llm"), pytest.raises(LLMError) as ei:
        llm.complete("q", on_token=(lambda p: None) if stream else None)
    msg = str(ei.value)
    assert msg.startswith("openai:gpt-x: LLM provider returned 401 (authentication: "
                          "invalid_api_key)"), msg
    for secret in (KEY, "hunter2", "gateway.internal", "Incorrect API key"):
        assert secret not in msg
    log = caplog.text
    assert "Incorrect API key provided: ***" in log and "https://svc:***@gateway.internal" in log and "hunter2" not in log
    assert "Bearer ***" in log and KEY not in log and "hunter2" not in log
    assert ei.value.code == "401"


def test_retried_5xx_error_keeps_only_the_summary(leaky, no_sleep):
    _Leaky.status = 503
    llm = create_llm("openai:gpt-x", base_url=leaky, api_key=KEY, retries=2)
    with pytest.raises(LLMError, match=r"after 3 attempts") as ei:
        llm.complete("q")
    assert "LLM provider returned 503 (unavailable: invalid_api_key)" in str(ei.value)
    assert KEY not in str(ei.value) and "hunter2" not in str(ei.value)


def test_redact_covers_keys_headers_and_url_credentials():
    from byokg.models.provider_errors import redact
    from byokg.models.provider_errors import redact_url
    from byokg.models.provider_errors import summary

    text = (f"key={KEY}&x=1 api_key: abc123secret Authorization: Basic dXNlcjpwYXNz "
            "postgres://u:p4ss@db.internal:5432/x AKIAABCDEFGHIJKLMNOP my-own-secret-value")
    out = redact(text, ["my-own-secret-value"])
    for secret in (KEY, "abc123secret", "dXNlcjpwYXNz", "p4ss", "AKIAABCDEFGHIJKLMNOP",
                   "my-own-secret-value"):
        assert secret not in out, (secret, out)
    assert "db.internal:5432" in out  # the host stays: only the credentials go
    assert redact_url("https://u:pw@gw.internal:8443/v1/chat?key=abc") == \
        "https://gw.internal:8443/v1/chat?…"
    assert summary(429) == "LLM provider returned 429 (rate limit)"
    assert summary(404, "model_not_found") == "LLM provider returned 404 (not found: " \
        "model_not_found)"
    assert summary(401, "sk no spaces allowed") == "LLM provider returned 401 (authentication)"


# --------------------------------------------------------------------------- bedrock


@pytest.fixture
def bedrock_endpoint():
    boto3 = pytest.importorskip("boto3")
    stub = bedrock_stub.BedrockStub(delay=0.03).start()
    client = boto3.client("bedrock-runtime", endpoint_url=stub.url, region_name="us-east-1",
                          aws_access_key_id="AKIATESTTESTTESTTEST",
                          aws_secret_access_key="testing")
    yield stub, client
    stub.stop()


def test_bedrock_converse_stream_sends_pieces_as_they_arrive(bedrock_endpoint, no_sleep):
    from byokg.models.bedrock import BedrockLLM

    stub, client = bedrock_endpoint
    stub.plan.append(bedrock_stub.BedrockStub.text_stream(REPLY, piece=5))
    llm = BedrockLLM(MODEL, client=client, max_tokens=256, temperature=0.2)
    got: list = []
    t0 = time.monotonic()
    r = llm.complete("Where?", system="be brief", on_token=_timed(got))
    total = time.monotonic() - t0
    assert [p for _, p in got] == [REPLY[i:i + 5] for i in range(0, len(REPLY), 5)]
    assert r.text == REPLY and (r.prompt_tokens, r.completion_tokens) == (42, 7)
    assert got[0][0] < total / 2  # the first piece came while the rest was on its way
    req = stub.seen[0]
    assert req["path"] == "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream"
    assert req["body"]["messages"] == [{"role": "user", "content": [{"text": "Where?"}]}]
    assert req["body"]["system"] == [{"text": "be brief"}]
    assert req["body"]["inferenceConfig"] == {"maxTokens": 256, "temperature": 0.2}
    assert req["auth"].startswith("AWS4-HMAC-SHA256")  # botocore signed it as for AWS


def test_bedrock_stream_errors(bedrock_endpoint, no_sleep, caplog):
    from byokg.models.bedrock import BedrockLLM

    stub, client = bedrock_endpoint
    llm = BedrockLLM(MODEL, client=client, retries=2)
    # refused before the stream: the status and AWS's code; AWS's text to the log only
    stub.plan.append((403, "AccessDeniedException",
                      "User: arn:aws:iam::123456789012:user/ops is not authorized"))
    with caplog.at_level("WARNING", logger="byokg.llm"), pytest.raises(LLMError) as ei:
        llm.complete("q", on_token=lambda p: None)
    assert "LLM provider returned 403 (permission: AccessDeniedException)" in str(ei.value)
    assert "123456789012" not in str(ei.value) and "123456789012" in caplog.text
    assert ei.value.code == "AccessDeniedException"
    # throttled inside the stream before any text: retried
    stub.plan += [[bedrock_stub.exception("throttlingException", "slow down")],
                  bedrock_stub.BedrockStub.text_stream("ok")]
    pieces: list[str] = []
    assert llm.complete("q", on_token=pieces.append).text == "ok" and pieces == ["ok"]
    assert len(no_sleep) == 1
    # an error after text went out: not retried, said plainly
    events = bedrock_stub.BedrockStub.text_stream(REPLY, piece=4)[:4]
    stub.plan.append(events + [bedrock_stub.exception("modelStreamErrorException", "boom")])
    pieces.clear()
    with pytest.raises(LLMError, match="broke off after 12 characters"):
        llm.complete("q", on_token=pieces.append)
    assert "".join(pieces) == REPLY[:12] and len(no_sleep) == 1
    # a stream that ends without messageStop is incomplete
    stub.plan.append(bedrock_stub.BedrockStub.text_stream("half", stop=False, usage=None))
    with pytest.raises(LLMError, match="ended before messageStop"):
        llm.complete("q", on_token=lambda p: None)


def test_bedrock_stream_cut_and_deadline(bedrock_endpoint, no_sleep):
    from byokg.models.bedrock import BedrockLLM

    stub, client = bedrock_endpoint
    stub.plan.append(bedrock_stub.BedrockStub.text_stream("y" * 3000, piece=500))
    llm = BedrockLLM(MODEL, client=client, max_reply_chars=1200)
    r = llm.complete("q", on_token=lambda p: None)
    assert r.text == "y" * 1200 and any("cut at 1,200" in w for w in r.warnings)
    # a stream slower than the deadline: the call ends at the deadline, not with the stream
    stub.delay = 0.5
    stub.plan.append(bedrock_stub.BedrockStub.text_stream("z" * 40, piece=2))
    slow = BedrockLLM(MODEL, client=client, timeout_s=1.0, budget_s=1.5, retries=0)
    t0 = time.monotonic()
    with pytest.raises(LLMError) as ei:
        slow.complete("q", on_token=lambda p: None)
    assert time.monotonic() - t0 < 3.0 and ei.value.code == "timeout"


# --------------------------------------------------------------------------- replay, cache, fallback


def test_replay_records_and_replays_the_stream(chat, tmp_path):
    stub = chat(piece=6)
    cassette = tmp_path / "run.jsonl"
    rec = create_llm(f"replay:{cassette}?record=openai:m", base_url=stub.url, api_key="k")
    recorded: list[str] = []
    rec.complete("q1", on_token=recorded.append)
    rec.complete("q2")  # a call without on_token records no pieces
    stub.stop()
    rows = [json.loads(x) for x in cassette.read_text().splitlines()]
    assert rows[0]["chunks"] == recorded and len(recorded) > 3 and "chunks" not in rows[1]
    rep = create_llm(f"replay:{cassette}")
    replayed: list[str] = []
    assert rep.complete("q1", on_token=replayed.append).cached
    assert replayed == recorded  # the same pieces, as recorded
    replayed.clear()
    rep.complete("q2", on_token=replayed.append)
    assert replayed == [REPLY]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"checksum": "x", "response": "ab", "chunks": ["a", "c"]}) + "\n")
    with pytest.raises(InputError, match=r"bad.jsonl:1 \(field 'chunks'\)"):
        create_llm(f"replay:{bad}")


def test_cache_miss_streams_and_hit_is_one_piece(chat, tmp_path):
    stub = chat(piece=5)
    llm = create_llm("openai:m", base_url=stub.url, api_key="k", cache=str(tmp_path / "c"))
    first: list[str] = []
    second: list[str] = []
    assert not llm.complete("q", on_token=first.append).cached
    assert llm.complete("q", on_token=second.append).cached
    assert len(first) > 3 and "".join(first) == REPLY and second == [REPLY]


def test_a_model_that_does_not_stream_gives_one_piece():
    from byokg.models.base import complete_streaming
    from byokg.testing import ScriptedLLM

    llm = ScriptedLLM(lambda p, n: "whole reply")
    pieces: list[str] = []
    assert complete_streaming(llm, "q", pieces.append).text == "whole reply"
    assert pieces == ["whole reply"]


def test_sse_decoder_is_indifferent_to_chunk_boundaries():
    from byokg.models.sse import SSEDecoder
    from byokg.models.sse import SSEError

    raw = (b": a comment\r\nevent: delta\r\ndata: {\"a\": 1}\r\n\r\n"
           b"data: line one\rdata: line two\r\rdata: caf\xc3\xa9\n\n"
           b"data:no-space\n\ndata: [DONE]\n\n")
    whole = SSEDecoder().feed(raw)
    assert whole == [("delta", '{"a": 1}'), ("message", "line one\nline two"),
                     ("message", "café"), ("message", "no-space"), ("message", "[DONE]")]
    one_by_one = SSEDecoder()
    got = [ev for i in range(len(raw)) for ev in one_by_one.feed(raw[i:i + 1])]
    assert got == whole  # a CRLF or a UTF-8 character split between chunks changes nothing
    tail = SSEDecoder()
    assert tail.feed(b"data: last") == [] and tail.close() == [("message", "last")]
    with pytest.raises(SSEError, match="over 1,024 bytes"):
        SSEDecoder(max_line=1024).feed(b"data: " + b"x" * 2000)
