"""The question's units of meaning and how they nest around each mention.

A relation chain answers a question when every *unit* of the question (a run of content
words: "doctoral advisor", "cause of death", "a man or a woman") is said by one step of the
chain or by the asked-for type, and every step by one unit. This module reads the units off
the question's tokens (English grammar from the lexicon only) and, per mention, the order in
which the steps should take them — the nesting of the question around the mention:

* a possessive binds tightest: "X 's A 's B" — A, then B;
* then the words between the mention and the noun a relative clause qualifies: "the people
  *born in* X", "the person *running* X";
* then the verb of a clause the mention is the subject of: "the person X *married*", "the
  city where X was *born*";
* then the words before that noun, nearest first: "the *B* of the *A* of X";
* then the other words after the mention ("what did the parents of X *die of*").

A unit's *kind*: ``type`` — the asked-for type word ("which *films*"), which only the last
step or the end set's type may say; ``head`` — a noun a relative clause qualifies ("the
*person* X married", "the *city* where …", "the *people* born in X"), which names the kind of
thing the clause describes, not a relation (no step takes it); ``plain`` — everything else.
A plain unit used as a relational noun ("the *parents* of X", "X 's *daughter*") names the
node the step reaches, which tells the step's direction.

With several mentions ("which person was born in X and is married to Y"), each unit belongs
to the mention of its own clause (clauses split at *and* / commas; within one, the nearest
mention): a chain from X answers for X's units only; the conjunction bonus joins the chains.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Literal

from byokg.language import lexicon as lx
from byokg.language.analysis import SHARING_WORDS
from byokg.language.analysis import QuestionAnalysis
from byokg.language.analysis import agrees
from byokg.language.analysis import partitive_marks
from byokg.language.analysis import past_form
from byokg.language.relwords import base_verb
from byokg.language.relwords import participle
from byokg.language.text import STOPWORDS
from byokg.language.thesaurus import base_form
from byokg.language.thesaurus import names_people

UnitKind = Literal["plain", "type", "head"]
OrderKey = tuple[int, int]


@dataclass(frozen=True)
class Unit:
    """A run of the question's content words that says one thing."""

    text: str  # its words as one text ("cause of death", "man or woman")
    words: tuple[str, ...]  # its content words
    tokens: tuple[int, ...]  # token indexes (content words only)
    kind: UnitKind = "plain"
    noun: bool = False  # used as a relational noun ("the *advisor* of X", "X 's *advisor*")
    phrasal: bool = False  # a verb with its particle ("come *out*"): read as one phrase
    prep: str = ""  # the preposition right after it ("works *for*", "born *in*")
    implied: bool = False  # not written: what a question word asks for ("*where* is X")
    # or what a preposition says as the predicate ("films *about* X": a topic)
    by_preposition: bool = False  # implied by a preposition, not by a question word
    attribute: bool = False  # a type word asked as an attribute ("what *sex* is X", "what is
    # the *job* of X"): it may say the last step; else it only names the answer's class
    verb_object: bool = False  # ... and the object of the participle after the subject
    # ("which *label* was X released on"): left unsaid, it costs nothing
    modifier: bool = False  # qualifies the asked-for type word ("what *famous* painters",
    # "which school of *painting*"): left unsaid, it costs only what the graph could say of it
    possessed: bool = False  # a relational noun the mention is, asked for its possessor
    # ("*whose* *pupil* was X": the one X is the pupil of)
    in_type: bool = False  # another word of the asked-for type's noun phrase ("which
    # *record* company"): it names the answer's class with the type word

    @property
    def start(self) -> int:
        return self.tokens[0]

    @property
    def end(self) -> int:
        return self.tokens[-1]


@dataclass
class Structure:
    """The units of a question and, per mention, the ones it owns with their order keys."""

    units: tuple[Unit, ...] = ()
    owned: dict[str, dict[int, OrderKey]] = field(default_factory=dict)

    def of(self, mention: str) -> dict[int, OrderKey]:
        """Units (index -> order key) a chain from ``mention`` should say; every unit when the
        mention is unknown."""
        got = self.owned.get(mention)
        if got is None:
            return {i: (4, u.start) for i, u in enumerate(self.units)}
        return got


