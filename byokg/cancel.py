"""Cancellation of one question's work: a :class:`CancelToken` that whoever runs the question
(the server, when it abandons a request) sets, and that the slow steps watch.

The token travels in a context variable: :func:`scope` sets it around a question, the engine
copies the context into its tool threads, and the steps that wait read it with :func:`current`:
an LLM call (its HTTP exchange and the back-off between retries, :mod:`byokg.models`) and a
Cypher query in its worker process (:mod:`byokg.cypher.worker`). A stopped step raises
:class:`Cancelled`, a ``BaseException``, so no stage's error handling keeps the question going.
Without a token (the CLI, notebooks) nothing changes.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable
from collections.abc import Iterator


class Cancelled(BaseException):  # noqa: N818 - not an error: the run was told to stop
    """The question was stopped (its request abandoned); raised at the next step or inside the
    step under way."""


class CancelToken:
    """A one-way stop flag with a reason (thread-safe)."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], object]] = []
        self.reason = ""

    def cancel(self, reason: str = "stopped") -> None:
        with self._lock:
            if self._event.is_set():
                return
            self.reason = reason
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for fn in callbacks:
            fn()

    def on_cancel(self, fn: Callable[[], object]) -> Callable[[], None]:
        """Call ``fn`` when the token is cancelled (at once if it already is); returns a
        function that removes it (call it when the step is over)."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(fn)

                def remove() -> None:
                    with self._lock, contextlib.suppress(ValueError):
                        self._callbacks.remove(fn)
                return remove
        fn()
        return lambda: None

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True as soon as the token is cancelled."""
        return self._event.wait(max(0.0, seconds))

    def check(self) -> None:
        """Raise :class:`Cancelled` when the token is cancelled."""
        if self._event.is_set():
            raise Cancelled(self.reason)


_current: contextvars.ContextVar[CancelToken | None] = contextvars.ContextVar(
    "byokg_cancel", default=None)


def current() -> CancelToken | None:
    """The token of the question this code runs for (None: no one can stop it)."""
    return _current.get()


@contextlib.contextmanager
def scope(token: CancelToken | None) -> Iterator[CancelToken | None]:
    """Run the block (and the threads it starts with a copied context) under ``token``."""
    reset = _current.set(token)
    try:
        yield token
    finally:
        _current.reset(reset)


def check() -> None:
    """Raise :class:`Cancelled` when the current question was stopped."""
    token = _current.get()
    if token is not None:
        token.check()


def sleep(seconds: float) -> None:
    """``time.sleep`` that ends early, raising :class:`Cancelled`, when the question stops."""
    import time

    token = _current.get()
    if token is None:
        time.sleep(seconds)
        return
    if token.wait(seconds):
        raise Cancelled(token.reason)
