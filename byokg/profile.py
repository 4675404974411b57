"""GraphProfile: what byokg knows about the user's graph, computed once per graph and shared.

Per label: its size, the property that names its nodes (the display property), the key property,
and each property's type and example values; per relation type: its domain and range labels, size
and properties. Stages read the profile (schema rendering, linking, answer types, display names);
none re-derives it. :func:`get_profile` builds it once per store and run (from the store's own
catalogue, a bounded sample — never a full scan) and keeps it in the run's shared cache.

This module is also the one home of two graph-wide notions: the display name of a node
(:func:`display_names`) and whether a node is unnamed (a Freebase CVT / blank node,
:func:`is_unnamed`), which is never an answer and is described by its neighbours instead.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
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
    "is_unnamed",
    "profile_graph",
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
