"""Offline reasoning: the KG-Linker's and the answerer's jobs without an LLM.

The two stage implementations registered in ``plugins/offline.py`` call into this module:

* the offline **proposer** spots the graph's names in the question (the linking name index, and
  spans that are node ids verbatim), enumerates the relation chains around them and scores them
  against the question (:mod:`byokg.plugins.offline.chains`: word-to-relation alignment, answer type,
  conjunctions), and proposes the best as direction-aware relation paths with their scores
  (``Artifacts.path_scores``);
* retrieval tools instantiate them (``follow-paths`` walks the paths, ``node-properties`` reads
  the properties of the entities and of the paths' end nodes);
* the offline **answerer** (:func:`answer_offline`) reads the context: it groups the retrieved
  walks by chain, takes the best chain's end set as the answer set (refined per node by type,
  by meeting another question entity, by a number of the question), or a property value whose
  name says what is asked and whose type fits, or a count for "how many"; the question's own
  entities and unnamed (CVT) nodes are never answers. The chain that produced the answer is its
  evidence, first.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from byokg.plugins.offline.answer_types import end_type
from byokg.plugins.offline.chains import Chain
from byokg.plugins.offline.chains import ChainScorer
from byokg.plugins.offline.chains import _steps
from byokg.plugins.offline.chains import is_kind
from byokg.plugins.offline.chains import specificity
from byokg.plugins.offline.confidence import confidence
from byokg.plugins.offline.confidence import features as confidence_features
from byokg.plugins.offline.weights import WEIGHTS
from byokg.plugins.offline.weights import OfflineWeights
from byokg.plugins.offline.weights import current as current_weights

from byokg.contracts import Candidate
from byokg.contracts import ContextItem
from byokg.contracts import MentionLinks
from byokg.contracts import PathScore
from byokg.contracts import RelationPath
from byokg.graph.profile import display_names
from byokg.graph.profile import is_unnamed
from byokg.graph.store import GraphStore
from byokg.language import lexicon as lx
from byokg.language.analysis import QuestionAnalysis
from byokg.language.literals import literal_kind
from byokg.language.text import STOPWORDS
from byokg.language.text import normalize
from byokg.language.text import stem
from byokg.language.text import words
from byokg.models.services import Services
from byokg.models.similarity import Similarity

_W = WEIGHTS.answer


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


ADJECTIVE_ENDINGS = lx.ADJECTIVE_ENDINGS  # English place adjectives: America-n, Europe-an


def adjective_spots(analysis: QuestionAnalysis, idx: Any) -> list[Spot]:
    """Capitalised spans that name a graph node once an adjective ending is taken off their last
    word ("Central American" -> the node *Central America*, "Eastern European" -> *Eastern
    Europe*), found by exact name lookup. English morphology only."""
    out: list[Spot] = []
    for sp in analysis.spans:
        last = sp.text.split()[-1] if sp.text.split() else ""
        if sp.words > 3 or len(last) < 6 or not last[:1].isupper():
            continue
        for cut in ADJECTIVE_ENDINGS:
            if not last.endswith(cut):
                continue
            ids = [i for i, _alias in idx.exact(sp.text[: -len(cut)])][:_W.max_ids_per_spot]
            if ids:
                out.append(Spot(sp.text, sp.start, sp.end, ids))
                break
    return out


_ACRONYM = re.compile(r"(?<![\w.])(?:[A-Z]\.){2,}|\b[A-Z]{2,5}\b")


def acronym_spots(question: str, idx: Any, store: GraphStore, taken: Sequence[Spot]) -> list[Spot]:
    """Acronyms written in capitals ("USA", "U.S.") that no name covers, linked to the
    best-connected node whose capitalised words they abbreviate (all of them, or the first
    ones), when it clearly leads: a popularity prior, read from the graph's degrees."""
    out: list[Spot] = []
    for m in _ACRONYM.finditer(question):
        if any(not (m.end() <= t.start or m.start() >= t.end) for t in taken):
            continue
        ids = [i for i, _exact in idx.initials(m.group())]
        if not ids:
            continue
        deg = store.degrees(ids)
        ranked = sorted(ids, key=lambda i: -deg.get(i, 0))
        first = deg.get(ranked[0], 0)
        if len(ranked) > 1 and first < _W.acronym_lead * max(deg.get(ranked[1], 0), 1):
            continue  # no clear expansion: left unlinked
        out.append(Spot(m.group(), m.start(), m.end(), [ranked[0]]))
    return out


