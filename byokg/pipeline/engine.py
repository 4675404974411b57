"""The iterative engine (BYOKG-RAG Algorithm 2), as one loop over stages.

    analysis = analyze(question)                          # once per question
    profile  = the graph's profile                        # once per graph and run
    for each round (T_R rounds, while the call budget leaves room):
        proposal = proposer.propose(...)                  # KG-Linker: LLM or offline
        FINISH with answers the context supports -> they are the answer; stop
        link the proposal's entities and draft answers    # the Linker stage
        stop when nothing new was proposed (after round 1)
        run every applicable retrieval tool side by side  # plugins; a request already run
                                                          #   this question is skipped
        merge their items into the Context
        stop on FINISH
    answer = answerer.answer(...)                         # LLM or offline (unless FINISH)

The loop names no proposer, answerer or tool: :meth:`byokg.config.RunConfig.stage_names` picks
the stages, the registry builds them, and each returns its own trace material (events, LLM calls,
counts), which the engine copies into the :class:`~byokg.contracts.Trace` with per-stage timings
(``Trace.stage_summary()``: calls, tokens, runs and repeats per stage).

Every stage reaches the LLM through the question's services, which count each call against the
question's :class:`~byokg.models.budget.CallBudget` (``RunConfig.max_llm_calls``); one call is kept for
the answer while the rounds run, and a budget that stops anything is a ``budget`` warning event.

Seams: ``ask(question, on_event=f)`` calls ``f`` with a typed
:class:`~byokg.pipeline.answer.StageEvent` at each step (proposal, links, each tool's items,
merge, the answer LLM's text as ``token`` pieces while it is written, answer);
:meth:`Engine.stream` turns those calls into an iterator, :meth:`Engine.retrieve` runs the rounds
without the answer stage.

Errors: an LLM that fails after its retries raises :class:`~byokg.errors.LLMError`; the engine
attaches the run so far to it as ``exc.trace`` and ``exc.partial`` (an Answer without answers).
"""

from __future__ import annotations

import asyncio
import contextvars
import queue
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from byokg.config import RunConfig
from byokg.config import graph_cache_dir
from byokg.contracts import Artifacts
from byokg.contracts import ContextItem
from byokg.contracts import MentionLinks
from byokg.contracts import StageTiming
from byokg.contracts import Trace
from byokg.contracts import TraceEvent
from byokg.contracts import is_literal_text
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import LLMError
from byokg.errors import PluginError
from byokg.errors import invalid_text
from byokg.graph.profile import GraphProfile
from byokg.graph.profile import apply_display
from byokg.graph.profile import apply_lexicon_option
from byokg.graph.profile import display_names
from byokg.graph.profile import get_profile
from byokg.graph.store import GraphStore
from byokg.language.analysis import QuestionAnalysis
from byokg.language.analysis import analyze
from byokg.language.text import count_tokens
from byokg.language.text import normalize
from byokg.language.text import repair_mojibake
from byokg.linking.numbers import QUESTION_KEY
from byokg.models.budget import CallBudget
from byokg.models.cache import flush_vector_files
from byokg.models.services import Services
from byokg.models.similarity import Similarity
from byokg.pipeline.answer import Answer
from byokg.pipeline.answer import Retrieval
from byokg.pipeline.answer import StageEvent
from byokg.pipeline.context import Context
from byokg.pipeline.context import Cut
from byokg.pipeline.context import Relevance
from byokg.pipeline.context import item_nodes
from byokg.pipeline.context import supported_answers
from byokg.pipeline.policy import Outcome
from byokg.pipeline.policy import outcome
from byokg.pipeline.stages import Answerer
from byokg.pipeline.stages import AnswerRequest
from byokg.pipeline.stages import AnswerResult
from byokg.pipeline.stages import Proposal
from byokg.pipeline.stages import ProposalRequest
from byokg.pipeline.stages import Proposer
from byokg.pipeline.tools import Component
from byokg.pipeline.tools import Linker
from byokg.pipeline.tools import StageOutput
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolParams
from byokg.pipeline.tools import ToolRequest
from byokg.pipeline.tools import ToolResult
from byokg.pipeline.tools import unavailable

MAX_QUESTION_TOKENS = 1000
MAX_QUESTION_CHARS = 4000
MAX_EVIDENCE = 20


class _Timer:
    def __init__(self, trace: Trace, stage: str, iteration: int | None = None) -> None:
        self.trace, self.stage, self.iteration = trace, stage, iteration
        self.count: int | None = None

    def __enter__(self) -> _Timer:
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.trace.stages.append(StageTiming(stage=self.stage, iteration=self.iteration,
                                             seconds=time.perf_counter() - self.t0, count=self.count))


