"""Turn triplets and paths into prompt text under one token budget (``byokg.language.text.count_tokens``).

Formats (one fact per line):

* triplets: ``head -> relation -> tail``; tails sharing head and relation are merged,
  ``head -> relation -> t1 | t2 | t3 (+4 more)`` (at most ``max_tails`` shown: the most
  relevant to the question when the caller passes a ``tail_rank``, ties by name — never the
  store's order).
* paths: ``a -> r1 -> b -> r2 -> c``. A hop walked against the stored direction is written
  with reversed arrows, ``a <- r1 <- b``, so the line still reads left to right along the walk
  while every arrow points the way the graph stores the edge (here ``b -r1-> a``).

Nodes appear by display name where they have one. CVT-style nodes (Freebase ``m.``/``g.`` ids, or
nodes without a name) are shown with a short one-hop description,
``m.0abc (spouse: June Carter; from: 1968)``, all looked up in two batched store calls.
The returned text never exceeds ``max_tokens``; lines that do not fit are counted in
``omitted``.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence

from pydantic import BaseModel
from pydantic import Field

from byokg.contracts import Direction
from byokg.contracts import Path
from byokg.contracts import Triplet
from byokg.graph.profile import display_names
from byokg.graph.profile import is_unnamed
from byokg.graph.store import GraphStore
from byokg.language.text import count_tokens

__all__ = ["Verbalized", "is_cvt_id", "node_labels", "verbalize_paths", "verbalize_triplets"]

DESCRIPTION_FACTS = 3  # facts in a CVT description
DESCRIPTION_FETCH = 12  # edges read per CVT node for its description


class Verbalized(BaseModel):
    """Verbalizer output. ``sources[i]`` lists the input indexes that line ``i`` covers."""

    text: str = ""
    lines: list[str] = Field(default_factory=list)
    sources: list[list[int]] = Field(default_factory=list)
    used_tokens: int = 0
    omitted: int = 0  # input items (triplets / paths) not in the text


def is_cvt_id(node_id: str) -> bool:
    """Freebase-style machine id (``m.0abc``, ``g.11b…``): a CVT or unnamed node."""
    return is_unnamed(node_id)


def _short(relation: str) -> str:
    return relation.rsplit(".", 1)[-1]


def _display(store: GraphStore, ids: Sequence[str]) -> dict[str, str | None]:
    """Display name per id, None when the node has no name of its own (one batched call)."""
    return display_names(store, ids, missing_as_id=False)


def node_labels(
    store: GraphStore,
    ids: Iterable[str],
    *,
    exclude: dict[str, set[str]] | None = None,
    describe: bool = True,
) -> dict[str, str]:
    """Label per node id: its display name, or for a CVT-style node ``id (rel: x; rel: y)``.

    ``exclude[cvt]`` names neighbours left out of that node's description (the ones the line
    already shows). Batched store calls only: names, then (when there are CVT nodes) their
    neighbourhoods, their neighbours' names and their properties.
    """
    ids = list(dict.fromkeys(ids))
    names = _display(store, ids)
    labels = {i: (names.get(i) or i) for i in ids}
    if not describe:
        return labels
    cvts = [i for i in ids if is_cvt_id(labels[i]) or names.get(i) is None]
    if not cvts:
        return labels
    hoods = store.neighbors(cvts, direction=Direction.BOTH, limit_per_node=DESCRIPTION_FETCH)
    props = _scalar_properties(store, cvts)
    others = {t.tail if t.head == c else t.head for c in cvts for t in _triplets(hoods, c)}
    other_names = _display(store, [o for o in others if o not in names])
    other_names.update(names)
    exclude = exclude or {}
    for c in cvts:
        facts: list[str] = []
        skip = set(exclude.get(c, set()))
        # by relation and neighbour name, not the store's order: the same text in every run
        near = sorted(_triplets(hoods, c), key=lambda t: (
            t.relation, t.head != c, other_names.get(t.tail if t.head == c else t.head) or "",
            t.tail if t.head == c else t.head))
        for t in near:
            out = t.head == c
            other = t.tail if out else t.head
            if other in skip or other == c:
                continue
            skip.add(other)  # one fact per neighbour
            value = other_names.get(other) or other
            facts.append(f"{_short(t.relation)}{'' if out else ' of'}: {value}")
            if len(facts) >= DESCRIPTION_FACTS:
                break
        facts.extend(props.get(c, [])[: max(0, DESCRIPTION_FACTS + 2 - len(facts))])
        if facts:
            labels[c] = f"{labels[c]} ({'; '.join(facts)})"
    return labels


def _scalar_properties(store: GraphStore, ids: Sequence[str]) -> dict[str, list[str]]:
    """``key: value`` strings of each node's scalar properties (one batched get_nodes call)."""
    out: dict[str, list[str]] = {}
    for nid, node in store.get_nodes(list(ids)).items():
        if node is None:
            continue
        vals = [
            f"{k}: {v}"
            for k, v in sorted(node.properties.items())
            if isinstance(v, str | int | float) and not isinstance(v, bool) and k != "name"
        ]
        if vals:
            out[nid] = vals[:DESCRIPTION_FACTS]
    return out


