"""The stages of one question (BYOKG-RAG, Algorithm 2) and their contracts.

    QuestionAnalysis ─► Proposer ─► Linker ─► tools side by side ─► Context ─► Answerer

A stage implementation is an object registered through the ``register_tools`` hook, like a
retrieval tool, and chosen by the run configuration (``RunConfig.proposer`` /
``RunConfig.answerer``; see :meth:`byokg.config.RunConfig.stage_names`). The engine loop names no
implementation: the LLM KG-Linker and the offline proposer both return a :class:`Proposal`; the
LLM and the offline answerer both return an :class:`AnswerResult`.

Every stage output carries its own trace material (events, LLM calls, counts); the engine copies it
into the question's :class:`~byokg.contracts.Trace`. :func:`complete` is the one place an LLM call
is made and recorded.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar

from byokg.contracts import Artifacts
from byokg.contracts import ContextItem
from byokg.contracts import LLMCall
from byokg.contracts import MentionLinks
from byokg.graph.store import GraphStore
from byokg.language.analysis import QuestionAnalysis
from byokg.language.text import count_tokens
from byokg.models.base import complete_streaming
from byokg.models.base import prompt_checksum
from byokg.models.services import Services
from byokg.models.similarity import Similarity
from byokg.pipeline.tools import Component
from byokg.pipeline.tools import StageOutput
from byokg.pipeline.tools import ToolParams

if TYPE_CHECKING:
    from byokg.graph.profile import GraphProfile
    from byokg.models.base import LLM
    from byokg.pipeline.context import Context
    from byokg.pipeline.context import Cut
    from byokg.pipeline.context import Selection


def complete(
    llm: LLM,
    prompt: str,
    *,
    purpose: str,
    out: StageOutput,
    template: str | None = None,
    system: str | None = None,
    on_token: Callable[[str], None] | None = None,
    **options: Any,
) -> str:
    """One LLM call, recorded in ``out``: an event naming the prompt (template, size, checksum)
    and an :class:`LLMCall` with tokens (the provider's count, else an estimate) and seconds.
    With ``on_token`` the reply's text also goes to it as the provider streams it (whole, once,
    from a model that does not stream). Errors propagate; the caller decides whether they end
    the question."""
    checksum = prompt_checksum(prompt, system)
    label = template or purpose
    out.event(purpose, f"prompt {label} ({len(prompt):,} chars, checksum {checksum})",
              template=label, chars=len(prompt), checksum=checksum)
    t0 = time.perf_counter()
    kwargs = {k: v for k, v in options.items() if v is not None}
    if system:
        kwargs["system"] = system
    resp = (llm.complete(prompt, **kwargs) if on_token is None
            else complete_streaming(llm, prompt, on_token, **kwargs))
    text = resp.text
    for w in resp.warnings:  # e.g. unusable token counts from the provider
        out.event(purpose, str(w), level="warning")
    out.llm_calls.append(LLMCall(
        purpose=purpose,
        model=resp.model or llm.name,
        prompt_checksum=checksum,
        prompt_tokens=_tokens(resp.prompt_tokens) or count_tokens(prompt),
        completion_tokens=_tokens(resp.completion_tokens) or count_tokens(text),
        seconds=time.perf_counter() - t0,
        cached=resp.cached,
    ))
    out.counts["llm_calls"] = out.counts.get("llm_calls", 0) + 1
    return text


def _tokens(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class _StageRequest:
    """What a proposer's and an answerer's requests share: the question's similarity service
    (built from the analysis and the run's services when the engine did not hand one) and
    the question text."""

    analysis: QuestionAnalysis
    services: Services
    similarity: Similarity | None

    def __post_init__(self) -> None:
        if self.similarity is None:
            self.similarity = Similarity(self.analysis, self.services)

    @property
    def question(self) -> str:
        return self.analysis.question


# --------------------------------------------------------------------------- the proposer


@dataclass
class ProposalRequest(_StageRequest):
    """What a proposer sees in one round."""

    analysis: QuestionAnalysis
    store: GraphStore
    services: Services
    profile: GraphProfile
    params: ToolParams
    round: int  # 0-based
    rounds: int  # T_R
    context: Context  # merged context so far (read it; never change it)
    history: list[Artifacts] = field(default_factory=list)  # earlier rounds' proposals
    similarity: Similarity | None = None  # the question's similarity service (None: built here)


@dataclass
class Proposal(StageOutput):
    """What a proposer returns: the artifacts (entities, relation paths, Cypher, draft answers,
    FINISH), and mentions it already resolved against the graph (spotting a name in the graph's
    name index links it at once); the Linker stage links every other entity and draft answer."""

    artifacts: Artifacts = field(default_factory=Artifacts)
    linked: list[MentionLinks] = field(default_factory=list)
    context_cut: Cut | None = None  # what the context shown to the proposer left out


class Proposer(Component):
    """Proposes what to look for: Algorithm 2's KG-Linker step."""

    kind: ClassVar[str] = "proposer"

    @abstractmethod
    def propose(self, request: ProposalRequest) -> Proposal: ...


# --------------------------------------------------------------------------- the answerer


@dataclass
class AnswerRequest(_StageRequest):
    """What an answerer sees once the rounds are over."""

    analysis: QuestionAnalysis
    store: GraphStore
    services: Services
    profile: GraphProfile
    params: ToolParams
    context: list[ContextItem]  # the selected (budgeted) context, first-seen order
    entities: list[MentionLinks] = field(default_factory=list)  # the question's linked entities
    drafts: list[MentionLinks] = field(default_factory=list)  # linked draft answers
    history: list[Artifacts] = field(default_factory=list)  # every round's proposal
    similarity: Similarity | None = None  # the question's similarity service (None: built here)
    # pieces of the answer text as the LLM writes them (Engine.stream's token events); an
    # answerer passes it to complete(); None: nobody listens
    on_token: Callable[[str], None] | None = None
    # the context selected again for a prompt of so many characters (what an LLM answerer
    # shows: Context.for_prompt); None: use ``context`` as it is
    select: Callable[[int], Selection] | None = None

    @property
    def entity_ids(self) -> list[str]:
        return list(dict.fromkeys(i for m in self.entities for i in m.ids))


@dataclass
class AnswerResult(StageOutput):
    """Answers best first, as the graph names them; ``answer_ids`` ties each to its node ids."""

    answers: list[str] = field(default_factory=list)
    answer_ids: dict[str, list[str]] = field(default_factory=dict)
    # the context items that produced the answers, best first (empty: the engine finds them)
    evidence: list[ContextItem] = field(default_factory=list)
    # how likely the first answer is right, in [0, 1], where the answerer can say (None: unknown)
    confidence: float | None = None
    total: int | None = None  # answers in all, when the answerer knows there are more
    truncated: bool = False  # more answers exist than ``answers`` holds (a cap cut them)
    context_cut: Cut | None = None  # what the context shown to the answerer left out


class Answerer(Component):
    """Turns the merged context into the answer: Algorithm 2's last step."""

    kind: ClassVar[str] = "answerer"

    @abstractmethod
    def answer(self, request: AnswerRequest) -> AnswerResult: ...
