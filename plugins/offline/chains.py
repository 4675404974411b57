"""Relation chains: the offline reasoner's candidate answers, and how they are scored.

A *chain* is a relation sequence of 1–3 hops walked from one of the question's entities, each
hop in a fixed direction (``directed_by`` forwards, ``~directed_by`` backwards). Its *end set*
(the nodes it reaches) is a candidate answer set. :func:`enumerate_chains` walks the graph
around the linked entities in batched ``neighbors`` calls, bounded by caps (fan-out per node,
prefixes extended per hop, nodes expanded per prefix), and never lets a chain come back to a
node it passed or to any of the question's entities ("co-stars of Z" never answers Z).

:class:`ChainScorer` scores a chain against the question:

* **alignment**: each hop is aligned with at most one question word (a *phrase*), each phrase
  says at most one relation (a mirrored chain ``r, ~r`` may use one phrase for both hops), and
  hops further from the entity should align with words further from its mention in the
  question (order-aware). Word-to-relation similarity is
  :meth:`~byokg.models.similarity.Similarity.phrase_similarity`: lexical, plus MiniLM when
  installed. Two hops through an unnamed node (a Freebase CVT) count as one step;
* **coverage** of the question's phrases, and **precision** (every step said by a phrase);
* **answer type** (:mod:`byokg.plugins.offline.answer_types`): the end set fits what is asked;
* a small cost per step, and a bonus when the end set meets another entity of the question
  (a conjunction such as "… in the Mountain Time Zone").

Nothing here names a relation, label or question template of any graph.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from byokg.plugins.offline.answer_types import (
    KIND_WORDS,
    EndType,
    Expectation,
    end_type,
    expectation,
    type_match,
)
from byokg.plugins.offline.weights import WEIGHTS, OfflineWeights
from byokg.plugins.offline.weights import current as current_weights

from byokg.contracts import Direction, Path, RelationPath
from byokg.graph.profile import is_unnamed
from byokg.graph.store import GraphStore
from byokg.language import lexicon as lx
from byokg.language.analysis import (
    SHARING_WORDS,
    Phrase,
    QuestionAnalysis,
    humanize_relation,
    term_sim,
)
from byokg.language.literals import literal_kind
from byokg.language.relwords import verbalize
from byokg.language.text import STOPWORDS, stem, words
from byokg.models.similarity import Similarity

Hop = tuple[str, bool]  # (relation, walked against its stored direction)

_DO_WORDS = lx.DO_WORDS
_CLAUSE_WORDS = lx.CLAUSE_WORDS


@dataclass
class Alignment:
    """How the question's phrases say a chain's relations."""

    coverage: float = 0.0  # weighted share of the phrases said by a relation of the chain
    precision: float = 0.0  # mean over steps of how well its own phrase says it
    order: float = 0.0  # cost of steps aligned against the question's word order
    idle: int = 0  # steps no phrase says
    shared: int = 0  # steps whose phrase also says another step (a mirrored relation)
    unsaid: int = 0  # content words of the question no relation says
    steps: tuple[float, ...] = ()  # per step, how well its own phrase says it
    reps: tuple[int | None, ...] = ()  # per step, the index of the phrase that says it


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
                 label_nouns: dict[str, tuple[str, ...]] | None = None) -> None:
        self.weights = weights = weights or current_weights()
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
                                               sim=self.sim, types=type_segments(relations),
                                               scores=weights.types,
                                               label_nouns=label_nouns)
        self.phrases: tuple[Phrase, ...] = self._own_phrases(analysis.phrases(
            list(self.mentions.values()), type_word=next(iter(self.expect.type_words), None)))
        self._dist: dict[str, list[int]] = {}
        # relation -> (similarity per phrase, lexical similarity per phrase)
        self._rows: dict[str, tuple[list[float], list[float]]] = {}
        self._aligned: dict[tuple[Any, ...], Alignment] = {}
        self._typed: dict[EndType, float] = {}
        self.who_verb, self.voice = question_verb(analysis, self.expect, mention_words)
        self.semantic = similarity.model is not None
        self._warm()

    def _own_phrases(self, phrases: tuple[Phrase, ...]) -> tuple[Phrase, ...]:
        """The phrases a relation should say, without a word that only names the type of the
        mention it stands by ("the Seafood *category*", "the *city* of Paris"): the mention's
        own label, next to it (or with "of" between). "The *supplier* of Chai" keeps its word:
        Chai is no supplier."""
        own = {m: labs for m, labs in self.mention_labels.items()
               if m in self.mentions and labs}
        if not self.labels or not own:
            return phrases
        toks = self.analysis.tokens
        lex = self.lex([p.word for p in phrases], sorted({x for v in own.values() for x in v}))

        def names_mention(p: Phrase) -> bool:
            for m, labs in own.items():
                if max(lex[(p.word, lab)] for lab in labs) < self.w.type_word_says:
                    continue
                d = self.analysis.token_distance(p, self.mentions[m])
                if d == 0 or (d == 1 and p.position + 1 < len(toks)
                              and toks[p.position + 1].text == "of"):
                    return True
            return False

        return tuple(p for p in phrases if p.weight < 1.0 or not names_mention(p))

    def _warm(self) -> None:
        """Embed every word this question will compare, in one batch (the model is slowest
        when called often with a few texts); relation names are embedded once per process."""
        if self.similarity.model is None:
            return
        texts = [p.word for p in self.phrases] + list(self.expect.type_words)
        texts += [w for ws in KIND_WORDS.values() for w in ws] + list(self.labels)
        self.similarity.warm(texts)
        if self.phrases:  # the per-word floors embed the graph's relation names once
            self.sim([p.word for p in self.phrases], [])

    # -- word similarity
    def sim(self, left: Sequence[str], right: Sequence[str]) -> dict[tuple[str, str], float]:
        return self.similarity.phrase_similarity(left, right, vocabulary=self.vocabulary)

    def prepare(self, relations: Sequence[str]) -> None:
        """Compute phrase similarities (with the model and lexical) for these relation names in
        one batch, into this scorer's own tables."""
        todo = [r for r in dict.fromkeys(relations) if r not in self._rows]
        if not self.phrases or not todo:
            return
        words_ = [p.word for p in self.phrases]
        both = self.sim(words_, todo)
        lexical = self.lex(words_, todo)
        for r in todo:
            self._rows[r] = ([both[(w, r)] for w in words_], [lexical[(w, r)] for w in words_])

    def node_labels(self, labels: Sequence[str]) -> tuple[str, ...]:
        """The informative ones among a node's labels (none on a one-label graph)."""
        return tuple(x for x in labels if x in self.labels) if self.labels else ()

    def said_words(self, relations: Sequence[str] | None = None) -> set[str]:
        """Question words some relation seen so far says (similarity ``said`` or more)."""
        return self.similarity.said_words(self.w.said, relations)

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
        return end_type(relation, inverted, labels=labels, literal=literal, active=active)

    def type_score(self, end: EndType) -> float:
        got = self._typed.get(end)
        if got is None:
            got = self._typed[end] = type_match(self.expect, end, self.sim, self.lex,
                                                semantic=self.semantic, scores=self.weights.types)
        return got

    def voice_fit(self, hop: Hop) -> float:
        """+1 when the last hop reaches the role the question asks for with its verb ("which
        moons *orbit* Mars": the subjects of ``orbits``, its heads; "what does Mars *orbit*":
        its tails), -1 for the other role, 0 when the relation is not that verb. A passive or
        agent-noun name (``directed_by``, ``director``) has its agent at the tail."""
        if not self.who_verb or not self.voice:
            return 0.0
        rel, inv = hop
        verb, passive = relation_verb(rel)
        if verb is None or stem(verb) != stem(self.who_verb):
            return 0.0  # only a relation named by the question's own verb says who does what
        agent_at_tail = passive
        reaches_agent = (not inv) if agent_at_tail else inv
        wants_agent = self.voice == "subject"
        return 1.0 if reaches_agent == wants_agent else -1.0

    def _distances(self, mention: str) -> list[int]:
        """Per phrase, its rank in the order the chain's steps should follow: words before the
        mention from the nearest out ("the director of the films starring X"), then words after
        it ("X ... released"), except that words of a clause the mention opens ("where X was
        born") come first."""
        got = self._dist.get(mention)
        if got is None:
            span = self.mentions.get(mention)
            toks = self.analysis.tokens
            if not span:
                got = [p.position for p in self.phrases]
            else:
                inside = [i for i, t in enumerate(toks) if t.start < span[1] and t.end > span[0]]
                first = inside[0] if inside else 0
                last = inside[-1] if inside else first
                before = toks[first - 1].text if first > 0 else ""
                # "where X was born", or a relative clause without its pronoun: a noun, the
                # mention, then the clause's last words ("the movies X directed")
                clause = before in _CLAUSE_WORDS or (
                    bool(before) and before not in STOPWORDS and not before.isdigit()
                    and 0 < len(toks) - 1 - last <= 2
                    and all(t.text not in STOPWORDS for t in toks[last + 1:last + 2]))
                n = len(toks)
                got = []
                for p in self.phrases:
                    d = self.analysis.token_distance(p, span)
                    after = p.position > first
                    if after:
                        got.append(d if clause else n + d)
                    else:
                        got.append(d)
            self._dist[mention] = got
        return got

    # -- alignment
    def align(self, relations: Sequence[str], mention: str = "",
              steps: Sequence[Sequence[int]] | None = None) -> Alignment:
        """The best alignment of the question's phrases with the chain's relations.

        Each phrase says at most one relation (a relation may be said by several phrases:
        "official languages" -> ``official_language``); every step should be said by a phrase
        of its own (its *representative*), and the representatives of later steps should stand
        further from the mention. ``steps`` groups hop indexes into steps (hops through an
        unnamed node form one step); default one step per hop."""
        k = len(relations)
        steps = [list(st) for st in steps] if steps is not None else [[i] for i in range(k)]
        if not self.phrases or not k:
            return Alignment(idle=len(steps) if self.phrases else 0)
        key = (tuple(relations), mention, tuple(tuple(st) for st in steps))
        got = self._aligned.get(key)
        if got is None:
            got = self._aligned[key] = self._align(relations, mention, steps)
        return got

    def _align(self, relations: Sequence[str], mention: str, steps: list[list[int]]) -> Alignment:
        """:meth:`align` itself: every choice of a representative word per step (at most
        ``candidate_phrases`` each, or none) is valued and the best kept; long because the
        valuation reads the choice's owner map in place (splitting it would copy it per
        choice)."""
        w = self.w
        words_ = [p.word for p in self.phrases]
        rels = list(dict.fromkeys(relations))
        self.prepare(rels)
        sim = [[self._rows[r][0][j] for r in rels] for j in range(len(words_))]  # phrase x rel
        lexical = {(words_[j], r): self._rows[r][1][j] for r in rels for j in range(len(words_))}
        ridx = {r: i for i, r in enumerate(rels)}
        step_rels = [sorted({ridx[relations[i]] for i in st}) for st in steps]
        options: list[list[int | None]] = []
        last = len(step_rels) - 1
        for st, rs in enumerate(step_rels):
            # the asked-for type word ("which *films*") says what the answer is: it can only
            # say the last step, and only when it names that step's relation well
            allowed = [j for j in range(len(words_)) if self.phrases[j].weight >= 1.0
                       or (st == last and max(sim[j][r] for r in rs) >= w.type_word_says)]
            ranked = sorted(allowed, key=lambda j, rs=rs: -max(sim[j][r] for r in rs))
            opts: list[int | None] = [j for j in ranked[:w.candidate_phrases]
                                      if max(sim[j][r] for r in rs) > 0.05]
            options.append([*opts, None])
        dist = self._distances(mention)
        weights = [p.weight for p in self.phrases]
        # the asked-for type word is checked by the answer type, not counted as coverage
        total_w = sum(w for w in weights if w >= 1.0) or 1.0
        best, best_value = Alignment(idle=len(steps)), -9.0
        for choice in itertools.product(*options):
            owner: dict[int, int] = {}  # phrase -> relation index it says
            ok = True
            for st, j in enumerate(choice):
                if j is None:
                    continue
                r = max(step_rels[st], key=lambda r, j=j: sim[j][r])
                if owner.setdefault(j, r) != r:
                    ok = False  # one relation per phrase
                    break
            if not ok:
                continue
            cover = 0.0
            unsaid = 0
            reps = {r: [self.phrases[k].position for k, rr in owner.items() if rr == r]
                    for r in set(owner.values())}
            for j in range(len(words_)):
                r = owner.get(j)
                if r is None:
                    r = max(range(len(rels)), key=lambda r, j=j: sim[j][r])
                    if lexical[(words_[j], rels[r])] >= w.repeat_says and reps.get(r) and all(
                            abs(self.phrases[j].position - p) > w.repeat_gap for p in reps[r]):
                        # a second, separate mention of a relation the chain walks once
                        # ("the films *directed* by the *director* of X"): another hop
                        if weights[j] >= 1.0:
                            unsaid += 1
                        continue
                if weights[j] >= 1.0:
                    cover += weights[j] * sim[j][r]
                    unsaid += sim[j][r] < w.said
            # each step is said by its own representative phrase (or not at all)
            step_sims = [sim[j][owner[j]] if j is not None else 0.0 for j in choice]
            precision = sum(step_sims) / len(steps)
            coverage = cover / total_w
            pos = [dist[j] for j in choice if j is not None]
            order = w.order * sum(1 for a, b in itertools.combinations(pos, 2) if a > b)
            idle = sum(1 for v in step_sims if v < w.idle_sim)
            reps = [j for j in choice if j is not None]
            shared = len(reps) - len(set(reps))
            value = (w.coverage * coverage + w.precision * precision - order - w.idle * idle
                     - w.unsaid * unsaid)
            if shared and not self.analysis.sharing:
                value -= w.mirror * shared  # prefer a phrase of its own for each step
            if value > best_value:
                best_value = value
                best = Alignment(coverage, precision, order, idle, shared, unsaid,
                                 tuple(step_sims), tuple(choice))
        return best

    def features(self, chain: Chain) -> dict[str, float]:
        """The chain's named features (see :class:`~byokg.plugins.offline.weights.ChainWeights`
        for what each weighs): alignment with the question's words, answer type, meaning,
        steps, order, idle steps, unsaid words, voice, mirroring, conjunction, unnamed end."""
        w = self.w
        rels = [r for r, _ in chain.hops]
        steps = _steps(len(rels), chain.unnamed_middle)
        al = self.align(rels, chain.mention, steps)
        prec, idle = al.precision, al.idle
        typ = chain.type_score
        if self.expect.category and typ >= w.type_leads and al.steps and al.steps[-1] < w.idle_sim:
            # "what kind of movie is X": the category word says the last step (``genre``)
            said = [*al.steps[:-1], typ]
            idle -= 1
            prec = sum(said) / len(said)
        elif typ >= w.type_leads and self.expect.specific and al.steps:
            # steps no word says at the end of a chain whose end is what is asked ("in which
            # country was X born": born_in, then located_in until a country) are led by the type
            said = list(al.steps)
            trailing = 0
            while len(said) > 1 and said[-1] < w.idle_sim:
                said.pop()
                trailing += 1
            if trailing and sum(said) / len(said) >= w.type_leads_said:
                idle -= trailing  # only after steps the question says clearly
                prec = sum(said) / len(said)
        mirror = 0.0
        if is_mirrored(chain.hops):
            # out and back along one relation said once: only when the question asks for
            # things sharing something with its entity ("co-starred", "the same director"),
            # and that relation is what is shared when the question says so ("share *actors*")
            if self.analysis.sharing and self.shares(chain.hops):
                mirror += 1.0
            elif al.shared or al.idle:  # (idle before the type led any step)
                mirror -= 1.0
            if not self.analysis.sharing and literal_join(chain):
                mirror -= 1.0  # things with the same year or number meet by coincidence
        unnamed = bool(chain.end_type is not None and chain.end_type.labels == ()
                       and chain.parts.get("unnamed"))
        left = self.leftover_units(al.reps)
        covered = min(max(idle, 0), left)
        return {"coverage": al.coverage, "precision": prec, "type": typ,
                "idle_bare": float(max(idle, 0) - covered), "leftover": float(left - covered),
                "meaning": self.meaning(chain.hops, steps), "extra_steps": len(steps) - 1.0,
                "order": al.order, "idle": float(idle), "unsaid": float(al.unsaid),
                "voice": self.voice_fit(chain.last), "role": self.role(chain.hops, steps),
                "mirror": mirror,
                "conjunction": min(chain.conjunction, 1.0), "unnamed_end": float(unnamed)}

    def score(self, chain: Chain) -> float:
        """Score ``chain`` in place (its ``score`` and ``parts``) and return the score: its
        :meth:`features` combined by the weights model."""
        f = self.features(chain)
        chain.score = self.w.combine(f)
        chain.parts.update({"coverage": round(f["coverage"], 4),
                            "precision": round(f["precision"], 4), "order": round(f["order"], 4),
                            "type": round(f["type"], 4), "meaning": round(f["meaning"], 4),
                            "role": f["role"],
                            "idle": f["idle"], "steps": f["extra_steps"] + 1.0})
        chain.features = f
        return chain.score

    def role(self, hops: Sequence[Hop], steps: Sequence[Sequence[int]]) -> float:
        """Whether the chain walks each relation the way the question's nouns say: a word
        used as a relational noun ("the *advisor* of X", "X 's doctoral *advisor*") names the
        node a hop reaches, so the hop whose relation reads "advisor of" at its far end is
        walked (``advisor`` forwards from X; not backwards to X's students). +1 per step
        walked the way a noun says, -1 the other way, 0 when the question or the name cannot
        tell; the mean over the steps that tell."""
        nouns = [p.stem for p, used in zip(self.phrases, self._noun_use, strict=True) if used]
        if not nouns:
            return 0.0
        marks: list[float] = []
        for st in steps:
            for i in st:
                rel, inv = hops[i]
                far = any(_names_end(rel, inv, n) for n in nouns)
                near = any(_names_end(rel, not inv, n) for n in nouns)
                if far != near:
                    marks.append(1.0 if far else -1.0)
                    break
        return sum(marks) / len(marks) if marks else 0.0

    @functools.cached_property
    def _units(self) -> list[list[int]]:
        """The question's content words outside the mentions grouped into units: runs of
        adjacent words ("doctoral advisor", "home ground"), the asked-for type word left out.
        A chain should say each unit with a step of its own."""
        units: list[list[int]] = []
        prev = -2
        for j, p in enumerate(self.phrases):
            if p.weight < 1.0:
                continue
            if units and p.position == prev + 1:
                units[-1].append(j)
            else:
                units.append([j])
            prev = p.position
        return units

    def leftover_units(self, reps: Sequence[int | None]) -> int:
        """Units of the question no step of the alignment chose as its word."""
        chosen = {j for j in reps if j is not None}
        return sum(1 for u in self._units if not chosen & set(u))

    @functools.cached_property
    def _noun_use(self) -> list[bool]:
        """Per phrase, whether the question uses it in a relational noun phrase: a run of
        content words followed by "of" ("the doctoral advisor *of* X") or after a possessive
        the tokenizer leaves as "s" ("X 's doctoral advisor")."""
        toks = [t.text for t in self.analysis.tokens]
        content = [t not in STOPWORDS for t in toks]
        out = []
        for p in self.phrases:
            i = p.position
            j = i + 1
            while j < len(toks) and content[j]:
                j += 1
            k = i - 1
            while k >= 0 and content[k] and toks[k] not in lx.POSSESSIVES:
                k -= 1
            out.append((j < len(toks) and toks[j] == lx.RELATIONAL_OF)
                       or (k >= 0 and toks[k] in lx.POSSESSIVES))
        return out

    def meaning(self, hops: Sequence[Hop], steps: Sequence[Sequence[int]] | None = None) -> float:
        """How well the question with its mentions masked says the chain read as English
        (:meth:`~byokg.models.similarity.Similarity.chain_meaning`); 0 without a model."""
        if self.similarity.model is None or self.w.meaning == 0.0:
            return 0.0
        return self.similarity.chain_meaning(list(hops), self.mask_spans)

    @functools.cached_property
    def mask_spans(self) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(self.mentions.values()))

    def shares(self, hops: Sequence[Hop]) -> bool:
        """Whether a mirrored chain turns on the relation the question says is shared: the
        phrase right after a sharing word ("share *actors*", "the same *director*") says it,
        or that phrase says no relation of the chain (then any mirrored relation may be)."""
        j = self._shared
        if j is None:
            return True
        rels = {r for r, _ in hops}
        self.prepare(list(rels))
        mirrored = {a[0] for a, b in itertools.pairwise(hops) if a[0] == b[0] and a[1] != b[1]}
        said = {r: self._rows[r][0][j] for r in rels}
        if any(said[r] >= self.w.said for r in mirrored):
            return True
        return not any(v >= self.w.said for v in said.values())

    @functools.cached_property
    def _shared(self) -> int | None:
        """Index of the phrase a sharing word qualifies (first phrase at most
        ``shared_within`` words after it), if any."""
        for i, t in enumerate(self.analysis.tokens):
            if t.text in SHARING_WORDS:
                near = [j for j, p in enumerate(self.phrases)
                        if 0 < p.position - i <= self.w.shared_within]
                if near:
                    return near[0]
        return None

    def potential(self, chain: Chain) -> float:
        """How promising a chain is as a prefix of a longer one: its hops are said by the
        question (or pass through unnamed nodes) and the question says more than it covers."""
        rels = [r for r, _ in chain.hops]
        al = self.align(rels, chain.mention, _steps(len(rels), chain.unnamed_middle))
        value = al.precision + self.w.potential_gap * (1.0 - al.coverage)
        if chain.parts.get("unnamed"):
            value += self.w.potential_unnamed  # a CVT end is only ever a step towards the answer
        return value


