"""A local OpenAI-compatible chat-completions server for tests (stand-in for a hosted LLM).

    stub = ChatStub(lambda prompt, body: "<answers>\\nParis\\n</answers>").start()
    os.environ["OPENAI_BASE_URL"] = stub.url
    ...
    stub.stop()

``reply(prompt, body)`` returns the message content (a string) or a dict merged into the
chat.completion object (to send odd ``content`` or ``usage`` forms). Every prompt (all message
contents joined) is kept in ``stub.prompts``. tests/ is not a package: test modules load this
file by path (``importlib.util.spec_from_file_location``).

A request with ``"stream": true`` and a string reply is answered as OpenAI streams: HTTP/1.1
chunked ``text/event-stream``, one ``chat.completion.chunk`` event per ``piece`` characters
(``delay`` seconds apart, each flushed), a final chunk with ``finish_reason``, the usage chunk
when ``stream_options.include_usage`` asks for it (and ``stream_usage`` allows), then
``data: [DONE]`` (``refuse_stream``: a 400 instead; ``break_after=N``: the connection closes
after N events). ``stub.streamed`` records per request whether it asked to stream; a client
that hangs up mid-stream is counted in ``stub.hung_up``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[str, dict], "str | dict"]


class ChatStub:
    def __init__(self, reply: Reply, *, piece: int = 4, delay: float = 0.0,
                 stream_usage: bool = True, refuse_stream: bool = False,
                 break_after: int | None = None) -> None:
        self.reply = reply
        self.piece, self.delay, self.stream_usage = piece, delay, stream_usage
        self.refuse_stream = refuse_stream  # answer 400 to a request that asks to stream
        self.break_after = break_after  # hang up after this many events of a stream
        self.prompts: list[str] = []
        self.streamed: list[bool] = []
        self.chunks_sent = 0
        self.hung_up = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def handle_one_request(self):
                try:
                    super().handle_one_request()
                except OSError:  # a client that hung up (or reset) between requests
                    self.close_connection = True

            def do_POST(self):  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                prompt = "\n".join(str(m.get("content")) for m in body.get("messages", []))
                stub.prompts.append(prompt)
                stub.streamed.append(bool(body.get("stream")))
                if body.get("stream") and stub.refuse_stream:
                    raw = b'{"error": {"message": "stream_options: unknown field", "type": ' \
                          b'"invalid_request_error"}}'
                    self.send_response(400)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)
                    return
                out = stub.reply(prompt, body)
                usage = {"prompt_tokens": len(prompt) // 4, "completion_tokens": 5}
                if body.get("stream") and isinstance(out, str):
                    self._stream(body, out, usage)
                    return
                data = {"id": "x", "object": "chat.completion", "model": body.get("model"),
                        "choices": [{"index": 0, "finish_reason": "stop", "message": {
                            "role": "assistant", "content": out}}],
                        "usage": usage}
                if isinstance(out, dict):
                    data["choices"][0]["message"]["content"] = None
                    data.update(out)
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _stream(self, body: dict, text: str, usage: dict) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                base = {"id": "x", "object": "chat.completion.chunk", "model": body.get("model")}
                events = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant",
                                                                      "content": ""}}]}]
                events += [{**base, "choices": [{"index": 0, "delta": {
                    "content": text[i:i + stub.piece]}, "finish_reason": None}]}
                    for i in range(0, len(text), stub.piece)]
                events.append({**base, "choices": [{"index": 0, "delta": {},
                                                    "finish_reason": "stop"}]})
                if stub.stream_usage and (body.get("stream_options") or {}).get("include_usage"):
                    events.append({**base, "choices": [], "usage": usage})
                try:
                    for n, ev in enumerate(events):
                        if n == stub.break_after:
                            self.close_connection = True
                            return  # no end chunk, no [DONE]: the connection just closes
                        self._chunk(f"data: {json.dumps(ev)}\n\n".encode())
                        stub.chunks_sent += 1
                        if stub.delay:
                            time.sleep(stub.delay)
                    self._chunk(b"data: [DONE]\n\n")
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except OSError:  # the client hung up
                    stub.hung_up += 1
                    self.close_connection = True

            def _chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def start(self) -> ChatStub:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
