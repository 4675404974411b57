"""Relation chains: the offline reasoner's candidate answers, and how they are scored.

A *chain* is a relation sequence of 1–3 hops walked from one of the question's entities, each
hop in a fixed direction (``directed_by`` forwards, ``~directed_by`` backwards). Its *end set*
(the nodes it reaches) is a candidate answer set. :func:`enumerate_chains` walks the graph
around the linked entities in batched ``neighbors`` calls, bounded by caps (fan-out per node,
prefixes extended per hop, nodes expanded per prefix), and never lets a chain come back to a
node it passed or to any of the question's entities ("co-stars of Z" never answers Z).

:class:`ChainScorer` scores a chain against the question:

* **alignment** (:meth:`ChainScorer.align`): the question's *units* (runs of content words,
  :mod:`byokg.plugins.offline.units`) are aligned with the chain's steps by enumeration
  (chains have at most three steps): every step should be said by a unit of its own and every
  unit of the mention's clause by one step. How well a unit says a relation is *relative to
  the graph* (:meth:`~byokg.models.similarity.Similarity.unit_scores`: the cosine's z-score
  among the unit's cosines to every relation of the graph, gated by the absolute cosine, or
  the lexical match); a relational noun tells the direction of a step ("the *parents* of X"
  walks ``children`` backwards: its converse noun, from the lexicon). Costs: steps no unit
  says (*idle*; trailing ones towards an end of the asked-for type are only *led*), steps said
  weakly, units no step takes (*leftover*, more when a relation of the graph says them well:
  a hop may be missing), steps whose units stand against the question's nesting (*order*),
  steps walked against their relational noun (*converse*). Two hops through an unnamed node
  (a Freebase CVT) count as one step;
* **answer type** (:mod:`byokg.plugins.offline.answer_types`): the end set fits what is asked,
  or the type word asked as an attribute ("what *sex* is X") says the last step;
* a small cost per step, and a bonus when the end set meets another entity of the question
  (a conjunction such as "… in the Mountain Time Zone").

Nothing here names a relation, label or question template of any graph.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from byokg.plugins.offline.answer_types import KIND_WORDS
from byokg.plugins.offline.answer_types import EndType
from byokg.plugins.offline.answer_types import Expectation
from byokg.plugins.offline.answer_types import end_type
from byokg.plugins.offline.answer_types import expectation
from byokg.plugins.offline.answer_types import role_nouns
from byokg.plugins.offline.answer_types import type_match
from byokg.plugins.offline.units import Structure
from byokg.plugins.offline.units import Unit
from byokg.plugins.offline.units import structure
from byokg.plugins.offline.weights import WEIGHTS
from byokg.plugins.offline.weights import OfflineWeights
from byokg.plugins.offline.weights import current as current_weights

from byokg.contracts import Direction
from byokg.contracts import Path
from byokg.contracts import RelationPath
from byokg.graph.profile import is_unnamed
from byokg.graph.store import GraphStore
from byokg.language import lexicon as lx
from byokg.language.analysis import SHARING_WORDS
from byokg.language.analysis import Phrase
from byokg.language.analysis import QuestionAnalysis
from byokg.language.analysis import humanize_relation
from byokg.language.literals import literal_kind
from byokg.language.relwords import base_verb
from byokg.language.relwords import composed
from byokg.language.relwords import converse_noun
from byokg.language.relwords import end_nouns
from byokg.language.relwords import hypernym
from byokg.language.relwords import names_noun
from byokg.language.relwords import subject_end
from byokg.language.relwords import verb_role
from byokg.language.relwords import verbalize
from byokg.language.text import STOPWORDS
from byokg.language.text import stem
from byokg.language.text import words
from byokg.language.thesaurus import names_by_letters
from byokg.language.thesaurus import related_words
from byokg.models.similarity import Similarity

Hop = tuple[str, bool]  # (relation, walked against its stored direction)
# per node, the (relation, node is its head) pairs of its edges read and how many meet it
NodeEdges = dict[str, tuple[frozenset[Hop], int]]
# the order key of the noun right after the mention's possessive ("X 's *desk*"): it names
# what X itself is linked to, so it says the chain's first step (units module)
POSSESSIVE_FIRST = (0, 0)

_DO_WORDS = lx.DO_WORDS
_CLAUSE_WORDS = lx.CLAUSE_WORDS
_GENERIC_KIND_WORDS = frozenset(w for ws in KIND_WORDS.values() for w in ws)


@dataclass
class Alignment:
    """How the question's units say a chain's steps (see :meth:`ChainScorer.align`)."""

    said: float = 0.0  # sum over steps of how well its own unit says it
    matched: int = 0  # steps said by a unit of their own (the type word's included)
    idle: int = 0  # steps no unit says
    lead_idle: int = 0  # unsaid steps before the one the possessive "X 's N" says
    led: int = 0  # trailing steps no unit says, towards an end of the asked-for type
    weak: int = 0  # steps a unit of their own says only weakly
    leftover: int = 0  # units of the question (this mention's) no step takes
    leftover_said: float = 0.0  # ... weighted by how well the graph could say them
    order: int = 0  # pairs of steps whose units stand against the question's nesting
    converse: int = 0  # steps walked against the relational noun that says them
    shared: int = 0  # steps whose unit also says another step (a mirrored relation)
    type: float = 0.0  # the end set's type fit, or the type word saying the last step
    coverage: float = 0.0  # share of this mention's units the steps take
    steps: tuple[float, ...] = ()  # per step, how well its own unit says it
    reps: tuple[int | None, ...] = ()  # per step, the index of the unit that says it


@dataclass
class Chain:
    """One relation chain from one mention, with its instantiated end set."""

    mention: str
    hops: tuple[Hop, ...]
    ends: dict[str, int] = field(default_factory=dict)  # end node -> walks reaching it
    via: dict[str, tuple[str, ...]] = field(default_factory=dict)  # end -> nodes of one walk
    truncated: bool = False  # a cap cut the walk: the end set may be incomplete
    unnamed_middle: tuple[bool, ...] = ()  # per inner node position: mostly unnamed
    literal_middle: tuple[bool, ...] = ()  # per inner node position: mostly a year/date/number
    end_type: EndType | None = None
    type_score: float = 0.0
    conjunction: float = 0.0  # other mentions whose one-step reach the end set meets,
    # each weighted by how specific the meeting node is (see :func:`specificity`)
    partners: list[Chain] = field(default_factory=list)  # their chains that meet it
    score: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)
    features: dict[str, float] = field(default_factory=dict)  # the scorer's, by name

    @property
    def relation_path(self) -> RelationPath:
        return RelationPath(relations=tuple(r for r, _ in self.hops),
                            inverted=tuple(i for _, i in self.hops))

    @property
    def last(self) -> Hop:
        return self.hops[-1]

    def add(self, nodes: tuple[str, ...], cap: int = WEIGHTS.caps.max_ends) -> None:
        end = nodes[-1]
        if end in self.ends:
            self.ends[end] += 1
        elif len(self.ends) < cap:
            self.ends[end] = 1
            self.via[end] = nodes
        else:
            self.truncated = True

    def examples(self, n: int = WEIGHTS.caps.sample_paths) -> list[Path]:
        """Up to ``n`` walks of this chain, one per end node."""
        rels = tuple(r for r, _ in self.hops)
        inv = tuple(i for _, i in self.hops)
        return [Path(nodes=nodes, relations=rels, inverted=inv)
                for nodes in itertools.islice(self.via.values(), n)]


# --------------------------------------------------------------------------- scoring


class ChainScorer:
    """Scores hop sequences against one question (see the module doc). Thread-safe through the
    analysis' own memoisation; cheap to build."""

    def __init__(self, similarity: Similarity, *,
                 mentions: dict[str, tuple[int, int]] | None = None,
                 labels: Sequence[str] = (), relations: Sequence[str] = (),
                 mention_labels: dict[str, Sequence[str]] | None = None,
                 weights: OfflineWeights | None = None,
                 label_nouns: dict[str, tuple[str, ...]] | None = None,
                 label_properties: dict[str, Sequence[str]] | None = None) -> None:
        self.weights = weights = weights or current_weights()
        # per label, its node properties (a property graph: dates and numbers live there)
        self.label_properties = {k: tuple(v) for k, v in (label_properties or {}).items()}
        self._prop_said: dict[tuple[int, str], bool] = {}
        self.w = weights.chain
        self.similarity = similarity
        self.analysis = analysis = similarity.analysis
        self.services = similarity.services
        self.vocabulary = tuple(relations)  # the graph's relation names (calibrates similarity)
        self.mentions = dict(mentions or {})
        self.mention_labels = {m: tuple(v) for m, v in (mention_labels or {}).items()}
        mention_words = {w for m in self.mentions for w in words(m)}
        # labels say something only when the graph has more than one
        self.labels = tuple(labels) if len(labels) > 1 else ()
        self.expect: Expectation = expectation(analysis, mention_words, labels=self.labels,
                                               sim=self.type_sim,
                                               types=type_segments(relations),
                                               scores=weights.types,
                                               label_nouns=label_nouns)
        type_word = next(iter(self.expect.type_words), None)
        self.phrases: tuple[Phrase, ...] = analysis.phrases(
            list(self.mentions.values()), type_word=type_word)
        self.out_and_back = False  # a composed noun walks out and back (:meth:`_composed`)
        self.structure: Structure = self._composed(structure(analysis, self.mentions,
                                                             type_word))
        self.units: tuple[Unit, ...] = self.structure.units
        self._dropped = self._own_units()
        # per unit, the texts compared with relations: the unit, its words, their general
        # nouns ("daughter" -> "child", discounted)
        self._probes: list[tuple[list[str], list[str]]] = []
        for u in self.units:
            # (not with the preposition after it: embedders read "starred by" close to
            # "directed by" for the shared frame, not for what is said)
            direct = list(dict.fromkeys([*([u.text] if len(u.words) > 1 or u.phrasal else []),
                                         *(u.words if not u.phrasal else ())]))
            general = [h for w in u.words if (h := hypernym(w)) and h not in direct]
            self._probes.append((direct, general))
        self._meanings = [self._thesaurus_words(u) for u in self.units]
        self._unsaid_units: set[int] | None = None
        # (unit, relation) -> how well the unit says it; (unit, relation) -> noun sides
        self._us: dict[tuple[int, str], float] = {}
        self._sides: dict[tuple[int, str], int] = {}
        self._prepared: list[str] = []
        self._sayable: dict[int, float] = {}
        self._lexical: dict[tuple[int, str], float] = {}
        self._aligned: dict[tuple[Any, ...], Alignment] = {}
        self._typed: dict[EndType, float] = {}
        self._meant: dict[tuple[Hop, ...], float] = {}
        self.who_verb, self.voice = question_verb(analysis, self.expect, mention_words)
        self.role = prepositional_role(analysis, mention_words, self.who_verb, self.voice)
        self.semantic = similarity.model is not None
        self._warm()

    def _composed(self, st: Structure) -> Structure:
        """A relational noun that names a chain of one relation taken again ("X 's
        *grandfather*": a parent's parent, lexicon ``COMPOSED_RELATIONAL_NOUNS``) becomes one
        unit per step, each the plain noun ("parent"), when no relation of the graph is named
        by the noun, its general noun or their converse (a graph with a ``grandchildren``
        relation keeps "grandfather" whole)."""
        def split(text: str, depth: int = 0) -> tuple[str, ...]:
            got = composed(text)
            if not got or depth > 2 or any(names_noun(text, r) for r in self.vocabulary):
                return (text,) if depth else ()
            # each step again, when the graph names it by no relation of its own ("uncle":
            # parent, sibling; without a sibling relation: parent, parent, child)
            if any(b in converse_noun(a) for a, b in itertools.pairwise(got)):
                self.out_and_back = True  # a sibling: up to a parent and down again
            return tuple(w for p in got for w in split(p, depth + 1))

        toks = self.token_texts
        in_law = " ".join(lx.IN_LAW)
        # "father in law" is two units ("in" is no content word): read as one noun
        law = {k + 1 for k, (u, v) in enumerate(itertools.pairwise(st.units))
               if v.words == lx.IN_LAW[1:] and u.kind == "plain" and v.start == u.end + 2
               and toks[u.end + 1] == lx.IN_LAW[0] and composed(f"{u.text} {in_law}")}
        parts = {k: got for k, u in enumerate(st.units)
                 if u.kind == "plain" and k not in law
                 and (got := split(f"{u.text} {in_law}" if k + 1 in law else u.text))}
        if not parts:
            return st
        units: list[Unit] = []
        at: dict[int, list[int]] = {}
        for k, u in enumerate(st.units):
            if k in law and k - 1 in parts:
                at[k] = []  # said by the noun before it
                continue
            steps = parts.get(k, ())
            news = [dataclasses.replace(u, text=w, words=(w,), noun=True) for w in steps] or [u]
            at[k] = list(range(len(units), len(units) + len(news)))
            units += news
        # the parts are walked in their order from the owner: each gets an order key of its
        # own between its noun's and the next unit's (every key spread to make room)
        room = max(map(len, at.values()))
        owned = {m: {j: (key[0], key[1] * room + i) for k, key in keys.items()
                     for i, j in enumerate(at[k])}
                 for m, keys in st.owned.items()}
        return Structure(units=tuple(units), owned=owned)

    def _own_units(self) -> set[int]:
        """Units that only name a type: another word of the asked-for type's noun phrase
        ("which *record* company": with "company" it names the answer's class, and no step
        has to say it); and the type of the mention they stand by
        ("the Seafood *category*", "the *city* of Paris"): the mention's own label, next to
        it (or with "of" between). "The *supplier* of Chai" keeps its word: Chai is no
        supplier."""
        named = {k for k, u in enumerate(self.units) if u.in_type}
        own = {m: labs for m, labs in self.mention_labels.items()
               if m in self.mentions and labs}
        if not self.labels or not own:
            return named
        toks = self.analysis.tokens
        spans = self.mention_tokens
        lex = self.lex([u.words[-1] for u in self.units],
                       sorted({x for v in own.values() for x in v}))
        out = set()
        for k, u in enumerate(self.units):
            if u.kind == "type":
                continue
            for m, labs in own.items():
                at = spans.get(m) or []
                if not at or max(lex[(u.words[-1], lab)] for lab in labs) < self.w.type_word_says:
                    continue
                d = min(abs(u.start - at[-1]), abs(at[0] - u.end)) - 1
                if d == 0 or (d == 1 and u.end + 1 < len(toks)
                              and toks[u.end + 1].text == lx.RELATIONAL_OF):
                    out.add(k)
        return out | named

    def _warm(self) -> None:
        """Embed every text this question will compare, in one batch (the model is slowest
        when called often with a few texts), the question itself with its mentions masked
        among them; relation names are embedded once per process."""
        if self.similarity.model is None:
            return
        texts = [p for d, g in self._probes for p in (*d, *g)] + list(self.expect.type_words)
        texts += [w for ws in KIND_WORDS.values() for w in ws] + list(self.labels)
        sim = self.similarity
        # the question as the meaning feature and the reading rerank see it
        questions = [sim.question_text(self.mask_spans)] if self.w.meaning else []
        if sim.contextual and self.w.reading_band > 0.0:
            questions.append(sim.question_text(self.mask_spans, placeholder=True))
        sim.warm(texts, questions)

    # -- word similarity
    def sim(self, left: Sequence[str], right: Sequence[str]) -> dict[tuple[str, str], float]:
        return self.similarity.phrase_similarity(left, right, vocabulary=self.vocabulary)

    def type_sim(self, left: Sequence[str], right: Sequence[str]
                 ) -> dict[tuple[str, str], float]:
        """Word-to-name similarity for answer types (against labels and the nouns naming a
        hop's ends). A type word the question writes is compared by the calibrated
        similarity itself: whether a writer is a person does not depend on what else the
        graph has (relative to a film graph's relations, "movies" is nearest ``genre``). The
        generic words a question word stands for ("place" for *where*, "person" for *who*)
        are compared relative to the graph's names, as a unit is (:meth:`prepare`): the
        most place-like ends of a graph are where *where* points, though "place" is near
        no name in absolute terms."""
        if all(w in _GENERIC_KIND_WORDS for w in left):
            vocab = (*self.vocabulary, *self.labels)
            return self.similarity.unit_scores(left, right, vocabulary=vocab,
                                               spread=(self.w.z_low, self.w.z_high),
                                               gate=self.w.gate, own_texts=True)
        # the nouns naming the ends are read as themselves: a noun that is also a relation's
        # name (``maintainer`` walked forwards) is not that relation's phrases both ways
        return self.similarity.phrase_similarity(left, right, vocabulary=self.vocabulary,
                                                 own_texts=True)

    def prepare(self, relations: Sequence[str]) -> None:
        """How well each unit says each of these relations, and which way its relational
        noun reads them, in one batch into this scorer's own tables."""
        todo = [r for r in dict.fromkeys(relations) if (0, r) not in self._us]
        if not self.units or not todo:
            return
        direct = list(dict.fromkeys(p for d, _g in self._probes for p in d))
        general = list(dict.fromkeys(p for _d, g in self._probes for p in g))
        spread = (self.w.z_low, self.w.z_high)
        unsaid = self._unsaid()
        got = self.similarity.unit_scores([*direct, *general], todo,
                                          vocabulary=self.vocabulary, spread=spread,
                                          gate=self.w.gate)
        for k, (d, g) in enumerate(self._probes):
            # relational nouns, and the type word asked as an attribute ("which *city* is X
            # a native of"): the end a relation's words call by it is the one it names
            nouns = self.units[k].noun or (self.units[k].kind == "type"
                                           and self.units[k].attribute)
            for r in todo:
                s = max((got[(p, r)] for p in d), default=0.0)
                if g:
                    s = max(s, self.w.general * max(got[(p, r)] for p in g))
                if k in unsaid and s < self.w.thesaurus:
                    s = max(s, self.w.thesaurus * names_by_letters(self._meanings[k], r))
                if s > 0.0 and self._other_preposition(k, r):
                    s *= self.w.other_preposition
                self._us[(k, r)] = s
                if nouns and s > 0.0:
                    sides = self.similarity.noun_sides([*d, *g], r)
                    fwd = max(v[0] for v in sides.values())
                    bwd = max(v[1] for v in sides.values())
                    gap = self.w.side_margin
                    side = (1 if fwd >= bwd + gap else -1 if bwd >= fwd + gap else
                            verb_noun_side(r, self.units[k].words[-1]))
                    # "whose *pupil* was X": X is the pupil, the answer the other end
                    self._sides[(k, r)] = -side if self.units[k].possessed else side
        self._prepared += todo
        self._sayable.clear()
        self._aligned.clear()

    def _other_preposition(self, k: int, relation: str) -> bool:
        """Whether unit ``k`` is a verb with a preposition and the relation's name the same
        verb with another one ("works *from*" and ``WORKS_IN``: another relation; "born *in*"
        and ``born_in`` or ``birthPlace`` are not such a pair)."""
        u = self.units[k]
        if (not u.prep or u.noun or u.prep in lx.AGENT_PREPOSITIONS
                or u.prep == lx.RELATIONAL_OF or len(u.words) != 1):
            return False  # ("the *director of* X" is a noun, not a verb)
        verb, preps = verb_and_prepositions(relation)
        if not preps or verb is None or u.prep in preps:
            return False
        return stem(u.words[0]) == stem(verb)

    def _thesaurus_words(self, u: Unit) -> tuple[str, ...]:
        """What a relational noun's words can mean by the thesaurus ("X 's *trade*":
        *occupation*); nothing for other units (see :meth:`_unsaid`)."""
        if not (self.w.thesaurus and u.noun):
            return ()
        texts = ((u.text,) if len(u.words) > 1 else ()) + tuple(u.words)
        return tuple(dict.fromkeys(m for x in texts for m in related_words(x)))

    def _unsaid(self) -> set[int]:
        """Units with thesaurus words that no relation of the graph says by their own words
        (below ``said_min``): only those are read through the thesaurus, so a word the graph
        spells ("plays") is not read as another sense ("perform")."""
        if self._unsaid_units is None:
            ks = [k for k, m in enumerate(self._meanings) if m]
            self._unsaid_units = set()
            if ks and self.vocabulary:
                texts = {k: (*self._probes[k][0], *self._probes[k][1]) for k in ks}
                got = self.similarity.unit_scores(
                    list(dict.fromkeys(p for ps in texts.values() for p in ps)),
                    self.vocabulary, vocabulary=self.vocabulary,
                    spread=(self.w.z_low, self.w.z_high), gate=self.w.gate)
                self._unsaid_units = {
                    k for k, ps in texts.items()
                    if max((got[(p, r)] for p in ps for r in self.vocabulary), default=0.0)
                    < self.w.said_min}
        return self._unsaid_units

    def unit_says(self, k: int, hop: Hop) -> tuple[float, bool]:
        """How well unit ``k`` says a hop, and whether the hop walks against the relational
        noun that says it ("the *parents* of X" read along ``children`` forwards)."""
        rel, inv = hop
        unit = self.units[k]
        if inv and unit.implied and not unit.by_preposition and subject_end(rel) == "head":
            return 0.0, False  # "*where* is X": the place a noun names is its tail, not its head
        s = self._us.get((k, rel), 0.0)
        side = self._sides.get((k, rel), 0)
        return s, bool(side) and (side < 0) != inv

    def sayable(self, k: int) -> float:
        """How well the best relation seen so far says unit ``k``."""
        got = self._sayable.get(k)
        if got is None:
            got = self._sayable[k] = max((self._us.get((k, r), 0.0) for r in self._prepared),
                                         default=0.0)
        return got

    def node_labels(self, labels: Sequence[str]) -> tuple[str, ...]:
        """The informative ones among a node's labels (none on a one-label graph)."""
        return tuple(x for x in labels if x in self.labels) if self.labels else ()

    def said_words(self, relations: Sequence[str] | None = None) -> set[str]:
        """Question words a unit that says one of these relations holds (similarity ``said``
        or more)."""
        rels = set(self._prepared if relations is None else relations)
        return {w for (k, r), v in self._us.items() if r in rels and v >= self.w.said_min
                for w in self.units[k].words}

    def lex(self, left: Sequence[str], right: Sequence[str]) -> dict[tuple[str, str], float]:
        return self.similarity.phrase_similarity(left, right, semantic=False)

    def end_type(self, relation: str, inverted: bool, *, labels: Sequence[str] = (),
                 literal: Any = None) -> EndType:
        """The type of the ends of a hop (:func:`~byokg.plugins.offline.answer_types.end_type`), knowing the
        verb the question asks *who* did."""
        active = False
        if inverted and self.who_verb and self.voice == "subject":
            active = (self.lex([self.who_verb], [relation])[(self.who_verb, relation)]
                      >= self.w.active_verb)
        got = end_type(relation, inverted, labels=labels, literal=literal, active=active)
        said = self.said_end_nouns(relation, inverted)  # walked backwards: the heads
        if said:
            got = got.model_copy(update={"end_nouns": tuple(dict.fromkeys(
                (*got.end_nouns, *said)))})
        return got

    def said_end_nouns(self, relation: str, head: bool) -> tuple[str, ...]:
        """What the owner's lexicon or an LLM compilation call the relation's heads
        (``head``) or tails (:meth:`~byokg.graph.vocabulary.Vocabulary.end_nouns`); none
        without them."""
        voc = self.similarity.vocabulary
        return voc.end_nouns(relation, head) if voc is not None else ()

    def read_edges(self, store: GraphStore, ids: Sequence[str]
                   ) -> tuple[NodeEdges, dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
        """The nodes' own edges and their roles, read only when the question's type can use
        them (:attr:`~byokg.plugins.offline.answer_types.Expectation.reads_edges`): roles on a
        graph without labels, kinds (:func:`is_kind`) for a category."""
        if not ids or not self.expect.reads_edges or (self.labels and not self.expect.category):
            return {}, {}, {}
        edges = node_edges(store, ids, self.weights.caps.role_edges)
        if self.labels:
            return edges, {}, {}
        said = said_roles(edges, self.said_end_nouns)
        # the roles by the relations' names, then by the lexicon's or the LLM's nouns
        return edges, {i: tuple(dict.fromkeys((*names, *said[i])))
                       for i, names in node_roles(edges).items()}, said

    def type_score(self, end: EndType) -> float:
        got = self._typed.get(end)
        if got is None:
            got = self._typed[end] = type_match(self.expect, end, self.type_sim, self.lex,
                                                semantic=self.semantic, scores=self.weights.types)
        return got

    def voice_fit(self, hop: Hop) -> float:
        """+1 when the last hop reaches the role the question asks for with its verb ("which
        moons *orbit* Mars": the subjects of ``orbits``, its heads; "what does Mars *orbit*":
        its tails), -1 for the other role, 0 when the relation is not that verb. A passive or
        agent-noun name (``directed_by``, ``director``) has its agent at the tail."""
        if not self.who_verb or not self.voice:
            return self.role_fit(hop)
        return verb_fit(hop, self.who_verb, self.voice == "subject", self.role is not None) \
            or self.role_fit(hop)

    def clause_voice(self, hops: Sequence[Hop], steps: Sequence[Sequence[int]],
                     al: Alignment, mention: str) -> float:
        """+1 / -1 per step said by a verb of a clause whose grammar places the step's end
        (:meth:`clause_role`), read as :func:`verb_fit`: "the writer who *inspired* X" reaches
        the subject of ``INSPIRED_BY`` (its tail), "the companies X *owns*" the object of
        ``OWNED_BY`` (its heads). The question's own verb is read by :meth:`voice_fit`."""
        total = 0.0
        for st, u in enumerate(al.reps):
            if u is None or st >= len(steps) or not steps[st]:
                continue
            unit = self.units[u]
            if self.who_verb and self.who_verb in unit.words:
                if self.voice and st < len(steps) - 1:
                    # the question's own verb said an inner step: it places that step as it
                    # would the last ("what orbit did X *fly*": not the crew who flew X)
                    total += verb_fit(hops[steps[st][-1]], self.who_verb,
                                      self.voice == "subject", self.role is not None)
                continue
            role = self.clause_role(mention, u)
            if role is not None:
                total += verb_fit(hops[steps[st][-1]], unit.words[0], role == "agent", False)
        return total

    def verb_against(self, hops: Sequence[Hop], steps: Sequence[Sequence[int]],
                     al: Alignment, mention: str) -> int:
        """1 when the question's own verb, with the mention itself its subject or object
        (:meth:`direct_verb`), says an inner step walked against its grammar ("what orbit did
        X *fly*" along ``FLEW_ABOARD`` backwards: X is no flyer), like a relational noun
        walked against its direction (``converse``); the last step is :meth:`voice_fit`'s."""
        if not self.voice:
            return 0
        for st, u in enumerate(al.reps[:len(steps) - 1]):
            if u is not None and steps[st] and self.direct_verb(mention, u) and verb_fit(
                    hops[steps[st][-1]], self.who_verb or "", self.voice == "subject",
                    self.role is not None) < 0:
                return 1
        return 0

    def clause_role(self, mention: str, k: int) -> str | None:
        """What the node a step says with verb unit ``k`` is to that verb, by the question's
        grammar around ``mention``: ``"agent"`` when the verb's object follows it ("the
        writer who *inspired* X", "who *manages* the people …"), ``"patient"`` when the
        verb's subject stands before it ("the companies X *owns*", "whom did X *train*") or
        its agent follows *by* ("the books *written by* X"). None for nouns, type words,
        verbs with another preposition and what the grammar does not tell."""
        u = self.units[k]
        at = self.mention_tokens.get(mention)
        key = self.structure.of(mention).get(k)
        if u.kind != "plain" or u.noun or u.implied or not at or key is None:
            return None
        toks = self.token_texts
        controls = (u.prep == lx.INFINITIVE_MARKER  # "taught X *to* fly": no preposition
                    and (base_verb(u.words[0]) or u.words[0]) in lx.OBJECT_CONTROL_VERBS)
        if u.prep and u.prep not in lx.AGENT_PREPOSITIONS and not controls:
            return None
        first = at[0]
        if u.prep and not controls:
            return "patient" if u.end < first else None
        if key[0] == 2:
            return "patient"
        nxt = toks[u.end + 1] if u.end + 1 < len(toks) else ""
        if u.end < first and (u.end + 1 == first or nxt in lx.ARTICLES):
            return "agent"
        if u.start > first and _after_do(toks, first):
            return "patient"
        return None

    def role_fit(self, hop: Hop) -> float:
        """-1 when the last hop reaches the other role than the one a verb with a
        preposition asks for, read from the question's grammar (:func:`prepositional_role`),
        along a relation whose name puts the subject at its head
        (:func:`~byokg.language.relwords.subject_end`): "who *plays for* X" wants ``team``
        backwards (the subjects, its heads), "where does X *play*" wants it forwards (the
        prepositional object, its tail). 0 for the right role (no bonus: a bonus added hops
        elsewhere) and when the grammar or the name does not tell."""
        if self.role is None or subject_end(hop[0]) is None:
            return 0.0
        return 0.0 if hop[1] == (self.role == "subject") else -1.0

    # -- alignment
    def owned(self, mention: str) -> dict[int, tuple[int, int]]:
        """The units a chain from ``mention`` should say, with their order keys."""
        return {k: v for k, v in self.structure.of(mention).items() if k not in self._dropped}

    def property_said(self, u: int, labels: Sequence[str]) -> bool:
        """Whether unit ``u`` names a node property of one of these labels ("when was X
        *released*": a Movie's ``released``): the answerer reads it off the chain's ends, so
        no step has to say the unit."""
        for lab in labels:
            key = (u, lab)
            got = self._prop_said.get(key)
            if got is None:
                props = [p for p in self.label_properties.get(lab, ())]
                got = False
                if props:
                    table = self.lex(list(self.units[u].words), props)
                    got = max(table.values(), default=0.0) >= self.w.repeat_says
                self._prop_said[key] = got
            if got:
                return True
        return False

    def align(self, hops: Sequence[Hop], mention: str = "",
              steps: Sequence[Sequence[int]] | None = None, type_fit: float = 0.0,
              end_labels: Sequence[str] = ()) -> Alignment:
        """The best alignment of the question's units with the chain's steps.

        Every step should be said by a unit of its own and every unit (of this mention) by
        one step; the asked-for type word may say the last step instead of the end set's
        type; the units of later steps should stand further out in the question's nesting
        around the mention (:mod:`~byokg.plugins.offline.units`). ``steps`` groups hop
        indexes into steps (hops through an unnamed node form one step); default one step
        per hop."""
        k = len(hops)
        steps = [list(st) for st in steps] if steps is not None else [[i] for i in range(k)]
        if not k:
            return Alignment()
        props = tuple(x for x in end_labels if self.label_properties.get(x))
        key = (tuple(hops), mention, tuple(tuple(st) for st in steps), round(type_fit, 3), props)
        got = self._aligned.get(key)
        if got is None:
            got = self._aligned[key] = self._align(list(hops), mention, steps, type_fit, props)
        return got

    def _align(self, hops: list[Hop], mention: str, steps: list[list[int]],
               type_fit: float, end_labels: Sequence[str] = ()) -> Alignment:
        """:meth:`align` itself: every choice of a unit per step (the ``candidate_phrases``
        best ones, or none) is valued by the weights and the best kept (chains have at most
        three steps); long because the valuation is one formula over the choice."""
        w = self.w
        self.prepare([r for r, _ in hops])
        owned = self.owned(mention)
        plain = [u for u in owned if self.units[u].kind == "plain"]
        typed = [u for u in owned if self.units[u].kind == "type"]
        last = len(steps) - 1
        says: dict[tuple[int, int], tuple[float, bool]] = {}
        options: list[list[int | None]] = []
        for st, idx in enumerate(steps):
            for u in [*plain, *typed]:
                best = max((self.unit_says(u, hops[i]) for i in idx),
                           key=lambda v: v[0] - w.converse * v[1])
                says[(st, u)] = best
            ranked = sorted(plain, key=lambda u, st=st: -(says[(st, u)][0]
                                                            - w.converse * says[(st, u)][1]))
            # what a question word implies ("*where* is …": a place) says a step only
            # when no other step of the chain says it already ("where was X born")
            ranked = [u for u in ranked if not self.units[u].implied or not any(
                self._us.get((u, hops[i][0]), 0.0) >= w.said_min
                for o, oidx in enumerate(steps) if o != st for i in oidx)]
            opts: list[int | None] = list(ranked[:w.candidate_phrases])
            if st == last:  # the type word asked as an attribute ("what *sex* is X")
                opts += [u for u in typed if self.units[u].attribute]
            options.append([*opts, None])
        sayable = {u: self.sayable(u) for u in plain}
        mirrored = {st for st in range(1, len(steps))
                    if any(hops[a][0] == hops[b][0] and hops[a][1] != hops[b][1]
                           for a in steps[st - 1] for b in steps[st])}
        best, best_value = Alignment(idle=len(steps), type=type_fit), -99.0
        for choice in itertools.product(*options):
            used = [u for u in choice if u is not None]
            shared = len(used) - len(set(used))
            if shared and not (self.analysis.sharing and all(
                    st in mirrored for st in range(1, len(choice))
                    if choice[st] is not None and choice[st] == choice[st - 1])):
                continue  # a unit says one step (both of an out-and-back when shared)
            if any(choice[a] is not None and choice[a] == choice[b]
                   for a in range(len(choice)) for b in range(a + 2, len(choice))):
                continue
            sims = [says[(st, u)][0] if u is not None else 0.0 for st, u in enumerate(choice)]
            conv = sum(1 for st, u in enumerate(choice) if u is not None and says[(st, u)][1]
                       and not (st and choice[st - 1] == u))
            firsts = {}
            for st, u in enumerate(choice):
                if u is not None and self.units[u].kind == "plain":
                    # a step said below said_min counts part of its similarity: weakly said
                    firsts[u] = max(firsts.get(u, 0.0), sims[st] if sims[st] >= w.said_min
                                    else w.weak_said * sims[st])
            said = sum(firsts.values())
            typ = type_fit
            attr_left = [u for u in typed if self.units[u].attribute and u not in used
                         and not self.units[u].verb_object and type_fit < w.type_leads]
            if choice[last] is not None and self.units[choice[last]].kind == "type" \
                    and type_fit >= 0.0 and not says[(last, choice[last])][1]:
                # (not when the graph says the ends are not it, nor walked away from the
                # end the type word names)
                typ = max(type_fit, sims[last])
            # a unit paired with a step nothing says well: the step is there, weakly said
            weak = sum(1 for st, u in enumerate(choice) if u is not None
                       and sims[st] < w.said_min)
            # trailing unsaid steps towards an end of the asked-for type are led by it
            trail = 0
            while trail < len(choice) and choice[len(choice) - 1 - trail] is None:
                trail += 1
            led = trail if (type_fit >= w.type_leads and trail
                            and (trail < len(choice) or len(choice) == 1)) else 0
            idle = sum(1 for u in choice if u is None) - led
            first = next((st for st, u in enumerate(choice) if u is not None), 0)
            lead = first if first and (owned[choice[first]] == POSSESSIVE_FIRST
                                       or self.direct_verb(mention, choice[first])) else 0
            taken = set(used)
            left = [u for u in plain if u not in taken
                    and not self._covered(u, hops, steps, choice)
                    and not (end_labels and self.property_said(u, end_labels))
                    and not (self.units[u].modifier and sayable[u] < w.said_min)] + attr_left
            keys = [owned[u] for u in choice if u is not None and self.units[u].kind == "plain"]
            order = sum(1 for a, b in itertools.combinations(keys, 2) if a > b)
            left_said = sum(sayable.get(u, 0.0) for u in left)
            value = (w.said * said + w.type * typ - w.idle * idle - w.led * led
                     - w.weak * weak - w.leftover * len(left) - w.leftover_said * left_said
                     - w.order * order - w.converse * conv - w.lead_idle * lead)
            if value > best_value:
                best_value = value
                best = Alignment(said=said, matched=len(used), idle=idle, lead_idle=lead,
                                 led=led, weak=weak,
                                 leftover=len(left), leftover_said=left_said, order=order,
                                 converse=conv, shared=shared, type=typ,
                                 coverage=(len(plain) - len(left)) / len(plain) if plain else 1.0,
                                 steps=tuple(sims), reps=tuple(choice))
        return best

    def _covered(self, u: int, hops: Sequence[Hop], steps: Sequence[Sequence[int]],
                 choice: Sequence[int | None]) -> bool:
        """Whether a unit no step chose still says a relation of the chain ("wrote the
        *screenplay*": ``written_by`` twice in one breath), unless it names that relation by
        its letters apart from the unit that says the step ("the films *directed* by the
        *director* of X": a second hop)."""
        w = self.w
        for st, idx in enumerate(steps):
            for i in idx:
                rel = hops[i][0]
                if self._us.get((u, rel), 0.0) < w.said_min:
                    continue
                rep = choice[st]
                if rep is not None and not self.units[u].implied and not self.units[
                        rep].implied and self.lexical(u, rel) >= w.repeat_says and abs(
                        self.units[rep].start - self.units[u].start) > w.repeat_gap:
                    continue
                if rep is not None and rep != u and any(
                        self.units[x].implied and not self.units[x].by_preposition
                        for x in (u, rep)):
                    continue  # "where is [the *stadium* of X]": the stadium's place, a step on
                return True
        return False

    def _named_twice(self, hops: Sequence[Hop], steps: Sequence[Sequence[int]],
                     al: Alignment) -> bool:
        """Whether each step of an out-and-back is said by a unit of its own, one of them
        naming the relation by its letters ("the films *directed* by the *director* of X",
        "the films *starred* by the *actors* of X")."""
        w = self.w
        for a, b in itertools.pairwise(range(len(steps))):
            ra, rb = {hops[i][0] for i in steps[a]}, {hops[i][0] for i in steps[b]}
            same = ra & rb
            if not same:
                continue
            ua, ub = al.reps[a] if a < len(al.reps) else None, al.reps[b] if b < len(al.reps) \
                else None
            if ua is None or ub is None or ua == ub or self.units[ua].implied or self.units[
                    ub].implied:
                return False
            for r in same:
                if any(self._us.get((u, r), 0.0) < w.said_min for u in (ua, ub)):
                    return False
                if max(self.lexical(u, r) for u in (ua, ub)) < w.repeat_says:
                    return False
        return True

    def _unsaid_repeats(self, hops: Sequence[Hop], steps: Sequence[Sequence[int]],
                        al: Alignment) -> int:
        """Steps that repeat the step before them (one hop each, the same relation the same
        way: "the advisor of the advisor of X") without a unit of their own saying them (at
        ``said_min``), as both do in "X 's mentor 's mentor"."""
        n = 0
        for a, b in itertools.pairwise(range(len(steps))):
            if len(steps[a]) != 1 or len(steps[b]) != 1 or hops[steps[a][0]] != hops[steps[b][0]]:
                continue
            ua = al.reps[a] if a < len(al.reps) else None
            ub = al.reps[b] if b < len(al.reps) else None
            if (ua is None or ub is None or ua == ub
                    or min(al.steps[a], al.steps[b]) < self.w.said_min):
                n += 1
        return n

    def lexical(self, u: int, relation: str) -> float:
        """How well unit ``u`` names a relation by its letters."""
        key = (u, relation)
        got = self._lexical.get(key)
        if got is None:
            ws = self.units[u].words
            table = self.lex(list(ws), [relation])
            got = self._lexical[key] = max(table[(x, relation)] for x in ws)
        return got

    def features(self, chain: Chain) -> dict[str, float]:
        """The chain's named features (see :class:`~byokg.plugins.offline.weights.ChainWeights`
        for what each weighs): alignment with the question's units, answer type, meaning,
        steps, order, idle steps, leftover units, voice, mirroring, conjunction, unnamed
        end."""
        steps = _steps(len(chain.hops), chain.unnamed_middle)
        al = self.align(chain.hops, chain.mention, steps, chain.type_score,
                        chain.end_type.labels if chain.end_type is not None else ())
        mirror = 0.0
        if is_mirrored(chain.hops):
            # out and back along one relation said once: only when the question asks for
            # things sharing something with its entity ("co-starred", "the same director"),
            # and that relation is what is shared when the question says so ("share *actors*")
            if self.analysis.sharing and self.shares(chain.hops):
                mirror += 1.0
            elif not self._named_twice(chain.hops, steps, al) and not self.out_and_back:
                mirror -= 1.0  # ... or when both ways are named by the relation's letters
                # (or a noun the question composes of them: a sibling is a parent's child)
            if not self.analysis.sharing and literal_join(chain):
                mirror -= 1.0  # things with the same year or number meet by coincidence
        repeat = float(self._unsaid_repeats(chain.hops, steps, al))
        unnamed = bool(chain.end_type is not None and chain.end_type.labels == ()
                       and chain.parts.get("unnamed"))
        return {"said": al.said, "type": al.type, "idle": float(al.idle), "led": float(al.led),
                "lead_idle": float(al.lead_idle),
                "weak": float(al.weak),
                "leftover": float(al.leftover), "leftover_said": al.leftover_said,
                "order": float(al.order),
                "converse": float(al.converse) + self.verb_against(chain.hops, steps, al,
                                                                   chain.mention),
                "coverage": al.coverage, "matched": float(al.matched),
                "meaning": self.meaning(chain.hops, steps), "extra_steps": len(steps) - 1.0,
                "voice": self.voice_fit(chain.last) + self.clause_voice(
                    chain.hops, steps, al, chain.mention),
                "mirror": mirror, "repeat": repeat,
                "conjunction": min(chain.conjunction, 1.0), "unnamed_end": float(unnamed)}

    def score(self, chain: Chain) -> float:
        """Score ``chain`` in place (its ``score`` and ``parts``) and return the score: its
        :meth:`features` combined by the weights model."""
        f = self.features(chain)
        chain.score = self.w.combine(f)
        chain.parts.update({"said": round(f["said"], 4), "coverage": round(f["coverage"], 4),
                            "type": round(f["type"], 4),
                            "meaning": round(f["meaning"], 4), "idle": f["idle"],
                            "leftover": f["leftover"], "order": f["order"],
                            "steps": f["extra_steps"] + 1.0})
        chain.features = f
        return chain.score

    def meaning(self, hops: Sequence[Hop], steps: Sequence[Sequence[int]] | None = None) -> float:
        """How well the question with its mentions masked says the chain read as English
        (:meth:`~byokg.models.similarity.Similarity.chain_meaning`); 0 without a model."""
        if self.similarity.model is None or self.w.meaning == 0.0:
            return 0.0
        key = tuple(hops)
        got = self._meant.get(key)
        if got is None:  # (a chain is scored again once typed and once met)
            got = self._meant[key] = self.similarity.chain_meaning(list(hops), self.mask_spans)
        return got

    def rerank(self, chains: list[Chain]) -> bool:
        """With a contextual model (:attr:`~byokg.models.similarity.Similarity.contextual`),
        let the question read as a sentence break near ties of chains of ``reading_hops`` or
        more: the chains of the best chain's length scoring within ``reading_band`` of it are
        compared with the question (its mentions as a placeholder) each read as English from
        its mention outwards (:meth:`~byokg.models.similarity.Similarity.reading_scores`: "in
        which country was X born" against "X born in located in"), and the best read leads by
        ``reading_lead``. ``chains`` must be sorted best first; True when the lead changed.
        Not when a contender's relation has phrases from the owner's lexicon or an LLM (the
        readings are the names'; issue 24l: with an LLM's compiled words the rerank lost on
        every development split).
        A static model reads a sentence as its words, which the unit scorer has already
        weighed: nothing changes with it."""
        w = self.w
        if not chains or w.reading_band <= 0.0 or len(chains[0].hops) < w.reading_hops \
                or not self.similarity.contextual:
            return False
        top = chains[0]
        near = [c for c in chains[:self.weights.caps.reading_chains]
                if c.ends and len(c.hops) == len(top.hops)
                and c.score >= top.score - w.reading_band]
        if len(near) < 2:
            return False
        voc = self.similarity.vocabulary
        if voc is not None and any(voc.other_texts(r) for c in near for r, _ in c.hops):
            # a chain is read from its relations' names; the units read the phrases the
            # owner's lexicon or an LLM wrote for them too, which know the graph better
            return False
        read = self.similarity.reading_scores([c.hops for c in near], self.mask_spans)
        for c, r in zip(near, read, strict=True):
            c.parts["reading"] = round(r, 4)
        best = max(range(len(near)), key=lambda i: read[i])
        if best == 0:
            return False
        near[best].score = top.score + w.reading_lead
        return True

    @functools.cached_property
    def mention_tokens(self) -> dict[str, list[int]]:
        """Per mention, the indexes of the question's tokens it covers."""
        return {m: [i for i, t in enumerate(self.analysis.tokens) if t.start < e and t.end > s]
                for m, (s, e) in self.mentions.items()}

    def direct_verb(self, mention: str, k: int) -> bool:
        """Whether unit ``k`` is the question's own verb with ``mention`` itself its subject
        or object ("what orbit did *X fly*", "who *trained X*"): its step starts at X, so an
        unsaid step before it is X's own, like a possessive's (``lead_idle``)."""
        u = self.units[k]
        at = self.mention_tokens.get(mention)
        if not self.who_verb or self.who_verb not in u.words or u.kind != "plain" or not at:
            return False
        toks = self.token_texts
        if u.start == at[-1] + 1 and _after_do(toks, at[0]):
            return True  # "did X fly"
        return (_past_articles(toks, u.end + 1, 1) == at[0] and u.start > 0
                and toks[u.start - 1] in lx.WHO_WORDS)

    @functools.cached_property
    def token_texts(self) -> tuple[str, ...]:
        return tuple(t.text for t in self.analysis.tokens)

    @functools.cached_property
    def mask_spans(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(self.mentions.values()))

    def shares(self, hops: Sequence[Hop]) -> bool:
        """Whether a mirrored chain turns on the relation the question says is shared: the
        unit right after a sharing word ("share *actors*", "the same *director*") says it,
        or that unit says no relation of the chain (then any mirrored relation may be)."""
        k = self._shared
        if k is None:
            return True
        rels = {r for r, _ in hops}
        self.prepare(list(rels))
        mirrored = {a[0] for a, b in itertools.pairwise(hops) if a[0] == b[0] and a[1] != b[1]}
        said = {r: self._us.get((k, r), 0.0) for r in rels}
        if any(said[r] >= self.w.said_min for r in mirrored):
            return True
        return not any(v >= self.w.said_min for v in said.values())

    @functools.cached_property
    def _shared(self) -> int | None:
        """Index of the unit a sharing word qualifies (the first unit at most
        ``shared_within`` words after it), if any. A head noun there names the things that
        share, not what they share: the next unit does ("the other *movies* by the
        *director* of X": the director is shared)."""
        for i, t in enumerate(self.analysis.tokens):
            if t.text in SHARING_WORDS:
                near = [k for k, u in enumerate(self.units)
                        if 0 < u.start - i <= self.w.shared_within]
                if near:
                    k = near[0]
                    if self.units[k].kind == "head":
                        k = next((j for j in range(k + 1, len(self.units))
                                  if self.units[j].kind == "plain"), k)
                    return k
        return None

    def potential(self, chain: Chain) -> float:
        """How promising a chain is as a prefix of a longer one: its hops are said by the
        question (or pass through unnamed nodes) and the question says more than it covers."""
        al = self.align(chain.hops, chain.mention, _steps(len(chain.hops), chain.unnamed_middle))
        value = al.said - self.w.converse * al.converse
        if al.leftover:
            value += self.w.potential_gap
        if chain.parts.get("unnamed"):
            value += self.w.potential_unnamed  # a CVT end is only ever a step towards the answer
        return value


_PREPOSITIONS = lx.PREPOSITIONS


def verb_noun_side(relation: str, noun: str) -> int:
    """Which end of a verb-named relation a relational noun names by the verb's doer or the
    one it is done to (:func:`~byokg.language.relwords.verb_role`): 1 the tail, -1 the head,
    0 when it does not tell. "the *mentees* of X" along ``mentored_by`` are its heads, along
    ``MENTORS`` its tails; the *trainer* along ``trained_by`` is its tail. Only plain and
    passive verbs: a verb with a preposition does not say where its doer stands
    (``works_for``, ``trained_under``)."""
    form = verbalize(relation).form
    verb, passive = relation_verb(relation)
    if form not in ("verb", "passive") or verb is None:
        return 0
    role = verb_role(verb, noun)
    if role is None:
        return 0
    agent_at_tail = form == "passive" and passive
    return 1 if (role == "agent") == agent_at_tail else -1


def verb_fit(hop: Hop, verb: str, wants_agent: bool, same_frame: bool) -> float:
    """+1 when ``hop`` reaches the agent of ``verb`` and that is what is wanted (or the
    patient, and that is wanted), -1 for the other end, 0 when the relation does not tell.
    A relation named by the verb itself has its agent at the head, at the tail when the name
    is passive (``directed_by``) or the verb takes a preposition that puts the doer under
    it (``trained_under``: the teacher is its tail) and the question's verb does not take it
    too (``same_frame``); other relations by the nouns for their ends (:func:`doer_fit`)."""
    rel, inv = hop
    rverb, passive = relation_verb(rel)
    if rverb is not None and not passive and _converse_verbs(verb, rverb):
        agent_at_tail = True  # ``learned_from``: who taught its head is its tail
    elif rverb is None or not _same_verb(rverb, verb):
        return doer_fit(hop, verb, wants_agent)
    else:
        preps = verb_and_prepositions(rel)[1]
        agent_at_tail = passive or (
            not same_frame and bool(preps) and preps[0] in lx.SUBORDINATE_PREPOSITIONS)
    reaches_agent = (not inv) if agent_at_tail else inv
    return 1.0 if reaches_agent == wants_agent else -1.0


def _past_articles(toks: Sequence[str], i: int, step: int) -> int:
    """The index of the first token from ``i`` on, going ``step`` (1 or -1), that is no
    article (out of range when none is)."""
    while 0 <= i < len(toks) and toks[i] in lx.ARTICLES:
        i += step
    return i


def _after_do(toks: Sequence[str], first: int) -> bool:
    """Whether the mention starting at token ``first`` follows do-support ("did (the) X
    …"): its verb's subject is the mention."""
    before = _past_articles(toks, first - 1, -1)
    return before >= 0 and toks[before] in _DO_WORDS


@functools.lru_cache(maxsize=4096)
def _same_verb(a: str, b: str) -> bool:
    """Whether two verb forms are one verb, irregular forms too (``FLEW_ABOARD`` and *fly*)."""
    a, b = a.lower(), b.lower()
    return stem(a) == stem(b) or (base_verb(a) or a) == (base_verb(b) or b)


_CONVERSE_VERBS = frozenset(lx.CONVERSE_VERBS) | {(b, a) for a, b in lx.CONVERSE_VERBS}


@functools.lru_cache(maxsize=4096)
def _converse_verbs(a: str, b: str) -> bool:
    """Whether two verb forms say one event from its two ends (lexicon ``CONVERSE_VERBS``:
    *taught* and *learned*)."""
    return ((base_verb(a.lower()) or a.lower()), (base_verb(b.lower()) or b.lower())) \
        in _CONVERSE_VERBS


def doer_fit(hop: Hop, verb: str, wants_agent: bool) -> float:
    """+1 / -1 as :func:`verb_fit`, for a relation named by a noun for one end of ``verb``
    (:func:`~byokg.language.relwords.verb_role`): "who *raised* X" asks for the doer, the
    *parent*, which ``children`` reaches backwards; "who did X *raise*" for the child,
    forwards. 0 when no end's noun tells, or both do alike (``spouse``)."""
    rel, inv = hop
    ahead = {verb_role(verb, n) for n in end_nouns(rel, False)} - {None}
    behind = {verb_role(verb, n) for n in end_nouns(rel, True)} - {None}
    forward = ("agent" in ahead or "patient" in behind)
    backward = ("agent" in behind or "patient" in ahead)
    if forward == backward:
        return 0.0
    reaches_agent = forward != inv
    return 1.0 if reaches_agent == wants_agent else -1.0


def relation_verb(relation: str) -> tuple[str | None, bool]:
    """The word of a relation name that would be its verb (the last one before trailing
    prepositions) and whether the name is passive (``directed_by``: the agent is the tail)."""
    verb, preps = verb_and_prepositions(relation)
    return verb, preps[:1] == ("by",)


@functools.lru_cache(maxsize=65536)
def verb_and_prepositions(relation: str) -> tuple[str | None, tuple[str, ...]]:
    """The word of a relation name before its trailing prepositions, and those prepositions,
    last first (``WORKS_IN``: ``works``, ``("in",)``)."""
    ws = words(humanize_relation(relation))
    preps: list[str] = []
    while ws and ws[-1] in lx.NAME_PREPOSITIONS:
        preps.append(ws.pop())
    return (ws[-1] if ws else None), tuple(preps)


def question_verb(analysis: QuestionAnalysis, expect: Expectation,
                  mention_words: set[str]) -> tuple[str | None, str | None]:
    """The verb the question asks about and whether the answer is its subject or its object:
    "who *wrote* …" and "which moons *orbit* Mars" ask for subjects; "what does Mars *orbit*"
    and "which films did X *direct*" for objects (English question forms only)."""
    toks = [t.text for t in analysis.tokens]
    for i, (a, b) in enumerate(itertools.pairwise(toks)):
        if a in lx.WHO_WORDS and b not in STOPWORDS:
            return b, "subject"
        if a in lx.WHO_WORDS and b in _DO_WORDS:  # "who did X *marry*": its object
            return _closing_verb(toks[i + 2:], mention_words)
        if a in lx.WH_WORDS:
            rest = toks[i + 1:]
            head = expect.type_words[0] if expect.type_words else None
            if head in rest and rest.index(head) < 4:
                rest = rest[rest.index(head) + 1:]
            if rest and rest[0] not in STOPWORDS and rest[0] not in mention_words:
                return rest[0], "subject"  # which moons orbit …
            if rest and rest[0] in _DO_WORDS:  # what does Mars orbit
                return _closing_verb(rest[1:], mention_words)
            return None, None
    return None, None


def _closing_verb(toks: Sequence[str], mention_words: set[str]
                  ) -> tuple[str | None, str | None]:
    """After do-support the verb closes the clause, after its subject ("which films did the
    *director* of X *direct*", "who did X *marry*"): the answer is its object."""
    after = [w for w in toks if w not in mention_words and w not in STOPWORDS and not w.isdigit()]
    return (after[-1], "object") if after else (None, None)


def prepositional_role(analysis: QuestionAnalysis, mention_words: set[str],
                       verb: str | None, voice: str | None) -> str | None:
    """Whether the answer is the subject or the prepositional object of the question's verb
    when that verb takes a preposition (English question forms only): "who *plays for* X",
    "which album *came out on* X" ask for the subject, X being what the preposition governs;
    "where does X *play*", "which band does X *play in*", "in which city was X born", "which
    city is X *from*" ask for what the preposition governs, X being the subject. None for a
    verb without a preposition ("who directed X") and for a passive's agent (*by*)."""
    toks = [t.text for t in analysis.tokens]
    if voice == "subject" and verb in toks:
        at = toks.index(verb)
        if any(t in lx.AUXILIARIES or t in lx.ARTICLES for t in toks[:at]):
            return None  # "what are the languages in …": no verb of the question word's
        after = toks[at + 1:]
        if after and after[0] in lx.PARTICLES:
            after = after[1:]  # come *out* on
        if after and after[0] in _PREPOSITIONS and after[0] not in lx.AGENT_PREPOSITIONS:
            return "subject"
        return None
    wh = next((i for i, t in enumerate(toks)
               if t in lx.WH_WORDS or t in lx.WHO_WORDS or t in lx.ADVERBIAL_WH_WORDS), None)
    if wh is None:
        return None
    aux = next((i for i in range(wh + 1, min(wh + 5, len(toks))) if toks[i] in lx.AUXILIARIES),
               None)
    if aux is None or any(toks[i] in mention_words for i in range(wh + 1, aux)):
        return None  # no auxiliary right after the question word: not "what does X …"
    nxt = toks[aux + 1:aux + 3]
    if len(nxt) == 2 and nxt[1] in _PREPOSITIONS and nxt[0] not in mention_words \
            and nxt[0] not in lx.ARTICLES:
        return None  # "which researchers are *employed by* …": the question word is the subject
    last = toks[-1] if toks else ""
    stranded = last in _PREPOSITIONS and last not in lx.AGENT_PREPOSITIONS and len(toks) > aux + 2
    led = wh > 0 and toks[wh - 1] in _PREPOSITIONS and toks[wh - 1] not in lx.AGENT_PREPOSITIONS
    if stranded or led or toks[wh] in lx.ADVERBIAL_WH_WORDS:
        return "object"
    return None


def type_segments(relations: Sequence[str]) -> tuple[str, ...]:
    """The type segments of dotted ``domain.type.property`` relation names (``country`` in
    ``location.country.capital``): what the graph calls its kinds of things."""
    return _type_segments(tuple(relations))


@functools.lru_cache(maxsize=8)
def _type_segments(relations: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w for r in relations if r.count(".") >= 2
                               for w in words(r.split(".")[-2])[-1:]))


