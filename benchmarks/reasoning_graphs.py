"""Generated knowledge graphs with multi-hop questions, for the offline reasoner's tests and
benchmarks (nothing here is shipped or read by byokg itself).

Graphs with different relation names, directions and shapes, so nothing can fit one naming
(the paraphrase graphs in several naming styles are in ``benchmarks/paraphrase_graphs.py``):

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
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

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


class TripleIndex:
    """Adjacency of a triple list, to compute gold answers by walking chains (the paraphrase
    graphs use it too)."""

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

    def walk(self, start: str, hops: Sequence[Hop], cap: int | None = 20_000) -> list[str]:
        """End nodes of every walk of ``hops`` from ``start`` that never revisits a node (the
        hops after the one where more than ``cap`` walks are open are not taken)."""
        walks = [(start,)]
        for hop in hops:
            walks = [(*w, n) for w in walks for n in self.step(w[-1], hop) if n not in w]
            if cap is not None and len(walks) > cap:
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


def _ask(rng: random.Random, idx: TripleIndex, templates: Sequence[tuple[str, tuple[Hop, ...]]],
         topics: Sequence[str], n: int, max_answers: int = 60,
         beyond_first: bool = True) -> list[Question]:
    out: list[Question] = []
    tries = 0
    while len(out) < n and tries < n * 40:
        tries += 1
        text, hops = rng.choice(templates)
        topic = rng.choice(topics)
        gold = [g for g in idx.walk(topic, hops) if g != topic]
        if not gold or len(gold) > max_answers:
            continue
        if beyond_first and len(hops) > 1 and idx.neighbours(topic) & set(gold):
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
    idx = TripleIndex(triples)
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
    idx = TripleIndex(triples)
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


# --------------------------------------------------------------------------- filmkb
#
# A movie graph of our own naming (camelCase relations from the film: ``directedBy``,
# ``writtenBy``, ``actor``, ``releaseYear``, ``spokenLanguage``, ``genre``, ``tag``,
# ``popularity``, ``criticRating``), written as ``head|relation|tail`` lines without labels,
# values as plain strings (years as numbers, tags as lower-case words, popularity and rating
# buckets as words). Titles and names are the node ids, so two films with one title are one
# node. The questions are lower case without a question mark, the entity written as the graph
# writes it, with many phrasings per chain, including awkward ones people write: the film
# wording the offline reasoner was first developed on, kept to show it still holds.

_MORE_NOUNS = ("Angel Heart Stranger Fire Night Summer Rain Storm Dream Bridge Ghost Dance "
               "Blood Moon Train Sky Sea City House Star Road Song Girl Boy War Love Hour "
               "Thunder Paradise Street Hunter Queen King Island Stone Wolf Widow Pilot "
               "Outlaw Sister Brother Father Mother Doctor Soldier Angels Secrets Dreams "
               "Nights Days Years").split()
_MORE_FIRST = ("Agnes Bruno Cecil Delphine Edgar Fiona Gustav Hattie Ivor Jasper Klara Lionel "
               "Mabel Nils Odile Percy Renata Sergei Tilda Ursula Vincent Walter Xavier "
               "Yvonne Zachary Alma Benedikt Clementine Dorian Estelle Felix Gwen Horace Ida "
               "Jules Kiki Lars Minna Ned Olive Paloma Rufus Sabine Teodor Una Viggo Winona "
               "Arlo Beatrix").split()
_MORE_LAST = ("Ashcroft Blackwood Carrow Delacroix Ellery Fontaine Garrick Hargreaves Iverson "
              "Jessup Kincaid Larkin Mortimer Nesbitt Ormsby Prescott Quigley Redgrave Sheridan "
              "Templeton Urquhart Vance Winslow Yorke Zabriskie Albrecht Bouchard Carmichael "
              "Dunaway Eastwick Fairweather Galloway Hawthorne Ingram Jarvis Keller Lockhart "
              "Merriweather Northcott Osgood Pemberton Radcliffe Stroud Tolliver Upton "
              "Vandermeer Whitlock Yardley Zimmer Abbott").split()
_TAGS = ("based on novel|murder|world war ii|new york city|remake|love triangle|bd-r|revenge|"
         "nudity|high school|family|prison|kidnapping|fbi|serial killer|small town|alcoholism|"
         "racism|friendship|politics|world war i|vampire|zombies|robots|time travel|heist|"
         "boxing|baseball|dancing|musicians|journalism|courtroom drama|surreal|satire|"
         "dystopia|aliens|ghosts|christmas|paris|london|tokyo|cold war|wilderness|survival|"
         "betrayal|adultery|gangsters|poverty|coming of age|mental illness|disability|"
         "immigration|slavery").split("|")
_FKB_LANGS = _LANGS + ["Czech", "Hungarian", "Cantonese", "Arabic", "Hebrew", "Finnish"]
_FKB_GENRES = ("Drama Comedy Thriller Western Musical Documentary Horror Romance Mystery "
               "Animation Adventure Fantasy Crime War Action Family Sport Film-Noir Short "
               "Music").split()
_VOTES = ("famous", "popular", "unknown")
_RATINGS = ("good", "average", "bad")

FILMKB_RELATIONS = ("directedBy", "writtenBy", "actor", "releaseYear",
                     "spokenLanguage", "genre", "tag", "popularity", "criticRating")
FILMKB_TRIPLES_PER_FILM = 9.3  # distinct triples per film, measured on the generator


def _fkb_title(rng: random.Random, i: int) -> str:
    nouns = _NOUN + _MORE_NOUNS
    shape = rng.random()
    if shape < 0.25:
        t = f"The {rng.choice(_ADJ)} {rng.choice(nouns)}"
    elif shape < 0.4:
        t = f"{rng.choice(_ADJ)} {rng.choice(nouns)}"
    elif shape < 0.55:
        t = f"{rng.choice(nouns)} of the {rng.choice(_ADJ)} {rng.choice(nouns)}"
    elif shape < 0.65:
        t = f"{rng.choice(_FIRST + _MORE_FIRST)}'s {rng.choice(nouns)}"
    elif shape < 0.75:
        t = f"A {rng.choice(nouns)} in {rng.choice(_CITY)}"
    elif shape < 0.85:
        t = rng.choice(nouns)  # one-word titles: "Shadow", "Angels" (also common words)
    elif shape < 0.93:
        t = f"The {rng.choice(nouns)} and the {rng.choice(nouns)}"
    else:
        t = f"{rng.choice(nouns)} {rng.choice(['2', 'II', 'Returns', 'Forever'])}"
    return t


def _fkb_person(rng: random.Random, i: int) -> str:
    first = rng.choice(_FIRST + _MORE_FIRST)
    last = rng.choice(_LAST + _MORE_LAST)
    r = rng.random()
    if r < 0.75:
        return f"{first} {last}"
    if r < 0.9:
        return f"{first} {rng.choice(_FIRST + _MORE_FIRST)[0]}. {last}"
    return f"{first} {last}-{rng.choice(_LAST + _MORE_LAST)}"


def filmkb_triples(n_films: int, seed: int = 0) -> Iterator[tuple[str, str, str]]:
    """Film-centric triples with hubs (prolific actors and directors, common tags, years with
    hundreds of films), near-duplicate titles and titles shared by two films (one node)."""
    rng = random.Random(seed)
    films: list[str] = []
    seen: set[str] = set()
    while len(films) < n_films:
        t = _fkb_title(rng, len(films))
        if t in seen:
            if rng.random() < 0.04:
                films.append(t)  # a remake with the same title: the same node
            elif rng.random() < 0.5 and not t[-1].isdigit() and not t.endswith("I"):
                films.append(f"{t} {rng.choice(['2', 'II', 'III'])}")  # a sequel of it
            continue
        seen.add(t)
        films.append(t)
    people = _names(rng, max(60, int(n_films * 1.4)), _fkb_person)
    directors = people[: max(20, len(people) // 4)]
    writers = people[len(people) // 8: len(people) // 8 + max(20, len(people) // 3)]
    tags = _TAGS + [p.lower() for p in rng.sample(people, min(60, len(people)))]
    years = [str(y) for y in range(1920, 2019)]
    for f in films:
        yield (f, "directedBy", _zipf(rng, directors, 0.9))
        if rng.random() < 0.08:
            yield (f, "directedBy", _zipf(rng, directors, 0.9))
        if rng.random() < 0.85:
            for w in {_zipf(rng, writers, 0.7) for _ in range(rng.choice([1, 1, 1, 2, 2, 3]))}:
                yield (f, "writtenBy", w)
        if rng.random() < 0.12:
            yield (f, "writtenBy", _zipf(rng, directors, 0.9))  # writer-directors
        if rng.random() < 0.9:
            for a in {_zipf(rng, people, 1.3) for _ in range(rng.randint(1, 4))}:
                yield (f, "actor", a)
        # recent years have far more films
        yield (f, "releaseYear", years[min(len(years) - 1, int(len(years) * rng.random() ** 0.45))])
        if rng.random() < 0.75:
            yield (f, "spokenLanguage", _zipf(rng, _FKB_LANGS, 2.5))
        for g in {_zipf(rng, _FKB_GENRES, 0.8) for _ in range(rng.choice([0, 1, 1, 1, 2]))}:
            yield (f, "genre", g)
        for tg in {_zipf(rng, tags, 1.0) for _ in range(rng.choice([0, 0, 1, 1, 2, 4]))}:
            yield (f, "tag", tg)
        if rng.random() < 0.25:
            yield (f, "popularity", rng.choice(_VOTES))
        if rng.random() < 0.25:
            yield (f, "criticRating", rng.choice(_RATINGS))


D, W, A, Y, L, G, T = ("directedBy", "writtenBy", "actor", "releaseYear",
                       "spokenLanguage", "genre", "tag")
_F, _B = False, True  # forwards from the film, backwards to the film

FILMKB_1_FILM = [
    *[(t, ((D, _F),)) for t in (
        "who directed {x}", "who is the director of {x}", "{x} was directed by who",
        "who was {x} directed by", "which person directed {x}", "{x} is directed by whom",
        "who is the director of the movie {x}", "the director of {x} is who",
        "who was the director of the film {x}")],
    *[(t, ((W, _F),)) for t in (
        "who wrote {x}", "who is the writer of {x}", "{x} was written by who",
        "who wrote the screenplay for {x}", "who was the screenwriter for {x}",
        "who are the writers of {x}", "{x} is written by which person",
        "who wrote the story of {x}", "which person wrote {x}")],
    *[(t, ((A, _F),)) for t in (
        "who acted in {x}", "who starred in {x}", "who are the actors in {x}",
        "who appeared in {x}", "which actors were in {x}", "who are the stars of {x}",
        "{x} starred who", "who was in the cast of {x}", "the movie {x} starred who",
        "who is in the movie {x}")],
    *[(t, ((Y, _F),)) for t in (
        "when was {x} released", "what year was {x} released", "which year was {x} released in",
        "{x} was released in which year", "when did {x} come out",
        "what is the release year of {x}", "in which year was {x} released",
        "the movie {x} was released when", "when was the film {x} released")],
    *[(t, ((L, _F),)) for t in (
        "what language is {x} in", "what is the language of {x}",
        "what language is spoken in {x}", "{x} is in which language",
        "which language was {x} filmed in", "what is the primary language of {x}",
        "what language was {x} made in", "in which language is the movie {x}")],
    *[(t, ((G, _F),)) for t in (
        "what genre is {x}", "what kind of movie is {x}", "what type of film is {x}",
        "{x} is what genre", "what sort of movie is {x}", "what genre does {x} fall under",
        "what is the genre of {x}", "which genre is the film {x}")],
    *[(t, ((T, _F),)) for t in (
        "what is {x} about", "what topics is {x} about", "what words describe {x}",
        "describe {x} in a few words", "what is the movie {x} about")],
    *[(t, (("popularity", _F),)) for t in (
        "how popular is {x}", "how famous was {x}", "what do people think of {x}")],
    *[(t, (("criticRating", _F),)) for t in (
        "how was {x} rated", "what was the rating of {x}", "how good is {x}")],
]
FILMKB_1_PERSON = [
    *[(t, ((D, _B),)) for t in (
        "what movies did {x} direct", "what films did {x} direct", "what did {x} direct",
        "which movies were directed by {x}", "{x} directed which movies",
        "what films were directed by {x}", "what movies has {x} directed",
        "{x} was the director of which films")],
    *[(t, ((W, _B),)) for t in (
        "what movies did {x} write", "what films did {x} write the story for",
        "{x} wrote which movies", "which films were written by {x}",
        "what movies was {x} the writer of", "what did {x} write",
        "which movies did {x} write the screenplay for")],
    *[(t, ((A, _B),)) for t in (
        "what movies did {x} star in", "{x} appears in which movies", "what does {x} star in",
        "what films did {x} act in", "{x} starred in which films", "which movies feature {x}",
        "what movies was {x} in", "{x} was in which movies", "which films did {x} appear in",
        "what movies has {x} acted in")],
]
FILMKB_1_TAG = [
    *[(t, ((T, _B),)) for t in (
        "what movies are about {x}", "which films are about {x}",
        "what movies can be described by {x}", "which movies have {x} as a subject",
        "what films are about {x}")],
]
FILMKB_2_PERSON = [  # actor / director / writer -> films -> something
    *[(t, ((A, _B), (D, _F))) for t in (
        "which person directed the movies starred by {x}", "who directed the films {x} acted in",
        "who directed the movies {x} starred in", "the films starred by {x} were directed by who",
        "who are the directors of the movies {x} appeared in",
        "who were the directors of the films starring {x}")],
    *[(t, ((A, _B), (W, _F))) for t in (
        "who wrote the movies starred by {x}", "the films acted by {x} were written by who",
        "who are the writers of the films {x} starred in",
        "who wrote the films that {x} appeared in")],
    *[(t, ((A, _B), (Y, _F))) for t in (
        "when were the movies starred by {x} released",
        "which years were the films {x} acted in released",
        "the films acted by {x} were released in which years",
        "when did the movies starring {x} come out")],
    *[(t, ((A, _B), (L, _F))) for t in (
        "what languages are the movies {x} starred in",
        "what are the primary languages in the movies starred by {x}",
        "the movies acted by {x} were in which languages")],
    *[(t, ((A, _B), (G, _F))) for t in (
        "what genres are the movies starred by {x}", "what types are the films starred by {x}",
        "the movies {x} acted in were in which genres",
        "what kind of films does {x} act in")],
    *[(t, ((A, _B), (A, _F))) for t in (
        "who acted together with {x}", "who co-starred with {x}",
        "who starred alongside {x}", "who appeared in the same movies as {x}",
        "which actors acted in the same films as {x}", "who are the co-stars of {x}")],
    *[(t, ((D, _B), (A, _F))) for t in (
        "who acted in the films directed by {x}", "who starred in the movies directed by {x}",
        "the films directed by {x} starred who", "who appeared in movies directed by {x}",
        "which actors were in films {x} directed")],
    *[(t, ((D, _B), (G, _F))) for t in (
        "the movies directed by {x} were in which genres",
        "what genres are the films directed by {x}", "what types of films did {x} direct",
        "what genres of movies has {x} directed")],
    *[(t, ((D, _B), (Y, _F))) for t in (
        "which years were the movies directed by {x} released",
        "when were the films directed by {x} released",
        "when did the movies {x} directed come out")],
    *[(t, ((D, _B), (L, _F))) for t in (
        "what languages are the movies directed by {x} in",
        "the films directed by {x} are in which languages")],
    *[(t, ((D, _B), (W, _F))) for t in (
        "who wrote the films directed by {x}", "who are the writers of the movies {x} directed",
        "the movies directed by {x} were written by who")],
    *[(t, ((W, _B), (G, _F))) for t in (
        "what genres do the movies written by {x} fall under",
        "the films written by {x} are in which genres",
        "what types are the movies written by {x}")],
    *[(t, ((W, _B), (Y, _F))) for t in (
        "which years were the movies written by {x} released",
        "when were the films written by {x} released")],
    *[(t, ((W, _B), (D, _F))) for t in (
        "who directed the films written by {x}", "the movies written by {x} were directed by who",
        "who are the directors of the films {x} wrote")],
    *[(t, ((W, _B), (A, _F))) for t in (
        "who starred in the movies written by {x}", "who acted in the films {x} wrote",
        "the movies written by {x} starred which actors")],
    *[(t, ((W, _B), (L, _F))) for t in (
        "what languages are the movies written by {x} in",
        "the films written by {x} were in which languages")],
]
FILMKB_2_FILM = [  # film -> person -> other films
    *[(t, ((D, _F), (D, _B))) for t in (
        "which movies have the same director as {x}", "the director of {x} also directed which movies",
        "what other movies did the director of {x} direct", "which films share the director of {x}",
        "what movies were directed by the director of {x}")],
    *[(t, ((A, _F), (A, _B))) for t in (
        "which movies have the same actor of {x}", "what films share actors with {x}",
        "the actors in {x} also appeared in which movies",
        "what other movies did the actors of {x} star in", "which movies share an actor with {x}")],
    *[(t, ((W, _F), (W, _B))) for t in (
        "which movies have the same writer as {x}", "the writer of {x} also wrote which films",
        "what other films were written by the writer of {x}")],
]
FILMKB_3 = [
    *[(t, ((A, _F), (A, _B), (Y, _F))) for t in (
        "the films that share actors with the film {x} were released in which years",
        "when were the movies that share actors with {x} released",
        "which years were the films sharing actors with {x} released")],
    *[(t, ((D, _F), (D, _B), (W, _F))) for t in (
        "who are the writers of the films directed by the director of {x}",
        "who wrote the movies directed by the director of {x}",
        "the films directed by the director of {x} were written by who")],
    *[(t, ((A, _F), (A, _B), (G, _F))) for t in (
        "what types are the films starred by actors in {x}",
        "what genres are the movies starring the actors of {x}",
        "the actors of {x} also starred in movies of which genres")],
    *[(t, ((D, _F), (D, _B), (L, _F))) for t in (
        "what are the primary languages in the movies directed by the director of {x}",
        "the director of {x} also directed films in which languages")],
    *[(t, ((W, _F), (W, _B), (D, _F))) for t in (
        "who directed the films written by the writer of {x}",
        "the movies written by the writer of {x} were directed by who")],
    *[(t, ((D, _F), (D, _B), (A, _F))) for t in (
        "who acted in the films directed by the director of {x}",
        "who starred in the other movies by the director of {x}")],
    *[(t, ((W, _F), (D, _B), (A, _F))) for t in (
        "who acted in the films directed by the screenwriter of {x}",)],
    *[(t, ((A, _F), (A, _B), (D, _F))) for t in (
        "who directed the movies that share actors with {x}",
        "which person directed films that share actors with {x}")],
    *[(t, ((D, _F), (D, _B), (Y, _F))) for t in (
        "which years were the movies directed by the director of {x} released",
        "when were the other films by the director of {x} released")],
    *[(t, ((W, _F), (W, _B), (G, _F))) for t in (
        "what genres are the films written by the writer of {x}",)],
]


def filmkb(n_films: int = 1500, seed: int = 0, *, questions: int = 60) -> Generated:
    """The film graph (see above) with ``questions`` questions per hop count
    (1-hop split between film, person and tag topics). ``n_films=14_500`` is about 135k
    triples. Gold: every end of the template's chain, never the topic; multi-hop answers may
    include the topic's own neighbours."""
    triples = list(dict.fromkeys(filmkb_triples(n_films, seed)))
    idx = TripleIndex(triples)
    films = sorted({h for h, _, _ in triples})
    by_rel: dict[str, set[str]] = defaultdict(set)
    for _, r, t in triples:
        by_rel[r].add(t)
    people = sorted(by_rel[D] | by_rel[W] | by_rel[A])
    tags = sorted(by_rel[T])
    rng = random.Random(seed + 1)
    g = Generated("filmkb", triples)
    n1 = questions
    g.questions += _ask(rng, idx, FILMKB_1_FILM, films, n1 // 2, max_answers=200,
                        beyond_first=False)
    g.questions += _ask(rng, idx, FILMKB_1_PERSON, people, n1 * 3 // 10, max_answers=200,
                        beyond_first=False)
    g.questions += _ask(rng, idx, FILMKB_1_TAG, tags, n1 - n1 // 2 - n1 * 3 // 10,
                        max_answers=200, beyond_first=False)
    g.questions += _ask(rng, idx, FILMKB_2_PERSON, people, questions * 2 // 3, max_answers=200,
                        beyond_first=False)
    g.questions += _ask(rng, idx, FILMKB_2_FILM, films, questions - questions * 2 // 3,
                        max_answers=200, beyond_first=False)
    g.questions += _ask(rng, idx, FILMKB_3, films, questions, max_answers=300,
                        beyond_first=False)
    return g


def write_kb(triples: Sequence[tuple[str, str, str]], path: str | os.PathLike[str]) -> None:
    """Triples as ``head|relation|tail`` lines, no header."""
    with open(path, "w", encoding="utf-8") as fh:
        for h, r, t in triples:
            fh.write(f"{h}|{r}|{t}\n")
