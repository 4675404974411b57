"""Merging the ContextItems of all tools and rounds into one deduplicated, ranked, budgeted context.

Two items are the same when their normalised text matches, or when they are supported by the
same set of triplets. A repeat keeps the first item's place, unions the provenance
(``metadata["tools"]``, ``metadata["iterations"]``) and keeps the best score.

Selection for a token budget ranks items by their relevance to the question (:class:`Relevance`:
the reranker when one is configured, else the embedder's cosine when one is configured, else the
lexical relation score of the question's analysis) plus a little of the tool's own score, ties
broken by the text, so the order never depends on the store's result order. Every query result
is kept (its rows shortened with a mark when it alone is too long), then the best item of every
tool, then the rest by rank. A :class:`Selection` holds the items that fit and the
:class:`Cut` of what did not, counted per tool: :attr:`Selection.note` is a line saying what was
left out (the prompts show it), and whoever selects records the cut (the engine in the trace).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from byokg.contracts import ContextItem
from byokg.contracts import Path
from byokg.contracts import Triplet
from byokg.cypher.execute import cell_name
from byokg.cypher.execute import format_row
from byokg.cypher.execute import query_text
from byokg.graph.store import GraphStore
from byokg.language.text import count_tokens
from byokg.language.text import normalize
from byokg.language.text import stem
from byokg.language.text import words
from byokg.models.similarity import Similarity

DEFAULT_SCORE = 0.5  # for items a tool did not score
AGREEMENT_BONUS = 0.1  # per extra tool that produced the same item
TOOL_SCORE_WEIGHT = 0.2  # share of a tool's own score in the rank (relevance weighs 1)
NOTE_TOKENS = 40  # kept back for the line that says what was cut
NOTE_CHARS = 160  # the same, for a budget in characters
NAMED_PROPERTY = 0.75  # a property value goes into a prompt when the question names it this well
ALWAYS = frozenset({"query", "query-failed"})  # kinds every selection keeps (rows may be cut)


def effective_score(item: ContextItem) -> float:
    base = item.score if item.score is not None else DEFAULT_SCORE
    return float(base) + AGREEMENT_BONUS * (len(item.tools) - 1)


# --------------------------------------------------------------------------- relevance


def _item_relations(item: ContextItem) -> list[str]:
    rels = list(item.path.relations) if item.path is not None else []
    rels += [t.relation for t in item.triplets]
    return list(dict.fromkeys(rels))


class Relevance:
    """How relevant each context item is to the question, in [0, 1], memoised by item text.

    ``reranker`` when the run configures one (cross-encoder), else ``embedder`` cosine when it
    configures an embedder, else ``lexical``: the analysis' relation score of the item's
    relations and the share of the question's content words the item text holds. A question's
    numbers found in an item (a date, a quantity) add to it; query results score 1.
    """

    def __init__(self, similarity: Similarity) -> None:
        self.similarity = similarity
        self.analysis = analysis = similarity.analysis
        self.services = services = similarity.services
        cfg = services.config if services is not None else None
        if cfg is not None and cfg.reranker:
            self.how = "reranker"
        elif cfg is not None and cfg.embedder:
            self.how = "embedder"
        else:
            self.how = "lexical"
        self._memo: dict[str, float] = {}
        self._lock = threading.Lock()
        self._terms = {t for t, w in analysis.terms.items() if w >= 1.0}
        self._numbers = {normalize(n) for n in analysis.numbers}

    def __call__(self, items: Sequence[ContextItem]) -> list[float]:
        with self._lock:
            todo = list(dict.fromkeys(it.text for it in items if it.text not in self._memo))
        if todo:
            by_text = {it.text: it for it in items}
            got = self._score([by_text[t] for t in todo])
            with self._lock:
                self._memo.update(zip(todo, got, strict=True))
        with self._lock:
            return [self._memo[it.text] for it in items]

    def _score(self, items: list[ContextItem]) -> list[float]:
        model = self._model_scores([it.text for it in items]) if self.how != "lexical" else None
        out = []
        for i, it in enumerate(items):
            if it.kind in ALWAYS:
                out.append(1.0)
                continue
            s = model[i] if model is not None else self._lexical(it)
            if self._numbers and self._numbers & set(normalize(it.text).split()):
                s += 0.2
            out.append(round(min(1.0, max(0.0, s)), 4))
        return out

    def _lexical(self, item: ContextItem) -> float:
        rels = _item_relations(item)
        rel = max(self.similarity.relation_scores(rels).values()) if rels else 0.0
        if not self._terms:
            return rel
        stems = {stem(w) for w in words(item.text)}
        overlap = len(self._terms & stems) / len(self._terms)
        return 0.6 * rel + 0.4 * overlap

    def _model_scores(self, texts: list[str]) -> list[float]:
        question = self.analysis.question
        if self.how == "reranker":
            raw = list(self.services.reranker.score(question, texts))
            # cross-encoders give 0..1 (normalised) or logits; cosine rerankers -1..1
            if any(x < -1.0 or x > 1.0 for x in raw):
                return [1.0 / (1.0 + math.exp(-x)) for x in raw]
            return [max(0.0, x) for x in raw]
        emb = self.services.embedder
        vecs = emb.encode([question, *texts])
        return [max(0.0, float(x)) for x in (vecs[1:] @ vecs[0]).tolist()]


# --------------------------------------------------------------------------- the context


@dataclass
class Cut:
    """What one selection left out: items per tool, rows of query results shortened."""

    budget: int
    items: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    unit: str = "tokens"  # of the budget: "tokens" or "characters"
    unnamed: int = 0  # property values left out: the question names none of their properties

    @property
    def total(self) -> int:
        return sum(self.items.values())

    def describe(self) -> str:
        parts = []
        if self.items:
            per = ", ".join(f"{t} {n}" for t, n in sorted(self.items.items()))
            parts.append(f"{self.total} more item(s) left out for the "
                         f"{'token' if self.unit == 'tokens' else 'character'} budget ({per})")
        if self.rows:
            per = ", ".join(f"{t} {n}" for t, n in sorted(self.rows.items()))
            parts.append(f"{sum(self.rows.values())} query row(s) left out ({per})")
        if self.unnamed:
            parts.append(f"{self.unnamed} property value(s) of properties the question does "
                         "not name left out")
        return "; ".join(parts)


@dataclass(frozen=True)
class Selection:
    """The items of one selection, most relevant first in first-seen order, and what it left
    out (None: nothing)."""

    items: list[ContextItem]
    cut: Cut | None = None

    def __iter__(self) -> Iterator[ContextItem]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    @property
    def note(self) -> ContextItem | None:
        """A line saying what was left out (None when nothing was)."""
        cut = self.cut
        if cut is None:
            return None
        return ContextItem(text=f"[{cut.describe()}]", tool="context", kind="note",
                           metadata={"cut_items": dict(cut.items), "cut_rows": dict(cut.rows),
                                     "budget": cut.budget, "unit": cut.unit,
                                     "unnamed_properties": cut.unnamed})

    def render(self) -> str:
        """The items as text, one per line, with a last line saying what was left out (what
        the LLM sees)."""
        lines = [i.text for i in self.items]
        if self.note is not None:
            lines.append(self.note.text)
        return "\n".join(lines)


class Context:
    """The merged context of one question, across tools and rounds."""

    def __init__(self, token_budget: int = 4000,
                 relevance: Callable[[Sequence[ContextItem]], list[float]] | None = None) -> None:
        self.token_budget = token_budget
        self.relevance = relevance
        self._items: list[ContextItem] = []
        self._by_text: dict[str, int] = {}
        self._by_triplets: dict[frozenset[tuple[str, str, str]], int] = {}
        self.duplicates = 0

    def __len__(self) -> int:
        return len(self._items)

    @property
    def items(self) -> list[ContextItem]:
        """Every distinct item, first-seen order (not budgeted)."""
        return list(self._items)

    def _merge(self, idx: int, new: ContextItem) -> None:
        old = self._items[idx]
        tools = old.tools
        for t in new.tools:
            if t not in tools:
                tools.append(t)
        iters = list(old.metadata.get("iterations") or [old.iteration])
        if new.iteration not in iters:
            iters.append(new.iteration)
        scores = [s for s in (old.score, new.score) if s is not None]
        meta = {**new.metadata, **old.metadata, "tools": tools, "iterations": iters}
        update: dict[str, object] = {"metadata": meta, "score": max(scores) if scores else None}
        if not old.triplets and new.triplets:
            update["triplets"] = new.triplets
        if not old.nodes and new.nodes:
            update["nodes"] = new.nodes
        self._items[idx] = old.model_copy(update=update)

    def add(self, items: Iterable[ContextItem]) -> int:
        """Add items; returns how many were new (the rest were merged into earlier ones)."""
        added = 0
        for item in map(stable_rows, items):
            tkey = normalize(item.text)
            trip = frozenset(t.key for t in item.triplets) if item.triplets else None
            idx = self._by_text.get(tkey)
            if idx is None and trip is not None:
                idx = self._by_triplets.get(trip)
            if idx is not None:
                self.duplicates += 1
                self._merge(idx, item)
                self._by_text.setdefault(tkey, idx)
                continue
            meta = dict(item.metadata)
            meta.setdefault("tools", [item.tool])
            meta.setdefault("iterations", [item.iteration])
            self._items.append(item.model_copy(update={"metadata": meta}))
            idx = len(self._items) - 1
            self._by_text[tkey] = idx
            if trip is not None:
                self._by_triplets.setdefault(trip, idx)
            added += 1
        return added

    def ranked(self) -> list[ContextItem]:
        """Every item, most relevant first (ties: by text, so store order never matters)."""
        items = self._items
        rel = self.relevance(items) if self.relevance is not None and items else [0.0] * len(items)
        keys = [round(r + TOOL_SCORE_WEIGHT * effective_score(it), 4) for r, it in zip(rel, items, strict=True)]
        order = sorted(range(len(items)), key=lambda i: (-keys[i], items[i].text))
        return [items[i] for i in order]

    def select(self, token_budget: int | None = None, *, chars: int | None = None,
               named: Callable[[ContextItem], bool] | None = None) -> Selection:
        """The items that fit the token budget (or ``chars``, a budget in characters: what an
        LLM prompt holds), most relevant first: every query result (rows shortened with a mark
        if need be) and every failed query's summary, the best item of every tool, then the
        rest by rank; with the cut of what was left out (nothing is recorded here: the caller
        records it). With ``named``, a property value (an item of kind ``property``) goes in
        only when ``named(item)`` (the question names its property)."""
        budget = chars if chars is not None else (
            self.token_budget if token_budget is None else token_budget)
        measure = len if chars is not None else count_tokens
        note = NOTE_CHARS if chars is not None else NOTE_TOKENS
        cut = Cut(budget=budget, unit="characters" if chars is not None else "tokens")
        ranked = self.ranked()
        if named is not None:
            kept = [it for it in ranked if it.kind != "property" or named(it)]
            cut.unnamed = len(ranked) - len(kept)
            ranked = kept
        cost = [measure(it.text) + 1 for it in ranked]
        room = budget - (min(note, budget // 4) if sum(cost) > budget or cut.unnamed else 0)
        chosen: dict[int, ContextItem] = {}
        used = 0
        for i, it in enumerate(ranked):  # query results and failures are never dropped
            if it.kind in ALWAYS:
                short, rows_cut = _fit_query(it, max(room - used, 0), measure)
                chosen[i] = short
                used += measure(short.text) + 1
                if rows_cut:
                    cut.rows[it.tool] = cut.rows.get(it.tool, 0) + rows_cut
        best: dict[str, int] = {}
        for i, it in enumerate(ranked):
            best.setdefault(it.tool, i)
        for i in sorted(best.values()) + list(range(len(ranked))):
            if i in chosen or used + cost[i] > room:
                continue
            chosen[i] = ranked[i]
            used += cost[i]
        for i, it in enumerate(ranked):
            if i not in chosen:
                cut.items[it.tool] = cut.items.get(it.tool, 0) + 1
        return Selection([chosen[i] for i in sorted(chosen)],
                         cut if (cut.items or cut.rows or cut.unnamed) else None)

    def for_prompt(self, chars: int) -> Selection:
        """What an LLM prompt shows of the context: :meth:`select` within ``chars``
        characters, property values only of properties the question names (by the question's
        similarity service, at least :data:`NAMED_PROPERTY`)."""
        sim = getattr(self.relevance, "similarity", None)
        return self.select(chars=chars, named=None if sim is None else _naming(sim))

    def render(self, token_budget: int | None = None) -> str:
        """:meth:`select` as text (:meth:`Selection.render`)."""
        return self.select(token_budget).render()


def _naming(sim: Similarity) -> Callable[[ContextItem], bool]:
    """Whether the question names a property value's property: its name says a question word
    well (:data:`NAMED_PROPERTY`), or half as well when the value is of the kind the question
    writes (a date or year beside a date or year in the question, a number beside a number or a
    "how many")."""
    analysis = sim.analysis
    has_date = any(len(n) == 4 or "-" in n or "/" in n for n in analysis.numbers)
    has_number = bool(analysis.numbers) or analysis.kind in ("count", "number")

    def named(item: ContextItem) -> bool:
        prop = str(item.metadata.get("property") or "")
        score = sim.relation_score(prop) if prop else 0.0
        if score >= NAMED_PROPERTY:
            return True
        kind = item.metadata.get("value_type")
        return score >= NAMED_PROPERTY - 0.25 and (
            (kind in ("date", "year") and has_date) or (kind == "number" and has_number))

    return named


def stable_rows(item: ContextItem) -> ContextItem:
    """A query result with its rows in an order the store cannot change: without ORDER BY all
    rows are sorted, with one the rows that tie on its keys are (a store may return such rows
    in any order — Kùzu does, from run to run — and the prompt must not change with it). The
    sort keys are the ones recorded when the query ran; the text is rendered again from the
    rows. Items of another shape are returned as they are."""
    if item.kind != "query" or item.rows is None or len(item.rows.rows) < 2 or not item.query:
        return item
    keys = item.rows.sort_columns
    if keys is None:
        return item
    rows = item.rows.rows
    group = [tuple(repr(r[k]) for k in keys) for r in rows]
    first: dict[tuple[str, ...], int] = {}
    for i, g in enumerate(group):
        first.setdefault(g, i)
    shown = [format_row(r) for r in rows]
    # groups keep their place (the ORDER BY's), rows inside a group by their text
    order = sorted(range(len(rows)), key=lambda i: (first[group[i]], shown[i], repr(rows[i])))
    if order == list(range(len(rows))):
        return item
    result = item.rows.model_copy(update={"rows": tuple(rows[i] for i in order)})
    return item.model_copy(update={"text": query_text(item.query, result), "rows": result})


def _fit_query(item: ContextItem, max_tokens: int,
               measure: Callable[[str], int] = count_tokens) -> tuple[ContextItem, int]:
    """A query item within ``max_tokens`` (as ``measure`` counts): its last rows left out,
    with a mark."""
    if measure(item.text) + 1 <= max_tokens or item.rows is None or not item.query:
        return item, 0
    rows = list(item.rows.rows)
    cut = 0
    text = item.text
    while rows and measure(text) + 1 > max_tokens:
        rows.pop()
        cut += 1
        shown = item.rows.model_copy(update={"rows": tuple(rows)})
        text = query_text(item.query, shown, rows_left_out=cut)
    if cut == 0:
        return item, 0
    meta = {**item.metadata, "rows_cut": cut}
    return item.model_copy(update={"text": text, "metadata": meta}), cut


# --------------------------------------------------------------------------- support


@dataclass
class Support:
    """Which answers the context names: ``answers`` (as the graph writes them) with their node
    ids, and the ones it does not name."""

    answers: list[str] = field(default_factory=list)
    answer_ids: dict[str, list[str]] = field(default_factory=dict)
    unsupported: list[str] = field(default_factory=list)


def supported_answers(answers: Sequence[str], items: Sequence[ContextItem],
                      store: GraphStore, profile: Any = None) -> Support:
    """Check each answer against the items: the display name or id of a node an item mentions
    (path nodes, triplet ends, listed nodes), or a cell of a query result (a node cell by its
    display name or key under ``profile``; the node ids the query tool found for a cell,
    ``metadata["cell_ids"]``, come with it). A match is exact after normalisation (case,
    accents, punctuation) — never a guess."""
    from byokg.graph.profile import display_names

    node_ids = list(dict.fromkeys(n for it in items for n in item_nodes(it)))
    names = display_names(store, node_ids) if node_ids else {}
    by_key: dict[str, list[tuple[str, str | None]]] = {}
    for n in node_ids:
        shown = names.get(n) or n
        for key in {normalize(shown), normalize(n)}:
            if key:
                by_key.setdefault(key, []).append((shown, n))
    for it in items:
        if it.rows is not None:
            cell_ids = it.metadata.get("cell_ids") or {}
            for row in it.rows.rows:
                for v in row:
                    text = cell_name(v, profile)
                    if text is None:
                        continue
                    key = normalize(text)
                    by_key.setdefault(key, []).append((text, None))
                    by_key[key].extend((text, i) for i in cell_ids.get(text, ()))
    out = Support()
    for a in answers:
        hits = by_key.get(normalize(a)) if normalize(a) else None
        if not hits:
            out.unsupported.append(a)
            continue
        shown = hits[0][0]
        if shown not in out.answer_ids:
            out.answers.append(shown)
            out.answer_ids[shown] = []
        ids = out.answer_ids[shown]
        ids.extend(n for _s, n in hits if n is not None and n not in ids)
    out.answer_ids = {k: v for k, v in out.answer_ids.items() if v}
    return out


def item_nodes(item: ContextItem) -> list[str]:
    """Every node id an item mentions: its nodes, its path's nodes, its triplets' ends."""
    nodes = list(item.nodes)
    if item.path is not None:
        nodes.extend(item.path.nodes)
    for t in item.triplets:
        nodes.extend((t.head, t.tail))
    return list(dict.fromkeys(nodes))


# --------------------------------------------------------------------------- tail ranking


def tail_ranker(analysis: Any, answer_ids: Iterable[str] = ()) -> Callable[[str, str], float]:
    """Score for a node shown in a list (the tails of one head and relation): a linked draft
    answer first, then labels sharing the question's content words or numbers."""
    answers = set(answer_ids)
    terms = {t for t, w in analysis.terms.items() if w >= 1.0} if analysis is not None else set()
    numbers = {normalize(n) for n in analysis.numbers} if analysis is not None else set()

    def rank(node: str, label: str) -> float:
        s = 2.0 if node in answers else 0.0
        toks = normalize(label).split()
        if terms:
            s += len(terms & {stem(w) for w in toks}) / len(terms)
        if numbers and numbers & set(toks):
            s += 0.5
        return round(s, 4)

    return rank


