"""Agentic KG traversal (BYOKG-RAG Algorithm 1, prompts of Fig. 8 and Fig. 9).

From the linked entities, for at most ``iterations`` (T_A) rounds:

1. fetch the frontier's one-hop edges with ONE batched ``store.neighbors`` call;
2. per entity, list its relations; an entity with more than ``max_relations`` is pruned to the
   best ``max_relations`` first (cross-encoder reranker when configured, else embedder cosine
   between the question and the humanised relation names);
3. ask the LLM to select relations (``agentic_relations`` template, ``<selected-relations>``)
   and keep the matching triplets (capped per relation and in total);
4. ask the LLM for the next entities (``agentic_entities`` template, ``<next-entities>``) or
   FINISH. Proposed names are RE-LINKED to graph nodes: first against the nodes of the facts
   found so far (ids, names, aliases), then through the run's entity linker; never used as raw
   strings. Unlinked names are reported.

The traversal spends at most ``calls`` LLM calls (the tool gives it what is left of its
per-question ``max_calls`` and of the question's budget): it asks for next entities only when a
call for another relation step would follow, and it stops when a step adds no new fact.
Relations are listed sorted (by relevance to the question, then name) and tails by relevance,
so the prompts never depend on the store's result order.

Every LLM call is returned as an :class:`~byokg.contracts.LLMCall`; a reply without its tag, an
unknown relation, an unlinked entity or a failed LLM call leaves a trace event and the traversal
ends cleanly with what it has.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from byokg.plugins.kglinker.prompt import fill
from byokg.plugins.kglinker.prompt import load_template
from pydantic import Field

from byokg.contracts import Direction
from byokg.contracts import Triplet
from byokg.errors import LLMError
from byokg.graph.store import GraphStore
from byokg.graph.verbalize import node_labels
from byokg.graph.verbalize import verbalize_triplets
from byokg.language.analysis import humanize_relation
from byokg.language.text import normalize
from byokg.models import replies
from byokg.models.budget import BudgetExhausted
from byokg.models.services import Services
from byokg.models.similarity import Similarity
from byokg.pipeline.context import tail_ranker
from byokg.pipeline.stages import complete
from byokg.pipeline.tools import StageOutput
from byokg.pipeline.tools import ToolParams

RELATIONS_TEMPLATE = "agentic_relations"
ENTITIES_TEMPLATE = "agentic_entities"
SOURCE = "agentic"

_EMPTY = replies.EMPTY | {"finish"}
_PAREN = re.compile(r"\s*\([^()]*\)\s*$")


class AgenticParams(ToolParams):
    """Knobs of the traversal (the ``agentic`` tool's Params extend this)."""

    iterations: int = Field(3, ge=1, le=10, description="T_A: traversal rounds")
    max_entities: int = Field(5, ge=1, le=50, description="frontier entities per round")
    max_relations: int = Field(20, ge=1, le=200, description="relations shown per entity")
    max_select: int = Field(3, ge=1, le=20, description="relations the LLM may pick per entity")
    per_node: int = Field(2000, ge=1, description="edges read per frontier entity")
    per_relation: int = Field(30, ge=1, description="triplets kept per entity and relation")
    max_triplets: int = Field(200, ge=1, description="triplets kept over the whole traversal")
    facts_tokens: int = Field(1500, ge=100, description="budget of the facts in the prompt")
    link_top_k: int = Field(3, ge=1, le=10, description="linker candidates looked at per name")
    max_calls: int = Field(2, ge=1, le=50, description="LLM calls per question at most (a step "
                           "costs one relation call, one more to ask for the next entities)")


@dataclass
class Traversal(StageOutput):
    """What a traversal produced (besides the trace material of :class:`StageOutput`)."""

    triplets: list[Triplet] = field(default_factory=list)
    step_of: dict[Triplet, int] = field(default_factory=dict)  # round that found each triplet
    visited: list[str] = field(default_factory=list)
    finished: bool = False

    def note(self, message: str, *, level: str = "info", **data: Any) -> None:
        self.event(SOURCE, message, level=level, **data)

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n


# --------------------------------------------------------------------------- reply parsing


def _items(body: str) -> list[str]:
    """The items of a body (trailing full stops dropped too: relation names are not sentences)."""
    got = replies.items(body, SOURCE, [], max_items=10_000, empty=_EMPTY)
    return list(dict.fromkeys(s for s in (x.rstrip(".").strip() for x in got)
                              if s.casefold() not in _EMPTY))


# --------------------------------------------------------------------------- the traversal


class AgenticTraversal:
    """One traversal for one question (Algorithm 1)."""

    def __init__(self, question: str, store: GraphStore, services: Services, llm: Any,
                 params: AgenticParams, *, iteration: int = 0, calls: int | None = None,
                 analysis: Any = None, answer_ids: Sequence[str] = (),
                 similarity: Similarity | None = None) -> None:
        self.question = question
        self.store = store
        self.services = services
        self.llm = llm
        self.p = params
        self.iteration = iteration
        self.calls = params.max_calls if calls is None else calls  # LLM calls it may still make
        self.out = Traversal()
        self._labels: dict[str, str] = {}
        self._prune_how = "score"
        if analysis is None:
            from byokg.language.analysis import analyze

            analysis = analyze(question)
        self.analysis = analysis
        self.similarity = similarity or Similarity(analysis, services)
        self.rank_tail = tail_ranker(analysis, answer_ids)

    # ------------------------------------------------------------------ LLM
    def _complete(self, template: str, purpose: str, **values: Any) -> str | None:
        if self.calls <= 0:
            self.out.note(f"{purpose}: no LLM call left (max_calls={self.p.max_calls} per "
                          "question or the question's budget); traversal stopped")
            self.out.count("budget_stops")
            return None
        self.calls -= 1
        try:
            return complete(self.llm, fill(load_template(template), **values),
                            purpose=f"agentic:{purpose}", out=self.out, template=f"{template}.v1")
        except BudgetExhausted as exc:
            self.out.note(f"{purpose}: {exc}; traversal stopped", level="warning")
            self.out.count("budget_stops")
            return None
        except LLMError as exc:
            self.out.note(f"{purpose}: LLM call failed: {exc}", level="error")
            return None

    # ------------------------------------------------------------------ labels
    def labels(self, ids: Sequence[str]) -> dict[str, str]:
        need = [i for i in dict.fromkeys(ids) if i not in self._labels]
        if need:
            self._labels.update(node_labels(self.store, need, describe=False))
        return {i: self._labels.get(i, i) for i in ids}

    # ------------------------------------------------------------------ relations
    def prune(self, relations: list[str]) -> list[str]:
        """The ``max_relations`` relations most relevant to the question (reranker, else
        embedder cosine of humanised names); order kept when nothing needs pruning."""
        if len(relations) <= self.p.max_relations:
            scores = self.similarity.relation_scores(relations)
            return sorted(relations, key=lambda r: (-round(scores[r], 6), r))
        texts = [humanize_relation(r) for r in relations]
        if self.services.config.reranker and self.services.reranker is not None:
            scores = list(self.services.reranker.score(self.question, texts))
            how = "reranker"
        else:
            from byokg.plugins.scoring.scorers import relation_similarities

            sims = relation_similarities(self.services.embedder, self.question, relations)
            scores = [sims[r] for r in relations]
            how = "embedder"
        order = sorted(range(len(relations)),
                       key=lambda i: (-round(scores[i], 6), relations[i]))[: self.p.max_relations]
        self.out.count("relations_pruned", len(relations) - len(order))
        self._prune_how = how
        return [relations[i] for i in order]

    def select_relations(self, frontier: list[str], rels: dict[str, list[str]]
                         ) -> dict[str, list[str]]:
        names = self.labels(frontier)
        blocks = [f"Entity: {names[e]}\nRelations: {', '.join(rels[e])}"
                  for e in frontier if rels.get(e)]
        reply = self._complete(RELATIONS_TEMPLATE, "relations", question=self.question,
                               entities="\n\n".join(blocks), max_select=self.p.max_select)
        if reply is None:
            return {}
        body = replies.tag_body(reply, "selected-relations", "selected_relations", "relations")
        if body is None:
            self.out.note("relation reply has no <selected-relations> tag; relation names "
                           "written in the reply were used", level="warning", reply=reply[:200])
            self.out.count("replies_without_tag")
            body = "\n".join(r for e in frontier for r in rels.get(e, ())
                             if re.search(rf"(?<![\w.]){re.escape(r)}(?![\w.])", reply))
        by_name: dict[str, list[str]] = {}
        for e in frontier:
            by_name.setdefault(normalize(names[e]), []).append(e)
            by_name.setdefault(normalize(e), []).append(e)
        chosen: dict[str, list[str]] = {}
        unknown: list[str] = []
        for item in _items(body):
            ent_part, _, rel_part = item.rpartition("|")
            rel = rel_part.strip()
            targets = (by_name.get(normalize(ent_part), []) if ent_part.strip()
                       else frontier)
            if ent_part.strip() and not targets:
                targets = frontier  # entity misnamed: apply to whoever has the relation
            hit = False
            for e in targets:
                match = _match_relation(rel, rels.get(e, []))
                if match and match not in chosen.get(e, []) and \
                        len(chosen.get(e, [])) < self.p.max_select:
                    chosen.setdefault(e, []).append(match)
                    hit = True
                elif match:
                    hit = True
            if not hit:
                unknown.append(rel)
        if unknown:
            self.out.note(f"{len(unknown)} selected relation(s) not among the candidates",
                           level="warning", relations=unknown[:10])
        return chosen

    # ------------------------------------------------------------------ entities
    def next_entities(self) -> list[str] | None:
        """Names proposed by the LLM; None for FINISH, a reply without tag or a failure."""
        facts = verbalize_triplets(self.store, self.out.triplets, max_tokens=self.p.facts_tokens,
                                   tail_rank=self.rank_tail)
        reply = self._complete(ENTITIES_TEMPLATE, "entities", question=self.question,
                               facts=facts.text or "(none)", max_entities=self.p.max_entities)
        if reply is None:
            return None
        body = replies.tag_body(reply, "next-entities", "next_entities", "entities")
        names = [n for n in _items(body)] if body is not None else []
        if replies.says_finish(reply) and not names:
            self.out.finished = True
            self.out.note("LLM: FINISH")
            return None
        if body is None:
            self.out.note("entity reply has neither <next-entities> nor FINISH; traversal "
                           "stopped", level="warning", reply=reply[:200])
            self.out.count("replies_without_tag")
            return None
        if replies.says_finish(reply):
            self.out.note("reply has FINISH and next entities; following the entities")
        return names

    def relink(self, names: list[str]) -> list[str]:
        """Graph node ids for LLM-proposed names: nodes of the facts found so far first (id,
        name, alias; a trailing ``(description)`` ignored), else the run's entity linker
        (preferring a candidate among the facts' nodes)."""
        local = sorted({x for t in self.out.triplets for x in (t.head, t.tail)})
        local_set = set(local)
        labels = self.labels(local)
        index: dict[str, str] = {}
        nodes = self.store.get_nodes(local) if local else {}
        for nid in local:
            index.setdefault(normalize(nid), nid)
            index.setdefault(normalize(labels[nid]), nid)
            node = nodes.get(nid)
            for alias in (node.aliases if node is not None else ()):
                index.setdefault(normalize(alias), nid)
        out: dict[str, None] = {}
        pending: list[str] = []
        for name in names:
            key = normalize(name)
            nid = index.get(key) or index.get(normalize(_PAREN.sub("", name)))
            if nid is None and re.match(r"^[mg]\.[0-9a-z_]+", name.strip()):
                nid = index.get(normalize(name.strip().split()[0]))
            if nid is not None:
                out[nid] = None
            else:
                pending.append(name)
        if pending:
            links = self._link(pending)
            unlinked = []
            for name, ml in zip(pending, links, strict=True):
                cands = list(ml.candidates)[: self.p.link_top_k]
                if not cands:
                    unlinked.append(name)
                    continue
                best = next((c for c in cands if c.id in local_set), cands[0])
                out[best.id] = None
                self.out.note(f"next entity {name!r} linked to node {best.id!r} "
                               f"({best.method} {best.score:.2f})", name=name, node=best.id)
                self.out.count("relinked")
            if unlinked:
                self.out.note(f"{len(unlinked)} proposed entity name(s) not found in the graph",
                               level="warning", names=unlinked[:10])
                self.out.count("unlinked", len(unlinked))
        return list(out)

    def _link(self, names: list[str]) -> list[Any]:
        from byokg import registry
        from byokg.contracts import MentionLinks

        cfg = self.services.config
        reg = registry.tools()
        try:
            if cfg.linker in reg:
                linker = reg.create(cfg.linker)
                if hasattr(linker, "link"):
                    params = cfg.tool_params(cfg.linker, linker.Params)
                    return list(linker.link(names, store=self.store, services=self.services,
                                            params=params))
            from byokg.linking.indexes import get_name_index

            return get_name_index(self.store, self.services).search(names, top_k=self.p.link_top_k)
        except LLMError:
            raise
        except Exception as exc:  # a broken linker leaves a mark; the traversal goes on
            self.out.note(f"linking next entities failed: {type(exc).__name__}: {exc}",
                           level="error")
            return [MentionLinks(mention=n) for n in names]

    # ------------------------------------------------------------------ the loop
    def run(self, seeds: Sequence[str]) -> Traversal:
        p, out = self.p, self.out
        frontier = list(dict.fromkeys(seeds))
        if len(frontier) > p.max_entities:
            out.note(f"max_entities={p.max_entities} cut {len(frontier) - p.max_entities} "
                      f"linked entities")
            frontier = frontier[: p.max_entities]
        seen_t: set[Triplet] = set()
        visited: dict[str, None] = {}
        for step in range(p.iterations):
            if not frontier:
                break
            visited.update(dict.fromkeys(frontier))
            rels, by_rel = self._candidates(frontier)
            if not any(rels.values()):
                out.note("the frontier has no edges", nodes=frontier[:10])
                break
            chosen = self.select_relations(frontier, rels)
            if not chosen:
                out.note("no relation selected; traversal stopped", level="warning")
                break
            added = self._keep(chosen, by_rel, seen_t, step)
            out.count("triplets", added)
            out.count("rounds")
            if step == p.iterations - 1:
                break
            if not added:
                out.note("this step added no new fact; traversal stopped")
                break
            if len(out.triplets) >= p.max_triplets:
                out.note(f"max_triplets={p.max_triplets} reached; traversal stopped")
                break
            if self.calls < 2:
                out.note("no LLM call left for another step; traversal stopped before asking "
                         "for next entities")
                out.count("budget_stops")
                break
            names = self.next_entities()
            if names is None:
                break
            ids = [i for i in self.relink(names) if i not in visited]
            if not ids:
                out.note("no new entity to explore; traversal stopped")
                break
            if len(ids) > p.max_entities:
                out.note(f"max_entities={p.max_entities} cut {len(ids) - p.max_entities} "
                          f"next entities")
            frontier = ids[: p.max_entities]
        out.visited = list(visited)
        return out

    def _candidates(self, frontier: list[str]
                    ) -> tuple[dict[str, list[str]], dict[tuple[str, str], list[Triplet]]]:
        """The frontier's edges (one batched call): per entity its relations (sorted, pruned to
        ``max_relations``) and per (entity, relation) its triplets."""
        p, out = self.p, self.out
        hoods = self.store.neighbors(frontier, direction=Direction.BOTH, limit_per_node=p.per_node)
        out.count("fetches")
        rels: dict[str, list[str]] = {}
        by_rel: dict[tuple[str, str], list[Triplet]] = {}
        for e in frontier:
            hood = hoods.get(e)
            if hood is None:
                continue
            if hood.truncated:
                out.note(f"per_node={p.per_node} cut the edges of {e!r} ({hood.total} in all)",
                         node=e)
            for t in hood.triplets:
                by_rel.setdefault((e, t.relation), []).append(t)
            names = sorted({t.relation for t in hood.triplets})
            pruned = self.prune(names)
            if len(pruned) < len(names):
                out.note(f"{e!r}: {len(names)} relations pruned to {len(pruned)} by "
                         f"{self._prune_how}", node=e, kept=pruned)
            rels[e] = pruned
        return rels, by_rel

    def _keep(self, chosen: dict[str, list[str]], by_rel: dict[tuple[str, str], list[Triplet]],
              seen: set[Triplet], step: int) -> int:
        """Add the chosen relations' triplets (capped); returns how many were new."""
        p, out = self.p, self.out
        added = 0
        for e, rs in chosen.items():
            for r in rs:
                for t in self._best(e, by_rel.get((e, r), []))[: p.per_relation]:
                    if t in seen:
                        continue
                    if len(out.triplets) >= p.max_triplets:
                        out.count("triplets_capped")
                        break
                    seen.add(t)
                    out.triplets.append(t)
                    out.step_of[t] = step
                    added += 1
        return added

    def _best(self, node: str, triplets: list[Triplet]) -> list[Triplet]:
        """One entity's triplets of one relation, the most relevant other ends first (ties by
        label and id), so a ``per_relation`` cap keeps the same ones in every run."""
        others = [t.tail if t.head == node else t.head for t in triplets]
        labels = self.labels(others)
        keyed = [(-self.rank_tail(o, labels.get(o, o)), labels.get(o, o).casefold(), o, t.relation,
                  t.head == node) for o, t in zip(others, triplets, strict=True)]
        order = sorted(range(len(triplets)), key=lambda i: keyed[i])
        return [triplets[i] for i in order]


def _match_relation(name: str, candidates: Sequence[str]) -> str | None:
    """``name`` among ``candidates``: exact, then case/punctuation-insensitive, then by its
    humanised words (an LLM writing ``place of birth`` for ``people.person.place_of_birth``)."""
    if not name:
        return None
    if name in candidates:
        return name
    key = normalize(name)
    for c in candidates:
        if normalize(c) == key:
            return c
    for c in candidates:
        if normalize(humanize_relation(c)) == key or normalize(c.rsplit(".", 1)[-1]) == key:
            return c
    return None


def traverse(question: str, store: GraphStore, seeds: Sequence[str], *, services: Services,
             llm: Any, params: AgenticParams | None = None, iteration: int = 0,
             calls: int | None = None, analysis: Any = None,
             answer_ids: Sequence[str] = (), similarity: Similarity | None = None) -> Traversal:
    """Run Algorithm 1 from ``seeds`` (graph node ids), with at most ``calls`` LLM calls
    (default ``params.max_calls``)."""
    return AgenticTraversal(question, store, services, llm, params or AgenticParams(),
                            iteration=iteration, calls=calls, analysis=analysis,
                            answer_ids=answer_ids, similarity=similarity).run(seeds)
