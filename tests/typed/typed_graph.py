"""A typed graph no byokg code ever saw, built with each database's own tools (Kùzu DDL and
CREATE; Cypher CREATE over Bolt): people named in ``knownName`` with an INT64 ``id`` key, DATE
and BOOLEAN properties, prizes keyed by a composite string and named by no single property
(``category`` + ``year``), a label with numbers only (``Census``), relationship properties
(``WON {share, awardedOn}``, ``AFFILIATED_WITH {since}``, ``BORN_IN {onRecord}``).

``TYPED`` holds the data; ``QUESTIONS`` 25 one-fact lookups with their answers (display names).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from benchmarks.kuzu_files import new_database

FIRST = ["Amara", "Bertil", "Celina", "Dorian", "Elsa", "Fabian", "Greta", "Hugo", "Ilse",
         "Jonas", "Katya", "Lorenz", "Mireille", "Nils", "Odile", "Pavel", "Quinta", "Rasmus",
         "Solveig", "Tiberius"]
LAST = ["Achterberg", "Brandvold", "Castellane", "Drobnik", "Eskeland", "Falkenrath", "Gorvath",
        "Hallbeck"]
CITIES = ["Oberhelm", "Lisardo", "Vantaskor", "Mirefield", "Quellburg", "Dunmoral", "Sarvika",
          "Temperlo", "Ulmsted", "Brisenne", "Coldhaven", "Ravelsk"]
COUNTRIES = ["Veloria", "Ostrana", "Kaldmark", "Serenthia"]
INSTITUTES = ["Oberhelm Institute of Optics", "Lisardo Polytechnic", "Vantaskor Academy of Letters",
              "Mirefield Laboratory", "Quellburg University", "Dunmoral Observatory"]
CATEGORIES = ["physics", "chemistry", "medicine", "literature", "peace", "economics"]


@dataclass
class TypedGraph:
    people: list[dict] = field(default_factory=list)
    cities: list[dict] = field(default_factory=list)
    countries: list[dict] = field(default_factory=list)
    institutes: list[dict] = field(default_factory=list)
    prizes: list[dict] = field(default_factory=list)
    censuses: list[dict] = field(default_factory=list)
    born_in: list[tuple[int, str, bool]] = field(default_factory=list)
    located_in: list[tuple[str, str]] = field(default_factory=list)
    citizen_of: list[tuple[int, str]] = field(default_factory=list)
    won: list[tuple[int, str, int, dt.date]] = field(default_factory=list)
    affiliated: list[tuple[int, int, dt.date]] = field(default_factory=list)
    based_in: list[tuple[int, str]] = field(default_factory=list)
    census_of: list[tuple[str, int]] = field(default_factory=list)


def build_typed_graph(seed: int = 7) -> TypedGraph:
    rnd = random.Random(seed)
    g = TypedGraph()
    g.countries = [{"iso": f"C{i:02d}", "commonName": n, "founded": dt.date(1800 + 17 * i, 3, 1)}
                   for i, n in enumerate(COUNTRIES)]
    for i, n in enumerate(CITIES):
        g.cities.append({"cityCode": f"city-{i:03d}", "label": n,
                         "population": 40_000 + 7_919 * i})
        g.located_in.append((f"city-{i:03d}", f"C{i % len(COUNTRIES):02d}"))
    names = [f"{f} {last}" for last in LAST for f in FIRST]
    rnd.shuffle(names)
    for pid, name in enumerate(names[:60], start=101):
        g.people.append({
            "id": pid, "knownName": name, "wikidataId": f"Q{rnd.randint(1000, 99999)}",
            "gender": rnd.choice(["female", "male"]), "alive": rnd.random() < 0.3,
            "birthDate": dt.date(1850 + rnd.randint(0, 100), rnd.randint(1, 12), rnd.randint(1, 28)),
            "bio": f"{name} was a researcher whose long career spanned many fields and decades "
                   f"of careful work in {rnd.choice(CATEGORIES)}.",
        })
        g.born_in.append((pid, f"city-{rnd.randrange(len(CITIES)):03d}", rnd.random() < 0.8))
        g.citizen_of.append((pid, f"C{rnd.randrange(len(COUNTRIES)):02d}"))
    for iid, name in enumerate(INSTITUTES, start=1):
        g.institutes.append({"instId": iid, "orgName": name,
                             "established": dt.date(1700 + 31 * iid, 1, 1)})
        g.based_in.append((iid, f"city-{(iid * 2) % len(CITIES):03d}"))
    for year in range(1901, 1908):
        for cat in CATEGORIES:
            g.prizes.append({"prizeKey": f"nobel-{cat}-{year}", "category": cat, "year": year,
                             "motivation": f"for outstanding contributions to {cat} recognised "
                                           f"by the committee in the year {year}"})
    winners = list(range(101, 161))
    rnd.shuffle(winners)
    for p, pid in zip(g.prizes, winners, strict=False):
        g.won.append((pid, p["prizeKey"], 1, dt.date(p["year"], 12, 10)))
    for pid in range(101, 161):
        g.affiliated.append((pid, 1 + pid % len(INSTITUTES), dt.date(1900 + pid % 30, 9, 1)))
    for i in range(len(CITIES)):
        g.censuses.append({"censusId": 500 + i, "year": 1900 + 10 * (i % 4),
                           "population": 10_000 + 311 * i})
        g.census_of.append((f"city-{i:03d}", 500 + i))
    return g


def _name(g: TypedGraph) -> dict:
    return {
        "person": {p["id"]: p["knownName"] for p in g.people},
        "city": {c["cityCode"]: c["label"] for c in g.cities},
        "country": {c["iso"]: c["commonName"] for c in g.countries},
        "inst": {i["instId"]: i["orgName"] for i in g.institutes},
        "prize": {p["prizeKey"]: f"{p['category']} {p['year']}" for p in g.prizes},
    }


def typed_questions(g: TypedGraph) -> list[tuple[str, str]]:
    """25 one-fact lookups (question, answer in the graph's display names)."""
    n = _name(g)
    qs: list[tuple[str, str]] = []
    for pid, city, _ in g.born_in[:8]:
        qs.append((f"In which city was {n['person'][pid]} born?", n["city"][city]))
    for city, country in g.located_in[:4]:
        qs.append((f"Which country is {n['city'][city]} located in?", n["country"][country]))
    for pid, inst, _ in g.affiliated[10:15]:
        qs.append((f"Which institution was {n['person'][pid]} affiliated with?", n["inst"][inst]))
    for inst, city in g.based_in[:4]:
        qs.append((f"In which city is {n['inst'][inst]} based?", n["city"][city]))
    for pid, country in g.citizen_of[20:24]:
        qs.append((f"Which country was {n['person'][pid]} a citizen of?", n["country"][country]))
    return qs


TYPED = build_typed_graph()
QUESTIONS = typed_questions(TYPED)


# --------------------------------------------------------------------------- relationships
# type, (source label, key), (target label, key), properties, the TypedGraph field of its rows
# (rows are (source key, target key, *property values))
RELATIONS = (
    ("BORN_IN", ("Person", "id"), ("City", "cityCode"), ("onRecord",), "born_in"),
    ("LOCATED_IN", ("City", "cityCode"), ("Country", "iso"), (), "located_in"),
    ("CITIZEN_OF", ("Person", "id"), ("Country", "iso"), (), "citizen_of"),
    ("WON", ("Person", "id"), ("Prize", "prizeKey"), ("share", "awardedOn"), "won"),
    ("AFFILIATED_WITH", ("Person", "id"), ("Institution", "instId"), ("since",), "affiliated"),
    ("BASED_IN", ("Institution", "instId"), ("City", "cityCode"), (), "based_in"),
    ("HAS_CENSUS", ("City", "cityCode"), ("Census", "censusId"), (), "census_of"),
)


def relation_query(spec: tuple, param) -> tuple[str, tuple[str, ...]]:
    """``MATCH (a), (b) CREATE (a)-[:TYPE {…}]->(b)`` for one RELATIONS entry, each value read
    as ``param(name)`` (``$name`` in Kùzu, ``r.name`` after an UNWIND); and the row's names."""
    rtype, (src, src_key), (dst, dst_key), props, _ = spec
    sets = ", ".join(f"{p}: {param(p)}" for p in props)
    body = f" {{{sets}}}" if props else ""
    return (f"MATCH (a:{src} {{{src_key}: {param('a')}}}), (b:{dst} {{{dst_key}: {param('b')}}}) "
            f"CREATE (a)-[:{rtype}{body}]->(b)", ("a", "b", *props))


# --------------------------------------------------------------------------- Kùzu


def build_kuzu(path: Path, g: TypedGraph = TYPED) -> str:
    """The typed graph as a Kùzu database written with Kùzu's own DDL; returns its URI."""
    ddl = [
        "CREATE NODE TABLE Person(id INT64, knownName STRING, wikidataId STRING, gender STRING, "
        "alive BOOLEAN, birthDate DATE, bio STRING, PRIMARY KEY(id))",
        "CREATE NODE TABLE City(cityCode STRING, label STRING, population INT64, "
        "PRIMARY KEY(cityCode))",
        "CREATE NODE TABLE Country(iso STRING, commonName STRING, founded DATE, PRIMARY KEY(iso))",
        "CREATE NODE TABLE Institution(instId INT64, orgName STRING, established DATE, "
        "PRIMARY KEY(instId))",
        "CREATE NODE TABLE Prize(prizeKey STRING, category STRING, year INT64, motivation STRING, "
        "PRIMARY KEY(prizeKey))",
        "CREATE NODE TABLE Census(censusId INT64, year INT64, population INT64, "
        "PRIMARY KEY(censusId))",
        "CREATE REL TABLE BORN_IN(FROM Person TO City, onRecord BOOLEAN)",
        "CREATE REL TABLE LOCATED_IN(FROM City TO Country)",
        "CREATE REL TABLE CITIZEN_OF(FROM Person TO Country)",
        "CREATE REL TABLE WON(FROM Person TO Prize, share INT64, awardedOn DATE)",
        "CREATE REL TABLE AFFILIATED_WITH(FROM Person TO Institution, since DATE)",
        "CREATE REL TABLE BASED_IN(FROM Institution TO City)",
        "CREATE REL TABLE HAS_CENSUS(FROM City TO Census)",
    ]
    with new_database(path, ddl) as c:
        def nodes(label: str, rows: list[dict]) -> None:
            cols = list(rows[0])
            sets = ", ".join(f"{k}: ${k}" for k in cols)
            for r in rows:
                c.execute(f"CREATE (:{label} {{{sets}}})", r)

        nodes("Person", g.people)
        nodes("City", g.cities)
        nodes("Country", g.countries)
        nodes("Institution", g.institutes)
        nodes("Prize", g.prizes)
        nodes("Census", g.censuses)

        for spec in RELATIONS:
            q, names = relation_query(spec, lambda p: f"${p}")
            for r in getattr(g, spec[4]):
                c.execute(q, dict(zip(names, r, strict=True)))
    return f"kuzu:{path}"



# --------------------------------------------------------------------------- Bolt


def build_bolt(server, database: str, g: TypedGraph = TYPED) -> str:
    """The typed graph written over Bolt with Cypher CREATE (dates as driver Date values);
    returns the database URI."""
    import neo4j

    server.create_database(database)
    uri = server.uri_for(database, with_auth=False)
    driver = neo4j.GraphDatabase.driver(uri.rsplit("/", 1)[0], auth=server.auth)
    try:
        with driver.session(database=database) as s:
            for label, rows in (("Person", g.people), ("City", g.cities),
                                ("Country", g.countries), ("Institution", g.institutes),
                                ("Prize", g.prizes), ("Census", g.censuses)):
                cols = list(rows[0])
                sets = ", ".join(f"{k}: r.{k}" for k in cols)
                s.run(f"UNWIND $rows AS r CREATE (:{label} {{{sets}}})", rows=rows).consume()

            for spec in RELATIONS:
                q, names = relation_query(spec, lambda p: f"r.{p}")
                data = [dict(zip(names, r, strict=True)) for r in getattr(g, spec[4])]
                s.run("UNWIND $rows AS r " + q, rows=data).consume()
    finally:
        driver.close()
    return server.uri_for(database)


def repeat_people(g: TypedGraph, n: int) -> TypedGraph:
    """Every person ``n`` times (copy ``k``: id + 1000·k, name suffixed `` k``), in place."""
    g.people = [{**p, "id": p["id"] + 1000 * k, "knownName": f"{p['knownName']} {k}"}
                for k in range(n) for p in g.people]
    return g


def record_calls(store, method: str) -> list:
    """Wrap ``store.<method>``: the first argument of every call is appended to the list returned."""
    calls: list = []
    real = getattr(store, method)

    def recording(*a, **kw):
        calls.append(a[0])
        return real(*a, **kw)

    setattr(store, method, recording)
    return calls
