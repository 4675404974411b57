"""Numbers, years and dates in linking: they never link fuzzily, they filter.

A fuzzy or dense match is a match of words; a number is a value. So:

- a mention that is only a number or a date ("2010", "1,000", "1918-11-11") links a node only
  by an exact name (the novel *1984*); otherwise it stays a literal for the tools to compare with
  property values;
- a fuzzy or dense candidate must carry the same numbers as the mention: "chemistry 2010" never
  links "chemistry 2000", and "chemistry" never links "chemistry 1901" by a match that ignores
  the number — unless the number is one the question says elsewhere ("the chemistry prize of
  1901": the question's numbers are the *context*);
- a number in the question constrains: among candidates that share a name, those with a
  property whose value is that number (a year, a date in that year) are kept
  (:func:`pick_by_numbers`), and a name written apart in the question ("the chemistry prize in
  1903" for the composite name "chemistry 1903") is found by :func:`number_spots`.

Numbers are read by :mod:`byokg.language.literals`, the one home of number and date literals.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from collections.abc import Sequence
from typing import Any

from byokg.contracts import Candidate
from byokg.contracts import MentionLinks
from byokg.language.literals import YEAR_RANGE
from byokg.language.literals import is_digits
from byokg.language.literals import is_iso_date
from byokg.language.literals import numbers_in

# the per-question scratch key under which the engine keeps the question's text
# (``Services.put``/``peek``): a linker reads the question's numbers from it
QUESTION_KEY = "question-text"
WORD_MATCHES = frozenset({"fuzzy", "dense", "fulltext", "vector"})  # methods that match words


def canon(number: str) -> str:
    """A number written as text in one form: ``1,000`` -> ``1000``, ``007`` -> ``7``,
    ``3.50`` -> ``3.5``."""
    s = number.replace(",", "")
    if "." in s:
        whole, _, frac = s.partition(".")
        frac = frac.rstrip("0")
        s = (whole.lstrip("0") or "0") + ("." + frac if frac else "")
        return s
    return s.lstrip("0") or "0"


def numbers_of(text: str) -> frozenset[str]:
    """The numbers written in ``text``, in canonical form."""
    return frozenset(canon(n) for n in numbers_in(text))


def only_number(text: str) -> bool:
    """A mention that is a number or a date and nothing else."""
    return bool(text.strip()) and is_digits(text)


def context_numbers(mentions: Iterable[str], question: str | None = None) -> frozenset[str]:
    """The numbers a question says: in its text and in any of its mentions."""
    out: set[str] = set()
    for m in mentions:
        out |= numbers_of(m)
    if question:
        out |= numbers_of(question)
    return frozenset(out)


def numbers_agree(mention: str, name: str, context: frozenset[str] = frozenset()) -> bool:
    """Whether a word match of ``mention`` to ``name`` may stand as far as numbers go: the
    mention is not a number alone, every number of the mention is in the name, and every
    number of the name is in the mention or in ``context`` (the question's numbers)."""
    if only_number(mention):
        return False
    mine, theirs = numbers_of(mention), numbers_of(name)
    return mine <= theirs and theirs - mine <= context


def filter_numbers(ml: MentionLinks, context: frozenset[str] = frozenset()) -> MentionLinks:
    """``ml`` with the word-matched candidates whose numbers disagree (:func:`numbers_agree`)
    moved to ``dropped``; exact and alias matches always stay."""
    keep: list[Candidate] = []
    drop = list(ml.dropped)
    for c in ml.candidates:
        ok = c.method not in WORD_MATCHES or numbers_agree(ml.mention, c.name, context)
        (keep if ok else drop).append(c)
    if len(keep) == len(ml.candidates):
        return ml
    return ml.model_copy(update={"candidates": tuple(keep), "dropped": tuple(drop)})


def value_says(value: Any, number: str) -> bool:
    """Whether a property value is ``number``: equal as a number, or a date in that year."""
    if value is None or isinstance(value, bool | list | tuple | dict):
        return False
    try:
        n = float(number)
    except ValueError:
        return False
    year = int(n) if n.is_integer() and YEAR_RANGE[0] <= n <= YEAR_RANGE[1] else None
    if isinstance(value, dt.date | dt.datetime):
        return year is not None and value.year == year
    if isinstance(value, int | float):
        return float(value) == n
    text = str(value).strip()
    if year is not None and is_iso_date(text):
        return text[:4] == str(year)
    return numbers_of(text) == {canon(number)} and is_digits(text)


def pick_by_numbers(store: Any, ids: Sequence[str], numbers: Iterable[str]) -> list[str]:
    """Of ``ids``, those with a property whose value is one of ``numbers`` (one batched
    ``get_nodes``); empty when none has (the caller keeps them all then)."""
    nums = [n for n in dict.fromkeys(numbers)]
    ids = list(dict.fromkeys(ids))
    if not nums or len(ids) < 2:
        return []
    nodes = store.get_nodes(ids)
    return [i for i in ids if (node := nodes.get(i)) is not None
            and any(value_says(v, n) for v in node.properties.values() for n in nums)]


def narrow_families(store: Any, links: Sequence[MentionLinks], context: frozenset[str]
                    ) -> list[MentionLinks]:
    """Per mention, candidates that share one name (several prizes all called "Nobel Prize in
    Chemistry", one a year) narrowed to those with a property saying one of ``context``'s
    numbers (one batched lookup for every mention); the others move to ``dropped``."""
    if not context:
        return list(links)
    shared: dict[str, list[str]] = {}
    for ml in links:
        by_name: dict[str, list[str]] = {}
        for c in ml.candidates:
            by_name.setdefault(c.name.casefold(), []).append(c.id)
        shared[ml.mention] = [i for ids in by_name.values() if len(ids) > 1 for i in ids]
    every = list(dict.fromkeys(i for v in shared.values() for i in v))
    if not every:
        return list(links)
    said = set(pick_by_numbers(store, every, context))
    out = []
    for ml in links:
        group = shared.get(ml.mention) or []
        if not group or not said & set(group):
            out.append(ml)
            continue
        gone = [c for c in ml.candidates if c.id in group and c.id not in said]
        out.append(ml.model_copy(update={
            "candidates": tuple(c for c in ml.candidates if c not in gone),
            "dropped": (*ml.dropped, *gone)}))
    return out


def number_spots(question: str, index: Any, *, max_words: int = 4
                 ) -> list[tuple[int, int, str, tuple[str, ...]]]:
    """Names written apart in the question around one of its numbers: "the chemistry prize
    in 1903" finds the node named "chemistry 1903" (or "1903 chemistry"). Returns (start, end,
    the name as the index holds it, node ids) per span of the words that matched, the number
    not included; only spans of up to ``max_words`` words next to nothing but other words."""
    import re

    nums = list(dict.fromkeys(canon(n) for n in numbers_in(question)))
    if not nums:
        return []
    words = [(m.group(), m.start(), m.end()) for m in re.finditer(r"[^\W_]+", question)]
    words = [w for w in words if not w[0].isdigit()]
    out = []
    seen: set[tuple[int, int]] = set()
    for i in range(len(words)):
        for n in range(min(max_words, len(words) - i), 0, -1):
            span = " ".join(w for w, _s, _e in words[i:i + n])
            for num in nums:
                for key in (f"{span} {num}", f"{num} {span}"):
                    hit = index.exact(key)
                    start, end = words[i][1], words[i + n - 1][2]
                    if hit and (start, end) not in seen:
                        seen.add((start, end))
                        out.append((start, end, key, tuple(dict.fromkeys(h for h, _a in hit))))
    return out
