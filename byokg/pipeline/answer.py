"""What a question returns: the :class:`Answer` (which draws its evidence picture in a notebook),
the :class:`Retrieval` of :meth:`~byokg.pipeline.engine.Engine.retrieve`, and the
:class:`StageEvent` s of :meth:`~byokg.pipeline.engine.Engine.stream`."""

from __future__ import annotations

from pydantic import BaseModel
from pydantic import Field

from byokg.contracts import Artifacts
from byokg.contracts import ContextItem
from byokg.contracts import MentionLinks
from byokg.contracts import Trace


class Answer(BaseModel):
    """The answer to one question: names as the graph shows them, the evidence behind them, and
    the ids that tie both to the graph (for pictures, audits and follow-up queries)."""

    question: str
    answers: list[str] = Field(default_factory=list)  # display names (or values), best first
    evidence: list[ContextItem] = Field(default_factory=list)
    context: list[ContextItem] = Field(default_factory=list)  # everything retrieved, final round
    trace: Trace = Field(default_factory=Trace)
    # answer (as in ``answers``) -> node ids it stands for; absent for values and unlinked text
    answer_ids: dict[str, list[str]] = Field(default_factory=dict)
    # the question's entities as linked: mention -> candidates (ids with names and scores)
    entities: list[MentionLinks] = Field(default_factory=list)
    # display name of every node id that appears in the evidence, the entities or the answers
    names: dict[str, str] = Field(default_factory=dict)
    # how likely the first answer is right, in [0, 1], where the answerer can say (None: unknown)
    confidence: float | None = None
    # the list is not complete: ``RunConfig.max_answers`` cut it, or it comes from rows a cap
    # cut; ``total`` says how many answers there are in all when that is known
    truncated: bool = False
    total: int | None = None

    def _repr_html_(self) -> str:
        """The evidence picture in a notebook (see :mod:`byokg.presentation.picture`);
        untrusted text escaped."""
        from byokg.presentation.picture import render_fragment

        return render_fragment(self)


class Retrieval(BaseModel):
    """Ranked evidence for a question without an answer (:meth:`byokg.pipeline.engine.Engine.retrieve`):
    the context items best first, each with its provenance (tool, round, score, triplets, path
    or query), the question's entities as linked, display names of every node id and the trace."""

    question: str
    context: list[ContextItem] = Field(default_factory=list)  # ranked, best first
    entities: list[MentionLinks] = Field(default_factory=list)
    names: dict[str, str] = Field(default_factory=dict)
    trace: Trace = Field(default_factory=Trace)


class StageEvent(BaseModel):
    """One step of a question as it happens (:meth:`byokg.pipeline.engine.Engine.stream`).

    ``kind``: ``proposal`` (the round's artifacts), ``links`` (linked mentions), ``tool`` (one
    tool's items), ``merge`` (items new to the context), ``token`` (a piece of the answer LLM's
    reply as the provider streams it; the whole reply at once from one that does not),
    ``retrieval`` (the final :class:`Retrieval`)
    or ``answer`` (the final :class:`Answer`). Only the fields of the kind are set.
    """

    kind: str
    stage: str = ""  # "kg-linker", "link", "tool:NAME", "merge", "answer"
    round: int | None = None
    artifacts: Artifacts | None = None
    links: list[MentionLinks] = Field(default_factory=list)
    items: list[ContextItem] = Field(default_factory=list)
    error: str | None = None  # a tool that failed
    new_items: int | None = None  # merge: items the context did not hold yet
    token: str | None = None
    retrieval: Retrieval | None = None
    answer: Answer | None = None
