"""Offline reasoning: the KG-Linker's and the answerer's jobs without an LLM.

The two stage implementations registered in ``plugins/offline.py`` call into this module:

* the offline **proposer** spots the graph's names in the question (the linking name index, and
  spans that are node ids verbatim), walks 1–3 hops around them (batched ``store.neighbors``
  calls, capped) and proposes the relation paths, with their directions, that best match the
  question (:class:`PathScorer` over the :class:`~byokg.analysis.QuestionAnalysis`);
* the offline **answerer** ranks the end nodes of the retrieved paths and triplets by how well the
  relations leading to them match the question, with a bonus for nodes reached from several
  question entities and for a type that matches the one asked for; the question's own entities and
  unnamed (CVT) nodes are never answers.

Retrieval itself (walking the proposed paths) is done by the ``follow-paths`` tool like for any
other proposer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis import QuestionAnalysis, relation_terms, term_sim
from .contracts import Candidate, ContextItem, Direction, MentionLinks, Path, RelationPath
from .profile import display_names, is_unnamed
from .store import GraphStore
from .text import STOPWORDS, stem, words
from .tools import Services

MAX_IDS_PER_SPOT = 5
FANOUT_1 = 2000  # edges read per spotted entity
HOP2_RELATIONS = 6  # best first-hop relations expanded to a second hop
HOP2_NODES = 60  # middle nodes expanded per first-hop relation
FANOUT_2 = 300  # edges read per middle node
HOP3_WALKS = 3  # best 2-hop relation sequences extended by a third hop
HOP3_NODES = 40  # end nodes per extended sequence
FANOUT_3 = 200
MAX_WALK_PATHS = 200  # instantiated paths kept per relation sequence while walking
HOP_PENALTY = 0.04
IDLE_HOP_PENALTY = 0.2
FORWARD_BONUS = 0.02  # the question's entity is usually the subject of the fact asked for
UNNAMED_END_PENALTY = 0.3
CONJUNCTION_BONUS = 0.25
TYPE_BONUS = 0.15  # candidate's type (label / relation type segment) is the type asked for
TYPE_CANDIDATES = 60
TYPE_FANOUT = 40
GENERIC_TYPES = frozenset({"entity", "topic", "thing", "object", "common"})


# --------------------------------------------------------------------------- spotting


@dataclass
class Spot:
    mention: str
    start: int
    end: int
    ids: list[str]


def id_spots(analysis: QuestionAnalysis, store: GraphStore) -> list[Spot]:
    """Spans of the question that are node *ids* verbatim ("Paris, Texas" when the node is named
    "Paris"): one batched ``get_nodes`` call over the question's candidate spans."""
    spans: dict[str, tuple[int, int]] = {}
    for sp in analysis.spans:
        gram = sp.text.split()
        if sp.words == 1 and len(gram[0]) < 3:
            continue
        spans.setdefault(sp.text, (sp.start, sp.end))
    if not spans:
        return []
    found = store.get_nodes(list(spans))
    return [Spot(k, *spans[k], [k]) for k, node in found.items() if node is not None]


def _capitalized(question: str, mention: str) -> bool | None:
    """Whether the mention is written capitalised in the question (None: cannot tell)."""
    m = re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, mention.split())) + r"(?!\w)", question, re.I)
    if m is None or m.start() == 0:
        return None  # the first word is capitalised anyway
    return m.group(0)[:1].isupper()


def spot_entities(analysis: QuestionAnalysis, store: GraphStore, services: Services) -> list[Spot]:
    """The graph's names in the question: longest non-overlapping spans, a lower-case common word
    ("country", "bird") dropped when capitalised names were found."""
    from .linking.fuzzy import short_name_ok
    from .linking.linker import get_name_index

    question = analysis.question
    idx = get_name_index(store, services)
    spots = [Spot(s.mention, s.start, s.end, list(s.ids)[:MAX_IDS_PER_SPOT])
             for s in idx.spot(question, max_ngram=6)]
    by_span = {(s.start, s.end): s for s in spots}
    for s in id_spots(analysis, store):
        same = by_span.get((s.start, s.end))
        if same is not None:
            same.ids.extend(i for i in s.ids if i not in same.ids)
        else:
            spots.append(s)
            by_span[(s.start, s.end)] = s
    caps = {id(s): _capitalized(question, s.mention) for s in spots}
    if any(c is not False for c in caps.values()):
        spots = [s for s in spots if caps[id(s)] is not False]
    spots.sort(key=lambda s: (-(s.end - s.start), s.start))
    taken: list[Spot] = []
    for s in spots:
        toks = words(s.mention)
        if (len(toks) == 1 and (toks[0] in STOPWORDS or len(toks[0]) < 3)
                and not short_name_ok(s.mention)):  # "Go", "C", "UK": vetted by the index
            continue
        if any(not (s.end <= t.start or s.start >= t.end) for t in taken):
            continue
        taken.append(s)
    taken.sort(key=lambda s: s.start)
    return taken


