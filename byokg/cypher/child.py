"""A child interpreter answering over a socket pair: what the query worker
(:mod:`byokg.cypher.worker`) and the hosted Kùzu-family engine (:mod:`byokg.cypher.kuzuengine`)
share. The child is a fresh ``python -c CODE FD`` (never a fork of the threaded caller; the
caller's ``__main__`` is not re-imported) that finds byokg on the caller's ``sys.path``, reads its
first message, opens what it serves and answers ``("ready", info)`` or an error."""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from typing import Any

# prefix of the child's ``-c`` code: the caller's import path, so byokg imports the same way
PATH_PRELUDE = "import json, os, sys; sys.path[:0] = json.loads(os.environ['BYOKG_WORKER_PATH']); "


class ChildFailed(Exception):
    """The child did not start, died while opening, or refused (``refused``: what it answered
    instead of ready); ``str()`` says which."""

    def __init__(self, message: str, refused: Any = None) -> None:
        super().__init__(message)
        self.refused = refused


def describe_exit(code: int | None) -> str:
    """How a child ended, for messages: ``signal 11, SIGSEGV`` or ``exit code 1``."""
    if code is None:
        return "no exit code"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"signal {-code}, {signal.Signals(-code).name}"
        return f"signal {-code}"
    return f"exit code {code}"


OUTPUT_KEEP = 4096  # bytes of a child's output kept (the last ones) for the trace


class Output:
    """A child's stdout and stderr, read from its pipe by a daemon thread: the last
    :data:`OUTPUT_KEEP` bytes are kept (a crash's message goes into the trace) and every line
    goes to the ``byokg.cypher.worker`` log at DEBUG — never to our terminal."""

    def __init__(self, stream: Any) -> None:
        self._chunks: collections.deque[bytes] = collections.deque()
        self._size = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True,
                                        name="byokg-child-output")
        self._thread.start()

    def _read(self, stream: Any) -> None:
        log = logging.getLogger("byokg.cypher.worker")
        try:
            for line in iter(stream.readline, b""):
                log.debug("child process: %s", line.decode("utf-8", "replace").rstrip())
                with self._lock:
                    self._chunks.append(line)
                    self._size += len(line)
                    while self._size > OUTPUT_KEEP and len(self._chunks) > 1:
                        self._size -= len(self._chunks.popleft())
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(Exception):
                stream.close()

    def tail(self, wait_s: float = 0.5) -> str:
        """What the child wrote last (after it exited: all it wrote is read first)."""
        self._thread.join(wait_s)
        with self._lock:
            text = b"".join(self._chunks).decode("utf-8", "replace")
        return text[-OUTPUT_KEEP:].strip()


class Child:
    """A started child, the socket it answers on (``conn``) and what it writes (``output``:
    its stdout and stderr, captured, never on our streams)."""

    def __init__(self, code: str, first: Any, start_timeout_s: float, what: str,
                 opening: str) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ, BYOKG_WORKER_PATH=json.dumps([p for p in sys.path if p]))
        try:  # the child writes to neither of our streams: its output is captured
            self.proc = subprocess.Popen(
                [sys.executable, "-c", PATH_PRELUDE + code, str(theirs.fileno())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, env=env, close_fds=True)
        finally:
            theirs.close()
        self.output = Output(self.proc.stdout)
        self.conn = Connection(ours.detach())
        self.conn.send(first)
        if not self.conn.poll(start_timeout_s):
            self.kill()
            raise ChildFailed(f"{what} did not start within {start_timeout_s:.0f} s")
        try:
            kind, info = self.conn.recv()
        except (EOFError, OSError):
            code_ = self.kill()
            raise ChildFailed(f"{what} died while opening {opening} "
                              f"({describe_exit(code_)})") from None
        if kind != "ready":
            self.kill()
            raise ChildFailed(f"{what} cannot open {opening}: {info}", refused=info)

    def kill(self) -> int | None:
        """Kill the child (if it still runs), close the socket; its exit code."""
        if self.proc.poll() is None:
            self.proc.kill()
        with contextlib.suppress(Exception):
            self.proc.wait(5)
        with contextlib.suppress(Exception):
            self.conn.close()
        return self.proc.returncode
