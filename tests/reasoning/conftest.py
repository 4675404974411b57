"""Graphs the reasoning tests write themselves: two generated multi-hop graphs with different
relation names and shapes (benchmarks/reasoning_graphs.py), small hand-made graphs for
direction and type questions, and a typed Kùzu graph whose dates live in node properties."""

from __future__ import annotations

import json

import pytest

from benchmarks import reasoning_graphs as rg
from benchmarks.kuzu_files import new_database


def _open(path):
    from byokg.graph.open import open_graph

    return open_graph(f"memory:{path}")


@pytest.fixture(scope="session")
def cinema():
    return rg.cinema(400, questions=30)


@pytest.fixture(scope="session")
def library():
    return rg.library(300, questions=30)


@pytest.fixture(scope="session")
def cinema_store(cinema, tmp_path_factory):
    path = tmp_path_factory.mktemp("cinema") / "cinema.jsonl"
    cinema.write_jsonl(path, typed=False)  # no labels: types come from relation names only
    return _open(path)


@pytest.fixture(scope="session")
def library_store(library, tmp_path_factory):
    path = tmp_path_factory.mktemp("library") / "library.jsonl"
    library.write_jsonl(path, typed=True)  # labels: Person, Book, City, Country, …
    return _open(path)


def write_jsonl(path, nodes=(), triples=()):
    with open(path, "w", encoding="utf-8") as fh:
        for n in nodes:
            fh.write(json.dumps(n) + "\n")
        for h, r, t in triples:
            fh.write(json.dumps({"head": h, "relation": r, "tail": t}) + "\n")
    return path


@pytest.fixture(scope="session")
def planets_store(tmp_path_factory):
    """Untyped: only the direction of ``orbits`` tells moons from the star."""
    path = tmp_path_factory.mktemp("planets") / "planets.jsonl"
    return _open(write_jsonl(path, triples=[
        ("Phobos", "orbits", "Mars"), ("Deimos", "orbits", "Mars"), ("Mars", "orbits", "Sun"),
        ("Earth", "orbits", "Sun"), ("Moon", "orbits", "Earth"), ("Jupiter", "orbits", "Sun"),
        ("Io", "orbits", "Jupiter"), ("Europa", "orbits", "Jupiter")]))


@pytest.fixture(scope="session")
def clubs_store(tmp_path_factory):
    """Untyped, nouns for relations: only the question's grammar tells which way ``club``
    and ``ground`` are walked (the players are the heads of ``club``)."""
    path = tmp_path_factory.mktemp("clubs") / "clubs.jsonl"
    return _open(write_jsonl(path, triples=[
        ("Ines Varga", "club", "Orla Rovers"), ("Teo Brandt", "club", "Orla Rovers"),
        ("Mika Sol", "club", "Pera United"), ("Orla Rovers", "division", "North Cup"),
        ("Pera United", "division", "North Cup"), ("Orla Rovers", "ground", "Vale Park"),
        ("Pera United", "ground", "Kest Field"), ("Vale Park", "town", "Orlaby"),
        ("Kest Field", "town", "Peraford")]))


@pytest.fixture(scope="session")
def places_store(tmp_path_factory):
    """Typed places: a city, its region and its country are all ``locatedIn`` ends."""
    path = tmp_path_factory.mktemp("places") / "places.jsonl"
    nodes = [{"id": n, "labels": [lab]} for n, lab in [
        ("Lyon", "City"), ("Rhône", "Department"), ("France", "Country"), ("Villeurbanne", "City"),
        ("Ada Quist", "Person"), ("Bo Lind", "Person"), ("Kyoto", "City"), ("Japan", "Country")]]
    return _open(write_jsonl(path, nodes, [
        ("Lyon", "locatedIn", "Rhône"), ("Rhône", "locatedIn", "France"),
        ("Villeurbanne", "locatedIn", "Rhône"), ("Ada Quist", "bornIn", "Lyon"),
        ("Bo Lind", "bornIn", "Kyoto"), ("Kyoto", "locatedIn", "Japan"),
        ("France", "capital", "Paris")]))


@pytest.fixture(scope="session")
def kuzu_movies(tmp_path_factory):
    """A property graph in Kùzu: release dates and runtimes are node properties, and no table
    names its nodes with a ``name`` column (titles, full names, labels)."""
    from byokg.graph.open import open_graph

    path = tmp_path_factory.mktemp("kuzu-movies") / "movies.kz"
    ddl = ("CREATE NODE TABLE Movie(id STRING PRIMARY KEY, title STRING, released DATE, "
           "runtime INT64)",
           "CREATE NODE TABLE Person(id STRING PRIMARY KEY, fullName STRING, born INT64)",
           "CREATE NODE TABLE Genre(id STRING PRIMARY KEY, label STRING)",
           "CREATE REL TABLE DIRECTED(FROM Person TO Movie)",
           "CREATE REL TABLE ACTED_IN(FROM Person TO Movie)",
           "CREATE REL TABLE IN_GENRE(FROM Movie TO Genre)")
    with new_database(path, ddl) as conn:
        movies = [("m1", "Harbor Lights", "1987-05-17", 121), ("m2", "Glass Orchard", "1991-09-02", 98),
                  ("m3", "Paper Comet", "2004-02-11", 104), ("m4", "Iron Meadow", "2010-11-30", 133)]
        for mid, name, date, runtime in movies:
            conn.execute(f"CREATE (:Movie {{id: '{mid}', title: '{name}', released: date('{date}'), "
                         f"runtime: {runtime}}})")
        for pid, name, born in [("p1", "Vera Lindqvist", 1950), ("p2", "Omar Castellano", 1962),
                                ("p3", "Juno Achterberg", 1975)]:
            conn.execute(f"CREATE (:Person {{id: '{pid}', fullName: '{name}', born: {born}}})")
        for gid, name in [("g1", "Drama"), ("g2", "Thriller")]:
            conn.execute(f"CREATE (:Genre {{id: '{gid}', label: '{name}'}})")
        rels = [("DIRECTED", "Person", "p1", "Movie", "m1"), ("DIRECTED", "Person", "p1", "Movie", "m2"),
                ("DIRECTED", "Person", "p2", "Movie", "m3"), ("DIRECTED", "Person", "p2", "Movie", "m4"),
                ("ACTED_IN", "Person", "p3", "Movie", "m1"), ("ACTED_IN", "Person", "p3", "Movie", "m3"),
                ("ACTED_IN", "Person", "p2", "Movie", "m1"), ("IN_GENRE", "Movie", "m1", "Genre", "g1"),
                ("IN_GENRE", "Movie", "m2", "Genre", "g1"), ("IN_GENRE", "Movie", "m3", "Genre", "g2"),
                ("IN_GENRE", "Movie", "m4", "Genre", "g2")]
        for rel, a, ai, b, bi in rels:
            conn.execute(f"MATCH (x:{a} {{id: '{ai}'}}), (y:{b} {{id: '{bi}'}}) CREATE (x)-[:{rel}]->(y)")
    store = open_graph(f"kuzu:{path}")
    yield store
    store.close()


@pytest.fixture(params=["core", "minilm"])
def installed(request, monkeypatch):
    """Run as the core install (MiniLM's weights hidden: the static model) or with MiniLM."""
    import byokg.models.embedders as emb

    if request.param == "core":
        monkeypatch.setattr(emb, "minilm_available", lambda: False)
    elif not emb.minilm_available():
        pytest.skip("MiniLM's weights are not installed")
    return request.param
