"""A small prize graph whose people carry two names: ``Scholar.fullName`` ("Max Karl Ernst
Ludwig Planck") and ``Scholar.knownName`` ("Max Planck"), written as a Kùzu database with Kùzu's
own DDL, and as JSONL node records for the memory backend with odd property names ("Legal
Name", "known as", a part's name ``advisorName`` next to ``advisorTitle``, a ``capital``
that names another thing). Prizes are named by ``category + year``."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.kuzu_files import new_database

# (id, fullName, knownName, born in, prize category, prize year)
SCHOLARS = [
    (1, "Max Karl Ernst Ludwig Planck", "Max Planck", "Kiel", "physics", 1918),
    (2, "Gerty Theresa Cori", "Gerty Cori", "Prague", "medicine", 1947),
    (3, "Werner Karl Heisenberg", "Werner Heisenberg", "Würzburg", "physics", 1932),
    (4, "Marie Salomea Skłodowska-Curie", "Marie Curie", "Warsaw", "chemistry", 1911),
    (5, "Albert Abraham Michelson", "Albert Michelson", "Strzelno", "physics", 1907),
    (6, "Dorothy Mary Crowfoot Hodgkin", "Dorothy Hodgkin", "Cairo", "chemistry", 1964),
    (7, "Hans Adolf Krebs", "Hans Krebs", "Hildesheim", "medicine", 1953),
    (8, "Irène Joliot-Curie", "Irène Curie", "Paris", "chemistry", 1935),
]
COUNTRY_OF = {"Kiel": "Germany", "Prague": "Czechia", "Würzburg": "Germany",
              "Warsaw": "Poland", "Strzelno": "Poland", "Cairo": "Egypt",
              "Hildesheim": "Germany", "Paris": "France"}
CAPITALS = {"Germany": "Berlin", "Czechia": "Prague", "Poland": "Warsaw", "Egypt": "Cairo",
            "France": "Paris"}


def build_scholars_kuzu(path: Path) -> str:
    """The graph as a Kùzu database; returns its URI."""
    ddl = (
        "CREATE NODE TABLE Scholar(scholarId INT64, fullName STRING, knownName STRING, "
        "PRIMARY KEY(scholarId))",
        "CREATE NODE TABLE City(cityCode STRING, label STRING, PRIMARY KEY(cityCode))",
        "CREATE NODE TABLE Prize(prizeKey STRING, category STRING, year INT64, "
        "PRIMARY KEY(prizeKey))",
        "CREATE REL TABLE BORN_IN(FROM Scholar TO City)",
        "CREATE REL TABLE WON(FROM Scholar TO Prize, awarded DATE)",
    )
    with new_database(path, ddl) as c:
        cities = sorted({row[3] for row in SCHOLARS})
        for i, city in enumerate(cities):
            c.execute("CREATE (:City {cityCode: $k, label: $n})", {"k": f"c{i:02d}", "n": city})
        for sid, full, known, city, cat, year in SCHOLARS:
            c.execute("CREATE (:Scholar {scholarId: $i, fullName: $f, knownName: $k})",
                      {"i": sid, "f": full, "k": known})
            c.execute("MATCH (s:Scholar {scholarId: $i}), (c:City {label: $n}) "
                      "CREATE (s)-[:BORN_IN]->(c)", {"i": sid, "n": city})
            key = f"{cat}-{year}"
            c.execute("MERGE (:Prize {prizeKey: $k, category: $c, year: $y})",
                      {"k": key, "c": cat, "y": year})
            c.execute("MATCH (s:Scholar {scholarId: $i}), (p:Prize {prizeKey: $k}) "
                      f"CREATE (s)-[:WON {{awarded: date('{year}-12-10')}}]->(p)",
                      {"i": sid, "k": key})
    return f"kuzu:{path}"


def write_scholars_jsonl(path: Path) -> str:
    """The graph as JSONL node records and triples with odd property names; returns the URI."""
    rows: list[dict] = []
    for sid, full, known, city, _cat, _year in SCHOLARS:
        rows.append({"id": f"s{sid}", "labels": ["Researcher"], "properties": {
            "Legal Name": full, "known as": known, "advisorName": f"Advisor {sid} Smith-Jones",
            "advisorTitle": "Professor" if sid % 2 else "Doctor"}})
        rows.append({"head": f"s{sid}", "relation": "place of birth", "tail": f"city:{city}"})
    for city, country in COUNTRY_OF.items():
        rows.append({"id": f"city:{city}", "labels": ["Town"], "properties": {"title": city}})
        rows.append({"head": f"city:{city}", "relation": "in country", "tail": f"land:{country}"})
    for country, capital in CAPITALS.items():
        rows.append({"id": f"land:{country}", "labels": ["Land"],
                     "properties": {"name": country, "capital": capital}})
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                    encoding="utf-8")
    return f"memory:{path}"


def scholars_cypher() -> list[tuple[str, dict]]:
    """The graph as Cypher CREATE statements with parameters (for Bolt and FalkorDB)."""
    out: list[tuple[str, dict]] = []
    for i, city in enumerate(sorted({row[3] for row in SCHOLARS})):
        out.append(("CREATE (:City {cityCode: $k, label: $n})", {"k": f"c{i:02d}", "n": city}))
    for sid, full, known, city, _cat, _year in SCHOLARS:
        out.append(("CREATE (:Scholar {scholarId: $i, fullName: $f, knownName: $k})",
                    {"i": sid, "f": full, "k": known}))
        out.append(("MATCH (s:Scholar {scholarId: $i}), (c:City {label: $n}) "
                    "CREATE (s)-[:BORN_IN]->(c)", {"i": sid, "n": city}))
    return out


def build_scholars_bolt(server, database: str) -> str:
    """The graph written over Bolt; returns the database URI."""
    import neo4j

    server.create_database(database)
    uri = server.uri_for(database, with_auth=False)
    driver = neo4j.GraphDatabase.driver(uri.rsplit("/", 1)[0], auth=server.auth)
    try:
        with driver.session(database=database) as s:
            for q, params in scholars_cypher():
                s.run(q, **params).consume()
    finally:
        driver.close()
    return server.uri_for(database)


def build_scholars_falkordb(server, graph: str) -> str:
    """The graph written with FalkorDB's own client; returns the backend URI."""
    g = server.client().select_graph(graph)
    for q, params in scholars_cypher():
        g.query(q, params)
    return server.uri_for(graph)
