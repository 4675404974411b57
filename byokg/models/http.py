"""One HTTP POST with a hard deadline for the whole exchange (connect, send, headers, body).

``urllib``'s ``timeout`` bounds each socket operation, so a server that sends one byte every
few seconds can hold a call for ever. Here a watchdog timer shuts the socket down when the
deadline passes, which ends any blocked read at once; every socket operation also gets the
time that is left as its own timeout. A stopped question (:mod:`byokg.cancel`) shuts the socket
down the same way and raises :class:`~byokg.cancel.Cancelled`. Proxies from the environment
(``HTTPS_PROXY`` …) are used as urllib would.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request

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


def post(url: str, body: bytes, headers: dict[str, str], deadline_s: float) -> tuple[int, bytes]:
    """POST ``body`` to ``url``; return (status, response body) or raise
    :class:`DeadlineExceeded` / ``OSError`` (connection problems)."""
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
        data = bytearray()
        while True:
            if conn.sock is not None:
                conn.sock.settimeout(max(end - time.monotonic(), 0.001))
            chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
            if not chunk:
                break
            data += chunk
        if fired.is_set() or time.monotonic() > end:
            _raise_if_cancelled(token)
            raise DeadlineExceeded(f"no complete reply within {deadline_s:g} s")
        if resp.length:  # Content-Length said more was coming
            raise ConnectionError(f"connection closed {resp.length} bytes before the end of "
                                  "the reply")
        return resp.status, bytes(data)
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
