"""KG-Linker: versioned prompt templates, prompt rendering, and a reply parser that never crashes.

Templates live in ``byokg/prompts/*.vN.txt`` and are loaded with :mod:`importlib.resources`;
placeholders are ``{{name}}`` (so Cypher braces in templates and schemas need no escaping).
The parser turns any LLM reply into :class:`~byokg.contracts.Artifacts`; whatever it could not
read is listed in ``Artifacts.warnings`` (and from there in the trace).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from byokg.contracts import Artifacts, GraphSchema, RelationPath
from byokg.errors import ConfigError
from byokg.graph.profile import GraphProfile
from byokg.graph.schema_render import render_schema
from byokg.language.text import count_tokens
from byokg.models.base import prompt_checksum
from byokg.models.similarity import Similarity

TEMPLATE_VERSION = "v1"
SCHEMA_TOKENS = 1200  # budget of the schema inside a KG-Linker prompt (~4,800 characters)
CONTEXT_PROMPT_TOKENS = 2500  # budget of the graph context inside the iterative prompt
MAX_REPLY_CHARS = 200_000
MAX_ITEMS = 30  # per section
MAX_ITEM_CHARS = 300
MAX_QUERIES = 5
MAX_QUERY_CHARS = 4000

_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


# --------------------------------------------------------------------------- templates


@functools.cache
def load_template(name: str, version: str = TEMPLATE_VERSION) -> str:
    """The text of ``prompts/<name>.<version>.txt`` with its line structure intact."""
    fname = f"{name}.{version}.txt"
    try:
        return resources.files("byokg.prompts").joinpath(fname).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"prompt template {fname} not found in byokg/prompts") from None


def fill(template: str, **values: object) -> str:
    """Replace every ``{{name}}``; a placeholder without a value is an error naming it."""

    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            raise ConfigError(f"prompt template placeholder {{{{{key}}}}} has no value")
        return str(values[key])

    return _PLACEHOLDER.sub(sub, template)


@dataclass(frozen=True)
class Prompt:
    """A rendered prompt with the template it came from and its checksum."""

    template: str
    text: str
    checksum: str

    @property
    def chars(self) -> int:
        return len(self.text)


def _prompt(template_name: str, **values: object) -> Prompt:
    text = fill(load_template(template_name), **values)
    return Prompt(f"{template_name}.{TEMPLATE_VERSION}", text, prompt_checksum(text))


# --------------------------------------------------------------------------- rendering


def render_schema_for(
    schema: GraphSchema | GraphProfile,
    similarity: Similarity,
    *,
    max_tokens: int = SCHEMA_TOKENS,
) -> str:
    """The schema (or the graph's profile: typed properties, names, relationship properties),
    most question-relevant relations first (ties by name), pruned to ``max_tokens``. Labels,
    properties and relations are put in a fixed order first, so the text never depends on the
    order the store listed them in."""
    schema = _canonical(schema)
    names = sorted(schema.relation_names)
    scores = similarity.relation_scores(names) if len(names) > 1 else {}
    order = sorted(names, key=lambda r: (-round(scores.get(r, 0.0), 6), r))
    return render_schema(schema, relation_order=order, max_tokens=max_tokens)


def _canonical(schema: GraphSchema | GraphProfile) -> GraphSchema | GraphProfile:
    """The schema (or profile) with labels, relations and properties by name and, in a plain
    schema, relation patterns sorted (a profile keeps its pairs most common first)."""
    if isinstance(schema, GraphProfile):
        plabels = tuple(lab.model_copy(update={"properties": tuple(
            sorted(lab.properties, key=lambda p: p.name))})
            for lab in sorted(schema.labels, key=lambda lab: lab.name))
        prels = tuple(r.model_copy(update={"properties": tuple(
            sorted(r.properties, key=lambda p: p.name))})
            for r in sorted(schema.relations, key=lambda r: r.name))
        return schema.model_copy(update={"labels": plabels, "relations": prels})
    labels = tuple(lab.model_copy(update={"properties": tuple(sorted(lab.properties,
                                                                     key=lambda p: p.name))})
                   for lab in sorted(schema.node_labels, key=lambda lab: lab.name))
    rels = tuple(r.model_copy(update={
        "patterns": tuple(sorted(r.patterns, key=lambda p: (p.src, p.dst))),
        "properties": tuple(sorted(r.properties, key=lambda p: p.name)),
    }) for r in sorted(schema.relation_types, key=lambda r: r.name))
    return schema.model_copy(update={"node_labels": labels, "relation_types": rels})


def naming_text(profile: GraphProfile | None, limit: int = 12) -> str:
    """Which property names the nodes of each label on this graph (written from the profile),
    for the KG-Linker's instructions; empty without a profile."""
    if profile is None or not profile.labels:
        return ""
    lines = _canonical(profile).naming_lines(limit=limit)  # type: ignore[union-attr]
    more = len(profile.labels) - len(lines)
    tail = f"\n(and {more} more labels)" if more > 0 else ""
    return ("Names on this graph (write entities and answers with these, and match nodes by "
            "them in queries):\n" + "\n".join(f"- {x}" for x in lines) + tail + "\n")


def _match_words(profile: GraphProfile | None) -> tuple[str, str]:
    """(how to match entities, what to RETURN) in the Cypher task, from the profile."""
    if profile is None:
        return "their name property", "the answer nodes' names"
    single = {lab.display_parts[0] for lab in profile.labels if len(lab.display_parts) == 1}
    named = [lab for lab in profile.labels if lab.display_parts]
    if len(single) == 1 and len(named) == len(profile.labels):
        prop = single.pop()
        return f"their {prop} property", f"the answer nodes' {prop}"
    if not named:
        return "their id", "the answer nodes' ids"
    return ("the property that names their label (see 'Names on this graph')",
            "that property of the answer nodes")


def _cypher_sections(cypher: bool, dialect: str | None, store: Any = None,
                     profile: GraphProfile | None = None) -> tuple[str, str, int]:
    if not cypher:
        return "", "", 3
    hints = ""
    if dialect:
        from byokg.cypher.dialects import dialect_hints

        hints = dialect_hints(dialect, store=store) or ""
    hints = f"Dialect ({dialect}): {hints}" if hints else ""
    match_by, return_what = _match_words(profile)
    task = fill(load_template("cypher_task"), dialect_hints=hints, match_by=match_by,
                return_what=return_what)
    return task, load_template("cypher_format"), 4


def linker_prompt(
    question: str,
    schema_text: str,
    *,
    cypher: bool = False,
    dialect: str | None = None,
    store: Any = None,
    profile: GraphProfile | None = None,
) -> Prompt:
    """The first-round KG-Linker prompt (entities, relation paths, [cypher], draft answers).

    ``store`` lets the dialect hints describe the store's layout (e.g. Kùzu triple graphs);
    ``profile`` says which property names the nodes of each label."""
    task, fmt, n = _cypher_sections(cypher, dialect, store, profile)
    return _prompt(
        "kg_linker",
        schema=schema_text,
        naming=naming_text(profile),
        question=question.strip(),
        cypher_task=task,
        cypher_format=fmt,
        answer_task_number=n,
    )


def iterative_prompt(
    question: str,
    schema_text: str,
    context_text: str,
    *,
    round_no: int,
    rounds: int,
    cypher: bool = False,
    dialect: str | None = None,
    store: Any = None,
    profile: GraphProfile | None = None,
) -> Prompt:
    """A later-round KG-Linker prompt: receives the graph context and may reply FINISH."""
    task, fmt, n = _cypher_sections(cypher, dialect, store, profile)
    return _prompt(
        "kg_linker_iterative",
        schema=schema_text,
        naming=naming_text(profile),
        question=question.strip(),
        context=context_text or "(nothing retrieved yet)",
        round=round_no,
        rounds=rounds,
        cypher_task=task,
        cypher_format=fmt,
        answer_task_number=n,
    )


def vanilla_prompt(question: str) -> Prompt:
    """The vanilla-LLM baseline (paper, Table 1): the question alone, no graph."""
    return _prompt("vanilla", question=question.strip())


def answer_prompt(question: str, context_text: str) -> Prompt:
    return _prompt("answer", question=question.strip(), context=context_text or "(empty)")


# --------------------------------------------------------------------------- parser

_SECTION_ALIASES = {
    "entities": "entities",
    "entity": "entities",
    "relation-paths": "paths",
    "relation_paths": "paths",
    "relationpaths": "paths",
    "relation-path": "paths",
    "paths": "paths",
    "path": "paths",
    "relations": "paths",
    "cypher": "cypher",
    "opencypher": "cypher",
    "open-cypher": "cypher",
    "query": "cypher",
    "queries": "cypher",
    "answers": "answers",
    "answer": "answers",
    "draft-answers": "answers",
}
_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][A-Za-z0-9_\-]{0,40})\s*>")
_JUNK = re.compile(r"<\|[^|>]{0,40}\|>|</s>|<s>|\[/?INST\]")
_FENCE = re.compile(r"^[ \t]*```[A-Za-z0-9_-]*[ \t]*$|```[A-Za-z0-9_-]*", re.M)
_BULLET = re.compile(r"^\s*(?:[-*•]+|\d{1,3}[.)]|\(\d{1,3}\))\s+")
_EMPTY = {"", "none", "n/a", "na", "null", "nil", "unknown", "-", "[]", "...", "…"}
_FINISH = re.compile(r"(?<![A-Za-z])FINISH(?![A-Za-z])")


