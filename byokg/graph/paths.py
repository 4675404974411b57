"""Graph path primitives every backend can run: follow relation paths, shortest paths, expansion.

All three walk the graph through the batched :class:`~byokg.graph.store.GraphStore` calls only
(``neighbors`` / ``degrees``), one call per hop for the whole frontier, never one per node, so a
remote backend makes one round trip per hop. Every walk is bounded (hops, fan-out per node,
total paths/triplets, expansion budget) and says in its result when a cap cut it.

* :func:`follow_paths` walks LLM-proposed relation sequences (``rel1 -> rel2``) from linked
  nodes (paper Eq. 5), matching relation names leniently and walking a relation against its
  stored direction when it only exists that way round.
* :func:`shortest_paths` finds up to ``k`` shortest paths between question entities and draft
  answers (Eq. 6) by bidirectional BFS over both edge directions, without expanding hubs.
* :func:`expand` collects the triplets within ``hops`` of seed nodes (input of the scoring
  retrievers, Eq. 7).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import Literal

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg.contracts import Direction
from byokg.contracts import Neighborhood
from byokg.contracts import Path
from byokg.contracts import RelationPath
from byokg.contracts import Triplet
from byokg.graph.csr import CsrView
from byokg.graph.store import Capability
from byokg.graph.store import GraphStore
from byokg.graph.store import csr_view
from byokg.graph.store import has_capability
from byokg.language.text import normalize

FollowMode = Literal["auto", "forward", "either"]

__all__ = [
    "ExpandResult",
    "FollowResult",
    "PairPaths",
    "RelationMatch",
    "ShortestResult",
    "expand",
    "follow_paths",
    "resolve_relations",
    "shortest_paths",
]


# --------------------------------------------------------------------------- relation names


class RelationMatch(BaseModel):
    """How one proposed relation name was matched against the graph's relation types."""

    model_config = ConfigDict(frozen=True)

    name: str  # as proposed
    matches: tuple[str, ...] = ()  # existing relation names it resolved to
    how: str = "unknown"  # "exact" | "normalized" | "last-segment" | "unknown"
    suggestions: tuple[str, ...] = ()  # nearest existing names when unknown


class _RelationIndex:
    """Lookup tables over a set of relation names (built once per call)."""

    def __init__(self, names: Sequence[str] | set[str]) -> None:
        self.names = sorted(set(names))
        self.exact = set(self.names)
        self.by_norm: dict[str, list[str]] = {}
        self.by_last: dict[str, list[str]] = {}
        for n in self.names:
            self.by_norm.setdefault(normalize(n), []).append(n)
            self.by_last.setdefault(normalize(n.rsplit(".", 1)[-1]), []).append(n)

    def match(self, name: str, *, suggestions: int = 5) -> RelationMatch:
        if name in self.exact:
            return RelationMatch(name=name, matches=(name,), how="exact")
        norm = normalize(name)
        if norm and norm in self.by_norm:
            return RelationMatch(name=name, matches=tuple(self.by_norm[norm]), how="normalized")
        if norm and norm in self.by_last:  # "place_of_birth" for "people.person.place_of_birth"
            return RelationMatch(name=name, matches=tuple(self.by_last[norm]), how="last-segment")
        last = normalize(name.rsplit(".", 1)[-1])
        if last and "." in name and last in self.by_last:
            return RelationMatch(name=name, matches=tuple(self.by_last[last]), how="last-segment")
        return RelationMatch(
            name=name, how="unknown", suggestions=tuple(self.nearest(name, suggestions))
        )

    def nearest(self, name: str, k: int) -> list[str]:
        if not self.names or k <= 0:
            return []
        from rapidfuzz import fuzz
        from rapidfuzz import process
        from rapidfuzz import utils

        hits = process.extract(
            name, self.names, scorer=fuzz.WRatio, processor=utils.default_process, limit=k
        )
        return [h[0] for h in hits]


def resolve_relations(
    names: Sequence[str], existing: Sequence[str] | set[str], *, suggestions: int = 5
) -> list[RelationMatch]:
    """Match proposed relation names against ``existing``: exact, then case/punctuation-insensitive
    on the whole name, then on its last dotted segment (Freebase ``people.person.place_of_birth``);
    otherwise unknown, with the ``suggestions`` nearest existing names (rapidfuzz WRatio)."""
    index = _relation_index(frozenset(existing))
    return [index.match(n, suggestions=suggestions) for n in names]


@functools.lru_cache(maxsize=16)
def _relation_index(names: frozenset[str]) -> _RelationIndex:
    return _RelationIndex(names)


# --------------------------------------------------------------------------- follow_paths


