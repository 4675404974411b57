"""The offline linker: KG-Linker's job without an LLM (``--llm none``).

1. Entities: n-gram lookup of the question against the graph's names (the linking package's
   ``NameIndex.spot`` when present, else a small exact-name index built here).
2. Relation paths: the relations that really exist around the spotted entities (1 and 2 hops,
   seen through ``store.neighbors``) ranked by similarity to the question (lexical; blended with
   the embedder when one is configured). The walked paths are also returned as context items
   (tool ``offline-linker``) so the loop answers even when no path tool is installed.
3. Answers: candidate end nodes of the retrieved paths/triplets, scored by how well the
   relations leading to them match the question, minus a penalty for names that repeat the
   question's own words; the question's entities are never answers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .contracts import (
    Artifacts,
    Candidate,
    ContextItem,
    Direction,
    MentionLinks,
    Path,
    RelationPath,
)
from .kglinker import (
    STOPWORDS,
    _stem,
    _term_sim,
    question_groups,
    relation_scores,
    relation_terms,
    words,
)
from .store import GraphStore
from .text import normalize
from .tools import Linker, Services, ToolParams

TOOL_NAME = "offline-linker"
MAX_NGRAM = 6
MAX_IDS_PER_NAME = 5
MAX_HOPS = 3
FANOUT_1 = 2000  # edges read per spotted entity
HOP2_RELATIONS = 6  # best first-hop relations expanded to a second hop
HOP2_NODES = 60  # middle nodes expanded per first-hop relation
FANOUT_2 = 300  # edges read per middle node
MAX_PATHS = 8  # relation paths proposed
MAX_ITEMS_PER_PATH = 30  # instantiated paths kept per relation path
HOP3_WALKS = 3  # best 2-hop relation sequences extended by a third hop
HOP3_NODES = 40  # end nodes per extended sequence
FANOUT_3 = 200
HOP_PENALTY = 0.04
IDLE_HOP_PENALTY = 0.2
FORWARD_BONUS = 0.02  # the question's entity is usually the subject of the fact asked for
UNNAMED_END_PENALTY = 0.3
CONJUNCTION_BONUS = 0.25
TYPE_BONUS = 0.15  # candidate's type (label / Freebase type) is a word of the question
TYPE_CANDIDATES = 60
TYPE_FANOUT = 40
GENERIC_TYPES = frozenset({"entity", "topic", "thing", "object", "common"})


# --------------------------------------------------------------------------- name spotting


@dataclass
class Spot:
    mention: str
    start: int
    end: int
    ids: list[str]
    exact: bool = True


class SimpleNameIndex:
    """normalised name -> node ids, for spotting and exact linking when no linking index exists."""

    def __init__(self, store: GraphStore) -> None:
        self.names: dict[str, list[str]] = {}
        for batch in store.iter_node_names():
            for nid, name in batch:
                # the id too: memory/Kùzu ids are often fuller names ("Paris, Texas")
                for label in (name, nid) if nid != name else (name,):
                    key = normalize(str(label))
                    if not key:
                        continue
                    ids = self.names.setdefault(key, [])
                    if len(ids) < MAX_IDS_PER_NAME and nid not in ids:
                        ids.append(nid)

    def spot(self, text: str, max_ngram: int = MAX_NGRAM) -> list[Spot]:
        """Longest n-gram matches, left to right; offsets are characters of ``text``."""
        toks = _word_spans(text)
        spots: list[Spot] = []
        i = 0
        while i < len(toks):
            hit = None
            for n in range(min(max_ngram, len(toks) - i), 0, -1):
                start, end = toks[i][0], toks[i + n - 1][1]
                key = normalize(text[start:end])
                gram = key.split()
                if not gram or all(g in STOPWORDS for g in gram):
                    continue
                if len(gram) == 1 and len(gram[0]) < 3:
                    continue
                ids = self.names.get(key)
                if ids:
                    hit = (n, Spot(text[start:end], start, end, list(ids)))
                    break
            if hit:
                spots.append(hit[1])
                i += hit[0]
            else:
                i += 1
        return spots

    def lookup(self, mention: str) -> list[str]:
        return list(self.names.get(normalize(mention), []))


def name_index(store: GraphStore, services: Services) -> Any:
    """The linking package's NameIndex when installed, else :class:`SimpleNameIndex` (cached)."""
    try:
        from .linking.linker import get_name_index  # provided by the linking issue

        return get_name_index(store, services)
    except ImportError:
        return services.shared(("offline-names", store.uri, id(store)), lambda: SimpleNameIndex(store))