def literal_join(chain: Chain) -> bool:
    """Out and back along one relation through a literal (a year, a date, a number)."""
    mid = chain.literal_middle
    return any(a[0] == b[0] and a[1] != b[1] and i < len(mid) and mid[i]
               for i, (a, b) in enumerate(itertools.pairwise(chain.hops)))


def is_mirrored(hops: Sequence[Hop]) -> bool:
    """A hop followed by the same relation walked the other way (co-stars, same director)."""
    return any(a[0] == b[0] and a[1] != b[1] for a, b in itertools.pairwise(hops))


def _steps(k: int, unnamed_middle: Sequence[bool]) -> list[list[int]]:
    """Hop indexes grouped into steps: a hop into an unnamed inner node joins the next one."""
    steps: list[list[int]] = []
    cur: list[int] = []
    for i in range(k):
        cur.append(i)
        through = i < k - 1 and i < len(unnamed_middle) and unnamed_middle[i]
        if not through:
            steps.append(cur)
            cur = []
    if cur:
        steps.append(cur)
    return steps


# --------------------------------------------------------------------------- walking


def _step(hood: Any, node: str) -> list[tuple[str, str, bool]]:
    out = []
    for t in hood.triplets if hood is not None else ():
        if t.head == node:
            out.append((t.relation, t.tail, False))
        if t.tail == node and t.head != node:
            out.append((t.relation, t.head, True))
    return out