class FollowResult(BaseModel):
    """Paths found by :func:`follow_paths`.

    ``paths`` are the complete walks of the relation path; when the walk stopped early (an
    unknown relation or no edge at some hop) they are the walks up to the last hop that had
    edges, ``hops_completed`` says how far, and ``reached`` is empty.
    """

    relation_path: tuple[str, ...] = ()
    paths: list[Path] = Field(default_factory=list)
    reached: list[str] = Field(default_factory=list)  # end nodes of complete paths, in order
    truncated: bool = False  # a fan-out or the max_paths cap cut results
    unknown_relations: dict[str, list[str]] = Field(default_factory=dict)  # name -> nearest names
    resolved: list[RelationMatch] = Field(default_factory=list)  # one per hop
    inverted_hops: list[int] = Field(default_factory=list)  # hops walked against stored direction
    hops_completed: int = 0
    capped_nodes: list[str] = Field(default_factory=list)  # nodes whose fan-out was cut
    native: bool = False  # the store's own follow_path ran it
    notes: list[str] = Field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.hops_completed == len(self.relation_path) and bool(self.paths)


def _as_relations(relation_path: RelationPath | Sequence[str] | str) -> tuple[str, ...]:
    if isinstance(relation_path, RelationPath):
        return relation_path.relations
    if isinstance(relation_path, str):
        return RelationPath.parse(relation_path).relations
    return tuple(relation_path)


def _relation_names(store: GraphStore) -> list[str]:
    return list(store.relation_types())


# a partial walk: (nodes, relations, inverted per hop); Path objects are built at the end
_Walk = tuple[tuple[str, ...], tuple[str, ...], tuple[bool, ...]]


def follow_paths(
    store: GraphStore,
    sources: Sequence[str],
    relation_path: RelationPath | Sequence[str] | str,
    *,
    fanout_per_hop: int = 50,
    max_paths: int = 200,
    schema_relations: set[str] | Sequence[str] | None = None,
    mode: FollowMode = "auto",
) -> FollowResult:
    """Walk ``relation_path`` breadth-first from ``sources``; one ``neighbors()`` call per hop.

    :param fanout_per_hop: edges followed per frontier node per hop (``limit_per_node``).
    :param max_paths: cap on paths kept after every hop (so also on the frontier size).
    :param schema_relations: the graph's relation names (saves a ``relation_types()`` call).
    :param mode: ``"auto"`` follows a relation in stored direction and, at a node where it only
        exists the other way round, walks it inverted (``Path.inverted``); ``"forward"`` never
        inverts; ``"either"`` follows both directions at every node. A :class:`RelationPath` with
        ``inverted`` flags fixes each hop's direction instead.
    """
    if fanout_per_hop < 1 or max_paths < 1:
        raise ValueError("fanout_per_hop and max_paths must be >= 1")
    if mode not in ("auto", "forward", "either"):
        raise ValueError(f"mode must be auto, forward or either, not {mode!r}")
    rels = _as_relations(relation_path)
    fixed = relation_path.inverted if isinstance(relation_path, RelationPath) else ()
    result = FollowResult(relation_path=rels)
    srcs = list(dict.fromkeys(sources))
    if not rels:  # zero hops: the sources themselves
        result.paths = [Path(nodes=(s,)) for s in srcs]
        result.reached = srcs
        result.notes.append("empty relation path: the sources themselves")
        return result
    existing = schema_relations if schema_relations is not None else _relation_names(store)
    hops = _resolve_hops(result, rels, existing)
    if not srcs:
        result.notes.append("no source nodes")
        return result
    if not hops:
        return result
    native = getattr(store, "follow_path", None)
    if has_capability(store, Capability.FOLLOW_PATH) and callable(native) and not fixed:
        paths = list(
            native(srcs, hops, limit_per_node=fanout_per_hop, max_paths=max_paths, mode=mode)
        )
        result.native = True
        _finish_follow(result, paths, len(hops), truncated=len(paths) >= max_paths)
        return result
    _walk_hops(store, result, srcs, hops, fanout_per_hop=fanout_per_hop, max_paths=max_paths,
               mode=mode, fixed=fixed)
    return result


def _resolve_hops(
    result: FollowResult, rels: tuple[str, ...], existing: set[str] | Sequence[str]
) -> list[list[str]]:
    """Stored relation names per hop, up to the first relation the graph does not have (which
    goes into ``result.unknown_relations`` with its nearest names)."""
    result.resolved = resolve_relations(rels, existing)
    hops: list[list[str]] = []
    for m in result.resolved:
        if m.how == "unknown":
            result.unknown_relations[m.name] = list(m.suggestions)
            result.notes.append(
                f"relation {m.name!r} (hop {len(hops)}) is not in the graph; "
                f"nearest: {', '.join(m.suggestions)}"
            )
            break
        hops.append(list(m.matches))
        if m.how != "exact":
            result.notes.append(f"relation {m.name!r} matched {', '.join(m.matches)} ({m.how})")
    return hops


