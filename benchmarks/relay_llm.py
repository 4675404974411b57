"""An OpenAI-compatible chat endpoint that relays each prompt to an outside reader through a
folder: a person, or another model working by hand, answers the LLM path's prompts without
seeing any gold answers.

    python -m benchmarks.relay_llm --dir RELAY_DIR [--port 8799]

Each request's messages are written whole (temporary file, then rename) to
``RELAY_DIR/NNNN.prompt.txt`` (system first, then the user message, separated by a line
``----- user -----``); the server waits until ``RELAY_DIR/NNNN.reply.txt`` exists (written whole:
write ``NNNN.reply.tmp`` and rename) and returns its text as the completion.
``RELAY_DIR/log.jsonl`` records every exchange (prompt size, reply size, seconds waited). Point
byokg at it with ``OPENAI_BASE_URL=http://127.0.0.1:PORT/v1`` and ``--llm openai:relay``. A
request that asks to stream is answered as one streamed piece.
"""

from __future__ import annotations

import argparse
import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any


class Relay:
    """The folder protocol: one prompt file per request, one reply file per answer."""

    def __init__(self, folder: Path, timeout_s: float = 3600.0) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.timeout_s = timeout_s
        start = max((int(p.name[:4]) for p in folder.glob("[0-9][0-9][0-9][0-9].prompt.txt")),
                    default=0) + 1
        self._ids = itertools.count(start)
        self._lock = threading.Lock()

    def ask(self, system: str | None, user: str) -> str:
        with self._lock:
            n = next(self._ids)
        stem = self.folder / f"{n:04d}"
        text = (f"{system}\n----- user -----\n" if system else "") + user
        prompt = stem.with_suffix(".prompt.txt")
        # Written whole (temporary file, then rename): a reader polling the folder must never
        # see an empty or half-written prompt.
        tmp = stem.with_suffix(".prompt.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(prompt)
        reply = stem.with_suffix(".reply.txt")
        t0 = time.monotonic()
        while not reply.exists():
            if time.monotonic() - t0 > self.timeout_s:
                raise TimeoutError(f"no reply to {prompt.name} within {self.timeout_s:.0f} s")
            time.sleep(0.5)
        out = reply.read_text(encoding="utf-8")
        with open(self.folder / "log.jsonl", "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"n": n, "prompt_chars": len(text), "reply_chars": len(out),
                                 "waited_s": round(time.monotonic() - t0, 1)}) + "\n")
        return out


def _handler(relay: Relay) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802 - http.server API
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            msgs = body.get("messages") or []
            system = "\n".join(str(m.get("content")) for m in msgs if m.get("role") == "system")
            user = "\n".join(str(m.get("content")) for m in msgs if m.get("role") != "system")
            try:
                text = relay.ask(system or None, user)
            except TimeoutError as exc:
                self._send(504, {"error": {"message": str(exc)}})
                return
            usage = {"prompt_tokens": len(system + user) // 4, "completion_tokens": len(text) // 4}
            if body.get("stream"):
                self._stream(body, text, usage)
                return
            self._send(200, {"id": "relay", "object": "chat.completion", "model": body.get("model"),
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": text}}],
                             "usage": usage})

        def _send(self, status: int, data: dict) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def _stream(self, body: dict, text: str, usage: dict) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            base = {"id": "relay", "object": "chat.completion.chunk", "model": body.get("model")}
            events = [{**base, "choices": [{"index": 0, "delta": {"content": text},
                                            "finish_reason": None}]},
                      {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                      {**base, "choices": [], "usage": usage}]
            for ev in events:
                data = f"data: {json.dumps(ev)}\n\n".encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            done = b"data: [DONE]\n\n"
            self.wfile.write(f"{len(done):x}\r\n".encode() + done + b"\r\n0\r\n\r\n")
            self.wfile.flush()

    return Handler


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, type=Path)
    ap.add_argument("--port", type=int, default=8799)
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds to wait per reply")
    a = ap.parse_args(argv)
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), _handler(Relay(a.dir, a.timeout)))
    srv.daemon_threads = True
    print(f"relay on http://127.0.0.1:{a.port}/v1, prompts in {a.dir}", flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
