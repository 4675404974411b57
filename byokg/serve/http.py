"""``byokg serve --http``: the engine as a JSON API (FastAPI + uvicorn).

    POST /ask       {"question": "..."}   -> the Answer (answers, evidence, context, trace …)
    POST /retrieve  {"question": "..."}   -> the Retrieval (ranked context, no answer)
    POST /link      {"mentions": [...]}   -> candidates per mention
    POST /ask/stream, /retrieve/stream    -> the same, as server-sent events while it runs
    GET  /schema, /profile, /health; the API described at /docs (a static page) and
    /openapi.json

Every response is JSON (graph and LLM text stay data; only /docs serves HTML, with no script).
Errors are ``{"error": KIND, "detail": MESSAGE}`` with 400 (bad input or framing), 403 (a
foreign Origin), 404, 405, 408 (a client too slow to send its request), 413 (body too large),
421 (a Host name the server does not answer), 422 (a malformed body), 502 (the LLM failed),
503 (busy), 504 (timeout) or 500 — the server's own protocol errors included.

Against hostile clients on the same machine or a web page in a browser: the Host allow-list
(:class:`Guard`, against DNS rebinding), a body counted byte by byte whatever its headers say,
a read timeout for headers and bodies and a connection cap that drops the oldest idle or
half-sent connection first (:func:`protocol_class`), so ``/health`` keeps answering.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from fastapi.responses import JSONResponse
from fastapi.responses import StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from byokg.contracts import GraphSchema
from byokg.pipeline.answer import Answer
from byokg.pipeline.answer import Retrieval
from byokg.redaction import redact_text

from ..errors import ByokgError
from ..errors import ConfigError
from ..errors import InputError
from ..errors import LLMError
from .core import Busy
from .core import Health
from .core import LinkIn
from .core import LinkOut
from .core import QuestionIn
from .core import ServeLimits
from .core import Service
from .core import Timeout
from .core import allowed_hosts
from .core import client_message
from .core import host_of
from .core import is_loopback

log = logging.getLogger("byokg.serve")

STATUS = [(InputError, 400, "input"), (ConfigError, 400, "config"), (LLMError, 502, "llm"),
          (Busy, 503, "busy"), (Timeout, 504, "timeout"), (ByokgError, 500, "byokg")]
HTTP_KINDS = {400: "bad_request", 404: "not_found", 405: "method", 408: "timeout",
              413: "too_large", 415: "media_type"}
HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
REASONS = {400: "Bad Request", 403: "Forbidden", 408: "Request Timeout",
           413: "Content Too Large", 421: "Misdirected Request", 500: "Internal Server Error",
           503: "Service Unavailable"}


def _error(status: int, kind: str, detail: str, *, close: bool = False) -> JSONResponse:
    headers = {**HEADERS, "Connection": "close"} if close else HEADERS
    return JSONResponse({"error": kind, "detail": detail}, status_code=status, headers=headers)


def raw_error(status: int, kind: str, detail: str) -> bytes:
    """A complete HTTP/1.1 JSON error response as bytes (for the protocol layer, which answers
    before any request reached the application)."""
    body = json.dumps({"error": kind, "detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {REASONS.get(status, 'Error')}\r\n"
            "content-type: application/json\r\n"
            f"content-length: {len(body)}\r\n"
            "x-content-type-options: nosniff\r\ncache-control: no-store\r\n"
            "connection: close\r\n\r\n")
    return head.encode("ascii") + body


class Guard:
    """ASGI middleware in front of the API, for every request:

    * the Host header must name this server (:func:`~byokg.serve.core.allowed_hosts`: the
      loopback names, the bound address, ``--allow-host``), else 421: a web page that reaches
      the server by DNS rebinding sends its own name; an ``Origin`` of another host is 403;
    * a body is counted byte by byte whatever its headers say (``Content-Length`` and
      ``Transfer-Encoding`` together are refused, 400), at most ``max_body_bytes`` (413), and
      must arrive within ``read_timeout`` (408); it is read here and handed on whole;
    * whatever the application raises past its own handlers is a JSON 500.
    """

    def __init__(self, app: Any, limits: ServeLimits, hosts: tuple[str, ...]) -> None:
        self.app, self.limits, self.hosts = app, limits, hosts

    def _refusal(self, headers: dict[bytes, bytes]) -> JSONResponse | None:
        if "*" not in self.hosts:
            host = headers.get(b"host", b"").decode("latin-1")
            if host_of(host) not in self.hosts:
                return _error(421, "host", f"this server does not answer the host name "
                              f"{host[:100]!r} (answered: {', '.join(self.hosts)}); a web page "
                              "reaching it under another name is refused (DNS rebinding). "
                              "Start the server with --allow-host NAME to add a name",
                              close=True)
            origin = headers.get(b"origin")
            if origin is not None and host_of(origin.decode("latin-1")) not in self.hosts:
                return _error(403, "origin", "requests from web pages of other sites are "
                              f"refused (Origin {origin.decode('latin-1')[:100]!r}); add its "
                              "host with --allow-host to allow it", close=True)
        if b"transfer-encoding" in headers and b"content-length" in headers:
            return _error(400, "bad_request", "the request has both Content-Length and "
                          "Transfer-Encoding; send one of them", close=True)
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limits
                                   .max_body_bytes):
            return self._too_big()
        return None

    def _too_big(self) -> JSONResponse:
        return _error(413, "too_large", f"the request body is over "
                      f"{self.limits.max_body_bytes:,} bytes (--max-body)", close=True)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = self._refusal(dict(scope.get("headers") or []))
        if refusal is not None:
            return await refusal(scope, receive, send)
        body = await self._body(receive)
        if isinstance(body, JSONResponse):
            return await body(scope, receive, send)
        if body is None:  # the client went away
            return None
        try:
            body.decode("utf-8")  # JSON is UTF-8 (RFC 8259): anything else is named here
        except UnicodeDecodeError as exc:
            return await _error(400, "input", f"the request body is not UTF-8 text (byte "
                                f"0x{body[exc.start]:02x} at position {exc.start}); send UTF-8 "
                                "JSON")(scope, receive, send)
        given = False

        async def replay() -> dict:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        started = False

        async def tracked(message: dict) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await self.app(scope, replay, tracked)
        except Exception:
            log.exception("request failed")
            if not started:
                await _error(500, "internal", "the server failed on this request (see its "
                             "log)", close=True)(scope, receive, send)

    async def _body(self, receive: Any) -> bytes | JSONResponse | None:
        """The whole body, counted as it arrives, within the size limit and the read
        timeout; a refusal as a response; None when the client went away."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.limits.read_timeout
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                msg = await asyncio.wait_for(receive(), max(end - loop.time(), 0.001))
            except TimeoutError:
                return _error(408, "timeout", "the request body did not arrive within "
                              f"{self.limits.read_timeout:g}s (--read-timeout)", close=True)
            if msg["type"] != "http.request":
                return None
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > self.limits.max_body_bytes:
                return self._too_big()
            chunks.append(chunk)
            if not msg.get("more_body"):
                return b"".join(chunks)