def _walk_hops(
    store: GraphStore, result: FollowResult, srcs: list[str], hops: list[list[str]], *,
    fanout_per_hop: int, max_paths: int, mode: FollowMode, fixed: Sequence[bool] = (),
) -> None:
    """The protocol-only walk: one batched ``neighbors()`` call per hop for the frontier;
    ``fixed`` (a RelationPath's inverted flags) sets each hop's direction instead of ``mode``."""
    walks: list[_Walk] = [((s,), (), ()) for s in srcs]
    truncated = False
    capped: dict[str, None] = {}
    hop_done = 0
    for hop, names in enumerate(hops):
        frontier = list(dict.fromkeys(w[0][-1] for w in walks))
        if fixed:
            direction = Direction.IN if fixed[hop] else Direction.OUT
        else:
            direction = Direction.OUT if mode == "forward" else Direction.BOTH
        nbh = store.neighbors(
            frontier,
            direction=direction,
            relations=names,
            limit_per_node=fanout_per_hop,
        )
        steps = _steps(frontier, nbh, set(names), mode, capped,
                       inverted=fixed[hop] if fixed else None)
        longer = (
            (nodes + (nxt,), rs + (rel,), inv + (flipped,))
            for nodes, rs, inv in walks
            for nxt, rel, flipped in steps.get(nodes[-1], ())
        )
        new = list(itertools.islice(longer, max_paths + 1))
        if len(new) > max_paths:
            new.pop()
            truncated = True
            result.notes.append(f"max_paths={max_paths} reached at hop {hop}")
        if not new:
            result.notes.append(
                f"no edge {' | '.join(names)} from the {len(frontier)} node(s) at hop {hop}; "
                f"returning the walks up to hop {hop}"
            )
            break
        walks = new
        hop_done = hop + 1
    if capped:
        result.notes.append(f"fan-out cap {fanout_per_hop} cut {len(capped)} node(s)")
    result.capped_nodes = list(capped)
    paths = [Path(nodes=n, relations=r, inverted=i) for n, r, i in walks] if hop_done else []
    _finish_follow(result, paths, hop_done, truncated=truncated or bool(capped))


def _steps(
    frontier: list[str], nbh: dict[str, Neighborhood], wanted: set[str], mode: FollowMode,
    capped: dict[str, None], *, inverted: bool | None = None,
) -> dict[str, list[tuple[str, str, bool]]]:
    """Per frontier node, its next steps ``(node, relation, inverted)`` over ``wanted``
    relations (only against, or only along, the stored direction when ``inverted`` is given);
    nodes whose neighbourhood was cut go into ``capped``."""
    steps: dict[str, list[tuple[str, str, bool]]] = {}
    for node, hood in _present(frontier, nbh, capped):
        out_steps, in_steps = [], []
        for t in hood.triplets:
            if t.relation not in wanted:
                continue
            if t.head == node:
                out_steps.append((t.tail, t.relation, False))
            if t.tail == node and t.head != node:
                in_steps.append((t.head, t.relation, True))
        if inverted is not None:
            steps[node] = in_steps if inverted else out_steps
        elif mode == "forward":
            steps[node] = out_steps
        elif mode == "either":
            steps[node] = out_steps + in_steps
        else:
            steps[node] = out_steps or in_steps
    return steps


def _present(
    frontier: list[str], nbh: dict[str, Neighborhood], capped: dict[str, None]
) -> Iterator[tuple[str, Neighborhood]]:
    """``(node, neighbourhood)`` of the frontier nodes the store answered for, in order; a
    node whose neighbourhood a cap cut goes into ``capped``."""
    for node in frontier:
        hood = nbh.get(node)
        if hood is None:
            continue
        if hood.truncated:
            capped[node] = None
        yield node, hood


def _finish_follow(
    result: FollowResult, paths: list[Path], hops_done: int, *, truncated: bool
) -> None:
    result.paths = paths
    result.truncated = result.truncated or truncated
    result.hops_completed = hops_done if paths else 0
    full_len = len(result.relation_path)
    if paths and hops_done == full_len and not result.unknown_relations:
        result.reached = list(dict.fromkeys(p.end for p in paths))
    inv: set[int] = set()
    for p in paths:
        inv.update(i for i in range(p.hops) if p.is_inverted(i))
    result.inverted_hops = sorted(inv)
    if inv:
        result.notes.append(
            "walked against stored direction at hop(s) " + ", ".join(map(str, sorted(inv)))
        )


# --------------------------------------------------------------------------- shortest_paths


class PairPaths(BaseModel):
    """Shortest paths for one (source, target) pair, source first."""

    source: str
    target: str
    paths: list[Path] = Field(default_factory=list)
    hops: int | None = None  # length of the shortest paths found
    exhausted: bool = False  # searched everything within max_hops (minus capped hubs): no path
    bounded: bool = False  # stopped by the max_expansions budget
    hubs_capped: list[str] = Field(default_factory=list)
    expansions: int = 0  # edges read


