"""Routing stages: the ``routed-linker`` proposer (Cypher-first with K candidate queries checked
by execution) and the ``rows-answer`` answerer (arithmetic over the winning rows in Python).

Chosen through the run configuration like any stage (``RunConfig.proposer = "routed-linker"``,
``RunConfig.answerer = "rows-answer"``; ``byokg eval --strategy routed``); the engine knows
neither. See :mod:`byokg.plugins.routing.shapes` and docs/engine.md ("Routing").

``routed-linker``, first round, on a store with the ``cypher`` capability, when the question asks
for arithmetic over rows (``QuestionAnalysis.aggregate``) or, with ``lookups``, on a typed graph:

1. one LLM call writes K candidate queries for the question's shape (the optional query critic,
   ``RunConfig.query_critic``, checks them in one more call);
2. each candidate runs through the guarded, isolated execution (:func:`byokg.cypher.execute`);
3. the candidate whose rows fit the question's shape best wins (ties: the value most candidates
   agree on, then the earlier one); it goes on as the round's only query with FINISH, so the
   ``cypher`` tool puts its rows in the context and the rounds stop;
4. no candidate fits: the ordinary KG-Linker call runs (entities, relation paths, queries), so
   the path tools are the fallback.
Every other question, and every later round, is the ordinary KG-Linker.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from byokg.plugins.kglinker import KGLinkerProposer
from pydantic import Field

from byokg import hookimpl
from byokg.contracts import Artifacts
from byokg.pipeline.stages import Answerer
from byokg.pipeline.stages import AnswerRequest
from byokg.pipeline.stages import AnswerResult
from byokg.pipeline.stages import Proposal
from byokg.pipeline.stages import ProposalRequest
from byokg.pipeline.stages import complete
from byokg.pipeline.tools import ToolParams


class RoutedParams(ToolParams):
    candidates: int = Field(3, ge=1, le=8, description="K: candidate queries written and run")
    lookups: bool = Field(True, description="lookups on typed graphs go Cypher-first too "
                                            "(not only count/sum/avg/min/max/compare/rank)")
    min_fit: float = Field(0.5, ge=0.0, le=1.0, description="a winner fits at least this well")
    timeout_s: float = Field(30.0, gt=0, description="per-candidate timeout in seconds")
    row_limit: int = Field(50, ge=1, le=10_000, description="rows kept per candidate")


class RoutedLinker(KGLinkerProposer):
    name = "routed-linker"
    description = ("KG-Linker that routes aggregation questions (and lookups on typed graphs) "
                   "Cypher-first: K candidate queries checked by execution, the one whose rows "
                   "fit the question's shape wins; path tools as the fallback")
    Params = RoutedParams

    def propose(self, request: ProposalRequest) -> Proposal:
        p = request.params if isinstance(request.params, RoutedParams) else RoutedParams()
        why = self._route(request, p)
        if why is None:
            return super().propose(request)
        from byokg.plugins.kglinker.prompt import parse_reply
        from byokg.plugins.routing.shapes import critique
        from byokg.plugins.routing.shapes import route_prompt

        store, services = request.store, request.services
        out = Proposal()
        schema_text = self._schema_text(request)
        prompt = route_prompt(request.analysis, schema_text, k=p.candidates, store=store,
                              profile=request.profile)
        reply = complete(services.llm, prompt.text, purpose="kg-linker", out=out,
                         template=prompt.template)
        art = parse_reply(reply)  # the engine records its warnings
        queries = list(art.cypher)
        if not queries:  # a fenced or bare query without the tags
            from byokg.models.replies import extract_query

            one = extract_query(reply or "")
            queries = [one] if one else []
            if one:  # read after all: not a parse problem
                art = art.model_copy(update={"warnings": ()})
        candidates = list(dict.fromkeys(q for q in queries if q.strip()))[:p.candidates]
        if candidates and services.config.query_critic:
            candidates = critique(services.llm, request.question, candidates, schema_text,
                                  out=out, store=store, source="routing",
                                  services=services)[:p.candidates]
        out.counts["routed"] = 1
        out.counts["route_candidates"] = len(candidates)
        winner = self._choose(request, p, candidates, out, why)
        if winner:
            out.artifacts = Artifacts(cypher=tuple(winner), finish=True, warnings=art.warnings)
            return out
        fallback = super().propose(request)
        out.events += fallback.events
        out.llm_calls += fallback.llm_calls
        for k, v in fallback.counts.items():
            out.counts[k] = out.counts.get(k, 0) + v
        out.artifacts = fallback.artifacts.model_copy(update={
            "warnings": (*art.warnings, *fallback.artifacts.warnings)})
        out.linked = fallback.linked
        return out

    # ----------------------------------------------------------------- helpers
    def _schema_text(self, request: ProposalRequest) -> str:
        """The schema as the KG-Linker sees it (from the graph's profile)."""
        from byokg.plugins.kglinker.prompt import render_schema_for

        return render_schema_for(request.profile, request.similarity)

    def _route(self, request: ProposalRequest, p: RoutedParams) -> str | None:
        """Why this question goes Cypher-first (None: it does not)."""
        if request.round != 0 or "cypher" not in request.store.capabilities:
            return None
        if not _runs_queries(request):
            return None
        if request.analysis.aggregate is not None:
            return f"the question asks for {request.analysis.aggregate} over rows"
        if p.lookups and _typed(request):
            return "a lookup on a typed graph"
        return None

    def _choose(self, request: ProposalRequest, p: RoutedParams, candidates: list[str],
                out: Proposal, why: str) -> list[str]:
        """Run every candidate (guarded, isolated); the best fit of at least ``min_fit`` wins.
        A lookup's shape says little (any names fit), so every fitting candidate goes on, best
        first, and the answer stage reads them all."""
        from byokg.plugins.routing.shapes import compute
        from byokg.plugins.routing.shapes import does_arithmetic
        from byokg.plugins.routing.shapes import fit

        from byokg.cypher.execute import Status
        from byokg.cypher.execute import execute
        from byokg.cypher.execute import ran_key

        scored: list[tuple[float, int, str, tuple[str, ...]]] = []
        for i, q in enumerate(candidates):
            ex = execute(request.store, q, timeout_s=p.timeout_s, row_limit=p.row_limit)
            # the query tool reads it back instead of running the winner again
            request.services.put(ran_key(request.store, q, p.timeout_s, p.row_limit), ex)
            score = fit(request.analysis, ex.result) if ex.status is Status.OK else 0.0
            comp = compute(request.analysis, ex.result) if score and ex.result else None
            value = tuple(comp.answers) if comp else ()
            scored.append((score, i, q, value))
            data: dict[str, Any] = {"candidate": i + 1, "query": ex.executed or q,
                                    "status": str(ex.status), "fit": round(score, 3)}
            if ex.error:
                data.update(error=ex.error[:500], error_kind=ex.error_kind)
            if ex.result is not None:
                data["rows"] = len(ex.result.rows)
            out.event("routing", f"candidate {i + 1}: {ex.status}, fit {score:.2f}"
                      + (f" ({ex.error_kind})" if ex.error_kind else ""),
                      level="error" if ex.error_kind == "crashed" else "info", **data)
        agree = Counter(v for s, _, _, v in scored if v and s >= p.min_fit)
        analysis = request.analysis
        ranked = sorted((t for t in scored if t[0] >= p.min_fit),
                        key=lambda t: (-t[0], -does_arithmetic(analysis, t[2]),
                                       -agree.get(t[3], 0), t[1]))
        if not ranked:
            out.event("routing", f"{why}: no candidate of {len(candidates)} fits the question's "
                      "shape; the KG-Linker and the path tools take over", level="warning",
                      candidates=len(candidates))
            out.counts["route_fallback"] = 1
            return []
        best = ranked[0]
        kept = [best] if analysis.aggregate is not None else ranked
        out.event("routing", f"{why}: candidate {best[1] + 1} of {len(candidates)} wins "
                  f"(fit {best[0]:.2f})" + (f", {len(kept) - 1} more kept for the answer"
                                            if len(kept) > 1 else "")
                  + "; Cypher-first, the rounds stop after it",
                  winner=best[1] + 1, query=best[2], fit=round(best[0], 3),
                  kept=[t[1] + 1 for t in kept])
        out.counts["route_won"] = 1
        return [t[2] for t in kept]


def _runs_queries(request: ProposalRequest) -> bool:
    """True when a configured retrieval tool runs the proposal's queries (reads ``cypher``)."""
    names = request.services.config.tools
    if names is None:
        return True  # every applicable tool: the query tool among them
    from byokg import registry

    def reads(name: str) -> frozenset[str]:
        try:
            return frozenset(getattr(registry.tools().create(name), "reads", None) or ())
        except Exception:  # noqa: BLE001 - the engine reports unknown tools itself
            return frozenset()

    return any("cypher" in reads(n) for n in names)


def _typed(request: ProposalRequest) -> bool:
    """A typed property graph: labelled nodes with typed properties (not one triple table)."""
    from byokg.cypher.dialects import triple_layout

    if triple_layout(request.store) is not None:
        return False
    labels = list(request.profile.labels)
    return len(labels) > 1 and any(p.type for lab in labels for p in lab.properties)


class RowsParams(ToolParams):
    fallback: str = Field("llm-answer", description="answerer used when no query rows fit the "
                                                    "question's shape (or nothing to compute)")
    min_fit: float = Field(0.5, ge=0.0, le=1.0, description="rows fit at least this well")


class RowsAnswerer(Answerer):
    name = "rows-answer"
    description = ("Arithmetic over query rows in Python (count, sum, avg, min, max, compare, "
                   "top-k) with the rows as evidence; another answerer otherwise")
    Params = RowsParams

    def answer(self, request: AnswerRequest) -> AnswerResult:
        from byokg.plugins.routing.shapes import compute
        from byokg.plugins.routing.shapes import computed_item
        from byokg.plugins.routing.shapes import fit

        p = request.params if isinstance(request.params, RowsParams) else RowsParams()
        analysis = request.analysis
        items = [it for it in request.context if it.kind == "query" and it.rows is not None
                 and it.rows.rows]
        if analysis.aggregate is not None and items:
            scored = sorted(((fit(analysis, it.rows), i, it) for i, it in enumerate(items)),
                            key=lambda t: (-t[0], t[1]))
            score, _, best = scored[0]
            comp = compute(analysis, best.rows) if score >= p.min_fit and best.rows else None
            if comp is not None and comp.answers:
                out = AnswerResult(answers=list(comp.answers),
                                   evidence=[computed_item(comp, best), best])
                out.event("answer", f"{comp.how} (no LLM call)", op=comp.op,
                          query=best.query, fit=round(score, 3))
                out.counts["computed_answers"] = 1
                return out
        return self._fallback(request, p)

    def _fallback(self, request: AnswerRequest, p: RowsParams) -> AnswerResult:
        """The configured fallback answerer (chosen by the config, never by this code)."""
        from byokg import registry
        from byokg.contracts import TraceEvent
        from byokg.errors import ConfigError
        from byokg.pipeline.tools import unavailable

        obj = registry.tools().create(p.fallback)
        if not isinstance(obj, Answerer) or obj.name == self.name:
            raise ConfigError(f"params.{self.name}.fallback: {p.fallback!r} is not another "
                              "answerer")
        why = ("no query rows fit the question's shape" if request.analysis.aggregate
               else "not an aggregation question")
        missing = unavailable(obj, request.store, request.services)
        if missing is not None:
            out = AnswerResult()
            out.event("answer", f"{why}; the fallback {p.fallback!r} cannot run here: it "
                      f"{missing}", level="warning")
            return out
        params = request.services.config.tool_params(p.fallback, obj.Params)
        res = obj.answer(AnswerRequest(**{**request.__dict__, "params": params}))
        res.events.insert(0, TraceEvent(source="answer", message=f"{why}; {p.fallback} answers"))
        return res


@hookimpl
def register_tools(register):
    register(RoutedLinker)
    register(RowsAnswerer)
