"""What the serving tests share: the CLI run in-process, JSON-lines output read back, and
workers held busy by slow questions."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from byokg.cli import main


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    """``byokg ARGS`` in this process: (exit code, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def rows(path: Any) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def hold_workers(client: Any, svc: Any, question: str, n: int = 2) -> list[threading.Thread]:
    """``n`` requests asking ``question`` in threads, returned once the service counts ``n``
    busy workers (or after 5 s)."""
    held = [threading.Thread(target=client.post, args=("/ask",),
                             kwargs={"json": {"question": question}}) for _ in range(n)]
    for t in held:
        t.start()
    deadline = time.monotonic() + 5
    while svc.health().busy < n and time.monotonic() < deadline:
        time.sleep(0.02)
    return held
