"""A small Cypher lexer: enough structure to reason about queries without regexes.

It splits a query into tokens, keeping string literals, backtick-quoted names and comments as
single tokens so that callers can look at *code* only: a ``CREATE`` inside ``'…'``, ``/*…*/`` or
`` `…` `` is never mistaken for a clause. Offsets refer to the text given to :func:`tokenize`,
so callers can rewrite a query by splicing at token boundaries.

``normalize`` makes the text canonical first (NFKC, format characters removed) so that
full-width letters or zero-width joiners cannot hide a keyword.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    WORD = "word"  # identifiers and keywords (unquoted)
    NAME = "name"  # `backtick quoted` name; ``value`` is the unescaped name
    STRING = "string"  # 'single' or "double" quoted literal; ``value`` is the unescaped text
    NUMBER = "number"
    PARAM = "param"  # $name or $0
    PUNCT = "punct"  # operators and brackets
    COMMENT = "comment"


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str  # raw text as written
    start: int
    end: int
    value: str = ""  # unescaped content for STRING / NAME, upper-cased word for WORD

    @property
    def upper(self) -> str:
        return self.text.upper() if self.kind is Kind.WORD else ""

    def is_word(self, *words: str) -> bool:
        return self.kind is Kind.WORD and self.text.upper() in words

    def is_punct(self, *ps: str) -> bool:
        return self.kind is Kind.PUNCT and self.text in ps


class LexError(ValueError):
    """The query cannot be tokenised (unterminated literal or comment, stray character)."""

    def __init__(self, message: str, position: int) -> None:
        self.position = position
        super().__init__(f"{message} at offset {position}")


_MULTI = ("<>", "<=", ">=", "=~", "->", "<-", "..", "+=", "!=", "::", "||")
_SINGLE = set("()[]{},;:.|+-*/%^=<>!&?@#~")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "'": "'", '"': '"', "\\": "\\"}
_FORMAT_EXTRA = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u034f", "\u180b", "\u180c", "\u180d"}


def normalize(text: str) -> tuple[str, list[str]]:
    """NFKC-normalise ``text`` and drop invisible format characters.

    Returns the new text and a list of notes (what was changed), so a caller can record that a
    query was altered. ``\r\n``, ``\r`` and line/paragraph separators become ``\n``; control
    whitespace (VT, FF, FS…US) becomes a space.
    """
    notes: list[str] = []
    nfkc = unicodedata.normalize("NFKC", text)
    if nfkc != text:
        notes.append("NFKC normalisation changed the text")
    # One line ending for everybody: ArcadeDB ends a // comment at \r, Kùzu and Neo4j at \n;
    # the normalised text is what runs, so no backend can read a comment differently.
    nfkc = nfkc.replace("\r\n", "\n").replace("\r", "\n")
    out = []
    dropped = 0
    for ch in nfkc:
        cat = unicodedata.category(ch)
        if ch in "\u2028\u2029\u0085":
            out.append("\n")
        elif ch in "\x0b\x0c\x1c\x1d\x1e\x1f":  # control whitespace -> plain space
            out.append(" ")
        elif cat == "Cf" or ch in _FORMAT_EXTRA or (0xFE00 <= ord(ch) <= 0xFE0F):
            dropped += 1
        elif 0xE0100 <= ord(ch) <= 0xE01EF:  # variation selectors supplement
            dropped += 1
        else:
            out.append(ch)
    if dropped:
        notes.append(f"removed {dropped} invisible format character(s)")
    return "".join(out), notes


def _is_ident_start(ch: str) -> bool:
    return ch == "_" or ch.isalpha()


def _is_ident_part(ch: str) -> bool:
    return ch == "_" or ch.isalnum() or unicodedata.category(ch) in ("Mn", "Mc", "Pc")


def tokenize(text: str, *, backslash_escapes: bool = True, keep_comments: bool = False) -> list[Token]:
    """Split ``text`` into tokens (whitespace dropped; comments dropped unless asked).

    ``backslash_escapes`` selects whether ``\\'`` escapes a quote inside a string literal (Neo4j
    and Kùzu: yes). The guard lexes both ways so a backend that disagrees cannot be fooled.
    Raises :class:`LexError` on an unterminated string, name or block comment.
    """
    toks: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            if keep_comments:
                toks.append(Token(Kind.COMMENT, text[i:j], i, j))
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise LexError("unterminated /* comment", i)
            if keep_comments:
                toks.append(Token(Kind.COMMENT, text[i : j + 2], i, j + 2))
            i = j + 2
            continue
        if ch in "'\"":
            j, buf = i + 1, []
            while True:
                if j >= n:
                    raise LexError("unterminated string literal", i)
                c = text[j]
                if c == "\\" and backslash_escapes and j + 1 < n:
                    nxt = text[j + 1]
                    if nxt == "u" and j + 5 < n + 0:
                        hexs = text[j + 2 : j + 6]
                        try:
                            buf.append(chr(int(hexs, 16)))
                            j += 6
                            continue
                        except ValueError:
                            pass
                    buf.append(_ESCAPES.get(nxt, "\\" + nxt))
                    j += 2
                    continue
                if c == ch:
                    break
                buf.append(c)
                j += 1
            toks.append(Token(Kind.STRING, text[i : j + 1], i, j + 1, "".join(buf)))
            i = j + 1
            continue
        if ch == "`":
            j, buf = i + 1, []
            while True:
                if j >= n:
                    raise LexError("unterminated `quoted name`", i)
                if text[j] == "`":
                    if j + 1 < n and text[j + 1] == "`":  # `` is an escaped backtick
                        buf.append("`")
                        j += 2
                        continue
                    break
                buf.append(text[j])
                j += 1
            toks.append(Token(Kind.NAME, text[i : j + 1], i, j + 1, "".join(buf)))
            i = j + 1
            continue
        if ch == "$":
            j = i + 1
            while j < n and _is_ident_part(text[j]):
                j += 1
            if j == i + 1 and j < n and text[j] == "`":  # $`quoted param`
                k = text.find("`", j + 1)
                if k < 0:
                    raise LexError("unterminated `quoted name`", j)
                j = k + 1
            toks.append(Token(Kind.PARAM, text[i:j], i, j, text[i + 1 : j]))
            i = j
            continue
        if ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()
                            and not (toks and toks[-1].kind in (Kind.WORD, Kind.NAME))):
            j = i
            if text.startswith(("0x", "0X"), i):
                j = i + 2
                while j < n and text[j] in "0123456789abcdefABCDEF_":
                    j += 1
            else:
                while j < n and (text[j].isdigit() or text[j] == "_"):
                    j += 1
                if j + 1 < n and text[j] == "." and text[j + 1].isdigit():
                    j += 1
                    while j < n and text[j].isdigit():
                        j += 1
                if j < n and text[j] in "eE" and (
                    (j + 1 < n and text[j + 1].isdigit())
                    or (j + 2 < n and text[j + 1] in "+-" and text[j + 2].isdigit())
                ):
                    j += 2
                    while j < n and text[j].isdigit():
                        j += 1
            toks.append(Token(Kind.NUMBER, text[i:j], i, j, text[i:j]))
            i = j
            continue
        if _is_ident_start(ch):
            j = i + 1
            while j < n and _is_ident_part(text[j]):
                j += 1
            toks.append(Token(Kind.WORD, text[i:j], i, j, text[i:j].upper()))
            i = j
            continue
        two = text[i : i + 2]
        if two in _MULTI:
            toks.append(Token(Kind.PUNCT, two, i, i + 2, two))
            i += 2
            continue
        if ch in _SINGLE:
            toks.append(Token(Kind.PUNCT, ch, i, i + 1, ch))
            i += 1
            continue
        # Anything else (a control character, a symbol no Cypher grammar uses) is kept as a
        # one-character punctuation token; the guard decides whether that is acceptable.
        toks.append(Token(Kind.PUNCT, ch, i, i + 1, ch))
        i += 1
    return toks


def code_tokens(tokens: list[Token]) -> list[Token]:
    """Tokens without comments."""
    return [t for t in tokens if t.kind is not Kind.COMMENT]


def depths(tokens: list[Token]) -> list[int]:
    """Bracket nesting depth (of (), [] and {}) *before* each token."""
    out, d = [], 0
    for t in tokens:
        if t.kind is Kind.PUNCT and t.text in ")]}":
            d = max(0, d - 1)
        out.append(d)
        if t.kind is Kind.PUNCT and t.text in "([{":
            d += 1
    return out


def quote_name(name: str) -> str:
    """Backtick-quote an identifier (backticks inside doubled)."""
    return "`" + name.replace("`", "``") + "`"
