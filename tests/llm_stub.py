"""A local OpenAI-compatible chat-completions server for tests (stand-in for a hosted LLM).

    stub = ChatStub(lambda prompt, body: "<answers>\\nParis\\n</answers>").start()
    os.environ["OPENAI_BASE_URL"] = stub.url
    ...
    stub.stop()

``reply(prompt, body)`` returns the message content (a string) or a dict merged into the
chat.completion object (to send odd ``content`` or ``usage`` forms). Every prompt (all message
contents joined) is kept in ``stub.prompts``. Test modules import it as ``llm_stub`` (tests/ is
on the path through its conftest).

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
import time
from collections.abc import Callable

from http_stub import LocalServer
from http_stub import StubHandler

Reply = Callable[[str, dict], "str | dict"]

# A tiny graph and the replies a careful model gives on it: the KG-Linker's plan, then the answer.
ALMA_TRIPLETS = [
    ("Quillon Vale", "HAS_ALMA_MATER", "Ostrava Polytechnic"),
    ("Ostrava Polytechnic", "SITUATED-IN", "Brnova"),
    ("Mirela Dask", "HAS_ALMA_MATER", "Ostrava Polytechnic"),
]
ALMA_QUESTION = "Which school is the alma mater of Quillon Vale?"
ALMA_ANSWER = "<answers>\nOstrava Polytechnic\n</answers>"
ALMA_LINKER = ("<entities>\nQuillon Vale\n</entities>\n<relation-paths>\nHAS_ALMA_MATER\n"
               "</relation-paths>\n<answers>\n</answers>")


def alma_reply(prompt: str, body: dict) -> str:
    """The answer to the answer stage's prompt, the KG-Linker's plan to every other."""
    return ALMA_ANSWER if "Answer the question using ONLY the graph context" in prompt \
        else ALMA_LINKER


class ChatStub(LocalServer):
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

        class Handler(StubHandler):
            def do_POST(self):  # noqa: N802 - http.server API
                body = self.read_json()
                prompt = "\n".join(str(m.get("content")) for m in body.get("messages", []))
                stub.prompts.append(prompt)
                stub.streamed.append(bool(body.get("stream")))
                if body.get("stream") and stub.refuse_stream:
                    raw = b'{"error": {"message": "stream_options: unknown field", "type": ' \
                          b'"invalid_request_error"}}'
                    self.send_body(400, raw)
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
                self.send_body(200, json.dumps(data).encode())

            def _stream(self, body: dict, text: str, usage: dict) -> None:
                self.start_chunks("text/event-stream")
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
                        self.chunk(f"data: {json.dumps(ev)}\n\n".encode())
                        stub.chunks_sent += 1
                        if stub.delay:
                            time.sleep(stub.delay)
                    self.chunk(b"data: [DONE]\n\n")
                    self.chunk(b"")
                except OSError:  # the client hung up
                    stub.hung_up += 1
                    self.close_connection = True

        self.serve(Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"
