"""QuestionAnalysis: what the question says, computed once per question and shared by every stage.

The proposer, the tools and the answerer all read one :class:`QuestionAnalysis` — the normalised
text, its content terms, the spans that may be mentions, the kind of thing asked for and, on
demand, how well each relation name matches the question — instead of re-deriving them.

The analysis is plain data, built from the text alone (no graph, no model). The lexical match of
question words with relation names (stemmed words, 3-gram similarity, agent nouns, compounds,
the generic meaning of *where*/*when*/*who*) is here; the per-question service that blends it
with a model of meaning and memoises it is :class:`byokg.models.similarity.Similarity`. No word
list here names a relation of any graph; synonyms ("wives" / "spouse") come from the model only.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from byokg.language import lexicon as lx
from byokg.language.literals import numbers_in
from byokg.language.relwords import base_verb
from byokg.language.relwords import regular_past
from byokg.language.tables import thesaurus_table
from byokg.language.text import STOPWORDS
from byokg.language.text import normalize
from byokg.language.text import stem
from byokg.language.text import words

AnswerKind = Literal["person", "place", "date", "count", "number", "thing"]
Aggregate = Literal["count", "sum", "avg", "min", "max", "compare", "rank"]
MAX_SPAN_WORDS = 6

__all__ = [
    "CATEGORY_NOUNS",
    "Aggregate",
    "AnswerKind",
    "Phrase",
    "QuestionAnalysis",
    "Span",
    "Token",
    "analyze",
    "humanize_relation",
    "lexical_phrase_score",
    "lexical_relation_scores",
    "looks_plural",
    "relation_terms",
    "term_sim",
]

# --------------------------------------------------------------------------- relation words

# what a question word asks for, as words a relation or label may carry (lexicon)
QUESTION_WORD_HINTS = lx.QUESTION_WORD_HINTS


def _grams(w: str) -> frozenset[str]:
    w = f"#{w}#"
    return frozenset(w[i : i + 3] for i in range(len(w) - 2))


SAME_WORD = 0.8  # term_sim of one word in two forms (a shared prefix, an agent noun)


def same_word(a: str, b: str) -> bool:
    """Whether two stemmed words are one word by their letters (``term_sim`` at least
    :data:`SAME_WORD`: equal, a shared prefix, an agent noun, or nearly the same 3-grams)."""
    return term_sim(a, b) >= SAME_WORD


def term_sim(a: str, b: str) -> float:
    """Similarity of two stemmed words: equal 1.0, shared prefix 0.8 (not when the longer
    word is a compound of the shorter and another word: :func:`compound_of`), suffix 0.7,
    else 3-gram Jaccard when at least 0.45."""
    if a == b:
        return 1.0
    if (len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a))
            and not compound_of(max(a, b, key=len), min(a, b, key=len))):
        return 0.8
    if len(a) >= 5 and len(b) >= 5 and (a.endswith(b) or b.endswith(a)):
        return 0.7
    if _agent_noun(a, b) or _agent_noun(b, a):
        return 0.8
    ga, gb = _grams(a), _grams(b)
    j = len(ga & gb) / len(ga | gb)
    return j if j >= 0.45 else 0.0




def compound_of(word: str, first: str) -> bool:
    """Whether ``word`` is ``first`` and another English word (``filmmaker``: *film* +
    *maker*, ``headquarter``: *head* + *quarter*, ``hometown``): a compound names what its
    last word does, so its first word's letters do not make it that word. An ending that is
    also a word (``ownership``, ``citizenship``: lexicon ``WORD_ENDINGS``) makes none."""
    rest = word[len(first):]
    return (len(rest) >= lx.COMPOUND_REST_MIN and rest not in lx.WORD_ENDINGS
            and rest in thesaurus_table())


def _agent_noun(verb: str, noun: str) -> bool:
    """``noun`` is the English agent noun of the stemmed ``verb`` (act / actor, play / player,
    produc / producer): the verb's stem plus *-or* / *-er* / *-r*."""
    bases = {verb}
    for suffix in lx.VERB_FORM_SUFFIXES:  # short forms the stemmer leaves ("acted")
        if verb.endswith(suffix):
            bases.add(verb[: -len(suffix)])
    return any(len(b) >= 3 and noun == b + e for b in bases for e in lx.AGENT_ENDINGS)


