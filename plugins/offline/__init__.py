"""The offline stage pair (``--llm none``): the ``offline-linker`` proposer and the
``offline-answer`` answerer, registered like any other stage (see :mod:`byokg.plugins.offline.reasoner` and
:mod:`byokg.plugins.offline.chains`)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from byokg import hookimpl
from byokg.contracts import Artifacts
from byokg.contracts import PathScore
from byokg.pipeline.stages import Answerer
from byokg.pipeline.stages import AnswerRequest
from byokg.pipeline.stages import AnswerResult
from byokg.pipeline.stages import Proposal
from byokg.pipeline.stages import ProposalRequest
from byokg.pipeline.stages import Proposer
from byokg.pipeline.tools import ToolParams

TRACE_CHAINS = 5  # best chains described in the proposer's trace event


def profile_label_nouns(profile: Any) -> dict[str, tuple[str, ...]]:
    """What each label's nodes are called: the nouns the graph's owner (lexicon) or an LLM
    compilation wrote for the label ("canvas" for Painting), then what the graph's relations
    call them (see :func:`~byokg.plugins.offline.answer_types.label_nouns`, from the
    profile's relation domains and ranges)."""
    from byokg.plugins.offline.answer_types import label_nouns

    nouns = label_nouns([(r.name, r.domain, r.range) for r in profile.relations])
    vocab = getattr(profile, "vocabulary", None)
    for lab in getattr(vocab, "labels", ()) or ():
        said = [p.text for p in lab.phrases if p.source != "name"]
        if said:
            nouns[lab.label] = tuple(dict.fromkeys([*said, *nouns.get(lab.label, ())]))
    return nouns


class OfflineProposerParams(ToolParams):
    max_hops: int = Field(3, ge=1, le=3, description="longest relation chain walked")
    max_paths: int = Field(10, ge=1, le=50, description="relation chains proposed")


class OfflineProposer(Proposer):
    name = "offline-linker"
    description = ("Spots the graph's names in the question, enumerates the relation chains "
                   "around them and proposes the ones that best say what the question asks (no LLM)")
    Params = OfflineProposerParams

    def propose(self, request: ProposalRequest) -> Proposal:
        from byokg.plugins.offline.chains import ChainScorer
        from byokg.plugins.offline.chains import enumerate_chains
        from byokg.plugins.offline.chains import select_chains
        from byokg.plugins.offline.reasoner import drop_type_words
        from byokg.plugins.offline.reasoner import mention_labels
        from byokg.plugins.offline.reasoner import spot_entities
        from byokg.plugins.offline.reasoner import spot_links

        if request.round > 0:  # one proposal; later rounds stop once there is context
            return Proposal(artifacts=Artifacts(finish=len(request.context) > 0))
        p: OfflineProposerParams = request.params  # type: ignore[assignment]
        out = Proposal()
        spots = drop_type_words(spot_entities(request.analysis, request.store,
                                              request.services), request.analysis)
        mentions: dict[str, list[str]] = {}
        spans: dict[str, tuple[int, int]] = {}
        for s in spots:
            mentions.setdefault(s.mention, []).extend(i for i in s.ids
                                                      if i not in mentions.get(s.mention, []))
            spans.setdefault(s.mention, (s.start, s.end))
        labels = [lab.name for lab in request.profile.labels]
        request.similarity.use_vocabulary(request.profile.vocabulary)
        scorer = ChainScorer(request.similarity, mentions=spans, labels=labels,
                             relations=request.profile.relation_names,
                             mention_labels=mention_labels(mentions, request.store, labels),
                             label_nouns=profile_label_nouns(request.profile),
                             label_properties={lab.name: [pr.name for pr in lab.properties]
                                               for lab in request.profile.labels})
        walked = enumerate_chains(request.store, mentions, scorer, max_hops=p.max_hops)
        chosen = select_chains(walked.chains, p.max_paths)
        out.counts.update({"spots": len(spots), "chains": len(walked.chains),
                           "edges_read": walked.edges_read, "nodes_expanded": walked.nodes_expanded})
        out.artifacts = Artifacts(
            entities=tuple(mentions),
            relation_paths=tuple(c.relation_path for c in chosen),
            path_scores=tuple(PathScore(score=round(c.score, 4),
                                        type_score=round(scorer.w.type * c.type_score, 4),
                                        mention=c.mention, ends=len(c.ends)) for c in chosen),
            warnings=() if spots else ("no graph entity name found in the question",),
        )
        out.linked = spot_links(spots, request.store)
        if chosen:
            out.event(self.name, f"{len(chosen)} relation chains proposed from {len(walked.chains)}"
                      f" walked", chains=[
                          {"path": str(c.relation_path), "from": c.mention,
                           "score": round(c.score, 4), "ends": len(c.ends),
                           "truncated": c.truncated, **c.parts}
                          for c in chosen[:TRACE_CHAINS]])
        if walked.truncated:
            out.event(self.name, "a question entity has more edges than the walk reads; "
                      "some chains may be missing", level="info")
        return out


class OfflineAnswererParams(ToolParams):
    max_answers: int = Field(10, ge=1, le=100, description="answers returned at most")
    tie: float = Field(0.02, ge=0.0, le=1.0, description="score gap within which answers tie")


class OfflineAnswerer(Answerer):
    name = "offline-answer"
    description = ("Answers with the end set of the best relation chain in the context, a property "
                   "value or a count, checked against the asked-for type (no LLM)")
    Params = OfflineAnswererParams

    def answer(self, request: AnswerRequest) -> AnswerResult:
        from byokg.plugins.offline.reasoner import answer_offline

        p: OfflineAnswererParams = request.params  # type: ignore[assignment]
        request.similarity.use_vocabulary(request.profile.vocabulary)
        got = answer_offline(request.similarity, request.context, request.store,
                             entities=request.entities, history=request.history,
                             max_answers=p.max_answers, tie=p.tie,
                             labels=[lab.name for lab in request.profile.labels],
                             relations=request.profile.relation_names,
                             label_nouns=profile_label_nouns(request.profile))
        from byokg.plugins.offline.confidence import beyond_offline

        relations = tuple(request.profile.relation_names)
        withheld = beyond_offline(
            request.analysis, got.answers, request.entities,
            shape=_shape(got, request.store, typed=bool(request.analysis.type_words)),
            labels=[lab.name for lab in request.profile.labels],
            sim=lambda a, b: request.similarity.phrase_similarity(a, b, vocabulary=relations),
            label_nouns=profile_label_nouns(request.profile),
            edge_values=_edge_values(request.profile))
        out = AnswerResult(answers=got.answers, answer_ids=got.answer_ids, evidence=got.evidence,
                           confidence=got.confidence if got.answers and not withheld else None)
        if withheld and got.answers:  # the model's figure does not cover this question
            out.event(self.name, f"no confidence: {withheld}", withheld=withheld,
                      model_confidence=got.confidence)
        ranked = got.ranked[: max(p.max_answers, len(got.answers))]
        out.event(self.name, f"{len(got.answers)} answers extracted offline"
                  + (f" from {got.chain}" if got.chain else ""),
                  chain=got.chain, answer_ids=[r.node for r in ranked if r.node],
                  confidence=got.confidence, confidence_features={
                      k: round(v, 4) for k, v in got.confidence_features.items()},
                  candidates=[{"name": r.name, "score": round(r.score, 4),
                               "chain": r.group.key if r.group else None} for r in ranked[:10]])
        for note in got.notes:
            out.event(self.name, note, level="warning")
        return out


def _edge_values(profile: Any) -> dict[str, tuple[str, ...]]:
    """Per relation, the text values its properties take in the profile's sample."""
    return {r.name: tuple(v for pp in r.properties if pp.kind == "string"
                          for v in pp.examples if isinstance(v, str))
            for r in profile.relations if r.properties}


def _shape(got: Any, store: Any, *, typed: bool = True) -> Any:
    """What the offline answer's first candidate is (a property's values, or nodes, the
    relations walked to them and, when the question has a type word (``typed``), their
    labels), for the checks of its confidence."""
    from byokg.plugins.offline.confidence import AnswerShape

    if not got.ranked:
        return None
    best = got.ranked[0]
    if best.node is None:
        md = next((it.metadata for it in best.items
                   if isinstance(it.metadata.get("property"), str)), None)
        if md is None:
            return None
        path = str(md.get("relation_path") or "")
        rels = tuple(h.strip().lstrip("~") for h in path.split("->") if h.strip())
        return AnswerShape(property=md["property"], relations=rels)
    node = store.get_nodes([best.node]).get(best.node) if typed else None
    hops = best.group.hops if best.group is not None else ()
    return AnswerShape(labels=tuple(node.labels) if node is not None else (),
                       steps=max(len(hops), 1), relations=tuple(rel for rel, _inv in hops))


@hookimpl
def register_tools(register):
    from byokg.plugins.offline.properties_tool import NodePropertiesTool

    register(OfflineProposer)
    register(OfflineAnswerer)
    register(NodePropertiesTool)  # the retrieval tool that makes node properties answerable