@dataclass
class _Question:
    """The state of one question while it is answered."""

    analysis: QuestionAnalysis
    trace: Trace
    context: Context
    services: Services  # the run's services, the LLM counted against ``budget``
    budget: CallBudget
    similarity: Similarity  # the question's words against the graph's, memoised
    entities: dict[str, MentionLinks] = field(default_factory=dict)
    drafts: dict[str, MentionLinks] = field(default_factory=dict)
    history: list[Artifacts] = field(default_factory=list)
    seen_ids: set[str] = field(default_factory=set)
    seen_paths: set[Any] = field(default_factory=set)
    seen_cypher: set[str] = field(default_factory=set)
    tool_keys: dict[str, dict[str, int]] = field(default_factory=dict)  # tool -> request -> round
    deferred: set[str] = field(default_factory=set)  # tools waiting for a later round
    finished: AnswerResult | None = None  # FINISH answers the context supports
    listener: Callable[[StageEvent], None] | None = None  # Engine.stream's seam

    def emit(self, kind: str, **fields: Any) -> None:
        """Tell the question's listener about a step (nothing happens without one)."""
        if self.listener is not None:
            self.listener(StageEvent(kind=kind, **fields))

    def token_listener(self) -> Callable[[str], None] | None:
        """What the answer stage hands each piece of the answer text (a ``token`` event)."""
        if self.listener is None:
            return None
        return lambda piece: self.emit("token", stage="answer", token=piece)


class _StreamClosed(BaseException):
    """Raised into a streamed question whose consumer went away: the run stops at its next step."""


_DONE = object()


def _absorb(trace: Trace, out: StageOutput, iteration: int | None, prefix: str = "",
            stage: str = "") -> None:
    """Copy a stage's trace material into the question's trace (its counters under ``prefix``,
    its LLM calls marked with ``stage``)."""
    for ev in out.events:
        trace.events.append(ev.model_copy(update={"iteration": iteration})
                            if ev.iteration is None else ev)
    if out.llm_calls:
        trace.llm_calls.extend(c if c.stage or not stage else c.model_copy(update={"stage": stage})
                               for c in out.llm_calls)
        trace.count("llm_calls", len(out.llm_calls))
    for k, v in out.counts.items():
        if k != "llm_calls":
            trace.count(f"{prefix}{k}", v)


def _record_cut(q: _Question, cut: Cut | None, where: str, rnd: int | None) -> None:
    """A trace event for what a selection of the context left out (nothing is cut silently)."""
    if cut is not None:
        q.trace.event("context", f"{where}: {cut.describe()} (budget {cut.budget} {cut.unit})",
                      iteration=rnd, items=dict(cut.items), rows=dict(cut.rows))
        for tool, n in cut.items.items():
            q.trace.count(f"context_cut.{tool}", n)
        for tool, n in cut.rows.items():
            q.trace.count(f"context_rows_cut.{tool}", n)


def _query_values(art: Artifacts) -> dict[str, tuple[str, str]]:
    """Names the proposal's queries compare with a property of a labelled node
    (``{title: 'X'}``, ``c.city = 'Berlin'``): normalised value -> (label, property)."""
    from byokg.cypher.verify import extract_entities

    bound: dict[str, tuple[str, str]] = {}
    for query in art.cypher:
        used = extract_entities(query)
        for var, prop, op, value in used.values:
            labs = used.var_labels.get(var) or []
            if op == "=" and isinstance(value, str) and labs:
                bound.setdefault(normalize(value), (labs[0], prop))
    return bound


def _record_dropped(trace: Trace, links: Sequence[MentionLinks], rnd: int) -> None:
    """Trace events for candidates the linking did not pass on."""
    numbers = [m.mention for m in links if m.dropped and is_literal_text(m.mention)]
    low = {m.mention: [f"{c.name} ({c.score:.2f}, {c.method})" for c in m.dropped[:5]]
           for m in links if m.dropped and not is_literal_text(m.mention)}
    if numbers:
        trace.event("linker", f"number/date mention(s) {', '.join(map(repr, numbers[:5]))} not "
                    "linked to nodes whose id is the value (numbers match literal values)",
                    iteration=rnd, mentions=numbers[:10])
        trace.count("linker.literal_mentions", len(numbers))
    if low:
        n = sum(len(m.dropped) for m in links if m.mention in low)
        trace.event("linker", f"{n} candidate(s) dropped (below the confidence floor, or "
                    "numbers that differ from the question's)",
                    iteration=rnd, dropped=low)
        trace.count("linker.dropped_low", n)


