"""Relation verbalisation: a relation's name, and its domain and range labels when known, as
English phrases in both directions.

A *forward* phrase reads ``HEAD phrase TAIL`` and a *backward* phrase ``TAIL phrase HEAD``:

=============================  ===============================  ==============================
relation                       forward                          backward
=============================  ===============================  ==============================
``place_of_birth``             "place of birth", "born in"      "place of birth of"
``BORN_IN``, ``bornIn``        "born in"                        "birthplace of", …
``directed_by``                "directed by"                    "directed", "director of"
``wrote``                      "wrote", "writer of"             "written by", "has writer"
``hasAuthor``                  "author", "has author"           "author of"
``author_of``                  "author of"                      "has author", "author"
``spouse``                     "spouse", "has spouse"           "spouse of", "spouse", …
=============================  ===============================  ==============================

Any naming style is read: snake_case, camelCase, dotted ``domain.type.property`` (the type
segment is the domain when none is given), UPPER_CASE verbs, spaced or kebab names, and IRIs
(``http://…/ontology#bornIn``: the last segment). The rules are English grammar and morphology
only (participles, agent nouns, prepositions), all of their words in
:mod:`byokg.language.lexicon`; nothing here knows a graph's or a benchmark's relation names.
What the words *mean* beyond their form is the model of meaning's job: the phrases are what it
reads. The profile's vocabulary (``profile.vocabulary``) builds on :func:`verbalize` and adds a
user lexicon and LLM phrasings beside it.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

from pydantic import BaseModel
from pydantic import ConfigDict

from byokg.language import lexicon as lx

__all__ = ["RelationPhrases", "agent_noun", "base_verb", "converse_noun", "end_nouns",
           "hypernym", "name_words", "of_noun", "participle", "past_tense", "performer_role", "singular",
           "subject_end", "verbalize"]

Form = Literal["passive", "verb", "verb_prep", "noun_of", "noun", "generic", "opaque"]

_IRI_TAIL = re.compile(r"[/#]")
_SPLIT = re.compile(r"[_\-\s:]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_PAST_OF = {past: base for base, (past, _pp) in lx.IRREGULAR_VERBS.items()}
_PARTICIPLE_OF = {pp: base for base, (_past, pp) in lx.IRREGULAR_VERBS.items()}
_NOUN_VERB = {n: verb for verb, nouns in lx.VERB_NOUNS.items() for n in nouns}
_CONVERSE: dict[str, tuple[str, ...]] = {}
for _a, _b in lx.CONVERSE_NOUNS:
    _CONVERSE[_a] = (*_CONVERSE.get(_a, ()), _b)
    _CONVERSE[_b] = (*_CONVERSE.get(_b, ()), _a)


class RelationPhrases(BaseModel):
    """A relation read as English, both ways (see the module doc)."""

    model_config = ConfigDict(frozen=True)

    relation: str
    words: tuple[str, ...]  # the name's own words, lower case (a dotted domain prefix dropped)
    form: Form  # how the name was read (passive verb, verb, noun, "noun of", …)
    forward: tuple[str, ...]  # read "HEAD phrase TAIL", best first
    backward: tuple[str, ...]  # read "TAIL phrase HEAD", best first
    domain: str | None = None  # the head's label words, when known
    range: str | None = None  # the tail's label words, when known
    singular: str = ""  # the name's words with a plural last word made singular ("child")

    def along(self, inverted: bool = False) -> tuple[str, ...]:
        """Phrases read "START phrase END" for a hop walked forwards (``inverted`` False: from
        the head) or backwards (from the tail)."""
        return self.backward if inverted else self.forward

    def text(self) -> str:
        """The name's words as one text (what a model of meaning embeds for the relation)."""
        return " ".join(self.words) or self.relation


def of_noun(reading: str) -> str | None:
    """The noun of an "N of" reading: "birthplace" of "birthplace of"."""
    suffix = " " + lx.RELATIONAL_OF
    return reading[: -len(suffix)] if reading.endswith(suffix) and len(reading) > len(suffix) \
        else None