def _content(tok: str) -> bool:
    return (tok not in STOPWORDS and len(tok) >= 2 and not tok.isdigit()
            and tok not in lx.PLACE_PREPOSITIONS
            and tok not in lx.QUESTION_WORD_HINTS and tok not in SHARING_WORDS)


def _participle(tok: str) -> bool:
    """A past participle or a gerund ("born", "started", "based", "running")."""
    if tok in lx.PAST_FORMS or any(participle(b) == tok for b in (base_verb(tok),) if b):
        return True
    return len(tok) > 4 and tok.endswith(("ed", "ing"))


def structure(analysis: QuestionAnalysis, mentions: dict[str, tuple[int, int]],
              type_word: str | None = None) -> Structure:
    """The question's units and their order around each mention (see the module doc).
    ``mentions``: character spans of the linked mentions; ``type_word``: the asked-for
    type's head word, if any."""
    toks = [t.text for t in analysis.tokens]
    n = len(toks)
    owner: list[str | None] = [None] * n
    for m, (s, e) in mentions.items():
        for i, t in enumerate(analysis.tokens):
            if t.start < e and t.end > s and owner[i] is None:
                owner[i] = m
    partitives = partitive_marks(toks)
    content = [owner[i] is None and _content(toks[i]) and i not in partitives
               and not _controlled_infinitive(toks, owner, i)
               and not _aspect_gerund(toks, owner, i) for i in range(n)]
    type_at = _type_token(toks, content, type_word)
    runs = [r for run in _runs(toks, content, owner, type_at)
            for r in _verb_split(toks, run, _final_verb(toks, content))]
    units = [_unit(toks, run, owner, type_at) for run in runs]
    units = [u for u in units if u is not None]
    units = _split_heads(toks, units, owner)
    units = _categorised(toks, units)
    units = _with_objects(toks, units)
    units = _idioms(toks, units)
    if type_at >= 0 and _attribute(toks, type_at, owner):
        obj = _verb_object(toks, type_at, owner)
        units = [dataclasses.replace(u, attribute=True, verb_object=obj) if u.kind == "type"
                 else u for u in units]
    if type_at >= 0:
        named = _type_phrase(toks, type_at, analysis.type_words)
        units = [dataclasses.replace(u, in_type=True) if u.kind == "plain"
                 and set(u.tokens) <= named else u for u in units]
        units = [dataclasses.replace(u, modifier=True) if _modifies(toks, u, type_at) else u
                 for u in units]
    hint = _hint(toks, owner)
    if hint is not None:
        units.append(hint)
    units += _preposition_senses(toks, owner, units)
    spans = _mention_tokens(owner)
    owned = {m: _order(toks, units, span, owner) for m, span in spans.items()}
    if len(spans) > 1:
        _share_out(toks, units, spans, owned, owner)
    return Structure(units=tuple(units), owned=owned)


_IDIOMS_LONGEST_FIRST = tuple(sorted(lx.IDIOMS.items(), key=lambda kv: -len(kv[0])))


def _idioms(toks: Sequence[str], units: list[Unit]) -> list[Unit]:
    """A unit ending an English idiom reads as the noun the idiom means, a relational noun
    of the question's entity, and the idiom's other words say nothing more (lexicon
    ``IDIOMS``: "what does X do *for a living*", "how does X *earn a living*" say X's
    *occupation*; "living" alone would say where X lives). The longest idiom wins."""
    out = list(units)
    spans: list[tuple[int, int]] = []
    for k, u in enumerate(units):
        if u.kind != "plain":
            continue
        for seq, meaning in _IDIOMS_LONGEST_FIRST:
            at = u.end - len(seq) + 1
            if at >= 0 and tuple(toks[at:u.end + 1]) == seq:
                out[k] = dataclasses.replace(u, text=meaning[0], words=meaning, noun=True,
                                             phrasal=False, prep="")
                spans.append((at, k))
                break
    inside = {j for at, k in spans for j, v in enumerate(units)
              if j != k and v.start >= at and v.end <= units[k].end}
    return [u for j, u in enumerate(out) if j not in inside]