@dataclass
class Walked:
    """What :func:`enumerate_chains` found, with the counts for the trace."""

    chains: list[Chain]
    edges_read: int = 0
    nodes_expanded: int = 0
    truncated: bool = False


def enumerate_chains(store: GraphStore, mentions: dict[str, list[str]], scorer: ChainScorer, *,
                     max_hops: int = 3) -> Walked:
    """Every 1-hop chain from the mentions' nodes, the most promising ones extended to 2 and 3
    hops (caps above), typed and scored; best first."""
    owner: dict[str, str] = {}
    for m, ids in mentions.items():
        for i in ids:
            owner.setdefault(i, m)
    topic = set(owner)
    out = Walked(chains=[])
    if not topic:
        return out
    chains: dict[tuple[str, tuple[Hop, ...]], Chain] = {}
    caps = scorer.weights.caps
    hood = store.neighbors(list(owner), direction=Direction.BOTH, limit_per_node=caps.fanout_1)
    for s, m in owner.items():
        nb = hood.get(s)
        if nb is not None:
            out.edges_read += len(nb.triplets)
            out.truncated |= nb.truncated
        for rel, other, inv in _step(nb, s):
            if other in topic:
                continue
            key = (m, ((rel, inv),))
            ch = chains.get(key)
            if ch is None:
                ch = chains[key] = Chain(mention=m, hops=((rel, inv),))
                ch.truncated = bool(nb is not None and nb.truncated)
            ch.add((s, other), caps.max_ends)
    scorer.prepare(list({r for _, hops in chains for r, _ in hops}))
    level = [c for c in chains.values()]
    names: dict[str, str | None] = {}
    _mark_unnamed(store, level, names, caps.sample_paths)
    for hops in range(2, max_hops + 1):
        cap, per = ((caps.prefixes_2, caps.nodes_2) if hops == 2
                    else (caps.prefixes_3, caps.nodes_3))
        ranked = sorted(level, key=lambda c: (-scorer.potential(c), c.hops))[:cap]
        level = _extend(store, ranked, topic, per, out, caps)
        for c in level:
            chains[(c.mention, c.hops)] = c
        scorer.prepare(list({r for c in level for r, _ in c.hops}))
        _mark_unnamed(store, level, names, caps.sample_paths)
    result = list(chains.values())
    for c in result:
        scorer.score(c)
    # the answer type needs the ends' labels and names: read them for the contenders only
    result.sort(key=lambda c: -c.score)
    _type(store, result[:caps.typed_chains], scorer, names)
    for c in result[:caps.typed_chains]:
        scorer.score(c)
    if _conjunctions(result, store, scorer.services, caps.meet_sample):
        for c in result:
            scorer.score(c)
    result.sort(key=lambda c: (-c.score, len(c.hops), c.mention, c.hops))
    if scorer.rerank(result):
        result.sort(key=lambda c: (-c.score, len(c.hops), c.mention, c.hops))
    out.chains = result
    return out