class ShortestResult(BaseModel):
    pairs: list[PairPaths] = Field(default_factory=list)
    hubs_capped: list[str] = Field(default_factory=list)  # hubs seen and not expanded
    exhausted: bool = False  # every pair without a path was searched to max_hops
    bounded: bool = False  # some pair stopped on max_expansions
    native: bool = False
    neighbor_calls: int = 0
    notes: list[str] = Field(default_factory=list)

    def paths_for(self, source: str, target: str) -> list[Path]:
        for p in self.pairs:
            if p.source == source and p.target == target:
                return p.paths
        return []

    @property
    def all_paths(self) -> list[Path]:
        return [path for p in self.pairs for path in p.paths]


# A parent link: (node one step closer to this side's root, relation, inverted in s->t order).
_Link = tuple[str, str, bool]


class _Side:
    def __init__(self, root: str) -> None:
        self.depth: dict[str, int] = {root: 0}
        self.parents: dict[str, list[_Link]] = {root: []}
        self.frontier: list[str] = [root]
        self.level = 0
        self.skipped: int | None = None  # shallowest depth with a node left unexpanded

    @property
    def open(self) -> int:
        """Depth up to which this side's search is complete."""
        return self.level if self.skipped is None else min(self.level, self.skipped)


class _PairState:
    def __init__(self, source: str, target: str) -> None:
        self.res = PairPaths(source=source, target=target)
        self.fwd = _Side(source)
        self.bwd = _Side(target)
        self.done = source == target
        self.hubs: dict[str, None] = {}
        self.meet: list[str] = []
        if self.done:
            self.res.paths = [Path(nodes=(source,))]
            self.res.hops = 0


@dataclass(frozen=True)
class _Limits:
    """The bounds of one shortest-path search (see :func:`shortest_paths`)."""

    max_hops: int
    k: int
    hub_degree: int
    max_expansions: int


def shortest_paths(
    store: GraphStore,
    pairs: Sequence[tuple[str, str]],
    *,
    max_hops: int = 3,
    k: int = 3,
    hub_degree: int = 2000,
    max_expansions: int = 20_000,
) -> ShortestResult:
    """Up to ``k`` shortest paths (both edge directions) per ``(source, target)`` pair.

    Bidirectional BFS, bounded by ``max_hops`` and by ``max_expansions`` edges read per pair.
    All pairs advance together: each round makes one ``degrees()`` and one ``neighbors()`` call
    for every pair's chosen side. Nodes with more than ``hub_degree`` edges are never expanded
    but still end or join paths; they are listed in ``hubs_capped``. Stores declaring
    ``shortest_path`` answer natively; stores declaring ``csr`` (the in-memory backend) are
    searched the same way over their arrays (:class:`~byokg.graph.csr.CsrView`).
    """
    if max_hops < 0 or k < 1:
        raise ValueError("max_hops must be >= 0 and k >= 1")
    pairs = list(dict.fromkeys((str(s), str(t)) for s, t in pairs))
    native = getattr(store, "shortest_paths", None)
    if has_capability(store, Capability.SHORTEST_PATH) and callable(native):
        found = native(pairs, max_hops=max_hops, k=k)
        out = ShortestResult(native=True)
        for s, t in pairs:
            ps = list(found.get((s, t), []))[:k]
            out.pairs.append(
                PairPaths(
                    source=s, target=t, paths=ps, hops=min((p.hops for p in ps), default=None)
                )
            )
        return out
    limits = _Limits(max_hops, k, hub_degree, max_expansions)
    view = csr_view(store)
    if view is not None:
        return _shortest_csr(view, pairs, limits)
    return _shortest_generic(store, pairs, limits)


# One planned expansion: the pair, its side, forward?, the frontier nodes to expand now.
_Plan = tuple[_PairState, _Side, bool, list[str]]


def _shortest_generic(
    store: GraphStore, pairs: list[tuple[str, str]], lim: _Limits
) -> ShortestResult:
    """The protocol-only search: every round one ``neighbors()`` call for all pairs' chosen
    sides, one ``degrees()`` call for the nodes newly reached."""
    result = ShortestResult()
    states = [_PairState(s, t) for s, t in pairs]
    deg: dict[str, int] = {}
    if states:
        roots = {n for st in states for n in (st.res.source, st.res.target)}
        deg.update(store.degrees(sorted(roots)))
    for st in states:
        if not st.done and lim.max_hops == 0:
            st.done = st.res.exhausted = True
    while plan := _plan_round(states, deg, lim):
        ask = sorted({n for *_, ns in plan for n in ns})
        nbh = store.neighbors(ask, direction=Direction.BOTH) if ask else {}
        if ask:
            result.neighbor_calls += 1
        fresh: set[str] = set()
        for st, side, is_fwd, ns in plan:
            _advance(st, side, is_fwd, ns, nbh, lim)
            if not st.done:
                fresh.update(n for n in side.frontier if n not in deg)
        if fresh:
            deg.update(store.degrees(sorted(fresh)))
    return _assemble(result, states)


