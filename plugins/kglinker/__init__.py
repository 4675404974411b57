"""The LLM stages: the ``kg-linker`` proposer (one KG-Linker call per round), the ``llm-answer``
answerer, and the vanilla-LLM pair (``question-only`` proposer + ``vanilla-answer``: the question
alone, no graph; the paper's vanilla baseline). Prompts and the reply parser live in
:mod:`byokg.plugins.kglinker.prompt`."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from byokg import hookimpl
from byokg.contracts import Artifacts
from byokg.contracts import ContextItem
from byokg.contracts import QueryResult
from byokg.pipeline.stages import Answerer
from byokg.pipeline.stages import AnswerRequest
from byokg.pipeline.stages import AnswerResult
from byokg.pipeline.stages import Proposal
from byokg.pipeline.stages import ProposalRequest
from byokg.pipeline.stages import Proposer
from byokg.pipeline.stages import complete
from byokg.pipeline.tools import ToolParams

MAX_DRAFT_ANSWERS = 10  # draft answers used when the answer reply has none
LINKER_SCHEMA = ("byokg.kg-linker.schema",)  # the question's first KG-Linker schema text


class KGLinkerParams(ToolParams):
    """``params.kg-linker``."""

    rows_answer: bool = Field(True, description="from round 2 on, when a query result of an "
                              "earlier round fits the question's shape, answer from its rows: "
                              "FINISH with them, no KG-Linker call (rows empty or an error: "
                              "the round runs as usual)")
    min_fit: float = Field(0.5, ge=0.0, le=1.0, description="rows fit at least this well "
                           "(byokg.plugins.routing.shapes.fit)")


class KGLinkerProposer(Proposer):
    name = "kg-linker"
    description = ("The LLM KG-Linker: one call per round proposes entities, relation paths, "
                   "openCypher and draft answers from the schema (and the context so far); "
                   "from round 2 on, query rows that fit the question answer it without a call")
    needs_llm = True
    Params = KGLinkerParams

    def propose(self, request: ProposalRequest) -> Proposal:
        from byokg.plugins.kglinker.prompt import fit_prompt
        from byokg.plugins.kglinker.prompt import kg_linker_prompt
        from byokg.plugins.kglinker.prompt import parse_reply

        p = request.params if isinstance(request.params, KGLinkerParams) else KGLinkerParams()
        if request.round > 0 and p.rows_answer:
            done = rows_proposal(request, p.min_fit)
            if done is not None:
                return done
        store, services, profile = request.store, request.services, request.profile
        cfg = services.config
        out = Proposal()
        shown: list[Any] = []

        def build(schema_text: str, context_text: str | None) -> Any:
            return kg_linker_prompt(request.question, schema_text, context_text=context_text,
                                    round_no=request.round + 1, rounds=request.rounds,
                                    cypher="cypher" in store.capabilities, dialect=store.dialect,
                                    store=store, profile=profile, max_answers=cfg.max_answers)

        def context_for(chars: int) -> str:
            sel = request.context.for_prompt(chars)
            shown[:] = [sel]
            return sel.render()

        schemas: list[str] = []

        def schema_for(chars: int) -> str:
            schemas.append(schema_text_for(request, chars))
            return schemas[-1]

        prompt = fit_prompt(build, schema_for, max_chars=cfg.prompt_chars,
                            context_for=context_for if request.round > 0 else None)
        if request.round == 0 and schemas:  # what repair and the critic show too
            services.put(LINKER_SCHEMA, schemas[-1])
        if shown:
            out.context_cut = shown[0].cut
        reply = complete(services.llm, prompt.text, purpose="kg-linker", out=out,
                         template=prompt.template)
        out.artifacts = parse_reply(reply)  # the engine records its warnings
        return out


def schema_text_for(request: Any, chars: int | None = None) -> str:
    """The schema for this question within ``chars`` characters, rendered once per question and
    budget; without ``chars`` the text the question's first KG-Linker prompt showed (so the
    query critic and repair show the same schema), else the default budget."""
    from byokg.plugins.kglinker.prompt import SCHEMA_CHARS
    from byokg.plugins.kglinker.prompt import render_schema_for

    if chars is None:
        shown = request.services.peek(LINKER_SCHEMA)
        if shown is not None:
            return str(shown)
        chars = SCHEMA_CHARS
    profile = request.graph_profile() if hasattr(request, "graph_profile") else request.profile
    key = ("byokg.schema-text", id(profile), chars)
    return request.services.per_question(
        key, lambda: render_schema_for(profile, request.similarity, max_chars=chars))


def rows_answers(analysis: Any, rows: QueryResult, profile: Any = None) -> list[str]:
    """The answers a query result gives: for a count, sum, rank … the value the rows hold (as
    :func:`byokg.plugins.routing.shapes.compute` reads it, only when it is a cell); for a lookup
    the cells of the first column, a node written by its display name (or key)."""
    from byokg.plugins.routing.shapes import compute

    from byokg.cypher.execute import cell_name

    if analysis.aggregate is not None:
        comp = compute(analysis, rows)
        cells = {cell_name(v, profile) for r in rows.rows for v in r}
        if comp and comp.answers and all(a in cells for a in comp.answers):
            return list(comp.answers)
        if analysis.aggregate == "rank" and rows.rows and all(
                isinstance(r[0], dict) for r in rows.rows if r):  # whole nodes, in query order
            k = analysis.top_k or (min(len(rows.rows), 10) if analysis.plural else 1)
            got = (cell_name(r[0], profile) for r in rows.rows[:k])
            return list(dict.fromkeys(a for a in got if a))
        return []
    col = _asked_column(analysis.question, rows, profile)
    got = (cell_name(r[col], profile) for r in rows.rows if len(r) > col)
    return list(dict.fromkeys(a for a in got if a))


def _asked_column(question: str, rows: QueryResult, profile: Any = None) -> int:
    """The column a lookup's answer is read from: the first one, unless every name in it is
    already said by the question ("the capacity of Tidal Fest 2013" -> name, capacity: the
    question names the festival, so the answer is the next column the question does not say)."""
    from byokg.cypher.execute import cell_name

    said = " ".join(question.casefold().split())
    width = max((len(r) for r in rows.rows), default=0)
    for col in range(width):
        names = {cell_name(r[col], profile) for r in rows.rows if len(r) > col}
        names.discard(None)
        if names and not all(" ".join(str(n).casefold().split()) in said for n in names):
            return col
    return 0


def rows_proposal(request: ProposalRequest, min_fit: float) -> Proposal | None:
    """FINISH with the answers of the best-fitting query result of an earlier round, with no
    LLM call; None when no result has rows that fit (the round runs as usual)."""
    from byokg.plugins.routing.shapes import fit

    items: list[ContextItem] = [it for it in request.context.items if it.kind == "query"
                                and it.rows is not None and it.rows.rows]
    if not items:
        return None
    scored = sorted(((fit(request.analysis, it.rows), i, it) for i, it in enumerate(items)),
                    key=lambda t: (-t[0], t[1]))
    score, _, best = scored[0]
    if score < min_fit or best.rows is None:
        return None
    answers = rows_answers(request.analysis, best.rows, request.profile)
    # the query's own LIMIT came back full and the question asked for no such number: the
    # list may be cut (said, never silent)
    cut = best.rows.truncated or (best.rows.limit_reached
                                  and request.analysis.top_k != best.rows.limit)
    out = Proposal(artifacts=Artifacts(finish=True, draft_answers=tuple(answers),
                                       answers_truncated=cut))
    out.event("kg-linker", f"the rows of a round-{best.iteration + 1} query fit the question "
              f"(fit {score:.2f}): answered from them, no KG-Linker call in round "
              f"{request.round + 1}" + ("" if answers else "; the answer stage reads them"),
              query=best.query, fit=round(score, 3), answers=len(answers),
              truncated=cut)
    out.counts["rows_answer"] = 1
    return out


class QuestionOnlyProposer(Proposer):
    name = "question-only"
    description = "Proposes nothing and finishes at once (the vanilla-LLM baseline's first stage)"

    def propose(self, request: ProposalRequest) -> Proposal:
        return Proposal(artifacts=Artifacts(finish=True))


def _llm_answer(request: AnswerRequest, build: Any, *, fallback: bool) -> AnswerResult:
    """One answer call with the prompt ``build(context_text)`` (None: the prompt without graph
    context) within the run's prompt size; what the parser could not read is a warning. With
    ``fallback``, an empty reply falls back to the KG-Linker's draft answers (said)."""
    from byokg.plugins.kglinker.prompt import parse_reply

    out = AnswerResult()
    cfg = request.services.config
    if request.select is not None:  # the context fitted to what the template leaves
        room = max(cfg.prompt_chars - build("").chars, 200)
        sel = request.select(room)
        out.context_cut = sel.cut
        prompt = build(sel.render())
    else:
        prompt = build("\n".join(i.text for i in request.context) if request.context else None)
    reply = complete(request.services.llm, prompt.text, purpose="answer", out=out,
                     template=prompt.template, on_token=request.on_token)
    art = parse_reply(reply)
    for w in art.warnings:
        out.event("answer", f"parse: {w}", level="warning")
    out.counts["parse_warnings"] = len(art.warnings)
    out.answers = list(art.draft_answers)
    out.total = art.answers_total
    if fallback and not out.answers:
        drafts = list(dict.fromkeys(a for h in request.history for a in h.draft_answers))
        out.answers = drafts[:MAX_DRAFT_ANSWERS]
        if out.answers:
            cut = len(drafts) - len(out.answers)
            out.event("answer", "answer reply had no answers; using KG-Linker draft answers"
                      + (f" (the first {MAX_DRAFT_ANSWERS} of {len(drafts)})" if cut else ""),
                      level="warning")
    return out


class LLMAnswerer(Answerer):
    name = "llm-answer"
    description = "One LLM call answers from the merged context (KG-Linker drafts as fallback)"
    needs_llm = True

    def answer(self, request: AnswerRequest) -> AnswerResult:
        from byokg.plugins.kglinker.prompt import answer_prompt

        cap = request.services.config.max_answers
        return _llm_answer(request, lambda text: answer_prompt(request.question, text or "",
                                                               max_answers=cap), fallback=True)


class VanillaAnswerer(Answerer):
    name = "vanilla-answer"
    description = "The LLM answers the question alone, without the graph (the vanilla baseline)"
    needs_llm = True

    def answer(self, request: AnswerRequest) -> AnswerResult:
        from byokg.plugins.kglinker.prompt import vanilla_prompt

        bare = AnswerRequest(**{**request.__dict__, "context": [], "select": None})
        out = _llm_answer(bare, lambda _text: vanilla_prompt(request.question), fallback=False)
        out.event("engine", "vanilla LLM: the question alone, no graph")
        return out


@hookimpl
def register_tools(register):
    register(KGLinkerProposer)
    register(QuestionOnlyProposer)
    register(LLMAnswerer)
    register(VanillaAnswerer)