class Engine:
    """Answers questions over one graph store with one run configuration."""

    def __init__(
        self,
        store: GraphStore | None,
        config: RunConfig | None = None,
        services: Services | None = None,
        *,
        max_question_tokens: int = MAX_QUESTION_TOKENS,
    ) -> None:
        if store is None:
            raise ConfigError("no graph given: pass a GraphStore or a graph URI such as memory:demo")
        self.store = store
        self.config = config or (services.config if services is not None else RunConfig())
        self.services = services or Services(self.config)
        if self.config.display:  # the graph's names as the run asks (URI and --display win)
            apply_display(store, self.config.display)
        if self.config.lexicon:  # the owner's words for the graph (a URI's ?lexicon= wins)
            apply_lexicon_option(store, self.config.lexicon)
        self.max_question_tokens = max_question_tokens
        # where the graph's text vectors are kept between processes (None: nowhere)
        self._vector_dir = graph_cache_dir(store.uri, self.config.index_dir)
        self._tools: list[tuple[str, Tool, ToolParams]] | None = None
        self._skipped: list[tuple[str, str]] = []
        self._linker: tuple[Linker, ToolParams] | None = None
        self._stages: tuple[Proposer, ToolParams, Answerer, ToolParams] | None = None
        self._checked = False
        self._offline: Engine | None = None  # the hybrid strategy's offline pass

    # ------------------------------------------------------------------ setup
    def check_graph(self) -> None:
        if self._checked:
            return
        if self.store.stats().triplets == 0:
            raise InputError(
                "the graph has no triplets; load data first (byokg load FILE --into URI)",
                source=self.store.uri or "graph",
            )
        self._checked = True

    @property
    def llm(self) -> Any:
        return self.services.llm

    @property
    def profile(self) -> GraphProfile:
        """The graph's profile, built once per run."""
        return get_profile(self.store, self.services)

    def _create(self, name: str, kind: str) -> tuple[Any, ToolParams]:
        """A registered stage object of ``kind`` and its validated params."""
        from byokg import registry

        reg = registry.tools()
        obj = reg.create(name)  # an unknown name raises ConfigError listing the known ones
        if not isinstance(obj, Component) or obj.kind != kind:
            what = obj.kind if isinstance(obj, Component) else type(obj).__name__
            raise ConfigError(f"{name!r} (plugin {reg.get(name).plugin!r}) is a "
                              f"{what}, not a {kind}")
        why = unavailable(obj, self.store, self.services)
        if why is not None:
            raise ConfigError(f"the {kind} {name!r} cannot run here: it {why}")
        return obj, self.config.tool_params(name, obj.Params)  # type: ignore[return-value]

    def stages(self) -> tuple[Proposer, ToolParams, Answerer, ToolParams]:
        """The proposer and answerer of this run (see ``RunConfig.stage_names``)."""
        if self._stages is None:
            proposer, answerer = self.config.stage_names(has_llm=self.llm is not None)
            self._stages = (*self._create(proposer, "proposer"), *self._create(answerer, "answerer"))
        return self._stages

    def linker(self) -> tuple[Linker, ToolParams]:
        if self._linker is None:
            self._linker = self._create(self.config.linker, "linker")
        return self._linker

    def tools(self) -> list[tuple[str, Tool, ToolParams]]:
        """The retrieval tools this run uses, with validated params."""
        if self._tools is not None:
            return self._tools
        from byokg import registry

        reg = registry.tools()
        explicit = self.config.tools is not None
        names = list(self.config.tools) if explicit else reg.names()
        chosen = []
        for name in names:
            tool = reg.create(name)  # unknown names raise ConfigError listing the known ones
            if not isinstance(tool, Component):
                raise PluginError(
                    f"tool {name!r} registered by plugin {reg.get(name).plugin!r}: its factory "
                    f"returned {type(tool).__name__}, not a byokg Tool, Linker, Proposer or "
                    "Answerer"
                )
            if not isinstance(tool, Tool):
                if explicit:
                    raise ConfigError(f"tool {name!r} is a {tool.kind}, not a retrieval tool")
                continue
            if not explicit and not tool.default:
                continue
            why = unavailable(tool, self.store, self.services)
            if why is not None:
                self._skipped.append((name, why))
                continue
            chosen.append((name, tool, self.config.tool_params(name, tool.Params)))
        self._tools = chosen
        return chosen

    # ------------------------------------------------------------------ the loop
    def check_question(self, question: str) -> str:
        if not isinstance(question, str) or not question.strip():
            raise InputError("the question is empty")
        q = question.strip()
        bad = invalid_text(q)
        if bad:
            raise InputError(f"the question is not valid text: {bad}")
        tokens = count_tokens(q)
        if tokens > self.max_question_tokens or len(q) > MAX_QUESTION_CHARS:
            raise InputError(
                f"the question is too long ({tokens:,} tokens, {len(q):,} characters; limit "
                f"{self.max_question_tokens:,} tokens / {MAX_QUESTION_CHARS:,} characters); shorten it"
            )
        return q

    def _start(self, question: str, listener: Callable[[StageEvent], None] | None) -> _Question:
        question = self.check_question(question)
        self.check_graph()
        trace = Trace()
        repaired = repair_mojibake(question)
        if repaired != question:  # UTF-8 read as Windows-1252 somewhere upstream
            trace.events.append(TraceEvent(
                source="engine", message="question text repaired: it held UTF-8 decoded as "
                "Windows-1252 (e.g. 'Ã¥' for 'å')", data={"asked": question, "read": repaired}))
            question = repaired
        analysis = analyze(question)
        budget = CallBudget(self.config.max_llm_calls)
        services = self.services.for_question(budget)
        services.put(QUESTION_KEY, question)  # the linker reads the question's numbers
        similarity = Similarity(analysis, services, vector_dir=self._vector_dir)
        return _Question(analysis, trace, Context(self.config.context_tokens, Relevance(similarity)),
                         services, budget, similarity, listener=listener)

    def ask(self, question: str, *, on_event: Callable[[StageEvent], None] | None = None
            ) -> Answer:
        """Answer one question (thread-safe: questions share only the run's caches).
        ``on_event`` is called with each :class:`StageEvent` as the question goes."""
        first = self._offline_first(question)
        if first is not None and first.trace.counts.get("hybrid_offline"):
            if on_event is not None:
                on_event(StageEvent(kind="answer", stage="answer", answer=first))
            return first
        q = self._start(question, on_event)
        if first is not None:
            self._hybrid_note(q, first)
        try:
            answer = self._ask(q)
        except LLMError as exc:
            self._stopped(q, exc)
            raise
        finally:
            flush_vector_files(self._vector_dir)
        q.emit("answer", stage="answer", answer=answer)
        return answer

    def _offline_first(self, question: str) -> Answer | None:
        """The hybrid strategy (``RunConfig.offline_first``): the offline stages' answer, with
        count ``hybrid_offline`` when it is confident enough to keep (no LLM call); None when
        the strategy is off or the run has no LLM."""
        threshold = self.config.offline_first
        if threshold is None:
            return None
        cfg = self.config.model_copy(update={"llm": "none", "offline_first": None,
                                             "proposer": None, "answerer": None})
        proposer, _, answerer, _ = self.stages()
        if (proposer.name, answerer.name) == cfg.stage_names():
            return None  # the run's own stages are the offline ones: one pass is enough
        if self._offline is None:
            self._offline = Engine(self.store, cfg, self.services.without_llm(cfg),
                                   max_question_tokens=self.max_question_tokens)
        t0 = time.perf_counter()
        first = self._offline.ask(question)
        first.trace.stages.insert(0, StageTiming(stage="offline", seconds=time.perf_counter() - t0))
        conf = first.confidence
        if first.answers and conf is not None and conf >= threshold:
            first.trace.event("engine", f"hybrid: the offline answer is confident ({conf:.2f}, "
                              f"at least {threshold:g}): kept, no LLM call", confidence=conf)
            first.trace.count("hybrid_offline")
        return first

    def _hybrid_note(self, q: _Question, first: Answer) -> None:
        """Say in the question's trace why the offline answer was not kept."""
        conf = first.confidence
        withheld = next((ev.data.get("withheld") for ev in first.trace.events
                         if ev.data.get("withheld")), None)
        why = ("no answer" if not first.answers
               else f"no confidence ({withheld})" if conf is None and withheld
               else "no confidence" if conf is None
               else f"confidence {conf:.2f} below {self.config.offline_first:g}")
        offline_s = sum(t.seconds for t in first.trace.stages if t.stage == "offline")
        q.trace.stages.append(StageTiming(stage="offline", seconds=offline_s))
        q.trace.event("engine", f"hybrid: the offline answer has {why}; the KG-Linker answers",
                      offline_answers=first.answers[:5], confidence=conf)
        q.trace.count("hybrid_fallback")

    def retrieve(self, question: str, *, on_event: Callable[[StageEvent], None] | None = None
                 ) -> Retrieval:
        """The ranked evidence for a question with its provenance, without an answer: the same
        rounds as :meth:`ask` (proposals, linking, tools, merge), no answer stage."""
        q = self._start(question, on_event)
        try:
            self._rounds(q, reserve=0)
        except LLMError as exc:
            self._stopped(q, exc)
            raise
        finally:
            flush_vector_files(self._vector_dir)
        selection = q.context.select()
        _record_cut(q, selection.cut, "context of the retrieval", None)
        selected = selection.items
        q.trace.counts["context_items"] = len(q.context)
        q.trace.counts["context_selected"] = len(selected)
        entities = list(q.entities.values())
        ids = {i for it in selected for i in item_nodes(it)} | {i for m in entities for i in m.ids}
        result = Retrieval(question=q.analysis.question, context=selected, entities=entities,
                           trace=q.trace,
                           names=display_names(self.store, sorted(ids)) if ids else {})
        q.emit("retrieval", stage="retrieval", retrieval=result)
        return result

    async def aask(self, question: str) -> Answer:
        """:meth:`ask` in a worker thread, for asyncio code."""
        return await asyncio.to_thread(self.ask, question)

    async def aretrieve(self, question: str) -> Retrieval:
        """:meth:`retrieve` in a worker thread, for asyncio code."""
        return await asyncio.to_thread(self.retrieve, question)

    def stream(self, question: str, *, answer: bool = True) -> Iterator[StageEvent]:
        """The question's :class:`StageEvent` s as they happen, ending with the ``answer`` (or,
        with ``answer=False``, the ``retrieval``) event. The question runs in a thread; closing
        the iterator early stops it at its next step. Errors are raised from the iterator."""
        question = self.check_question(question)
        events: queue.Queue[Any] = queue.Queue()
        closed = threading.Event()
        run = self.ask if answer else self.retrieve

        def listen(ev: StageEvent) -> None:
            if closed.is_set():
                raise _StreamClosed
            events.put(ev)

        def work() -> None:
            try:
                run(question, on_event=listen)
            except _StreamClosed:
                pass
            except BaseException as exc:  # handed to the consumer
                events.put(exc)
            finally:
                events.put(_DONE)

        def iterate() -> Iterator[StageEvent]:
            worker = threading.Thread(target=work, name="byokg-stream", daemon=True)
            worker.start()
            try:
                while (ev := events.get()) is not _DONE:
                    if isinstance(ev, BaseException):
                        raise ev
                    yield ev
            finally:
                closed.set()

        return iterate()

    def _stopped(self, q: _Question, exc: LLMError) -> None:
        exc.trace = q.trace
        exc.partial = Answer(question=q.analysis.question, context=q.context.select().items,
                             trace=q.trace)
        q.trace.event("engine", f"stopped: {exc}", level="error")

    def _ask(self, q: _Question) -> Answer:
        self._rounds(q, reserve=1)  # one call stays for the answer while the rounds run
        return self._answer(q)

    def _rounds(self, q: _Question, reserve: int) -> None:
        self.stages()
        self.linker()
        self.tools()
        for name, why in self._skipped:
            q.trace.event("engine", f"tool {name!r} skipped: {why}", level="info")
        q.budget.reserve = reserve
        for rnd in range(self.config.iterations):
            if rnd and not q.budget.can_spend(1):
                self._budget_hit(q, f"no call left for round {rnd + 1} (one kept for the "
                                    "answer); stopping", rnd)
                break
            q.trace.iterations = rnd + 1
            try:
                proposal = self._propose(q, rnd)
            except Exception as exc:
                if outcome("proposer", exc) is not Outcome.END_ROUNDS:
                    raise
                self._budget_hit(q, f"the proposer ran out of calls: {exc}", rnd)
                break
            if self._finish(q, proposal, rnd):
                break
            if not self._link(q, proposal, rnd) and rnd > 0 and not q.deferred:
                q.trace.event("engine", "nothing new to link; stopping", iteration=rnd,
                              finish=proposal.artifacts.finish)
                break
            with _Timer(q.trace, "tools", rnd) as tm:
                items = self._retrieve(q, rnd, proposal.artifacts)
                tm.count = len(items)
            with _Timer(q.trace, "merge", rnd) as tm:
                tm.count = q.context.add(items)
            q.trace.count("context_items_new", tm.count)
            q.emit("merge", stage="merge", round=rnd, new_items=tm.count)
            if proposal.artifacts.finish:
                q.trace.event("engine", "the KG-Linker said FINISH; stopping", iteration=rnd)
                break
        q.budget.reserve = 0

    def _budget_hit(self, q: _Question, message: str, rnd: int | None) -> None:
        q.trace.event("budget", f"LLM call budget ({q.budget.limit} per question, "
                      f"{q.budget.used} made): {message}", level="warning", iteration=rnd,
                      limit=q.budget.limit, used=q.budget.used)
        q.trace.count("llm_budget_hit")

    def _propose(self, q: _Question, rnd: int) -> Proposal:
        proposer, params, _, _ = self.stages()
        with _Timer(q.trace, "kg-linker", rnd) as tm:
            proposal = proposer.propose(ProposalRequest(
                analysis=q.analysis, store=self.store, services=q.services, profile=self.profile,
                params=params, round=rnd, rounds=self.config.iterations, context=q.context,
                history=list(q.history), similarity=q.similarity))
            art = proposal.artifacts
            tm.count = len(art.entities) + len(art.relation_paths)
        _absorb(q.trace, proposal, rnd, prefix=f"{proposer.name}.", stage="kg-linker")
        _record_cut(q, proposal.context_cut, f"context in the round-{rnd + 1} proposal", rnd)
        q.history.append(art)
        q.trace.artifacts.append(art)
        q.emit("proposal", stage="kg-linker", round=rnd, artifacts=art)
        for w in art.warnings:
            q.trace.event("kg-linker", f"parse: {w}", level="warning", iteration=rnd)
        q.trace.count("parse_warnings", len(art.warnings))
        return proposal

    def _finish(self, q: _Question, proposal: Proposal, rnd: int) -> bool:
        """FINISH with answers the context supports ends the question: they are the answer,
        and no answer call is made. Unsupported answers leave it to the answer stage."""
        art = proposal.artifacts
        if not (self.config.finish_answers and art.finish and art.draft_answers and len(q.context)):
            return False
        support = supported_answers(art.draft_answers, q.context.select().items, self.store,
                                    self.profile)
        if support.unsupported or not support.answers:
            q.trace.event("engine", f"FINISH with {len(support.unsupported)} answer(s) the "
                          "context does not name; the answer stage decides", iteration=rnd,
                          unsupported=support.unsupported[:10])
            return False
        q.finished = AnswerResult(answers=support.answers, answer_ids=support.answer_ids,
                                  total=art.answers_total, truncated=art.answers_truncated)
        q.trace.event("engine", "the KG-Linker said FINISH with answers the context supports; "
                      "they are the answer (no answer call)", iteration=rnd,
                      answers=support.answers[:30])
        q.trace.count("finish_answers", len(support.answers))
        return True

    def _link(self, q: _Question, proposal: Proposal, rnd: int) -> bool:
        """Link the proposal's new entities and draft answers; True when anything new came."""
        art = proposal.artifacts
        given = {m.mention for m in proposal.linked}
        with _Timer(q.trace, "link", rnd) as tm:
            bound = _query_values(art)
            ents = [m.without_literal_ids() for m in proposal.linked] + self._link_mentions(
                [e for e in art.entities if e not in q.entities and e not in given], q, rnd,
                "entities", bound)
            ents = self._expandable(q, ents, bound, rnd)
            drafts = self._link_mentions([a for a in art.draft_answers if a not in q.drafts],
                                         q, rnd, "draft answers")
            tm.count = sum(len(m.candidates) for m in ents + drafts)
        _record_dropped(q.trace, ents + drafts, rnd)
        q.trace.links.append(ents + drafts)
        q.emit("links", stage="link", round=rnd, links=ents + drafts)
        for m in ents:
            q.entities.setdefault(m.mention, m)
        for m in drafts:
            q.drafts.setdefault(m.mention, m)
        new_ids = {i for m in ents + drafts for i in m.ids} - q.seen_ids
        new_paths = set(art.relation_paths) - q.seen_paths
        new_cypher = set(art.cypher) - q.seen_cypher
        q.seen_ids |= new_ids
        q.seen_paths |= new_paths
        q.seen_cypher |= new_cypher
        return bool(new_ids or new_paths or new_cypher)

    def _link_mentions(self, mentions: Sequence[str], q: _Question, rnd: int,
                       kind: str, bound: dict[str, tuple[str, str]] | None = None
                       ) -> list[MentionLinks]:
        if not mentions:
            return []
        linker, params = self.linker()
        try:
            links = list(linker.link(list(mentions), store=self.store, services=q.services,
                                     params=params))
        except Exception as exc:
            if outcome("linker", exc) is Outcome.STOP:
                raise
            q.trace.event("linker", f"linking {kind} failed: {type(exc).__name__}: {exc}",
                          level="error", iteration=rnd)
            return []
        links = [m.without_literal_ids() for m in links]
        unlinked = [m.mention for m in links if not m.candidates]
        # a number or date is a value, not a node, and so is a name the proposal's query
        # compares with a property: that it links to none is what the prompt allows (a draft
        # answer "1918", a city the query filters by), no warning
        values = [u for u in unlinked if is_literal_text(u) or self._is_value(u, bound)]
        names = [u for u in unlinked if u not in values]
        if names:
            q.trace.event("linker", f"{len(names)} {kind} not found in the graph",
                          level="warning", iteration=rnd, mentions=names[:10])
        if values:
            q.trace.event("linker", f"{len(values)} {kind} are values (numbers, dates, or "
                          "compared with a property by the query), not nodes", iteration=rnd,
                          mentions=values[:10])
        return links

    def _is_value(self, mention: str, bound: dict[str, tuple[str, str]] | None) -> bool:
        """True when the proposal's query compares ``mention`` with a property that does not
        name its label's nodes (a city, a country): a value, not a node."""
        hit = (bound or {}).get(normalize(mention))
        if hit is None:
            return False
        lab = self.profile.label(hit[0])
        return lab is None or hit[1] not in (*lab.display_parts, lab.key)

    def _expandable(self, q: _Question, links: list[MentionLinks],
                    bound: dict[str, tuple[str, str]], rnd: int) -> list[MentionLinks]:
        """The candidates the tools expand: beside an exact or alias match, only those; for a
        name the proposal's query matches on a label's naming property or key, only nodes of
        that label; for a name it compares with another property (a city, a country), none —
        it is a value, not a node. The others move to ``dropped`` (a ``linker`` event says
        so): noise a wrong link would bring in (its neighbours, a traversal from it) stays
        out of the context."""
        ids = [c.id for m in links for c in m.candidates] if bound else []
        nodes = self.store.get_nodes(ids) if ids else {}
        out, moved = [], {}
        for m in links:
            keep = list(m.candidates)
            exact = [c for c in keep if c.method in ("exact", "alias")]
            if exact and len(exact) < len(keep):
                keep = exact
            hit = bound.get(normalize(m.mention))
            lab = self.profile.label(hit[0]) if hit else None
            if hit and lab is not None:
                naming = hit[1] in (*lab.display_parts, lab.key)
                keep = [c for c in keep if naming and nodes.get(c.id) is not None
                        and hit[0] in nodes[c.id].labels]
            if len(keep) < len(m.candidates):
                gone = [c for c in m.candidates if c not in keep]
                moved[m.mention] = [f"{c.name} ({c.score:.2f}, {c.method})" for c in gone[:5]]
                m = m.model_copy(update={"candidates": tuple(keep),
                                         "dropped": (*m.dropped, *gone)})
            out.append(m)
        if moved:
            n = sum(len(v) for v in moved.values())
            q.trace.event("linker", f"{n} candidate(s) not expanded: another candidate matches "
                          "exactly, or the KG-Linker's query reads the name otherwise",
                          iteration=rnd, not_expanded=moved)
            q.trace.count("linker.not_expanded", n)
        return out

    def _run_tool(self, tool: Tool, request: ToolRequest) -> tuple[ToolResult | None, str | None, float]:
        t0 = time.perf_counter()
        try:
            return tool.run(request), None, time.perf_counter() - t0
        except Exception as exc:
            if outcome("tool", exc) is Outcome.STOP:
                raise
            return None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0

    def _requests(self, q: _Question, rnd: int, artifacts: Artifacts
                  ) -> list[tuple[str, Tool, ToolRequest, str | None]]:
        """This round's request for every chosen tool, minus the repeats: a tool whose request
        (:meth:`Tool.request_key`) already ran for this question is skipped and counted."""
        entities, drafts = list(q.entities.values()), list(q.drafts.values())
        used: dict[str, int] = {}
        for c in q.trace.llm_calls:
            used[c.stage] = used.get(c.stage, 0) + 1
        out = []
        for name, tool, params in self.tools():
            req = ToolRequest(
                question=q.analysis.question, store=self.store, services=q.services,
                params=params, iteration=rnd, rounds=self.config.iterations,
                artifacts=artifacts, entities=entities,
                answers=drafts, analysis=q.analysis, profile=self.profile,
                llm_calls_used=used.get(f"tool:{name}", 0), llm_calls_left=q.budget.left(),
                similarity=q.similarity)
            key = tool.request_key(req)
            seen = q.tool_keys.setdefault(name, {})
            if key is not None and key in seen:
                q.trace.event(name, f"same request as in round {seen[key] + 1}; not run again",
                              iteration=rnd)
                q.trace.count(f"tool_repeats.{name}")
                continue
            if key is not None:
                seen[key] = rnd
            out.append((name, tool, req, key))
        return out

    def _retrieve(self, q: _Question, rnd: int, artifacts: Artifacts) -> list[ContextItem]:
        """Every chosen tool on this round's request, side by side; merged in tool order."""
        reqs = self._requests(q, rnd, artifacts)
        if not reqs:
            return []
        refused = q.budget.refused
        with ThreadPoolExecutor(max_workers=min(self.config.workers, len(reqs))) as pool:
            # each tool in a copy of this context: a stop (byokg.cancel) reaches its calls
            futures = [(name, pool.submit(contextvars.copy_context().run, self._run_tool, tool,
                                          req)) for name, tool, req, _key in reqs]
            results = [(name, f.result()) for name, f in futures]
        if q.budget.refused > refused:
            self._budget_hit(q, f"{q.budget.refused - refused} tool call(s) refused", rnd)
        items: list[ContextItem] = []
        keys = {name: key for name, _tool, _req, key in reqs}
        for name, (res, err, secs) in results:  # fixed tool order: merged order is stable
            q.trace.stages.append(StageTiming(stage=f"tool:{name}", iteration=rnd, seconds=secs,
                                              count=len(res.items) if res else None))
            if res is None:
                q.trace.event(name, f"tool failed: {err}", level="error", iteration=rnd)
                q.trace.count(f"tool_errors.{name}")
                q.emit("tool", stage=f"tool:{name}", round=rnd, error=err)
                continue
            _absorb(q.trace, res, rnd, prefix=f"{name}.", stage=f"tool:{name}")
            if res.deferred is not None:  # not taken up: the same request may come again
                q.tool_keys.get(name, {}).pop(keys.get(name), None)
                q.deferred.add(name)
                q.trace.event(name, f"deferred: {res.deferred}", iteration=rnd)
                q.trace.count(f"tool_deferred.{name}")
            else:
                q.deferred.discard(name)
            q.trace.count(f"items.{name}", len(res.items))
            for it in res.items:
                upd: dict[str, Any] = {}
                if it.iteration != rnd:
                    upd["iteration"] = rnd
                if not it.tool:
                    upd["tool"] = name
                items.append(it.model_copy(update=upd) if upd else it)
            q.emit("tool", stage=f"tool:{name}", round=rnd, items=items[len(items) - len(res.items):])
        return items

    def _answer(self, q: _Question) -> Answer:
        _, _, answerer, params = self.stages()
        selection = q.context.select()
        selected, note = selection.items, selection.note
        _record_cut(q, selection.cut, "context of the answer", None)
        trace = q.trace
        trace.counts["context_items"] = len(q.context)
        trace.counts["context_selected"] = len(selected)
        trace.counts["context_duplicates"] = q.context.duplicates
        for it in selected:
            trace.count(f"context_tokens.{it.tool}", count_tokens(it.text))
        entities = list(q.entities.values())
        res = q.finished
        if res is None:
            res = self._answer_stage(q, answerer, params, selected + ([note] if note else []))
        if q.budget.refused:
            trace.counts["llm_calls_refused"] = q.budget.refused
        if not res.answers:
            trace.event("answer", "no answer found in the retrieved context", level="warning")
        res = self._complete(q, res, selected)
        evidence = evidence_for(res.answers, selected, res.answer_ids, self.store, trace,
                                first=res.evidence)
        trace.counts["evidence"] = len(evidence)
        ids = {i for it in evidence for i in item_nodes(it)}
        ids.update(i for m in entities for i in m.ids)
        ids.update(i for v in res.answer_ids.values() for i in v)
        return Answer(question=q.analysis.question, answers=res.answers, evidence=evidence,
                      context=selected, trace=trace, answer_ids=res.answer_ids, entities=entities,
                      confidence=res.confidence, truncated=res.truncated, total=res.total,
                      names=display_names(self.store, sorted(ids)) if ids else {})

    def _complete(self, q: _Question, res: AnswerResult, selected: list[ContextItem]
                  ) -> AnswerResult:
        """The answer list within ``RunConfig.max_answers`` (a cut is said: ``truncated``,
        ``total``, a trace event), and node ids for answers a query row names (a node cell, its
        key or display name) where the answerer gave none."""
        cap = self.config.max_answers
        answers = list(dict.fromkeys(res.answers))
        total = res.total if res.total and res.total > len(answers) else None
        truncated = res.truncated or total is not None
        if len(answers) > cap:
            total = max(total or 0, len(answers))
            answers, truncated = answers[:cap], True
        if truncated:
            shown = f"{total:,}" if total else "more (how many is not known)"
            why = ("the rows it comes from were cut at their cap" if res.truncated and not total
                   else f"max_answers={cap}")
            q.trace.event("answer", f"answer list cut: {len(answers)} of {shown} kept ({why})",
                          level="warning", kept=len(answers), total=total)
            q.trace.count("answers_cut")
        missing = [a for a in answers if not res.answer_ids.get(a)]
        ids = {a: v for a, v in res.answer_ids.items() if a in answers}
        if missing:
            found = supported_answers(missing, selected, self.store, self.profile)
            for shown_as, got in found.answer_ids.items():
                for a in missing:
                    if normalize(a) == normalize(shown_as):
                        ids[a] = got
        res.answers, res.total, res.truncated, res.answer_ids = answers, total, truncated, ids
        return res

    def _answer_stage(self, q: _Question, answerer: Answerer, params: ToolParams,
                      context: list[ContextItem]) -> AnswerResult:
        with _Timer(q.trace, "answer") as tm:
            try:
                res = answerer.answer(AnswerRequest(
                    analysis=q.analysis, store=self.store, services=q.services,
                    profile=self.profile, params=params, context=context,
                    entities=list(q.entities.values()), drafts=list(q.drafts.values()),
                    history=list(q.history), similarity=q.similarity,
                    on_token=q.token_listener(), select=q.context.for_prompt))
            except Exception as exc:
                if outcome("answerer", exc) is not Outcome.EMPTY:
                    raise
                self._budget_hit(q, f"the answer stage ran out of calls: {exc}", None)
                res = AnswerResult()
            tm.count = len(res.answers)
        _absorb(q.trace, res, None, stage="answer")
        _record_cut(q, res.context_cut, "context in the answer prompt", None)
        return res


