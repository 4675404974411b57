"""QuestionAnalysis: what the question says, computed once per question and shared by every stage.

The proposer, the tools and the answerer all read one :class:`QuestionAnalysis` — the normalised
text, its content terms, the spans that may be mentions, the kind of thing asked for and, on
demand, how well each relation name matches the question — instead of re-deriving them.

Relation-to-question similarity lives here and nowhere else: lexical (stemmed words, 3-gram
similarity, a few generic English question-word hints) blended with an embedder when the run
configures one; scores are memoised per analysis.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from .text import STOPWORDS, normalize, stem, words

AnswerKind = Literal["person", "place", "date", "count", "number", "thing"]
Aggregate = Literal["count", "sum", "avg", "min", "max", "compare", "rank"]
MAX_SPAN_WORDS = 6

__all__ = [
    "Aggregate",
    "AnswerKind",
    "QuestionAnalysis",
    "Span",
    "TermGroup",
    "analyze",
    "humanize_relation",
    "lexical_relation_scores",
    "relation_terms",
    "term_sim",
]

# --------------------------------------------------------------------------- relation words

# question words -> relation words they usually mean (small, generic, English; to be replaced
# by embedding similarity — nothing here may name one dataset's relations)
RELATION_HINTS: dict[str, tuple[str, ...]] = {
    "born": ("birth", "place", "born"),
    "birth": ("born", "birth"),
    "birthplace": ("birth", "place", "born"),
    "die": ("death", "died"),
    "died": ("death", "place"),
    "dead": ("death",),
    "where": ("place", "location", "located", "country", "city"),
    "when": ("date", "year", "time"),
    "who": ("person", "people"),
    "wife": ("spouse", "married", "marriage"),
    "wives": ("spouse", "married", "marriage", "wife"),
    "husband": ("spouse", "married", "marriage"),
    "married": ("spouse", "marriage"),
    "spouse": ("spouse", "marriage", "married"),
    "directed": ("director", "directed"),
    "director": ("director", "directed"),
    "wrote": ("author", "written", "writer"),
    "written": ("author", "writer"),
    "starred": ("actor", "starring", "performance"),
    "capital": ("capital",),
    "live": ("lives", "residence", "location"),
    "lived": ("residence", "location"),
    "speak": ("language", "spoken"),
    "spoken": ("language",),
    "language": ("language", "spoken"),
    "play": ("plays", "instrument", "position", "team"),
    "founded": ("founder", "founded"),
    "founder": ("founder", "founded"),
    "works": ("employer", "work", "works"),
    "work": ("employer", "work", "works"),
    "study": ("education", "educated", "school", "studied"),
    "studied": ("education", "educated", "school"),
    "attend": ("education", "educated", "school", "attended"),
    "attended": ("education", "educated", "school"),
    "university": ("education", "educated", "university", "school", "college"),
    "college": ("education", "educated", "college", "school"),
    "school": ("education", "educated", "school"),
    "genre": ("genre",),
    "currency": ("currency",),
    "located": ("location", "located", "containedby", "contains"),
    "country": ("country", "nationality", "located", "location", "containedby"),
    "state": ("state", "located", "location", "containedby"),
    "city": ("city", "located", "location", "containedby", "town"),
    "town": ("town", "city", "located", "location"),
    "headquartered": ("headquarters", "headquartered", "located"),
    "nationality": ("nationality", "country"),
    "parent": ("parent", "parents", "father", "mother"),
    "parents": ("parent", "parents", "father", "mother"),
    "father": ("parent", "father"),
    "mother": ("parent", "mother"),
    "child": ("children", "child"),
    "children": ("children", "child"),
    "kids": ("children",),
    "sister": ("sibling", "sister"),
    "brother": ("sibling", "brother"),
    "religion": ("religion",),
    "time": ("time", "zone", "zones"),
    "member": ("member", "members", "membership"),
    "members": ("member", "membership"),
    "label": ("label", "signed", "record"),
}


def _grams(w: str) -> frozenset[str]:
    w = f"#{w}#"
    return frozenset(w[i : i + 3] for i in range(len(w) - 2))


def term_sim(a: str, b: str) -> float:
    """Similarity of two stemmed words: equal 1.0, shared prefix 0.8, suffix 0.7, else 3-gram
    Jaccard when at least 0.45."""
    if a == b:
        return 1.0
    if len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a)):
        return 0.8
    if len(a) >= 5 and len(b) >= 5 and (a.endswith(b) or b.endswith(a)):
        return 0.7
    ga, gb = _grams(a), _grams(b)
    j = len(ga & gb) / len(ga | gb)
    return j if j >= 0.45 else 0.0


def _hinted(word: str) -> tuple[str, ...]:
    return RELATION_HINTS.get(word, RELATION_HINTS.get(stem(word), ()))


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


class TermGroup(BaseModel):
    """One question word: its weight (0 for question words such as *where*) and the stems that
    would cover it (its own stem and hinted relation words)."""

    model_config = ConfigDict(frozen=True)

    word: str
    weight: float
    variants: frozenset[str]


_WORD = re.compile(r"\w+", re.UNICODE)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
_DATE_WORDS = frozenset({"year", "date", "day", "decade", "century", "month"})


def _kind(toks: list[str]) -> tuple[AnswerKind, tuple[str, ...], bool]:
    """The kind of answer asked for, the type words after which/what, and whether a list is
    asked for (a plural type word or *are*/*were* after the question word). English question
    forms only; nothing here names a relation or a label of any graph."""
    text = " " + " ".join(toks) + " "
    type_words: list[str] = []
    plural = False
    for i, w in enumerate(toks):
        if w in ("which", "what") or (w == "many" and i and toks[i - 1] == "how"):
            for nxt in toks[i + 1 : i + 4]:
                if nxt in STOPWORDS:
                    if nxt in ("are", "were"):
                        plural = True
                    continue
                type_words.append(nxt)
                plural = plural or (nxt.endswith("s") and not nxt.endswith("ss"))
                break
            break
    if " how many " in text or " number of " in text:
        return "count", tuple(type_words), True
    if re.search(r" how (much|long|old|big|large|tall|far|high|heavy|deep) ", text):
        return "number", tuple(type_words), False
    if " when " in text or any(stem(t) in _DATE_WORDS or t in _DATE_WORDS for t in type_words):
        return "date", tuple(type_words), plural
    if re.search(r" (who|whom) ", text):
        return "person", tuple(type_words), plural or " who are " in text or " who were " in text
    if " where " in text:
        return "place", tuple(type_words), plural
    return "thing", tuple(type_words), plural


# Generic English words of arithmetic over rows (no dataset's names): what the routing reads.
_SUM_WORDS = frozenset({"total", "sum", "altogether", "combined", "overall"})
_AVG_WORDS = frozenset({"average", "mean", "avg"})
_MOST = frozenset({"most", "highest", "largest", "biggest", "greatest", "maximum", "max", "top",
                   "best", "longest", "oldest", "heaviest", "costliest", "priciest"})
_LEAST = frozenset({"least", "lowest", "smallest", "fewest", "minimum", "min", "cheapest",
                    "shortest", "youngest", "lightest", "worst", "bottom"})
_COMPARATIVES = frozenset({"more", "less", "fewer", "greater", "higher", "lower", "larger",
                           "smaller", "bigger", "cheaper", "older", "younger", "longer",
                           "shorter"})
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twenty": 20}


def _aggregate(toks: list[str], kind: AnswerKind) -> tuple[Aggregate | None, int | None, bool]:
    """(the arithmetic the question asks for, k of a top-k, whether it asks for the largest
    first). English question forms only; "top 5", "the most", "how many", "average"…"""
    text = " " + " ".join(toks) + " "
    k = None
    m = re.search(r" (?:top|bottom) (\d+|" + "|".join(_NUMBER_WORDS) + ") ", text)
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
    if re.search(r" or (?:more|less|fewer|higher|lower|greater|above|below|over|under) ", text):
        comparative = set()  # "25 or higher" is a filter, not a comparison
    if comparative and ((" than " in text and (" or " in text or toks[:1] and toks[0] in (
            "is", "are", "does", "do", "did", "was", "were", "has", "have")))
            or (" or " in text and toks[:1] and toks[0] in ("which", "who", "what"))):
        return "compare", None, not comparative & {"less", "fewer", "lower", "smaller",
                                                   "cheaper", "younger", "shorter"}
    if k is not None and (most or least or " top " in text):
        return "rank", k, desc  # "the top 3 categories by average price": ranked groups
    if set(toks) & _AVG_WORDS:
        return "avg", k, desc
    if kind == "count" and set(toks) & _SUM_WORDS and not (most or least):
        return "sum", k, desc  # "the total number of units": a sum (one counted value passes)
    if kind == "count":
        return ("rank", k, desc) if (most or least) and toks[:1] and toks[0] in (
            "which", "who", "what", "list", "find", "show", "name") and " how many " not in text \
            else ("count", k, desc)
    if set(toks) & _SUM_WORDS and not (most or least):
        return "sum", k, desc
    if k is not None or most or least:
        # "what is the highest price" asks for a value; "which product has the highest price"
        # (or a top-k list) asks for the rows ranked
        value_first = toks[:3] in (["what", "is", "the"], ["what", "s", "the"]) and k is None
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
    groups: tuple[TermGroup, ...] = ()
    spans: tuple[Span, ...] = ()  # candidate mentions, longest first at each position
    kind: AnswerKind = "thing"
    type_words: tuple[str, ...] = ()  # "which city" -> ("city",)
    plural: bool = False  # a list is asked for
    numbers: tuple[str, ...] = ()  # numbers and years written in the question
    # arithmetic over rows the question asks for (count/sum/avg/min/max/compare/rank), the k of
    # a top-k, and whether the largest comes first (False: "least", "lowest", "cheapest"…)
    aggregate: Aggregate | None = None
    top_k: int | None = None
    descending: bool = True

    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _rel: dict[str, float] = PrivateAttr(default_factory=dict)
    _focus: dict[tuple[str, ...], tuple[TermGroup, ...]] = PrivateAttr(default_factory=dict)

    @property
    def content_words(self) -> list[str]:
        return [w for w in dict.fromkeys(self.words) if w not in STOPWORDS and len(w) > 1]

    def focus(self, exclude: Sequence[str] = ()) -> tuple[TermGroup, ...]:
        """The term groups left when the words of ``exclude`` (the linked mentions) are taken out;
        all groups when nothing would be left."""
        key = tuple(sorted(set(exclude)))
        with self._lock:
            got = self._focus.get(key)
        if got is None:
            drop = {w for e in key for w in words(e)}
            kept = " ".join(w for w in self.words if w not in drop)
            got = _groups(kept) or self.groups
            with self._lock:
                self._focus[key] = got
        return got

    def relation_scores(self, relations: Sequence[str], services: Any = None) -> dict[str, float]:
        """Relevance of each relation name to the question in [0, 1], memoised: lexical, blended
        half and half with the embedder's cosine when the run configures one."""
        rels = list(dict.fromkeys(relations))
        with self._lock:
            todo = [r for r in rels if r not in self._rel]
        if todo:
            scores = lexical_relation_scores(self.terms, todo)
            emb = _embedder(services)
            if emb is not None:
                cos = _cosines(emb, services, self.question, todo)
                scores = {r: 0.5 * scores[r] + 0.5 * max(0.0, cos[r]) for r in todo}
            with self._lock:
                self._rel.update(scores)
        with self._lock:
            return {r: self._rel[r] for r in rels}

    def relation_score(self, relation: str, services: Any = None) -> float:
        return self.relation_scores([relation], services)[relation]


def _groups(text: str) -> tuple[TermGroup, ...]:
    groups: list[TermGroup] = []
    seen: set[frozenset[str]] = set()
    for w in words(text):
        stop = w in STOPWORDS or len(w) < 2
        variants = set() if stop else {stem(w)}
        variants.update(stem(h) for h in _hinted(w))
        if not variants:
            continue
        key = frozenset(variants)
        if key in seen:
            continue
        seen.add(key)
        groups.append(TermGroup(word=w, weight=0.0 if stop else 1.0, variants=key))
    return tuple(groups)


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


def _embedder(services: Any) -> Any:
    cfg = getattr(services, "config", None)
    if services is None or cfg is None or not getattr(cfg, "embedder", None):
        return None
    return services.embedder


def _cosines(emb: Any, services: Any, question: str, relations: list[str]) -> dict[str, float]:
    cache = services.cache
    key = ("relation-vectors", emb.name, tuple(relations))
    vecs = cache.get(key)
    if vecs is None:
        vecs = cache[key] = emb.encode([humanize_relation(r) for r in relations])
    qkey = ("question-vector", emb.name, question)
    qv = cache.get(qkey)
    if qv is None:
        qv = cache[qkey] = emb.encode([question])[0]
    return {r: float(c) for r, c in zip(relations, (vecs @ qv).tolist(), strict=True)}


def analyze(question: str) -> QuestionAnalysis:
    """Analyse a question once (pure text work: no graph, no model)."""
    q = question.strip()
    toks = words(q)
    kind, type_words, plural = _kind(toks)
    aggregate, top_k, descending = _aggregate(toks, kind)
    return QuestionAnalysis(
        question=q,
        normalized=normalize(q),
        words=tuple(toks),
        terms=question_terms(q),
        groups=_groups(q),
        spans=_spans(q),
        kind=kind,
        type_words=type_words,
        plural=plural,
        numbers=tuple(m.group(0) for m in _NUMBER.finditer(q)),
        aggregate=aggregate,
        top_k=top_k,
        descending=descending,
    )
