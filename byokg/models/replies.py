"""Reading what an LLM wrote: the one reply parser.

Every stage that reads an LLM reply reads it here: tagged sections (``<entities>…</entities>``,
tolerant of missing closing tags, stray and unknown tags, chat-template junk), list items (bullets,
numbering, quotes and fences stripped, empties dropped, capped), queries (split on ``;`` or blank
lines, fences removed), a query given as a tag, a fence or bare Cypher, and the ``FINISH`` word.
Nothing here raises on a malformed reply: what could not be read becomes a warning the caller
records.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from byokg.models.base import MAX_REPLY_CHARS  # a longer reply is cut before parsing

MAX_ITEMS = 30  # per section
MAX_ITEM_CHARS = 300
MAX_QUERIES = 5
MAX_QUERY_CHARS = 4000

TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][A-Za-z0-9_\-]{0,40})\s*>")
JUNK = re.compile(r"<\|[^|>]{0,40}\|>|</s>|<s>|\[/?INST\]")
FENCE = re.compile(r"^[ \t]*```[A-Za-z0-9_-]*[ \t]*$|```[A-Za-z0-9_-]*", re.M)
BULLET = re.compile(r"^\s*(?:[-*•]+|\d{1,3}[.)]|\(\d{1,3}\))\s+")
EMPTY = frozenset({"", "none", "n/a", "na", "null", "nil", "unknown", "-", "[]", "...", "…"})
FINISH = re.compile(r"(?<![A-Za-z])FINISH(?![A-Za-z])")
_QUERY_TAG = re.compile(r"<cypher>(.*?)(?:</cypher>|$)", re.S | re.I)
_QUERY_FENCE = re.compile(r"```(?:cypher|opencypher|sql)?\s*\n?(.*?)```", re.S | re.I)
_QUERY_START = re.compile(r"^\s*(MATCH|OPTIONAL|WITH|UNWIND|CALL|RETURN)\b", re.I)


def clean_text(reply: object, warnings: list[str]) -> str:
    """The reply as text to parse: cut at :data:`MAX_REPLY_CHARS`, chat-template tokens
    removed, line ends normalised (each change a warning)."""
    text = reply if isinstance(reply, str) else ("" if reply is None else str(reply))
    if len(text) > MAX_REPLY_CHARS:
        warnings.append(f"reply of {len(text):,} characters cut to {MAX_REPLY_CHARS:,}")
        text = text[:MAX_REPLY_CHARS]
    if JUNK.search(text):
        warnings.append("removed chat-template tokens from the reply")
        text = JUNK.sub("\n", text)
    return text.replace("\r\n", "\n").replace("\x00", "")


def sections(text: str, aliases: Mapping[str, str], warnings: list[str]
             ) -> tuple[dict[str, list[str]], bool]:
    """Bodies per canonical section name (``aliases``: tag as written, lower-cased -> section),
    and whether any known tag was found. A body runs to its closing tag, else to the next known
    opening tag, else to the end; stray closing and unknown tags are warnings."""
    bodies: dict[str, list[str]] = {}
    found_any = False
    pos = 0
    tags = list(TAG.finditer(text))
    i = 0
    while i < len(tags):
        m = tags[i]
        closing, raw = m.group(1) == "/", m.group(2).lower()
        name = aliases.get(raw)
        if m.start() < pos:
            i += 1
            continue
        if closing:
            if name is None:
                warnings.append(f"ignored stray closing tag </{raw}>")
            i += 1
            continue
        if name is None:
            warnings.append(f"ignored unknown tag <{raw}>")
            i += 1
            continue
        found_any = True
        end, nxt = _body_end(text, tags, i, name, raw, aliases, warnings)
        bodies.setdefault(name, []).append(text[m.end(): end])
        pos = nxt
        while i < len(tags) and tags[i].start() < pos:
            i += 1
    return bodies, found_any


def _body_end(text: str, tags: list[re.Match[str]], i: int, name: str, raw: str,
              aliases: Mapping[str, str], warnings: list[str]) -> tuple[int, int]:
    """Where section ``i``'s body ends and parsing resumes."""
    for t in tags[i + 1:]:
        tname = aliases.get(t.group(2).lower())
        if t.group(1) == "/" and tname == name:
            return t.start(), t.end()
        if t.group(1) != "/" and tname is not None:
            warnings.append(f"<{raw}> is not closed; read up to <{t.group(2)}>")
            return t.start(), t.start()
    warnings.append(f"<{raw}> is not closed; read to the end of the reply")
    return len(text), len(text)


