"""``byokg serve --http``: the engine as a JSON API (FastAPI + uvicorn).

    POST /ask       {"question": "..."}   -> the Answer (answers, evidence, context, trace …)
    POST /retrieve  {"question": "..."}   -> the Retrieval (ranked context, no answer)
    POST /link      {"mentions": [...]}   -> candidates per mention
    POST /ask/stream, /retrieve/stream    -> the same, as server-sent events while it runs
    GET  /schema, /profile, /health; OpenAPI at /docs and /openapi.json

Every response is JSON (graph and LLM text stay data; only /docs serves HTML). Errors are
``{"error": KIND, "detail": MESSAGE}`` with 400 (bad input), 413 (body too large), 502 (the LLM
failed), 503 (busy), 504 (timeout) or 500.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse

from byokg.contracts import GraphSchema
from byokg.pipeline.answer import Answer, Retrieval

from ..errors import ByokgError, ConfigError, InputError, LLMError
from .core import Busy, Health, LinkIn, LinkOut, QuestionIn, Service, Timeout, is_loopback

log = logging.getLogger("byokg.serve")

STATUS = [(InputError, 400, "input"), (ConfigError, 400, "config"), (LLMError, 502, "llm"),
          (Busy, 503, "busy"), (Timeout, 504, "timeout"), (ByokgError, 500, "byokg")]
HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


def _error(status: int, kind: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": kind, "detail": detail}, status_code=status, headers=HEADERS)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413, by its
    Content-Length (which the server holds the body to) or, without one, while it streams in
    (such a body is read here, at most ``limit`` bytes, and handed on)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_big = _error(413, "too_large", f"the request body is over {self.limit:,} bytes "
                         "(--max-body)")
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.limit:
                return await too_big(scope, receive, send)
            return await self.app(scope, receive, send)
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] != "http.request":  # the client went away
                return None
            size += len(msg.get("body", b""))
            if size > self.limit:
                return await too_big(scope, receive, send)
            chunks.append(msg.get("body", b""))
            if not msg.get("more_body"):
                break
        body, given = b"".join(chunks), False

        async def replay() -> dict:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)


def create_app(service: Service) -> Any:
    """The FastAPI application over one :class:`Service` (wrapped in the body-size limit)."""
    app = FastAPI(
        title="byokg", version=_version(),
        description="Question answering over your own knowledge graph, with evidence. "
                    "Read-only: requests carry questions and names, never queries.")

    for exc_type, status, kind in STATUS:
        def handler(_req: Request, exc: Exception, status: int = status, kind: str = kind
                    ) -> JSONResponse:
            return _error(status, kind, str(exc))
        app.add_exception_handler(exc_type, handler)

    @app.exception_handler(RequestValidationError)
    async def invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        detail = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                           for e in errs[:5])
        return _error(422, "invalid", detail or "invalid request")

    @app.exception_handler(Exception)
    async def unexpected(_req: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed")
        return _error(500, "internal", f"{type(exc).__name__}: {exc}")

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Any:
        response = await call_next(request)
        for k, v in HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    @app.post("/ask", response_model=Answer, summary="Answer a question, with evidence")
    async def ask(body: QuestionIn) -> Any:
        answer = await service.run(service.ask, body.question)
        return JSONResponse(answer.model_dump(mode="json"), headers=HEADERS)

    @app.post("/retrieve", response_model=Retrieval,
              summary="Ranked evidence for a question, without an answer")
    async def retrieve(body: QuestionIn) -> Any:
        r = await service.run(service.retrieve, body.question)
        return JSONResponse(r.model_dump(mode="json"), headers=HEADERS)

    @app.post("/link", response_model=LinkOut, summary="Link entity mentions to graph nodes")
    async def link(body: LinkIn) -> LinkOut:
        return await service.run(service.link, body.mentions)

    @app.get("/schema", response_model=GraphSchema, summary="Node labels and relation types")
    async def schema() -> GraphSchema:
        return await service.run(service.schema)

    @app.get("/profile", summary="The graph profile the engine uses (JSON)")
    async def profile() -> dict[str, Any]:
        return await service.run(service.profile)

    @app.get("/health", response_model=Health, summary="Graph size, LLM and load")
    async def health() -> Health:
        return service.health()

    _add_stream_routes(app, service)
    return BodyLimit(app, service.limits.max_body_bytes)


SSE_HEADERS = {**HEADERS, "X-Accel-Buffering": "no"}  # proxies: pass each event on at once


def sse(event: str, data: Any) -> bytes:
    """One server-sent event: its name and its data as one line of JSON (newlines in text are
    escaped by the encoder, so no line of the data can end the event early)."""
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def sse_payload(ev: Any) -> tuple[str, Any]:
    """The event name and data of a StageEvent: the Answer or Retrieval as ``/ask`` and
    ``/retrieve`` return them, ``{"token": …}``, or the stage event's own fields."""
    if ev.kind == "answer" and ev.answer is not None:
        return "answer", ev.answer.model_dump(mode="json")
    if ev.kind == "retrieval" and ev.retrieval is not None:
        return "retrieval", ev.retrieval.model_dump(mode="json")
    if ev.kind == "token":
        return "token", {"token": ev.token or ""}
    return ev.kind, ev.model_dump(mode="json", exclude_defaults=True,
                                  exclude={"answer", "retrieval", "token"}) | {"kind": ev.kind}