def _capitalized(question: str, mention: str) -> bool | None:
    """Whether the mention is written capitalised in the question (None: cannot tell)."""
    m = re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, mention.split())) + r"(?!\w)", question, re.I)
    if m is None:
        return None
    written = m.group(0).split()
    while len(written) > 1 and written[0].lower() in STOPWORDS:
        written = written[1:]  # "the Tortall Universe": the article is written in lower case
    if m.start() == 0 and len(written) == len(m.group(0).split()):
        return None  # the first word is capitalised anyway
    return any(w[:1].isupper() for w in written if w.lower() not in STOPWORDS)


def _clauses(analysis: QuestionAnalysis) -> Any:
    """The clause (0, 1, …) a character offset of the question is in: clauses split at the
    English words that join two (lexicon ``CLAUSE_SPLITS``, "… and …")."""
    cuts = [t.start for t in analysis.tokens if t.text in lx.CLAUSE_SPLITS]
    return lambda at: sum(1 for c in cuts if c < at)


def spot_entities(analysis: QuestionAnalysis, store: GraphStore, services: Services) -> list[Spot]:
    """The graph's names in the question: longest non-overlapping spans, a lower-case common word
    ("country", "bird") dropped when capitalised names were found."""
    from byokg.linking.fuzzy import short_name_ok
    from byokg.linking.indexes import get_name_index
    from byokg.linking.numbers import number_spots
    from byokg.linking.numbers import numbers_of
    from byokg.linking.numbers import pick_by_numbers

    question = analysis.question
    idx = get_name_index(store, services)
    found = idx.spot(question, max_ngram=_W.spot_words)
    # nodes sharing a name: those whose year (or other number) the question says, if any
    said = set(pick_by_numbers(store, [i for s in found if len(s.ids) > 1 for i in s.ids],
                               numbers_of(question)))
    spots = [Spot(s.mention, s.start, s.end,
                  ([i for i in s.ids if i in said] or list(s.ids))[:_W.max_ids_per_spot])
             for s in found]
    by_span = {(s.start, s.end): s for s in spots}
    numbered = [Spot(question[a:b], a, b, list(ids)[:_W.max_ids_per_spot])
                for a, b, _name, ids in number_spots(question, idx)]  # "chemistry … 1903"
    for s in [*id_spots(analysis, store), *adjective_spots(analysis, idx), *numbered]:
        same = by_span.get((s.start, s.end))
        if same is not None:
            same.ids.extend(i for i in s.ids if i not in same.ids)
        else:
            spots.append(s)
            by_span[(s.start, s.end)] = s
    caps = {id(s): _capitalized(question, s.mention) for s in spots}
    if any(c is not False for c in caps.values()):
        # a lower-case word is kept only in a clause of its own ("… born in Nilu *and*
        # practices buddhism"): there it is the clause's entity, not a common word
        clause = _clauses(analysis)
        named = {clause(s.start) for s in spots if caps[id(s)] is not False}
        spots = [s for s in spots if caps[id(s)] is not False or clause(s.start) not in named]
    spots.sort(key=lambda s: (-(s.end - s.start), s.start))
    taken: list[Spot] = []
    for s in spots:
        toks = words(s.mention)
        if (len(toks) == 1 and (toks[0] in STOPWORDS or len(toks[0]) < 3)
                and not short_name_ok(s.mention)  # "Go", "C", "UK": vetted by the index
                and not s.mention.isdigit()):  # "number 7": the literal node named "7"
            continue
        if any(not (s.end <= t.start or s.start >= t.end) for t in taken):
            continue
        taken.append(s)
    taken.extend(acronym_spots(question, idx, store, taken))
    taken.sort(key=lambda s: s.start)
    return taken