def had_noun(reading: str) -> str | None:
    """The noun of a "has N" reading (:class:`RelationPhrases`): "writer" of "has writer"."""
    head, _, noun = reading.partition(" ")
    return noun if head == lx.HAS and noun else None


# --------------------------------------------------------------------------- words


def _split(segment: str) -> list[str]:
    out: list[str] = []
    for part in _SPLIT.split(segment):
        if not part:
            continue
        toks = _CAMEL.findall(part) or [part]
        out.extend(t.lower() for t in toks)
    return out


@functools.lru_cache(maxsize=65536)
def name_words(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(type words, property words)`` of a relation or label name in any naming style:
    ``people.person.place_of_birth`` -> ``(("person",), ("place", "of", "birth"))``;
    ``bornIn`` / ``BORN_IN`` / ``born in`` -> ``((), ("born", "in"))``."""
    tail = [p for p in _IRI_TAIL.split(name.strip()) if p]
    name = tail[-1] if tail else name.strip()
    segs = [s for s in name.split(".") if s]
    if not segs:
        return (), ()
    prop = _split(segs[-1])
    typ = _split(segs[-2]) if len(segs) >= 2 else []
    words: list[str] = []
    for w in prop:
        if not words or words[-1] != w:
            words.append(w)
    if len(words) > 1 and words[-1] in lx.POSSESSIVES:
        words.pop()  # ``spouse_s``: a plural marker written as its own word
    return tuple(typ), tuple(words)


# --------------------------------------------------------------------------- morphology


def singular(word: str) -> str:
    """``children`` -> ``child``, ``cities`` -> ``city``, ``tags`` -> ``tag``; a word that
    is no regular plural stays as it is."""
    if word in lx.IRREGULAR_PLURALS:
        return lx.IRREGULAR_PLURALS[word]
    if len(word) <= 3 or not word.endswith("s") or word.endswith(lx.SINGULAR_S_ENDINGS):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def converse_noun(noun: str) -> tuple[str, ...]:
    """The converse relational nouns of English (``children`` -> ``parent``, ``employer`` ->
    ``employee``, ``advisor`` -> ``advisee``, ``student``; ``parent company`` ->
    ``subsidiary``): the whole phrase first, then its last word; empty when the lexicon
    has none."""
    ws = noun.lower().split()
    if not ws:
        return ()
    ws[-1] = singular(ws[-1])
    whole = " ".join(ws)
    return _CONVERSE.get(whole) or (_CONVERSE.get(ws[-1], ()) if len(ws) > 1 else ())


def hypernym(word: str) -> str | None:
    """The more general relational noun a word names a kind of (``daughter`` -> ``child``,
    ``mother`` -> ``parent``), from the lexicon; None for other words."""
    return lx.RELATIONAL_HYPERNYMS.get(word.lower())


def _singular_compound(word: str) -> str:
    """:func:`singular`, and a compound ending in an irregular plural (``grandchildren`` ->
    ``grandchild``)."""
    got = singular(word)
    if got != word:
        return got
    for plural, one in lx.IRREGULAR_PLURALS.items():
        if word.endswith(plural) and len(word) > len(plural):
            return word[: -len(plural)] + one
    return word


def _last_noun(phrase: str) -> tuple[list[str], str, str]:
    """A noun phrase's words, its last word in the singular, and that word's general noun
    (itself when the lexicon has none: ``grandfathers`` -> grandfather, grandparent)."""
    ws = phrase.lower().split()
    if not ws:
        return [], "", ""
    last = _singular_compound(ws[-1])
    return ws, last, hypernym(ws[-1]) or hypernym(last) or last


def composed(phrase: str) -> tuple[str, ...]:
    """The relational nouns a noun phrase names a chain of, walked from its owner
    (``grandfathers`` -> parent, parent; ``great granddaughter`` -> child, child, child), from
    the lexicon; empty for other phrases."""
    ws, _last, general = _last_noun(phrase.replace("-", " "))  # brothers-in-law
    if not ws:
        return ()
    if len(ws) > 2 and ws[-2] == lx.IN_LAW[0] and singular(ws[-1]) == lx.IN_LAW[1]:
        ws[-1] = lx.IN_LAW[1]  # "in laws"
    head = hypernym(ws[0]) or _singular_compound(ws[0])
    return lx.COMPOSED_RELATIONAL_NOUNS.get(" ".join([*ws[:-1], general]),
                                            lx.COMPOSED_RELATIONAL_NOUNS.get(
                                                " ".join([head, *ws[1:]]), ()))


def names_noun(phrase: str, relation: str) -> bool:
    """Whether a relation's name has the noun phrase's last word among its words, as it is,
    as its general noun or as their converse (``grandfather`` and ``grandparent_of``,
    ``has_grandchild``; not ``parent``)."""
    ws, last, general = _last_noun(phrase)
    if not ws:
        return False
    forms = {last, general}
    forms |= {c for f in list(forms) for c in converse_noun(f)}
    return bool(forms & {_singular_compound(w) for w in verbalize(relation).words})


def verb_role(verb: str, noun: str) -> str | None:
    """Whether a relational noun names the doer of a verb (``"agent"``: *founded* and
    ``founder``, *raised* and ``parent``), the one it is done to (``"patient"``: *employs* and
    ``employee``, *mentored* and ``mentee``), or neither (None). Regular nouns by the verb's
    root and an agent or patient ending, other doers from the lexicon's
    ``VERB_AGENT_NOUNS``."""
    base = base_verb(verb.lower()) or verb.lower()
    n = singular(noun.lower().split()[-1]) if noun.strip() else ""
    if not base or not n:
        return None
    if n in lx.VERB_AGENT_NOUNS.get(base, ()):
        return "agent"
    root = base[:-1] if base.endswith("e") else base
    for end in lx.PATIENT_ENDINGS:
        if n.endswith(end):
            core = n[: -len(end)]
            return "patient" if len(core) >= 3 and base.startswith(core) else None
    if len(root) >= 3 and n.startswith(root) and n != base and n.endswith(lx.AGENT_ENDINGS):
        return "agent"
    return None


def _converse_of(phrases: list[str], words: list[str]) -> list[str]:
    """"N of" with the converses of the noun ``words``, when English has some."""
    return [f"{o} of" for o in converse_noun(" ".join(words)) if f"{o} of" not in phrases]


def past_tense(base: str) -> str:
    """``write`` -> ``wrote``, ``direct`` -> ``directed``, ``marry`` -> ``married``."""
    if base in lx.IRREGULAR_VERBS:
        return lx.IRREGULAR_VERBS[base][0]
    return _regular_ed(base)


def participle(base: str) -> str:
    """``write`` -> ``written``, ``direct`` -> ``directed``."""
    if base in lx.IRREGULAR_VERBS:
        return lx.IRREGULAR_VERBS[base][1]
    return _regular_ed(base)


def _regular_ed(base: str) -> str:
    if base.endswith("e"):
        return base + "d"
    if len(base) > 2 and base.endswith("y") and base[-2] not in "aeiou":
        return base[:-1] + "ied"
    if base in lx.DOUBLED_CONSONANT:
        return base + base[-1] + "ed"
    return base + "ed"


def regular_past(word: str) -> bool:
    """Whether ``word`` reads as a regular past form by its ending ("ordered", "agreed", "died",
    "aged"): not a word in *-eed* unless a known verb in *-ee* lost its *-d* ("creed", "breed",
    "speed" are nouns or base forms; "agreed" is a past form: the lexicon knows *agree*)."""
    if len(word) < 4 or not word.endswith("ed"):
        return False
    if len(word) == 4:  # "died", "tied", "aged", "used"; not "shed", "sled", "seed"
        return word.endswith("ied") or word[0] in "aeiou"
    if word.endswith("eed"):
        return word[:-1] in lx.RELATION_VERBS or word[:-1] in lx.IRREGULAR_VERBS
    return True


def base_verb(form: str) -> str | None:
    """The base of a verb form (``wrote``/``written`` -> ``write``, ``directed`` -> ``direct``,
    ``starred`` -> ``star``, ``married`` -> ``marry``, ``orbits`` -> ``orbit``), or None
    when the word does not look like an inflected verb."""
    if form in _PAST_OF:
        return _PAST_OF[form]
    if form in _PARTICIPLE_OF:
        return _PARTICIPLE_OF[form]
    if form in lx.IRREGULAR_VERBS or form in lx.RELATION_VERBS:
        return form
    cands: list[str] = []
    if form.endswith("ied") and len(form) > 4:
        cands.append(form[:-3] + "y")
    if regular_past(form):
        stem = form[:-2]
        if len(stem) > 2 and stem[-1] == stem[-2]:
            cands.append(stem[:-1])
        cands += [stem + "e", stem, form[:-1]]
    elif form.endswith("ing") and len(form) > 5:
        stem = form[:-3]
        if len(stem) > 2 and stem[-1] == stem[-2]:
            cands.append(stem[:-1])
        cands += [stem, stem + "e"]
    elif form.endswith("s") and not form.endswith("ss") and len(form) > 3:
        cands += [form[:-3] + "y"] if form.endswith("ies") else []
        # "-es" after a sibilant or an "o" ("watches", "goes"); else the "e" is the stem's
        # ("wines" is no form of *win*)
        sibilant = form.endswith("es") and form[:-2].endswith(lx.SIBILANT_ENDINGS)
        cands += [form[:-2], form[:-1]] if sibilant else [form[:-1]]
        return next((c for c in cands if c in lx.RELATION_VERBS or c in lx.IRREGULAR_VERBS),
                    None)
    if not cands:
        return None
    known = [c for c in cands if c in lx.RELATION_VERBS or c in lx.IRREGULAR_VERBS]
    if known:
        return known[0]
    # unknown verb: "-ed" after a consonant pair keeps it ("directed"), else an "e" came off;
    # a four-letter past only lost its "-d" ("died", "aged": *die*, *age*)
    if len(form) == 4 and form.endswith("ed"):
        return form[:-1]
    stem = form[:-2] if form.endswith("ed") else form[:-3]
    return stem + "e" if len(stem) > 2 and stem[-1] not in "aeiouy" and stem[-2] in "aeiou" \
        and stem[-1] not in "wxt" else stem


def agent_noun(base: str) -> str:
    """``write`` -> ``writer``, ``direct`` -> ``director``, ``create`` -> ``creator``,
    ``win`` -> ``winner`` (English morphology, not always right)."""
    if base.endswith("ate"):
        return base[:-1] + "or"
    if base.endswith(lx.AGENT_OR_AFTER):
        return base + "or"
    if base.endswith("e"):
        return base + "r"
    if len(base) > 2 and base.endswith("y") and base[-2] not in "aeiou":
        return base[:-1] + "ier"
    if base in lx.DOUBLED_CONSONANT or (len(base) == 3 and base[1] in "aeiou"
                                         and base[2] not in "aeiouwxy" and base[0] not in "aeiou"):
        return base + base[-1] + "er"
    return base + "er"


def _verb_of_agent(noun: str) -> str | None:
    """The verb an agent noun comes from (``director`` -> ``direct``, ``writer`` -> ``write``,
    ``founder`` -> ``found``), when it is a known verb."""
    for suf in lx.AGENT_ENDINGS:
        if noun.endswith(suf) and len(noun) > len(suf) + 2:
            stem = noun[: -len(suf)]
            for cand in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2]
                         else None):
                if cand and (cand in lx.RELATION_VERBS or cand in lx.IRREGULAR_VERBS):
                    return cand
    return None


def _verbish(word: str, *, before_prep: str | None = None) -> bool:
    """Whether a relation-name word reads as a verb form: a past form or participle, a known
    relational verb (or its third person), a gerund; before a preposition other than *of*,
    any third-person ``-s`` form ("plays for", "belongs to")."""
    if word in _PAST_OF or word in _PARTICIPLE_OF:
        return True
    if regular_past(word) or (len(word) > 4 and word.endswith("ing")):
        return True
    if word in lx.RELATION_VERBS:
        return before_prep is not None and before_prep != "of"
    if word.endswith("s") and not word.endswith("ss"):
        if before_prep is not None and before_prep != "of" and len(word) > 3:
            return True
        return base_verb(word) is not None
    return False


def _verb_first(core: list[str]) -> bool:
    """A name that opens with its verb: one verb form (``wrote``, ``ORBITS``), or a past or
    third-person form before its object (``won_award``, ``speaks_language``); a participle
    before a noun is an adjective (``known_name``, ``starred_actors``)."""
    first = core[0]
    if first.endswith("ing"):
        return False
    if len(core) == 1:
        return _verbish(first)
    if first in _PAST_OF:
        return True
    return first.endswith("s") and not first.endswith("ss") and base_verb(first) is not None


# --------------------------------------------------------------------------- phrases


def _typed(phrases: list[str], label: str | None) -> list[str]:
    """The first phrase with the label's words after it, when it does not say them already
    ("born in" + City -> "born in city")."""
    if not label or not phrases:
        return []
    lw = label.split()
    if all(w in phrases[0].split() for w in lw):
        return []
    return [f"{phrases[0]} {label}"]


def _passive(head: list[str]) -> tuple[list[str], list[str]]:
    """``directed_by``: forward "directed by"; backward "directed", "director of"."""
    verb = head[-1]
    base = base_verb(verb) or verb
    fwd = [" ".join([*head, "by"])]
    bwd = [" ".join([*head[:-1], past_tense(base)]), f"{agent_noun(base)} of"]
    fwd += _converse_of(fwd, [agent_noun(base)])  # advised_by: the head is the *advisee*
    return fwd, bwd


def _verb_prep(head: list[str], prep: str, verb: int = -1) -> tuple[list[str], list[str]]:
    """``born_in``, ``acted_in``, ``works_for``: forward the name; backward the nouns the verb
    goes with ("birthplace of"), else the agent ("has actor"), else the name again. ``verb``:
    the verb's place in ``head`` (first before its object: ``makes_wine_for``)."""
    phrase = " ".join([*head, prep])
    fwd = [phrase]
    nouns = lx.VERB_NOUNS.get(head[verb], ()) if verb == -1 or len(head) == 1 else ()
    bwd = [f"{n} of" for n in nouns if " " in n or n.endswith("place")] or \
        [f"{n} of" for n in nouns]
    base = base_verb(head[verb])
    if base and base in lx.RELATION_VERBS and prep not in ("of",):
        bwd.append(f"{lx.HAS} {agent_noun(base)}")
    return fwd, bwd or [phrase]


def _verb(words: list[str]) -> tuple[list[str], list[str]]:
    """``wrote``, ``ORBITS``, ``won_award``: forward the verb and its agent ("writer of");
    backward its passive ("written by") and "has writer"."""
    verb, obj = words[0], words[1:]
    base = base_verb(verb) or verb
    agent = agent_noun(base)
    fwd = [" ".join(words)]
    bwd = [" ".join([*obj, participle(base), "by"]) if obj else f"{participle(base)} by"]
    if not obj:
        fwd.append(f"{agent} of")
        bwd.append(f"{lx.HAS} {agent}")
        bwd += _converse_of(bwd, [agent])  # employs: the tail is the *employee*
    fwd += [n for n in lx.VERB_NOUNS.get(verb, ())[:1]]
    return fwd, bwd


def _noun(words: list[str]) -> tuple[list[str], list[str]]:
    """``spouse``, ``place_of_birth``, ``director``: forward the noun and "has …"; backward
    "… of"; a symmetric noun reads both ways; an agent noun adds its verb ("directed");
    a nominalisation its verb phrase ("place of birth" -> "born in")."""
    np_ = " ".join(words)
    fwd, bwd = [np_, f"{lx.HAS} {np_}"], [f"{np_} of"]
    verb = _NOUN_VERB.get(np_)
    if verb:
        prep = lx.VERB_PREPOSITION.get(verb)
        fwd.insert(1, f"{verb} {prep}" if prep else verb)
    base = _verb_of_agent(words[-1])
    if base and len(words) == 1:
        bwd.append(past_tense(base))
    fwd += _converse_of(fwd, words)  # children: the head is the *parent* of the tail
    if words[-1] in lx.SYMMETRIC_NOUNS:
        fwd += [p for p in bwd if p not in fwd]
        bwd += [p for p in fwd if p not in bwd]
    return fwd, bwd


def _gerund_of_known(word: str) -> bool:
    """``starring``, ``featuring``: the -ing form of a known verb (not ``sibling``)."""
    if len(word) <= 5 or not word.endswith("ing"):
        return False
    stem = word[:-3]
    cands = [stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else ""]
    return any(c in lx.RELATION_VERBS or c in lx.IRREGULAR_VERBS for c in cands if c)


def _gerund(word: str) -> tuple[list[str], list[str]]:
    """``starring``, ``featuring``: forward the word; backward its past with *in*."""
    base = base_verb(word) or word
    return [word], [f"{past_tense(base)} in"]


def _prep_noun(prep: str, rest: list[str]) -> tuple[list[str], list[str]]:
    """``IN_GENRE``, ``of_type``: forward the name and "has …"; backward "… of"."""
    np_ = " ".join(rest)
    return [f"{prep} {np_}", f"{lx.HAS} {np_}"], [f"{np_} of"]


def _noun_of(head: list[str], prep: str) -> tuple[list[str], list[str]]:
    """``author_of``, ``part_of``, ``capital_of``: forward the name; backward "has …" and the
    bare noun."""
    np_ = " ".join(head)
    fwd, bwd = [f"{np_} {prep}"], [f"{lx.HAS} {np_}", np_]
    if prep == lx.RELATIONAL_OF:
        bwd += _converse_of(bwd, head)  # parent_of: the tail is the *child* of the head
    if head[-1] in lx.SYMMETRIC_NOUNS:
        bwd.insert(0, fwd[0])
    return fwd, bwd


def _label_words(label: str | None) -> str | None:
    if not label:
        return None
    typ, words = name_words(label)
    ws = [w for w in words if w not in lx.STOPWORDS] or list(words)
    return " ".join(ws) or None


@functools.lru_cache(maxsize=65536)
def verbalize(relation: str, domain: str | None = None, range: str | None = None
              ) -> RelationPhrases:
    """``relation`` (with its head and tail labels when known) as English phrases both ways
    (see the module doc). Deterministic; memoised."""
    typ, words = name_words(relation)
    dom = _label_words(domain) or (" ".join(typ) if typ else None)
    rng = _label_words(range)
    core = list(words)
    while len(core) > 1 and core[0] in lx.RELATION_PREFIXES:
        core.pop(0)
    prefixed = len(core) < len(words) and words[0] in lx.HAVE_WORDS
    form: Form
    if not core or all(w in lx.GENERIC_RELATION_WORDS for w in core):
        form = "generic"
        said = " ".join(words) or relation
        fwd = [f"{said} {rng}" if rng else said, *([f"{lx.HAS} {rng}"] if rng else [])]
        bwd = [f"{rng} of" if rng else said, *([f"{dom}"] if dom else [])]
    elif all(w.isdigit() or len(w) < 2 for w in core):
        form, fwd, bwd = "opaque", [" ".join(words)], [" ".join(words)]
    elif core[-1] in lx.PREPOSITIONS and len(core) >= 2:
        head, prep = core[:-1], core[-1]
        if prep == "by" and _verbish(head[-1]):
            form, (fwd, bwd) = "passive", _passive(head)
        elif not prefixed and _verbish(head[-1], before_prep=prep):
            form, (fwd, bwd) = "verb_prep", _verb_prep(head, prep)
        elif not prefixed and prep != "of" and len(head) >= 2 and _verb_first(head) \
                and not any(_verbish(w) for w in head[1:]):
            # a verb, its object and a preposition (``MAKES_WINE_FOR``, ``HOLDS_PASSPORT_OF``):
            # read by its verb, not as a noun "makes wine"
            form, (fwd, bwd) = "verb_prep", _verb_prep(head, prep, verb=0)
        else:
            form, (fwd, bwd) = "noun_of", _noun_of(head, prep)
    elif core[0] in lx.PREPOSITIONS and len(core) >= 2:
        form, (fwd, bwd) = "noun", _prep_noun(core[0], core[1:])
    elif len(core) == 1 and not prefixed and _gerund_of_known(core[0]):
        form, (fwd, bwd) = "verb", _gerund(core[0])
    elif not prefixed and _verb_first(core):
        form, (fwd, bwd) = "verb", _verb(core)
    else:
        form, (fwd, bwd) = "noun", _noun(core)
    if form in ("verb", "verb_prep", "passive", "noun_of"):
        fwd += _typed(fwd, rng)
        bwd += _typed(bwd, dom)
    if form in ("noun", "noun_of") and performer_role(relation):
        # ``actor``: the film *features* its actor, the actor *appears in* it; ``actor_of``
        # the other way round
        work, performer = list(lx.FEATURING_PHRASES), list(lx.PERFORMER_PHRASES)
        fwd += performer if form == "noun_of" else work
        bwd += work if form == "noun_of" else performer
    one = " ".join([*words[:-1], singular(words[-1])]) if words else ""
    return RelationPhrases(relation=relation, words=tuple(words), form=form,
                           forward=tuple(dict.fromkeys(fwd)), backward=tuple(dict.fromkeys(bwd)),
                           domain=dom, range=rng, singular=one)


@functools.lru_cache(maxsize=65536)
def performer_role(relation: str) -> bool:
    """Whether a relation is named by the noun of a performing role (``actor``,
    ``starred_actors``, ``performer_of``, ``Guests``: lexicon PERFORMER_NOUNS, its last
    noun made singular)."""
    _typ, words = name_words(relation)
    core = [w for w in words if w not in lx.PREPOSITIONS]
    return bool(core) and singular(core[-1]) in lx.PERFORMER_NOUNS


@functools.lru_cache(maxsize=65536)
def end_nouns(relation: str, inverted: bool) -> tuple[str, ...]:
    """The nouns that name the node a hop reaches: the "N of" phrases read from the reached
    node (``advisor`` forwards: "advisor"; ``wrote`` backwards: "writer"; ``children``
    backwards: "parent", its converse), and a noun-form name walked forwards
    (``home_venue``)."""
    p = verbalize(relation)
    out = [n for x in p.along(not inverted) if (n := of_noun(x))]
    if not inverted and p.form in ("noun", "generic"):
        core = list(p.words)
        while len(core) > 1 and core[0] in lx.RELATION_PREFIXES:
            core.pop(0)  # ``hasChild``: the noun is "child"
        out.append(" ".join(core) or p.text())
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=65536)
def subject_end(relation: str) -> Literal["head"] | None:
    """Which end of a relation stands for the subject of a verb that takes a preposition
    when the relation is what the verb says in other words ("P *plays for* T" along
    ``team``, "R *works at* U" along ``affiliation``, "A *came out on* L" along
    ``RELEASED_ON``): the head of a noun (``team``, ``member_of``) or of a verb with its
    preposition (``comes_from``), whose tail is what the preposition governs. None when
    English does not tell: a passive or a bare verb (``directed_by``, ``starring``: the
    film stars the actor, the actor stars in it), a plural noun (``members``: the members
    are the tail), a symmetric or converse relational noun (``spouse``, ``child``), an agent
    noun (``actor``, ``employer``, ``coach``: the tail is the doer of a verb of its own), a
    generic or opaque name."""
    p = verbalize(relation)
    if p.form == "verb_prep":
        return "head"
    if p.form not in ("noun", "noun_of"):
        return None
    core = [w for w in p.words if w not in lx.PREPOSITIONS] if p.form == "noun_of" \
        else list(p.words)
    while len(core) > 1 and core[0] in lx.RELATION_PREFIXES:
        core.pop(0)
    if not core:
        return None
    last = core[-1]
    if singular(last) != last or last in lx.SYMMETRIC_NOUNS or converse_noun(" ".join(core)) \
            or converse_noun(last):
        return None
    if last in lx.RELATION_VERBS or last in lx.IRREGULAR_VERBS or any(
            _verb_of_agent(last[k:]) for k in range(len(last) - 4)):  # (screen)writer
        return None
    return "head"