_PREPOSITIONS = lx.PREPOSITIONS


def relation_verb(relation: str) -> tuple[str | None, bool]:
    """The word of a relation name that would be its verb (the last one before trailing
    prepositions) and whether the name is passive (``directed_by``: the agent is the tail)."""
    ws = words(humanize_relation(relation))
    passive = bool(ws) and ws[-1] == "by"
    while ws and ws[-1] in _PREPOSITIONS:
        ws.pop()
    return (ws[-1] if ws else None), passive


def question_verb(analysis: QuestionAnalysis, expect: Expectation,
                  mention_words: set[str]) -> tuple[str | None, str | None]:
    """The verb the question asks about and whether the answer is its subject or its object:
    "who *wrote* …" and "which moons *orbit* Mars" ask for subjects; "what does Mars *orbit*"
    and "which films did X *direct*" for objects (English question forms only)."""
    toks = [t.text for t in analysis.tokens]
    for i, (a, b) in enumerate(itertools.pairwise(toks)):
        if a in lx.WHO_WORDS and b not in STOPWORDS:
            return b, "subject"
        if a in lx.WH_WORDS:
            rest = toks[i + 1:]
            head = expect.type_words[0] if expect.type_words else None
            if head in rest and rest.index(head) < 4:
                rest = rest[rest.index(head) + 1:]
            if rest and rest[0] not in STOPWORDS and rest[0] not in mention_words:
                return rest[0], "subject"  # which moons orbit …
            if rest and rest[0] in _DO_WORDS:  # what does Mars orbit
                # the verb closes the clause, after its subject ("which films did the
                # *director* of X *direct*")
                after = [w for w in rest[1:] if w not in mention_words and w not in STOPWORDS
                         and not w.isdigit()]
                return (after[-1], "object") if after else (None, None)
            return None, None
    return None, None


