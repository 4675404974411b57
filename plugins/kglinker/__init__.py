"""The LLM stages: the ``kg-linker`` proposer (one KG-Linker call per round), the ``llm-answer``
answerer, and the vanilla-LLM pair (``question-only`` proposer + ``vanilla-answer``: the question
alone, no graph; the paper's vanilla baseline). Prompts and the reply parser live in
:mod:`byokg.plugins.kglinker.prompt`."""

from __future__ import annotations

from typing import Any

from byokg import hookimpl
from byokg.contracts import Artifacts
from byokg.pipeline.stages import (
    Answerer,
    AnswerRequest,
    AnswerResult,
    Proposal,
    ProposalRequest,
    Proposer,
    complete,
)

MAX_DRAFT_ANSWERS = 10  # draft answers used when the answer reply has none


class KGLinkerProposer(Proposer):
    name = "kg-linker"
    description = ("The LLM KG-Linker: one call per round proposes entities, relation paths, "
                   "openCypher and draft answers from the schema (and the context so far)")
    needs_llm = True

    def propose(self, request: ProposalRequest) -> Proposal:
        from byokg.plugins.kglinker.prompt import (
            CONTEXT_PROMPT_TOKENS,
            iterative_prompt,
            linker_prompt,
            parse_reply,
            render_schema_for,
        )

        store, services, profile = request.store, request.services, request.profile
        schema_text = render_schema_for(profile, request.similarity)
        cypher = "cypher" in store.capabilities
        dialect = store.dialect
        out = Proposal()
        if request.round == 0:
            prompt = linker_prompt(request.question, schema_text, cypher=cypher, dialect=dialect,
                                   store=store, profile=profile)
        else:
            budget = min(services.config.context_tokens, CONTEXT_PROMPT_TOKENS)
            shown = request.context.select(budget)
            out.context_cut = shown.cut
            prompt = iterative_prompt(request.question, schema_text, shown.render(),
                                      round_no=request.round + 1, rounds=request.rounds,
                                      cypher=cypher, dialect=dialect, store=store,
                                      profile=profile)
        reply = complete(services.llm, prompt.text, purpose="kg-linker", out=out,
                         template=prompt.template)
        out.artifacts = parse_reply(reply)  # the engine records its warnings
        return out


class QuestionOnlyProposer(Proposer):
    name = "question-only"
    description = "Proposes nothing and finishes at once (the vanilla-LLM baseline's first stage)"

    def propose(self, request: ProposalRequest) -> Proposal:
        return Proposal(artifacts=Artifacts(finish=True))


def _llm_answer(request: AnswerRequest, prompt: Any) -> AnswerResult:
    """One answer call; what the parser could not read is a warning."""
    from byokg.plugins.kglinker.prompt import parse_reply

    out = AnswerResult()
    reply = complete(request.services.llm, prompt.text, purpose="answer", out=out,
                     template=prompt.template, on_token=request.on_token)
    art = parse_reply(reply)
    for w in art.warnings:
        out.event("answer", f"parse: {w}", level="warning")
    out.counts["parse_warnings"] = len(art.warnings)
    out.answers = list(art.draft_answers)
    return out


class LLMAnswerer(Answerer):
    name = "llm-answer"
    description = "One LLM call answers from the merged context (KG-Linker drafts as fallback)"
    needs_llm = True

    def answer(self, request: AnswerRequest) -> AnswerResult:
        from byokg.plugins.kglinker.prompt import answer_prompt

        text = "\n".join(i.text for i in request.context)
        out = _llm_answer(request, answer_prompt(request.question, text))
        if not out.answers:
            drafts = list(dict.fromkeys(a for art in request.history for a in art.draft_answers))
            out.answers = drafts[:MAX_DRAFT_ANSWERS]
            if out.answers:
                cut = len(drafts) - len(out.answers)
                out.event("answer", "answer reply had no answers; using KG-Linker draft answers"
                          + (f" (the first {MAX_DRAFT_ANSWERS} of {len(drafts)})" if cut else ""),
                          level="warning")
        return out


class VanillaAnswerer(Answerer):
    name = "vanilla-answer"
    description = "The LLM answers the question alone, without the graph (the vanilla baseline)"
    needs_llm = True

    def answer(self, request: AnswerRequest) -> AnswerResult:
        from byokg.plugins.kglinker.prompt import vanilla_prompt

        out = _llm_answer(request, vanilla_prompt(request.question))
        out.event("engine", "vanilla LLM: the question alone, no graph")
        return out


@hookimpl
def register_tools(register):
    register(KGLinkerProposer)
    register(QuestionOnlyProposer)
    register(LLMAnswerer)
    register(VanillaAnswerer)
