"""The terminal-safety helper: every control character a terminal could act on is shown
escaped; ordinary text (accents, scripts, emoji sequences, tabs) is left alone."""

from __future__ import annotations

import json
import logging

import pytest

from byokg.presentation.termsafe import TerminalSafeFormatter
from byokg.presentation.termsafe import json_safe
from byokg.presentation.termsafe import terminal_safe

HOSTILE = {
    "\x1b[2J": "\\x1b[2J",  # CSI: clear screen
    "\x1b]0;owned\x07": "\\x1b]0;owned\\x07",  # OSC: set the window title
    "a\rb": "a\\rb",  # carriage return overwrites the line
    "\x00\x08\x7f": "\\x00\\x08\\x7f",  # NUL, backspace, DEL
    "\x9b31m\x9d": "\\x9b31m\\x9d",  # C1 CSI and OSC
    "\u202eevil": "\\u202eevil",  # right-to-left override
    "\u2066x\u2069": "\\u2066x\\u2069",  # bidi isolates
    "a\u2028b": "a\\u2028b",  # line separator
    "\ud800": "\\ud800",  # a lone surrogate (cannot be encoded for the terminal)
}


@pytest.mark.parametrize("raw, shown", list(HOSTILE.items()))
def test_controls_are_shown_escaped(raw, shown):
    assert terminal_safe(raw) == shown
    out = terminal_safe(raw)
    assert all(ord(ch) >= 0x20 and not 0x7F <= ord(ch) < 0xA0 for ch in out)
    out.encode("utf-8")  # printable: no lone surrogate left


def test_ordinary_text_is_unchanged():
    text = "Beyoncé Knowles-Carter\t北京 · Ελλάδα · 👩‍💻 (ZWJ kept) · naïve — ok"
    assert terminal_safe(text) == text


def test_newlines_kept_only_when_asked():
    assert terminal_safe("a\nb") == "a\\nb"
    assert terminal_safe("a\nb\r\n", newlines=True) == "a\nb\\r\n"
    assert terminal_safe(42) == "42"


def test_json_safe_keeps_the_value():
    value = {"name": "x\x9b\u202e\u2028\ud800\x1b y", "ok": "Björk"}
    text = json.dumps(value, ensure_ascii=False)
    safe = json_safe(text)
    assert json.loads(safe) == value
    assert "Björk" in safe  # readable non-ASCII stays
    assert all(ch not in safe for ch in "\x9b\u202e\u2028\x1b")


def test_log_formatter_escapes():
    rec = logging.LogRecord("byokg.x", logging.INFO, __file__, 1, "linked %s", ("\x1b[31mred",),
                            None)
    assert TerminalSafeFormatter("%(message)s").format(rec) == "linked \\x1b[31mred"
