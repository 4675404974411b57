"""Typed contracts passed between every part of byokg.

Values (nodes, triplets, paths, candidates, context items) are frozen pydantic models; the trace
is mutable because it is filled in while a question is answered.
"""

from __future__ import annotations

import enum
import re
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field


class FrozenModel(BaseModel):
    """The base of the frozen values: immutable, and an unknown field is an error."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Direction(enum.StrEnum):
    """Which edges of a node to follow: stored direction, reverse, or both."""

    OUT = "out"
    IN = "in"
    BOTH = "both"


# --------------------------------------------------------------------------- graph values


class Node(FrozenModel):
    """A graph node. ``id`` is the backend's stable key; ``name`` its display name if any."""

    id: str
    name: str | None = None
    labels: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    properties: dict[str, Any] = Field(default_factory=dict)

    @property
    def display(self) -> str:
        return self.name if self.name else self.id


class Triplet(FrozenModel):
    """One edge ``head -[relation]-> tail`` in its stored direction (ids, not names)."""

    head: str
    relation: str
    tail: str
    properties: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.head, self.relation, self.tail)

    def __hash__(self) -> int:  # properties are ignored for identity
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Triplet) and self.key == other.key


class Path(FrozenModel):
    """A walk ``nodes[0] -r0-> nodes[1] -r1-> …``.

    ``inverted[i]`` is True when hop ``i`` walked relation ``relations[i]`` against its stored
    direction (the graph holds ``nodes[i+1] -r-> nodes[i]``).
    """

    nodes: tuple[str, ...]
    relations: tuple[str, ...] = ()
    inverted: tuple[bool, ...] = ()

    def model_post_init(self, __context: Any) -> None:
        if len(self.nodes) != len(self.relations) + 1:
            raise ValueError("a path has exactly one more node than relations")
        if self.inverted and len(self.inverted) != len(self.relations):
            raise ValueError("inverted must have one flag per relation")

    @property
    def hops(self) -> int:
        return len(self.relations)

    @property
    def start(self) -> str:
        return self.nodes[0]

    @property
    def end(self) -> str:
        return self.nodes[-1]

    def is_inverted(self, i: int) -> bool:
        return bool(self.inverted[i]) if self.inverted else False

    def triplets(self) -> list[Triplet]:
        """The path's edges as stored in the graph (inverted hops turned back round)."""
        out = []
        for i, rel in enumerate(self.relations):
            a, b = self.nodes[i], self.nodes[i + 1]
            out.append(
                Triplet(head=b, relation=rel, tail=a)
                if self.is_inverted(i)
                else Triplet(head=a, relation=rel, tail=b)
            )
        return out


class Neighborhood(FrozenModel):
    """One-hop result for one node: the triplets returned and how many existed before the cap."""

    node: str
    triplets: tuple[Triplet, ...] = ()
    total: int = 0
    truncated: bool = False


class PropertyInfo(FrozenModel):
    name: str
    type: str | None = None
    samples: tuple[Any, ...] = ()


class NodeLabel(FrozenModel):
    name: str
    count: int | None = None
    properties: tuple[PropertyInfo, ...] = ()


class RelationPattern(FrozenModel):
    """``(src)-[rel]->(dst)`` by label."""

    src: str
    dst: str


class RelationType(FrozenModel):
    name: str
    count: int | None = None
    patterns: tuple[RelationPattern, ...] = ()
    properties: tuple[PropertyInfo, ...] = ()
    samples: tuple[tuple[str, str], ...] = ()  # (head display, tail display) examples


class GraphSchema(FrozenModel):
    node_labels: tuple[NodeLabel, ...] = ()
    relation_types: tuple[RelationType, ...] = ()

    @property
    def relation_names(self) -> list[str]:
        return [r.name for r in self.relation_types]

    @property
    def label_names(self) -> list[str]:
        return [n.name for n in self.node_labels]


class GraphStats(FrozenModel):
    nodes: int
    triplets: int
    relations: int
    labels: int = 0
    duplicates_skipped: int = 0
    bad_rows_skipped: int = 0