# --------------------------------------------------------------------------- building items
# The one place graph facts become ContextItems: triplets (tails of one head and relation merged
# into a line) and paths, verbalised under a token budget, with their provenance.


def triplet_items(
    store: GraphStore,
    triplets: Sequence[Triplet],
    *,
    tool: str,
    iteration: int,
    seeds: Iterable[str] = (),
    max_tokens: int,
    max_tails: int,
    score: Callable[[list[int]], float | None] | None = None,
    metadata: Callable[[list[int]], dict[str, Any]] | None = None,
    tail_rank: Callable[[str, str], float] | None = None,
) -> tuple[list[ContextItem], int]:
    """One item per verbalised line; ``score``/``metadata`` get the line's triplet indexes.
    ``nodes`` lists the line's nodes other than the ``seeds`` (the answer candidates);
    ``tail_rank`` orders the tails of a line (see :func:`tail_ranker`).
    Returns ``(items, omitted)`` where ``omitted`` counts triplets left out by the budget."""
    from byokg.graph.verbalize import verbalize_triplets

    triplets = list(triplets)
    verb = verbalize_triplets(store, triplets, max_tokens=max_tokens, max_tails=max_tails,
                              tail_rank=tail_rank)
    seed_set = set(seeds)
    items = []
    for line, idxs in zip(verb.lines, verb.sources, strict=True):
        ts = tuple(triplets[i] for i in idxs)
        ends = tuple(dict.fromkeys(x for t in ts for x in (t.head, t.tail) if x not in seed_set))
        items.append(ContextItem(
            text=line, tool=tool, iteration=iteration, kind="triplets", triplets=ts, nodes=ends,
            score=score(idxs) if score else None, metadata=metadata(idxs) if metadata else {},
        ))
    return items, verb.omitted


def path_items(
    store: GraphStore,
    paths: Sequence[Path],
    *,
    tool: str,
    iteration: int,
    max_tokens: int,
    scores: Sequence[float | None],
    metadata: Sequence[dict[str, Any]],
) -> tuple[list[ContextItem], int]:
    """One item per verbalised path line (identical lines merged; the first path's provenance
    kept). Returns ``(items, omitted)``."""
    from byokg.graph.verbalize import verbalize_paths

    paths = list(paths)
    verb = verbalize_paths(store, paths, max_tokens=max_tokens)
    items = []
    for line, idxs in zip(verb.lines, verb.sources, strict=True):
        p = paths[idxs[0]]
        items.append(ContextItem(
            text=line, tool=tool, iteration=iteration, score=scores[idxs[0]], kind="path", path=p,
            triplets=tuple(p.triplets()), nodes=(p.end,), metadata=metadata[idxs[0]],
        ))
    return items, verb.omitted
