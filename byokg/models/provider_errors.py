"""What a provider's failure may tell a client, and what only the log may hold.

A provider's error body can echo the API key, an ``Authorization`` header or an internal
gateway URL with its credentials. Clients (an HTTP or MCP caller, a trace, a batch line) get a
summary: the status and its kind, plus the provider's own error code when it is a plain
identifier (``LLM provider returned 401 (authentication)``, ``… 404 (not found:
model_not_found)``). The full text goes to the ``byokg.llm`` log only, with secrets redacted
(:func:`redact`).
"""

from __future__ import annotations

import json
import logging
import re
import urllib.parse
from collections.abc import Iterable
from typing import Any

from byokg.redaction import redact_text

log = logging.getLogger("byokg.llm")

KINDS = {
    400: "bad request", 401: "authentication", 402: "payment required", 403: "permission",
    404: "not found", 408: "timeout", 409: "conflict", 413: "request too large",
    415: "unsupported media type", 422: "invalid request", 429: "rate limit",
    500: "server error", 502: "bad gateway", 503: "unavailable", 504: "gateway timeout",
}
_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]{0,63}$")
def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every given secret and everything shaped like one replaced by ``***``
    (the project's one redaction: :func:`byokg.redaction.redact_text`)."""
    return redact_text(text, secrets)


def redact_url(url: str) -> str:
    """``url`` without user, password and query (which may carry a key), for messages."""
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return redact(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path,
                                    "…" if parts.query else "", ""))


def error_code(body: Any) -> str | None:
    """The provider's own error code or type from a JSON error body (``{"error": {"code":
    "model_not_found"}}``, ``{"error": {"type": …}}``, ``{"code": …}``), when it is a plain
    identifier; never free text."""
    if isinstance(body, (bytes, bytearray)):
        try:
            body = json.loads(body.decode("utf-8", "replace"))
        except ValueError:
            return None
    if not isinstance(body, dict):
        return None
    err = body.get("error", body)
    if isinstance(err, str):
        return err if _IDENT.match(err) else None
    if not isinstance(err, dict):
        return None
    for key in ("code", "type", "__type"):
        v = err.get(key)
        if isinstance(v, str) and _IDENT.match(v):
            return v
    return None


def summary(status: int | None, code: str | None = None) -> str:
    """``LLM provider returned 401 (authentication)``: what a client is told."""
    kind = KINDS.get(status or 0) or ("server error" if (status or 0) >= 500 else "error")
    if code and _IDENT.match(code) and code.lower().replace("_", " ") != kind:
        kind = f"{kind}: {code}"
    if status:
        return f"LLM provider returned {status} ({kind})"
    return f"LLM provider error: {code}" if code and _IDENT.match(code) else "LLM provider error"


def report(name: str, status: int | None, body: bytes | str, *, url: str | None = None,
           secrets: Iterable[str | None] = (), code: str | None = None) -> str:
    """Log the provider's full error text (redacted) and return the client's summary."""
    text = body.decode("utf-8", "replace") if isinstance(body, (bytes, bytearray)) else body
    code = code or error_code(text.encode())
    if code and redact(code, secrets) != code:  # a code that is a secret is no code
        code = None
    where = f" at {redact_url(url)}" if url else ""
    status_text = f"HTTP {status}" if status else "error"
    log.warning("%s%s: %s: %s", name, where, status_text, redact(text[:4000], secrets))
    return summary(status, code)