def drop_type_words(spots: Sequence[Spot], analysis: QuestionAnalysis) -> list[Spot]:
    """Spots that are only the asked-for type written in lower case ("what *country*…",
    "which *city*…") say what is asked, not which entity: dropped when other spots remain."""
    types = set(analysis.type_words)
    keep = [s for s in spots
            if not (set(words(s.mention)) <= types and s.mention[:1].islower())]
    return keep if keep else list(spots)


def mention_labels(mentions: dict[str, Sequence[str]], store: GraphStore,
                   labels: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The labels of each mention's nodes (one batched ``get_nodes``; none on a graph with a
    single label, where labels say nothing)."""
    if len(labels) < 2:
        return {}
    ids = list(dict.fromkeys(i for v in mentions.values() for i in v))
    nodes = store.get_nodes(ids) if ids else {}
    out: dict[str, tuple[str, ...]] = {}
    for m, v in mentions.items():
        out[m] = tuple(dict.fromkeys(lab for i in v if (n := nodes.get(i)) is not None
                                     for lab in n.labels))
    return out


def spot_links(spots: Sequence[Spot], store: GraphStore) -> list[MentionLinks]:
    """Spotted mentions as linked mentions (method ``spot``), named as the graph names them."""
    names = display_names(store, [i for s in spots for i in s.ids])
    return [MentionLinks(mention=s.mention, candidates=tuple(
        Candidate(id=i, name=names.get(i, i), score=1.0, method="spot") for i in s.ids))
        for s in spots]


# --------------------------------------------------------------------------- answers


def mention_spans(question: str, mentions: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Where each mention stands in the question (first case-insensitive match)."""
    out: dict[str, tuple[int, int]] = {}
    for m in mentions:
        parts = m.split()
        if not parts:
            continue
        hit = re.search(r"(?<!\w)" + r"\W+".join(map(re.escape, parts)) + r"(?!\w)", question, re.I)
        if hit is not None:
            out[m] = (hit.start(), hit.end())
    return out


@dataclass
class Group:
    """The retrieved walks of one chain from one question entity: its end set."""

    key: str  # the relation path as text (``~directed_by -> genre``)
    mention: str
    hops: tuple[tuple[str, bool], ...]
    ends: dict[str, list[ContextItem]] = field(default_factory=dict)
    score: float = 0.0
    type_score: float = 0.0  # the weighted answer-type share of ``score``
    reported_ends: int = 0  # end nodes a tool reported (the context may hold fewer)
    truncated: bool = False  # a cap cut the walk


@dataclass
class Ranked:
    """A candidate answer: a node, or a property value."""

    name: str
    score: float
    node: str | None = None
    value: Any = None
    group: Group | None = None
    items: list[ContextItem] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)  # for values: the nodes that carry them


@dataclass
class OfflineAnswer:
    answers: list[str] = field(default_factory=list)
    answer_ids: dict[str, list[str]] = field(default_factory=dict)
    evidence: list[ContextItem] = field(default_factory=list)
    ranked: list[Ranked] = field(default_factory=list)
    chain: str | None = None  # the chain (or chain + property) that produced the answer
    notes: list[str] = field(default_factory=list)
    confidence: float | None = None  # how likely the first answer is right (fitted model)
    confidence_features: dict[str, float] = field(default_factory=dict)


def _walks(item: ContextItem, qids: set[str]) -> list[tuple[str, str, tuple[tuple[str, bool], ...]]]:
    """(question entity, candidate node, hops) for what an item says."""
    p = item.path
    if p is not None and p.hops:
        if p.start not in qids or p.end in qids or any(n in qids for n in p.nodes[1:-1]):
            return []
        return [(p.start, p.end, tuple((r, p.is_inverted(i)) for i, r in enumerate(p.relations)))]
    out = []
    for t in item.triplets:
        if t.head in qids and t.tail not in qids:
            out.append((t.head, t.tail, ((t.relation, False),)))
        elif t.tail in qids and t.head not in qids:
            out.append((t.tail, t.head, ((t.relation, True),)))
    return out


