"""The relay endpoint of benchmarks/relay_llm.py: byokg's OpenAI-compatible provider sends a
prompt, the prompt appears as a file, a reader's reply file comes back as the completion (plain
and streamed)."""

from __future__ import annotations

import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

from benchmarks.relay_llm import Relay
from benchmarks.relay_llm import _handler
from byokg.models.llm import create_llm


def _reader(folder: Path, stop: threading.Event) -> None:
    """Answers every prompt with its own first line reversed, as a reply file written whole."""
    while not stop.is_set():
        for p in folder.glob("*.prompt.txt"):
            reply = p.with_name(p.name.replace(".prompt.txt", ".reply.txt"))
            if not reply.exists():
                tmp = reply.with_suffix(".tmp")
                tmp.write_text(p.read_text(encoding="utf-8").splitlines()[-1][::-1])
                tmp.rename(reply)
        time.sleep(0.05)


def test_a_prompt_goes_out_as_a_file_and_the_reply_comes_back(tmp_path):
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _handler(Relay(tmp_path, timeout_s=30)))
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    stop = threading.Event()
    threading.Thread(target=_reader, args=(tmp_path, stop), daemon=True).start()
    try:
        llm = create_llm("openai:relay", base_url=f"http://127.0.0.1:{srv.server_address[1]}/v1",
                         api_key="k")
        r = llm.complete("abc", system="be brief")
        pieces: list[str] = []
        s = llm.complete("xyz", on_token=pieces.append)
    finally:
        stop.set()
        srv.shutdown()
        srv.server_close()
    assert r.text == "cba" and s.text == "zyx" and "".join(pieces) == "zyx"
    first = (tmp_path / "0001.prompt.txt").read_text()
    assert first == "be brief\n----- user -----\nabc"
    assert len((tmp_path / "log.jsonl").read_text().splitlines()) == 2
