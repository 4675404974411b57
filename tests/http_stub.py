"""What the local HTTP stand-ins of the tests share (the OpenAI-compatible chat server in
``llm_stub.py``, the Bedrock endpoint in ``bedrock_stub.py``, the small servers of single tests):
a handler that writes whole JSON bodies and chunks and survives clients that hang up, and a
threaded server on 127.0.0.1 with a port of its own, started and stopped by the test."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from typing import Any


class StubHandler(BaseHTTPRequestHandler):
    """HTTP/1.1, quiet, and a client that hangs up between requests ends its connection."""

    protocol_version = "HTTP/1.1"

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except OSError:  # a client that hung up (or reset) between requests
            self.close_connection = True

    def read_json(self) -> Any:
        return json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")

    def send_body(self, status: int, raw: bytes, content_type: str = "application/json",
                  headers: dict[str, str] | None = None) -> None:
        """A whole response: status, headers, ``Content-Length`` and the body."""
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def start_chunks(self, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

    def chunk(self, data: bytes) -> None:
        """One chunk of a chunked body, flushed (``b""`` ends the body)."""
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def log_message(self, *args: Any) -> None:
        pass


class LocalServer:
    """A :class:`ThreadingHTTPServer` for ``handler`` on 127.0.0.1 (a free port), in a daemon
    thread: ``start()`` returns the server, ``stop()`` shuts it down."""

    def serve(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def start(self) -> Any:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on 127.0.0.1 for the ``with`` block; yields its base URL."""
    srv = LocalServer()
    srv.serve(handler)
    srv.start()
    try:
        yield f"http://127.0.0.1:{srv.port}"
    finally:
        srv.stop()
