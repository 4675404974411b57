"""Node property values as context: the facts a typed graph keeps on its nodes, not its edges.

On a property graph (Kùzu, Neo4j / Bolt, JSONL node records) a film's release date or a
country's population is a *property* of the node, not a triplet, so no path reaches it.
:func:`property_facts` reads the properties of the question's entities and of the end nodes of
the proposed relation paths (batched ``get_nodes`` calls; the ends found by
:func:`byokg.graph.paths.follow_paths`, bounded), and ranks each property by how well its name says
what the question asks and whether its value is of the asked kind (a date for *when*, a number
for *how much*). The ``node-properties`` tool turns them into ContextItems the answerer can
answer from.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.contracts import RelationPath
from byokg.graph.paths import follow_paths
from byokg.graph.profile import GraphProfile
from byokg.graph.profile import display_names
from byokg.graph.store import GraphStore
from byokg.language.literals import literal_kind
from byokg.models.similarity import Similarity

__all__ = ["PropertyFact", "has_node_properties", "property_facts", "value_text"]

_KIND_LITERALS = {"date": ("date", "year"), "number": ("number", "year"), "count": ("number",)}
MAX_VALUE_CHARS = 200


class PropertyFact(BaseModel):
    """One property value of one node, with where the node came from and how relevant it is."""

    model_config = ConfigDict(frozen=True)

    node: str
    name: str  # the node's display name
    property: str
    value: Any  # JSON-friendly: dates as ISO text
    value_type: str  # "date", "year", "number", "text" or "bool"
    relation_path: str = ""  # the proposed path whose end the node is ("" for an entity)
    relevance: float = 0.0


def value_text(value: Any) -> tuple[Any, str]:
    """A property value in JSON-friendly form, and its type."""
    if isinstance(value, bool):
        return value, "bool"
    if isinstance(value, _dt.datetime | _dt.date):
        return value.isoformat(), "date"
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return str(value), "text"
        return value, literal_kind(value) or "number"
    text = str(value)
    if len(text) > MAX_VALUE_CHARS:
        text = text[:MAX_VALUE_CHARS] + "…"
    return text, literal_kind(text) or "text"


def has_node_properties(profile: GraphProfile) -> bool:
    """Whether any label keeps properties besides its display name and key."""
    for lab in profile.labels:
        skip = {lab.display, lab.key, "name", "id"}
        if any(p.name not in skip for p in lab.properties):
            return True
    return False


def property_facts(
    store: GraphStore,
    similarity: Similarity,
    entity_ids: Sequence[str],
    relation_paths: Sequence[RelationPath],
    *,
    max_nodes: int = 60,
    fanout_per_hop: int = 50,
    max_facts: int = 40,
) -> tuple[list[PropertyFact], dict[str, int]]:
    """Ranked property facts of the entities and of the ends of ``relation_paths`` (see the
    module doc), and counts for the trace (nodes read, facts found, paths walked)."""
    analysis = similarity.analysis
    origin: dict[str, str] = {e: "" for e in dict.fromkeys(entity_ids)}
    walked = 0
    for rp in relation_paths:
        if len(origin) >= max_nodes:
            break
        fr = follow_paths(store, list(entity_ids), rp, fanout_per_hop=fanout_per_hop,
                          max_paths=max_nodes)
        walked += 1
        for end in fr.reached:
            if len(origin) >= max_nodes:
                break
            origin.setdefault(end, str(rp))
    nodes = store.get_nodes(list(origin))
    names = display_names(store, list(origin))
    raw: list[tuple[str, str, Any, str]] = []
    for nid, node in nodes.items():
        if node is None:
            continue
        for prop, value in node.properties.items():
            if value is None or isinstance(value, list | dict | tuple):
                continue
            val, typ = value_text(value)
            raw.append((nid, prop, val, typ))
    counts = {"nodes_read": len(origin), "paths_walked": walked, "facts_found": len(raw)}
    if not raw:
        return [], counts
    props = list(dict.fromkeys(p for _, p, _, _ in raw))
    rel = similarity.relation_scores(props)
    wanted = _KIND_LITERALS.get(analysis.kind, ())
    facts = []
    for nid, prop, val, typ in raw:
        score = rel.get(prop, 0.0) + (0.5 if typ in wanted else 0.0)
        if score <= 0.0:
            continue  # says nothing the question asks
        facts.append(PropertyFact(node=nid, name=names.get(nid, nid), property=prop, value=val,
                                  value_type=typ, relation_path=origin[nid],
                                  relevance=round(min(1.0, score), 4)))
    facts.sort(key=lambda f: (-f.relevance, f.relation_path != "", f.name, f.property))
    counts["facts_kept"] = min(len(facts), max_facts)
    return facts[:max_facts], counts
