"""Merging the ContextItems of all tools and rounds into one deduplicated, budgeted context.

Two items are the same when their normalised text matches, or when they are supported by the
same set of triplets. A repeat keeps the first item's place (order is stable), unions the
provenance (``metadata["tools"]``, ``metadata["iterations"]``) and keeps the best score.
Selection for the budget ranks by score (ties: first seen), then restores first-seen order.
"""

from __future__ import annotations

from collections.abc import Iterable

from .contracts import ContextItem
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
