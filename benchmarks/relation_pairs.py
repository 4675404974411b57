"""(question words, relation name) pairs for comparing embedders, generated here.

Each concept has two question phrasings (the entity left out) and a relation written four ways:
``snake_case``, ``camelCase``, dotted ``domain.type.property`` and an UPPER_CASE verb. The
concepts are everyday facts about people, places, works, organisations and things, written for
this benchmark (not copied from any benchmark's schema).

:func:`compare` scores an embedder against a reference (MiniLM): the Spearman correlation of
the two embedders' cosines over every (question, relation) pair of a style, and the share of
questions whose own relation ranks first among all relations of that style.
"""

from __future__ import annotations

from typing import Any

# (question phrasings, relation words, dotted domain.type, UPPER_CASE verb)
CONCEPTS: tuple[tuple[tuple[str, str], tuple[str, ...], str, str], ...] = (
    (("where was she born", "in which town did he come into the world"),
     ("place", "of", "birth"), "people.person", "BORN_IN"),
    (("who is his wife", "whom did she marry"), ("spouse",), "people.person", "MARRIED_TO"),
    (("when did he die", "what year did she pass away"), ("date", "of", "death"),
     "people.person", "DIED_ON"),
    (("what killed him", "how did she die"), ("cause", "of", "death"), "people.deceased",
     "DIED_OF"),
    (("what does she do for a living", "what is his job"), ("profession",), "people.person",
     "WORKS_AS"),
    (("who directed the film", "who was behind the camera"), ("director",), "film.film",
     "DIRECTED_BY"),
    (("who wrote the book", "who is the novel by"), ("author",), "book.written_work",
     "WRITTEN_BY"),
    (("what language do they speak there", "what tongue is spoken"),
     ("official", "language"), "location.country", "SPEAKS"),
    (("what is the capital", "which city is the seat of government"), ("capital",),
     "location.country", "HAS_CAPITAL"),
    (("how many people live there", "how big is the population"), ("population",),
     "location.place", "HAS_POPULATION"),
    (("which team does he play for", "what club is she on"), ("current", "team"),
     "sports.athlete", "PLAYS_FOR"),
    (("where did she go to college", "which university did he attend"),
     ("alma", "mater"), "people.person", "STUDIED_AT"),
    (("who started the company", "who set up the firm"), ("founder",),
     "organization.organization", "FOUNDED_BY"),
    (("where is the company based", "where are its offices"),
     ("headquarters", "location"), "organization.organization", "HEADQUARTERED_IN"),
    (("who are his kids", "what are the names of her children"), ("children",),
     "people.person", "PARENT_OF"),
    (("who is her dad", "who fathered him"), ("father",), "people.person", "CHILD_OF"),
    (("what kind of music is it", "what style is the song"), ("genre",), "music.recording",
     "HAS_GENRE"),
    (("when did it come out", "what year was it released"), ("release", "date"),
     "media.release", "RELEASED_ON"),
    (("who wrote the music", "who composed the score"), ("composer",), "music.composition",
     "COMPOSED_BY"),
    (("what prizes did she win", "which honours did he receive"), ("awards", "won"),
     "award.winner", "WON"),
    (("how tall is he", "what is her height"), ("height", "meters"), "people.person",
     "HAS_HEIGHT"),
    (("what money do they use", "what is the currency there"), ("currency",),
     "location.country", "USES_CURRENCY"),
    (("which country is it in", "in what nation is it"), ("country",), "location.city",
     "LOCATED_IN"),
    (("who acted in the movie", "who starred in it"), ("cast", "members"), "film.film",
     "FEATURES_ACTOR"),
    (("what faith does he follow", "what is her religion"), ("religion",), "people.person",
     "BELIEVES_IN"),
    (("who owns the company", "which firm is its parent"), ("owner",),
     "organization.organization", "OWNED_BY"),
    (("who runs the company", "who is the boss"), ("chief", "executive", "officer"),
     "organization.organization", "LED_BY"),
    (("what instrument does he play", "which instrument is she known for"),
     ("instrument", "played"), "music.musician", "PLAYS_INSTRUMENT"),
    (("what is it made of", "what goes into the dish"), ("ingredients",), "food.recipe",
     "CONTAINS"),
    (("who published the game", "which company put out the game"), ("publisher",),
     "games.video_game", "PUBLISHED_BY"),
    (("how heavy is it", "how much does it weigh"), ("weight", "kg"), "object.thing",
     "WEIGHS"),
    (("how large is the area", "how many square kilometres does it cover"),
     ("area", "km2"), "location.place", "HAS_AREA"),
    (("when was the building built", "what year was it constructed"),
     ("year", "built"), "architecture.structure", "BUILT_IN"),
    (("who designed the building", "which architect planned it"), ("architect",),
     "architecture.structure", "DESIGNED_BY"),
    (("what river runs through it", "which river crosses the city"), ("rivers",),
     "location.city", "CROSSED_BY"),
    (("which party does he belong to", "what is her political affiliation"),
     ("political", "party"), "politics.politician", "MEMBER_OF"),
    (("who coaches the team", "who is the manager of the squad"), ("head", "coach"),
     "sports.team", "COACHED_BY"),
    (("what are the symptoms", "what signs does the illness show"), ("symptoms",),
     "medicine.disease", "CAUSES_SYMPTOM"),
    (("who discovered it", "who found it first"), ("discoverer",), "science.discovery",
     "DISCOVERED_BY"),
    (("what does the company make", "what products do they sell"), ("products",),
     "business.company", "PRODUCES"),
    (("where did he die", "in which city did she pass away"), ("place", "of", "death"),
     "people.deceased", "DIED_IN"),
    (("who are her brothers and sisters", "does he have siblings"), ("siblings",),
     "people.person", "SIBLING_OF"),
    (("how old is she", "what is his age"), ("age",), "people.person", "AGED"),
    (("who painted it", "which artist made the painting"), ("artist",), "art.artwork",
     "PAINTED_BY"),
    (("what is his nationality", "which country is she a citizen of"),
     ("nationality",), "people.person", "CITIZEN_OF"),
    (("who teaches the course", "who is the lecturer"), ("instructor",), "education.course",
     "TAUGHT_BY"),
    (("what does it cost", "how expensive is it"), ("price", "usd"), "commerce.product",
     "PRICED_AT"),
    (("who is the mayor", "who governs the city"), ("mayor",), "government.city",
     "GOVERNED_BY"),
)

