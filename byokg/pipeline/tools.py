"""Base classes for retrieval tools and entity linkers, and the shared services they use.

A tool is registered through the ``register_tools`` hook as ``register(name, factory)``; the
factory returns a :class:`Tool` (retrieval: returns ContextItems) or a :class:`Linker`
(links mentions to node ids). Tools declare the store capabilities they need and whether they
need an LLM; the engine offers a tool only where both are met.
"""

from __future__ import annotations

from abc import ABC
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar

from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.contracts import Artifacts
from byokg.contracts import ContextItem
from byokg.contracts import LLMCall
from byokg.contracts import MentionLinks
from byokg.contracts import TraceEvent
from byokg.graph.store import GraphStore
from byokg.models.services import Services
from byokg.models.similarity import Similarity

if TYPE_CHECKING:
    from byokg.graph.profile import GraphProfile
    from byokg.language.analysis import QuestionAnalysis



class ToolParams(BaseModel):
    """Base of every tool's parameters; unknown fields are an error naming the field."""

    model_config = ConfigDict(extra="forbid")


def as_params(given: Any, model: type[ToolParams]) -> Any:
    """``given`` (a params model, a dict or None) validated as ``model``."""
    if isinstance(given, model):
        return given
    data = given.model_dump() if hasattr(given, "model_dump") else dict(given or {})
    return model(**data)


@dataclass
class ToolRequest:
    """What the engine hands a retrieval tool for one round."""

    question: str
    store: GraphStore
    services: Services
    params: ToolParams
    iteration: int = 0
    rounds: int = 1  # the question's rounds at most (T_R): a later round may come when < rounds
    artifacts: Artifacts = field(default_factory=Artifacts)
    entities: list[MentionLinks] = field(default_factory=list)  # linked question entities
    answers: list[MentionLinks] = field(default_factory=list)  # linked draft answers
    analysis: QuestionAnalysis | None = None  # the question, analysed once (None: built on use)
    profile: GraphProfile | None = None  # the graph's profile (None: built on use)
    llm_calls_used: int = 0  # LLM calls this tool already made for this question
    llm_calls_left: int | None = None  # calls the question's budget still allows (None: no cap)
    similarity: Similarity | None = None  # the question's similarity service (None: built here)

    def __post_init__(self) -> None:
        if self.analysis is None:
            from byokg.language.analysis import analyze

            self.analysis = analyze(self.question)
        if self.similarity is None:
            self.similarity = Similarity(self.analysis, self.services)

    @property
    def entity_ids(self) -> list[str]:
        return list(dict.fromkeys(i for m in self.entities for i in m.ids))

    @property
    def answer_ids(self) -> list[str]:
        return list(dict.fromkeys(i for m in self.answers for i in m.ids))

    def graph_profile(self) -> GraphProfile:
        """The graph's profile (the engine passes it; built once per run otherwise)."""
        if self.profile is None:
            from byokg.graph.profile import get_profile

            self.profile = get_profile(self.store, self.services)
        return self.profile


@dataclass
class StageOutput:
    """Trace material every stage returns (tools, proposers, answerers): events, LLM calls and
    counters; the engine copies it into the question's trace."""

    events: list[TraceEvent] = field(default_factory=list)
    llm_calls: list[LLMCall] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    iteration: int | None = None  # the round the events belong to (the engine fills it in)

    def event(self, source: str, message: str, *, level: str = "info", **data: Any) -> None:
        self.events.append(TraceEvent(level=level, source=source, message=message,
                                      iteration=self.iteration, data=data))


@dataclass
class ToolResult(StageOutput):
    """A retrieval tool's output: context items with provenance, plus trace material."""

    items: list[ContextItem] = field(default_factory=list)
    # the tool did not take this request up and may be asked again with the same one in a
    # later round (why, for the trace); None: it ran
    deferred: str | None = None


REQUEST_FIELDS = ("entities", "answers", "entity_mentions", "relation_paths", "cypher",
                  "draft_answers")


def request_key(request: ToolRequest, reads: frozenset[str] | None = None) -> str:
    """The request's fields named in ``reads`` (all of :data:`REQUEST_FIELDS` when None) as one
    canonical JSON text."""
    import json

    art = request.artifacts
    values = {
        "entities": request.entity_ids,
        "answers": request.answer_ids,
        "entity_mentions": list(art.entities),
        "relation_paths": [str(r) for r in art.relation_paths],
        "cypher": list(art.cypher),
        "draft_answers": list(art.draft_answers),
    }
    fields = REQUEST_FIELDS if reads is None else tuple(f for f in REQUEST_FIELDS if f in reads)
    return json.dumps({f: values[f] for f in fields}, ensure_ascii=False, sort_keys=True)


