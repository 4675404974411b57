"""The offline stage pair (``--llm none``): the ``offline-linker`` proposer and the
``offline-answer`` answerer, registered like any other stage (see :mod:`byokg.offline`)."""

from __future__ import annotations

from pydantic import Field

from byokg import hookimpl
from byokg.contracts import Artifacts
from byokg.stages import Answerer, AnswerRequest, AnswerResult, Proposal, ProposalRequest, Proposer
from byokg.tools import ToolParams


class OfflineProposerParams(ToolParams):
    max_hops: int = Field(3, ge=1, le=3, description="longest relation path walked")
    max_paths: int = Field(12, ge=1, le=50, description="relation paths proposed")


class OfflineProposer(Proposer):
    name = "offline-linker"
    description = ("Spots the graph's names in the question and proposes the relation paths around "
                   "them that best match its words (no LLM)")
    Params = OfflineProposerParams

    def propose(self, request: ProposalRequest) -> Proposal:
        from byokg.offline import PathScorer, spot_entities, spot_links, walk_paths

        if request.round > 0:  # one proposal; later rounds stop once there is context
            return Proposal(artifacts=Artifacts(finish=len(request.context) > 0))
        p: OfflineProposerParams = request.params  # type: ignore[assignment]
        out = Proposal()
        spots = spot_entities(request.analysis, request.store, request.services)
        starts = list(dict.fromkeys(i for s in spots for i in s.ids))
        scorer = PathScorer(request.analysis, request.services, exclude=[s.mention for s in spots])
        walks = walk_paths(request.store, starts, scorer, max_hops=p.max_hops) if starts else []
        chosen = walks[: p.max_paths]
        out.counts.update({"spots": len(spots), "walks": len(walks)})
        out.artifacts = Artifacts(
            entities=tuple(dict.fromkeys(s.mention for s in spots)),
            relation_paths=tuple(w.relation_path for w in chosen),
            warnings=() if spots else ("no graph entity name found in the question",),
        )
        out.linked = spot_links(spots, request.store)
        if chosen:
            out.event(self.name, f"{len(chosen)} relation paths proposed from {len(walks)} walked",
                      scores=[round(w.score, 4) for w in chosen])
        return out


class OfflineAnswererParams(ToolParams):
    max_answers: int = Field(10, ge=1, le=100, description="answers returned at most")
    tie: float = Field(0.02, ge=0.0, le=1.0, description="score gap within which answers tie")


class OfflineAnswerer(Answerer):
    name = "offline-answer"
    description = ("Ranks the end nodes of the retrieved paths and facts by how well the relations "
                   "leading to them match the question (no LLM)")
    Params = OfflineAnswererParams

    def answer(self, request: AnswerRequest) -> AnswerResult:
        from byokg.offline import extract_answers

        p: OfflineAnswererParams = request.params  # type: ignore[assignment]
        ranked = extract_answers(request.analysis, request.context, request.store,
                                 entities=request.entities, services=request.services,
                                 max_answers=p.max_answers, tie=p.tie,
                                 labels=[lab.name for lab in request.profile.labels])
        out = AnswerResult()
        for r in ranked:
            if r.name not in out.answer_ids:
                out.answers.append(r.name)
            out.answer_ids.setdefault(r.name, []).append(r.node)
        out.event(self.name, f"{len(ranked)} answers extracted offline",
                  answer_ids=[r.node for r in ranked], scores=[round(r.score, 4) for r in ranked])
        return out


@hookimpl
def register_tools(register):
    register(OfflineProposer)
    register(OfflineAnswerer)
