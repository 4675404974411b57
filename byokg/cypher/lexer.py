"""A Cypher lexer that reads a query the way the engines' own grammars do.

It splits a query into tokens, keeping string literals, backtick-quoted names and comments as
single tokens so that callers look at *code* only: a ``CREATE`` inside ``'…'``, ``/*…*/`` or
`` `…` `` is never mistaken for a clause. Offsets refer to the text given to :func:`tokenize`,
so callers can rewrite a query by splicing at token boundaries.

The rules follow the engines' grammars (openCypher ``Cypher.g4``, which Kùzu's grammar copies,
and Neo4j 5's ``CypherLexer``):

* ``//`` comments end at a line break; ``/* … */`` comments end at the first ``*/`` in Neo4j
  but in openCypher/Kùzu a ``*`` always swallows the next character, so ``/* **/`` is *not*
  closed there. ``strict`` lexing reads every block comment both ways and rejects a query
  where the two readings disagree (or a comment holds ``/*``).
* strings take backslash escapes; ``strict`` accepts only the escapes every engine reads the
  same way (``\\\\ \\' \\" \\b \\f \\n \\r \\t \\uXXXX``).
* ``$name`` / ``$0`` parameters: a parameter number glued to a name (``$0CREATE`` is ``$0``
  then ``CREATE`` to Kùzu), a currency sign inside a name (part of the name to the grammars)
  and the Unicode arrows and dashes Kùzu reads as ``<``, ``>``, ``-`` are rejected by
  ``strict`` lexing. Other stray characters become one-character tokens the parser refuses.

``normalize`` makes the text canonical first (NFKC, format characters removed, one kind of line
break and space) so that full-width letters or zero-width joiners cannot hide a keyword; the
normalised text is the text that runs.
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
    """The query cannot be tokenised (unterminated literal or comment, stray character), or —
    in strict mode — engines would tokenise it differently."""

    def __init__(self, message: str, position: int) -> None:
        self.position = position
        super().__init__(f"{message} at offset {position}")


_MULTI = ("<>", "<=", ">=", "=~", "->", "<-", "..", "+=", "!=", "::", "||", ":=")
# Kùzu reads these as '<', '>' and '-' (oC_LeftArrowHead, oC_RightArrowHead, oC_Dash).
_ARROWS = set("\u27e8\u3008\ufe64\uff1c\u27e9\u3009\ufe65\uff1e\u00ad\u2010\u2011\u2012"
              "\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "'": "'", '"': '"', "\\": "\\"}
_FORMAT_EXTRA = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u034f", "\u180b", "\u180c", "\u180d"}


def normalize(text: str) -> tuple[str, list[str]]:
    """NFKC-normalise ``text`` and drop invisible format characters.

    Returns the new text and a list of notes (what was changed), so a caller can record that a
    query was altered. ``\\r\\n``, ``\\r`` and line/paragraph separators become ``\\n``; every
    other kind of whitespace (VT, FF, FS…US, NEL, no-break and ideographic spaces) becomes a
    plain space.
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
        if ch in "\u2028\u2029\u0085":
            out.append("\n")
        elif ch.isspace() and ch not in " \t\n":
            out.append(" ")
        elif _invisible(ch):
            dropped += 1
        else:
            out.append(ch)
    if dropped:
        notes.append(f"removed {dropped} invisible format character(s)")
    return "".join(out), notes


def _invisible(ch: str) -> bool:
    o = ord(ch)
    return (unicodedata.category(ch) == "Cf" or ch in _FORMAT_EXTRA or 0xFE00 <= o <= 0xFE0F
            or 0xE0100 <= o <= 0xE01EF)


def is_ident_start(ch: str) -> bool:
    """Unicode ID_Start (or ``_``), as the grammars' ``IdentifierStart``."""
    return ch == "_" or ch.isidentifier()


def is_ident_part(ch: str) -> bool:
    """Unicode ID_Continue, as the grammars' ``IdentifierPart`` (currency signs aside)."""
    return ("a" + ch).isidentifier()