def unavailable(obj: Any, store: GraphStore, services: Services) -> str | None:
    """Why a tool or stage cannot run on this store in this run (None: it can)."""
    if obj.applicable(store, services):
        return None
    missing = sorted(set(obj.requires) - set(store.capabilities))
    if missing:
        return f"needs store capabilities {missing}"
    if obj.needs_llm and services.llm is None:
        return "needs an LLM (--llm)"
    return "not applicable"


class Component(ABC):
    """What every registered stage has: a kind, a name said once, the store capabilities and
    LLM it needs, and its parameters model (``RunConfig.params[name]`` is validated by it)."""

    kind: ClassVar[str]
    name: ClassVar[str] = ""  # said once: here, with register(Class); else the registered name
    description: ClassVar[str] = ""
    requires: ClassVar[frozenset[str]] = frozenset()  # store capabilities
    needs_llm: ClassVar[bool] = False
    default: ClassVar[bool] = False  # retrieval tools: part of the default multi-strategy set
    Params: ClassVar[type[ToolParams]] = ToolParams

    def applicable(self, store: GraphStore, services: Services) -> bool:
        caps = store.capabilities
        if not self.requires <= caps:
            return False
        return not (self.needs_llm and services.llm is None)


# what a tool may say it needs in its request (``Tool.needs``), and how the trace words its absence
NEEDS: dict[str, str] = {
    "entities": "no linked entities",
    "answers": "no linked draft answers",
    "relation_paths": "no relation paths",
    "cypher": "no Cypher query in the linker's artifacts",
    "llm": "no LLM configured",
}


class Tool(Component):
    """A retrieval tool: one round's request in, ContextItems (with provenance) out.

    :meth:`run` is a template: it makes the :class:`ToolResult`, returns it with an event when
    the request lacks what the tool ``needs`` (linked entities, relation paths …), and otherwise
    hands the validated parameters and the result to :meth:`retrieve`, the tool's own part.
    A tool may still override :meth:`run` whole."""

    kind: ClassVar[str] = "retrieval"
    default: ClassVar[bool] = True
    # the request fields the result depends on (see request_key); None: all of them
    reads: ClassVar[frozenset[str] | None] = None
    # what the request must hold for the tool to do anything (keys of NEEDS)
    needs: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        unknown = set(cls.needs) - set(NEEDS)
        if unknown:
            raise TypeError(f"{cls.__name__}.needs names {sorted(unknown)}; known: {sorted(NEEDS)}")

    def request_key(self, request: ToolRequest) -> str | None:
        """What this tool's result depends on, as text: the engine runs a tool once per question
        for each key (a later round with the same key is a repeat and is skipped). Built from
        the fields named in ``reads`` (``entities``, ``answers``: linked ids; ``entity_mentions``,
        ``relation_paths``, ``cypher``, ``draft_answers``: the proposal's); None never skips."""
        return request_key(request, self.reads)

    def params(self, request: ToolRequest) -> Any:
        """The request's parameters as this tool's ``Params`` model (validated from whatever the
        caller passed: the engine already passes the right model)."""
        return as_params(request.params, self.Params)

    def missing(self, request: ToolRequest) -> list[str]:
        """What the request lacks of what this tool ``needs``, as trace words."""
        have = {
            "entities": bool(request.entity_ids),
            "answers": bool(request.answer_ids),
            "relation_paths": bool(request.artifacts.relation_paths),
            "cypher": any(q and q.strip() for q in request.artifacts.cypher),
            "llm": "llm" in self.needs and request.services.llm is not None,
        }
        return [NEEDS[n] for n in sorted(self.needs) if not have[n]]

    def run(self, request: ToolRequest) -> ToolResult:
        """The template: a result, or an event saying what was missing; :meth:`retrieve` fills
        the result."""
        result = ToolResult(iteration=request.iteration)
        lacking = self.missing(request)
        if lacking:
            result.event(self.name, "nothing to do: " + "; ".join(lacking))
            return result
        self.retrieve(request, self.params(request), result)
        return result

    def retrieve(self, request: ToolRequest, params: Any, result: ToolResult) -> None:
        """The tool's own part: add items, events and counts to ``result``."""
        raise NotImplementedError(f"{type(self).__name__} implements neither retrieve() nor run()")


class Linker(Component):
    """Links mentions (entity names, draft answers) to graph nodes, grouped per mention."""

    kind: ClassVar[str] = "linker"

    @abstractmethod
    def link(
        self,
        mentions: Sequence[str],
        *,
        store: GraphStore,
        services: Services,
        params: ToolParams,
    ) -> list[MentionLinks]: ...