def _key(hops: Sequence[tuple[str, bool]]) -> str:
    return str(RelationPath(relations=tuple(r for r, _ in hops), inverted=tuple(i for _, i in hops)))


def _hops_of(text: str) -> tuple[tuple[str, bool], ...]:
    rp = RelationPath.parse(text)
    flags = rp.inverted or (False,) * len(rp.relations)
    return tuple(zip(rp.relations, flags, strict=True))


def format_value(value: Any, analysis: QuestionAnalysis) -> str:
    """A property value as an answer: dates in ISO form, the year alone when a year is asked."""
    asks_year = bool(lx.YEAR_WORDS & set(analysis.words))
    if isinstance(value, _dt.datetime):
        value = value.date()
    if isinstance(value, _dt.date):
        return str(value.year) if asks_year else value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    if asks_year and literal_kind(text) == "date" and re.match(r"^\d{4}-", text):
        return text[:4]
    return text


class _Answering:
    """One run of the offline answerer (see :func:`answer_offline`)."""

    def __init__(self, similarity: Similarity, store: GraphStore, entities: Sequence[MentionLinks],
                 history: Sequence[Any], labels: Sequence[str] = (),
                 relations: Sequence[str] = (), weights: OfflineWeights | None = None,
                 label_nouns: dict[str, tuple[str, ...]] | None = None) -> None:
        analysis = similarity.analysis
        self.weights = weights = weights or current_weights()
        self.w = weights.answer
        self.wtype = weights.chain.type
        self.analysis, self.store, self.services = analysis, store, similarity.services
        self.mention_of: dict[str, str] = {}
        for m in entities:
            for i in m.ids:
                self.mention_of.setdefault(i, m.mention)
        self.qids = set(self.mention_of)
        self.hints: dict[str, PathScore] = {}
        for art in history:
            for rp, ps in zip(art.relation_paths, art.path_scores, strict=False):
                k = str(rp)
                if k not in self.hints or ps.score > self.hints[k].score:
                    self.hints[k] = ps
        spans = mention_spans(analysis.question, list(dict.fromkeys(self.mention_of.values())))
        by_mention: dict[str, list[str]] = {}
        for i, m in self.mention_of.items():
            by_mention.setdefault(m, []).append(i)
        self.scorer = ChainScorer(similarity, mentions=spans, labels=labels,
                                  relations=relations,
                                  mention_labels=mention_labels(by_mention, store, labels),
                                  weights=weights, label_nouns=label_nouns)
        self.names: dict[str, str] = {}

    # -- chains
    def groups(self, items: Sequence[ContextItem]) -> dict[tuple[str, str], Group]:
        groups: dict[tuple[str, str], Group] = {}
        for it in items:
            for start, end, hops in _walks(it, self.qids):
                m = self.mention_of[start]
                key = _key(hops)
                g = groups.get((key, m))
                if g is None:
                    g = groups[(key, m)] = Group(key=key, mention=m, hops=hops)
                g.ends.setdefault(end, []).append(it)
                g.reported_ends = max(g.reported_ends, int(it.metadata.get("ends") or 0))
                g.truncated |= bool(it.metadata.get("truncated"))
        inner = [n for g in groups.values() for its in g.ends.values() for it in its[:1]
                 if it.path is not None for n in it.path.nodes[1:-1]]
        self.names.update(display_names(self.store, inner))
        for g in groups.values():
            self._rate(g)
        return groups

    def _rate(self, g: Group) -> None:
        ps = self.hints.get(g.key)
        if ps is not None:
            g.score = ps.score - (self.w.other_mention if ps.mention not in (None, g.mention)
                                  else 0.0)
            g.type_score = ps.type_score
            return
        ch = Chain(mention=g.mention, hops=g.hops)
        first = next(iter(g.ends.values()))[0]
        if first.path is not None:
            ch.unnamed_middle = tuple(is_unnamed(n, self.names.get(n)) for n in first.path.nodes[1:-1])
        rel, inv = g.hops[-1]
        ch.end_type = self.scorer.end_type(rel, inv)
        ch.type_score = self.scorer.type_score(ch.end_type)
        self.scorer.prepare([r for r, _ in g.hops])
        g.score = self.scorer.score(ch) - self.w.unproposed
        g.type_score = self.wtype * ch.type_score

    def chain_features(self, g: Group) -> dict[str, float]:
        """The scorer's features of a group's chain (for the confidence)."""
        ch = Chain(mention=g.mention, hops=g.hops)
        ch.unnamed_middle = self._middles(g)
        ch.type_score = g.type_score / self.wtype if self.wtype else 0.0
        self.scorer.prepare([r for r, _ in g.hops])
        return self.scorer.features(ch)

    def _middles(self, g: Group) -> tuple[bool, ...]:
        """Which inner nodes of a group's first walk are unnamed (CVTs)."""
        first = next(iter(g.ends.values()))[0]
        if first.path is None:
            return ()
        return tuple(is_unnamed(n, self.names.get(n)) for n in first.path.nodes[1:-1])

    def nodes(self, groups: dict[tuple[str, str], Group]) -> dict[str, Ranked]:
        cands: dict[str, Ranked] = {}
        support: dict[str, set[str]] = {}
        for g in groups.values():
            constrains = len(_steps(len(g.hops), self._middles(g))) == 1
            for node, its in g.ends.items():
                if constrains:  # one step from its entity: it can constrain the answer
                    support.setdefault(node, set()).add(g.mention)
                old = cands.get(node)
                if old is None or g.score > old.score:
                    cands[node] = Ranked(name=node, score=g.score, node=node, group=g, items=list(its))
        self.names.update(display_names(self.store, list(cands)))
        for node in list(cands):
            if is_unnamed(node, self.names.get(node)):
                del cands[node]
            else:
                cands[node].name = self.names.get(node, node)
        mention_words = {w for m in set(self.mention_of.values()) for w in words(m)}
        qwords = {w for w in self.analysis.content_words if w not in mention_words}
        met = [r.node for r in cands.values() if r.node and r.group is not None
               and support.get(r.node, set()) - {r.group.mention}]
        spec = specificity(self.store, met[:self.w.typed_candidates], self.services)
        fits = self._fits(cands)
        # a node another entity's constraint also reaches, whose own edges say nothing of the
        # type either way, is of the kind its chain's best-typed ends are: it is met, and
        # nothing says it is not one ("which company … and makes batteries": a subsidiary)
        best_fit: dict[tuple[str, str], float] = {}
        for r in cands.values():
            if r.group is not None and r.node in fits:
                gk = (r.group.key, r.group.mention)
                best_fit[gk] = max(best_fit.get(gk, 0.0), fits[r.node])
        for r in cands.values():
            others = (support.get(r.node or "", set()) - {r.group.mention}
                      if r.group is not None else set())
            if r.group is not None and r.node in fits:
                fit = fits[r.node] or (best_fit.get((r.group.key, r.group.mention), 0.0)
                                       if others else 0.0)
                r.score += self.wtype * fit - r.group.type_score
            if others:
                r.score += (self.scorer.w.conjunction * len(others)
                            * spec.get(r.node or "", 1.0))
            nw = {w for w in words(r.name) if w not in STOPWORDS}
            if nw and nw <= qwords:
                r.score -= self.w.echo
            if r.group is not None:
                r.score += self.w.walks * math.log1p(len(r.group.ends.get(r.node or "", ())))
        self.alternatives(cands)
        return cands

    def _fits(self, cands: dict[str, Ranked]) -> dict[str, float]:
        """Each of the best candidates' own type fit: its labels, and what its edges say it
        is (its roles with no labels, whether it is a kind); one batched read of the nodes
        and one of their edges."""
        top = sorted(cands.values(), key=lambda r: -r.score)[:self.w.typed_candidates]
        found = self.store.get_nodes([r.node for r in top if r.node]) if top else {}
        edges, roles, said = self.scorer.read_edges(self.store, list(found))
        fits: dict[str, float] = {}
        for r in cands.values():
            n = found.get(r.node or "")
            if n is not None and r.group is not None:
                rel, inv = r.group.hops[-1]
                t = self.scorer.end_type(rel, inv, labels=self.scorer.node_labels(n.labels),
                                         literal=literal_kind(r.name))
                t = t.model_copy(update={"roles": roles.get(n.id, ()),
                                         "said_roles": said.get(n.id, ()),
                                         "kinds": is_kind(edges, n.id, (rel, inv))})
                fits[n.id] = self.scorer.type_score(t)
        return fits

    def alternatives(self, cands: dict[str, Ranked]) -> None:
        """"Is X a man *or* a woman?": candidates whose names say one of the alternatives the
        question lists ("female" for "woman") are lifted by their similarity to it (lexical
        and the model of meaning). One batch of similarities over the best candidates."""
        toks = [t.text for t in self.analysis.tokens]
        alts: list[str] = []
        for i, t in enumerate(toks):
            if t in lx.OR_WORDS:  # the content words either side, articles skipped
                alts += [next((w for w in reversed(toks[:i]) if w not in STOPWORDS), ""),
                         next((w for w in toks[i + 1:] if w not in STOPWORDS), "")]
        alts = [w for w in dict.fromkeys(alts) if w]
        if len(alts) < 2:
            return
        top = sorted(cands.values(), key=lambda r: -r.score)[:self.w.typed_candidates]
        names = list(dict.fromkeys(r.name for r in top if r.name))
        sim = self.scorer.sim(alts, names)
        for r in top:
            r.score += self.w.alternative * max((sim.get((a, r.name), 0.0) for a in alts),
                                                default=0.0)

    # -- what the chain leaves unsaid
    def residual(self, ranked: list[Ranked]) -> None:
        """Candidates near the top whose neighbours are named by question words no entity or
        relation took ("which of the *Central American* countries ...") are lifted a little:
        the graph checks a constraint the linker did not resolve. One batched read."""
        if not ranked:
            return
        top = ranked[0].group
        said = self.scorer.said_words([r for r, _ in top.hops]) if top is not None else set()
        mention_words = {w for m in set(self.mention_of.values()) for w in words(m)}
        rest = {stem(w) for w in self.analysis.content_words
                if w not in mention_words and w not in said and not w.isdigit()}
        rest -= {stem(w) for w in self.scorer.expect.type_words}
        if not rest:
            return
        best = ranked[0].score
        near = [r for r in ranked if r.node is not None and r.score >= best - self.w.residual_band]
        near = near[:self.w.residual_candidates]
        if len(near) < 2:
            return
        hoods = self.store.neighbors([r.node for r in near if r.node],
                                     limit_per_node=self.w.residual_fanout)
        others = {t.head if t.tail == r.node else t.tail
                  for r in near for t in (hoods[r.node].triplets if r.node in hoods else ())}
        names = display_names(self.store, list(others))
        for r in near:
            hood = hoods.get(r.node or "")
            seen: set[str] = set()
            for t in hood.triplets if hood is not None else ():
                other = t.head if t.tail == r.node else t.tail
                seen.update(stem(w) for w in words(names.get(other, other)))
            hits = sum(1 for w in rest if any(x.startswith(w) or w.startswith(x)
                                              for x in seen if len(x) >= 4))
            r.score += self.w.residual * min(hits, 3)

    # -- property values
    def values(self, items: Sequence[ContextItem], groups: dict[tuple[str, str], Group],
               cands: dict[str, Ranked]) -> list[Ranked]:
        by_value: dict[str, Ranked] = {}
        numbers = {normalize(n).replace(" ", "") for n in self.analysis.numbers}
        for it in items:
            if it.kind != "property":
                continue
            md = it.metadata
            node, prop, value = md.get("node"), md.get("property"), md.get("value")
            if not isinstance(node, str) or not isinstance(prop, str) or value is None:
                continue
            parent = str(md.get("relation_path") or "")
            if parent:
                hops = _hops_of(parent)
                mention = next((g.mention for (k, _m), g in groups.items()
                                if k == parent and node in g.ends), None)
                ps = self.hints.get(parent)
                if mention is None and ps is not None:
                    mention = ps.mention  # the walk itself was left out of the context
            else:
                hops, mention = (), self.mention_of.get(node)
            if mention is None:
                continue
            if numbers and normalize(str(value)).replace(" ", "") in numbers and node in cands:
                cands[node].score += self.w.number_match  # the question names this value
            full = (*hops, (prop, False))
            ch = Chain(mention=mention, hops=full)
            ch.end_type = end_type(prop, False, literal=literal_kind(value)).model_copy(
                update={"value": True})
            ch.type_score = self.scorer.type_score(ch.end_type)
            self.scorer.prepare([prop])
            score = self.scorer.score(ch)
            name = format_value(value, self.analysis)
            r = by_value.get(name)
            if r is None or score > r.score + 1e-9:  # evidence: the best-scored nodes only
                by_value[name] = Ranked(name=name, score=score, value=value, items=[it],
                                        nodes=[node])
            elif score >= r.score - 1e-9 and node not in r.nodes:
                r.nodes.append(node)
                r.items.append(it)
        return list(by_value.values())