def spot_links(spots: Sequence[Spot], store: GraphStore) -> list[MentionLinks]:
    """Spotted mentions as linked mentions (method ``spot``), named as the graph names them."""
    names = display_names(store, [i for s in spots for i in s.ids])
    return [MentionLinks(mention=s.mention, candidates=tuple(
        Candidate(id=i, name=names.get(i, i), score=1.0, method="spot") for i in s.ids))
        for s in spots]


# --------------------------------------------------------------------------- path scoring


class PathScorer:
    """Scores relation paths against a question (coverage of its words + relevance of each hop)."""

    def __init__(self, analysis: QuestionAnalysis, services: Services | None = None,
                 exclude: Sequence[str] = ()) -> None:
        self.analysis = analysis
        self.groups = analysis.focus(exclude)
        self.services = services
        self._covers: dict[str, list[float]] = {}

    def relations(self, rels: Sequence[str]) -> dict[str, float]:
        return self.analysis.relation_scores(rels, self.services)

    def relation(self, rel: str) -> float:
        return self.analysis.relation_score(rel, self.services)

    def _cover(self, rel: str) -> list[float]:
        """Per question group, how well this relation covers it (0..1)."""
        got = self._covers.get(rel)
        if got is None:
            rterms = relation_terms(rel)
            got = [
                max((term_sim(v, t) * w for v in g.variants for t, w in rterms.items()), default=0.0)
                for g in self.groups
            ]
            self._covers[rel] = got
        return got

    def score(
        self, rels: Sequence[str], *, through_unnamed: bool = False, inverted: Sequence[bool] = ()
    ) -> float:
        """Coverage of the question's content words, relevance of every hop, and no idle hops
        (a hop that covers nothing the others do not is penalised, unless it only steps through
        an unnamed node such as a Freebase CVT)."""
        if not rels:
            return 0.0
        rel_scores = self.relations(rels)
        covers = [self._cover(r) for r in rels]
        weights = [g.weight for g in self.groups]
        total = sum(weights)
        best = [max(c[i] for c in covers) for i in range(len(weights))]
        content = sum(w * b for w, b in zip(weights, best, strict=True)) / total if total else 0.0
        wh = max((b for w, b in zip(weights, best, strict=True) if w == 0), default=0.0)
        precision = sum(rel_scores[r] for r in rels) / len(rels)
        idle = 0.0
        if len(rels) > 1 and total:
            # the last hop must add coverage the earlier hops lack (else the walk went too far);
            # an earlier hop that covers nothing at all costs a little
            last = len(rels) - 1
            before = [max(c[i] for c in covers[:last]) for i in range(len(weights))]
            gain = sum(w * max(0.0, covers[last][i] - before[i]) for i, w in enumerate(weights))
            if gain / total < 0.2:
                idle += IDLE_HOP_PENALTY
            if not through_unnamed:
                idle += 0.05 * sum(1 for c in covers[:last] if max(c, default=0.0) < 0.3)
        fwd = FORWARD_BONUS * sum(1 for x in inverted if not x) / len(rels) if inverted else 0.0
        return (0.55 * content + 0.3 * precision + 0.1 * wh + fwd
                - HOP_PENALTY * (len(rels) - 1) - idle)


# --------------------------------------------------------------------------- walking


@dataclass
class Walk:
    """Instantiated paths that share one relation sequence walked in one direction per hop."""

    relations: tuple[str, ...]
    inverted: tuple[bool, ...]
    paths: list[Path] = field(default_factory=list)
    score: float = 0.0

    @property
    def relation_path(self) -> RelationPath:
        return RelationPath(relations=self.relations, inverted=self.inverted)


def _step(hoods: dict[str, Any], node: str) -> list[tuple[str, str, bool]]:
    """(relation, other node, inverted) for every edge of ``node``."""
    nb = hoods.get(node)
    out = []
    for t in nb.triplets if nb is not None else ():
        if t.head == node:
            out.append((t.relation, t.tail, False))
        if t.tail == node and t.head != node:
            out.append((t.relation, t.head, True))
    return out


def _add(walks: dict[tuple[Any, ...], Walk], path: Path) -> None:
    key = (path.relations, path.inverted)
    w = walks.get(key)
    if w is None:
        w = walks[key] = Walk(path.relations, path.inverted)
    if len(w.paths) < MAX_WALK_PATHS:
        w.paths.append(path)