def _controlled_infinitive(toks: Sequence[str], owner: Sequence[str | None], i: int) -> bool:
    """Whether token ``i`` is the infinitive an object-control verb's object takes ("who
    *taught* X to *fly*", "whom did they teach to *fly*"): the teaching is the relation, the
    skill is not a step of its own. Not "certified to *fly*" (no such verb)."""
    if i < 2 or toks[i - 1] != lx.INFINITIVE_MARKER:
        return False
    for j in range(i - 2, -1, -1):
        if owner[j] is not None:
            continue
        base = base_verb(toks[j]) or toks[j]
        if base in lx.OBJECT_CONTROL_VERBS:
            return True
        if toks[j] in lx.CLAUSE_WORDS or past_form(toks[j]):
            return False  # the infinitive is another verb's ("certified to fly")
    return False


def _aspect_gerund(toks: Sequence[str], owner: Sequence[str | None], i: int) -> bool:
    """Whether token ``i`` is the gerund an aspectual verb takes ("when did X *start*
    *flying*", "in what year did X *begin* *trading*"): the beginning or the end of the
    activity is what is asked, read from the aspectual verb; the activity is no step of its
    own."""
    if i < 1 or owner[i] is not None or owner[i - 1] is not None \
            or not (len(toks[i]) > 4 and toks[i].endswith("ing")):
        return False
    return (base_verb(toks[i - 1]) or toks[i - 1]) in lx.ASPECTUAL_VERBS


def _modifies(toks: Sequence[str], u: Unit, type_at: int) -> bool:
    """Whether a plain unit qualifies the type word: the words between the question word and
    it ("what *famous* painters") or its *of* complement ("which school of *painting*")."""
    if u.kind != "plain" or u.noun:
        return False
    if u.end == type_at - 1 and u.start >= 1 and toks[u.start - 1] in lx.WH_WORDS:
        return True
    return (u.start == type_at + 2 and toks[type_at + 1] == lx.RELATIONAL_OF
            and toks[type_at] not in lx.CATEGORY_NOUNS)


def _type_phrase(toks: Sequence[str], type_at: int, type_words: Sequence[str]) -> set[int]:
    """The other tokens of the asked-for type's noun phrase around its head ("which *record*
    company", "which prime *crew* member"): the question's type words next to it that the
    dictionary knows as nouns (not "which court *heard*", a verb the type words ran into).
    They name the answer's class with the head (``Unit.in_type``)."""
    named = set(type_words)
    out: set[int] = set()
    for step in (-1, 1):
        i = type_at + step
        while 0 <= i < len(toks) and toks[i] in named and base_form(toks[i]) is not None:
            out.add(i)
            i += step
    return out


def _type_token(toks: Sequence[str], content: Sequence[bool], type_word: str | None) -> int:
    if not type_word:
        return -1
    return next((i for i, t in enumerate(toks) if t == type_word and content[i]), -1)


def _runs(toks: Sequence[str], content: Sequence[bool], owner: Sequence[str | None],
          type_at: int) -> list[list[int]]:
    """Runs of adjacent content tokens, joined across one joining word ("cause *of*
    death", "man *or* (a) woman"); the type word is a run of its own."""
    runs: list[list[int]] = []
    i, n = 0, len(toks)
    while i < n:
        if not content[i]:
            i += 1
            continue
        run = [i]
        j = i + 1
        while j < n:
            if content[j] and j != type_at and run[-1] != type_at:
                run.append(j)
                j += 1
                continue
            k = j
            if k < n and toks[k] in lx.JOINING_WORDS:
                k += 1
                while k < n and toks[k] in lx.ARTICLES and toks[j] in lx.OR_WORDS:
                    k += 1  # "a man or *a* woman" (not "the parents of *the* person")
                if (k < n and content[k] and k != type_at and run[-1] != type_at
                        and k - j <= 2 and not (j + 1 < n and owner[j + 1] is not None)):
                    run.append(k)
                    j = k + 1
                    continue
            break
        runs.append(run)
        i = j
    return runs