class _Scanner:
    """One pass over the text; ``strict`` turns every ambiguity into a :class:`LexError`."""

    def __init__(self, text: str, *, backslash_escapes: bool, keep_comments: bool,
                 strict: bool, opencypher_comments: bool) -> None:
        self.text, self.n = text, len(text)
        self.escapes, self.keep, self.strict = backslash_escapes, keep_comments, strict
        self.oc_comments = opencypher_comments
        self.toks: list[Token] = []

    def run(self) -> list[Token]:
        i = 0
        while i < self.n:
            i = self._step(i)
        return self.toks

    def _add(self, kind: Kind, start: int, end: int, value: str = "") -> int:
        self.toks.append(Token(kind, self.text[start:end], start, end, value))
        return end

    def _step(self, i: int) -> int:
        text, ch = self.text, self.text[i]
        if ch.isspace():
            return i + 1
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = self.n if j < 0 else j
            return self._add(Kind.COMMENT, i, j) if self.keep else j
        if text.startswith("/*", i):
            j = self._block_comment(i)
            return self._add(Kind.COMMENT, i, j) if self.keep else j
        if ch in "'\"":
            return self._string(i)
        if ch == "`":
            j, value = self._quoted_name(i)
            return self._add(Kind.NAME, i, j, value)
        if ch == "$":
            return self._param(i)
        if ch.isdigit() or (ch == "." and i + 1 < self.n and text[i + 1].isdigit()
                            and not (self.toks and self.toks[-1].kind in (Kind.WORD, Kind.NAME))):
            return self._number(i)
        if is_ident_start(ch):
            return self._word(i)
        return self._punct(i)

    # ------------------------------------------------------------------ comments
    def _block_comment(self, i: int) -> int:
        """End of the ``/* … */`` comment at ``i``; strict mode checks both engines' rules."""
        std = self.text.find("*/", i + 2)
        std_end = -1 if std < 0 else std + 2
        oc_end = _opencypher_comment_end(self.text, i)
        end = oc_end if self.oc_comments else std_end
        if end < 0:
            raise LexError("unterminated /* comment", i)
        if self.strict:
            if std_end != oc_end:
                raise LexError(
                    "block comment ends at a different place for Neo4j (first */) and for "
                    "openCypher/Kùzu (a '*' swallows the next character, so '**/' does not "
                    "close it); rewrite the comment", i)
            if "/*" in self.text[i + 2:end - 2]:
                raise LexError("'/*' inside a block comment (some engines nest comments)", i)
        return end

    # ------------------------------------------------------------------ literals
    def _string(self, i: int) -> int:
        text, quote = self.text, self.text[i]
        j, buf = i + 1, []
        while True:
            if j >= self.n:
                raise LexError("unterminated string literal", i)
            c = text[j]
            if c == "\\" and self.escapes:
                j = self._escape(j, buf)
                continue
            if c == quote:
                break
            buf.append(c)
            j += 1
        return self._add(Kind.STRING, i, j + 1, "".join(buf))

    def _escape(self, j: int, buf: list[str]) -> int:
        """Read the escape at ``text[j] == '\\'``; return the index after it."""
        text = self.text
        if j + 1 >= self.n:
            raise LexError("unterminated string literal (trailing backslash)", j)
        nxt = text[j + 1]
        if nxt in "uU":
            hexs = text[j + 2:j + 6]
            if len(hexs) == 4 and all(c in "0123456789abcdefABCDEF" for c in hexs):
                buf.append(chr(int(hexs, 16)))
                return j + 6
        elif nxt in _ESCAPES:
            buf.append(_ESCAPES[nxt])
            return j + 2
        if self.strict:
            raise LexError(f"escape sequence \\{nxt} in a string is read differently by the "
                           "engines (use \\\\, \\', \\\", \\n, \\t, \\r, \\b, \\f or \\uXXXX)", j)
        buf.append("\\" + nxt)
        return j + 2

    def _quoted_name(self, i: int) -> tuple[int, str]:
        j, buf = i + 1, []
        while True:
            if j >= self.n:
                raise LexError("unterminated `quoted name`", i)
            if self.text[j] == "`":
                if j + 1 < self.n and self.text[j + 1] == "`":  # `` is an escaped backtick
                    buf.append("`")
                    j += 2
                    continue
                break
            buf.append(self.text[j])
            j += 1
        if self.strict and not buf:
            raise LexError("empty `` name", i)
        return j + 1, "".join(buf)

    def _param(self, i: int) -> int:
        text, j = self.text, i + 1
        if j < self.n and text[j] == "`":
            end, value = self._quoted_name(j)
            return self._add(Kind.PARAM, i, end, value)
        if j < self.n and text[j].isdigit():
            while j < self.n and text[j].isdigit():
                j += 1
            glued = j < self.n and (is_ident_part(text[j]) or _is_currency(text[j]))
            if self.strict and (glued or (text[i + 1] == "0" and j > i + 2)):
                raise LexError(f"parameter {text[i:j + 1]!r}…: engines split a number glued "
                               "to a name differently (e.g. $0CREATE is $0 then CREATE)", i)
        elif j < self.n and is_ident_start(text[j]):
            while j < self.n and is_ident_part(text[j]):
                j += 1
            self._check_glued(i, j)
        elif self.strict:
            raise LexError("'$' not followed by a parameter name", i)
        return self._add(Kind.PARAM, i, j, text[i + 1:j])

    def _number(self, i: int) -> int:
        text, j = self.text, i
        if text.startswith(("0x", "0X", "0o", "0O"), i):
            j = i + 2
            while j < self.n and text[j] in "0123456789abcdefABCDEF_":
                j += 1
        else:
            while j < self.n and (text[j].isdigit() or text[j] == "_"):
                j += 1
            if j + 1 < self.n and text[j] == "." and text[j + 1].isdigit():
                j += 1
                while j < self.n and text[j].isdigit():
                    j += 1
            if j < self.n and text[j] in "eE" and (
                (j + 1 < self.n and text[j + 1].isdigit())
                or (j + 2 < self.n and text[j + 1] in "+-" and text[j + 2].isdigit())
            ):
                j += 2
                while j < self.n and text[j].isdigit():
                    j += 1
        if self.strict and j < self.n and (is_ident_part(text[j]) or _is_currency(text[j])):
            raise LexError(f"number {text[i:j + 1]!r}… glued to a name", i)
        return self._add(Kind.NUMBER, i, j, text[i:j])

    def _word(self, i: int) -> int:
        j = i + 1
        while j < self.n and is_ident_part(self.text[j]):
            j += 1
        self._check_glued(i, j)
        return self._add(Kind.WORD, i, j, self.text[i:j].upper())

    def _check_glued(self, i: int, j: int) -> None:
        if self.strict and j < self.n and _is_currency(self.text[j]):
            raise LexError(f"currency sign {self.text[j]!r} glued to the name "
                           f"{self.text[i:j]!r} (the grammars read it as part of the name); "
                           "quote the name with backticks", j)

    def _punct(self, i: int) -> int:
        two = self.text[i:i + 2]
        if two in _MULTI:
            return self._add(Kind.PUNCT, i, i + 2, two)
        ch = self.text[i]
        if self.strict and (ch in _ARROWS or _is_currency(ch)):
            raise LexError(f"character {ch!r} (U+{ord(ch):04X}) is an arrow, dash or name "
                           "character to some engines; write it in ASCII", i)
        # Anything else (a symbol no Cypher grammar uses) is kept as a one-character token;
        # the parser refuses it.
        return self._add(Kind.PUNCT, i, i + 1, ch)