def evidence_for(answers: Sequence[str], items: Sequence[ContextItem],
                 answer_ids: dict[str, list[str]], store: GraphStore,
                 trace: Trace | None = None, *, first: Sequence[ContextItem] = (),
                 strong_only: bool = False) -> list[ContextItem]:
    """The context items that support an answer.

    ``first``: the items the answerer says produced the answer (e.g. the offline reasoner's
    winning chain); they come first, in its order. Then strong support: a path that ends at an
    answer, or a fact/row item that names it. Items that merely pass through an answer are used
    only when nothing supports it strongly.
    """
    if not answers:
        return []
    if first:
        lead = list(first)[:MAX_EVIDENCE]
        rest = evidence_for(answers, [it for it in items if all(it is not f for f in lead)],
                            answer_ids, store, strong_only=True)
        return (lead + rest)[:MAX_EVIDENCE]
    ids = {i for v in answer_ids.values() for i in v}
    node_ids = {n for it in items for n in item_nodes(it)}
    names = display_names(store, list(node_ids)) if node_ids else {}
    targets = {normalize(a) for a in answers if normalize(a)}

    def is_answer(n: str) -> bool:
        return n in ids or normalize(names.get(n, n)) in targets

    strong, weak = [], []
    for it in items:
        if it.kind in ("query-failed", "note"):  # what failed or was cut supports nothing
            continue
        if it.path is not None and it.path.hops:
            if is_answer(it.path.end):
                strong.append(it)
            elif any(is_answer(n) for n in it.path.nodes):
                weak.append(it)
            continue
        hit = any(is_answer(n) for n in item_nodes(it))
        if not hit:
            text = f" {normalize(it.text)} "
            hit = any(f" {t} " in text for t in targets)
        if hit:
            strong.append(it)
    out = strong if strong or strong_only else weak
    out.sort(key=lambda it: (it.path.hops if it.path is not None else 0))  # stable: short first
    if len(out) > MAX_EVIDENCE and trace is not None:
        trace.event("answer", f"{len(out)} supporting items; the first {MAX_EVIDENCE} kept as "
                    "evidence (all are in the context)", supporting=len(out))
        trace.count("evidence_cut", len(out) - MAX_EVIDENCE)
    return out[:MAX_EVIDENCE]


