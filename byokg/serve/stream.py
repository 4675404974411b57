"""A question whose stage events reach asyncio as they happen: what the HTTP server's
server-sent-events endpoints (``POST /ask/stream``, ``/retrieve/stream``) and the MCP server's
progress notifications are built on.

The question runs through :meth:`Service.run` like ``/ask`` (the same worker pool, queue limit,
timeout and stop flag); its ``on_event`` listener hands each :class:`StageEvent` to the event
loop. A consumer that goes away (a client that hangs up) stops the run at its next step, a
``token`` included, so a streamed LLM reply is closed mid-answer.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from collections.abc import Callable
from typing import Any

from byokg.pipeline.answer import Answer
from byokg.pipeline.answer import Retrieval
from byokg.pipeline.answer import StageEvent

from .core import Abandoned
from .core import Busy
from .core import Service
from .core import _stop_check

HEARTBEAT_S = 15.0  # an SSE comment after this long without an event (proxies drop idle streams)


def _observe(service: Service, answer: bool, question: str,
             report: Callable[[StageEvent], None], gone: threading.Event) -> Answer | Retrieval:
    """Run in a worker thread: the question with a listener that stops it once its request was
    abandoned (the server's timeout) or its consumer left, and reports every event."""
    check = _stop_check()

    def listen(ev: StageEvent) -> None:
        if check is not None:
            check(ev)
        if gone.is_set():
            raise Abandoned
        report(ev)

    run = service.engine.ask if answer else service.engine.retrieve
    return run(service.question(question), on_event=listen)


class QuestionRun:
    """One question on the service's pool whose events are read with ``async for`` over
    :meth:`events`: stage events, ``token`` pieces, then the ``answer`` (or ``retrieval``);
    ``None`` now and then while nothing happens (a heartbeat). Errors of the run (timeout, the
    LLM …) are raised from the iteration."""

    def __init__(self, service: Service, question: str, *, answer: bool = True) -> None:
        self.service, self.question, self.answer = service, question, answer
        self.gone = threading.Event()
        self.task: asyncio.Task[Any] | None = None
        self.queue: asyncio.Queue[StageEvent] = asyncio.Queue()

    async def start(self) -> None:
        """Check the question and take a place in the pool: a bad question raises InputError
        and a full queue raises Busy here, before anything is streamed."""
        self.service.question(self.question)
        loop = asyncio.get_running_loop()

        def report(ev: StageEvent) -> None:
            loop.call_soon_threadsafe(self.queue.put_nowait, ev)

        self.task = asyncio.ensure_future(self.service.run(
            _observe, self.service, self.answer, self.question, report, self.gone))
        self.task.add_done_callback(_read_outcome)
        await asyncio.sleep(0)  # Service.run admits or refuses (Busy) in its first step
        if self.task.done() and isinstance(self.task.exception(), Busy):
            raise self.task.exception()  # type: ignore[misc]

    async def events(self) -> AsyncIterator[StageEvent | None]:
        assert self.task is not None, "start() first"
        while True:
            get = asyncio.ensure_future(self.queue.get())
            done, _ = await asyncio.wait({get, self.task}, timeout=HEARTBEAT_S,
                                         return_when=asyncio.FIRST_COMPLETED)
            if get in done:
                yield get.result()
                continue
            get.cancel()
            if self.task in done:
                while not self.queue.empty():  # events sent before the run ended
                    yield self.queue.get_nowait()
                exc = self.task.exception()
                if exc is not None:
                    raise exc
                return
            yield None

    def close(self) -> None:
        """The consumer is gone: the run stops at its next step."""
        self.gone.set()


def _read_outcome(task: asyncio.Task[Any]) -> None:
    """A run nobody waits for any more still has its outcome read (no 'never retrieved')."""
    if not task.cancelled():
        task.exception()


def describe(ev: StageEvent) -> str:
    """One line for a progress report: what the step did."""
    rnd = f"round {ev.round + 1}: " if ev.round is not None else ""
    if ev.kind == "proposal" and ev.artifacts is not None:
        a = ev.artifacts
        return (f"{rnd}{ev.stage or 'proposal'} proposed {len(a.entities)} entities, "
                f"{len(a.relation_paths)} relation paths, {len(a.cypher)} queries"
                + (", FINISH" if a.finish else ""))
    if ev.kind == "links":
        linked = sum(1 for m in ev.links if m.ids)
        return f"{rnd}linked {linked} of {len(ev.links)} mentions"
    if ev.kind == "tool":
        if ev.error:
            return f"{rnd}{ev.stage} failed: {ev.error[:200]}"
        return f"{rnd}{ev.stage}: {len(ev.items)} items"
    if ev.kind == "merge":
        return f"{rnd}{ev.new_items or 0} new context items"
    if ev.kind == "token":
        return "answer: the LLM is writing"
    if ev.kind == "answer" and ev.answer is not None:
        return f"answer: {len(ev.answer.answers)} answers"
    if ev.kind == "retrieval" and ev.retrieval is not None:
        return f"retrieval: {len(ev.retrieval.context)} context items"
    return f"{rnd}{ev.kind}"