def _plan_round(states: list[_PairState], deg: dict[str, int], lim: _Limits) -> list[_Plan]:
    """For every unfinished pair, the side to expand this round and which of its frontier
    nodes to expand (hubs and nodes past the expansion budget are left, and marked)."""
    plan: list[_Plan] = []
    for st in states:
        if st.done:
            continue
        picked = _pick_side(st, deg, lim.hub_degree, lim.max_hops)
        if picked is None:
            st.done = True
            st.res.exhausted = not st.res.bounded
            continue
        side, is_fwd = picked
        expand_now = []
        for n in side.frontier:
            d = deg.get(n, 0)
            if d > lim.hub_degree:
                st.hubs[n] = None
            elif st.res.expansions + d > lim.max_expansions:
                st.res.bounded = True
            else:
                st.res.expansions += d
                expand_now.append(n)
                continue
            side.skipped = side.level if side.skipped is None else min(side.skipped, side.level)
        plan.append((st, side, is_fwd, expand_now))
    return plan


def _advance(
    st: _PairState, side: _Side, is_fwd: bool, ns: list[str], nbh: dict[str, Neighborhood],
    lim: _Limits,
) -> None:
    """Move ``side`` one level deeper through the neighbourhoods of ``ns``; collect the paths
    when it meets the other side within ``max_hops``."""
    other = st.bwd if is_fwd else st.fwd
    nxt: dict[str, None] = {}
    lvl = side.level + 1
    for u in ns:
        hood = nbh.get(u)
        if hood is None:
            continue
        for t in hood.triplets:
            if t.head == u:
                v, stored_uv = t.tail, True
            elif t.tail == u:
                v, stored_uv = t.head, False
            else:
                continue
            if v == u:
                continue
            # in s->t order: forward side walks u->v, backward side walks v->u
            link = (u, t.relation, not stored_uv if is_fwd else stored_uv)
            dv = side.depth.get(v)
            if dv is None:
                side.depth[v] = lvl
                side.parents[v] = [link]
                nxt[v] = None
            elif dv == lvl and len(side.parents[v]) < lim.k and link not in side.parents[v]:
                side.parents[v].append(link)
    side.level = lvl
    side.frontier = list(nxt)
    meet = [v for v in side.frontier if v in other.depth and lvl + other.depth[v] <= lim.max_hops]
    if meet:
        st.meet = meet
        _collect(st, lim.k)
        st.done = True
    elif st.res.bounded:
        st.done = True


def _choose(
    f: tuple[int, int, bool, int], b: tuple[int, int, bool, int], max_hops: int
) -> bool | None:
    """True: expand forward, False: backward, None: stop. Each side is (level, open depth,
    has frontier, cost). A side may go one level deeper only while a path through it could
    still meet the other side's open boundary within ``max_hops``; the cheaper one goes."""
    can_f = f[2] and f[0] + 1 + b[1] <= max_hops
    can_b = b[2] and b[0] + 1 + f[1] <= max_hops
    if can_f and can_b:
        return f[3] <= b[3]
    if can_f or can_b:
        return bool(can_f)
    return None


def _pick_side(
    st: _PairState, deg: dict[str, int], hub_degree: int, max_hops: int
) -> tuple[_Side, bool] | None:
    def cost(side: _Side) -> int:
        return sum(d for d in (deg.get(n, 0) for n in side.frontier) if d <= hub_degree)

    f, b = st.fwd, st.bwd
    pick = _choose(
        (f.level, f.open, bool(f.frontier), cost(f)),
        (b.level, b.open, bool(b.frontier), cost(b)),
        max_hops,
    )
    if pick is None:
        return None
    return (f, True) if pick else (b, False)


def _half_walks(side: _Side, node: str, limit: int) -> Iterator[list[tuple[str, str, bool]]]:
    """Walks from ``node`` back to the side's root as a list of (next node, rel, inverted)."""
    parents = side.parents.get(node, [])
    if not parents:
        yield []
        return
    count = 0
    for prev, rel, inv in parents:
        for rest in _half_walks(side, prev, limit):
            yield [(prev, rel, inv), *rest]
            count += 1
            if count >= limit:
                return


def _collect(st: _PairState, k: int) -> None:
    best = min(st.fwd.depth[m] + st.bwd.depth[m] for m in st.meet)
    meets = [m for m in st.meet if st.fwd.depth[m] + st.bwd.depth[m] == best]
    found = _join_halves(meets, lambda m: _half_walks(st.fwd, m, k),
                         lambda m: _half_walks(st.bwd, m, k), k, str)
    st.res.paths = found
    st.res.hops = best if found else None


