"""Generated knowledge graphs with multi-hop questions, for the offline reasoner's tests and
benchmarks (nothing here is shipped or read by byokg itself).

Two graphs with different relation names, directions and shapes, so nothing can fit one naming:

* :func:`cinema` — film-centric triples, every relation points from the film (``director``,
  ``screenwriter``, ``cast_member``, ``release_year``, ``original_language``, ``genre``,
  ``keyword``); years are nodes;
* :func:`library` — person-centric camelCase relations (``wrote``, ``publishedBy``, ``basedIn``,
  ``bornIn``, ``locatedIn``, ``translatedInto``, ``hasTopic``, ``firstPublished``).

Each comes with question templates (our own wording) for 1-, 2- and 3-hop chains; the gold
answers are computed from the graph by walking the template's chain, never returning to the
topic entity. Deterministic for a seed; ``n`` scales the graph (the cinema graph has about 12
triples per film: ``cinema(11_000)`` is about 134k triples).
"""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

Hop = tuple[str, bool]  # (relation, walked backwards)

_ADJ = ("Silent Crimson Hidden Golden Broken Last Lonely Distant Electric Frozen Wild Secret "
        "Burning Quiet Velvet Hollow Bright Iron Paper Glass Northern Fading Restless Midnight "
        "Scarlet Savage Gentle Endless Lost Wandering").split()
_NOUN = ("Harbor Garden River Empire Promise Winter Mirror Road Kingdom Letter Horizon Orchard "
         "Lantern Station Island Forest Symphony Frontier Shadow Voyage Tower Desert Circus "
         "Compass Meadow Engine Cathedral Canyon Monsoon Carnival").split()
_FIRST = ("Ada Boris Carla Dmitri Elena Farid Greta Hiro Ines Jonas Kemal Lucia Mateo Nadia Otto "
          "Priya Quentin Rosa Stellan Tamsin Umberto Vesna Wilhelm Ximena Yannick Zofia Anouk "
          "Bastian Cosima Darius Eamon Flora Gideon Halina Ilario Juno Kasimir Leona Marius "
          "Noor Orla Pavel Rhea Silvio Thora Ulric Valentina Wendell Yara Zeno").split()
_LAST = ("Abernathy Brandt Castellano Dufresne Ekwueme Falkenrath Gallagher Halvorsen Ibarra "
         "Jovanovic Kowalczyk Lindqvist Marchetti Nakamura Okonkwo Petrov Quiroga Rasmussen "
         "Santangelo Tanaka Ulvaeus Vasquez Whitfield Xenakis Yamamoto Zeller Achterberg "
         "Bergmann Cavendish Dragomir Esposito Fairbanks Grimaldi Holloway Iwasaki Jablonski "
         "Kristiansen Lombardi Moreau Novak Oyelaran Pellegrini Rahimi Sorensen Thackeray "
         "Underhill Valdivia Wojcik Yilmaz Zamora").split()
_GENRES = ("Drama Comedy Thriller Western Musical Documentary Horror Romance Mystery Animation "
           "Adventure Fantasy Crime Biography War Satire Noir Melodrama").split()
_LANGS = ("English French German Italian Spanish Japanese Korean Hindi Swedish Polish Turkish "
          "Portuguese Russian Mandarin Danish Greek").split()
_KEYWORDS = ("heist revenge road trip time travel coming of age small town courtroom pandemic "
             "space station family secret jazz age haunted house boxing submarine circus "
             "election treasure hunt snowstorm").split()
_TOPICS = ("astronomy gardening chess sailing cooking philosophy botany cartography "
           "mountaineering typography beekeeping architecture poetry ornithology").split()
_CITY = ("Aldwick Brennmoor Calderon Dunmere Eskbridge Farrowdale Glenhaven Holmfirth Ivelton "
         "Juniper Falls Kestrel Bay Lindenau Marrowgate Northwold Oxley Pemberton Quarry Hill "
         "Ravensholm Saltmarsh Thornbury Umberleigh Valemont Westerby Yarrowfield Zennor").split()
_COUNTRY = ("Aravel Borduria Carpania Dalmora Estovia Freedonia Galvania Hesperia Illyra "
            "Jorvania").split()


@dataclass
class Question:
    text: str
    topic: str  # the question's entity (a node id)
    hops: tuple[Hop, ...]
    answers: list[str]  # gold node ids

    @property
    def n_hops(self) -> int:
        return len(self.hops)