def _extend(store: GraphStore, prefixes: Sequence[Chain], topic: set[str], per: int,
            out: Walked, caps: Any = WEIGHTS.caps) -> list[Chain]:
    """One more hop from (up to ``per``) end nodes of every prefix, one batched call."""
    todo: dict[str, list[tuple[Chain, tuple[str, ...]]]] = {}
    for ch in prefixes:
        for end, nodes in itertools.islice(ch.via.items(), per):
            if len(todo) >= caps.max_nodes and end not in todo:
                ch.truncated = True
                break
            todo.setdefault(end, []).append((ch, nodes))
        if len(ch.ends) > per:
            ch.truncated = True
    if not todo:
        return []
    hood = store.neighbors(list(todo), direction=Direction.BOTH, limit_per_node=caps.fanout_2)
    out.nodes_expanded += len(todo)
    new: dict[tuple[str, tuple[Hop, ...]], Chain] = {}
    for node, pairs in todo.items():
        nb = hood.get(node)
        if nb is not None:
            out.edges_read += len(nb.triplets)
        steps = _step(nb, node)
        for ch, nodes in pairs:
            for rel, other, inv in steps:
                if other in topic or other in nodes:
                    continue  # never back to a question entity or a node already passed
                hops = (*ch.hops, (rel, inv))
                key = (ch.mention, hops)
                c = new.get(key)
                if c is None:
                    c = new[key] = Chain(mention=ch.mention, hops=hops, truncated=ch.truncated)
                if nb is not None and nb.truncated:
                    c.truncated = True
                c.add((*nodes, other), caps.max_ends)
    return list(new.values())


