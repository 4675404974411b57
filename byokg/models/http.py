"""One HTTP POST with a hard deadline for the whole exchange (connect, send, headers, body).

``urllib``'s ``timeout`` bounds each socket operation, so a server that sends one byte every
few seconds can hold a call for ever. Here a watchdog timer shuts the socket down when the
deadline passes, which ends any blocked read at once; every socket operation also gets the
time that is left as its own timeout. A stopped question (:mod:`byokg.cancel`) shuts the socket
down the same way and raises :class:`~byokg.cancel.Cancelled`. Proxies from the environment
(``HTTPS_PROXY`` …) are used as urllib would. The body is read in chunks and never kept past a
byte limit (a reply cut there says so); a streamed reply goes chunk by chunk to a sink.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import NamedTuple

from byokg import cancel


class DeadlineExceeded(TimeoutError):
    """No complete reply before the deadline."""


def _connection(url: urllib.parse.SplitResult, timeout: float) -> http.client.HTTPConnection:
    host = url.hostname or ""
    port = url.port
    proxy = None
    proxies = urllib.request.getproxies()
    if url.scheme in proxies and not urllib.request.proxy_bypass(host):
        proxy = urllib.parse.urlsplit(proxies[url.scheme])
    if url.scheme == "https":
        ctx = ssl.create_default_context()
        if proxy is not None:
            conn = http.client.HTTPSConnection(proxy.hostname or "", proxy.port or 80,
                                               timeout=timeout, context=ctx)
            conn.set_tunnel(host, port or 443)
            return conn
        return http.client.HTTPSConnection(host, port or 443, timeout=timeout, context=ctx)
    if proxy is not None:  # plain http through a proxy: absolute URL in the request line
        return http.client.HTTPConnection(proxy.hostname or "", proxy.port or 80, timeout=timeout)
    return http.client.HTTPConnection(host, port or 80, timeout=timeout)


DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024  # a reply body kept in memory (llm_options max_reply_bytes)
ERROR_BODY_BYTES = 64 * 1024  # an error body kept for the log
CHUNK = 65536


class Reply(NamedTuple):
    """One exchange's outcome: the status, the body kept, whether reading stopped before the
    end (over ``max_bytes``, or the sink said stop) and the reply's Content-Type."""

    status: int
    body: bytes
    cut: bool = False
    content_type: str = ""


def post(url: str, body: bytes, headers: dict[str, str], deadline_s: float, *,
         max_bytes: int = DEFAULT_MAX_REPLY_BYTES,
         sink: Callable[[bytes], bool] | None = None) -> Reply:
    """POST ``body`` to ``url`` and read the reply in chunks; raise :class:`DeadlineExceeded`
    or ``OSError`` (connection problems).

    The body is kept up to ``max_bytes`` (an error status: up to 64 KiB); past that, reading
    stops, the connection is closed and the reply is marked ``cut`` - a huge reply is never
    read whole. With ``sink``, a 2xx ``text/event-stream`` body is not kept: each chunk goes
    to ``sink`` as it arrives, and ``sink`` returns False to stop reading (``cut``).

    Long because the deadline timer, the cancellation watch and the connection are set up and
    torn down around the whole read in one try/finally."""
    parts = urllib.parse.urlsplit(url)
    end = time.monotonic() + deadline_s
    conn = _connection(parts, timeout=max(deadline_s, 0.001))
    fired = threading.Event()

    def stop() -> None:
        fired.set()
        sock = conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(deadline_s, stop)
    timer.daemon = True
    timer.start()
    token = cancel.current()
    unwatch = token.on_cancel(stop) if token is not None else None
    try:
        path = url if (conn.host != parts.hostname and parts.scheme == "http") else (
            parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        conn.request("POST", path, body=body, headers=headers)
        if conn.sock is not None:
            conn.sock.settimeout(max(end - time.monotonic(), 0.001))
        resp = conn.getresponse()
        ctype = resp.getheader("Content-Type", "") or ""
        streaming = sink is not None and 200 <= resp.status < 300 and (
            ctype.split(";")[0].strip().lower() == "text/event-stream")
        limit = max_bytes if resp.status < 400 else min(max_bytes, ERROR_BODY_BYTES)
        data = bytearray()
        cut = False
        while True:
            if conn.sock is not None:
                conn.sock.settimeout(max(end - time.monotonic(), 0.001))
            chunk = resp.read1(CHUNK) if hasattr(resp, "read1") else resp.read(CHUNK)
            if not chunk:
                break
            if streaming:
                if not sink(chunk):  # type: ignore[misc]
                    cut = True
                    break
                continue
            room = limit - len(data)
            data += chunk[:room]
            if len(chunk) > room:
                cut = True
                break
        if fired.is_set() or time.monotonic() > end:
            _raise_if_cancelled(token)
            raise DeadlineExceeded(f"no complete reply within {deadline_s:g} s")
        if resp.length and not cut:  # Content-Length said more was coming
            raise ConnectionError(f"connection closed {resp.length} bytes before the end of "
                                  "the reply")
        return Reply(resp.status, bytes(data), cut, ctype)
    except (OSError, http.client.HTTPException) as exc:
        _raise_if_cancelled(token)
        if fired.is_set() or time.monotonic() >= end:
            raise DeadlineExceeded(f"no complete reply within {deadline_s:g} s") from None
        if isinstance(exc, OSError):
            raise
        raise ConnectionError(f"{type(exc).__name__}: {exc}") from None
    finally:
        timer.cancel()
        if unwatch is not None:
            unwatch()
        conn.close()


def _raise_if_cancelled(token: cancel.CancelToken | None) -> None:
    if token is not None and token.cancelled:
        raise cancel.Cancelled(token.reason) from None