def _hinted(word: str) -> tuple[str, ...]:
    return QUESTION_WORD_HINTS.get(word, ())


def question_terms(text: str) -> dict[str, float]:
    """Content words of a text (stemmed) with weights, plus hinted relation words (0.8)."""
    terms: dict[str, float] = {}
    for w in words(text):
        for h in _hinted(w):
            terms[stem(h)] = max(terms.get(stem(h), 0.0), 0.8)
        if w in STOPWORDS or len(w) < 2:
            continue
        terms[stem(w)] = 1.0
    return terms


@functools.lru_cache(maxsize=65536)
def relation_terms(relation: str) -> dict[str, float]:
    """Words of a relation name; the last dotted segment weighs most (``domain.type.property``)."""
    segs = relation.split(".")
    out: dict[str, float] = {}
    for i, seg in enumerate(segs):
        weight = 1.0 if i == len(segs) - 1 else 0.35
        for w in words(seg):
            if w in STOPWORDS:
                continue
            s = stem(w)
            out[s] = max(out.get(s, 0.0), weight)
    return out


_SPLIT = re.compile(r"[._\-/:\s]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@functools.lru_cache(maxsize=65536)
def humanize_relation(relation: str) -> str:
    """Readable words of a relation name for embedding.

    ``people.person.place_of_birth`` -> ``person place of birth`` (a dotted domain prefix is
    dropped, repeated words collapsed); ``bornIn`` / ``born_in`` -> ``born in``.
    """
    parts = relation.split(".")
    if len(parts) >= 3:
        parts = parts[1:]
    out: list[str] = []
    for part in parts:
        for w in _SPLIT.split(_CAMEL.sub(" ", part)):
            w = w.lower()
            if w and (not out or out[-1] != w):
                out.append(w)
    return " ".join(out) or relation


def lexical_relation_scores(question: str | dict[str, float],
                            relations: Sequence[str]) -> dict[str, float]:
    """Score in [0, 1] per relation: how well its words match the question's terms."""
    q = question_terms(question) if isinstance(question, str) else question
    out: dict[str, float] = {}
    sim_cache: dict[tuple[str, str], float] = {}
    for rel in relations:
        rt = relation_terms(rel)
        if not rt or not q:
            out[rel] = 0.0
            continue
        num = 0.0
        for t, w in rt.items():
            best = 0.0
            for qt, qw in q.items():
                s = sim_cache.get((t, qt))
                if s is None:
                    s = sim_cache[(t, qt)] = term_sim(t, qt)
                best = max(best, s * qw)
            num += w * best
        # normalise by relation length (softly) so long names do not win by size
        out[rel] = num / math.sqrt(sum(rt.values()) + 0.5)
    top = max(out.values(), default=0.0)
    if top > 1.0:
        out = {k: v / top for k, v in out.items()}
    return out


# --------------------------------------------------------------------------- the analysis


class Span(BaseModel):
    """A run of question words that may name something in the graph."""

    model_config = ConfigDict(frozen=True)

    text: str  # as written in the question
    start: int  # character offsets into the question
    end: int
    words: int
    capitalized: bool | None = None  # first letter upper-case (None: the question's first word)


class Token(BaseModel):
    """One normalised question word and where it stands in the question."""

    model_config = ConfigDict(frozen=True)

    text: str
    start: int  # character offsets into the question
    end: int


class Phrase(BaseModel):
    """A content word of the question outside the linked mentions: something a relation of the
    answer chain should say. ``position`` is its token index; ``weight`` is lower for the type
    word the question asks for ("which *films*"), which a relation need not name."""

    model_config = ConfigDict(frozen=True)

    word: str
    stem: str
    position: int
    weight: float = 1.0


_WORD = re.compile(r"\w+", re.UNICODE)
SHARING_WORDS = lx.SHARING_WORDS  # "the same director as", "co-starred with" (lexicon)
CATEGORY_NOUNS = lx.CATEGORY_NOUNS  # "what *kind* of films" (lexicon)


def _noun_head(toks: Sequence[str], at: int) -> str:
    """The head of the noun phrase opening at ``at`` when the phrase is a relational noun
    ("what is the primary *language* of X": its last word before *of*); else the word at
    ``at`` (a name may follow it: "what is the *movie* X about")."""
    end = at
    while end + 1 < len(toks) and end - at < 2 and toks[end + 1] not in STOPWORDS:
        end += 1
    if end > at and end + 1 < len(toks) and toks[end + 1] == lx.RELATIONAL_OF:
        return toks[end]
    return toks[at]


def past_form(tok: str) -> bool:
    """A past form by the lexicon or its ending ("ordered", "killed", "born")."""
    return tok in lx.PAST_FORMS or regular_past(tok)


def _participle(tok: str) -> bool:
    """A past form or an irregular participle ("mounted", "written")."""
    if past_form(tok):
        return True
    base = base_verb(tok)
    return base is not None and base != tok and not tok.endswith("s")


def _verb_after_wh(tok: str) -> bool:
    """A verb right after the question word, which is then its subject: a past form ("what
    *killed* X") or the third person of an irregular verb ("what *gets* bottled", "what
    *goes* into X"), which names no type."""
    return past_form(tok) or (tok.endswith("s") and base_verb(tok) in lx.IRREGULAR_VERBS)


def _following_word(toks: Sequence[str], k: int) -> str:
    """The word after ``toks[k]`` as :func:`agrees` reads it: nothing when a past form comes
    later ("which record *labels* in Paris *signed* X": the verb is that one), unless an
    auxiliary comes next ("which fashion houses *are* based")."""
    if k + 1 < len(toks) and (toks[k + 1] in lx.AUXILIARIES or toks[k + 1] in lx.DETERMINERS):
        return toks[k + 1]
    clause = toks[k + 1:]
    ends = [i for i, t in enumerate(clause) if t in lx.CLAUSE_SPLITS or t in lx.CLAUSE_WORDS]
    if any(past_form(t) for t in clause[: ends[0] if ends else len(clause)]):
        return ""  # (a past form in a clause after "and" or "who" is that clause's verb)
    return toks[k + 1] if k + 1 < len(toks) else ""


def looks_plural(word: str) -> bool:
    """Whether a noun looks plural by its ending ("teams", not "class", "bus", "basis") or is
    an irregular plural ("people", "children"; not "series", whose singular is the same)."""
    if word in lx.IRREGULAR_PLURALS:
        return lx.IRREGULAR_PLURALS[word] != word
    return word.endswith("s") and not word.endswith(lx.NON_PLURAL_ENDINGS)


def agrees(noun: str, word: str, following: str = "") -> bool:
    """Whether ``word`` is the present tense of an English verb agreeing with the singular
    ``noun`` before it ("employee *enjoys*", "company *owns*"), not a noun of a compound
    ("record *labels*"). A preposition ``following`` it tells a verb the lexicon does not
    list ("painting *dates* from", "player *hails* from"), as a determiner does ("winery *grows
    its* grapes"); an irregular verb's form is one ("pilot *flies*"). An auxiliary
    ``following`` it tells a plural noun: no verb is followed by one ("which fashion *houses*
    are based")."""
    if noun.endswith("s") or not word.endswith("s") or word.endswith("ss"):
        return False
    if following in lx.AUXILIARIES:
        return False
    base = base_verb(word)
    return (base in lx.RELATION_VERBS or base in lx.IRREGULAR_VERBS
            or following in lx.PREPOSITIONS or following in lx.DETERMINERS)


def _partitive_end(toks: Sequence[str], i: int) -> int:
    """The index after a question word's partitive ("who *among* the chefs", "which *one
    of* the films"); 0 when token ``i`` is no question word with one."""
    if toks[i] not in lx.WH_WORDS and toks[i] not in lx.WHO_WORDS:
        return 0
    k = i + 1
    if k < len(toks) and toks[k] in lx.PARTITIVE_ONES:
        k += 1
    return k + 1 if k < len(toks) and toks[k] in lx.PARTITIVES else 0


def partitive_marks(toks: Sequence[str]) -> set[int]:
    """The indices of the question words' partitives ("one", "of", "among"): they say no
    relation (the noun after them is the asked-for type, :func:`analyze`)."""
    return {k for i in range(len(toks)) for k in range(i + 1, _partitive_end(toks, i))}


def _partitive(toks: Sequence[str], i: int) -> list[str]:
    """The noun run after a question word's partitive ("who *among the chefs*", "which
    *one of the films*"), up to the verb; empty when token ``i`` is no such question word."""
    k = _partitive_end(toks, i)
    if not k:
        return []
    while k < len(toks) and toks[k] in STOPWORDS and toks[k] not in lx.WH_WORDS:
        k += 1  # "the", "these", "all the"
    run: list[str] = []
    for j in range(k, min(k + 4, len(toks))):
        nxt = toks[j]
        if nxt in STOPWORDS or past_form(nxt):
            break
        if run and (agrees(run[-1], nxt, _following_word(toks, j))
                    or run[-1].endswith("s") and not run[-1].endswith("ss")):
            break  # a compound's plural is its last word: "pilots *flies*" is the verb
        run.append(nxt)
    return run


def _type_run(toks: list[str], i: int) -> list[str]:
    """The compound right after the question word at ``i`` ("which *instrument family*"), up
    to its verb."""
    run: list[str] = []
    for k, nxt in enumerate(toks[i + 1 : i + 5], start=i + 1):
        if nxt in STOPWORDS or past_form(nxt) or (not run and _verb_after_wh(nxt)):
            break  # "which customers *ordered* X", "what *killed* X": a past verb
        if run and agrees(run[-1], nxt, _following_word(toks, k)):
            break  # "which employee *enjoys* chess": the verb of a singular noun
        if len(run) == 1 and looks_plural(run[0]) and not looks_plural(nxt):
            break  # "which teams *play* in X", "which people *come* from X": the plural's verb
        if len(run) > 1 and looks_plural(run[-1]):
            # a compound's plural is its last word: a word after it that is no verb makes
            # the plural after a singular noun a verb ("which ship *hauls* grain"; "which bus
            # routes *serve* X", "which famous people *come* from X" and "which famous writers
            # live in X" keep the compound)
            verb = (base_verb(nxt) or nxt) in lx.RELATION_VERBS or nxt in lx.IRREGULAR_VERBS
            modifier = looks_plural(run[-2]) or run[-2].endswith(lx.ADJECTIVE_SUFFIXES)
            if not modifier and not verb:
                run.pop()
            break
        run.append(nxt)
    return run


def _kind(toks: list[str]) -> tuple[AnswerKind, tuple[str, ...], bool]:
    """The kind of answer asked for, the type words after which/what, and whether a list is
    asked for (a plural type word or *are*/*were* after the question word); English only."""
    text = " " + " ".join(toks) + " "
    type_words: list[str] = []
    plural = False
    for i, w in enumerate(toks):
        if w in lx.WH_WORDS and toks[i + 1 : i + 2] and toks[i + 1] in CATEGORY_NOUNS:
            # "what kind of films …", "what types are the films …": a category is asked for
            type_words.append(toks[i + 1])
            plural = toks[i + 1].endswith("s")
            break
        if part := _partitive(toks, i):  # "who among the chefs", "which one of the films"
            type_words, plural = part, looks_plural(part[-1])
            break
        if w in lx.WH_WORDS or (w == "many" and i and toks[i - 1] == lx.HOW):
            run = _type_run(toks, i)
            nxt1 = toks[i + 1] if i + 1 < len(toks) else ""
            verb_next = _verb_after_wh(nxt1)
            # "what has X mounted": *has* before a past form is an auxiliary, as *does* is
            have_aux = nxt1 in lx.HAVE_WORDS and any(_participle(t) for t in toks[i + 2:])
            if run:
                type_words.extend(run)
            elif not (nxt1 in lx.DO_WORDS or verb_next or have_aux):
                # "what is the *capital* of X": the noun after the copula is what is asked;
                # "what does the author of X research": after do/does/did comes the subject
                for k in range(i + 1, min(i + 4, len(toks))):
                    nxt = toks[k]
                    if nxt in lx.SUBJECT_PRONOUNS:
                        break  # "what are *they* performing": the clause's subject
                    if nxt in STOPWORDS:
                        if nxt in lx.PLURAL_COPULAS:
                            plural = True
                        continue
                    type_words.append(_noun_head(toks, k))
                    break
            if type_words:
                head = type_words[-1]
                plural = plural or looks_plural(head)
            break
    if any(f" {p} " in text for p in lx.COUNT_PHRASES):
        return "count", tuple(type_words), True
    if any(a == lx.HOW and b in lx.HOW_MEASURES for a, b in zip(toks, toks[1:], strict=False)):
        return "number", tuple(type_words), False
    # question words, not relative pronouns after a noun ("where did the person *who* wrote
    # X study": a place is asked, not a person)
    asks = {lx.QUESTION_WORD_KINDS[w] for i, w in enumerate(toks) if w in lx.QUESTION_WORD_KINDS
            and (i in (0, len(toks) - 1) or toks[i - 1] in STOPWORDS)}
    if "date" in asks or any(stem(t) in lx.DATE_WORDS or t in lx.DATE_WORDS
                                      for t in type_words[-1:]):
        return "date", tuple(type_words), plural
    if "person" in asks or any(t in lx.PERSON_WORDS for t in type_words[-1:]):
        who_list = any(w in lx.WHO_WORDS and b in lx.PLURAL_COPULAS
                       for w, b in zip(toks, toks[1:], strict=False))
        return "person", tuple(type_words), plural or who_list
    if "place" in asks or any(t in lx.PLACE_WORDS for t in type_words[-1:]):
        return "place", tuple(type_words), plural
    return "thing", tuple(type_words), plural


_SUM_WORDS, _AVG_WORDS = lx.SUM_WORDS, lx.AVG_WORDS  # arithmetic words (lexicon)
_MOST, _LEAST, _COMPARATIVES = lx.MOST_WORDS, lx.LEAST_WORDS, lx.COMPARATIVES
_NUMBER_WORDS = lx.NUMBER_WORDS


def _aggregate(toks: list[str], kind: AnswerKind) -> tuple[Aggregate | None, int | None, bool]:
    """(the arithmetic the question asks for, k of a top-k, whether it asks for the largest
    first). English question forms only; "top 5", "the most", "how many", "average"…"""
    text = " " + " ".join(toks) + " "
    k = None
    m = re.search(r" (?:" + "|".join(sorted(lx.RANK_ENDS)) + r") (\d+|"
                  + "|".join(_NUMBER_WORDS) + ") ", text)
    if m:
        k = int(m.group(1)) if m.group(1).isdigit() else _NUMBER_WORDS[m.group(1)]
    most = bool(set(toks) & _MOST) or " top " in text
    least = bool(set(toks) & _LEAST)
    desc = not least or most
    sup = next((i for i, w in enumerate(toks) if w in _MOST or w in _LEAST), None)
    if k is None and sup is not None:  # "the three customers with the fewest orders"
        k = next((int(w) if w.isdigit() else _NUMBER_WORDS[w] for w in toks[:sup]
                  if (w.isdigit() and 0 < int(w) < 1000) or w in _NUMBER_WORDS), None)
    comparative = set(toks) & _COMPARATIVES
    if re.search(r" or (?:" + "|".join(sorted(lx.BOUND_WORDS)) + ") ", text):
        comparative = set()  # "25 or higher" is a filter, not a comparison
    first = toks[0] if toks else ""
    if comparative and ((" than " in text and (" or " in text or first in lx.AUXILIARIES))
                        or (" or " in text and (first in lx.WH_WORDS or first in lx.WHO_WORDS))):
        return "compare", None, not comparative & lx.DESCENDING_NOT
    if k is not None and (most or least or " top " in text):
        return "rank", k, desc  # "the top 3 categories by average price": ranked groups
    if set(toks) & _AVG_WORDS:
        return "avg", k, desc
    if kind == "count" and set(toks) & _SUM_WORDS and not (most or least):
        return "sum", k, desc  # "the total number of units": a sum (one counted value passes)
    if kind == "count":
        return ("rank", k, desc) if (most or least) and first in lx.LIST_WORDS | lx.WH_WORDS \
            and " how many " not in text else ("count", k, desc)
    if set(toks) & _SUM_WORDS and not (most or least):
        return "sum", k, desc
    if k is not None or most or least:
        # "what is the highest price" asks for a value; "which product has the highest price"
        # (or a top-k list) asks for the rows ranked
        value_first = (len(toks) > 2 and toks[0] in lx.WH_WORDS and toks[1] in lx.SINGULAR_COPULAS
                       and toks[2] in lx.ARTICLES and k is None)
        if value_first and (set(toks[3:5]) & (_MOST | _LEAST)):
            return ("max" if desc else "min"), None, desc
        return "rank", k, desc
    return None, None, desc


class QuestionAnalysis(BaseModel):
    """Everything the stages need to know about the question's text (see the module doc)."""

    model_config = ConfigDict(frozen=True)

    question: str
    normalized: str
    words: tuple[str, ...]
    terms: dict[str, float] = Field(default_factory=dict)  # stem -> weight (hints at 0.8)
    spans: tuple[Span, ...] = ()  # candidate mentions, longest first at each position
    kind: AnswerKind = "thing"
    type_words: tuple[str, ...] = ()  # "which city" -> ("city",); the last is the head noun
    plural: bool = False  # a list is asked for
    numbers: tuple[str, ...] = ()  # numbers and years written in the question
    # arithmetic over rows the question asks for (count/sum/avg/min/max/compare/rank), the k of
    # a top-k, and whether the largest comes first (False: "least", "lowest", "cheapest"…)
    aggregate: Aggregate | None = None
    top_k: int | None = None
    descending: bool = True
    tokens: tuple[Token, ...] = ()  # normalised words with their character offsets
    sharing: bool = False  # asks for things sharing something with its entity (SHARING_WORDS)

    @property
    def content_words(self) -> list[str]:
        return [w for w in dict.fromkeys(self.words) if w not in STOPWORDS and len(w) > 1]

    # ------------------------------------------------------------------ phrases
    def phrases(self, exclude: Sequence[tuple[int, int]] = (),
                type_word: str | None = None) -> tuple[Phrase, ...]:
        """The question's content words outside the character spans ``exclude`` (the linked
        mentions), in question order; one phrase per distinct stem (memoised). ``type_word``
        (default: the last of :attr:`type_words`) gets the lower weight of the asked-for type."""
        types = {type_word} if type_word is not None else set(self.type_words[-1:])
        spans = sorted(set(exclude))
        out: list[Phrase] = []
        seen: set[str] = set()
        for i, tok in enumerate(self.tokens):
            w = tok.text
            if (w in STOPWORDS or len(w) < 2 or w.isdigit() or w in QUESTION_WORD_HINTS
                    or w in SHARING_WORDS):
                continue
            if any(tok.start < e and tok.end > s for s, e in spans):
                continue
            st = stem(w)
            if st in seen:
                continue
            seen.add(st)
            out.append(Phrase(word=w, stem=st, position=i, weight=0.5 if w in types else 1.0))
        return tuple(out)

    def token_distance(self, phrase: Phrase, span: tuple[int, int]) -> int:
        """Words between a phrase and a mention span (0: adjacent)."""
        inside = [i for i, t in enumerate(self.tokens) if t.start < span[1] and t.end > span[0]]
        if not inside:
            return len(self.tokens)
        if phrase.position < inside[0]:
            return inside[0] - phrase.position - 1
        return max(0, phrase.position - inside[-1] - 1)

def _spans(question: str) -> tuple[Span, ...]:
    toks = [(m.start(), m.end()) for m in _WORD.finditer(question)]
    out: list[Span] = []
    for i in range(len(toks)):
        for n in range(min(MAX_SPAN_WORDS, len(toks) - i), 0, -1):
            start, end = toks[i][0], toks[i + n - 1][1]
            gram = normalize(question[start:end]).split()
            if not gram or all(g in STOPWORDS for g in gram):
                continue
            cap = None if start == 0 else question[start:start + 1].isupper()
            out.append(Span(text=question[start:end], start=start, end=end, words=n,
                            capitalized=cap))
    return tuple(out)


@functools.lru_cache(maxsize=262144)
def lexical_phrase_score(word: str, name: str) -> float:
    """How well one question word matches a relation/property name by its letters: the best
    :func:`term_sim` with a word of the name, or 0.6 when one word's beginning (most of it, four
    letters at least) occurs in the other ("written" / "screenwriter")."""
    st = stem(word)
    best = 0.0
    for t, w in relation_terms(name).items():
        v = term_sim(st, t)
        if v < 0.6 and (_root_in(st, t) or (len(st) >= len(t) + COMPOUND and _root_in(t, st))):
            v = 0.6
        best = max(best, v * w)
    return best


COMPOUND = 3  # letters a question word must have more than a name word to be its compound


def _root_in(a: str, b: str) -> bool:
    """Whether the first letters of ``a`` (at least four, and half of it) occur in the longer
    ``b`` (a compound: "writ" of "written" in "screenwriter"; checked both ways by
    :func:`lexical_phrase_score`)."""
    n = max(4, (len(a) + 1) // 2)
    if not 4 <= len(a) <= len(b):
        return False
    at = b.find(a[:n])
    # not when the letters are only the other word's derivational ending ("*ment*or" and
    # "depart*ment*": a suffix, not a root)
    return at >= 0 and b[at:] not in lx.DERIVATIONAL_ENDINGS


def analyze(question: str) -> QuestionAnalysis:
    """Analyse a question once (pure text work: no graph, no model)."""
    q = question.strip()
    toks = words(q)
    tokens = tuple(Token(text=w, start=m.start(), end=m.end())
                   for m in _WORD.finditer(q) for w in words(m.group()))
    kind, type_words, plural = _kind(toks)
    aggregate, top_k, descending = _aggregate(toks, kind)
    return QuestionAnalysis(
        question=q,
        normalized=normalize(q),
        words=tuple(toks),
        terms=question_terms(q),
        spans=_spans(q),
        kind=kind,
        type_words=type_words,
        plural=plural,
        numbers=numbers_in(q),
        aggregate=aggregate,
        top_k=top_k,
        descending=descending,
        tokens=tokens,
        sharing=any(t.text in SHARING_WORDS for t in tokens),
    )