def _triplets(hoods: dict, node: str) -> tuple[Triplet, ...]:
    hood = hoods.get(node)
    return hood.triplets if hood is not None else ()


class _Budget:
    """Adds lines while the joined text stays within ``max_tokens`` (checked with count_tokens)."""

    def __init__(self, max_tokens: int) -> None:
        self.max_tokens = max_tokens
        self.lines: list[str] = []
        self.sources: list[list[int]] = []
        self._chars = 0
        self._words = 0

    def _estimate(self, line: str) -> int:
        chars = self._chars + len(line) + (1 if self.lines else 0)
        words = self._words + len(line.split())
        return max((chars + 3) // 4, words) if chars else 0

    def try_add(self, line: str, source: list[int]) -> bool:
        if self._estimate(line) > self.max_tokens:
            return False
        text = "\n".join([*self.lines, line])
        if count_tokens(text) > self.max_tokens:  # the real counter has the last word
            return False
        self._chars += len(line) + (1 if self.lines else 0)
        self._words += len(line.split())
        self.lines.append(line)
        self.sources.append(source)
        return True

    def result(self, total_items: int) -> Verbalized:
        text = "\n".join(self.lines)
        shown = {i for s in self.sources for i in s}
        return Verbalized(
            text=text,
            lines=list(self.lines),
            sources=[list(s) for s in self.sources],
            used_tokens=count_tokens(text),
            omitted=total_items - len(shown),
        )


def verbalize_triplets(
    store: GraphStore,
    triplets: Sequence[Triplet],
    *,
    max_tokens: int,
    max_tails: int = 5,
    labels: dict[str, str] | None = None,
    tail_rank: Callable[[str, str], float] | None = None,
) -> Verbalized:
    """``head -> relation -> t1 | t2 (+N more)`` lines, in order of first appearance.

    The tails of a line are ordered by ``tail_rank(node_id, label)`` (highest first), ties by
    label and id, so the ``max_tails`` shown are the most relevant and never depend on the
    store's result order. Lines that do not fit are skipped (a shorter later line may still
    fit); a merged line that does not fit is retried with fewer tails. ``labels`` overrides
    node display (id -> text).
    """
    if max_tokens < 0:
        raise ValueError("max_tokens must be >= 0")
    max_tails = max(1, max_tails)
    groups: dict[tuple[str, str], list[int]] = {}
    for i, t in enumerate(triplets):
        groups.setdefault((t.head, t.relation), []).append(i)
    if labels is None:
        exclude: dict[str, set[str]] = {}
        for t in triplets:
            exclude.setdefault(t.head, set()).add(t.tail)
            exclude.setdefault(t.tail, set()).add(t.head)
        labels = node_labels(
            store, [x for t in triplets for x in (t.head, t.tail)], exclude=exclude
        )
    budget = _Budget(max_tokens)
    for (head, rel), idxs in groups.items():
        tails = list(dict.fromkeys(triplets[i].tail for i in idxs))
        tails.sort(key=lambda x: (-(tail_rank(x, labels.get(x, x)) if tail_rank else 0.0),
                                  labels.get(x, x).casefold(), x))
        tail_idx = {}
        for i in idxs:
            tail_idx.setdefault(triplets[i].tail, []).append(i)
        shown = min(len(tails), max_tails)
        while shown >= 1:
            rest = len(tails) - shown
            tail_text = " | ".join(labels.get(x, x) for x in tails[:shown])
            line = f"{labels.get(head, head)} -> {rel} -> {tail_text}"
            if rest:
                line += f" (+{rest} more)"
            covered = [j for x in tails[:shown] for j in tail_idx[x]]
            if budget.try_add(line, covered):
                break
            shown -= 1
    return budget.result(len(triplets))


def path_line(path: Path, label: Callable[[str], str]) -> str:
    """``a -> r1 -> b <- r2 <- c`` (reversed arrows for inverted hops)."""
    parts = [label(path.nodes[0])]
    for i, rel in enumerate(path.relations):
        arrow = "<-" if path.is_inverted(i) else "->"
        parts.append(f"{arrow} {rel} {arrow} {label(path.nodes[i + 1])}")
    return " ".join(parts)


def verbalize_paths(
    store: GraphStore,
    paths: Sequence[Path],
    *,
    max_tokens: int,
    labels: dict[str, str] | None = None,
) -> Verbalized:
    """One line per distinct path, ``a -> r1 -> b -> r2 -> c``, within ``max_tokens``."""
    if max_tokens < 0:
        raise ValueError("max_tokens must be >= 0")
    if labels is None:
        exclude: dict[str, set[str]] = {}
        for p in paths:
            for i, n in enumerate(p.nodes):
                near = exclude.setdefault(n, set())
                if i:
                    near.add(p.nodes[i - 1])
                if i + 1 < len(p.nodes):
                    near.add(p.nodes[i + 1])
        labels = node_labels(store, [n for p in paths for n in p.nodes], exclude=exclude)
    budget = _Budget(max_tokens)
    by_line: dict[str, list[int]] = {}
    for i, p in enumerate(paths):
        by_line.setdefault(path_line(p, lambda n: labels.get(n, n)), []).append(i)
    for line, idxs in by_line.items():
        budget.try_add(line, idxs)
    return budget.result(len(paths))