def create_app(service: Service, *, host: str = "127.0.0.1") -> Any:
    """The FastAPI application over one :class:`Service`, behind the :class:`Guard` (``host``:
    the address the server is bound to, which the Host allow-list accepts too)."""
    app = FastAPI(
        title="byokg", version=_version(), docs_url=None, redoc_url=None,
        description="Question answering over your own knowledge graph, with evidence. "
                    "Read-only: requests carry questions and names, never queries.")
    _error_handlers(app)

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

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(docs_page(app.openapi()), headers={
            **HEADERS, "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})

    return Guard(app, service.limits, allowed_hosts(host, service.limits.allow_hosts))


def _error_handlers(app: FastAPI) -> None:
    """Every error as ``{"error", "detail"}``: byokg's (by kind), the framework's own (404,
    405, a malformed body) and anything unexpected (500, logged)."""
    for exc_type, status, kind in STATUS:
        def handler(_req: Request, exc: Exception, status: int = status, kind: str = kind
                    ) -> JSONResponse:
            return _error(status, kind, client_message(exc))
        app.add_exception_handler(exc_type, handler)

    @app.exception_handler(RequestValidationError)
    async def invalid(_req: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        detail = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                           for e in errs[:5])
        return _error(422, "invalid", detail or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def framework(_req: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = HTTP_KINDS.get(exc.status_code, "http")
        detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        if exc.status_code == 404:
            detail = "no such endpoint; see /docs"
        response = _error(exc.status_code, kind, detail)
        for k, v in (exc.headers or {}).items():
            response.headers[k] = v
        return response

    @app.exception_handler(Exception)
    async def unexpected(_req: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed")
        return _error(500, "internal", f"{type(exc).__name__}: {client_message(exc)}")


def docs_page(spec: dict[str, Any]) -> str:
    """The API described on one static page from its OpenAPI document: every endpoint with its
    summary, request body and response schema. No script and nothing loaded from elsewhere
    (works offline; the interactive Swagger UI would need assets from a CDN)."""
    e = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(spec['info']['title'])}"
             " API</title><style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
             "pre{background:#f4f4f4;padding:.6em;overflow:auto}code{font-weight:bold}</style>"
             f"</head><body><h1>{e(spec['info']['title'])} {e(spec['info']['version'])}</h1>"
             f"<p>{e(spec['info'].get('description', ''))}</p><p>Errors are JSON "
             "<code>{\"error\": KIND, \"detail\": MESSAGE}</code>. The machine-readable "
             "description is <a href='/openapi.json'>/openapi.json</a>.</p>"]
    for path, ops in spec.get("paths", {}).items():
        for method, op in ops.items():
            parts.append(f"<h2><code>{e(method.upper())} {e(path)}</code></h2>"
                         f"<p>{e(op.get('summary', ''))}</p>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            if body:
                parts.append(f"<h3>Request body</h3><pre>{e(_schema_text(body, spec))}</pre>")
            ok = op.get("responses", {}).get("200", {}).get("content", {}).get(
                "application/json", {})
            if ok:
                parts.append(f"<h3>Response</h3><pre>{e(_schema_text(ok, spec))}</pre>")
    parts.append("</body></html>")
    return "".join(parts)


def _schema_text(content: dict[str, Any], spec: dict[str, Any]) -> str:
    schema = content.get("schema", {})
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        schema = spec.get("components", {}).get("schemas", {}).get(name, schema)
    props = schema.get("properties")
    if not props:
        return json.dumps(schema, indent=2)[:4000]
    need = set(schema.get("required", ()))
    lines = []
    for name, p in props.items():
        typ = p.get("type") or p.get("$ref", "").rsplit("/", 1)[-1] or "any"
        if typ == "array":
            item = p.get("items", {})
            typ = f"array of {item.get('type') or item.get('$ref', '').rsplit('/', 1)[-1]}"
        desc = p.get("description", "")
        lines.append(f"{name}{'' if name in need else '?'}: {typ}" + (f"  — {desc}" if desc
                                                                         else ""))
    return "\n".join(lines)


def protocol_class(limits: ServeLimits) -> type:
    """uvicorn's h11 protocol held to ``limits`` (its class doc says how). Over 60 lines
    because it is one class: uvicorn builds a protocol object per connection from the class
    alone, so the limits ride on a class made here, and uvicorn stays an optional import."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11(H11Protocol):  # type: ignore[misc]
        """A connection's request headers must arrive within ``read_timeout`` (then a JSON
        408 and the connection is closed); at most ``max_connections`` are open: a newcomer
        past the cap closes the oldest connection that waits for headers or idles between
        requests, else it gets a JSON 503. A malformed request gets a JSON 400."""

        read_timeout = limits.read_timeout
        max_connections = limits.max_connections

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._timer: Any = None
            self._since = self.loop.time()
            self._closing = False
            if len(self.connections) > self.max_connections and not self._evict():
                self._refuse(raw_error(503, "busy", f"the server has {self.max_connections} "
                                       "connections open (--max-connections); retry later"))
                return
            self._arm()

        def _waiting(self) -> bool:
            """Whether no request of this connection is being answered (headers still
            coming, or idle between requests): such a connection may be dropped."""
            return (not self._closing and self.conn.their_state is h11.IDLE
                    and (self.cycle is None or self.cycle.response_complete))

        def _evict(self) -> bool:
            idle = [c for c in self.connections if isinstance(c, GuardedH11) and c is not self
                    and c._waiting()]
            if not idle:
                return False
            oldest = min(idle, key=lambda c: c._since)
            log.warning("connection cap reached: closing the oldest waiting connection")
            oldest._drop()
            return True

        def _arm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self.loop.call_later(self.read_timeout, self._timed_out)

        def _timed_out(self) -> None:
            self._timer = None
            if self.transport.is_closing() or not self._waiting():
                return
            self._drop(f"the request headers did not arrive within {self.read_timeout:g}s "
                       "(--read-timeout)")

        def _drop(self, why: str | None = None) -> None:
            """Close this waiting connection: a JSON 408 first when a request had begun."""
            if self.conn.trailing_data[0] and why:
                self._refuse(raw_error(408, "timeout", why))
            else:
                self._closing = True
                self.transport.close()

        def _refuse(self, response: bytes) -> None:
            """Send ``response`` and close without reading the request: the write side is
            shut at once, the socket a moment later (an immediate close could reset the
            connection before the client reads the answer)."""
            self._closing = True
            self.transport.write(response)
            if self.transport.can_write_eof():
                self.transport.write_eof()
            self.loop.call_later(1.0, self.transport.close)

        def data_received(self, data: bytes) -> None:
            if self._closing:
                return  # a refused connection: what it still sends is dropped
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._since = self.loop.time()
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            self._refuse(raw_error(400, "bad_request", f"not a valid HTTP/1.1 request: {msg}"))

    return GuardedH11


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
            return {"error": kind, "detail": client_message(exc)}
    log.error("streamed request failed", exc_info=exc)
    log.error("stream failed: %s: %s", type(exc).__name__, redact_text(str(exc)))
    return {"error": "internal", "detail": f"{type(exc).__name__}: {client_message(exc)}"}


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


def uvicorn_options(service: Service) -> dict[str, Any]:
    """The uvicorn settings every byokg HTTP server runs with: the guarded protocol, no
    keep-alive past 5 s, uvicorn's own concurrency limit off (byokg's worker queue and
    connection cap replace it, so /health is never refused for load)."""
    return {"timeout_keep_alive": 5, "http": protocol_class(service.limits)}


def serve_http(service: Service, *, host: str = "127.0.0.1", port: int = 8765,
               log_level: str = "warning") -> None:
    """Run the API with uvicorn until interrupted. Binding anywhere but loopback logs a warning:
    the server has no authentication."""
    import uvicorn

    if not is_loopback(host):
        log.warning("binding to %s makes the graph and the LLM reachable from the network; "
                    "byokg serve has no authentication (put it behind one)", host)
    uvicorn.run(create_app(service, host=host), host=host, port=port, log_level=log_level,
                **uvicorn_options(service))


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

        config = uvicorn.Config(create_app(self.service, host=self.host), host=self.host,
                                port=self.port, log_level="warning",
                                **uvicorn_options(self.service))
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
