"""Small text helpers shared by the question analysis, linking, verbalizers and metrics: one
normaliser, one tokenizer, one stemmer and one stopword list for the whole project."""

from __future__ import annotations

import re
import unicodedata

from byokg.language import lexicon

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_SPACES = re.compile(r"\s+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

STOPWORDS = lexicon.STOPWORDS  # English function words (byokg.language.lexicon)


def normalize(text: str) -> str:
    """Case-, accent-, punctuation- and whitespace-insensitive form of a name.

    ``"  Beyoncé Knowles-Carter! "`` -> ``"beyonce knowles carter"``.
    """
    text = unicodedata.normalize("NFKD", text.translate(_ZERO_WIDTH))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _NON_WORD.sub(" ", text.casefold()).replace("_", " ")
    return _SPACES.sub(" ", text).strip()


# a run of characters UTF-8 bytes turn into when read as Windows-1252 / Latin-1 ("Ã¥" for "å")
_MOJIBAKE = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d"
                       "\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022"
                       "\u2026\u2030\u2039\u203a\u20ac\u2122]{1,3}")


def _as_bytes(run: str) -> bytes | None:
    out = bytearray()
    for ch in run:
        try:
            out += ch.encode("cp1252")
        except UnicodeEncodeError:
            if ord(ch) > 0xFF:
                return None
            out.append(ord(ch))  # bytes cp1252 leaves undefined pass through as Latin-1
    return bytes(out)


def repair_mojibake(text: str) -> str:
    """Undo UTF-8 text that was decoded as Windows-1252 ("HagÃ¥tÃ±a" -> "Hagåtña"), one
    character run at a time; runs whose bytes are not valid UTF-8 (some were lost) stay as
    written."""
    if not _MOJIBAKE.search(text):
        return text

    def fix(m: re.Match[str]) -> str:
        raw = _as_bytes(m.group())
        if raw is None:
            return m.group()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return m.group()

    return _MOJIBAKE.sub(fix, text)


def words(text: str) -> list[str]:
    """Lower-case word tokens of a question, name or relation (camelCase and dots split)."""
    return normalize(_CAMEL.sub(" ", text).replace(".", " ")).split()


def stem(word: str) -> str:
    """A light English suffix stripper (``directed`` -> ``direct``, ``cities`` -> ``cit``)."""
    for suf in lexicon.STEM_SUFFIXES:
        if len(word) > len(suf) + 3 and word.endswith(suf):
            return word[: -len(suf)]
    return word


def content_words(text: str) -> list[str]:
    """The words of ``text`` that are not stopwords (order kept, repeats dropped)."""
    return list(dict.fromkeys(w for w in words(text) if w not in STOPWORDS))


def count_tokens(text: str) -> int:
    """Cheap, model-free token estimate: about four characters or one word per token."""
    if not text:
        return 0
    return max((len(text) + 3) // 4, len(text.split()))
