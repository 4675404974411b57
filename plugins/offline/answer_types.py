"""Answer types: what the question asks for, what a chain's end nodes are, and how well they fit.

The question side (:class:`Expectation`) comes from the
:class:`~byokg.language.analysis.QuestionAnalysis`: the asked-for kind (*who* -> person, *when* / *which
year* -> date, *how many* -> count, *where* -> place) and the type word after *which* / *what*
("which *films*"). The graph side (:class:`EndType`) is derived from the graph only:

* the labels of the end nodes (typed graphs: Kùzu tables, Neo4j labels, JSONL ``labels``);
* the relation walked into them: walked forward, its own name says what its tails are ("has
  genre", "in language", "director"); walked backward, a dotted ``domain.type.property`` name
  says what its heads are (``film.film.directed_by`` -> film); a passive ``…_by`` name or an
  agent noun (director, author) says its tails are agents, the things *who* asks for;
* literal values: node names or property values that are years, dates or numbers.

:func:`type_match` compares both with the same word similarity the chains use (lexical, plus
the similarity model when installed) and returns a score in [-1, 1]: 1 fits, 0 cannot tell,
negative does not fit ("which city" ending at a country, "when" ending at a person).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from collections.abc import Sequence

from byokg.plugins.offline.weights import WEIGHTS
from byokg.plugins.offline.weights import TypeScores
from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.language import lexicon as lx
from byokg.language.analysis import CATEGORY_NOUNS
from byokg.language.analysis import QuestionAnalysis
from byokg.language.analysis import humanize_relation
from byokg.language.analysis import looks_plural
from byokg.language.analysis import past_form
from byokg.language.analysis import same_word
from byokg.language.literals import LiteralKind
from byokg.language.literals import literal_kind
from byokg.language.relwords import end_nouns
from byokg.language.relwords import had_noun
from byokg.language.relwords import singular
from byokg.language.relwords import verbalize
from byokg.language.text import STOPWORDS
from byokg.language.text import stem
from byokg.language.text import words
from byokg.language.thesaurus import base_form
from byokg.language.thesaurus import gloss
from byokg.language.thesaurus import names_a_person
from byokg.language.thesaurus import names_a_place
from byokg.language.thesaurus import names_people
from byokg.language.thesaurus import no_doer
from byokg.language.thesaurus import related_words

Similarity = Callable[[Sequence[str], Sequence[str]], dict[tuple[str, str], float]]

__all__ = ["KIND_WORDS", "EndType", "Expectation", "LiteralKind", "end_type", "expectation", "literal_kind",
           "type_head", "type_match"]

_FROZEN = ConfigDict(frozen=True)
_AGENT_SUFFIXES = lx.AGENT_NOUN_SUFFIXES
_SHORT_AGENT_SUFFIXES = tuple(x for x in _AGENT_SUFFIXES if len(x) <= 2)  # -er, -or
KIND_WORDS = lx.KIND_WORDS  # generic words for what "when", "where", "who" and "what kind" ask


class Expectation(BaseModel):
    """What the question asks for."""

    model_config = _FROZEN

    kind: str = "thing"  # person | place | date | count | number | thing
    type_words: tuple[str, ...] = ()  # "which films" -> ("films",)
    # the graph's labels that are what the type word names (closest ones; empty: none or
    # the graph has no informative labels)
    fitting_labels: tuple[str, ...] = ()
    category: bool = False  # "what kind / type / sort of …": a category of things is asked for

    @property
    def specific(self) -> bool:
        return self.kind != "thing" or bool(self.type_words)

    @property
    def reads_edges(self) -> bool:
        """Whether the ends' own edges can tell (:func:`type_match`): a type word or *who*
        reads the roles of a graph without labels, a category whether the ends are kinds."""
        return self.category or self.kind == "person" or bool(self.type_words)


class EndType(BaseModel):
    """What the end nodes of a chain (or one node) are, as far as the graph says."""

    model_config = _FROZEN

    labels: tuple[str, ...] = ()
    nouns: tuple[str, ...] = ()  # relation (segment) names that name the ends
    literal: LiteralKind | None = None
    agentive: bool = False  # the ends are the agents of the relation walked into them
    typed_noun: bool = False  # a noun is the class of the ends (a dotted name's type segment)
    value: bool = False  # property values, not nodes (a node property read as the answer)
    name_words: tuple[str, ...] = ()  # words most of the ends' names share ("university")
    # the last word of each sampled end's name when it has several ("Kiru *Dockyard*",
    # "Lobo *Shipbuilding*"): on a graph without labels a name's head often says its kind
    name_heads: tuple[str, ...] = ()
    # the noun a relation walked backwards names its tails by, the end walked away from
    # (``fromHouse`` walked back from a house reaches what is from it: no house)
    far_noun: str = ""
    # nouns the relation's English reading gives the ends ("the *advisor* of X" names what
    # ``advisor`` reaches forwards, "the *writer* of X" what ``wrote`` reaches backwards)
    end_nouns: tuple[str, ...] = ()
    # nouns the graph's relations call most of the ends by the roles they play (graphs
    # without labels only): "chef" for the heads of ``chefAt``
    roles: tuple[str, ...] = ()
    # ... of them, the nouns the owner's lexicon or an LLM compilation wrote
    said_roles: tuple[str, ...] = ()
    # most of the ends are kinds by the graph's shape: leaves that several heads share along
    # the relation walked into them and nothing else (a specialty, a genre, a cuisine)
    kinds: bool = False



def type_head(words_: Sequence[str], types: Sequence[str]) -> str | None:
    """The head noun of the words after *which* / *what*: the last one that names one of the
    graph's ``types`` (label heads, dotted type segments), else the compound's head ("which
    *films* share a screenwriter", "what *country* borders", "which instrument *family*")."""
    if not words_:
        return None
    cats = [w for w in words_ if w in CATEGORY_NOUNS]
    if cats:
        return cats[0]  # "what kind of films": a category is asked for, not films
    stems = {stem(t) for t in types}
    named = [w for w in words_ if any(same_word(stem(w), t) for t in stems)]
    if named:
        return named[-1]
    # a compound's plural is its head ("which fashion *houses*")
    plural = [w for w in words_[1:] if looks_plural(w)]
    if plural:
        return plural[0]
    # else its last noun ("which record *company*"), not a verb the type words ran into
    # ("which *yard* laid down")
    nouns = [w for w in words_ if base_form(w) is not None]
    return nouns[-1] if nouns else words_[0]


def labels_named(types: Sequence[str], labels: Sequence[str],
                 label_nouns: dict[str, tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """The labels a type word names by its letters: a label's head word (the last:
    FilmDirector is a director) or, when none, what the graph's relations call a label's
    nodes ("writers": the heads of ``wrote`` are Persons)."""
    heads = {lab: words(lab)[-1] if words(lab) else "" for lab in labels}
    fitting = tuple(lab for lab in labels
                    if heads[lab] and any(names_label(w, heads[lab]) for w in types))
    if not fitting and label_nouns:
        fitting = tuple(lab for lab in labels if any(
            names_label(w, words(n)[-1]) for w in types
            for n in label_nouns.get(lab, ()) if words(n)))
    if not fitting:
        # what the type word means by the thesaurus, by its letters ("planes": *heavier-than-
        # air craft*, an Aircraft; "pictures": *painting*; "tongue": *language*)
        meant = {x.replace("-", " ").split()[-1] for w in types for x in related_words(w)}
        fitting = tuple(lab for lab in labels if heads[lab] and any(
            names_label(m, heads[lab]) or (len(m) >= 5 and heads[lab].endswith(m))
            for m in meant if m))
    return fitting


def names_label(word: str, head: str) -> bool:
    """Whether a type word is a label's head word in another form ("cities" and City,
    "genres" and Genre), not a word built on it: "painters" are no Paintings, a
    "filmmaker" no Film, an "authority" no Author. A shared beginning counts when what
    is left is an ending's letter or two, and not an agent noun's (-er, -or)."""
    if singular(word) == singular(head):
        return True
    a, b = stem(word), stem(head)
    short, long_ = sorted((a, b), key=len)
    if a == b or (len(short) >= 4 and long_.startswith(short)):
        rest = long_[len(short):]
        return len(rest) <= 2 and not rest.startswith(_SHORT_AGENT_SUFFIXES)
    return False


def built_on(word: str, head: str) -> bool:
    """Whether a type word and a label's head word share their root but are other words
    (``painters`` and Painting, ``filmmaker`` and Film): a doer is not what it makes, however
    near a model of meaning puts the two."""
    if names_label(word, head):
        return False
    a, b = stem(word), stem(head)
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short)


def expectation(analysis: QuestionAnalysis, mention_words: set[str] | frozenset[str] = frozenset(),
                *, labels: Sequence[str] = (), sim: Similarity | None = None,
                types: Sequence[str] = (), scores: TypeScores = WEIGHTS.types,
                label_nouns: dict[str, tuple[str, ...]] | None = None) -> Expectation:
    """The asked-for kind and type word, leaving out words of the question's own entities; with
    the graph's ``labels``, the ones the type word names (relative: "country" names Country,
    not Continent, even where a similarity model finds the two close). ``types``: the graph's
    type names (label heads, dotted type segments) that help find the head of a compound."""
    run = [w for w in analysis.type_words if w not in mention_words]
    head = type_head(run, [*types, *(words(lab)[-1] for lab in labels if words(lab))])
    types = (head,) if head else ()
    fitting: tuple[str, ...] = ()
    if head in CATEGORY_NOUNS:
        types = KIND_WORDS["category"]  # any label or relation naming a category fits
    if types and len(labels) > 1:
        fitting = labels_named(types, labels, label_nouns)
        if not fitting and sim is not None:
            table = sim(types, list(labels))
            # a word the dictionary knows as no one names no label it calls someone, however
            # near a model puts them ("which *illness*" is no Patient)
            no_one = all(gloss(w) and not names_people(w) for w in types)
            best = {lab: max(table[(w, lab)] for w in types) for lab in labels
                    if not any(built_on(w, words(lab)[-1]) for w in types if words(lab))
                    and not (no_one and names_a_person(lab))}
            top = max(best.values(), default=0.0)
            if top >= scores.match:
                fitting = tuple(lab for lab, v in best.items()
                                if v >= max(scores.match, top - scores.label_margin))
    return Expectation(kind=analysis.kind, type_words=(head,) if head else (),
                       fitting_labels=fitting, category=head in CATEGORY_NOUNS)


def is_agentive(name: str) -> bool:
    """A relation whose tails are agents: passive ``directed_by`` / ``writtenBy``, or an agent
    noun such as *director*, *author*, *founder* (English morphology only)."""
    ws = [w for w in words(humanize_relation(name)) if w not in STOPWORDS or w == "by"]
    if not ws:
        return False
    if ws[-1] == "by" and len(ws) > 1:
        return True
    last = ws[-1][:-1] if ws[-1].endswith("s") else ws[-1]
    # a place the dictionary knows is no agent, whatever its ending (*theater*, *tower*),
    # nor a word it knows as no person or group (*gender*, *number*, *headquarters*)
    return (len(last) >= 5 and last.endswith(_AGENT_SUFFIXES) and not names_a_place(last)
            and not no_doer(last) and not no_doer(ws[-1]))


def end_type(relation: str | None, inverted: bool, *, labels: Sequence[str] = (),
             literal: LiteralKind | None = None, active: bool = False) -> EndType:
    """The type of the nodes reached by walking ``relation`` (backwards when ``inverted``).

    ``active``: the relation is named by the verb the question asks *who* did ("who wrote"
    and ``wrote``), so its heads are the agents."""
    nouns: list[str] = []
    agentive = False
    if relation:
        if not inverted:
            nouns.append(relation)
            agentive = is_agentive(relation)
        else:
            agentive = active and not is_agentive(relation)
            segs = relation.split(".")
            if len(segs) >= 3:
                nouns.append(segs[-2])
    typed = bool(relation) and inverted and relation.count(".") >= 2
    far = ""
    if relation and inverted:
        ws = [w for w in words(humanize_relation(relation)) if w not in lx.PREPOSITIONS]
        far = ws[-1] if ws else ""
    return EndType(labels=tuple(dict.fromkeys(labels)), nouns=tuple(nouns), literal=literal,
                   agentive=agentive, typed_noun=typed, far_noun=far,
                   end_nouns=end_nouns(relation, inverted) if relation else ())


@functools.lru_cache(maxsize=65536)
def role_nouns(relation: str, head: bool) -> tuple[str, ...]:
    """The nouns a relation calls its heads (``head``) or tails: "N of" and "N at" readings
    ("HEAD chef at TAIL"), "has N" read from the other end, and a dotted name's type segment
    for its heads."""
    p = verbalize(relation)
    out = list(end_nouns(relation, head))
    other = p.backward if head else p.forward  # read from the other end ("TAIL has chef HEAD")
    # "has employer" read off ``EMPLOYED_AT``: a participle's head is no agent (the reading
    # is kept for similarity, which wants the verb's agent, not for what the head is)
    participle = p.form == "verb_prep" and bool(p.words) and past_form(p.words[0])
    if not (head and participle):
        out += [n for x in other if (n := had_noun(x))]
    if head:
        if p.form == "noun_of":
            out.append(" ".join(w for w in p.words if w not in lx.PREPOSITIONS))
        segs = relation.split(".")
        if len(segs) >= 3:
            out.append(humanize_relation(segs[-2]))
    return tuple(dict.fromkeys(x for x in out if x))


def label_nouns(relations: Sequence[tuple[str, Sequence[str], Sequence[str]]]
                ) -> dict[str, tuple[str, ...]]:
    """Per label, the nouns the graph's relations call its nodes: for each ``(relation,
    domain labels, range labels)``, the nouns naming its tails go to the range labels and
    those naming its heads to the domain labels (:func:`end_nouns`)."""
    out: dict[str, list[str]] = {}
    for rel, domain, range_ in relations:
        for lab in range_:
            out.setdefault(lab, []).extend(end_nouns(rel, False))
        for lab in domain:
            out.setdefault(lab, []).extend(end_nouns(rel, True))
    return {lab: tuple(dict.fromkeys(v)) for lab, v in out.items()}


def _best(sim: Similarity, left: Sequence[str], right: Sequence[str]) -> float:
    if not left or not right:
        return 0.0
    return max(sim(left, right).values(), default=0.0)



def _passive(names: Sequence[str]) -> bool:
    """A relation named in the passive (``directed_by``, ``writtenBy``): its tails are surely
    agents, unlike a name that only ends like an agent noun (``alma_mater``)."""
    return any(len(ws := words(humanize_relation(n))) > 1 and ws[-1] == "by" for n in names)


def _names_agents(type_words: Sequence[str], sim: Similarity, least: float) -> bool:
    """Whether the asked-for type word names agents: an agent noun itself ("writers",
    "directors"), a person word, or close to one by meaning ("actress", "band"). English
    morphology only."""
    if any(is_agentive(w) for w in type_words):
        return True
    return _best(sim, type_words, list(lx.AGENT_KIND_WORDS)) >= least


def type_match(exp: Expectation, end: EndType, sim: Similarity,
               lex: Similarity | None = None, *, semantic: bool = False,
               scores: TypeScores = WEIGHTS.types) -> float:
    """How well ``end`` fits what is asked, in [-1, 1] (0: the graph cannot tell); each
    finding's value is a named score of :class:`~byokg.plugins.offline.weights.TypeScores`.

    ``sim`` is the word similarity (lexical and meaning); ``lex`` the lexical one, used to
    match the type word against relation names: a meaning-level likeness between a type word
    and a relation ("writers" / ``wrote``) says nothing about which end of it is meant.
    ``semantic``: ``sim`` includes a similarity model (only then can a type word be told to
    name no agent: "which *movies*" is not answered with directors)."""
    if exp.kind in ("count", "date", "number"):
        return _measured(exp, end, sim, scores)
    lit = end.literal
    if exp.fitting_labels and (lit is not None or end.value) and (exp.category
                                                                  or exp.type_words):
        return scores.misfit  # the type word names a label of the graph: a value is none
    if exp.fitting_labels and end.labels and (exp.category or exp.type_words):
        # the graph says what the ends are: is it what is asked?
        return scores.fits if set(end.labels) & set(exp.fitting_labels) else scores.misfit
    if exp.category:
        s = _best(lex or sim, KIND_WORDS["category"], [*end.labels, *end.nouns])
        if s >= scores.match:
            return s  # ``genre``, ``form_of_government``: the relation names a category
        if lit is not None or end.agentive:
            return scores.category_misfit  # a year or the people who did it is no kind
        if end.kinds:
            return scores.category_kinds
        return scores.labelled_unsure if end.labels else 0.0
    # "which *person*" asks what "who" asks (when no label of the graph is named)
    person = exp.kind == "person" or (bool(exp.type_words)
                                      and all(w in lx.PERSON_WORDS for w in exp.type_words))
    if exp.type_words and not (person and all(w in lx.PERSON_WORDS for w in exp.type_words)):
        return _typed_word(exp, end, sim, lex, semantic, scores)
    if lit is not None:
        return (scores.literal_for_entity if person or exp.kind == "place"
                else scores.literal_for_thing)
    names = [*end.labels, *end.nouns]
    if person:
        return _person(end, sim, scores)
    if exp.kind == "place":  # weak: many relations lead to places without saying so
        s = _best(sim, KIND_WORDS["place"], names)
        if s < scores.place_min and any(names_a_place(n) for n in names):
            s = scores.place_min  # a hospital or a restaurant is somewhere, by its definition
        return (scores.place_scale * s if s >= scores.place_min
                else (scores.labelled_unsure if end.labels else 0.0))
    return 0.0


def _person(end: EndType, sim: Similarity, scores: TypeScores) -> float:
    """*Who* asked: how well the ends are someone (organisations too: who signed, who owns;
    a miss costs little)."""
    # what the reached nodes are called, not a verb-named relation's own words
    # (``WORKS_IN`` walked forwards reaches what one works in, not people who work)
    names = [*end.labels, *end.end_nouns, *(end.nouns if end.typed_noun else ()), *end.roles]
    s = _best(sim, KIND_WORDS["person"], names)
    # a Pilot is "someone who …" by definition: a label names the nodes themselves; the
    # nouns of relations do not (``head_coach`` is one of a team's people, its players are
    # named by no relation)
    agent = end.agentive or any(is_agentive(n) or names_a_person(n) for n in end.labels)
    # on a graph without labels, the roles the owner's lexicon or an LLM wrote for the ends
    # name them when most of them call someone (a rider, a member, a winner: every role of
    # theirs, not only the relation walked into them), less surely than a label. Not the
    # roles read off relation names: they call a team's head coach a coach and its players
    # nothing, so only the coach would be someone
    said = end.said_roles
    roles = not agent and sum(map(names_a_person, said)) * 2 > len(said) > 0
    score = scores.person_scale * max(s, scores.person_agent if agent else 0.0,
                                      scores.person_roles if roles else 0.0)
    return score if score > 0 else (scores.person_labelled if end.labels else 0.0)


def _measured(exp: Expectation, end: EndType, sim: Similarity, scores: TypeScores) -> float:
    """A count, a date or a number asked: the literal kind of the ends decides."""
    lit = end.literal
    if exp.kind == "count":
        return scores.count_number if lit == "number" else 0.0
    if exp.kind == "date":
        if lit in ("date", "year"):
            return scores.fits
        if lit == "number":
            return scores.date_number
        s = _best(sim, KIND_WORDS["date"], [*end.labels, *end.nouns])
        return scores.date_named * s if s >= scores.match else scores.date_misfit
    if lit in ("number", "year"):
        return scores.fits
    return scores.number_misfit if end.labels or lit else 0.0


def _typed_word(exp: Expectation, end: EndType, sim: Similarity, lex: Similarity | None,
                semantic: bool, scores: TypeScores) -> float:
    """A type word asked ("which *city*") and no label of the ends names it: the relation
    walked into them (its noun, a dotted name's type segment) or its agents decide."""
    if end.name_words and any(same_word(stem(t), stem(n)) for t in exp.type_words
                              for n in end.name_words):
        return scores.named_fits  # "which university": the ends are called "University of …"
    if end.name_heads and not end.labels and end.literal is None:
        # "which shipyard": most ends are called "… Dockyard", "… Shipbuilding", "… Shipyard"
        table = sim(list(exp.type_words), list(end.name_heads))
        near = sorted((max(table[(t, h)] for t in exp.type_words) for h in end.name_heads),
                      reverse=True)
        half = near[len(near) // 2]
        if half >= scores.named_min:
            return min(half, scores.named_fits)
    # only nouns that name the ends count ("which *writers*" is not answered with what
    # ``wrote`` reaches, though *writer* is its agent noun); they may match by meaning
    # ("which stadium": ``home_venue``)
    named = [*end.end_nouns, *(end.nouns if end.typed_noun else ())]
    s = max(_best(lex or sim, exp.type_words, named), _best(sim, exp.type_words, named),
            # the other roles the ends play, by their words only: a chef is near a kitchen
            # by meaning, and a restaurant is no chef
            _best(lex or sim, exp.type_words, end.roles))
    if s >= scores.named_min and end.literal is None and not end.value and not end.labels:
        return s  # graded: "which *job*" and ``profession`` are close, not the same word
    if end.literal is not None or end.value:  # a value: its property's name is all that says
        return scores.value_fits if s >= scores.match else scores.misfit  # what it is
    if s >= scores.match:
        return s
    if end.far_noun and not end.labels and any(names_label(t, end.far_noun)
                                               for t in exp.type_words):
        # "which *houses*" along ``fromHouse`` backwards: the houses are where it started
        return scores.typed_noun_misfit
    if end.typed_noun:
        return scores.typed_noun_misfit  # a dotted name's type segment names another class
    if end.labels:
        # labels the type word names none of (else :attr:`Expectation.fitting_labels` decided)
        return scores.labelled_unsure
    if (semantic and end.agentive and _passive(end.nouns)
            and not _names_agents(exp.type_words, sim, scores.agent_word)):
        return scores.agent_misfit  # "which movies …" answered with the people who made them
    return 0.0  # a relation name that does not name the type says little
