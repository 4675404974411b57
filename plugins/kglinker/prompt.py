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
from byokg.models import replies
from byokg.models.base import prompt_checksum
from byokg.models.similarity import Similarity

TEMPLATE_VERSION = "v1"
SCHEMA_TOKENS = 1200  # budget of the schema inside a KG-Linker prompt (~4,800 characters)
CONTEXT_PROMPT_TOKENS = 2500  # budget of the graph context inside the iterative prompt

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
def parse_reply(reply: object) -> Artifacts:
    """Parse a KG-Linker (or answer-generation) reply. Never raises; problems become warnings."""
    warnings: list[str] = []
    try:
        text = replies.clean_text(reply, warnings)
        bodies, found = replies.sections(text, _SECTION_ALIASES, warnings)
        outside = replies.TAG.sub("\n", text)
        for body in (b for bs in bodies.values() for b in bs):
            outside = outside.replace(body, "\n", 1)
        finish = replies.says_finish(outside) or any(
            replies.says_finish(b) for b in bodies.get("answers", []))
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
        entities = replies.items("\n".join(bodies.get("entities", [])), "entities", warnings)
        paths: list[RelationPath] = []
        for line in replies.items("\n".join(bodies.get("paths", [])), "relation-paths",
                                  warnings):
            rp = RelationPath.parse(line.replace("=>", "->"))
            if not rp.relations:
                warnings.append(f"<relation-paths>: could not read {line[:80]!r}")
            elif rp not in paths:
                paths.append(rp)
        cypher = replies.queries("\n\n".join(bodies.get("cypher", [])), warnings,
                                 _SECTION_ALIASES)
        answers = replies.items("\n".join(bodies.get("answers", [])), "answers", warnings)
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