class QueryResult(FrozenModel):
    """Rows of a graph query; ``truncated`` when the row cap (``row_cap``) cut the result;
    ``limit``: the query's own final LIMIT (when the rows fill it, more may exist).

    ``sort_columns``: the columns the query's ORDER BY sorts on, recorded when it ran (``()``:
    no ORDER BY, so the rows' order means nothing; None: a sort key is not a returned column,
    or the query was not fully parsed)."""

    columns: tuple[str, ...] = ()
    rows: tuple[tuple[Any, ...], ...] = ()
    truncated: bool = False
    elapsed_ms: float | None = None
    row_cap: int | None = None
    sort_columns: tuple[int, ...] | None = None
    limit: int | None = None  # the query's own final LIMIT, recorded when it ran

    @property
    def limit_reached(self) -> bool:
        """The query's own LIMIT came back full: more rows may exist than it let through."""
        return self.limit is not None and len(self.rows) >= self.limit


# --------------------------------------------------------------------------- linker / linking


class RelationPath(FrozenModel):
    """A relation sequence proposed by the KG-Linker, e.g. ``born_in -> located_in``.

    ``inverted`` optionally fixes each hop's direction (True: walk the relation against its
    stored direction); empty means "as the graph has it" (the follow-paths tool decides). In
    text an inverted hop is written ``~relation``.
    """

    relations: tuple[str, ...]
    inverted: tuple[bool, ...] = ()

    def model_post_init(self, __context: Any) -> None:
        if self.inverted and len(self.inverted) != len(self.relations):
            raise ValueError("inverted must have one flag per relation")

    @classmethod
    def parse(cls, text: str) -> RelationPath:
        parts = [p.strip() for p in text.replace("→", "->").split("->")]
        parts = [p for p in parts if p]
        flags = tuple(p.startswith("~") and len(p) > 1 for p in parts)
        rels = tuple(p[1:].strip() if f else p for p, f in zip(parts, flags, strict=True))
        return cls(relations=rels, inverted=flags if any(flags) else ())

    def __str__(self) -> str:
        flags = self.inverted or (False,) * len(self.relations)
        return " -> ".join(("~" if f else "") + r for r, f in zip(self.relations, flags, strict=True))


class PathScore(FrozenModel):
    """How a proposer rated one of its relation paths (the offline reasoner's chain scores)."""

    score: float
    type_score: float = 0.0  # the share of ``score`` that says the path's ends fit the asked type
    mention: str | None = None  # the question entity the path starts from
    ends: int | None = None  # end nodes the proposer saw (None: not counted)


class Artifacts(FrozenModel):
    """What one KG-Linker call produced (Fig. 3–7 of the paper)."""

    entities: tuple[str, ...] = ()
    relation_paths: tuple[RelationPath, ...] = ()
    # one per relation path when the proposer rates them (empty: unrated, e.g. an LLM's)
    path_scores: tuple[PathScore, ...] = ()
    cypher: tuple[str, ...] = ()
    draft_answers: tuple[str, ...] = ()
    answers_total: int | None = None  # answers in all, when the reply says it lists fewer
    answers_truncated: bool = False  # the answers come from rows a cap cut (more exist)
    finish: bool = False
    warnings: tuple[str, ...] = ()  # what the parser could not read


class Candidate(FrozenModel):
    """A graph node proposed for a mention."""

    id: str
    name: str
    score: float
    method: str  # "exact", "alias", "fuzzy", "dense", "fulltext", "vector", …


_LITERAL = re.compile(r"^[+-]?\d[\d.,:/\-\s]*$")  # 12, 1918, 3.5, 1,000, 1918-11-11, 11/11/1918


def is_literal_text(text: str) -> bool:
    """A number or a date written with digits: a value, never the name of a node."""
    return bool(_LITERAL.match(text.strip()))


class MentionLinks(FrozenModel):
    """Candidates for one mention, best first. ``dropped`` holds candidates the linker found but
    did not pass on (below the confidence floor, or a node id that is the mention's number)."""

    mention: str
    candidates: tuple[Candidate, ...] = ()
    dropped: tuple[Candidate, ...] = ()

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.candidates]

    def without_literal_ids(self) -> MentionLinks:
        """For a number or date mention ("12", "1918"), the candidates that are named nodes or
        the value itself: a node whose id holds the value among other characters
        (``Order:12``), or that has no name of its own and another id, is dropped; numbers
        match literal values, never node ids. A literal stored as a node (a triple's tail
        ``1918``, its id and name the mention's very text) *is* that value and stays: in a
        graph of triples it is the only way to the things dated 1918."""
        if not is_literal_text(self.mention):
            return self
        key = re.sub(r"\D", "", self.mention)
        keep, drop = [], list(self.dropped)
        for c in self.candidates:
            unnamed = not c.name or c.name.strip() == c.id.strip()
            itself = unnamed and c.id.strip() == self.mention.strip()
            same = is_literal_text(c.id) and re.sub(r"\D", "", c.id) == key
            (keep if itself or not (unnamed or same) else drop).append(c)
        if len(keep) == len(self.candidates):
            return self
        return self.model_copy(update={"candidates": tuple(keep), "dropped": tuple(drop)})


