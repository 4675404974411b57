"""KG-Linker: versioned prompt templates, prompt rendering, and a reply parser that never crashes.

Templates live in ``byokg/prompts/*.vN.txt`` and are loaded with :mod:`importlib.resources`;
placeholders are ``{{name}}`` (so Cypher braces in templates and schemas need no escaping).
The parser turns any LLM reply into :class:`~byokg.contracts.Artifacts`; whatever it could not
read is listed in ``Artifacts.warnings`` (and from there in the trace).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from byokg.contracts import Artifacts
from byokg.contracts import GraphSchema
from byokg.contracts import RelationPath
from byokg.errors import ConfigError
from byokg.graph.profile import GraphProfile
from byokg.graph.profile import RelationProfile
from byokg.graph.schema_render import render_schema
from byokg.language.text import count_tokens
from byokg.models import replies
from byokg.models.base import prompt_checksum
from byokg.models.similarity import Similarity

TEMPLATE_VERSION = "v1"
SCHEMA_CHARS = 4800  # the schema's budget when a caller gives none (about 1,200 tokens)
SCHEMA_TOKENS = 1200  # the older budget in tokens (render_schema_for(max_tokens=…))
PROMPT_CHARS = 8000  # a prompt's size at most, unless the run sets RunConfig.prompt_chars
SCHEMA_SHARE = 0.6  # of a prompt's size the schema takes at most (4,800 of 8,000 characters)
MAX_ANSWERS = 50  # answers a reply lists at most, unless the run sets RunConfig.max_answers
TOUCH = 0.5  # a label at least this relevant to the question shows every property
NAMED = 0.75  # a property at least this relevant is named by the question
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
    max_tokens: int | None = None,
    max_chars: int | None = None,
) -> str:
    """The schema (or the graph's profile: typed properties, names, coverage, relationship
    properties) for one question: the labels it touches with every property, best first, the
    relations most relevant first (ties by name), within ``max_chars`` (default
    :data:`SCHEMA_CHARS`) or ``max_tokens``; what does not fit is summarised or cut, and said.
    Labels, properties and relations are put in a fixed order first, so the text never depends
    on the order the store listed them in."""
    schema = _canonical(schema)
    if max_tokens is None and max_chars is None:
        max_chars = SCHEMA_CHARS
    rel = schema_relevance(schema, similarity)
    return render_schema(schema, relation_order=rel.relation_order, max_tokens=max_tokens,
                         max_chars=max_chars, label_scores=rel.label_scores,
                         touched=rel.touched, prop_rank=rel.prop_rank)


@dataclass(frozen=True)
class SchemaRelevance:
    """What of the schema one question touches: labels (scored; ``touched`` ones are shown
    with every property), relations most relevant first, and a property ranking."""

    label_scores: dict[str, float]
    touched: tuple[str, ...]
    relation_order: list[str]
    prop_scores: dict[str, float]

    def prop_rank(self, label: str, prop: str) -> float:
        return self.prop_scores.get(prop, 0.0)


def schema_relevance(schema: GraphSchema | GraphProfile, similarity: Similarity
                     ) -> SchemaRelevance:
    """Labels the question touches: named by the question (the label, or a property it names
    at least :data:`NAMED`), or at an end of a relation it names; relations ranked by their
    own relevance, lifted when they join touched labels."""
    from byokg.graph.schema_render import as_profile

    prof = as_profile(schema)
    rels = sorted(prof.relation_names)
    props = sorted({p.name for lab in prof.labels for p in lab.properties})
    labels = sorted(lab.name for lab in prof.labels)
    words = similarity.relation_scores(rels + props + labels) if rels or props or labels else {}
    lab_score = {}
    for lab in prof.labels:
        named = [words.get(p.name, 0.0) for p in lab.properties
                 if words.get(p.name, 0.0) >= NAMED]
        lab_score[lab.name] = max([words.get(lab.name, 0.0), *(0.9 * x for x in named)])
    for r in prof.relations:  # a named relation touches both its ends
        if words.get(r.name, 0.0) >= TOUCH:
            for end in (*r.domain, *r.range):
                if end in lab_score:
                    lab_score[end] = max(lab_score[end], 0.9 * words[r.name])
    touched = tuple(n for n in labels if lab_score.get(n, 0.0) >= TOUCH)
    tset = set(touched)

    def rel_score(r: RelationProfile) -> float:  # joining touched labels lifts a little
        ends = {*r.domain, *r.range}
        lift = 0.0 if len(labels) < 2 else (0.1 if ends and ends <= tset else
                                             (0.05 if ends & tset else 0.0))
        return words.get(r.name, 0.0) + lift

    scored = {r.name: rel_score(r) for r in prof.relations} if len(rels) > 1 else {}
    order = sorted(rels, key=lambda r: (-round(scored.get(r, 0.0), 6), r))
    return SchemaRelevance(lab_score, touched, order, {p: words.get(p, 0.0) for p in props})


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


def kg_linker_prompt(
    question: str,
    schema_text: str,
    *,
    context_text: str | None = None,
    round_no: int = 1,
    rounds: int = 1,
    cypher: bool = False,
    dialect: str | None = None,
    store: Any = None,
    profile: GraphProfile | None = None,
    max_answers: int = MAX_ANSWERS,
) -> Prompt:
    """The KG-Linker prompt of one round: without ``context_text`` the first-round prompt
    (entities, relation paths, [cypher], draft answers); with it a later round's, which shows
    the graph context and may be answered with FINISH.

    ``store`` lets the dialect hints describe the store's layout (e.g. Kùzu triple graphs);
    ``profile`` says which property names the nodes of each label; ``max_answers`` is the cap
    the FINISH answers are told."""
    task, fmt, n = _cypher_sections(cypher, dialect, store, profile)
    values: dict[str, object] = dict(schema=schema_text, naming=naming_text(profile),
                                     question=question.strip(), cypher_task=task,
                                     cypher_format=fmt, answer_task_number=n)
    if context_text is None:
        return _prompt("kg_linker", **values)
    return _prompt("kg_linker_iterative", **values, round=round_no, rounds=rounds,
                   context=context_text or "(nothing retrieved yet)", max_answers=max_answers)


def linker_prompt(question: str, schema_text: str, **kwargs: Any) -> Prompt:
    """The first-round KG-Linker prompt (:func:`kg_linker_prompt` without context)."""
    return kg_linker_prompt(question, schema_text, **kwargs)


def iterative_prompt(question: str, schema_text: str, context_text: str, *, round_no: int,
                     rounds: int, **kwargs: Any) -> Prompt:
    """A later-round KG-Linker prompt: receives the graph context and may reply FINISH."""
    return kg_linker_prompt(question, schema_text, context_text=context_text or "",
                            round_no=round_no, rounds=rounds, **kwargs)


def fit_prompt(build: Callable[[str, str | None], Prompt], schema_for: Callable[[int], str],
               *, max_chars: int, context_for: Callable[[int], str] | None = None) -> Prompt:
    """The prompt ``build(schema_text, context_text)`` within ``max_chars``: the schema
    (``schema_for(chars)``) and the graph context (``context_for(chars)``; None: a first-round
    prompt without context) get what the template and the question leave: the schema at most
    :data:`SCHEMA_SHARE` of the prompt, the context at least half of the room when it needs
    it; each part says itself what it left out."""
    empty = build("", "" if context_for is not None else None)
    room = max(max_chars - empty.chars, 200)
    most = min(room, int(SCHEMA_SHARE * max_chars))  # the schema never crowds the prompt
    if context_for is None:
        return build(schema_for(most), None)
    schema = schema_for(most)
    context = context_for(room)
    if len(schema) + len(context) > room:
        schema = schema_for(max(room // 2, room - len(context)))
        context = context_for(max(room - len(schema), 100))
    return build(schema, context)


def vanilla_prompt(question: str) -> Prompt:
    """The vanilla-LLM baseline (paper, Table 1): the question alone, no graph."""
    return _prompt("vanilla", question=question.strip())


def answer_prompt(question: str, context_text: str, *, max_answers: int = MAX_ANSWERS) -> Prompt:
    return _prompt("answer", question=question.strip(), context=context_text or "(empty)",
                   max_answers=max_answers)


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
MAX_ANSWER_ITEMS = 10_000  # answers read from one reply (the run's max_answers cuts, and says so)
_TOTAL = re.compile(r"^\s*(?:[-*•]\s*)?TOTAL\s*[:=]\s*(\d[\d,]*)\s*\.?\s*$", re.I | re.M)


def parse_reply(reply: object) -> Artifacts:
    """Parse a KG-Linker (or answer-generation) reply. Never raises; problems become warnings.
    An empty section is no problem (the prompts allow it); a ``TOTAL: n`` line in
    ``<answers>`` says how many answers there are in all when the reply lists fewer."""
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
        body = "\n".join(bodies.get("answers", []))
        totals = [int(m.group(1).replace(",", "")) for m in _TOTAL.finditer(body)]
        answers = replies.items(_TOTAL.sub("", body), "answers", warnings,
                                max_items=MAX_ANSWER_ITEMS)
        return Artifacts(
            answers_total=max(totals) if totals else None,
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