def _hint(toks: Sequence[str], owner: Sequence[str | None]) -> Unit | None:
    """"*Where* is the stadium of X", "*when* was X": a question word before a copula and
    the subject asks for the subject's place or date — a unit of its own, read as the
    words the lexicon gives the question word ("place", "location"); not when a verb
    follows the subject ("where was X born": the verb says it)."""
    copulas = lx.SINGULAR_COPULAS | lx.PLURAL_COPULAS
    last = max((i for i, m in enumerate(owner) if m is not None), default=-1)
    if (any(_content(t) and owner[i] is None for i, t in enumerate(toks) if i > last)
            and not _relative_clause(toks, owner)):
        return None  # a verb after the subject says what is asked ("where was X *born*")
    for i in range(len(toks) - 2):
        hints = lx.QUESTION_WORD_HINTS.get(toks[i])
        if (hints and toks[i] in lx.QUESTION_WORD_KINDS and lx.QUESTION_WORD_KINDS[toks[i]]
                in ("place", "date") and toks[i + 1] in copulas
                and (owner[i + 2] is not None or toks[i + 2] in lx.ARTICLES)):
            return Unit(text=hints[0], words=tuple(hints), tokens=(i,), kind="plain",
                        implied=True)
    return None


def _relative_clause(toks: Sequence[str], owner: Sequence[str | None]) -> bool:
    """Whether the verb after the mention is a relative clause's, qualifying a noun before
    the mention ("where is *the university* X *works for*", "where is *the arena where* X
    *plays*"): the subject is an article and a noun, and a relative word stands right before
    the mention or the question ends with the clause's preposition."""
    first = next((i for i, m in enumerate(owner) if m is not None), None)
    if first is None or first < 2:
        return False
    art = next((i for i in range(first - 1, -1, -1) if toks[i] in lx.ARTICLES), None)
    if art is None or not any(_content(t) for t in toks[art + 1:first]):
        return False
    return toks[first - 1] in lx.RELATIVE_WORDS or toks[-1] in lx.PREPOSITIONS


def _preposition_senses(toks: Sequence[str], owner: Sequence[str | None],
                        units: Sequence[Unit]) -> list[Unit]:
    """"Which films are *about* X", "what is X *about*": a preposition of the lexicon's
    PREPOSITION_SENSES that governs a mention, or ends the question after one, is the
    predicate — a unit of its own, read as the words the lexicon gives it ("topic", …).
    Not before a number ("about 500": roughly) nor when a verb takes it as its
    preposition ("what did X write *about*": the verb says the relation)."""
    out: list[Unit] = []
    n = len(toks)
    for i, t in enumerate(toks):
        senses = lx.PREPOSITION_SENSES.get(t)
        if not senses or owner[i] is not None or any(u.prep == t and u.end == i - 1
                                                     for u in units):
            continue
        j = i + 1
        while j < n and toks[j] in lx.ARTICLES:
            j += 1
        governs = j < n and owner[j] is not None and not toks[j].isdigit()
        ends = i == n - 1 and i > 0 and owner[i - 1] is not None
        if governs or ends:
            out.append(Unit(text=senses[0], words=tuple(senses), tokens=(i,), kind="plain",
                            implied=True, by_preposition=True))
    return out


def _attribute(toks: Sequence[str], at: int, owner: Sequence[str | None]) -> bool:
    """Whether the asked-for type word is asked as an attribute of something: right after
    a copula ("what is the *job* of X") or before a copula that the subject follows ("what
    *sex* is X 's daughter", "which *country* is X in", "what *land* is the city …"), or
    the object of a do-support *have* ("what *illness* does X have"). Before
    a verb or a preposition it names the class of the answer ("which *companies* did X
    found", "what *movies* are about X")."""
    copulas = lx.SINGULAR_COPULAS | lx.PLURAL_COPULAS
    wh = max((i for i in range(at) if toks[i] in lx.WH_WORDS), default=-1)
    if wh < 0:
        return False
    between = [t for t in toks[wh + 1:at] if t not in lx.ARTICLES]
    if between and all(t in copulas for t in between):
        return True  # "what is the *job* of …"
    if between:
        return False
    nxt = at + 1
    if nxt < len(toks) and toks[nxt] in lx.DO_WORDS:
        rest = [t for t in toks[nxt + 1:] if any(c.isalnum() for c in t)]
        return bool(rest) and rest[-1] in lx.POSSESSION_VERBS  # "what *illness* does X have"
    if nxt + 1 >= len(toks) or toks[nxt] not in copulas:
        return False
    after = nxt + 1
    return owner[after] is not None or toks[after] in lx.ARTICLES


