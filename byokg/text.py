"""Small text helpers shared by linking, verbalizers and metrics."""

from __future__ import annotations

import re
import unicodedata

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"), None)
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Case-, accent-, punctuation- and whitespace-insensitive form of a name.

    ``"  Beyoncé Knowles-Carter! "`` -> ``"beyonce knowles carter"``.
    """
    text = unicodedata.normalize("NFKD", text.translate(_ZERO_WIDTH))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _NON_WORD.sub(" ", text.casefold()).replace("_", " ")
    return _SPACES.sub(" ", text).strip()


def count_tokens(text: str) -> int:
    """Cheap, model-free token estimate: about four characters or one word per token."""
    if not text:
        return 0
    return max((len(text) + 3) // 4, len(text.split()))