def ask(
    question: str,
    graph: str | GraphStore,
    *,
    config: RunConfig | None = None,
    services: Services | None = None,
    **config_fields: Any,
) -> Answer:
    """Answer one question: ``ask("Who directed Alien?", "memory:demo", llm="none")``."""
    if config is not None and config_fields:
        config = config.model_copy(update=config_fields)
    elif config is None:
        config = RunConfig(**config_fields)
    if graph is None or (isinstance(graph, str) and not graph.strip()):
        raise ConfigError("no graph given: pass a GraphStore or a graph URI such as memory:demo")
    if isinstance(graph, str):
        from byokg.graph.open import open_graph

        store = open_graph(graph)
        try:
            return Engine(store, config, services).ask(question)
        finally:
            store.close()
    return Engine(graph, config, services).ask(question)


def explain(answer: Answer, *, max_warnings: int = 20) -> str:
    """The evidence and the trace's warnings (why there may be no answer) as readable lines."""
    lines = [f"Q: {answer.question}", "A: " + ("; ".join(answer.answers) if answer.answers else "(no answer)")]
    if answer.truncated:
        total = f"{answer.total:,}" if answer.total else "more (how many is not known)"
        lines.append(f"   ({len(answer.answers)} of {total} answers: the list was cut)")
    if answer.evidence:
        lines.append("Evidence:")
        for it in answer.evidence:
            tools = ", ".join(it.tools)
            score = f" score={it.score:.2f}" if it.score is not None else ""
            lines.append(f"  - {it.text}   [{tools}; round {it.iteration + 1}{score}]")
    else:
        lines.append("Evidence: none")
    warns = answer.trace.warnings
    if warns:
        lines.append(f"Warnings ({len(warns)}):")
        for ev in warns[:max_warnings]:
            where = f"{ev.source}" + (f", round {ev.iteration + 1}" if ev.iteration is not None
                                      else "")
            text = " ".join(ev.message.split())
            lines.append(f"  - [{ev.level}] {where}: {text[:300]}")
        if len(warns) > max_warnings:
            lines.append(f"  … and {len(warns) - max_warnings} more (see --json for the trace)")
    return "\n".join(lines)