def _verb_object(toks: Sequence[str], at: int, owner: Sequence[str | None]) -> bool:
    """Whether an attribute type word before a copula is also the object of the passive or
    progressive whose participle follows the mentioned subject ("which *label* was X
    released on", "in which *country* was X born", "which *instrument* is X playing"): it
    may say the last step, and needs none to say (the verb does). So is a type word the
    object of a predicate noun's preposition ("which *city* is X a native of", "which
    *team* was X a member of"): the noun says the step."""
    start = at + 2
    if start >= len(toks) or owner[start] is None:
        return False
    end = next((i for i in range(start, len(toks)) if owner[i] is None), len(toks))
    if end >= len(toks):
        return False
    rest = [t for t in toks[end:] if any(c.isalnum() for c in t)]
    if (len(rest) >= 3 and rest[0] in lx.ARTICLES and rest[-1] in lx.PREPOSITIONS
            and all(owner[i] is None for i in range(end, len(toks)))):
        return True
    return _participle(toks[end])


def _final_verb(toks: Sequence[str], content: Sequence[bool]) -> int:
    """The verb of a question with do-support ("what did X *die* of", "what faith does X
    *follow*", "where does X 's mentor *work*"): its last content word; -1 for other
    questions."""
    for i, t in enumerate(toks[:-1]):
        if t in lx.WH_WORDS | lx.WHO_WORDS or t in lx.QUESTION_WORD_KINDS or t == lx.HOW:
            rest = toks[i + 1:i + 4]
            if any(r in lx.DO_WORDS for r in rest):
                return max((k for k in range(len(toks)) if content[k]), default=-1)
            return -1
    return -1


def _verb_split(toks: Sequence[str], run: list[int], verb: int) -> list[list[int]]:
    """A run split before a verb form that follows a noun ("X 's kids | *married*", "born |
    *lie*", "X 's mentor | *reports* to"): a past form, a participle or gerund, a present
    tense agreeing with the singular noun before it, or the do-support verb."""
    out = [[run[0]]]
    for i in run[1:]:
        if i == verb or (toks[i] not in lx.JOINING_WORDS and (
                _participle(toks[i]) or agrees(toks[i - 1], toks[i]))):
            out.append([i])
        else:
            out[-1].append(i)
    return out


def _unit(toks: Sequence[str], run: list[int], owner: Sequence[str | None],
          type_at: int) -> Unit | None:
    if not run:
        return None
    first, last = run[0], run[-1]
    text = " ".join(toks[first:last + 1])
    ws = tuple(toks[i] for i in run)
    after = last + 1
    noun = (after < len(toks) and toks[after] == lx.RELATIONAL_OF) or (
        first > 0 and toks[first - 1] in lx.POSSESSIVES)
    possessed = (first > 0 and toks[first - 1] in lx.POSSESSOR_WORDS and after < len(toks)
                 and toks[after] in lx.COPULAS and all(o is None for o in owner[:first]))
    # a noun predicated of the mention ("which city is X *a native* of", "what is X *the
    # capital* of"): the mention is what the noun names, as with *whose*
    possessed = possessed or (
        first >= 2 and toks[first - 1] in lx.ARTICLES and owner[first - 2] is not None
        and after < len(toks) and toks[after] in lx.PREPOSITIONS
        and any(toks[i] in lx.COPULAS and owner[i] is None for i in range(first)))
    noun = noun or possessed
    kind: UnitKind = "type" if type_at in run else "plain"
    phrasal = after < len(toks) and toks[after] in lx.PARTICLES and owner[after] is None
    if phrasal:
        text = f"{text} {toks[after]}"  # "come out", "set up"
        after += 1
    prep = toks[after] if after < len(toks) and toks[after] in lx.PREPOSITIONS else ""
    return Unit(text=text, words=ws, tokens=tuple(run), kind=kind, noun=noun, phrasal=phrasal,
                prep=prep, possessed=possessed)


