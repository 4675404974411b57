"""The offline reasoner on a movie graph of our own naming written as ``head|relation|tail``
lines (every relation from the film, no labels, values as plain strings) and asked in a
terse style: lower case, no question mark, the entity written as the graph writes it,
phrasings such as "what kind of films does X act in" or "the director of X also directed
which movies"."""

from __future__ import annotations

import pytest

from byokg.config import RunConfig
from byokg.language.analysis import analyze
from byokg.language.analysis import lexical_phrase_score
from byokg.pipeline.engine import Engine

FILMS = {
    # title: (directors, writers, actors, year, language, genres, tags)
    "Harbor Lights": (["Vera Lind"], ["Omar Cast"], ["Juno Acht", "Pia Moss"], "1987",
                      "English", ["Drama"], ["small town"]),
    "Glass Orchard": (["Vera Lind"], ["Lena Ruiz"], ["Tom Hale", "Pia Moss"], "1991", "French",
                      ["Comedy"], ["heist"]),
    "Paper Comet": (["Omar Cast"], ["Ivo Kern"], ["Juno Acht", "Rex Dahl"], "2004", "English",
                    ["Thriller"], []),
    "Iron Meadow": (["Juno Acht", "Sam Reyes"], ["Lena Ruiz"], ["Tom Hale"], "2010", "Spanish",
                    ["Western"], ["heist"]),
    "Silent River": (["Nell Ford"], ["Ivo Kern"], ["Pia Moss", "Ada Brun"], "1999", "English",
                     ["Musical"], ["small town"]),
    "Velvet Road": (["Vera Lind"], ["Kit Ames"], ["Ada Brun"], "1987", "German", ["Horror"],
                    []),
    "Amber Coast": (["Sam Reyes"], ["Kit Ames", "Vera Lind"], ["Rex Dahl", "Lena Ruiz"], "1999",
                    "English",
                    ["Drama", "Romance"], ["small town"]),
}


def _triples():
    for film, (ds, ws, actors, year, lang, genres, tags) in FILMS.items():
        yield from ((film, "directedBy", d) for d in ds)
        yield from ((film, "writtenBy", w) for w in ws)
        yield from ((film, "actor", a) for a in actors)
        yield (film, "releaseYear", year)
        yield (film, "spokenLanguage", lang)
        yield from ((film, "genre", g) for g in genres)
        yield from ((film, "tag", t) for t in tags)


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    """The graph as a pipe-separated triple file (a header line names the columns)."""
    from byokg.graph.open import open_graph

    path = tmp_path_factory.mktemp("filmkb") / "kb.txt"
    path.write_text("head|relation|tail\n" + "".join(f"{h}|{r}|{t}\n" for h, r, t in _triples()),
                    encoding="utf-8")
    return open_graph(f"memory:{path}")


@pytest.fixture(scope="module")
def engine(kb):
    return Engine(kb)


@pytest.fixture(scope="module")
def lexical(kb):
    return Engine(kb, RunConfig(embedder="lexical"))


def _first(answer):
    assert answer.answers, answer
    return (answer.answer_ids.get(answer.answers[0]) or [answer.answers[0]])[0]


# --------------------------------------------------------------------------- words


def test_agent_nouns_and_compounds_say_their_verbs():
    """"acted" says ``actor`` (act / actor), "screenwriter" says ``writtenBy`` (the root of
    *written* inside the compound), both ways round."""
    assert lexical_phrase_score("acted", "actor") >= 0.6
    assert lexical_phrase_score("screenwriter", "writtenBy") >= 0.6
    assert lexical_phrase_score("written", "screenwriter") >= 0.6
    assert lexical_phrase_score("red", "reader") == 0.0  # too short to be a verb stem


