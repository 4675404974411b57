"""GraphProfile: what byokg knows about the user's graph, computed once per graph and shared.

Per label: its size, the property that names its nodes (the display property), the key property,
and each property's type and example values; per relation type: its domain and range labels, size
and properties. Stages read the profile (schema rendering, linking, answer types, display names);
none re-derives it. :func:`get_profile` builds it once per store and run (from the store's own
catalogue, a bounded sample — never a full scan) and keeps it in the run's shared cache.

This module is also the one home of two graph-wide notions: the display name of a node
(:func:`display_names`) and whether a node is unnamed (a Freebase CVT / blank node,
:func:`is_unnamed`), which is never an answer and is described by its neighbours instead.

:func:`relation_stats` adds, on demand, how informative each relation is from a bounded sample of
edges (share of unnamed or literal-like tails, how many edges share a tail, the tails' degree):
hub relations (types, galleries, containers) and low-information ones (images, web pages) are
recognised from the graph itself, never from a list of names; :func:`relation_weights` turns
that into a down-weighting that the question's own relevance overrides.
"""

from __future__ import annotations

import math
import re
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from .contracts import GraphSchema
from .store import GraphStore

__all__ = [
    "GraphProfile",
    "LabelProfile",
    "PropertyProfile",
    "RelationProfile",
    "display_names",
    "get_profile",
    "RelationStats",
    "is_literal_like",
    "is_unnamed",
    "profile_graph",
    "relation_stats",
    "relation_weights",
]

_FROZEN = ConfigDict(frozen=True)
_UNNAMED_ID = re.compile(r"^[a-z]{1,3}\.[A-Za-z0-9_]+$")  # m.0abc, g.11b…, _.b1 style ids


class PropertyProfile(BaseModel):
    model_config = _FROZEN

    name: str
    type: str | None = None  # "string", "int", "float", "bool", "date", … (store's own names)
    examples: tuple[Any, ...] = ()


class LabelProfile(BaseModel):
    model_config = _FROZEN

    name: str
    count: int | None = None
    display: str | None = None  # property that names its nodes (None: the id is the name)
    key: str | None = None  # property that identifies its nodes
    properties: tuple[PropertyProfile, ...] = ()


class RelationProfile(BaseModel):
    model_config = _FROZEN

    name: str
    count: int | None = None
    domain: tuple[str, ...] = ()  # labels of heads
    range: tuple[str, ...] = ()  # labels of tails
    properties: tuple[PropertyProfile, ...] = ()


class GraphProfile(BaseModel):
    """See the module doc. ``uri`` names the graph it describes."""

    model_config = _FROZEN

    uri: str = ""
    labels: tuple[LabelProfile, ...] = ()
    relations: tuple[RelationProfile, ...] = ()
    seconds: float = 0.0  # time it took to build

    def label(self, name: str) -> LabelProfile | None:
        return next((lab for lab in self.labels if lab.name == name), None)

    def relation(self, name: str) -> RelationProfile | None:
        return next((r for r in self.relations if r.name == name), None)

    @property
    def relation_names(self) -> list[str]:
        return [r.name for r in self.relations]


def _props(infos: Sequence[Any]) -> tuple[PropertyProfile, ...]:
    return tuple(PropertyProfile(name=p.name, type=p.type, examples=tuple(p.samples)) for p in infos)


def profile_graph(store: GraphStore, *, schema: GraphSchema | None = None) -> GraphProfile:
    """Build the profile of ``store`` from its schema (the store's catalogue plus samples)."""
    t0 = time.perf_counter()
    sch = schema if schema is not None else store.schema(samples=3)
    name_prop = getattr(store, "name_property", "name")
    labels = []
    for lab in sch.node_labels:
        props = _props(lab.properties)
        names = [p.name for p in props]
        display = name_prop if name_prop in names else None
        labels.append(LabelProfile(name=lab.name, count=lab.count, display=display,
                                   properties=props))
    relations = [
        RelationProfile(
            name=r.name,
            count=r.count,
            domain=tuple(dict.fromkeys(p.src for p in r.patterns)),
            range=tuple(dict.fromkeys(p.dst for p in r.patterns)),
            properties=_props(r.properties),
        )
        for r in sch.relation_types
    ]
    return GraphProfile(uri=getattr(store, "uri", ""), labels=tuple(labels),
                        relations=tuple(relations), seconds=time.perf_counter() - t0)


def get_profile(store: GraphStore, services: Any) -> GraphProfile:
    """The profile of ``store``, built once per run (kept in ``services``' shared cache)."""
    key = ("graph-profile", getattr(store, "uri", ""), id(store))
    return services.shared(key, lambda: profile_graph(store))


# --------------------------------------------------------------------------- names