def answer_offline(
    similarity: Similarity,
    items: Sequence[ContextItem],
    store: GraphStore,
    *,
    entities: Sequence[MentionLinks] = (),
    history: Sequence[Any] = (),
    max_answers: int = 10,
    tie: float = 0.02,
    labels: Sequence[str] = (),
    relations: Sequence[str] = (),
    label_nouns: dict[str, tuple[str, ...]] | None = None,
) -> OfflineAnswer:
    """The answer from the retrieved context (see the module doc); ``labels`` and
    ``relations``: the graph's node labels and relation names (from its profile)."""
    analysis = similarity.analysis
    a = _Answering(similarity, store, entities, history, labels, relations,
                   label_nouns=label_nouns)
    groups = a.groups(items)
    cands = a.nodes(groups)
    ranked = list(cands.values()) + a.values(items, groups, cands)
    out = OfflineAnswer()
    if not ranked:
        return out
    ranked.sort(key=lambda r: (-r.score, r.name))
    a.residual(ranked)
    ranked.sort(key=lambda r: (-r.score, r.name))
    out.ranked = ranked
    best = ranked[0]
    top = [r for r in ranked if r.score >= best.score - tie]
    if best.group is not None:
        out.chain = best.group.key
    elif best.items:
        md = best.items[0].metadata
        out.chain = " -> ".join(x for x in (md.get("relation_path"), md.get("property")) if x)
    g = best.group
    out.confidence_features = confidence_features(
        ranked, len(top), a.chain_features(g) if g is not None else None,
        g.type_score / a.wtype if g is not None and a.wtype else 0.0)
    out.confidence = confidence(out.confidence_features, a.weights.confidence)
    if analysis.kind == "count" and best.node is not None and literal_kind(best.name) is None:
        _count(out, best, top)
        return out
    for r in top[:max_answers]:
        if r.name not in out.answer_ids:
            out.answers.append(r.name)
        ids = out.answer_ids.setdefault(r.name, []) if r.node is not None else None
        if ids is not None and r.node not in ids:
            ids.append(r.node)
    out.answer_ids = {k: v for k, v in out.answer_ids.items() if v}
    out.evidence = _evidence(top[:max_answers])
    return out


def _count(out: OfflineAnswer, best: Ranked, top: Sequence[Ranked]) -> None:
    """"How many": the number of distinct nodes in the winning chain's end set."""
    g = best.group
    assert g is not None
    members = [r for r in top if r.group is g]
    n = len(members)
    if g.reported_ends > n and len(members) == len(g.ends):
        n = g.reported_ends  # the tool walked more ends than the context budget kept
    if g.truncated:
        out.notes.append(f"the walk of {g.key} hit a cap: {n} may be fewer than there are")
    label = str(n)
    out.answers = [label]
    out.answer_ids = {label: [r.node for r in members if r.node]}
    out.evidence = _evidence(members)


def _evidence(ranked: Sequence[Ranked]) -> list[ContextItem]:
    seen: set[int] = set()
    out: list[ContextItem] = []
    for r in ranked:
        for it in r.items:
            if id(it) not in seen:
                seen.add(id(it))
                out.append(it)
    return out
