"""A local Bedrock Runtime endpoint speaking the real wire format, for boto3 pointed at it with
``endpoint_url`` (so botocore signs, sends, and parses the reply as it would from AWS).

    stub = BedrockStub().start()
    stub.plan.append(BedrockStub.text_stream("<answers>\\nParis\\n</answers>", piece=4))
    client = boto3.client("bedrock-runtime", endpoint_url=stub.url, region_name="us-east-1", …)
    …
    stub.stop()

``ConverseStream`` replies are ``application/vnd.amazon.eventstream`` bodies built by
:func:`encode_message` (the binary framing: prelude, CRC32s, typed headers), sent chunk by chunk
with ``delay`` between events; errors are a status with ``x-amzn-ErrorType`` and a JSON
``message``, as the service sends them. Test modules import it as ``bedrock_stub``.
"""

from __future__ import annotations

import binascii
import json
import struct
import time
from typing import Any

from http_stub import LocalServer
from http_stub import StubHandler


def _header(name: str, value: str) -> bytes:
    raw_name, raw_value = name.encode(), value.encode()
    return (struct.pack("!B", len(raw_name)) + raw_name + b"\x07"  # 7: string
            + struct.pack("!H", len(raw_value)) + raw_value)


def encode_message(headers: dict[str, str], payload: bytes) -> bytes:
    """One ``vnd.amazon.eventstream`` message: total length, headers length, prelude CRC,
    headers, payload, message CRC (CRC32, big-endian)."""
    hdrs = b"".join(_header(k, v) for k, v in headers.items())
    total = 12 + len(hdrs) + len(payload) + 4
    prelude = struct.pack("!II", total, len(hdrs))
    prelude += struct.pack("!I", binascii.crc32(prelude) & 0xFFFFFFFF)
    body = prelude + hdrs + payload
    return body + struct.pack("!I", binascii.crc32(body) & 0xFFFFFFFF)


def event(kind: str, payload: dict[str, Any]) -> bytes:
    return encode_message({":event-type": kind, ":content-type": "application/json",
                           ":message-type": "event"}, json.dumps(payload).encode())


def exception(kind: str, message: str) -> bytes:
    return encode_message({":exception-type": kind, ":content-type": "application/json",
                           ":message-type": "exception"}, json.dumps({"message": message}).encode())


class BedrockStub(LocalServer):
    """Answers each request with the next entry of ``plan``: a list of encoded messages (a
    stream) or ``(status, error_type, message)`` (an error). Requests are kept in ``seen``."""

    def __init__(self, *, delay: float = 0.0) -> None:
        self.plan: list[Any] = []
        self.seen: list[dict[str, Any]] = []
        self.delay = delay
        self.hung_up = 0
        stub = self

        class Handler(StubHandler):
            def do_POST(self):  # noqa: N802 - http.server API
                body = self.read_json()
                stub.seen.append({"path": self.path, "body": body,
                                  "auth": self.headers.get("Authorization", "")})
                step = stub.plan.pop(0)
                if isinstance(step, tuple):
                    status, kind, message = step
                    self.send_body(status, json.dumps({"message": message}).encode(), headers={
                        "x-amzn-ErrorType": f"{kind}:http://internal.amazon.com/"})
                    return
                self.start_chunks("application/vnd.amazon.eventstream")
                try:
                    for msg in step:
                        self.chunk(msg)
                        if stub.delay:
                            time.sleep(stub.delay)
                    self.chunk(b"")
                except OSError:
                    stub.hung_up += 1
                    self.close_connection = True

        self.serve(Handler)

    @staticmethod
    def text_stream(text: str, *, piece: int = 4, usage: tuple[int, int] | None = (42, 7),
                    stop: bool = True) -> list[bytes]:
        """The events of a Converse stream answering ``text`` in pieces of ``piece`` chars."""
        out = [event("messageStart", {"role": "assistant"})]
        out += [event("contentBlockDelta", {"contentBlockIndex": 0,
                                            "delta": {"text": text[i:i + piece]}})
                for i in range(0, len(text), piece)]
        out.append(event("contentBlockStop", {"contentBlockIndex": 0}))
        if stop:
            out.append(event("messageStop", {"stopReason": "end_turn"}))
        if usage:
            out.append(event("metadata", {"usage": {"inputTokens": usage[0],
                                                    "outputTokens": usage[1],
                                                    "totalTokens": sum(usage)},
                                          "metrics": {"latencyMs": 12}}))
        return out

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