# --------------------------------------------------------------------------- context / answer


class ContextItem(FrozenModel):
    """A piece of retrieved context with its provenance."""

    text: str
    tool: str
    iteration: int = 0
    score: float | None = None
    kind: str = "triplets"  # "triplets" | "path" | "query" | "note" | …
    triplets: tuple[Triplet, ...] = ()
    path: Path | None = None
    query: str | None = None
    rows: QueryResult | None = None
    nodes: tuple[str, ...] = ()  # node ids this item mentions (answer candidates)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def tools(self) -> list[str]:
        """Every tool that produced this item (merged repeats keep them all), first first."""
        return list(self.metadata.get("tools") or [self.tool])


class StageTiming(BaseModel):
    stage: str
    iteration: int | None = None
    seconds: float
    count: int | None = None  # items produced, when that means something


class TraceEvent(BaseModel):
    """Something worth knowing about a run: a warning, a cap hit, an empty query, a repair."""

    level: str = "info"  # "info" | "warning" | "error"
    source: str
    message: str
    iteration: int | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class LLMCall(BaseModel):
    purpose: str
    model: str
    prompt_checksum: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached: bool = False
    stage: str = ""  # the stage that made the call ("kg-linker", "tool:agentic", "answer"; engine)


class StageSummary(BaseModel):
    """LLM calls, tokens and runs of one stage over a question (see :meth:`Trace.stage_summary`)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: int = 0  # calls served from a cache or a cassette
    seconds: float = 0.0
    runs: int = 0  # times the stage ran (a tool: once per round it was not a repeat)
    repeats: int = 0  # tool runs skipped because the same request already ran this question
    context_tokens: int = 0  # tokens of this tool's items in the context given to the answer


class Trace(BaseModel):
    """Everything a person needs to understand and audit a run."""

    iterations: int = 0
    stages: list[StageTiming] = Field(default_factory=list)
    llm_calls: list[LLMCall] = Field(default_factory=list)
    events: list[TraceEvent] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)
    artifacts: list[Artifacts] = Field(default_factory=list)
    links: list[list[MentionLinks]] = Field(default_factory=list)

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.llm_calls)

    @property
    def completion_tokens(self) -> int:
        return sum(c.completion_tokens for c in self.llm_calls)

    @property
    def warnings(self) -> list[TraceEvent]:
        return [e for e in self.events if e.level in ("warning", "error")]

    def event(
        self,
        source: str,
        message: str,
        *,
        level: str = "info",
        iteration: int | None = None,
        **data: Any,
    ) -> None:
        self.events.append(
            TraceEvent(level=level, source=source, message=message, iteration=iteration, data=data)
        )

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def stage_seconds(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for s in self.stages:
            out[s.stage] = out.get(s.stage, 0.0) + s.seconds
        return out

    def stage_summary(self) -> dict[str, StageSummary]:
        """Per stage (``kg-linker``, ``tool:NAME``, ``answer``): LLM calls and tokens, runs,
        repeats skipped, seconds and the tokens it contributed to the final context."""
        out: dict[str, StageSummary] = {}

        def get(stage: str) -> StageSummary:
            return out.setdefault(stage, StageSummary())

        for s in self.stages:
            if s.stage == "kg-linker" or s.stage == "answer" or s.stage.startswith("tool:"):
                st = get(s.stage)
                st.seconds += s.seconds
                st.runs += 1
        for c in self.llm_calls:
            st = get(c.stage or c.purpose)
            st.calls += 1
            st.prompt_tokens += c.prompt_tokens
            st.completion_tokens += c.completion_tokens
            st.cached += int(c.cached)
        for key, n in self.counts.items():
            kind, _, name = key.partition(".")
            if kind == "tool_repeats" and name:
                get(f"tool:{name}").repeats += n
            elif kind == "context_tokens" and name:
                get(f"tool:{name}").context_tokens += n
        return dict(sorted(out.items()))
