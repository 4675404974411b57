"""byokg's error types. Every error carries a message a user can act on."""

from __future__ import annotations

from typing import Any


class ByokgError(Exception):
    """Base class: the CLI prints these as one line and exits non-zero."""


class ConfigError(ByokgError):
    """Bad options, unknown names, missing settings."""


class InputError(ByokgError):
    """Malformed user input (a file, a row, a field).

    ``source`` names the file (or stream), ``line`` the 1-based line, ``field`` the field.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.source, self.line, self.field = source, line, field
        where = ""
        if source:
            where = source + (f":{line}" if line is not None else "")
            where += f" (field {field!r})" if field else ""
            where += ": "
        super().__init__(where + message)


class PluginError(ByokgError):
    """A plugin failed to load or registered a name twice."""


class BackendError(ByokgError):
    """A graph backend failed (connection, query, capability)."""

    def __init__(self, message: str, *, uri: str | None = None, code: str | None = None) -> None:
        self.uri, self.code = uri, code
        super().__init__(message)


class CapabilityError(BackendError):
    """The store lacks a capability a feature needs."""


class QueryError(BackendError):
    """A graph query failed; ``code`` is the backend's error code where it has one."""


class ReadOnlyViolation(QueryError):
    """A generated query would write to the graph (or the guard cannot read it as a read
    query); it was not run."""


class LLMError(ByokgError):
    """An LLM provider failed after its retries (``code`` from the provider where known).

    When raised out of the engine, ``trace`` holds the run so far and ``partial`` an Answer
    without answers (the context retrieved before the failure). ``summary`` is what a client
    of a server may be told (the provider's status and kind, no text of its reply).
    """

    def __init__(self, message: str, *, code: str | None = None,
                 summary: str | None = None) -> None:
        self.code = code
        self.summary = summary
        self.trace: Any = None
        self.partial: Any = None
        super().__init__(message)


class ModelNotFoundError(ConfigError):
    """A local model path is missing."""


def invalid_text(text: str) -> str | None:
    """Why ``text`` is not valid text, or None: a lone UTF-16 surrogate (JSON may carry one as
    an escape such as ``"\\ud800"``; no UTF-8 can hold it, so it fails wherever it is written)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"it holds a lone surrogate (U+{ord(text[exc.start]):04X}) at character "
                f"{exc.start + 1}, which is not valid text; send UTF-8 text")
    return None