def _split_heads(toks: Sequence[str], units: list[Unit], owner: Sequence[str | None]
                 ) -> list[Unit]:
    """Mark the nouns relative clauses qualify (see :func:`_is_head`). A verb written before
    such a noun stays a unit of its own ("which person *directed* | films that share …": the
    verb says a relation, the noun only names what the clause describes)."""
    out: list[Unit] = []
    for u in units:
        cut = next((j for j in range(len(u.words) - 1, 0, -1) if _verb(u.words[j - 1])), 0)
        if cut and u.kind == "plain" and not u.noun:
            rest = dataclasses.replace(u, text=" ".join(u.words[cut:]), words=u.words[cut:],
                                       tokens=u.tokens[cut:])
            if _is_head(toks, rest, owner):
                out.append(dataclasses.replace(u, text=" ".join(u.words[:cut]),
                                               words=u.words[:cut], tokens=u.tokens[:cut],
                                               prep="", phrasal=False))
                out.append(dataclasses.replace(rest, kind="head", noun=False))
                continue
        out.append(dataclasses.replace(u, kind="head", noun=False)
                   if _is_head(toks, u, owner) else u)
    return out


def _categorised(toks: Sequence[str], units: list[Unit]) -> list[Unit]:
    """"What *kind* of *movie* is X", "which *type* of *music* does X play": the noun after
    a category word and "of" names the class whose kind is asked (what the mention is), not a
    relation: a head no step takes."""
    out = list(units)
    for k, u in enumerate(units):
        i = u.start - 1
        while i >= 0 and toks[i] in lx.ARTICLES:
            i -= 1
        if (u.kind == "plain" and i >= 1 and toks[i] == lx.RELATIONAL_OF
                and toks[i - 1] in lx.CATEGORY_NOUNS):
            out[k] = dataclasses.replace(u, kind="head", noun=False)
    return out


def _verb(tok: str) -> bool:
    """A verb form English morphology knows: a base or past form of an irregular verb, a
    past participle or a gerund."""
    return tok in lx.IRREGULAR_VERBS or tok in lx.PAST_FORMS or _participle(tok)


def _present(tok: str) -> bool:
    """A verb's third-person present ("*runs* the kitchen", "*manages* the team")."""
    return tok.endswith("s") and base_verb(tok) not in (None, tok)


def _with_objects(toks: Sequence[str], units: list[Unit]) -> list[Unit]:
    """A verb and its direct object after an article are one predicate: "who *wrote the
    screenplay* for X", "which films did X *write the score* for", "which chef *runs the
    kitchen* at X" (one step says both). Not an object that names people ("who mentored *the
    researchers* at X": a hop of their own), not a relational noun ("wrote the *biography of*
    …") nor a noun a clause qualifies."""
    out: list[Unit] = []
    for u in units:
        prev = out[-1] if out else None
        between = toks[prev.end + 1:u.start] if prev is not None else []
        if (prev is not None and prev.kind == "plain" and not prev.noun and not prev.prep
                and len(prev.words) == 1 and (_verb(prev.words[0]) or _present(prev.words[0]))
                and u.kind == "plain"
                and not u.noun and between and all(t in lx.ARTICLES for t in between)
                and not names_people(u.words[-1])):
            out[-1] = dataclasses.replace(
                prev, text=f"{prev.text} {' '.join(between)} {u.text}",
                words=(*prev.words, *u.words), tokens=(*prev.tokens, *u.tokens), prep=u.prep,
                phrasal=u.phrasal)
            continue
        out.append(u)
    return out


def _is_head(toks: Sequence[str], u: Unit, owner: Sequence[str | None]) -> bool:
    """A noun a relative clause qualifies: followed by a relative word ("the city *where*
    X was born"), by the mention or another noun phrase after an article ("the person X
    married", "the city the person … lives in"), by a participle taking a preposition, an
    object or the mention ("the people *born in* X", "the person *running* X", "the films
    *sharing* actors with X"), or by the preposition of a passive's agent ("the other
    movies *by* the director of X"). An article may stand before it with a sharing word
    between ("the *other* movies"). A verb followed by its object ("who directed X") is
    none."""
    if u.kind != "plain" or u.noun or _participle(u.words[-1]):
        return False
    n = len(toks)
    nxt, prev = u.end + 1, u.start - 1
    if nxt >= n:
        return False
    while prev >= 0 and toks[prev] in SHARING_WORDS:
        prev -= 1
    after_article = prev >= 0 and toks[prev] in lx.ARTICLES
    if toks[nxt] in lx.RELATIVE_WORDS:
        return True
    if after_article and (owner[nxt] is not None or toks[nxt] in lx.ARTICLES
                          or toks[nxt] in lx.AGENT_PREPOSITIONS):
        return True
    return (after_article and _participle(toks[nxt]) and nxt + 1 < n
            and (toks[nxt + 1] in lx.PREPOSITIONS or owner[nxt + 1] is not None
                 or _content(toks[nxt + 1])))