def _capitalized(question: str, mention: str) -> bool | None:
    """Whether the mention is written capitalised in the question (None: cannot tell)."""
    m = re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, mention.split())) + r"(?!\w)", question, re.I)
    if m is None:
        return None
    if m.start() == 0:
        return None  # the first word is capitalised anyway
    return m.group(0)[:1].isupper()


_WORD = re.compile(r"\w+", re.UNICODE)  # spans keep the punctuation between words


def _word_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _WORD.finditer(text)]


def id_spots(question: str, store: GraphStore, max_ngram: int = MAX_NGRAM) -> list[Spot]:
    """Spans of the question that are node *ids* verbatim ("Paris, Texas" when the node is named
    "Paris"): one batched ``get_nodes`` call over the question's n-grams."""
    toks = _word_spans(question)
    spans: dict[str, tuple[int, int]] = {}
    for i in range(len(toks)):
        for n in range(1, min(max_ngram, len(toks) - i) + 1):
            start, end = toks[i][0], toks[i + n - 1][1]
            gram = normalize(question[start:end]).split()
            if all(g in STOPWORDS for g in gram) or (n == 1 and len(gram[0]) < 3):
                continue
            spans.setdefault(question[start:end], (start, end))
    if not spans:
        return []
    found = store.get_nodes(list(spans))
    return [Spot(k, *spans[k], [k]) for k, node in found.items() if node is not None]


def spot_entities(question: str, store: GraphStore, services: Services) -> list[Spot]:
    idx = name_index(store, services)
    spots = [Spot(s.mention, s.start, s.end, list(s.ids)) for s in idx.spot(question, max_ngram=MAX_NGRAM)]
    by_span = {(s.start, s.end): s for s in spots}
    for s in id_spots(question, store):
        same = by_span.get((s.start, s.end))
        if same is not None:
            same.ids.extend(i for i in s.ids if i not in same.ids)
        else:
            spots.append(s)
            by_span[(s.start, s.end)] = s
    # a lower-case common word ("country", "bird") is dropped when capitalised names were found
    caps = {id(s): _capitalized(question, s.mention) for s in spots}
    if any(c is not False for c in caps.values()):
        spots = [s for s in spots if caps[id(s)] is not False]
    # keep the longest non-overlapping spots, dropping stopword-only single words
    spots.sort(key=lambda s: (-(s.end - s.start), s.start))
    taken: list[Spot] = []
    for s in spots:
        toks = normalize(s.mention).split()
        if len(toks) == 1 and (toks[0] in STOPWORDS or len(toks[0]) < 3):
            continue
        if any(not (s.end <= t.start or s.start >= t.end) for t in taken):
            continue
        taken.append(s)
    taken.sort(key=lambda s: s.start)
    return taken


class ExactNameLinker(Linker):
    """Fallback linker (exact normalised name) used when the configured linker is not installed."""

    name = "exact-name"
    description = "exact normalised-name lookup (fallback)"

    def link(
        self,
        mentions: Sequence[str],
        *,
        store: GraphStore,
        services: Services,
        params: ToolParams,
    ) -> list[MentionLinks]:
        idx = services.shared(("offline-names", store.uri, id(store)), lambda: SimpleNameIndex(store))
        out = []
        for m in mentions:
            ids = idx.lookup(m)
            names = store.get_nodes(ids) if ids else {}
            cands = tuple(
                Candidate(id=i, name=(names.get(i).display if names.get(i) else i), score=1.0, method="exact")
                for i in ids
            )
            out.append(MentionLinks(mention=m, candidates=cands))
        return out


# --------------------------------------------------------------------------- path scoring