def _mark_unnamed(store: GraphStore, chains: Sequence[Chain], names: dict[str, str | None],
                  sample: int = WEIGHTS.caps.sample_paths) -> None:
    """Which inner nodes and ends of each chain are unnamed (CVT-like), from its examples."""
    from byokg.graph.profile import display_names

    samples = {id(c): list(itertools.islice(c.via.values(), sample)) for c in chains}
    want = [n for v in samples.values() for nodes in v for n in nodes[1:] if n not in names]
    if want:
        names.update(display_names(store, list(dict.fromkeys(want)), missing_as_id=False))
    for c in chains:
        walks = samples[id(c)]
        if not walks:
            continue
        middle = []
        for i in range(1, len(c.hops)):
            un = sum(is_unnamed(w[i], names.get(w[i])) for w in walks)
            middle.append(un * 2 > len(walks))
        c.unnamed_middle = tuple(middle)
        c.literal_middle = tuple(
            sum(literal_kind(names.get(w[i]) or w[i]) is not None for w in walks) * 2 > len(walks)
            for i in range(1, len(c.hops)))
        un_end = sum(is_unnamed(w[-1], names.get(w[-1])) for w in walks)
        c.parts["unnamed"] = 1.0 if un_end * 2 > len(walks) else 0.0


def _type(store: GraphStore, chains: Sequence[Chain], scorer: ChainScorer,
          names: dict[str, str | None]) -> None:
    """Each chain's end type from a sample of its ends (labels and names in one call)."""
    sample = {c.mention + str(c.hops): list(c.ends)[:scorer.weights.caps.type_sample]
              for c in chains}
    ids = list(dict.fromkeys(i for v in sample.values() for i in v))
    nodes = store.get_nodes(ids) if ids else {}
    edges, roles, said = scorer.read_edges(store, ids)
    for c in chains:
        labels: list[str] = []
        lits: list[str | None] = []
        named: list[str] = []
        heads: list[str] = []
        ends = sample[c.mention + str(c.hops)]
        for i in ends:
            n = nodes.get(i)
            if n is not None:
                labels.extend(scorer.node_labels(n.labels))
            name = n.name if n is not None and n.name else names.get(i) or i
            lits.append(literal_kind(name))
            own = list(dict.fromkeys(w for w in words(name)
                                     if w not in STOPWORDS and not w.isdigit()))
            named.extend(own)
            if len(own) > 1:
                heads.append(own[-1])
        lit = _majority(lits)
        common = tuple(w for w, k in _counted(named) if k * 2 > len(ends) and len(ends) > 1)
        rel, inv = c.last
        role, said_role = _held(roles, ends), _held(said, ends)
        kinds = sum(is_kind(edges, i, c.last) for i in ends) * 2 > len(ends)
        c.end_type = scorer.end_type(rel, inv, labels=[x for x, _ in _counted(labels)],
                                     literal=lit).model_copy(update={
                                         "name_words": common, "roles": role, "kinds": kinds,
                                         "said_roles": said_role,
                                         "name_heads": tuple(heads)})
        c.type_score = scorer.type_score(c.end_type)