@dataclass
class Generated:
    name: str
    triples: list[tuple[str, str, str]]
    questions: list[Question] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)  # node -> its type, for typed copies

    def write_jsonl(self, path: str | os.PathLike[str], *, typed: bool = True) -> None:
        """The graph as byokg JSONL: node records with labels (when ``typed``), then triples."""
        with open(path, "w", encoding="utf-8") as fh:
            if typed:
                for node, label in self.labels.items():
                    fh.write(json.dumps({"id": node, "labels": [label]}) + "\n")
            for h, r, t in self.triples:
                fh.write(json.dumps({"head": h, "relation": r, "tail": t}) + "\n")

    def by_hops(self) -> dict[int, list[Question]]:
        out: dict[int, list[Question]] = defaultdict(list)
        for q in self.questions:
            out[q.n_hops].append(q)
        return dict(out)


class _Index:
    """Adjacency of a triple list, to compute gold answers by walking chains."""

    def __init__(self, triples: Sequence[tuple[str, str, str]]) -> None:
        self.out: dict[tuple[str, str], list[str]] = defaultdict(list)
        self.inn: dict[tuple[str, str], list[str]] = defaultdict(list)
        for h, r, t in triples:
            self.out[(h, r)].append(t)
            self.inn[(t, r)].append(h)

    def step(self, node: str, hop: Hop) -> list[str]:
        rel, back = hop
        return self.inn.get((node, rel), []) if back else self.out.get((node, rel), [])

    def neighbours(self, node: str) -> set[str]:
        """Every node one edge away from ``node`` (either direction)."""
        if not hasattr(self, "_nb"):
            self._nb: dict[str, set[str]] = defaultdict(set)
            for (h, _), ts in self.out.items():
                self._nb[h].update(ts)
                for t in ts:
                    self._nb[t].add(h)
        return self._nb.get(node, set())

    def walk(self, start: str, hops: Sequence[Hop]) -> list[str]:
        """End nodes of every walk of ``hops`` from ``start`` that never revisits a node."""
        walks = [(start,)]
        for hop in hops:
            walks = [(*w, n) for w in walks for n in self.step(w[-1], hop) if n not in w]
            if len(walks) > 20_000:
                break
        return sorted({w[-1] for w in walks})


def _names(rng: random.Random, n: int, make) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    tries = 0
    while len(out) < n and tries < n * 50:
        tries += 1
        name = make(rng, len(out))
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def _title(rng: random.Random, i: int) -> str:
    base = f"The {rng.choice(_ADJ)} {rng.choice(_NOUN)}"
    return base if rng.random() < 0.6 else f"{base} {rng.choice(['II', 'III', 'Returns', 'Rising'])}"


def _person(rng: random.Random, i: int) -> str:
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    return f"{first} {last}" if rng.random() < 0.7 else f"{first} {rng.choice(_FIRST)[0]}. {last}"


def _zipf(rng: random.Random, items: Sequence[str], s: float = 1.1) -> str:
    """A skewed pick: a few items are hubs."""
    k = int(len(items) * rng.random() ** (1 + s))
    return items[min(k, len(items) - 1)]


def _ask(rng: random.Random, idx: _Index, templates: Sequence[tuple[str, tuple[Hop, ...]]],
         topics: Sequence[str], n: int, max_answers: int = 60) -> list[Question]:
    out: list[Question] = []
    tries = 0
    while len(out) < n and tries < n * 40:
        tries += 1
        text, hops = rng.choice(templates)
        topic = rng.choice(topics)
        gold = [g for g in idx.walk(topic, hops) if g != topic]
        if not gold or len(gold) > max_answers:
            continue
        if len(hops) > 1 and idx.neighbours(topic) & set(gold):
            continue  # multi-hop answers are never the entity's own neighbours
        out.append(Question(text=text.format(x=topic), topic=topic, hops=hops, answers=gold))
    return out


# --------------------------------------------------------------------------- cinema