def error_payload(exc: BaseException) -> dict[str, str]:
    """``{"error", "detail"}`` for an error met while streaming (the kinds of the JSON API)."""
    for exc_type, _status, kind in STATUS:
        if isinstance(exc, exc_type):
            return {"error": kind, "detail": str(exc)}
    log.error("streamed request failed", exc_info=exc)
    return {"error": "internal", "detail": f"{type(exc).__name__}: {exc}"}


def _add_stream_routes(app: Any, service: Service) -> None:
    """``POST /ask/stream`` and ``/retrieve/stream``: the question's stage events, the answer
    LLM's tokens and the result as server-sent events. A bad question (400/413/422) or a full
    queue (503) is refused as JSON before the stream starts; an error once it runs (timeout,
    the LLM failing) is an ``error`` event ``{"error", "detail"}`` that ends the stream."""
    from .stream import QuestionRun

    async def body(run: QuestionRun) -> AsyncIterator[bytes]:
        try:
            async for ev in run.events():
                if ev is None:
                    yield b": keep-alive\n\n"
                    continue
                yield sse(*sse_payload(ev))
        except Exception as exc:  # noqa: BLE001 - the stream's status line is already sent
            yield sse("error", error_payload(exc))
        finally:
            run.close()

    async def stream(question: str, answer: bool) -> StreamingResponse:
        run = QuestionRun(service, question, answer=answer)
        await run.start()
        return StreamingResponse(body(run), media_type="text/event-stream",
                                 headers=SSE_HEADERS)

    doc = {200: {"content": {"text/event-stream": {}},
                 "description": "server-sent events: proposal, links, tool, merge, token, "
                                "then answer (or retrieval); error ends a failed run"}}

    @app.post("/ask/stream", summary="Answer a question, streamed as server-sent events",
              response_class=StreamingResponse, response_model=None, responses=doc)
    async def ask_stream(req: QuestionIn) -> StreamingResponse:
        return await stream(req.question, True)

    @app.post("/retrieve/stream", response_class=StreamingResponse, response_model=None,
              responses=doc, summary="Ranked evidence for a question, streamed as server-sent events")
    async def retrieve_stream(req: QuestionIn) -> StreamingResponse:
        return await stream(req.question, False)


def _version() -> str:
    from .. import __version__

    return __version__


def serve_http(service: Service, *, host: str = "127.0.0.1", port: int = 8765,
               log_level: str = "warning") -> None:
    """Run the API with uvicorn until interrupted. Binding anywhere but loopback logs a warning:
    the server has no authentication."""
    import uvicorn

    if not is_loopback(host):
        log.warning("binding to %s makes the graph and the LLM reachable from the network; "
                    "byokg serve has no authentication (put it behind one)", host)
    uvicorn.run(create_app(service), host=host, port=port, log_level=log_level,
                timeout_keep_alive=5, limit_concurrency=service.limits.max_concurrency
                + service.limits.max_queue + 16)


class BackgroundServer:
    """The API served by uvicorn in a thread of this process, for tests, benchmarks and
    notebooks: ``with BackgroundServer(service) as srv: httpx.get(srv.url + "/health")``.
    Port 0 picks a free port; leaving the block stops the server."""

    def __init__(self, service: Service, *, host: str = "127.0.0.1", port: int = 0) -> None:
        import socket

        if port == 0:
            with socket.socket() as s:
                s.bind((host, 0))
                port = s.getsockname()[1]
        self.service, self.host, self.port = service, host, port
        self.url = f"http://{host}:{port}"

    def __enter__(self) -> BackgroundServer:
        import threading
        import time

        import uvicorn

        config = uvicorn.Config(create_app(self.service), host=self.host, port=self.port,
                                log_level="warning", timeout_keep_alive=5)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="byokg-http", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the HTTP server did not start on {self.url}")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