def test_a_shared_derivational_ending_is_no_root():
    """"mentors" and ``inDepartment`` share only *-ment*, a suffix of "department"; a
    compound still counts ("written" in ``screenwriter``)."""
    assert lexical_phrase_score("mentors", "inDepartment") == 0.0
    assert lexical_phrase_score("shipping", "relationship") == 0.0
    assert lexical_phrase_score("mentors", "mentoredBy") >= 0.8


@pytest.mark.parametrize(("question", "types"), [
    ("which employee enjoys chess and serves as designer ?", ("employee",)),
    ("Which company owns Harbor Lights?", ("company",)),
    ("which record labels are in Paris?", ("record", "labels")),  # a compound: kept
    ("which instrument family is it?", ("instrument", "family")),
    # a verb the lexicon does not list, told by the preposition after it
    ("which painting dates from 1947 ?", ("painting",)),
    ("Which climber hails from Oslo?", ("climber",)),
    ("which record labels in Paris signed Ada Brandt?", ("record", "labels")),  # "signed"
])
def test_the_type_words_stop_at_the_verb_of_a_singular_noun(question, types):
    """After "which", a singular noun's present-tense verb ends the type words: "chess" is
    then the clause's entity, not part of the asked-for type."""
    assert analyze(question).type_words == types


def test_kind_of_asks_for_a_category():
    for q, word in [("what kind of films does Tom Hale act in", "kind"),
                    ("what types are the films starred by Tom Hale", "types"),
                    ("what sort of movie is Velvet Road", "sort")]:
        assert analyze(q).type_words == (word,), q


# --------------------------------------------------------------------------- chains

# (question, what the first answer may be), asked of both engines (MiniLM and lexical)
FIRST_ANSWERS = [
    # 1 hop
    pytest.param("who was the screenwriter for Paper Comet", {"Ivo Kern"},
                 id="screenwriter-is-the-writer-not-an-actor"),
    pytest.param("what sort of movie is Velvet Road", {"Horror"},
                 id="what-sort-of-movie-is-its-genre"),
    # 2 hops: "what kind of films" asks for a genre
    pytest.param("what kind of films does Tom Hale act in", {"Comedy", "Western"},
                 id="kind-of-films-an-actor-acts-in"),
    pytest.param("what types of films did Vera Lind direct", {"Drama", "Comedy", "Horror"},
                 id="types-of-films-a-director-directs"),
    # "star" is the last word of the clause: the answer is films, not the actors' co-stars
    pytest.param("what other movies did the actors of Glass Orchard star in",
                 {"Iron Meadow", "Harbor Lights", "Silent River"}, id="other-movies-actors-starred-in"),
    # "also": the actors' (the writer's) other films, not the actors (the writer)
    pytest.param("the actors in Glass Orchard also appeared in which movies",
                 {"Iron Meadow", "Harbor Lights", "Silent River"}, id="actors-also-appeared-in"),
    pytest.param("the writer of Iron Meadow also wrote which films", {"Glass Orchard"},
                 id="writer-also-wrote"),
    # a relative clause without its pronoun ("the movies X directed"): the clause the mention
    # opens is the first step
    pytest.param("who are the writers of the movies Vera Lind directed",
                 {"Omar Cast", "Lena Ruiz", "Kit Ames"}, id="writers-of-the-movies-X-directed"),
    pytest.param("the films Tom Hale acted in were released in which years", {"1991", "2010"},
                 id="films-X-acted-in-released-in"),
    # 3 hops: "directed" and "director" far apart are two hops, not one relation said twice
    pytest.param("who are the writers of the films directed by the director of Glass Orchard",
                 {"Omar Cast", "Kit Ames"}, id="writers-of-films-by-the-director-of"),
    pytest.param("who acted in the films directed by the director of Glass Orchard",
                 {"Juno Acht", "Pia Moss", "Ada Brun"}, id="actors-of-films-by-the-director-of"),
]