def node_edges(store: GraphStore, ids: Sequence[str], limit: int) -> NodeEdges:
    """Per node, the ``(relation, node is its head)`` pairs of its edges (at most ``limit``
    read) and how many edges meet it, in one ``neighbors`` call."""
    return {i: (frozenset((t.relation, t.head == i) for t in hood.triplets), hood.total)
            for i, hood in store.neighbors(ids, limit_per_node=limit).items()}


def is_kind(edges: NodeEdges, node: str, hop: Hop) -> bool:
    """Whether ``node``, reached along ``hop``, is a kind by the graph's shape: a leaf that
    more than one head meets along this relation and no other (a specialty, a cuisine)."""
    pairs, meets = edges.get(node, (frozenset(), 0))
    return pairs == {hop} and meets > 1


def node_roles(edges: NodeEdges) -> dict[str, tuple[str, ...]]:
    """The nouns a plain graph's relations call each node by the roles it plays (the head
    of ``chefAt`` is a chef, the tail of ``founder`` a founder): a graph without labels
    types its nodes by these (and by :func:`said_roles`)."""
    return {i: tuple(dict.fromkeys(n for rel, head in sorted(pairs)
                                   for n in role_nouns(rel, head)))
            for i, (pairs, _total) in edges.items()}


def said_roles(edges: NodeEdges, said: Callable[[str, bool], Sequence[str]]
               ) -> dict[str, tuple[str, ...]]:
    """Per node, only the nouns the owner's lexicon or an LLM compilation call its roles
    (:func:`node_roles` without the relations' names): written for both ends of every
    relation, unlike names, which call a team's head coach a coach and its players
    nothing."""
    return {i: tuple(dict.fromkeys(n for rel, head in sorted(pairs) for n in said(rel, head)))
            for i, (pairs, _total) in edges.items()}