def clean_item(line: str) -> str:
    """One list item: tags, bullets, numbering, backticks, surrounding quotes and trailing
    punctuation removed."""
    s = TAG.sub(" ", line)  # a wrongly nested or unknown tag never becomes part of an item
    s = BULLET.sub("", " ".join(s.split()))
    s = s.strip().strip("`").strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        s = s[1:-1].strip()
    return s.rstrip(",;").strip()


def items(body: str, section: str, warnings: list[str], *, max_items: int = MAX_ITEMS,
          empty: frozenset[str] = EMPTY, max_chars: int = MAX_ITEM_CHARS) -> list[str]:
    """The distinct items of a section body, one per line, in order; empties and ``FINISH``
    dropped; items longer than ``max_chars`` and long lists cut (with warnings naming
    ``section``)."""
    out: list[str] = []
    seen: set[str] = set()
    lines = FENCE.sub("\n", body).splitlines()
    if any(TAG.search(line) for line in lines):
        warnings.append(f"<{section}>: removed tags nested inside its items")
    for line in lines:
        s = clean_item(line)
        if s.casefold() in empty or s.upper() == "FINISH":
            continue
        if len(s) > max_chars:
            warnings.append(f"<{section}>: item of {len(s)} characters cut to {max_chars}")
            s = s[:max_chars]
        if s not in seen:
            seen.add(s)
            out.append(s)
    if len(out) > max_items:
        warnings.append(f"<{section}>: {len(out)} items, kept the first {max_items}")
        out = out[:max_items]
    return out


def queries(body: str, warnings: list[str], aliases: Mapping[str, str] | None = None
            ) -> list[str]:
    """The distinct queries of a body: split on ``;`` at a line end or on blank lines, fences
    and section tags removed; over-long ones dropped, long lists cut (with warnings)."""
    known = aliases or {}
    text = TAG.sub(lambda m: " " if m.group(2).lower() in known else m.group(0),
                   FENCE.sub("\n", body))
    out: list[str] = []
    for p in re.split(r";\s*(?:\n|$)|\n\s*\n", text):
        q = "\n".join(line.rstrip() for line in p.strip().splitlines()).strip()
        if not q or q.casefold() in EMPTY:
            continue
        if len(q) > MAX_QUERY_CHARS:
            warnings.append(f"<cypher>: query of {len(q)} characters dropped "
                            f"(limit {MAX_QUERY_CHARS})")
            continue
        if q not in out:
            out.append(q)
    if len(out) > MAX_QUERIES:
        warnings.append(f"<cypher>: {len(out)} queries, kept the first {MAX_QUERIES}")
        out = out[:MAX_QUERIES]
    return out


def tag_body(reply: str, *names: str) -> str | None:
    """Body of the first ``<name>…</name>`` of ``names`` in ``reply`` (an unclosed tag reads to
    the end); None when no such tag is present."""
    for name in names:
        m = re.search(rf"<\s*{re.escape(name)}\s*>(.*?)(?:<\s*/\s*{re.escape(name)}\s*>|$)",
                      reply, flags=re.S | re.I)
        if m:
            return m.group(1)
    return None


def extract_query(reply: str) -> str | None:
    """The query in an LLM reply: ``<cypher>…</cypher>``, a cypher fence, or bare Cypher."""
    for rx in (_QUERY_TAG, _QUERY_FENCE):
        m = rx.search(reply)
        if m and m.group(1).strip():
            return m.group(1).strip()
    return reply.strip() if _QUERY_START.match(reply) else None


def says_finish(text: str) -> bool:
    """Whether ``FINISH`` stands in the text as a word of its own."""
    return bool(FINISH.search(text))