def _is_currency(ch: str) -> bool:
    return unicodedata.category(ch) == "Sc"


def _opencypher_comment_end(text: str, i: int) -> int:
    """End of a block comment under openCypher/Kùzu's rule ``'/*' (~[*] | '*' ~[/])* '*/'``:
    a ``*`` not followed by ``/`` swallows the next character. -1 when never closed."""
    j, n = i + 2, len(text)
    while j < n:
        if text[j] != "*":
            j += 1
        elif j + 1 < n and text[j + 1] == "/":
            return j + 2
        else:
            j += 2
    return -1


def tokenize(
    text: str, *, backslash_escapes: bool = True, keep_comments: bool = False,
    strict: bool = False, opencypher_comments: bool = False,
) -> list[Token]:
    """Split ``text`` into tokens (whitespace dropped; comments dropped unless asked).

    ``backslash_escapes`` selects whether ``\\'`` escapes a quote inside a string literal (every
    supported engine: yes). ``strict`` raises :class:`LexError` wherever engines could split the
    text differently (see the module docstring); the guard lexes strictly, the rewriters (which
    only see guarded text) leniently. Raises :class:`LexError` on an unterminated string, name
    or block comment in every mode.
    """
    return _Scanner(text, backslash_escapes=backslash_escapes, keep_comments=keep_comments,
                    strict=strict, opencypher_comments=opencypher_comments).run()


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


class UnsafeIdentifier(ValueError):
    """A label, relation type or property name that cannot be written into query text safely
    for an engine (it must be refused: names are not parameters in Cypher)."""


def quote_identifier(name: str, dialect: str | None = None) -> str:
    """Backtick-quote ``name`` by the target engine's rules, or raise :class:`UnsafeIdentifier`.

    Every engine: no empty names, no control characters. Kùzu keeps the text between the outer
    backticks as the name (``a``b`` names "a``b"), so a backtick cannot be written at all.
    Neo4j-compatible servers double backticks; ArcadeDB strips ``/* … */`` comments even inside
    quoted names, so ``/*`` and ``*/`` are refused for every Bolt/openCypher target.
    """
    if not isinstance(name, str) or not name:
        raise UnsafeIdentifier(f"empty or non-text name {name!r}")
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        raise UnsafeIdentifier(f"name {name!r} holds the control character U+{ord(bad):04X}")
    if (dialect or "").lower() in ("kuzu", "ladybug", "falkordb"):  # no escape in `names`
        if "`" in name:
            raise UnsafeIdentifier(f"name {name!r} holds a backtick, which "
                                   f"{'FalkorDB' if dialect == 'falkordb' else 'Kùzu'} cannot "
                                   "quote")
        return f"`{name}`"
    if "/*" in name or "*/" in name:
        raise UnsafeIdentifier(f"name {name!r} holds a comment marker ('/*' or '*/') that some "
                               "servers strip even inside `quoted names`")
    return quote_name(name)