def _mention_tokens(owner: Sequence[str | None]) -> dict[str, tuple[int, int]]:
    spans: dict[str, tuple[int, int]] = {}
    for i, m in enumerate(owner):
        if m is None:
            continue
        a, _b = spans.get(m, (i, i))
        spans[m] = (a, i)
    return spans


def _order(toks: Sequence[str], units: Sequence[Unit], span: tuple[int, int],
           owner: Sequence[str | None]) -> dict[int, OrderKey]:
    """Per unit (not a head), its order key around the mention at token ``span``."""
    first, last = span
    out: dict[int, OrderKey] = {}
    # the possessive chain after the mention: X 's A 's B
    chain: list[int] = []
    at = last + 1
    while at + 1 < len(toks) and toks[at] in lx.POSSESSIVES:
        u = next((k for k, x in enumerate(units) if x.start == at + 1), None)
        if u is None:
            break
        chain.append(u)
        at = units[u].end + 1
    for rank, k in enumerate(chain):
        out[k] = (0, rank)
    # the noun a clause around the mention qualifies (nearest before it)
    heads = [k for k, u in enumerate(units) if u.kind == "head" and u.end < first]
    head = max(heads, key=lambda k: units[k].end) if heads else None
    head_end = units[head].end if head is not None else -1
    # a clause whose subject the mention is: a head right before it ("the person X
    # married") or a relative word before it ("the city where X was born")
    before = first - 1
    subject_clause = before >= 0 and (toks[before] in lx.RELATIVE_WORDS or (
        head is not None and head_end == before))
    if head is not None and not subject_clause:
        # "the city [the person running X] lives in": the noun phrase around the mention
        # is the subject of a clause on another noun (or after a relative word)
        start = units[head].start
        start -= 1 if start > 0 and toks[start - 1] in lx.ARTICLES else 0
        prev = start - 1
        subject_clause = prev >= 0 and (toks[prev] in lx.RELATIVE_WORDS or any(
            x.kind == "head" and x.end == prev for x in units))
    clause_verb_taken = False
    for k, u in enumerate(units):
        if u.kind == "head" or k in out:
            continue
        if u.end < first:
            d = first - u.end
            out[k] = (1, d) if u.start > head_end else (3, d)
        else:
            d = u.start - last
            if subject_clause and not clause_verb_taken and u.kind != "type":
                out[k] = (2, d)
                clause_verb_taken = True
            else:
                out[k] = (4, d)
    return out


def _share_out(toks: Sequence[str], units: Sequence[Unit], spans: dict[str, tuple[int, int]],
               owned: dict[str, dict[int, OrderKey]], owner: Sequence[str | None]) -> None:
    """Several mentions: each plain unit goes to the mention of its clause (clauses split
    at *and* and commas; the nearest mention within one, the next one when tied); type
    units stay with every mention."""
    clause = [0] * len(toks)
    c = 0
    for i, t in enumerate(toks):
        if t in lx.CLAUSE_SPLITS and owner[i] is None:
            c += 1
        clause[i] = c
    for k, u in enumerate(units):
        if u.kind == "type":
            continue
        mine = [m for m, (a, _b) in spans.items() if clause[a] == clause[u.start]]
        cands = mine or list(spans)

        def dist(m: str, u: Unit = u) -> tuple[int, int]:
            a, b = spans[m]
            return (u.start - b, 1) if u.start > b else (a - u.end, 0)

        best = min(cands, key=dist)
        for m in spans:
            if m != best:
                owned[m].pop(k, None)
