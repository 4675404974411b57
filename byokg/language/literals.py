"""Numbers, years and dates written as text: the one place that recognises them.

The question's numbers (:func:`numbers_in`), a text property's kind (:func:`is_number`,
:func:`is_integer`, :func:`is_iso_date`), what a node name or value is as an answer
(:func:`literal_kind`: year, date or number) and whether a text is a value rather than the name of
a thing one can ask about (:func:`is_literal_like`: numbers, dates, URLs, file names) all read the
patterns below, so a form recognised in one stage is recognised in all.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any
from typing import Literal

LiteralKind = Literal["year", "date", "number"]

# a number written in running text: 12, 1918, 3.5, 1,000 (not part of a word or a dotted id)
NUMBER_IN_TEXT = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
# a whole text that is a number: -3, 2.5, .5, 1e6 (machine-written values)
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
INTEGER = re.compile(r"^[-+]?\d+$")
# an ISO date or date-time: 1997-01-01, 1997-01-01 00:00:00.000, 1997-01-01T12:00Z
ISO_DATE = re.compile(
    r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
# a year written alone
YEAR = re.compile(r"^\d{3,4}$")
# a date as people write it: ISO (also year-month), 11/11/1918, 11.11.1918, March 4, 1918, 4 March 1918
WRITTEN_DATE = re.compile(
    r"^(\d{4}-\d{2}(-\d{2})?([T ][\d:.]+Z?)?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|"
    r"([A-Za-z]+\.? \d{1,2},? \d{3,4})|(\d{1,2} [A-Za-z]+\.? \d{3,4}))$")
# a quantity as people write it: 1,000, 3.5, 12 %
QUANTITY = re.compile(r"^[-+]?\d[\d,]*(\.\d+)?\s*%?$")
# digits with separators: a number or a date (12, 1918, 3.5, 1,000, 1918-11-11, 11/11/1918)
DIGITS = re.compile(r"^[+-]?\d[\d.,:/\-\s]*$")
# a value, not a thing: a URL, a file name (united-states.jpg), a number or a date
LITERAL_LIKE = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*://\S+|www\.\S+"
    r"|[^\s/\\]+\.[a-z][a-z0-9]{1,4}"
    r"|[+-]?\d[\d.,:/\-\s]*"
    r"|\d{4}-\d{2}-\d{2}t[\d:.]+z?)$", re.I)
YEAR_RANGE = (1000, 2999)  # a four-digit integer in this range reads as a year


def numbers_in(text: str) -> tuple[str, ...]:
    """The numbers written in a text, in order (``"the 3 films of 1999"`` -> ``("3", "1999")``)."""
    return tuple(m.group(0) for m in NUMBER_IN_TEXT.finditer(text))


def is_number(text: str) -> bool:
    return bool(NUMBER.match(text.strip()))


def is_integer(text: str) -> bool:
    return bool(INTEGER.match(text.strip()))


def is_iso_date(text: str) -> bool:
    return bool(ISO_DATE.match(text.strip()))


def is_digits(text: str) -> bool:
    """A number or a date written with digits (a mention such as "12" or "1918-11-11")."""
    return bool(DIGITS.match(text.strip()))


def is_literal_like(text: str) -> bool:
    """A URL, a file name, a number or a date: a value, not a thing one can ask about."""
    return bool(LITERAL_LIKE.match(text.strip()))


def literal_kind(value: Any) -> LiteralKind | None:
    """``year``, ``date`` or ``number`` when a node name or property value is one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, _dt.date | _dt.datetime):
        return "date"
    lo, hi = YEAR_RANGE
    if isinstance(value, int):
        return "year" if lo <= value <= hi else "number"
    if isinstance(value, float):
        return "number"
    text = str(value).strip()
    if not text or len(text) > 40:
        return None
    if YEAR.match(text):
        return "year" if lo <= int(text) <= hi else "number"
    if WRITTEN_DATE.match(text):
        return "date"
    if QUANTITY.match(text):
        return "number"
    return None
