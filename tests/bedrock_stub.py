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
``message``, as the service sends them. tests/ is not a package: load this file by path.
"""

from __future__ import annotations

import binascii
import json
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


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


class BedrockStub:
    """Answers each request with the next entry of ``plan``: a list of encoded messages (a
    stream) or ``(status, error_type, message)`` (an error). Requests are kept in ``seen``."""

    def __init__(self, *, delay: float = 0.0) -> None:
        self.plan: list[Any] = []
        self.seen: list[dict[str, Any]] = []
        self.delay = delay
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
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                stub.seen.append({"path": self.path, "body": body,
                                  "auth": self.headers.get("Authorization", "")})
                step = stub.plan.pop(0)
                if isinstance(step, tuple):
                    status, kind, message = step
                    raw = json.dumps({"message": message}).encode()
                    self.send_response(status)
                    self.send_header("x-amzn-ErrorType", f"{kind}:http://internal.amazon.com/")
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/vnd.amazon.eventstream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                try:
                    for msg in step:
                        self.wfile.write(f"{len(msg):x}\r\n".encode() + msg + b"\r\n")
                        self.wfile.flush()
                        if stub.delay:
                            time.sleep(stub.delay)
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except OSError:
                    stub.hung_up += 1
                    self.close_connection = True

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

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
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> BedrockStub:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
