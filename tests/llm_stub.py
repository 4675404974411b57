"""A local OpenAI-compatible chat-completions server for tests (stand-in for a hosted LLM).

    stub = ChatStub(lambda prompt, body: "<answers>\\nParis\\n</answers>").start()
    os.environ["OPENAI_BASE_URL"] = stub.url
    ...
    stub.stop()

``reply(prompt, body)`` returns the message content (a string) or a dict merged into the
chat.completion object (to send odd ``content`` or ``usage`` forms). Every prompt (all message
contents joined) is kept in ``stub.prompts``. tests/ is not a package: test modules load this
file by path (``importlib.util.spec_from_file_location``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = Callable[[str, dict], "str | dict"]


class ChatStub:
    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.prompts: list[str] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                prompt = "\n".join(str(m.get("content")) for m in body.get("messages", []))
                stub.prompts.append(prompt)
                out = stub.reply(prompt, body)
                data = {"id": "x", "object": "chat.completion", "model": body.get("model"),
                        "choices": [{"index": 0, "finish_reason": "stop", "message": {
                            "role": "assistant", "content": out}}],
                        "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 5}}
                if isinstance(out, dict):
                    data["choices"][0]["message"]["content"] = None
                    data.update(out)
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
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

