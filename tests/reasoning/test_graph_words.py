"""The words an LLM compiled for a graph (``byokg profile --compile-words``) as the offline
reasoner reads them: phrases that say no relation in particular are not read, a noun naming a
hop's ends is not read as the relation of that name, and the benchmark's recorded compilation
(``benchmarks/cassettes/graph_words.jsonl``, a blind LLM's replies) still answers every
paraphrase graph's prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import paraphrase_graphs as pg
from benchmarks.bench_reasoning import WORDS_CASSETTE
from byokg.graph.open import open_graph
from byokg.graph.profile import compile_items
from byokg.graph.profile import profile_graph
from byokg.graph.vocabulary import Compilation
from byokg.graph.vocabulary import compile_prompt
from byokg.graph.vocabulary import parse_compiled
from byokg.graph.vocabulary import with_llm_phrases
from byokg.models.base import prompt_checksum
from byokg.pipeline.engine import Engine

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("haskell", "rust", "fortran", "lua")
PEOPLE = ("ada_ito", "ben_roe", "cy_vale", "di_moss", "ed_lark", "flo_hart")


def _oss() -> list[tuple[str, str, str]]:
    out = []
    for i in range(24):
        p = f"proj{i:02d}ly"
        out += [(p, "language", LANGS[i % 4]), (p, "maintainer", PEOPLE[i % 6]),
                (p, "license", ("mit", "gpl", "apache")[i % 3])]
    return out


def _write(tmp_path: Path, triples) -> Path:
    graph = tmp_path / "oss.jsonl"
    graph.write_text("".join(json.dumps({"head": h, "relation": r, "tail": t}) + "\n"
                             for h, r, t in triples), encoding="utf-8")
    return graph


@pytest.mark.parametrize("install", ["core", "minilm"])
def test_a_noun_naming_the_ends_is_not_the_relations_phrases(tmp_path, monkeypatch, install):
    """``maintainer`` walked forwards reaches maintainers: the relation's phrases the other
    way ("projects maintained") do not make its tails projects ("which *project* …" was
    answered with the maintainers of the Haskell projects, core install)."""
    import byokg.models.embedders as emb

    if install == "core":
        monkeypatch.setattr(emb, "minilm_available", lambda: False)
    elif not emb.minilm_available():
        pytest.skip("MiniLM's weights are not installed")
    lex = tmp_path / "words.toml"
    lex.write_text('[relations.maintainer]\nforward = ["maintained by", "lead developer"]\n'
                   'backward = ["projects maintained", "maintains", "projects led"]\n',
                   encoding="utf-8")
    with open_graph(f"memory:{_write(tmp_path, _oss())}?lexicon={lex}") as store:
        got = Engine(store).ask("Which project is implemented in haskell?")
    gold = {h for h, r, t in _oss() if r == "language" and t == "haskell"}
    assert got.answers and set(got.answers) <= gold, got.answers


def test_llm_phrases_written_for_many_relations_are_not_read(tmp_path):
    """"projects" for three relations names the graph's topic, not one of them."""
    with open_graph(f"memory:{_write(tmp_path, _oss())}") as store:
        vocab = profile_graph(store, cache_dir=tmp_path / "cache").vocabulary
    words = with_llm_phrases(vocab, {
        "language": (("written in", "in", "projects"), ("used by",)),
        "maintainer": (("maintained by", "projects"), ("maintains",)),
        "license": (("licensed under", "is a"), ("projects", "license of")),
    }, {}, Compilation(model="test"))
    assert words.other_texts("language") == ("written in", "in", "used by")
    assert words.other_texts("maintainer") == ("maintained by", "maintains")
    assert words.other_texts("license") == ("licensed under", "is a", "license of")
    # the profile still shows every phrase the LLM wrote
    assert "projects" in {p.text for p in words.phrases("license", True)}