def _held(roles: dict[str, tuple[str, ...]], ends: Sequence[str]) -> tuple[str, ...]:
    """The roles at least half of the sampled ends hold."""
    held = [r for i in ends for r in roles.get(i, ())]
    return tuple(r for r, k in _counted(held) if k * 2 >= len(ends))


def _counted(items: Sequence[str]) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])


def _majority(values: Sequence[Any]) -> Any:
    if not values:
        return None
    top, n = max(_counted([str(v) for v in values]), key=lambda kv: kv[1])
    if n * 2 <= len(values) or top == "None":
        return None
    return next(v for v in values if str(v) == top)


def is_constraint(chain: Chain) -> bool:
    """A chain short enough to constrain an answer: one step (one hop, or two through an
    unnamed node) from its entity ("... in the Mountain Time Zone")."""
    return len(_steps(len(chain.hops), chain.unnamed_middle)) == 1


def specificity(store: GraphStore, nodes: Sequence[str], services: Any = None) -> dict[str, float]:
    """How much meeting a node says, in (0, 1]: 1 up to a degree of sqrt(N) (N nodes in the
    graph), then falling to 0 at degree N. A hub next to everything (a country every place
    is in) meets every constraint and so confirms none. One batched ``degrees`` call."""
    nodes = list(dict.fromkeys(nodes))
    if not nodes:
        return {}
    n = _node_count(store, services)
    if n < 4:
        return dict.fromkeys(nodes, 1.0)
    deg = store.degrees(nodes)
    top = math.log(n)
    return {x: max(0.05, min(1.0, 2.0 * math.log(n / max(deg.get(x, 1), 1)) / top))
            for x in nodes}


