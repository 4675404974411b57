"""A typed Kùzu graph of prize winners (our own design) with 25 plain lookup questions.

Tables: ``Laureate(id, fullName, knownName, birthYear)``, ``Town(id, townName)``,
``Nation(id, nationName)``, ``Award(id, title, field, year)``; relationships
``BORN_IN (Laureate -> Town)``, ``IN_NATION (Town -> Nation)``, ``RECEIVED (Laureate ->
Award)`` with a ``ceremony`` date on the relationship. People have a long full name ("Ada
Margarethe Lindqvist-Brandt") and the name they are known by ("Ada Lindqvist"); no table has
a ``name`` column. The questions use the known names, as people write them; gold answers are
computed from the data. Nothing here is shipped or read by byokg itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from benchmarks.kuzu_files import new_database

# (id, full name, known name, birth year, town, award title, field, year)
LAUREATES = [
    ("l1", "Ada Margarethe Lindqvist-Brandt", "Ada Lindqvist", 1871, "Sorvik", "Orrery Medal", "physics", 1921),
    ("l2", "Tomasz Feliks Okonkwo-Rahimi", "Tomasz Okonkwo", 1884, "Valemont", "Lantern Prize", "chemistry", 1930),
    ("l3", "Ines Valeria Marchetti", "Ines Marchetti", 1890, "Kestrel Bay", "Orrery Medal", "physics", 1934),
    ("l4", "Hiro Benedikt Nakamura", "Hiro Nakamura", 1902, "Dunmere", "Meridian Award", "medicine", 1947),
    ("l5", "Greta Solveig Halvorsen", "Greta Halvorsen", 1911, "Sorvik", "Lantern Prize", "chemistry", 1952),
]
TOWNS = {"Sorvik": "Estovia", "Valemont": "Galvania", "Kestrel Bay": "Hesperia",
         "Dunmere": "Estovia"}

# question templates: (text with {x} = known name, what is asked)
TEMPLATES = [
    ("In which city was {x} born?", "town"),
    ("Which country is {x} from?", "nation"),
    ("Which award did {x} receive?", "award"),
    ("In what year did {x} receive an award?", "year"),
    ("In which field was {x} honoured?", "field"),
]


@dataclass
class PrizeQuestion:
    text: str
    answers: list[str]  # gold answers as the graph names them (display names or values)


def questions(by: str = "known") -> list[PrizeQuestion]:
    """The 25 lookups, naming people by their known name (``by="known"``, as people write)
    or by their full name (``"full"``)."""
    out = []
    for _id, full, known, _born, town, award, field, year in LAUREATES:
        if by == "full":
            known = full
        gold = {"town": [town], "nation": [TOWNS[town]], "award": [award], "year": [str(year)],
                "field": [field]}
        for text, what in TEMPLATES:
            out.append(PrizeQuestion(text.format(x=known), gold[what]))
    return out


_DDL = (
    "CREATE NODE TABLE Laureate(id STRING PRIMARY KEY, fullName STRING, knownName STRING, "
    "birthYear INT64)",
    "CREATE NODE TABLE Town(id STRING PRIMARY KEY, townName STRING)",
    "CREATE NODE TABLE Nation(id STRING PRIMARY KEY, nationName STRING)",
    "CREATE NODE TABLE Award(id STRING PRIMARY KEY, title STRING, field STRING, year INT64)",
    "CREATE REL TABLE BORN_IN(FROM Laureate TO Town)",
    "CREATE REL TABLE IN_NATION(FROM Town TO Nation)",
    "CREATE REL TABLE RECEIVED(FROM Laureate TO Award, ceremony DATE)",
)


def build(path: str | os.PathLike[str]) -> None:
    """Write the Kùzu database at ``path`` (a new folder or file path)."""
    with new_database(path, _DDL) as conn:
        for i, nation in enumerate(sorted(set(TOWNS.values()))):
            conn.execute("CREATE (:Nation {id: $id, nationName: $n})", {"id": f"n{i}", "n": nation})
        nid = {n: f"n{i}" for i, n in enumerate(sorted(set(TOWNS.values())))}
        for i, (town, nation) in enumerate(TOWNS.items()):
            conn.execute("CREATE (:Town {id: $id, townName: $t})", {"id": f"t{i}", "t": town})
            conn.execute("MATCH (a:Town {id: $a}), (b:Nation {id: $b}) CREATE (a)-[:IN_NATION]->(b)",
                         {"a": f"t{i}", "b": nid[nation]})
        tid = {t: f"t{i}" for i, t in enumerate(TOWNS)}
        awards: dict[tuple[str, int], str] = {}
        for lid, full, known, born, town, title, field, year in LAUREATES:
            conn.execute("CREATE (:Laureate {id: $id, fullName: $f, knownName: $k, birthYear: $b})",
                         {"id": lid, "f": full, "k": known, "b": born})
            conn.execute("MATCH (a:Laureate {id: $a}), (b:Town {id: $b}) CREATE (a)-[:BORN_IN]->(b)",
                         {"a": lid, "b": tid[town]})
            key = (title, year)
            if key not in awards:
                awards[key] = aid = f"a{len(awards)}"
                conn.execute("CREATE (:Award {id: $id, title: $t, field: $f, year: $y})",
                             {"id": aid, "t": title, "f": field, "y": year})
            conn.execute("MATCH (a:Laureate {id: $a}), (b:Award {id: $b}) "
                         f"CREATE (a)-[:RECEIVED {{ceremony: date('{year}-12-10')}}]->(b)",
                         {"a": lid, "b": awards[key]})


def evaluate(store, config=None, by: str = "known"
             ) -> tuple[int, int, list[tuple[str, list[str], list[str]]]]:
    """``(right, asked, misses)`` of the lookups on an open store: a question is right when
    its first answer is a gold answer (compared case-insensitively)."""
    from byokg.config import RunConfig
    from byokg.pipeline.engine import Engine

    eng = Engine(store, config or RunConfig())
    right, misses = 0, []
    qs = questions(by)
    for q in qs:
        a = eng.ask(q.text)
        ok = bool(a.answers) and a.answers[0].casefold() in {g.casefold() for g in q.answers}
        right += ok
        if not ok:
            misses.append((q.text, a.answers[:3], q.answers))
    return right, len(qs), misses