def test_the_recorded_compilation_answers_every_paraphrase_graph(tmp_path):
    """``bench_reasoning --words-llm replay:benchmarks/cassettes/graph_words.jsonl`` replays a
    blind LLM's phrases: every split's graphs must still ask the recorded prompts (a changed
    generator or prompt template needs the cassette recorded again, see docs/engine.md)."""
    rows = [json.loads(x) for x in (ROOT / WORDS_CASSETTE).read_text().splitlines() if x]
    replies = {r["checksum"]: r["response"] for r in rows}
    variants = pg.variants(per_kind=0)
    assert {v.domain for v in variants} == set(pg.DOMAINS)
    for v in variants:
        items = compile_items(profile_graph(v.store(), cache_dir=tmp_path))
        prompt = compile_prompt(items)
        reply = replies.get(prompt_checksum(prompt))
        assert reply is not None, f"{v.name}: its prompt is not in {WORDS_CASSETTE}"
        warnings: list[str] = []
        rels, _labels = parse_compiled(reply, items, warnings)
        assert not warnings, (v.name, warnings)
        assert set(rels) == {it.name for it in items if it.kind == "relation"}, v.name


@pytest.mark.parametrize("install", ["core", "minilm"])
def test_the_nouns_written_for_a_label_name_the_asked_for_type(tmp_path, monkeypatch, install):
    """The owner's (or an LLM's) nouns for a label are what a type word is matched with when
    no label's own name says it: "which *exhibits*" asks for the Items a curator handles, not
    the Rooms, over one relation of both."""
    import byokg.models.embedders as emb

    if install == "core":
        monkeypatch.setattr(emb, "minilm_available", lambda: False)
    elif not emb.minilm_available():
        pytest.skip("MiniLM's weights are not installed")
    rows: list[dict] = []
    for i, name in enumerate(("Vera Lind", "Omar Cast", "Ines Moro")):
        rows.append({"id": f"p{i}", "labels": ["Curator"], "properties": {"name": name}})
        for j in range(3):
            rows.append({"id": f"i{i}{j}", "labels": ["Item"],
                         "properties": {"name": f"Amphora {i}{j}"}})
            rows.append({"head": f"p{i}", "relation": "handles", "tail": f"i{i}{j}"})
        rows.append({"id": f"r{i}", "labels": ["Room"], "properties": {"name": f"Hall {i}"}})
        rows.append({"head": f"p{i}", "relation": "handles", "tail": f"r{i}"})
    graph = tmp_path / "museum.jsonl"
    graph.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    question = "Which exhibits does Vera Lind handle?"
    with open_graph(f"memory:{graph}") as store:
        plain = Engine(store).ask(question).answers
    lex = tmp_path / "words.toml"
    lex.write_text('[labels]\nItem = ["exhibit", "artefact"]\n', encoding="utf-8")
    with open_graph(f"memory:{graph}?lexicon={lex}") as store:
        got = Engine(store).ask(question).answers
    assert sorted(got) == ["Amphora 00", "Amphora 01", "Amphora 02"], (got, plain)


def test_the_nouns_an_llm_writes_for_a_relation_name_its_ends(tmp_path):
    """A graph without labels calls its nodes by the nouns the compilation wrote for the
    relations they play a part in, read as the prompt defines the phrases (forward: what the
    head is to the tail; backward: the tail to the head)."""
    with open_graph(f"memory:{_write(tmp_path, _oss())}") as store:
        vocab = profile_graph(store, cache_dir=tmp_path / "cache").vocabulary
    words = with_llm_phrases(vocab, {
        # "N of" names the end it is said of ("project of" forward: the head); "has N" and
        # a bare noun the other end ("X *developer* Y": Y is X's developer, the tail)
        "maintainer": (("maintained by", "project of", "developer"),
                       ("maintainer of", "has project", "maintains")),
        # function words are no noun ("has rules of"), nor a verb phrase ("written in")
        "license": (("licensed under", "has rules of"), ("software", "terms of")),
        "language": (("written in", "in"), ("used by",)),
    }, {}, Compilation(model="test"))
    assert words.end_nouns("maintainer", True) == ("project",)
    assert set(words.end_nouns("maintainer", False)) == {"maintainer", "developer"}
    assert words.end_nouns("license", True) == ("software",)
    assert words.end_nouns("license", False) == ("terms",)
    assert words.end_nouns("language", True) == () == words.end_nouns("language", False)
    # the relation's own name is read elsewhere (relwords.end_nouns), not here
    assert vocab.end_nouns("maintainer", False) == ()



