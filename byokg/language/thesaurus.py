"""English nouns a question's noun can mean, from WordNet: the synonyms and the more general
noun of its two most frequent senses (``trade`` -> *occupation*, ``faith`` -> *religion*,
``kids`` -> *child*, ``partner`` -> *spouse*).

The table is ``byokg/data/thesaurus.txt.gz``, distilled from Princeton WordNet 3.0 by
``scripts/build_thesaurus.py`` (WordNet's licence beside it): general English, no graph's or
benchmark's vocabulary. It is read on first use (about 20 ms) and kept for the process. The
offline reasoner reads a relational noun ("X 's *trade*") through it only when no relation of
the graph says the noun by itself, and matches the thesaurus' words with relation names by
their letters (:func:`names_by_letters`): the model of meaning is not asked about them, since
a word's other senses would read as near as the one meant. Verbs are left out: their senses
are many ("play" has 35) and read as other relations ("represents" as "stands for").

Beside it, ``byokg/data/glosses.txt.gz`` holds WordNet's definition of each noun's most frequent
sense (:func:`gloss`): a contextual model of meaning reads a noun-named relation through it too
(``alma_mater``: "a school you graduated from"), which is how "graduated from" finds it.
"""

from __future__ import annotations

import functools

from byokg.language import lexicon as lx
from byokg.language.analysis import SAME_WORD
from byokg.language.analysis import relation_terms
from byokg.language.analysis import term_sim
from byokg.language.tables import read_table
from byokg.language.tables import read_words
from byokg.language.tables import thesaurus_table
from byokg.language.text import STOPWORDS
from byokg.language.text import stem

RELATED_PER_WORD = 32  # words of the thesaurus tried per question word (most frequent sense first)


def table() -> dict[str, str]:
    """lemma -> ``"word|word|…"``, or ``"=base"`` for an irregular form."""
    return thesaurus_table()


@functools.lru_cache(maxsize=1)
def glosses() -> dict[str, str]:
    """noun lemma -> the definition of its most frequent sense (read on first use, ~55 ms)."""
    return read_table("glosses.txt.gz")


def gloss(phrase: str) -> str | None:
    """WordNet's definition of a noun phrase as written (``"alma mater"``), or None."""
    return glosses().get(" ".join(phrase.lower().split()))


@functools.lru_cache(maxsize=4096)
def names_a_person(noun: str) -> bool:
    """Whether WordNet defines a noun (or its head) as someone: its gloss calls it
    *someone*, a *person*, or one *who* does something ("pilot": "*someone who* is licensed
    to operate an aircraft"; lexicon ``PERSON_GLOSS_WORDS``). *Who* asks for such nodes."""
    return _gloss_says(noun, "person")


def names_people(noun: str) -> bool:
    """A noun for people: one of the lexicon's ``PERSON_WORDS`` ("people", "person") or one
    WordNet defines as someone (:func:`names_a_person`)."""
    return noun in lx.PERSON_WORDS or names_a_person(noun)


def _gloss_says(noun: str, kind: str) -> bool:
    text = " ".join(noun.lower().replace("_", " ").split())
    marked = gloss_kinds()
    for key in dict.fromkeys((text, text.rsplit(" ", 1)[-1])):
        got = marked.get(key)
        if got is None and (lemma := base_form(key)):
            got = marked.get(lemma)
        if got is not None and kind in got:
            return True
    return False


GLOSS_KINDS = {"place": lx.PLACE_GLOSS_WORDS, "person": lx.PERSON_GLOSS_WORDS}


def mark_glosses(table: dict[str, str], people: frozenset[str] = frozenset()) -> dict[str, str]:
    """noun -> the kinds (``GLOSS_KINDS``: somewhere, someone) its gloss says, for the nouns
    whose gloss says one, and someone for the nouns WordNet files under people (``people``:
    "doctor", whose gloss says "a licensed medical practitioner"); what
    ``byokg/data/gloss_kinds.txt.gz`` holds (``scripts/build_gloss_kinds.py``), so a question
    does not read every gloss."""
    out: dict[str, str] = {}
    for noun, said in table.items():
        ws = set(said.lower().split())
        kinds = [k for k, marks in GLOSS_KINDS.items()
                 if ws & marks or (k == "person" and noun in people)]
        if kinds:
            out[noun] = ",".join(kinds)
    return out


@functools.lru_cache(maxsize=1)
def gloss_kinds() -> dict[str, str]:
    """The nouns whose gloss says a kind of :data:`GLOSS_KINDS`, read on first use (a few
    ms, not the ~55 ms of all the glosses)."""
    return read_table("gloss_kinds.txt.gz")


@functools.lru_cache(maxsize=1)
def _not_agents() -> frozenset[str]:
    return read_words("not_agents.txt.gz")


def no_doer(noun: str) -> bool:
    """Whether WordNet knows a noun with an agent noun's ending as no doer: none of its first
    two senses is a person or a group (*gender*, *number*, *headquarters*; not *founder* or
    *publisher*). ``byokg/data/not_agents.txt.gz``, built by ``scripts/build_thesaurus.py``."""
    return noun.lower() in _not_agents()


@functools.lru_cache(maxsize=4096)
def names_a_place(noun: str) -> bool:
    """Whether WordNet defines a noun (or its head, the last word) as somewhere things happen:
    its gloss says *where*, or calls it a building, a facility, a room or another place word
    of the lexicon's ``PLACE_GLOSS_WORDS`` ("hospital": "a health facility *where* patients
    receive treatment"). A question asking *where* is answered by such nodes too."""
    return _gloss_says(noun, "place")


def base_form(word: str) -> str | None:
    """The thesaurus' lemma for a word (``killed`` -> ``kill``, ``children`` -> ``child``), or
    None when it has none."""
    t = table()
    w = word.lower().strip()
    got = t.get(w)
    if got is not None:
        return got[1:] if got.startswith("=") else w
    for end, repl in lx.BASE_FORM_RULES:
        if w.endswith(end) and len(w) - len(end) >= 2:
            cand = w[: -len(end)] + repl
            if cand in t and not t[cand].startswith("="):
                return cand
    return None


@functools.lru_cache(maxsize=4096)
def related_words(word: str, limit: int = RELATED_PER_WORD) -> tuple[str, ...]:
    """Up to ``limit`` words ``word`` can mean, most frequent sense first; empty for a word
    the thesaurus does not know."""
    lemma = base_form(word)
    if lemma is None:
        return ()
    out = [lemma] if lemma != word.lower() else []
    out += [w for w in table()[lemma].split("|") if w and w not in out]
    return tuple(out[:limit])


def names_by_letters(related: tuple[str, ...], relation: str) -> float:
    """How well one of these words names ``relation`` by its letters: the best word (or
    phrase, all of whose words are in the name: "place of birth") that is the same word as a
    word of the name (``term_sim`` at least ``SAME_WORD``), times that word's weight in
    the name (a dotted name's last segment weighs most); 0 when none is. (Reading the name's
    own words through the thesaurus too, "trade" and ``profession`` sharing *occupation*,
    was tried: it cost 3 of 336 fit-split questions and gained none.)"""
    terms = relation_terms(relation)
    best = 0.0
    for phrase in related:
        content = [w for w in phrase.split() if w not in STOPWORDS]
        got = 1.0 if content else 0.0
        for w in content:
            st = stem(w)
            hit = max((v * wt for t, wt in terms.items() if (v := term_sim(st, t)) >= SAME_WORD),
                      default=0.0)
            got = min(got, hit)
            if got == 0.0:
                break
        best = max(best, got)
    return best