# a half walk from a meeting node back to one side's root: (next node, relation, inverted)
_Half = list[tuple[Any, str, bool]]


def _join_halves(
    meets: Sequence[Any], backs: Callable[[Any], Iterator[_Half]],
    aheads: Callable[[Any], Iterator[_Half]], k: int, name: Callable[[Any], str],
) -> list[Path]:
    """Up to ``k`` distinct simple paths source -> m -> target through the meeting nodes:
    ``backs(m)`` walks m back to the source, ``aheads(m)`` on to the target (inverted flags in
    source-to-target order); ``name`` turns a node into its id."""
    found: list[Path] = []
    seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for m in meets:
        for back in backs(m):
            nodes = [p for p, _, _ in reversed(back)] + [m]
            rels = [r for _, r, _ in reversed(back)]
            inv = [i for _, _, i in reversed(back)]
            for ahead in aheads(m):
                n2 = nodes + [p for p, _, _ in ahead]
                if len(set(n2)) != len(n2):
                    continue
                ids = tuple(name(x) for x in n2)
                key = (ids, tuple(rels + [r for _, r, _ in ahead]))
                if key in seen:
                    continue
                seen.add(key)
                found.append(Path(nodes=ids, relations=key[1],
                                  inverted=tuple(inv + [i for _, _, i in ahead])))
                if len(found) >= k:
                    return found
    return found


def _summarize(result: ShortestResult, hubs: dict[str, None]) -> ShortestResult:
    """Fill the result-level flags and notes from its pairs (shared by both search routes)."""
    result.hubs_capped = list(hubs)
    missing = [p for p in result.pairs if not p.paths]
    result.bounded = any(p.bounded for p in result.pairs)
    result.exhausted = all(p.exhausted for p in missing) if missing else True
    if hubs:
        result.notes.append(f"{len(hubs)} hub(s) not expanded: {', '.join(list(hubs)[:5])}")
    if result.bounded:
        result.notes.append("expansion budget reached for some pairs; paths may be missing")
    return result


def _assemble(result: ShortestResult, states: list[_PairState]) -> ShortestResult:
    hubs: dict[str, None] = {}
    for st in states:
        st.res.hubs_capped = list(st.hubs)
        hubs.update(st.hubs)
        result.pairs.append(st.res)
    return _summarize(result, hubs)


# --------------------------------------------------------------------------- expand


class ExpandResult(BaseModel):
    """Triplets within ``hops`` of the seeds, capped; ``per_hop[i]`` counts triplets added at hop i."""

    seeds: list[str] = Field(default_factory=list)
    triplets: list[Triplet] = Field(default_factory=list)
    per_hop: list[int] = Field(default_factory=list)
    truncated: bool = False
    capped_nodes: list[str] = Field(default_factory=list)  # nodes whose per_node cap cut edges
    unexpanded: int = 0  # frontier nodes left out because max_triplets was reached
    reached: list[str] = Field(default_factory=list)  # nodes touched, seeds first
    notes: list[str] = Field(default_factory=list)


def expand(
    store: GraphStore,
    seeds: Sequence[str],
    *,
    hops: int = 2,
    per_node: int = 50,
    max_triplets: int = 1000,
    relations: Sequence[str] | None = None,
    direction: Direction = Direction.BOTH,
) -> ExpandResult:
    """Triplets within ``hops`` of ``seeds``: one ``neighbors()`` call per hop.

    Every node contributes at most ``per_node`` edges (fewer when the remaining ``max_triplets``
    budget is shared by a large frontier); triplets are taken round-robin across the frontier
    so no single node eats the budget. ``relations`` filters by type (names as stored).
    """
    if hops < 0 or per_node < 1 or max_triplets < 0:
        raise ValueError("hops must be >= 0, per_node >= 1 and max_triplets >= 0")
    direction = Direction(direction)
    res = ExpandResult(seeds=list(dict.fromkeys(seeds)))
    seen_t: set[tuple[str, str, str]] = set()
    visited: dict[str, None] = dict.fromkeys(res.seeds)
    frontier = list(res.seeds)
    capped: dict[str, None] = {}
    rels = list(relations) if relations is not None else None
    for _hop in range(hops):
        remaining = max_triplets - len(res.triplets)
        if not frontier or remaining <= 0:
            if frontier and remaining <= 0:
                res.truncated = True
                res.unexpanded += len(frontier)
            break
        if len(frontier) > remaining:  # each node adds at least one new triplet, at most
            res.unexpanded += len(frontier) - remaining
            res.truncated = True
            frontier = frontier[:remaining]
        limit = min(per_node, max(1, math.ceil(2 * remaining / len(frontier))))
        nbh = store.neighbors(frontier, direction=direction, relations=rels, limit_per_node=limit)
        lists = [(n, hood.triplets) for n, hood in _present(frontier, nbh, capped)]
        frontier = _take_round_robin(res, lists, remaining, seen_t, visited)
    if capped:
        res.truncated = True
        res.notes.append(f"per-node cap cut {len(capped)} node(s)")
    if res.unexpanded:
        res.notes.append(f"max_triplets={max_triplets} left {res.unexpanded} node(s) unexpanded")
    res.capped_nodes = list(capped)
    res.reached = list(visited)
    return res