STYLES = ("snake", "camel", "dotted", "upper")


def relation_name(words: tuple[str, ...], domain: str, verb: str, style: str) -> str:
    """One relation written in ``style``."""
    if style == "snake":
        return "_".join(words)
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "dotted":
        return f"{domain}.{'_'.join(words)}"
    if style == "upper":
        return verb
    raise ValueError(f"unknown style {style!r}; one of {STYLES}")


def pairs() -> tuple[list[str], list[int], dict[str, list[str]]]:
    """(questions, the concept index of each, relation names per style in concept order)."""
    questions: list[str] = []
    gold: list[int] = []
    for c, (qs, *_rest) in enumerate(CONCEPTS):
        questions.extend(qs)
        gold.extend([c] * len(qs))
    names = {s: [relation_name(w, d, v, s) for _q, w, d, v in CONCEPTS] for s in STYLES}
    return questions, gold, names


def spearman(a: Any, b: Any) -> float:
    """Spearman's rank correlation (average ranks for ties), numpy only."""
    import numpy as np

    def ranks(x: Any) -> Any:
        x = np.asarray(x, dtype=np.float64).ravel()
        order = np.argsort(x, kind="mergesort")
        r = np.empty(len(x))
        r[order] = np.arange(len(x), dtype=np.float64)
        _, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
        sums = np.bincount(inv, weights=r)
        return sums[inv] / counts[inv]

    ra, rb = ranks(a), ranks(b)
    ra -= ra.mean()
    rb -= rb.mean()
    denom = float(np.sqrt((ra * ra).sum() * (rb * rb).sum()))
    return float((ra * rb).sum() / denom) if denom else 0.0


def cosines(embedder: Any) -> dict[str, Any]:
    """Per style, the question x relation cosine matrix of ``embedder``."""
    questions, _gold, names = pairs()
    q = embedder.encode(questions)
    return {s: q @ embedder.encode(names[s]).T for s in STYLES}


def compare(embedder: Any, reference: dict[str, Any] | None) -> dict[str, float]:
    """Top-1 accuracy per style and overall, and (given a reference's :func:`cosines`) the
    Spearman correlation of cosines with it."""
    import numpy as np

    _questions, gold, _names = pairs()
    cos = cosines(embedder)
    out: dict[str, float] = {}
    hits = 0
    for s in STYLES:
        top = np.argmax(cos[s], axis=1)
        h = int((top == np.asarray(gold)).sum())
        hits += h
        out[f"top1_{s}"] = round(h / len(gold), 3)
        if reference is not None:
            out[f"spearman_{s}"] = round(spearman(cos[s], reference[s]), 3)
    out["top1"] = round(hits / (len(gold) * len(STYLES)), 3)
    if reference is not None:
        out["spearman"] = round(spearman(np.concatenate([cos[s].ravel() for s in STYLES]),
                                         np.concatenate([reference[s].ravel() for s in STYLES])), 3)
    return out