@pytest.mark.parametrize(("roles", "fits"), [
    (("rider", "member", "winner", "nationality"), True),
    # a ship's roles: one word whose gloss says someone is not most of them
    (("flies flag", "in service", "service", "laid down"), False),
    (("team", "sponsor"), False)])
def test_who_fits_the_nodes_most_of_whose_roles_name_someone(roles, fits):
    """On a graph without labels, *who* fits end nodes most of whose roles (what the owner's
    or an LLM's words call them, by every relation they play a part in) the dictionary defines
    as someone, even with no similarity model to tell."""
    from byokg.plugins.offline.answer_types import EndType
    from byokg.plugins.offline.answer_types import Expectation
    from byokg.plugins.offline.answer_types import type_match

    def zero(a, b):
        return {(x, y): 0.0 for x in a for y in b}

    got = type_match(Expectation(kind="person"), EndType(roles=roles, said_roles=roles),
                     zero, zero)
    assert (got > 0) is fits, got
    # roles read off relation names only do not: they call a team's head coach a coach and
    # its players nothing, so only the coach would be someone
    assert type_match(Expectation(kind="person"), EndType(roles=roles), zero, zero) <= 0


def test_a_relation_line_of_twenty_phrases_is_read_whole(tmp_path):
    """The prompt asks up to 10 phrases each way: a line of 20 is read whole, not cut at the
    300 characters other replies' items are."""
    with open_graph(f"memory:{_write(tmp_path, _oss())}") as store:
        items = compile_items(profile_graph(store, cache_dir=tmp_path / "cache"))
    fw = [f"forward phrase number {i} for it" for i in range(10)]
    bw = [f"backward phrase number {i} for it" for i in range(10)]
    line = f"relation maintainer | {'; '.join(fw)} | {'; '.join(bw)}"
    assert len(line) > 600
    warnings: list[str] = []
    rels, _labels = parse_compiled(f"<phrases>\n{line}\n</phrases>", items, warnings)
    assert rels["maintainer"] == (tuple(fw), tuple(bw))
    assert not [w for w in warnings if "cut" in w], warnings


def test_the_graphs_topic_names_no_end(tmp_path):
    """An LLM writes the graph's topic into most relations' phrases ("films of", "films by",
    "films from"): it names no one end ("films of" written backwards for the cast meant the
    films, which the prompt's reading would make the actors), and neither does a noun built
    on it ("filmmaker"), which "which *films*" would match by its letters."""
    with open_graph(f"memory:{_write(tmp_path, _oss())}") as store:
        vocab = profile_graph(store, cache_dir=tmp_path / "cache").vocabulary
    words = with_llm_phrases(vocab, {
        "maintainer": (("maintainer", "filmmaker"), ("films of", "maintainer of")),
        "language": (("language", "written in"), ("films in", "language of")),
        "license": (("license",), ("films under", "license of")),
    }, {}, Compilation(model="test"))
    assert words.end_nouns("maintainer", False) == ("maintainer",)
    assert words.end_nouns("language", False) == ("language",)
    assert words.end_nouns("license", False) == ("license",)


def test_a_noun_written_the_wrong_way_round_is_outvoted(tmp_path):
    """LLMs write some "N of" phrases the other way round ("head chef of" backwards for
    ``chefAt``). A noun (by its last word) that more of a relation's phrases, its name's
    among them, give the other end is not read for this one; as many on both sides (a
    symmetric noun) keeps it on both."""
    with open_graph(f"memory:{_write(tmp_path, _oss())}") as store:
        vocab = profile_graph(store, cache_dir=tmp_path / "cache").vocabulary
    words = with_llm_phrases(vocab, {
        # forward "maintainer of" would make the projects maintainers; "has maintainer"
        # forward, "maintainer of" backward and the name itself call the tails so
        "maintainer": (("maintained by", "maintainer of", "has maintainer"),
                       ("lead maintainer of", "project")),
        "language": (("partner of",), ("partner of",)),
    }, {}, Compilation(model="test"))
    assert set(words.end_nouns("maintainer", False)) == {"lead maintainer", "maintainer"}
    assert words.end_nouns("maintainer", True) == ("project",)
    assert words.end_nouns("language", True) == ("partner",) == words.end_nouns("language",
                                                                                  False)