CINEMA_1 = [
    ("Who directed {x}?", (("director", False),)),
    ("Who wrote the screenplay of {x}?", (("screenwriter", False),)),
    ("Which actors appear in {x}?", (("starring", False),)),
    ("When was {x} released?", (("release_year", False),)),
    ("What language is {x} in?", (("original_language", False),)),
    ("What genre is {x}?", (("genre", False),)),
]
CINEMA_1_PERSON = [
    ("Which films did {x} direct?", (("director", True),)),
    ("What movies did {x} write?", (("screenwriter", True),)),
    ("Which films does {x} star in?", (("starring", True),)),
]
CINEMA_2_PERSON = [
    ("Who directed the films written by {x}?", (("screenwriter", True), ("director", False))),
    ("What languages are the films starring {x} in?",
     (("starring", True), ("original_language", False))),
    ("Who co-starred with {x}?", (("starring", True), ("starring", False))),
    ("The films directed by {x} were released in which years?",
     (("director", True), ("release_year", False))),
    ("What genres are the movies written by {x}?", (("screenwriter", True), ("genre", False))),
    ("Who acted in the movies directed by {x}?", (("director", True), ("starring", False))),
]
CINEMA_2_FILM = [
    ("Which movies have the same director as {x}?", (("director", False), ("director", True))),
    ("Which films share a screenwriter with {x}?",
     (("screenwriter", False), ("screenwriter", True))),
]
CINEMA_3 = [
    ("Who directed the movies written by the screenwriter of {x}?",
     (("screenwriter", False), ("screenwriter", True), ("director", False))),
    ("What genres are the films directed by the director of {x}?",
     (("director", False), ("director", True), ("genre", False))),
    ("In which languages are the films that share actors with {x}?",
     (("starring", False), ("starring", True), ("original_language", False))),
    ("When were the movies written by the writer of {x} released?",
     (("screenwriter", False), ("screenwriter", True), ("release_year", False))),
]