def type_segments(relations: Sequence[str]) -> tuple[str, ...]:
    """The type segments of dotted ``domain.type.property`` relation names (``country`` in
    ``location.country.capital``): what the graph calls its kinds of things."""
    return _type_segments(tuple(relations))


@functools.lru_cache(maxsize=8)
def _type_segments(relations: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w for r in relations if r.count(".") >= 2
                               for w in words(r.split(".")[-2])[-1:]))


@functools.lru_cache(maxsize=65536)
def _end_nouns(relation: str, inverted: bool) -> frozenset[str]:
    """Stems of the nouns that name the node a hop reaches: "N of" phrases reading from the
    reached node (:func:`byokg.language.relwords.verbalize`)."""
    phrases = verbalize(relation).along(not inverted)
    suffix = " " + lx.RELATIONAL_OF
    return frozenset(stem(p[: -len(suffix)].split()[-1]) for p in phrases
                     if p.endswith(suffix) and len(p) > len(suffix))


def _names_end(relation: str, inverted: bool, word_stem: str) -> bool:
    return any(term_sim(word_stem, n) >= 0.8 for n in _end_nouns(relation, inverted))


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
    for c in chains:
        labels: list[str] = []
        lits: list[str | None] = []
        named: list[str] = []
        ends = sample[c.mention + str(c.hops)]
        for i in ends:
            n = nodes.get(i)
            if n is not None:
                labels.extend(scorer.node_labels(n.labels))
            name = n.name if n is not None and n.name else names.get(i) or i
            lits.append(literal_kind(name))
            named.extend(dict.fromkeys(w for w in words(name)
                                       if w not in STOPWORDS and not w.isdigit()))
        lit = _majority(lits)
        common = tuple(w for w, k in _counted(named) if k * 2 > len(ends) and len(ends) > 1)
        rel, inv = c.last
        c.end_type = scorer.end_type(rel, inv, labels=[x for x, _ in _counted(labels)],
                                     literal=lit).model_copy(update={"name_words": common})
        c.type_score = scorer.type_score(c.end_type)


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
