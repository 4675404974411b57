"""One redaction for everything byokg writes about its settings: files (a batch's
``OUT.run.json``, an eval's ``config.json``), logs, resume messages and server banners.

* :func:`redact_uri`: a URI's password (``bolt://user:***@host``) and secret query options
  (``?api_key=***``);
* :func:`redact_text`: every URI with credentials inside free text (an error message),
  ``--api-key=VALUE`` forms, and everything shaped like a secret (``Authorization`` values,
  ``api_key=…``, ``sk-…`` keys, AWS key ids), plus the literal secrets given;
  :func:`redact_argv`: a whole command line;
* :func:`redact_settings`: a JSON-like value with secret fields (``api_key``, ``password``,
  ``token``, ``secret`` … at any depth) replaced by ``***`` and every string passed through
  :func:`redact_text`.

The secret itself is never written, hashed or shortened: a redacted field says only that a value
was set. Comparing two redacted settings therefore ignores a changed secret, which is what a
resume wants (a new API key does not change what is measured).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl
from urllib.parse import urlencode
from urllib.parse import urlsplit

MASK = "***"
# a key whose value is a secret: api_key, apiKey, aws_secret_access_key, password, token …
_SECRET_KEY = re.compile(r"(pass(word|wd)?|secret|token|api[_-]?key|apikey|access[_-]?key|"
                         r"credential|authorization|auth|private[_-]?key|session[_-]?key)$",
                         re.IGNORECASE)
# scheme://user:password@ — the password part (no '@' or whitespace inside)
_USERINFO = re.compile(r"(?P<pre>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)(?P<pw>[^\s@/]*)(?=@)")
_QUERY_SECRET = re.compile(r"(?P<pre>[?&](?:[\w.-]*?)(?:pass(?:word)?|secret|token|api[_-]?key|"
                           r"apikey|access[_-]?key|signature|sig)=)(?P<val>[^&#\s]*)",
                           re.IGNORECASE)

# --api-key=VALUE, --password=VALUE … on a command line
_OPTION_SECRET = re.compile(r"(?P<pre>--?[\w-]*(?:pass(?:word)?|secret|token|api[_-]?key|"
                            r"apikey|access[_-]?key)=)(?P<val>\S*)", re.IGNORECASE)


# secrets that look like secrets wherever they appear
_SHAPES = [
    # Authorization / API-key headers and their values, as text or in JSON
    (re.compile(r"(?i)\b(authorization|proxy-authorization)(\"?\s*[:=]\s*\"?)(bearer|basic|token)?"
                r"\s*[^\s\",;]+"), lambda m: f"{m[1]}{m[2]}{(m[3] + ' ') if m[3] else ''}{MASK}"),
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{8,}"), lambda m: f"{m[1]} {MASK}"),
    (re.compile(r"(?i)\b(x-api-key|api[-_]?key|access[-_]?token|secret|password|passwd|token)"
                r"(\"?\s*[:=]\s*\"?)[^\s\",;&]+"), lambda m: f"{m[1]}{m[2]}{MASK}"),
    # vendor key shapes: OpenAI/Anthropic style sk-…, AWS access key ids
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"), lambda m: f"sk-{MASK}"),
    (re.compile(r"\b(AKIA|ASIA)[A-Z0-9]{16}\b"), lambda m: f"{m[1]}{MASK}"),
    # a URL whose user part alone is the credential (https://TOKEN@host): the password of
    # user:password is masked by _USERINFO, which keeps the user
    (re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://)[^/\s:@\"']+@"), lambda m: f"{m[1]}{MASK}@"),
]


def is_secret_key(key: str) -> bool:
    """Whether a settings key names a secret (``api_key``, ``password``, ``token`` …)."""
    return bool(_SECRET_KEY.search(str(key).replace("-", "_")))


def redact_uri(uri: str) -> str:
    """``uri`` without its password or secret query options (anything else unchanged)."""
    if not isinstance(uri, str) or "://" not in uri and "?" not in uri:
        return uri
    try:
        parts = urlsplit(uri)
    except ValueError:
        return redact_text(uri)
    netloc = parts.netloc
    if parts.password is not None:
        host = netloc.rpartition("@")[2]
        netloc = f"{parts.username}:{MASK}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(is_secret_key(k) for k, _ in pairs):
            query = urlencode([(k, MASK if is_secret_key(k) else v) for k, v in pairs],
                              safe="*")
    return parts._replace(netloc=netloc, query=query).geturl()


def redact_argv(argv: list[str]) -> list[str]:
    """A command line with secrets masked: URIs with credentials, ``--api-key=X`` and the
    argument after an option named like a secret (``--password X``)."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        prev = argv[i - 1] if i else ""
        if prev.startswith("-") and "=" not in prev and is_secret_key(prev.lstrip("-")):
            out.append(MASK)
        else:
            out.append(redact_text(arg))
    return out


def redact_text(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with the password of every ``scheme://user:password@``, every secret query
    option and option value, everything shaped like a secret and each of ``secrets`` (an API
    key the caller holds) masked (messages, command lines, provider error bodies)."""
    if not isinstance(text, str):
        return text
    for s in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(s, MASK)
    out = _USERINFO.sub(lambda m: m.group("pre") + (MASK if m.group("pw") else ""), text)
    out = _OPTION_SECRET.sub(lambda m: m.group("pre") + MASK, out)
    out = _QUERY_SECRET.sub(lambda m: m.group("pre") + MASK, out)
    for pattern, repl in _SHAPES:
        out = pattern.sub(repl, out)
    return out


def redact_settings(value: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, strings …) with secret fields masked and every
    string's URIs redacted. An empty or None secret stays as it is (nothing to hide)."""
    if isinstance(value, dict):
        return {k: (MASK if is_secret_key(k) and v not in (None, "") and not isinstance(
                    v, dict | list) else redact_settings(v)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_settings(v) for v in value]
    if isinstance(value, str):
        return redact_text(value)
    return value
