"""Terminal-safe text: graph text, LLM answers and error messages are untrusted.

A node name can carry terminal escape sequences (``\\x1b[2J``, ``\\x1b]0;title\\x07``), a
carriage return that overwrites what was printed, other C0/C1 control characters, bidirectional
overrides that reorder what a reader sees, or a lone surrogate that makes printing fail.
:func:`terminal_safe` shows each of them as a visible escape (``\\x1b``, ``\\r``, ``\\u202e``) so
it is printed, never executed. Every human-readable CLI output goes through it; JSON output is
escaped by ``json.dumps`` instead.
"""

from __future__ import annotations

import logging

# Bidirectional formatting characters (embeddings, overrides, isolates, marks) and the Unicode
# line/paragraph separators some terminals treat as line breaks.
_BIDI_AND_SEPARATORS = (
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _table(*, keep: str) -> dict[int, str]:
    chars = [chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7F, 0xA0)]
    chars += list(_BIDI_AND_SEPARATORS)
    chars += [chr(c) for c in range(0xD800, 0xE000)]  # lone surrogates cannot even be encoded
    return {ord(ch): _escape(ch) for ch in chars if ch not in keep}


_ONE_LINE = _table(keep="\t")
_MULTI_LINE = _table(keep="\t\n")


def terminal_safe(text: object, *, newlines: bool = False) -> str:
    """``text`` with every control character shown as an escape instead of acted on.

    ``newlines=True`` keeps ``\\n`` as a line break (for multi-line output this program built
    itself); otherwise a newline is shown as ``\\n`` too, so one value stays on one line. Tabs
    are kept. Other text, including non-Latin scripts and emoji, is unchanged.
    """
    s = text if isinstance(text, str) else str(text)
    return s.translate(_MULTI_LINE if newlines else _ONE_LINE)


# json.dumps escapes C0 controls but, with ensure_ascii=False, leaves C1 controls, bidi
# overrides, line separators and lone surrogates raw; these can only occur inside JSON strings,
# where a \\uXXXX escape means the same character.
_JSON = {ord(ch): f"\\u{ord(ch):04x}"
         for ch in [chr(c) for c in range(0x7F, 0xA0)] + list(_BIDI_AND_SEPARATORS)
         + [chr(c) for c in range(0xD800, 0xE000)]}


def json_safe(text: str) -> str:
    """JSON text (from ``json.dumps``) with the characters a terminal could act on escaped as
    ``\\uXXXX``: the same JSON value, safe to print."""
    return text.translate(_JSON)


class TerminalSafeFormatter(logging.Formatter):
    """A logging formatter whose output is terminal-safe (log messages quote graph text)."""

    def format(self, record: logging.LogRecord) -> str:
        return terminal_safe(super().format(record), newlines=True)
