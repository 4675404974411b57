"""The BERT uncased WordPiece tokenizer in plain Python (no ``tokenizers``, no ``transformers``).

Gives the ids the ``tokenizers`` BERT tokenizer of MiniLM gives: the basic tokenizer (drop
control characters, whitespace to spaces, spaces around CJK ideographs, strip accents,
lower-case, split on whitespace and punctuation) and then greedy longest-match-first WordPiece
with the ``##`` continuation prefix, ``[UNK]`` for a word it cannot cover or one longer than
``max_input_chars_per_word`` characters.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from collections.abc import Sequence
from pathlib import Path

from byokg.errors import ConfigError

SPECIAL = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
_SPECIAL_RE = re.compile("(" + "|".join(re.escape(t) for t in SPECIAL) + ")")

# CJK Unified Ideographs blocks BERT isolates (not Hiragana, Katakana or Hangul).
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
        (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _is_cjk(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _CJK)


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True  # every non-alphanumeric ASCII symbol, like "$" and "^"
    return unicodedata.category(ch).startswith("P")


def _is_control(ch: str) -> bool:
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def _is_whitespace(ch: str) -> bool:
    return ch in " \t\n\r" or ch.isspace() or unicodedata.category(ch) == "Zs"


def basic_tokenize(text: str) -> list[str]:
    """Clean, lower-case and accent-strip ``text``; split it on whitespace and punctuation."""
    if text.isascii():
        # the common case: no accents, no CJK, lower() is per character
        chars = [(" " if c in "\t\n\r" else c) for c in text if c >= " " or c in "\t\n\r"]
        text = "".join(c for c in chars if c != "\x7f").lower()
    else:
        out: list[str] = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD or _is_control(ch):
                continue
            if _is_whitespace(ch):
                out.append(" ")
            elif _is_cjk(cp):
                out.extend((" ", ch, " "))
            else:
                out.append(ch)
        text = unicodedata.normalize("NFD", "".join(out))
        # strip accents, then lower-case each character on its own (as the Rust normaliser
        # does: no final-sigma rule)
        text = "".join(c.lower() for c in text if unicodedata.category(c) != "Mn")
    words: list[str] = []
    for chunk in text.split():
        start = 0
        for i, ch in enumerate(chunk):
            if _is_punctuation(ch):
                if i > start:
                    words.append(chunk[start:i])
                words.append(ch)
                start = i + 1
        if start < len(chunk):
            words.append(chunk[start:])
    return words


class WordPiece:
    """A BERT uncased tokenizer from a ``vocab.txt`` (one token a line, the line number its id).

    ``encode`` gives ``[CLS] … [SEP]`` ids, truncated to ``max_length`` tokens with both kept.
    """

    def __init__(self, vocab: Sequence[str], *, max_input_chars_per_word: int = 100,
                 source: str = "vocabulary") -> None:
        self.tokens = list(vocab)
        self.vocab = {t: i for i, t in enumerate(self.tokens)}
        missing = [t for t in SPECIAL if t not in self.vocab]
        if missing:
            raise ConfigError(f"{source}: the WordPiece vocabulary lacks {', '.join(missing)}; "
                              "give the vocab.txt of a BERT uncased model")
        self.source = source
        self.max_input_chars_per_word = max_input_chars_per_word
        self.pad_id, self.unk_id, self.cls_id, self.sep_id, self.mask_id = (
            self.vocab[t] for t in SPECIAL)
        self._word_cache: dict[str, tuple[int, ...]] = {}

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], **options: int) -> WordPiece:
        """Read a ``vocab.txt``; a missing or unreadable file is a clear error naming it."""
        p = Path(path)
        try:
            lines = p.read_text(encoding="utf-8").split("\n")
        except OSError as exc:
            raise ConfigError(f"{p}: cannot read the WordPiece vocabulary ({exc.strerror})") from None
        if lines and lines[-1] == "":
            lines.pop()
        return cls([ln.rstrip("\r") for ln in lines], source=str(p), **options)

    def __len__(self) -> int:
        return len(self.tokens)

    def word_ids(self, word: str) -> tuple[int, ...]:
        """Greedy longest-match-first WordPiece ids of one basic token (cached)."""
        hit = self._word_cache.get(word)
        if hit is not None:
            return hit
        ids: list[int] = []
        if len(word) > self.max_input_chars_per_word:
            ids = [self.unk_id]
        else:
            start, n = 0, len(word)
            while start < n:
                end = n
                found = None
                while start < end:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    found = self.vocab.get(piece)
                    if found is not None:
                        break
                    end -= 1
                if found is None:
                    ids = [self.unk_id]  # one piece cannot be covered: the whole word is [UNK]
                    break
                ids.append(found)
                start = end
        out = tuple(ids)
        if len(self._word_cache) < 500_000:
            self._word_cache[word] = out
        return out

    def tokenize(self, text: str) -> list[str]:
        """The WordPiece tokens of ``text`` (no ``[CLS]``/``[SEP]``)."""
        return [self.tokens[i] for i in self.ids(text)]

    def ids(self, text: str) -> list[int]:
        """The WordPiece ids of ``text`` (a special token written in it, like ``[MASK]``, is
        kept whole, as the ``tokenizers`` tokenizer keeps its added tokens)."""
        out: list[int] = []
        parts = _SPECIAL_RE.split(text) if "[" in text else [text]
        for part in parts:
            if part in self.vocab and part in SPECIAL:
                out.append(self.vocab[part])
                continue
            for word in basic_tokenize(part):
                out.extend(self.word_ids(word))
        return out

    def encode(self, text: str, *, max_length: int = 512) -> list[int]:
        """``[CLS] ids [SEP]``, the ids cut so the whole fits in ``max_length``."""
        if max_length < 2:
            raise ConfigError(f"max_length must be at least 2, got {max_length}")
        return [self.cls_id, *self.ids(text)[: max_length - 2], self.sep_id]

    def encode_batch(self, texts: Iterable[str], *, max_length: int = 512) -> list[list[int]]:
        return [self.encode(t, max_length=max_length) for t in texts]