def display_names(store: GraphStore, ids: Sequence[str], *,
                  missing_as_id: bool = True) -> dict[str, str | None]:
    """Display name per id in one batched call; a node without a name gets its id (or None with
    ``missing_as_id=False``)."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return {}
    fn = getattr(store, "display_names", None)
    if callable(fn):
        got = fn(ids)
        names = {i: (got.get(i) or None) for i in ids}
    else:
        names = {i: (n.name or None) if n is not None else None
                 for i, n in store.get_nodes(ids).items()}
    return {i: (n or i) for i, n in names.items()} if missing_as_id else names


def is_unnamed(node_id: str, name: str | None = None) -> bool:
    """A node without a name of its own whose id is a machine id (Freebase CVT ``m.0abc``,
    ``g.11b…``, blank nodes): never an answer; described by its neighbours instead."""
    return (not name or name == node_id) and bool(_UNNAMED_ID.match(node_id))


# --------------------------------------------------------------------------- relation statistics

_LITERAL_LIKE = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*://\S+|www\.\S+"  # URLs
    r"|[^\s/\\]+\.[a-z][a-z0-9]{1,4}"  # file names (united-states.jpg)
    r"|[+-]?\d[\d.,:/\-\s]*"  # numbers and dates
    r"|\d{4}-\d{2}-\d{2}t[\d:.]+z?)$", re.I)
SAMPLE_NODES = 5000  # nodes whose out-edges are read for the statistics
SAMPLE_EDGES_PER_NODE = 50
SAMPLE_DEGREES = 5000  # distinct tails whose name and degree are read (spread over relations)
HUB_DECADES = 2.5  # tails this many powers of ten above the usual degree score as a full hub


class RelationStats(BaseModel):
    """One relation in the sample: edges seen, and what its tails look like."""

    model_config = _FROZEN

    name: str
    edges: int = 0
    heads: int = 0
    tails: int = 0
    unnamed_tails: float = 0.0  # share of sampled tails without a name of their own
    literal_tails: float = 0.0  # share of sampled tails that look like values (file, URL, date)
    tail_degree: float = 0.0  # median degree of the sampled tails
    noise: float = 0.0  # 0 (informative) .. 1 (hub or low-information), see relation_stats


def is_literal_like(text: str) -> bool:
    """A URL, a file name, a number or a date: a value, not a thing one can ask about."""
    return bool(_LITERAL_LIKE.match(text.strip()))


def relation_stats(store: GraphStore, services: Any = None, *, sample_nodes: int = SAMPLE_NODES,
                   ) -> dict[str, RelationStats]:
    """Per relation, from a bounded sample (the out-edges of the first ``sample_nodes`` nodes
    the store lists, the degrees of up to :data:`SAMPLE_DEGREES` of their tails: three batched
    calls); built once per store and run when ``services`` is given. ``noise`` is the largest of
    the literal-like share, half the unnamed share and the hub score (the tails' median degree
    against the sample's, on a log scale: :data:`HUB_DECADES` powers of ten above the usual
    degree score 1)."""
    if services is not None:
        key = ("relation-stats", getattr(store, "uri", ""), id(store), sample_nodes)
        return services.shared(key, lambda: relation_stats(store, sample_nodes=sample_nodes))
    from .contracts import Direction

    seen_ids: dict[str, None] = {}
    for batch in store.iter_node_names(batch_size=max(sample_nodes, 1)):
        seen_ids.update(dict.fromkeys(i for i, _n in batch))
        if len(seen_ids) >= sample_nodes:
            break
    ids = list(seen_ids)[:sample_nodes]
    if not ids:
        return {}
    hoods = store.neighbors(ids, direction=Direction.OUT, limit_per_node=SAMPLE_EDGES_PER_NODE)
    edges: dict[str, list[tuple[str, str]]] = {}
    for nid in ids:
        hood = hoods.get(nid)
        for t in (hood.triplets if hood is not None else ()):
            edges.setdefault(t.relation, []).append((t.head, t.tail))
    # the same number of distinct tails from every relation, so each gets looked at
    per_rel = max(3, SAMPLE_DEGREES // max(len(edges), 1))
    picked = {rel: sorted({t for _h, t in es})[:per_rel] for rel, es in edges.items()}
    tails = sorted({t for ts in picked.values() for t in ts})
    names = display_names(store, tails, missing_as_id=False)
    degree = store.degrees(tails) if tails else {}
    ref = statistics.median(store.degrees(ids).values())
    out = {}
    for rel in sorted(edges):
        es, seen = edges[rel], picked[rel]
        unnamed = sum(1 for t in seen if is_unnamed(t, names.get(t))
                      or (names.get(t) is None and not is_literal_like(t)))
        literal = sum(1 for t in seen if is_literal_like(names.get(t) or t))
        degs = [degree[t] for t in seen if t in degree]
        tail_deg = float(statistics.median(degs)) if degs else 0.0
        hub = min(1.0, max(0.0, math.log10(max(tail_deg, 1.0) / max(ref, 1.0)) / HUB_DECADES))
        n = max(len(seen), 1)
        stats = RelationStats(name=rel, edges=len(es), heads=len({h for h, _t in es}),
                              tails=len({t for _h, t in es}), unnamed_tails=round(unnamed / n, 4),
                              literal_tails=round(literal / n, 4), tail_degree=tail_deg)
        noise = max(stats.literal_tails, 0.5 * stats.unnamed_tails, hub)
        out[rel] = stats.model_copy(update={"noise": round(noise, 4)})
    return out


def relation_weights(stats: Mapping[str, RelationStats], relevance: Mapping[str, float], *,
                     floor: float = 0.05) -> dict[str, float]:
    """Weight in [floor, 1] per relation of ``relevance`` (its relevance to the question, 0..1):
    ``1 - noise * (1 - relevance)``, so a hub relation the question asks about keeps its weight
    and one it does not is pushed down; relations outside the sample weigh 1."""
    out = {}
    for rel, r in relevance.items():
        st = stats.get(rel)
        noise = st.noise if st is not None else 0.0
        out[rel] = round(max(floor, 1.0 - noise * (1.0 - max(0.0, min(1.0, r)))), 4)
    return out