@pytest.mark.parametrize("eng", ["engine", "lexical"])
@pytest.mark.parametrize("question,firsts", FIRST_ANSWERS)
def test_first_answer(eng, question, firsts, request):
    assert _first(request.getfixturevalue(eng).ask(question)) in firsts


@pytest.mark.parametrize("eng", ["engine", "lexical"])
def test_what_kind_of_movie_is_one_hop_to_its_genre(eng, request):
    """The category word says the last step: the film's own genre, not the genres of the
    director's other films."""
    e = request.getfixturevalue(eng)
    for film, genre in [("Glass Orchard", "Comedy"), ("Paper Comet", "Thriller"),
                        ("Iron Meadow", "Western")]:
        assert _first(e.ask(f"what kind of movie is {film}")) == genre
        assert _first(e.ask(f"what type of film is {film}")) == genre


def test_the_director_also_directed_which_movies_answers_films(engine):
    """Asked for movies, the director's other films, not the director."""
    got = engine.ask("the director of Harbor Lights also directed which movies")
    assert _first(got) in {"Glass Orchard", "Velvet Road"}
    assert "Harbor Lights" not in got.answers


@pytest.mark.parametrize("eng", ["engine"])  # lexical only: *starred* names no relation
def test_types_of_the_films_starred_by_actors_in(eng, request):
    e = request.getfixturevalue(eng)
    got = e.ask("what types are the films starred by actors in Harbor Lights")
    assert _first(got) in {"Thriller", "Comedy", "Musical"}


@pytest.mark.parametrize("eng", ["engine", "lexical"])
def test_share_actors_mirrors_the_actors_not_the_directors(eng, request):
    """"share *actors*": the chain goes out and back along the actors; Juno Acht also
    directed Iron Meadow, whose co-director Sam Reyes shares no actor with Harbor Lights."""
    e = request.getfixturevalue(eng)
    got = e.ask("who directed the movies that share actors with Harbor Lights")
    assert _first(got) in {"Omar Cast", "Vera Lind", "Nell Ford"}
    assert "Sam Reyes" not in got.answers


def test_only_passive_names_make_agents_a_misfit():
    """``directed_by`` surely ends at agents; ``HAS_ALMA_MATER`` only ends like an agent noun,
    so "which school is the alma mater of X" keeps its one-hop answer."""
    from byokg import graph_from_triplets

    eng = Engine(graph_from_triplets([
        ("Quillon Vale", "HAS_ALMA_MATER", "Ostrava Polytechnic"),
        ("Mirela Dask", "HAS_ALMA_MATER", "Ostrava Polytechnic"),
        ("The Copper Orchard", "directedBy", "Quillon Vale"),
        ("Brass Lantern", "directedBy", "Quillon Vale"),
        ("The Copper Orchard", "directedBy", "Mirela Dask")], uri="memory:alma"))
    assert eng.ask("Which school is the alma mater of Quillon Vale?").answers == [
        "Ostrava Polytechnic"]
    got = eng.ask("the director of Brass Lantern also directed which movies")
    assert _first(got) == "The Copper Orchard"


@pytest.mark.parametrize(("word", "label", "named"), [
    ("painters", "Painting", False), ("painters", "Painter", True),
    ("filmmaker", "Film", False), ("teammate", "Team", False), ("authority", "Author", False),
    ("cities", "City", True), ("companies", "Company", True), ("genres", "Genre", True),
    ("categories", "Category", True), ("people", "Person", True), ("children", "Child", True),
])
def test_a_type_word_names_a_label_in_another_form_not_a_word_built_on_it(word, label, named):
    """"Which *painters*" asks for Painters, not for Paintings (which "paint" begins too);
    "which *cities*" names City although the stemmer cuts the two differently."""
    from byokg.plugins.offline.answer_types import labels_named
    from byokg.plugins.offline.answer_types import names_label

    assert names_label(word, label.lower()) is named
    labels = [label, "Museum"]
    assert labels_named((word,), labels) == ((label,) if named else ())