def cinema_triples(n_films: int, seed: int = 0) -> Iterator[tuple[str, str, str]]:
    rng = random.Random(seed)
    films = _names(rng, n_films, _title) if n_films <= 2000 else [
        f"{_title(rng, i)} ({1900 + i % 120}{'' if i < 120 else f' #{i}'})" for i in range(n_films)]
    people = _names(rng, max(50, n_films // 2), _person) if n_films <= 4000 else [
        f"{_person(rng, i)} {i}" for i in range(max(50, n_films // 2))]
    for f in films:
        yield (f, "director", _zipf(rng, people))
        for w in {_zipf(rng, people) for _ in range(rng.randint(1, 2))}:
            yield (f, "screenwriter", w)
        for a in {_zipf(rng, people, 0.6) for _ in range(rng.randint(2, 5))}:
            yield (f, "starring", a)
        yield (f, "release_year", str(rng.randint(1930, 2023)))
        yield (f, "original_language", _zipf(rng, _LANGS, 2.0))
        for g in {rng.choice(_GENRES) for _ in range(rng.randint(1, 2))}:
            yield (f, "genre", g)
        for k in {rng.choice(_KEYWORDS) for _ in range(rng.randint(0, 2))}:
            yield (f, "keyword", k)


def cinema(n_films: int = 400, seed: int = 0, *, questions: int = 60) -> Generated:
    triples = list(dict.fromkeys(cinema_triples(n_films, seed)))
    idx = _Index(triples)
    films = sorted({h for h, r, _ in triples if r == "director"})
    people = sorted({t for _, r, t in triples if r in ("director", "screenwriter", "starring")})
    rng = random.Random(seed + 1)
    g = Generated("cinema", triples)
    kinds = {"director": "Person", "screenwriter": "Person", "starring": "Person",
             "release_year": "Year", "original_language": "Language", "genre": "Genre",
             "keyword": "Keyword"}
    g.labels = {h: "Film" for h in films}
    g.labels.update({t: kinds[r] for _, r, t in triples})
    g.questions += _ask(rng, idx, CINEMA_1, films, questions // 2)
    g.questions += _ask(rng, idx, CINEMA_1_PERSON, people, questions - questions // 2)
    g.questions += _ask(rng, idx, CINEMA_2_PERSON, people, questions * 2 // 3)
    g.questions += _ask(rng, idx, CINEMA_2_FILM, films, questions - questions * 2 // 3)
    g.questions += _ask(rng, idx, CINEMA_3, films, questions)
    return g


# --------------------------------------------------------------------------- library

LIBRARY_1 = [
    ("Who wrote {x}?", (("wrote", True),)),
    ("Who published {x}?", (("publishedBy", False),)),
    ("In which year was {x} first published?", (("firstPublished", False),)),
    ("Into which languages has {x} been translated?", (("translatedInto", False),)),
]
LIBRARY_1_PERSON = [
    ("Which books did {x} write?", (("wrote", False),)),
    ("Where was {x} born?", (("bornIn", False),)),
]
LIBRARY_2_BOOK = [
    ("Which city is the publisher of {x} based in?", (("publishedBy", False), ("basedIn", False))),
    ("Where was the author of {x} born?", (("wrote", True), ("bornIn", False))),
]
LIBRARY_2_PERSON = [
    ("In which country was {x} born?", (("bornIn", False), ("locatedIn", False))),
    ("Which writers were born in the same city as {x}?", (("bornIn", False), ("bornIn", True))),
    ("What topics do the books of {x} cover?", (("wrote", False), ("hasTopic", False))),
    ("Which publishers published the books of {x}?", (("wrote", False), ("publishedBy", False))),
]
LIBRARY_3 = [
    ("In which country is the publisher of {x} based?",
     (("publishedBy", False), ("basedIn", False), ("locatedIn", False))),
    ("Who wrote the books published by the publisher of {x}?",
     (("publishedBy", False), ("publishedBy", True), ("wrote", True))),
    ("In which country was the author of {x} born?",
     (("wrote", True), ("bornIn", False), ("locatedIn", False))),
]


def library_triples(n_books: int, seed: int = 0) -> Iterator[tuple[str, str, str]]:
    rng = random.Random(seed)
    books = _names(rng, n_books, lambda r, i: f"{r.choice(_NOUN)} of {r.choice(_ADJ)} "
                                               f"{r.choice(_NOUN)}s")
    authors = _names(rng, max(30, n_books // 3), _person)
    publishers = [f"{n} Press" for n in _NOUN[:12]] + [f"{a} House" for a in _ADJ[:8]]
    for i, c in enumerate(_CITY):
        yield (c, "locatedIn", _COUNTRY[i % len(_COUNTRY)])
    for p in publishers:
        yield (p, "basedIn", rng.choice(_CITY))
    for a in authors:
        yield (a, "bornIn", _zipf(rng, _CITY, 0.5))
    for b in books:
        for a in {_zipf(rng, authors) for _ in range(rng.choice([1, 1, 1, 2]))}:
            yield (a, "wrote", b)
        yield (b, "publishedBy", _zipf(rng, publishers, 0.8))
        yield (b, "firstPublished", str(rng.randint(1850, 2022)))
        for lang in {rng.choice(_LANGS) for _ in range(rng.randint(0, 3))}:
            yield (b, "translatedInto", lang)
        for t in {rng.choice(_TOPICS) for _ in range(rng.randint(1, 2))}:
            yield (b, "hasTopic", t)


def library(n_books: int = 300, seed: int = 0, *, questions: int = 60) -> Generated:
    triples = list(dict.fromkeys(library_triples(n_books, seed)))
    idx = _Index(triples)
    books = sorted({h for h, r, _ in triples if r == "publishedBy"})
    authors = sorted({h for h, r, _ in triples if r == "wrote"})
    rng = random.Random(seed + 1)
    g = Generated("library", triples)
    heads = {"wrote": "Person", "publishedBy": "Book", "basedIn": "Publisher", "bornIn": "Person",
             "locatedIn": "City", "translatedInto": "Book", "hasTopic": "Book",
             "firstPublished": "Book"}
    tails = {"wrote": "Book", "publishedBy": "Publisher", "basedIn": "City", "bornIn": "City",
             "locatedIn": "Country", "translatedInto": "Language", "hasTopic": "Topic",
             "firstPublished": "Year"}
    for h, r, t in triples:
        g.labels.setdefault(h, heads[r])
        g.labels.setdefault(t, tails[r])
    g.questions += _ask(rng, idx, LIBRARY_1, books, questions // 2)
    g.questions += _ask(rng, idx, LIBRARY_1_PERSON, authors, questions - questions // 2)
    g.questions += _ask(rng, idx, LIBRARY_2_BOOK, books, questions // 2)
    g.questions += _ask(rng, idx, LIBRARY_2_PERSON, authors, questions - questions // 2)
    g.questions += _ask(rng, idx, LIBRARY_3, books, questions)
    return g


def first_hop(triples: Sequence[tuple[str, str, str]], node: str) -> set[str]:
    """Every neighbour of ``node`` (either direction)."""
    return {t for h, _, t in triples if h == node} | {h for h, _, t in triples if t == node}
