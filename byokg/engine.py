"""The iterative engine (BYOKG-RAG Algorithm 2).

Per round: KG-Linker (one LLM call, or the offline linker) -> link entities and draft answers ->
run every applicable retrieval tool side by side -> merge into the Context. Stops after
``config.iterations`` rounds, on FINISH, or when a round brings nothing new to link. Then one
answer-generation call (or offline answer extraction) produces an :class:`Answer` whose trace
records rounds, stage timings, LLM calls (tokens, prompt checksums), parse warnings and events.

Errors: an LLM that fails after its retries raises :class:`~byokg.errors.LLMError`; the engine
attaches the run so far to it as ``exc.trace`` and ``exc.partial`` (an Answer without answers).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import offline
from .config import RunConfig
from .context import Context, item_tools
from .contracts import (
    Answer,
    Artifacts,
    Candidate,
    ContextItem,
    LLMCall,
    MentionLinks,
    StageTiming,
    Trace,
)
from .errors import ByokgError, ConfigError, InputError, LLMError, PluginError
from .kglinker import (
    CONTEXT_PROMPT_TOKENS,
    Prompt,
    answer_prompt,
    iterative_prompt,
    linker_prompt,
    parse_reply,
    render_schema_for,
    vanilla_prompt,
)
from .store import GraphStore
from .text import count_tokens, normalize
from .tools import Linker, Services, Tool, ToolParams, ToolRequest, ToolResult

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
        self.trace.stages.append(
            StageTiming(
                stage=self.stage,
                iteration=self.iteration,
                seconds=time.perf_counter() - self.t0,
                count=self.count,
            )
        )


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
        self.max_question_tokens = max_question_tokens
        self._tools: list[tuple[str, Tool, ToolParams]] | None = None
        self._skipped: list[tuple[str, str]] = []
        self._linker: tuple[Linker, ToolParams] | None = None
        self._schema: Any = None
        self._checked = False

    # ------------------------------------------------------------------ setup
    def check_graph(self) -> None:
        if self._checked:
            return
        stats = self.store.stats()
        if stats.triplets == 0:
            raise InputError(
                "the graph has no triplets; load data first (byokg load FILE --into URI)",
                source=getattr(self.store, "uri", None) or "graph",
            )
        self._checked = True

    @property
    def llm(self) -> Any:
        return self.services.llm

    def linker(self) -> tuple[Linker, ToolParams]:
        if self._linker is None:
            from . import registry

            name = self.config.linker
            reg = registry.tools()
            if name in reg:
                linker = reg.create(name)
                if not isinstance(linker, Linker) and not hasattr(linker, "link"):
                    raise ConfigError(f"tool {name!r} is not a linker (it has no link method)")
            else:
                linker = offline.ExactNameLinker()
                self._skipped.append((name, "linker not installed; using exact-name fallback"))
            self._linker = (linker, self.config.tool_params(name, linker.Params))
        return self._linker

    def tools(self) -> list[tuple[str, Tool, ToolParams]]:
        """The retrieval tools this run uses, with validated params."""
        if self._tools is not None:
            return self._tools
        from . import registry

        reg = registry.tools()
        explicit = self.config.tools is not None
        names = list(self.config.tools) if explicit else reg.names()
        chosen = []
        for name in names:
            if name == self.config.linker and not explicit:
                continue
            tool = reg.create(name)  # unknown names raise ConfigError listing the known ones
            if not callable(getattr(tool, "run", None)) or not callable(getattr(tool, "applicable", None)):
                raise PluginError(
                    f"tool {name!r} registered by plugin {reg.get(name).plugin!r}: its factory "
                    f"returned {type(tool).__name__}, not a Tool (with run and applicable)"
                )
            if getattr(tool, "kind", "retrieval") != "retrieval":
                if explicit:
                    raise ConfigError(f"tool {name!r} is a {tool.kind}, not a retrieval tool")
                continue
            if not explicit and not getattr(tool, "default", True):
                continue
            if not tool.applicable(self.store, self.services):
                needs = sorted(getattr(tool, "requires", ()))
                why = f"needs store capabilities {needs}" if needs else "not applicable"
                if getattr(tool, "needs_llm", False) and self.llm is None:
                    why = "needs an LLM (--llm)"
                self._skipped.append((name, why))
                continue
            chosen.append((name, tool, self.config.tool_params(name, tool.Params)))
        self._tools = chosen
        return chosen

    def schema_text(self, question: str) -> str:
        if self._schema is None:
            self._schema = self.store.schema(samples=1)
        return render_schema_for(self._schema, question, services=self.services)

    # ------------------------------------------------------------------ pieces
    def _call_llm(self, trace: Trace, purpose: str, prompt: Prompt, iteration: int | None) -> str:
        llm = self.llm
        trace.event(
            purpose,
            f"prompt {prompt.template} ({prompt.chars:,} chars, checksum {prompt.checksum})",
            iteration=iteration,
            template=prompt.template,
            chars=prompt.chars,
            checksum=prompt.checksum,
        )
        t0 = time.perf_counter()
        resp = llm.complete(prompt.text)
        secs = time.perf_counter() - t0
        trace.llm_calls.append(
            LLMCall(
                purpose=purpose,
                model=getattr(resp, "model", None) or getattr(llm, "name", "llm"),
                prompt_checksum=prompt.checksum,
                prompt_tokens=resp.prompt_tokens or count_tokens(prompt.text),
                completion_tokens=resp.completion_tokens or count_tokens(resp.text),
                seconds=secs,
                cached=bool(getattr(resp, "cached", False)),
            )
        )
        trace.count("llm_calls")
        return resp.text

    def _link(
        self, mentions: Sequence[str], trace: Trace, iteration: int, kind: str
    ) -> list[MentionLinks]:
        if not mentions:
            return []
        linker, params = self.linker()
        try:
            links = list(linker.link(list(mentions), store=self.store, services=self.services, params=params))
        except ByokgError:
            raise
        except Exception as exc:  # a broken linker is recorded, the run goes on unlinked
            trace.event("linker", f"linking {kind} failed: {type(exc).__name__}: {exc}", level="error",
                        iteration=iteration)
            return []
        unlinked = [m.mention for m in links if not m.candidates]
        if unlinked:
            trace.event("linker", f"{len(unlinked)} {kind} not found in the graph", level="warning",
                        iteration=iteration, mentions=unlinked[:10])
        return links

    def _run_tool(self, name: str, tool: Tool, request: ToolRequest) -> tuple[ToolResult | None, str | None, float]:
        t0 = time.perf_counter()
        try:
            res = tool.run(request)
            return res, None, time.perf_counter() - t0
        except Exception as exc:
            return None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0

    def _retrieve(
        self,
        question: str,
        iteration: int,
        artifacts: Artifacts,
        entities: list[MentionLinks],
        answers: list[MentionLinks],
        context: Context,
        trace: Trace,
    ) -> list[ContextItem]:
        tools = self.tools()
        items: list[ContextItem] = []
        if not tools:
            return items
        snapshot = context.select()
        reqs = [
            (name, tool, ToolRequest(question=question, store=self.store, services=self.services,
                                     params=params, iteration=iteration, artifacts=artifacts,
                                     entities=list(entities), answers=list(answers), context=snapshot))
            for name, tool, params in tools
        ]
        with ThreadPoolExecutor(max_workers=min(self.config.workers, len(reqs))) as pool:
            futures = [(name, pool.submit(self._run_tool, name, tool, req)) for name, tool, req in reqs]
            results = [(name, f.result()) for name, f in futures]
        for name, (res, err, secs) in results:  # fixed tool order: merged order is stable
            trace.stages.append(StageTiming(stage=f"tool:{name}", iteration=iteration, seconds=secs,
                                            count=len(res.items) if res else None))
            if err is not None:
                trace.event(name, f"tool failed: {err}", level="error", iteration=iteration)
                trace.count(f"tool_errors.{name}")
                continue
            assert res is not None
            for ev in res.events:
                trace.events.append(ev.model_copy(update={"iteration": iteration}) if ev.iteration is None else ev)
            trace.llm_calls.extend(res.llm_calls)
            trace.count("llm_calls", len(res.llm_calls))
            for k, v in res.counts.items():
                trace.count(f"{name}.{k}", v)
            trace.count(f"items.{name}", len(res.items))
            for it in res.items:
                upd: dict[str, Any] = {}
                if it.iteration != iteration:
                    upd["iteration"] = iteration
                if not it.tool:
                    upd["tool"] = name
                items.append(it.model_copy(update=upd) if upd else it)
        return items

    # ------------------------------------------------------------------ the loop
    def check_question(self, question: str) -> str:
        if not isinstance(question, str) or not question.strip():
            raise InputError("the question is empty")
        q = question.strip()
        tokens = count_tokens(q)
        if tokens > self.max_question_tokens or len(q) > MAX_QUESTION_CHARS:
            raise InputError(
                f"the question is too long ({tokens:,} tokens, {len(q):,} characters; limit "
                f"{self.max_question_tokens:,} tokens / {MAX_QUESTION_CHARS:,} characters); shorten it"
            )
        return q

    def ask(self, question: str) -> Answer:
        question = self.check_question(question)
        self.check_graph()
        trace = Trace()
        context = Context(self.config.context_tokens)
        try:
            return self._ask(question, trace, context)
        except LLMError as exc:
            exc.trace = trace
            exc.partial = Answer(question=question, context=context.select(), trace=trace)
            trace.event("engine", f"stopped: {exc}", level="error")
            raise

    def _ask(self, question: str, trace: Trace, context: Context) -> Answer:
        cfg = self.config
        llm = self.llm
        if llm is not None and cfg.tools is not None and not cfg.tools:
            return self._vanilla(question, trace)
        self.tools()
        self.linker()
        for name, why in self._skipped:
            trace.event("engine", f"tool {name!r} skipped: {why}", level="info")
        entities: dict[str, MentionLinks] = {}
        answers: dict[str, MentionLinks] = {}
        seen_ids: set[str] = set()
        seen_paths: set[tuple[str, ...]] = set()
        seen_cypher: set[str] = set()
        question_ids: list[str] = []
        mentions: list[str] = []
        cypher_ok = "cypher" in getattr(self.store, "capabilities", frozenset())
        dialect = getattr(self.store, "dialect", None)
        schema_text: str | None = None

        for it in range(cfg.iterations):
            trace.iterations = it + 1
            offline_items: list[ContextItem] = []
            # 1. KG-Linker
            with _Timer(trace, "kg-linker", it) as tm:
                if llm is not None:
                    if schema_text is None:
                        schema_text = self.schema_text(question)
                    if it == 0:
                        prompt = linker_prompt(question, schema_text, cypher=cypher_ok, dialect=dialect,
                                               store=self.store)
                    else:
                        ctx_text = context.render(min(cfg.context_tokens, CONTEXT_PROMPT_TOKENS))
                        prompt = iterative_prompt(question, schema_text, ctx_text, round_no=it + 1,
                                                  rounds=cfg.iterations, cypher=cypher_ok, dialect=dialect,
                                                  store=self.store)
                    artifacts = parse_reply(self._call_llm(trace, "kg-linker", prompt, it))
                    spotted: list[MentionLinks] = []
                else:
                    prop = offline.propose(question, self.store, self.services, iteration=it,
                                           context=context.items)
                    artifacts, offline_items = prop.artifacts, prop.items
                    spotted = [
                        MentionLinks(mention=s.mention, candidates=tuple(
                            Candidate(id=i, name=s.mention, score=1.0, method="spot") for i in s.ids))
                        for s in prop.spots
                    ]
                tm.count = len(artifacts.entities) + len(artifacts.relation_paths)
            trace.artifacts.append(artifacts)
            for w in artifacts.warnings:
                trace.event("kg-linker", f"parse: {w}", level="warning", iteration=it)
            trace.count("parse_warnings", len(artifacts.warnings))

            # 2. link entities and draft answers
            with _Timer(trace, "link", it) as tm:
                ent_links = spotted or self._link(
                    [e for e in artifacts.entities if e not in entities], trace, it, "entities")
                ans_links = self._link(
                    [a for a in artifacts.draft_answers if a not in answers], trace, it, "draft answers")
                tm.count = sum(len(m.candidates) for m in ent_links + ans_links)
            trace.links.append(ent_links + ans_links)
            for m in ent_links:
                entities.setdefault(m.mention, m)
                if m.mention not in mentions:
                    mentions.append(m.mention)
                question_ids.extend(i for i in m.ids if i not in question_ids)
            for m in ans_links:
                answers.setdefault(m.mention, m)

            new_ids = {i for m in ent_links + ans_links for i in m.ids} - seen_ids
            new_paths = {p.relations for p in artifacts.relation_paths} - seen_paths
            new_cypher = set(artifacts.cypher) - seen_cypher
            seen_ids |= new_ids
            seen_paths |= new_paths
            seen_cypher |= new_cypher
            if it > 0 and not (new_ids or new_paths or new_cypher):
                trace.event("engine", "nothing new to link; stopping", iteration=it,
                            finish=artifacts.finish)
                break

            # 3. tools, side by side
            with _Timer(trace, "tools", it) as tm:
                items = offline_items + self._retrieve(
                    question, it, artifacts, list(entities.values()), list(answers.values()), context, trace)
                tm.count = len(items)
            with _Timer(trace, "merge", it) as tm:
                tm.count = context.add(items)
            trace.count("context_items_new", tm.count)
            if artifacts.finish:
                trace.event("engine", "KG-Linker said FINISH; stopping", iteration=it)
                break

        # 4. answer
        selected = context.select()
        trace.counts["context_items"] = len(context)
        trace.counts["context_selected"] = len(selected)
        trace.counts["context_duplicates"] = context.duplicates
        with _Timer(trace, "answer") as tm:
            if llm is not None:
                prompt = answer_prompt(question, "\n".join(i.text for i in selected))
                parsed = parse_reply(self._call_llm(trace, "answer", prompt, None))
                for w in parsed.warnings:
                    trace.event("answer", f"parse: {w}", level="warning")
                final = list(parsed.draft_answers)
                if not final:
                    final = [a for art in trace.artifacts for a in art.draft_answers][:10]
                    if final:
                        trace.event("answer", "answer reply had no answers; using KG-Linker draft answers",
                                    level="warning")
                answer_ids: dict[str, list[str]] = {}
            else:
                ranked = offline.extract_answers(
                    question, selected, self.store, question_ids=question_ids,
                    question_mentions=mentions, services=self.services,
                    id_mentions={i: m.mention for m in entities.values() for i in m.ids})
                final = list(dict.fromkeys(name for _, name, _ in ranked))
                answer_ids = {}
                for nid, name, _ in ranked:
                    answer_ids.setdefault(name, []).append(nid)
                trace.event("answer", f"{len(ranked)} answers extracted offline",
                            answer_ids=[nid for nid, _, _ in ranked],
                            scores=[round(sc, 4) for _, _, sc in ranked])
            tm.count = len(final)
        if not final:
            trace.event("answer", "no answer found in the retrieved context", level="warning")
        evidence = self.evidence(final, selected, answer_ids)
        trace.counts["evidence"] = len(evidence)
        linked = list(entities.values())
        ids = {i for it in evidence for i in _item_nodes(it)}
        ids.update(i for m in linked for i in m.ids)
        ids.update(i for v in answer_ids.values() for i in v)
        names = offline.display_names(self.store, sorted(ids)) if ids else {}
        return Answer(question=question, answers=final, evidence=evidence, context=selected,
                      trace=trace, answer_ids=answer_ids, entities=linked, names=names)

    def _vanilla(self, question: str, trace: Trace) -> Answer:
        """No tools configured with an LLM: the vanilla-LLM baseline, one call, no graph."""
        trace.iterations = 0
        trace.event("engine", "no retrieval tools configured: vanilla LLM (the question alone)")
        with _Timer(trace, "answer", None) as tm:
            parsed = parse_reply(self._call_llm(trace, "answer", vanilla_prompt(question), None))
            for w in parsed.warnings:
                trace.event("answer", f"parse: {w}", level="warning")
            tm.count = len(parsed.draft_answers)
        return Answer(question=question, answers=list(parsed.draft_answers), trace=trace)

    def evidence(
        self, answers: Sequence[str], items: Sequence[ContextItem], answer_ids: dict[str, list[str]]
    ) -> list[ContextItem]:
        """The context items that support an answer.

        Strong support: a path that ends at an answer, or a fact/row item that names it. Items
        that merely pass through an answer are used only when nothing supports it strongly.
        """
        if not answers:
            return []
        ids = {i for v in answer_ids.values() for i in v}
        node_ids = {n for it in items for n in _item_nodes(it)}
        names = offline.display_names(self.store, list(node_ids)) if node_ids else {}
        targets = {normalize(a) for a in answers if normalize(a)}

        def is_answer(n: str) -> bool:
            return n in ids or normalize(names.get(n, n)) in targets

        strong, weak = [], []
        for it in items:
            if it.path is not None and it.path.hops:
                if is_answer(it.path.end):
                    strong.append(it)
                elif any(is_answer(n) for n in it.path.nodes):
                    weak.append(it)
                continue
            hit = any(is_answer(n) for n in _item_nodes(it))
            if not hit:
                text = f" {normalize(it.text)} "
                hit = any(f" {t} " in text for t in targets)
            if hit:
                strong.append(it)
        out = strong or weak
        out.sort(key=lambda it: (it.path.hops if it.path is not None else 0))  # stable: short first
        return out[:MAX_EVIDENCE]


def _item_nodes(item: ContextItem) -> list[str]:
    nodes = list(item.nodes)
    if item.path is not None:
        nodes.extend(item.path.nodes)
    for t in item.triplets:
        nodes.extend((t.head, t.tail))
    return list(dict.fromkeys(nodes))


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
        from .graph import open_graph

        store = open_graph(graph)
        try:
            return Engine(store, config, services).ask(question)
        finally:
            close = getattr(store, "close", None)
            if close:
                close()
    return Engine(graph, config, services).ask(question)


def explain(answer: Answer, *, max_warnings: int = 20) -> str:
    """The evidence and the trace's warnings (why there may be no answer) as readable lines."""
    lines = [f"Q: {answer.question}", "A: " + ("; ".join(answer.answers) if answer.answers else "(no answer)")]
    if answer.evidence:
        lines.append("Evidence:")
        for it in answer.evidence:
            tools = ", ".join(item_tools(it))
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