def walk_paths(store: GraphStore, starts: Sequence[str], scorer: PathScorer, *,
               max_hops: int = 3) -> list[Walk]:
    """1- to 3-hop walks from ``starts`` grouped by relation sequence and direction, best first.
    Hop 2 expands the best first-hop relations only, hop 3 the best 2-hop walks only."""
    walks: dict[tuple[Any, ...], Walk] = {}
    if not starts:
        return []
    start_set = set(starts)
    hood1 = store.neighbors(list(starts), direction=Direction.BOTH, limit_per_node=FANOUT_1)
    by_rel: dict[str, list[tuple[str, str, bool]]] = {}
    for s in starts:
        for rel, other, inv in _step(hood1, s):
            if other not in start_set:
                by_rel.setdefault(rel, []).append((s, other, inv))
                _add(walks, Path(nodes=(s, other), relations=(rel,), inverted=(inv,)))
    rel1 = scorer.relations(list(by_rel))
    if max_hops >= 2 and by_rel:
        first = sorted(by_rel, key=lambda r: (-rel1[r], r))[:HOP2_RELATIONS]
        prefixes: dict[str, list[Path]] = {}
        for rel in first:
            for s, m, inv in by_rel[rel][:HOP2_NODES]:
                prefixes.setdefault(m, []).append(Path(nodes=(s, m), relations=(rel,), inverted=(inv,)))
        _extend(store, walks, prefixes, start_set, scorer, FANOUT_2)
    _score_walks(store, walks, scorer)
    if max_hops >= 3:
        two = sorted((w for w in walks.values() if len(w.relations) == 2), key=lambda w: -w.score)
        prefixes = {}
        for w in two[:HOP3_WALKS]:
            for p in w.paths[:HOP3_NODES]:
                prefixes.setdefault(p.end, []).append(p)
        if prefixes:
            _extend(store, walks, prefixes, start_set, scorer, FANOUT_3)
            _score_walks(store, walks, scorer, only_hops=3)
    return sorted(walks.values(), key=lambda w: (-w.score, len(w.relations), w.relations, w.inverted))


def _extend(store: GraphStore, walks: dict[tuple[Any, ...], Walk], prefixes: dict[str, list[Path]],
            starts: set[str], scorer: PathScorer, fanout: int) -> None:
    """One more hop from the end of every prefix path (one batched neighbours call)."""
    hoods = store.neighbors(list(prefixes), direction=Direction.BOTH, limit_per_node=fanout)
    scorer.relations(list({r for m in prefixes for r, _, _ in _step(hoods, m)}))
    for m, paths in prefixes.items():
        for rel, end, inv in _step(hoods, m):
            for p in paths:
                if end in p.nodes or end in starts:
                    continue  # no walking back to the question's entities
                _add(walks, Path(nodes=(*p.nodes, end), relations=(*p.relations, rel),
                                 inverted=(*p.inverted, inv)))


def _score_walks(store: GraphStore, walks: dict[tuple[Any, ...], Walk], scorer: PathScorer,
                 only_hops: int | None = None) -> None:
    todo = [w for w in walks.values() if only_hops is None or len(w.relations) == only_hops]
    names = display_names(store, list({n for w in todo for p in w.paths for n in p.nodes[1:]}))
    for w in todo:
        via = sum(any(is_unnamed(n, names.get(n)) for n in p.nodes[1:-1]) for p in w.paths)
        w.score = scorer.score(w.relations, through_unnamed=via * 2 > len(w.paths),
                               inverted=w.inverted)
        if sum(is_unnamed(p.end, names.get(p.end)) for p in w.paths) * 2 > len(w.paths):
            w.score -= UNNAMED_END_PENALTY


# --------------------------------------------------------------------------- answers


@dataclass
class Ranked:
    node: str
    name: str
    score: float