def _take_round_robin(
    res: ExpandResult, lists: list[tuple[str, Sequence[Triplet]]], remaining: int,
    seen_t: set[tuple[str, str, str]], visited: dict[str, None],
) -> list[str]:
    """Add up to ``remaining`` new triplets to ``res``, one per node in turn (first triplets
    of every node, then second ones, …); returns the newly reached nodes (the next frontier)."""
    added = 0
    nxt: dict[str, None] = {}
    depth = 0
    while added < remaining:
        progressed = False
        for n, ts in lists:
            if depth >= len(ts):
                continue
            progressed = True
            t = ts[depth]
            if t.key in seen_t:
                continue
            if added >= remaining:
                res.truncated = True
                break
            seen_t.add(t.key)
            res.triplets.append(t)
            added += 1
            other = t.tail if t.head == n else t.head
            if other not in visited:
                visited[other] = None
                nxt[other] = None
        if not progressed:
            break
        depth += 1
    if added >= remaining and any(depth < len(ts) for _, ts in lists):
        res.truncated = True
    res.per_hop.append(added)
    return list(nxt)


# --------------------------------------------------------------------------- array fast path
# A store declaring the ``csr`` capability (the in-memory backend) hands over its adjacency
# arrays (byokg.graph.csr.CsrView). Reading them directly avoids building a Triplet per edge read;
# the search is the same bidirectional BFS as _shortest_generic, and returns the same paths.


class _CsrSide:
    def __init__(self, root: int, n: int) -> None:
        import numpy as np

        self.dist = np.full(n, -1, dtype=np.int16) if n < 2_000_000 else None
        self.seen: dict[int, int] = {root: 0}
        if self.dist is not None:
            self.dist[root] = 0
        self.frontier = np.array([root], dtype=np.int64)
        self.level = 0
        # per level: (child, parent, edge, stored_parent_to_child) arrays of the first links
        self.links: list[tuple[Any, Any, Any, Any]] = [()]  # type: ignore[list-item]
        self.skipped: int | None = None

    def skip(self, depth: int) -> None:
        self.skipped = depth if self.skipped is None else min(self.skipped, depth)

    @property
    def open(self) -> int:
        return self.level if self.skipped is None else min(self.level, self.skipped)

    def state(self, g: CsrView, hub_degree: int) -> tuple[int, int, bool, int]:
        """(level, open depth, has frontier, cost) as :func:`_choose` reads a side; the cost
        is the edge count of the frontier's non-hub nodes."""
        cost = 0
        if len(self.frontier):
            d = g.degree(self.frontier)
            cost = int(d[d <= hub_degree].sum())
        return self.level, self.open, len(self.frontier) > 0, cost

    def unseen_or_at(self, nodes: Any, lvl: int) -> Any:
        """Mask of ``nodes`` this side has not reached, or reached at ``lvl`` (more links)."""
        import numpy as np

        if self.dist is not None:
            d = self.dist[nodes]
            return (d < 0) | (d == lvl)
        return np.fromiter((self.seen.get(v, lvl) == lvl for v in nodes.tolist()), bool,
                           len(nodes))

    def advance(self, links: tuple[Any, Any, Any, Any], lvl: int) -> None:
        """Record the level's links ``(child, parent, edge, stored)``; the children become
        the frontier."""
        import numpy as np

        new_nodes = np.unique(links[0])
        if self.dist is not None:
            self.dist[new_nodes] = lvl
        for v in new_nodes.tolist():
            self.seen[v] = lvl
        self.links.append(links)
        self.level = lvl
        self.frontier = new_nodes


def _in_side(side: _CsrSide, nodes: Any) -> Any:
    """The ``nodes`` (int array) that ``side`` has seen."""
    import numpy as np

    if side.dist is not None:
        return nodes[side.dist[nodes] >= 0]
    return np.array([v for v in nodes.tolist() if v in side.seen], dtype=np.int64)


def _shortest_csr(g: CsrView, pairs: list[tuple[str, str]], lim: _Limits) -> ShortestResult:
    result = ShortestResult()
    for s, t in pairs:
        res = PairPaths(source=s, target=t)
        result.pairs.append(res)
        si, ti = g.index.get(s), g.index.get(t)
        if s == t and si is not None:
            res.paths, res.hops = [Path(nodes=(s,))], 0
        elif si is None or ti is None:
            res.exhausted = True
            missing = [x for x, i in ((s, si), (t, ti)) if i is None]
            result.notes.append(f"not in the graph: {', '.join(missing)}")
        elif lim.max_hops == 0:
            res.exhausted = True
        else:
            _csr_search(g, res, si, ti, lim, result)
    return _assemble_csr(result)