class PathScorer:
    """Scores relation paths against a question (coverage of its words + relevance of each hop)."""

    def __init__(self, question: str, services: Services | None = None, exclude: Sequence[str] = ()) -> None:
        drop = {w for e in exclude for w in words(e)}
        kept = " ".join(w for w in words(question) if w not in drop)
        self.question = question
        self.groups = question_groups(kept) or question_groups(question)
        self.services = services
        self._rel: dict[str, float] = {}
        self._covers: dict[str, list[float]] = {}
        self._kept = kept or question

    def relations(self, rels: Sequence[str]) -> None:
        todo = [r for r in dict.fromkeys(rels) if r not in self._rel]
        if todo:
            self._rel.update(relation_scores(self._kept, todo, self.services))

    def relation(self, rel: str) -> float:
        if rel not in self._rel:
            self.relations([rel])
        return self._rel[rel]

    def _cover(self, rel: str) -> list[float]:
        """Per question group, how well this relation covers it (0..1)."""
        got = self._covers.get(rel)
        if got is None:
            rterms = relation_terms(rel)
            got = [
                max((_term_sim(v, t) * w for v in variants for t, w in rterms.items()), default=0.0)
                for _, variants in self.groups
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
        self.relations(rels)
        covers = [self._cover(r) for r in rels]
        weights = [w for w, _ in self.groups]
        total = sum(weights)
        best = [max(c[i] for c in covers) for i in range(len(weights))]
        content = sum(w * b for w, b in zip(weights, best, strict=True)) / total if total else 0.0
        wh = max((b for w, b in zip(weights, best, strict=True) if w == 0), default=0.0)
        precision = sum(self._rel[r] for r in rels) / len(rels)
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


_UNNAMED = re.compile(r"^[a-z]{1,3}\.[A-Za-z0-9_]+$")


def unnamed(node_id: str, name: str | None) -> bool:
    """A node without a real name (Freebase CVT ``m.0abc``, blank nodes): not an answer."""
    return (not name or name == node_id) and bool(_UNNAMED.match(node_id))


# --------------------------------------------------------------------------- proposing


@dataclass
class Walk:
    relations: tuple[str, ...]
    paths: list[Path] = field(default_factory=list)
    score: float = 0.0


def _step(store_nb: dict[str, Any], node: str) -> list[tuple[str, str, bool]]:
    """(relation, other node, inverted) for every edge of ``node``."""
    nb = store_nb.get(node)
    out = []
    for t in nb.triplets if nb is not None else ():
        if t.head == node:
            out.append((t.relation, t.tail, False))
        if t.tail == node and t.head != node:
            out.append((t.relation, t.head, True))
    return out


def walk_paths(
    store: GraphStore, starts: Sequence[str], scorer: PathScorer, *, max_hops: int = 2
) -> list[Walk]:
    """1- and 2-hop walks from ``starts``, grouped by relation sequence, best first."""
    walks: dict[tuple[str, ...], Walk] = {}
    if not starts:
        return []
    nb1 = store.neighbors(list(starts), direction=Direction.BOTH, limit_per_node=FANOUT_1)
    by_rel: dict[str, list[tuple[str, str, bool]]] = {}
    for s in starts:
        for rel, other, inv in _step(nb1, s):
            if other in starts:
                continue
            by_rel.setdefault(rel, []).append((s, other, inv))
            w = walks.setdefault((rel,), Walk((rel,)))
            w.paths.append(Path(nodes=(s, other), relations=(rel,), inverted=(inv,)))
    scorer.relations(list(by_rel))
    if max_hops >= 2 and by_rel:
        first = sorted(by_rel, key=lambda r: -scorer.relation(r))[:HOP2_RELATIONS]
        mids: dict[str, list[tuple[str, str, bool]]] = {}
        for rel in first:
            for s, m, inv in by_rel[rel][:HOP2_NODES]:
                mids.setdefault(m, []).append((s, rel, inv))
        nb2 = store.neighbors(list(mids), direction=Direction.BOTH, limit_per_node=FANOUT_2)
        rels2 = {r for m in mids for r, _, _ in _step(nb2, m)}
        scorer.relations(list(rels2))
        for m, origins in mids.items():
            for rel2, end, inv2 in _step(nb2, m):
                for s, rel1, inv1 in origins:
                    if end == s or end in starts:
                        continue
                    key = (rel1, rel2)
                    w = walks.setdefault(key, Walk(key))
                    if len(w.paths) < 200:
                        w.paths.append(Path(nodes=(s, m, end), relations=key, inverted=(inv1, inv2)))
    _score_walks(store, walks, scorer)
    if max_hops >= 3:
        two = sorted((w for w in walks.values() if len(w.relations) == 2), key=lambda w: -w.score)
        ends3: dict[str, list[Path]] = {}
        for w in two[:HOP3_WALKS]:
            for p in w.paths[:HOP3_NODES]:
                ends3.setdefault(p.end, []).append(p)
        if ends3:
            nb3 = store.neighbors(list(ends3), direction=Direction.BOTH, limit_per_node=FANOUT_3)
            scorer.relations(list({r for m in ends3 for r, _, _ in _step(nb3, m)}))
            for m, prefixes in ends3.items():
                for rel3, end, inv3 in _step(nb3, m):
                    for p in prefixes:
                        if end in p.nodes or end in starts:
                            continue
                        key = (*p.relations, rel3)
                        w = walks.setdefault(key, Walk(key))
                        if len(w.paths) < 200:
                            w.paths.append(Path(nodes=(*p.nodes, end), relations=key,
                                                inverted=(*p.inverted, inv3)))
            _score_walks(store, walks, scorer, only_hops=3)
    return sorted(walks.values(), key=lambda w: (-w.score, len(w.relations), w.relations))


def _score_walks(
    store: GraphStore, walks: dict[tuple[str, ...], Walk], scorer: PathScorer, only_hops: int | None = None
) -> None:
    todo = [w for w in walks.values() if only_hops is None or len(w.relations) == only_hops]
    ids = {n for w in todo for p in w.paths for n in p.nodes[1:]}
    names = display_names(store, list(ids)) if ids else {}
    for w in todo:
        via = sum(any(unnamed(n, names.get(n)) for n in p.nodes[1:-1]) for p in w.paths)
        w.score = scorer.score(w.relations, through_unnamed=via * 2 > len(w.paths),
                               inverted=w.paths[0].inverted)
        if sum(unnamed(p.end, names.get(p.end)) for p in w.paths) * 2 > len(w.paths):
            w.score -= UNNAMED_END_PENALTY


def verbalize_path(path: Path, names: dict[str, str]) -> str:
    parts = [names.get(path.nodes[0], path.nodes[0])]
    for i, rel in enumerate(path.relations):
        arrow = f"<-[{rel}]-" if path.is_inverted(i) else f"-[{rel}]->"
        parts.append(arrow)
        parts.append(names.get(path.nodes[i + 1], path.nodes[i + 1]))
    return " ".join(parts)


def display_names(store: GraphStore, ids: Sequence[str]) -> dict[str, str]:
    ids = list(dict.fromkeys(ids))
    fn = getattr(store, "display_names", None)
    if fn is not None:
        return dict(fn(ids))
    return {i: (n.display if n is not None else i) for i, n in store.get_nodes(ids).items()}


@dataclass
class Proposal:
    artifacts: Artifacts
    spots: list[Spot]
    items: list[ContextItem]


def propose(
    question: str,
    store: GraphStore,
    services: Services,
    *,
    iteration: int = 0,
    context: Sequence[ContextItem] = (),
) -> Proposal:
    """One offline KG-Linker round. Later rounds say FINISH once there is context."""
    if iteration > 0:
        return Proposal(Artifacts(finish=bool(context)), [], [])
    spots = spot_entities(question, store, services)
    starts = list(dict.fromkeys(i for s in spots for i in s.ids))
    scorer = PathScorer(question, services, exclude=[s.mention for s in spots])
    walks = walk_paths(store, starts, scorer, max_hops=MAX_HOPS) if starts else []
    chosen = walks[:MAX_PATHS]
    items: list[ContextItem] = []
    ids = [n for w in chosen for p in w.paths[:MAX_ITEMS_PER_PATH] for n in p.nodes]
    names = display_names(store, ids) if ids else {}
    for w in chosen:
        for p in w.paths[:MAX_ITEMS_PER_PATH]:
            items.append(
                ContextItem(
                    text=verbalize_path(p, names),
                    tool=TOOL_NAME,
                    iteration=iteration,
                    score=round(w.score, 4),
                    kind="path",
                    triplets=tuple(p.triplets()),
                    path=p,
                    nodes=p.nodes,
                    metadata={"relation_path": list(w.relations)},
                )
            )
    warnings = () if spots else ("no graph entity name found in the question",)
    art = Artifacts(
        entities=tuple(dict.fromkeys(s.mention for s in spots)),
        relation_paths=tuple(RelationPath(relations=w.relations) for w in chosen),
        warnings=warnings,
    )
    return Proposal(art, spots, items)


# --------------------------------------------------------------------------- answers


def extract_answers(
    question: str,
    items: Sequence[ContextItem],
    store: GraphStore,
    *,
    question_ids: Sequence[str] = (),
    question_mentions: Sequence[str] = (),
    id_mentions: dict[str, str] | None = None,
    services: Services | None = None,
    max_answers: int = 10,
    tie: float = 0.02,
) -> list[tuple[str, str, float]]:
    """``(node id, name, score)`` of the best candidate answers, best first.

    ``id_mentions`` maps a question entity id to its mention, so a node reached from two
    different question entities (a conjunction) gets a bonus, but not one reached from two
    readings of the same mention.
    """
    qids = set(question_ids)
    scorer = PathScorer(question, services, exclude=question_mentions)
    mention_words = {w for m in question_mentions for w in words(m)}
    qwords = {w for w in words(question) if w not in STOPWORDS and w not in mention_words}
    cand: dict[str, list[float]] = {}
    starts: dict[str, set[str]] = {}
    name_cache: dict[str, str] = {}
    for it in items:
        pairs: list[tuple[str, str, tuple[str, ...]]] = []
        if it.path is not None and it.path.hops:
            if any(n in qids for n in it.path.nodes[1:-1]):
                continue  # walked back through a question entity: says nothing about the answer
            pairs.append((it.path.start, it.path.end, it.path.relations))
        elif it.triplets:
            for t in it.triplets:
                if t.head in qids and t.tail not in qids:
                    pairs.append((t.head, t.tail, (t.relation,)))
                elif t.tail in qids and t.head not in qids:
                    pairs.append((t.tail, t.head, (t.relation,)))
        for start, node, rels in pairs:
            if node in qids:
                continue
            s = scorer.score(rels, through_unnamed=len(rels) > 1 and it.path is not None
                             and any(_is_unnamed(store, n, name_cache) for n in it.path.nodes[1:-1]),
                             inverted=it.path.inverted if it.path is not None else ())
            if it.score is not None and it.tool != TOOL_NAME:
                s += 0.05 * max(0.0, min(1.0, float(it.score)))
            cand.setdefault(node, []).append(s)
            if start in qids:  # reached from several *mentions* (not ids of one mention)
                starts.setdefault(node, set()).add((id_mentions or {}).get(start, start))
    if not cand:
        return []
    names = display_names(store, list(cand))
    scored = []
    for node, ss in cand.items():
        s = max(ss) + 0.01 * math.log1p(len(ss) - 1)
        s += CONJUNCTION_BONUS * (len(starts.get(node, ())) - 1)  # reached from several entities
        if unnamed(node, names.get(node)):
            continue
        nwords = {w for w in words(names.get(node, node)) if w not in STOPWORDS}
        if nwords and nwords <= qwords:
            s *= 0.5  # the name only repeats the question
        scored.append((node, names.get(node, node), s))
    if not scored:
        return []
    scored.sort(key=lambda x: (-x[2], x[1]))
    scored = _type_bonus(question, scored, store, mention_words)
    best = scored[0][2]
    return [x for x in scored if x[2] >= best - tie][:max_answers]


def candidate_types(store: GraphStore, ids: Sequence[str]) -> dict[str, set[str]]:
    """Type words per node: its labels, and the type segment of the relations it is the subject
    of (Freebase ``domain.type.property``), e.g. ``location.country.capital`` -> ``country``."""
    out: dict[str, set[str]] = {i: set() for i in ids}
    for i, node in store.get_nodes(list(ids)).items():
        if node is not None:
            for lab in node.labels:
                out[i].update(_stem(w) for w in words(lab))
    for i, nb in store.neighbors(list(ids), direction=Direction.OUT, limit_per_node=TYPE_FANOUT).items():
        for t in nb.triplets:
            segs = t.relation.split(".")
            if len(segs) >= 3:
                out[i].update(_stem(w) for w in words(segs[-2]))
    return out


def answer_type_words(question: str, mention_words: set[str] = frozenset()) -> set[str]:
    """The answer type a question asks for: ``who`` -> person; ``which/what X`` -> X (the first
    content word within three words of the question word)."""
    toks = words(question)
    for i, w in enumerate(toks):
        if w == "who" or w == "whom":
            return {"person"}
        if w in ("which", "what"):
            for nxt in toks[i + 1 : i + 4]:
                if nxt in STOPWORDS or nxt in mention_words:
                    continue
                return {_stem(nxt)} - GENERIC_TYPES
            return set()
    return set()


def _type_bonus(
    question: str, scored: list[tuple[str, str, float]], store: GraphStore, mention_words: set[str]
) -> list[tuple[str, str, float]]:
    """Lift candidates whose type matches a content word of the question ("which *country*")."""
    qtypes = answer_type_words(question, mention_words)
    if not qtypes:
        return scored
    head = scored[:TYPE_CANDIDATES]
    types = candidate_types(store, [n for n, _, _ in head])
    lifted = [(n, name, sc + (TYPE_BONUS if types.get(n, set()) & qtypes else 0.0)) for n, name, sc in head]
    out = lifted + scored[TYPE_CANDIDATES:]
    out.sort(key=lambda x: (-x[2], x[1]))
    return out


def _is_unnamed(store: GraphStore, node: str, cache: dict[str, str]) -> bool:
    if node not in cache:
        cache.update(display_names(store, [node]))
    return unnamed(node, cache.get(node))