def _pairs(item: ContextItem, qids: set[str]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(question entity, candidate node, relations between) that an item supports."""
    if item.path is not None and item.path.hops:
        if any(n in qids for n in item.path.nodes[1:-1]):
            return []  # walked back through a question entity: says nothing about the answer
        return [(item.path.start, item.path.end, item.path.relations)]
    out = []
    for t in item.triplets:
        if t.head in qids and t.tail not in qids:
            out.append((t.head, t.tail, (t.relation,)))
        elif t.tail in qids and t.head not in qids:
            out.append((t.tail, t.head, (t.relation,)))
    return out


def extract_answers(
    analysis: QuestionAnalysis,
    items: Sequence[ContextItem],
    store: GraphStore,
    *,
    entities: Sequence[MentionLinks] = (),
    services: Services | None = None,
    max_answers: int = 10,
    tie: float = 0.02,
    labels: Sequence[str] = (),
) -> list[Ranked]:
    """The best candidate answers, best first (ties within ``tie`` of the best are kept).

    A node reached from two different *mentions* (a conjunction) gets a bonus, not one reached
    from two readings of the same mention. ``labels`` (the graph's labels): when the type asked
    for names one ("which *city*"), a typed candidate of another type loses the type bonus.
    """
    mentions = [m.mention for m in entities]
    mention_of = {i: m.mention for m in entities for i in m.ids}
    qids = set(mention_of)
    scorer = PathScorer(analysis, services, exclude=mentions)
    mention_words = {w for m in mentions for w in words(m)}
    qwords = {w for w in analysis.content_words if w not in mention_words}
    cand: dict[str, list[float]] = {}
    starts: dict[str, set[str]] = {}
    inner = [n for it in items if it.path is not None for n in it.path.nodes[1:-1]]
    names = display_names(store, inner)
    for it in items:
        for start, node, rels in _pairs(it, qids):
            if node in qids:
                continue
            through = (len(rels) > 1 and it.path is not None
                       and any(is_unnamed(n, names.get(n)) for n in it.path.nodes[1:-1]))
            s = scorer.score(rels, through_unnamed=through,
                             inverted=it.path.inverted if it.path is not None else ())
            if it.score is not None and it.tool != "follow-paths":
                s += 0.05 * max(0.0, min(1.0, float(it.score)))
            cand.setdefault(node, []).append(s)
            if start in qids:
                starts.setdefault(node, set()).add(mention_of.get(start, start))
    if not cand:
        return []
    names.update(display_names(store, list(cand)))
    scored = []
    for node, ss in cand.items():
        if is_unnamed(node, names.get(node)):
            continue
        s = max(ss) + 0.01 * math.log1p(len(ss) - 1)
        s += CONJUNCTION_BONUS * (len(starts.get(node, ())) - 1)
        nwords = {w for w in words(names.get(node, node)) if w not in STOPWORDS}
        if nwords and nwords <= qwords:
            s *= 0.5  # the name only repeats the question
        scored.append(Ranked(node, names.get(node, node), s))
    if not scored:
        return []
    scored.sort(key=lambda x: (-x.score, x.name))
    scored = _type_bonus(analysis, scored, store, mention_words, labels)
    best = scored[0].score
    return [x for x in scored if x.score >= best - tie][:max_answers]


def asked_types(analysis: QuestionAnalysis, mention_words: set[str] = frozenset()) -> set[str]:
    """Stemmed type words the question asks for: ``who`` -> person; ``which/what X`` -> X."""
    if analysis.kind == "person":
        return {"person"}
    for w in analysis.type_words:
        if w not in mention_words:
            return {stem(w)} - GENERIC_TYPES
    return set()


def candidate_types(store: GraphStore, ids: Sequence[str]) -> dict[str, set[str]]:
    """Type words per node: its labels, and the type segment of the relations it is the subject
    of (``domain.type.property``), e.g. ``location.country.capital`` -> ``country``."""
    out: dict[str, set[str]] = {i: set() for i in ids}
    for i, node in store.get_nodes(list(ids)).items():
        if node is not None:
            for lab in node.labels:
                out[i].update(stem(w) for w in words(lab))
    for i, nb in store.neighbors(list(ids), direction=Direction.OUT, limit_per_node=TYPE_FANOUT).items():
        for t in nb.triplets:
            segs = t.relation.split(".")
            if len(segs) >= 3:
                out[i].update(stem(w) for w in words(segs[-2]))
    return out


def _type_bonus(analysis: QuestionAnalysis, scored: list[Ranked], store: GraphStore,
                mention_words: set[str], labels: Sequence[str] = ()) -> list[Ranked]:
    """Lift candidates whose type matches the type the question asks for ("which *country*");
    when the question names that type and it is one of the graph's ``labels``, push down
    candidates typed otherwise."""
    wanted = asked_types(analysis, mention_words)
    if not wanted:
        return scored
    head = scored[:TYPE_CANDIDATES]
    types = candidate_types(store, [r.node for r in head])
    named = {stem(w) for w in analysis.type_words if w not in mention_words}  # not "who"
    is_label = bool(wanted & named & {stem(w) for lab in labels for w in words(lab)})
    for r in head:
        got = types.get(r.node, set())
        if got & wanted:
            r.score += TYPE_BONUS
        elif is_label and got:
            r.score -= TYPE_BONUS
    scored.sort(key=lambda x: (-x.score, x.name))
    return scored