def _csr_search(
    g: CsrView, res: PairPaths, si: int, ti: int, lim: _Limits, result: ShortestResult
) -> None:
    """Bidirectional BFS for one pair over the arrays, the cheaper side first; fills ``res``."""
    fwd, bwd = _CsrSide(si, len(g.ids)), _CsrSide(ti, len(g.ids))
    hubs: dict[int, None] = {}
    meet = None
    while True:
        pick = _choose(fwd.state(g, lim.hub_degree), bwd.state(g, lim.hub_degree), lim.max_hops)
        if pick is None:
            res.exhausted = not res.bounded
            break
        side, other = (fwd, bwd) if pick else (bwd, fwd)
        result.neighbor_calls += 1
        meet = _csr_step(g, side, other, res, hubs, lim)
        if meet is not None or res.bounded:
            break
    res.hubs_capped = [g.ids[h] for h in hubs]
    if meet is not None:
        _collect_csr(g, res, fwd, bwd, meet, lim.k)


def _csr_step(
    g: CsrView, side: _CsrSide, other: _CsrSide, res: PairPaths, hubs: dict[int, None],
    lim: _Limits,
) -> Any:
    """Expand ``side``'s frontier one level (hubs and nodes past the budget left out and
    marked); the int ids where it meets ``other`` within ``max_hops``, or None."""
    import numpy as np

    front = side.frontier
    d = g.degree(front)
    hub_mask = d > lim.hub_degree
    for h in front[hub_mask].tolist():
        hubs[h] = None
    front, d = front[~hub_mask], d[~hub_mask]
    allowed = np.cumsum(d) + res.expansions <= lim.max_expansions
    if not allowed.all():
        res.bounded = True
        front, d = front[allowed], d[allowed]
    if hub_mask.any() or res.bounded:
        side.skip(side.level)
    res.expansions += int(d.sum())
    edges, owner, stored, nbr = g.edges_of(front)
    lvl = side.level + 1
    keep = (nbr != owner) & side.unseen_or_at(nbr, lvl)
    side.advance((nbr[keep], owner[keep], edges[keep], stored[keep]), lvl)
    hit = [
        v for v in _in_side(other, side.frontier).tolist() if lvl + other.seen[v] <= lim.max_hops
    ]
    return np.array(hit, dtype=np.int64) if hit else None


def _csr_parents(
    g: CsrView, side: _CsrSide, node: int, lvl: int, k: int
) -> list[tuple[int, str, bool]]:
    """Up to ``k`` (parent, relation, parent->node stored) links of ``node`` at ``lvl``."""
    child, parent, edge, stored = side.links[lvl]
    idx = (child == node).nonzero()[0][:k]
    return [(int(parent[i]), g.relations[g.rels[edge[i]]], bool(stored[i])) for i in idx]


def _csr_half(
    g: CsrView, side: _CsrSide, node: int, lvl: int, k: int
) -> Iterator[list[tuple[int, str, bool]]]:
    if lvl == 0:
        yield []
        return
    count = 0
    for prev, rel, stored in _csr_parents(g, side, node, lvl, k):
        for rest in _csr_half(g, side, prev, lvl - 1, k):
            yield [(prev, rel, stored), *rest]
            count += 1
            if count >= k:
                return


def _collect_csr(
    g: CsrView, res: PairPaths, fwd: _CsrSide, bwd: _CsrSide, meet: Any, k: int
) -> None:
    meet_nodes = [m for m in meet.tolist() if m in fwd.seen and m in bwd.seen]
    # an unexpanded hub on the other side can meet at a shallower depth: take the minimum
    best = min((fwd.seen[m] + bwd.seen[m] for m in meet_nodes), default=0)
    meets = [m for m in meet_nodes if fwd.seen[m] + bwd.seen[m] == best]

    def backs(m: int) -> Iterator[_Half]:
        # m -> source; stored means parent->child (source side towards m): inverted if not
        for walk in _csr_half(g, fwd, m, fwd.seen[m], k):
            yield [(p, r, not stored) for p, r, stored in walk]

    def aheads(m: int) -> Iterator[_Half]:
        # m -> target; stored means parent->child, i.e. target side -> m: inverted if so
        return _csr_half(g, bwd, m, bwd.seen[m], k)

    found = _join_halves(meets, backs, aheads, k, g.ids.__getitem__)
    res.paths = found
    res.hops = best if found else None


def _assemble_csr(result: ShortestResult) -> ShortestResult:
    hubs: dict[str, None] = {}
    for p in result.pairs:
        hubs.update(dict.fromkeys(p.hubs_capped))
    return _summarize(result, hubs)