def _node_count(store: GraphStore, services: Any) -> int:
    if services is not None:
        return int(services.shared(("node-count", store), lambda: store.stats().nodes))
    return store.stats().nodes


def _conjunctions(chains: Sequence[Chain], store: GraphStore | None = None,
                  services: Any = None, meet_sample: int = WEIGHTS.caps.meet_sample) -> bool:
    """Mark chains whose end set meets what another mention constrains (the ends of its
    one-step chains), weighted by the meeting node's :func:`specificity`; remember the partner
    so both get proposed. True when any was marked."""
    reach: dict[str, dict[str, Chain]] = {}
    for c in sorted(chains, key=lambda c: -c.score):
        if is_constraint(c):
            for e in c.ends:
                reach.setdefault(c.mention, {}).setdefault(e, c)
    if len(reach) < 2 and not (reach and len({c.mention for c in chains}) > 1):
        return False
    marked = False
    meets: dict[int, list[tuple[Chain, list[str]]]] = {}
    for c in chains:
        found = []
        for m, ends in reach.items():
            if m == c.mention:
                continue
            hits = [e for e in c.ends if e in ends]
            if hits:
                found.append((ends[hits[0]], hits[:meet_sample]))
        meets[id(c)] = found
    met = [e for v in meets.values() for _p, hits in v for e in hits]
    spec = specificity(store, met, services) if store is not None else {}
    for c in chains:
        found = meets[id(c)]
        c.partners = [p for p, _h in found]
        c.conjunction = sum(max(spec.get(e, 1.0) for e in hits) for _p, hits in found)
        marked |= bool(found)
    return marked


def select_chains(chains: Sequence[Chain], limit: int) -> list[Chain]:
    """The chains to propose, best first, one per relation path: each mention's best chain,
    then the best of the rest (so a conjunction's partner chain is walked too)."""
    chosen: list[Chain] = []
    seen: set[str] = set()

    def take(c: Chain) -> None:
        if len(chosen) >= limit:
            return
        key = str(c.relation_path)
        if key not in seen:
            seen.add(key)
            chosen.append(c)

    firsts: dict[str, Chain] = {}
    for c in chains:
        if c.ends:
            firsts.setdefault(c.mention, c)
    for c in sorted(firsts.values(), key=lambda c: -c.score):
        take(c)
        for p in c.partners:
            take(p)
    for c in chains:
        if len(chosen) >= limit:
            break
        if c.ends:
            take(c)
            for p in c.partners:
                take(p)
    chosen.sort(key=lambda c: -c.score)
    return chosen