def _section_tag(m: re.Match[str]) -> str:
    """A known section tag (``</entities>`` …) inside another section's body: removed."""
    return " " if m.group(2).lower() in _SECTION_ALIASES else m.group(0)


def _clean_item(line: str) -> str:
    s = _TAG.sub(" ", line)  # a wrongly nested or unknown tag never becomes part of an item
    s = _BULLET.sub("", " ".join(s.split()))
    s = s.strip().strip("`").strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        s = s[1:-1].strip()
    return s.rstrip(",;").strip()


def _items(body: str, section: str, warnings: list[str]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    lines = _FENCE.sub("\n", body).splitlines()
    if any(_TAG.search(line) for line in lines):
        warnings.append(f"<{section}>: removed tags nested inside its items")
    for line in lines:
        s = _clean_item(line)
        if s.casefold() in _EMPTY or s.upper() == "FINISH":
            continue
        if len(s) > MAX_ITEM_CHARS:
            warnings.append(f"<{section}>: item of {len(s)} characters cut to {MAX_ITEM_CHARS}")
            s = s[:MAX_ITEM_CHARS]
        if s not in seen:
            seen.add(s)
            out.append(s)
    if len(out) > MAX_ITEMS:
        warnings.append(f"<{section}>: {len(out)} items, kept the first {MAX_ITEMS}")
        out = out[:MAX_ITEMS]
    return out


def _queries(body: str, warnings: list[str]) -> list[str]:
    text = _TAG.sub(_section_tag, _FENCE.sub("\n", body))
    parts = re.split(r";\s*(?:\n|$)|\n\s*\n", text)
    out: list[str] = []
    for p in parts:
        q = "\n".join(line.rstrip() for line in p.strip().splitlines()).strip()
        if not q or q.casefold() in _EMPTY:
            continue
        if len(q) > MAX_QUERY_CHARS:
            warnings.append(f"<cypher>: query of {len(q)} characters dropped (limit {MAX_QUERY_CHARS})")
            continue
        if q not in out:
            out.append(q)
    if len(out) > MAX_QUERIES:
        warnings.append(f"<cypher>: {len(out)} queries, kept the first {MAX_QUERIES}")
        out = out[:MAX_QUERIES]
    return out


def _sections(text: str, warnings: list[str]) -> tuple[dict[str, list[str]], bool]:
    """Bodies per canonical section; tolerant of missing closing tags and unknown tags."""
    bodies: dict[str, list[str]] = {}
    found_any = False
    pos = 0
    tags = list(_TAG.finditer(text))
    i = 0
    while i < len(tags):
        m = tags[i]
        closing, raw = m.group(1) == "/", m.group(2).lower()
        name = _SECTION_ALIASES.get(raw)
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
        # body runs to the matching close tag, else to the next known opening tag, else the end
        end, nxt = None, None
        for j in range(i + 1, len(tags)):
            t = tags[j]
            tname = _SECTION_ALIASES.get(t.group(2).lower())
            if t.group(1) == "/" and tname == name:
                end, nxt = t.start(), t.end()
                break
            if t.group(1) != "/" and tname is not None:
                end, nxt = t.start(), t.start()
                warnings.append(f"<{raw}> is not closed; read up to <{t.group(2)}>")
                break
        if end is None:
            end = nxt = len(text)
            warnings.append(f"<{raw}> is not closed; read to the end of the reply")
        bodies.setdefault(name, []).append(text[m.end() : end])
        pos = nxt
        while i < len(tags) and tags[i].start() < pos:
            i += 1
    return bodies, found_any


def parse_reply(reply: object) -> Artifacts:
    """Parse a KG-Linker (or answer-generation) reply. Never raises; problems become warnings."""
    warnings: list[str] = []
    try:
        text = reply if isinstance(reply, str) else ("" if reply is None else str(reply))
        if len(text) > MAX_REPLY_CHARS:
            warnings.append(f"reply of {len(text):,} characters cut to {MAX_REPLY_CHARS:,}")
            text = text[:MAX_REPLY_CHARS]
        if _JUNK.search(text):
            warnings.append("removed chat-template tokens from the reply")
            text = _JUNK.sub("\n", text)
        text = text.replace("\r\n", "\n").replace("\x00", "")
        bodies, found = _sections(text, warnings)
        outside = _TAG.sub("\n", text)
        for body in (b for bs in bodies.values() for b in bs):
            outside = outside.replace(body, "\n", 1)
        finish = bool(_FINISH.search(outside)) or any(
            _FINISH.search(b) for b in bodies.get("answers", [])
        )
        if not found:
            if text.strip() and not finish:
                warnings.append(
                    f"reply has no recognised tags (<entities>, <relation-paths>, <cypher>, "
                    f"<answers>); nothing parsed from {len(text):,} characters"
                )
            elif not text.strip():
                warnings.append("empty reply")
        for name in bodies:
            if len(bodies[name]) > 1 and name != "cypher":
                warnings.append(f"<{name}> appears {len(bodies[name])} times; merged")
        entities = _items("\n".join(bodies.get("entities", [])), "entities", warnings)
        paths: list[RelationPath] = []
        for line in _items("\n".join(bodies.get("paths", [])), "relation-paths", warnings):
            rp = RelationPath.parse(line.replace("=>", "->"))
            if not rp.relations:
                warnings.append(f"<relation-paths>: could not read {line[:80]!r}")
            elif rp not in paths:
                paths.append(rp)
        cypher = _queries("\n\n".join(bodies.get("cypher", [])), warnings)
        answers = _items("\n".join(bodies.get("answers", [])), "answers", warnings)
        for name in ("entities", "paths", "answers"):
            if name in bodies and not any(b.strip() for b in bodies[name]):
                warnings.append(f"<{name}> is empty")
        return Artifacts(
            entities=tuple(entities),
            relation_paths=tuple(paths),
            cypher=tuple(cypher),
            draft_answers=tuple(answers),
            finish=finish,
            warnings=tuple(warnings),
        )
    except Exception as exc:  # the parser must never take a run down
        return Artifacts(warnings=tuple(warnings) + (f"parser failed: {type(exc).__name__}: {exc}",))


def prompt_tokens(text: str) -> int:
    return count_tokens(text)
