"""Merging the ContextItems of all tools and rounds into one deduplicated, budgeted context.

Two items are the same when their normalised text matches, or when they are supported by the
same set of triplets. A repeat keeps the first item's place (order is stable), unions the
provenance (``metadata["tools"]``, ``metadata["iterations"]``) and keeps the best score.
Selection for the budget ranks by score (ties: first seen), then restores first-seen order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .contracts import ContextItem, Path, Triplet
from .store import GraphStore
from .text import count_tokens, normalize

DEFAULT_SCORE = 0.5  # for items a tool did not score
AGREEMENT_BONUS = 0.1  # per extra tool that produced the same item


def item_tools(item: ContextItem) -> list[str]:
    return list(item.metadata.get("tools") or [item.tool])


def effective_score(item: ContextItem) -> float:
    base = item.score if item.score is not None else DEFAULT_SCORE
    return float(base) + AGREEMENT_BONUS * (len(item_tools(item)) - 1)


class Context:
    """The merged context of one question, across tools and rounds."""

    def __init__(self, token_budget: int = 4000) -> None:
        self.token_budget = token_budget
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
        tools = item_tools(old)
        for t in item_tools(new):
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
        for item in items:
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

    def select(self, token_budget: int | None = None) -> list[ContextItem]:
        """The best items that fit the token budget, in first-seen order."""
        budget = self.token_budget if token_budget is None else token_budget
        ranked = sorted(range(len(self._items)), key=lambda i: (-effective_score(self._items[i]), i))
        chosen: list[int] = []
        used = 0
        for i in ranked:
            cost = count_tokens(self._items[i].text) + 1
            if used + cost > budget:
                continue
            chosen.append(i)
            used += cost
        return [self._items[i] for i in sorted(chosen)]

    def dropped(self, token_budget: int | None = None) -> int:
        return len(self._items) - len(self.select(token_budget))

    def render(self, token_budget: int | None = None) -> str:
        """The selected items as text, one per line (what the LLM sees)."""
        return "\n".join(i.text for i in self.select(token_budget))


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
) -> tuple[list[ContextItem], int]:
    """One item per verbalised line; ``score``/``metadata`` get the line's triplet indexes.
    ``nodes`` lists the line's nodes other than the ``seeds`` (the answer candidates).
    Returns ``(items, omitted)`` where ``omitted`` counts triplets left out by the budget."""
    from .verbalize import verbalize_triplets

    triplets = list(triplets)
    verb = verbalize_triplets(store, triplets, max_tokens=max_tokens, max_tails=max_tails)
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
    from .verbalize import verbalize_paths

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
