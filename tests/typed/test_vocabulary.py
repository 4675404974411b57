"""The graph's vocabulary, one test per source: name aliases (a Kùzu graph with ``fullName`` and
``knownName``; JSONL node records with odd property names), phrases derived from names, the
owner's lexicon file (TOML and JSON, URI and run config), the LLM's one-time compilation against
a local OpenAI-compatible server; and the cache (a second open reads it, a changed lexicon
rebuilds the vocabulary and keeps the LLM's phrases)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import llm_stub
import pytest
from scholars import SCHOLARS
from scholars import build_scholars_kuzu
from scholars import write_scholars_jsonl

from byokg import registry
from byokg.config import RunConfig
from byokg.errors import ConfigError
from byokg.graph.open import open_graph
from byokg.graph.profile import profile_graph
from byokg.graph.vocabulary import read_lexicon
from byokg.models.services import Services
from byokg.pipeline.engine import Engine


@pytest.fixture(scope="module")
def scholars_kuzu(tmp_path_factory) -> str:
    return build_scholars_kuzu(tmp_path_factory.mktemp("scholars") / "scholars.kz")


@pytest.fixture(scope="module")
def scholars_jsonl(tmp_path_factory) -> str:
    return write_scholars_jsonl(tmp_path_factory.mktemp("scholars") / "scholars.jsonl")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("BYOKG_CACHE_DIR", str(d))
    return d


def _link(store, *mentions: str):
    linker = registry.tools().create("entity-linker")
    return {m.mention: m for m in linker.link(list(mentions), store=store,
                                              services=Services(RunConfig(embedder="lexical")))}


# --------------------------------------------------------------------------- name aliases


def test_known_name_is_an_alias_for_linking_and_offline_answers(scholars_kuzu, cache):
    with open_graph(scholars_kuzu) as store:
        prof = profile_graph(store)
        scholar = prof.label("Scholar")
        assert scholar.display_parts == ("fullName",)
        assert scholar.aliases == ("knownName",)
        assert "shares words" in scholar.alias_why["knownName"]
        words = prof.vocabulary.label("Scholar")
        assert [(n.property, n.role) for n in words.names] == [("fullName", "display"),
                                                               ("knownName", "alias")]
        pairs = {p for batch in store.iter_node_names() for p in batch}
        planck = next(i for i, n in pairs if n == "Max Karl Ernst Ludwig Planck")
        assert (planck, "Max Planck") in pairs
        # a KG-Linker entity written by its known name is found, as an alias
        links = _link(store, "Max Planck", "Gerty Cori")
        assert [(c.id, c.method) for c in links["Max Planck"].candidates[:1]] == [
            (planck, "alias")]
        assert links["Gerty Cori"].candidates[0].name == "Gerty Theresa Cori"
        engine = Engine(store, RunConfig())
        for _i, _full, known, city, _c, _y in SCHOLARS:  # every lookup by the known name
            assert engine.ask(f"In which city was {known} born?").answers == [city], known


def test_display_override_turns_the_other_name_into_an_alias(scholars_kuzu, cache):
    with open_graph(scholars_kuzu + "?display=Scholar.knownName") as store:
        scholar = profile_graph(store).label("Scholar")
        assert scholar.display_parts == ("knownName",)
        assert scholar.aliases == ("fullName",)
        links = _link(store, "Max Karl Ernst Ludwig Planck")
        assert links["Max Karl Ernst Ludwig Planck"].candidates[0].name == "Max Planck"


def test_aliases_from_odd_headers_not_parts_or_other_things(scholars_jsonl, cache):
    with open_graph(scholars_jsonl) as store:
        prof = profile_graph(store)
        assert prof.label("Researcher").display_parts == ("Legal Name",)
        # "known as" shares words with the legal name; advisorName names a part (advisorTitle
        # beside it) and shares none
        assert prof.label("Researcher").aliases == ("known as",)
        # a capital is written like a name but names another thing
        assert prof.label("Land").aliases == ()
        assert _link(store, "Marie Curie")["Marie Curie"].candidates[0].method == "alias"
        assert Engine(store, RunConfig()).ask(
            "What is the place of birth of Hans Krebs?").answers == ["Hildesheim"]


# --------------------------------------------------------------------------- derived phrases


def test_phrases_derived_from_names_both_ways(scholars_kuzu, scholars_jsonl, cache):
    with open_graph(scholars_kuzu) as store:
        vocab = profile_graph(store).vocabulary
    born = vocab.phrases("BORN_IN")
    assert born and {p.source for p in born} == {"name"}
    assert "born in" in [p.text for p in born]
    # backward reads tail -> head, with the domain label when it helps
    assert {"birthplace of", "birthplace of scholar"} <= {
        p.text for p in vocab.phrases("BORN_IN", inverse=True)}
    assert [p.text for p in vocab.label_phrases("Scholar")] == ["scholar"]
    # a relation the vocabulary does not hold still gets phrases from its name
    assert "born in" in [p.text for p in vocab.phrases("people.person.place_of_birth")]
    with open_graph(scholars_jsonl) as store:
        vocab = profile_graph(store).vocabulary
    assert [p.text for p in vocab.phrases("place of birth")][:2] == ["place of birth", "born in"]
    assert [p.text for p in vocab.phrases("place of birth", inverse=True)] == [
        "place of birth of"]
    assert set(vocab.texts()) >= {"place of birth", "in country", "country of", "researcher"}


def test_a_changed_copy_never_answers_from_the_original_s_lookups():
    from byokg.graph.vocabulary import Lexicon
    from byokg.graph.vocabulary import LexiconEntry
    from byokg.graph.vocabulary import apply_lexicon
    from byokg.graph.vocabulary import derive_vocabulary

    vocab = derive_vocabulary([("BORN_IN", ("Scholar",), ("City",))], [("Scholar", ())])
    assert vocab.phrases("BORN_IN") and vocab.label("Scholar") is not None  # lookups built
    lex = Lexicon(path="w.toml", digest="d", relations={
        "BORN_IN": LexiconEntry(forward=("native of",))}, labels={
        "Scholar": LexiconEntry(forward=("scientist",))})
    changed = apply_lexicon(vocab, lex)
    assert changed.phrases("BORN_IN")[0].text == "native of"
    assert changed.label_phrases("Scholar")[0].text == "scientist"
    assert "native of" not in [p.text for p in vocab.phrases("BORN_IN")]


# --------------------------------------------------------------------------- the user's lexicon

TOML = """\
[relations]
BORN_IN = ["native of", "birthplace"]
[relations.WON]
forward = ["laureate of"]
backward = ["awarded to"]
[relations.BORNIN]
forward = ["typo"]
[labels]
Scholar = ["scientist"]
"""


def test_user_lexicon_toml_in_the_uri(scholars_kuzu, cache, tmp_path, caplog):
    lex = tmp_path / "words.toml"
    lex.write_text(TOML, encoding="utf-8")
    with open_graph(f"{scholars_kuzu}?lexicon={lex}") as store:
        vocab = profile_graph(store).vocabulary
    assert vocab.lexicon is not None and vocab.lexicon.path == str(lex)
    assert [(p.text, p.source) for p in vocab.phrases("BORN_IN")][:2] == [
        ("native of", "lexicon"), ("birthplace", "lexicon")]
    assert ("born in", "name") in [(p.text, p.source) for p in vocab.phrases("BORN_IN")]
    assert [p.text for p in vocab.phrases("WON", inverse=True, sources=["lexicon"])] == [
        "awarded to"]
    assert vocab.label_phrases("Scholar")[0].text == "scientist"
    note = next(n for n in vocab.notes if "BORNIN" in n)
    assert str(lex) in note and "line 6" in note and "did you mean BORN_IN" in note
    assert any("BORNIN" in r.message for r in caplog.records)


def test_user_lexicon_json_from_a_run_config(scholars_jsonl, cache, tmp_path):
    folder = tmp_path / "conf"
    folder.mkdir()
    (folder / "words.json").write_text(json.dumps({
        "relations": {"place of birth": {"forward": ["hometown"], "backward": ["home of"]}},
        "labels": {"Researcher": "scholar"}}), encoding="utf-8")
    (folder / "run.toml").write_text('lexicon = "words.json"\n', encoding="utf-8")
    cfg = RunConfig.load(folder / "run.toml")  # relative to the config file
    assert cfg.lexicon == str(folder / "words.json")
    with open_graph(scholars_jsonl) as store:
        vocab = Engine(store, cfg).profile.vocabulary
    assert [p.text for p in vocab.phrases("place of birth", sources=["lexicon"])] == ["hometown"]
    assert [p.text for p in vocab.phrases("place of birth", True, sources=["lexicon"])] == [
        "home of"]
    assert vocab.label_phrases("Researcher")[0].text == "scholar"


@pytest.mark.parametrize(("name", "text", "says"), [
    ("bad.toml", "[relations]\nBORN_IN = 3\n", r"bad\.toml: relations\.BORN_IN \(line 2\) "
                                                r"must be a list of phrases"),
    ("bad.toml", "[relations.BORN_IN]\nforwards = ['x']\n", r"unknown key 'forwards'"),
    ("bad.toml", "[words]\n", r"unknown section 'words'"),
    ("bad.toml", "[relations\n", r"bad\.toml: not valid TOML"),
    ("bad.json", '{"labels": {"Scholar": {"forward": ["x"]}}}', r"labels\.Scholar.*a list"),
    ("bad.yaml", "relations: {}", r"name a \.toml or \.json file"),
])
def test_malformed_lexicon_names_file_and_entry(tmp_path, name, text, says):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=says):
        read_lexicon(path)


def test_long_phrases_and_lists_are_cut_with_a_note(scholars_kuzu, cache, tmp_path):
    lex = tmp_path / "long.json"
    lex.write_text(json.dumps({"relations": {"BORN_IN": [f"born {i}" for i in range(20)]},
                               "labels": {"Scholar": ["s " * 60]}}), encoding="utf-8")
    with open_graph(f"{scholars_kuzu}?lexicon={lex}") as store:
        vocab = profile_graph(store).vocabulary
    assert len(vocab.phrases("BORN_IN", sources=["lexicon"])) == 12
    assert any("relations.BORN_IN" in n and "20 phrases, kept the first 12" in n
               for n in vocab.notes)
    assert any("labels.Scholar" in n and "cut to 80 characters" in n for n in vocab.notes)


def test_missing_lexicon_file_is_a_clear_error(scholars_kuzu, tmp_path):
    with pytest.raises(ConfigError, match=r"nope\.toml: not found"):
        open_graph(f"{scholars_kuzu}?lexicon={tmp_path / 'nope.toml'}")


# --------------------------------------------------------------------------- LLM compilation


def _words_reply(prompt: str, body: dict) -> str:
    """Phrases for every relation and label the prompt lists (and one name it did not ask)."""
    rels = re.findall(r"^- (.+?)  \(:", prompt, re.M)
    labs = re.findall(r"^- (.+?)  \d", prompt, re.M)
    lines = [f"relation {r} | {r.lower()} fwd; said {r.lower()} | {r.lower()} back"
             for r in rels]
    lines += [f"label {lab} | {lab.lower()} thing" for lab in labs]
    return "<phrases>\n" + "\n".join([*lines, "relation NOT_ASKED | x | y"]) + "\n</phrases>"


@pytest.fixture
def words_llm():
    stub = llm_stub.ChatStub(_words_reply).start()
    yield stub
    stub.stop()


def _wide_graph(path: Path, relations: int) -> str:
    rows = ["head,relation,tail"] + [f"Node {i},rel_{i:02d},Node {i + 1}"
                                     for i in range(relations)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return f"memory:{path}"


def test_llm_compiles_words_once_in_batches_and_caches_them(words_llm, cache, tmp_path):
    from byokg.models.llm import create_llm

    uri = _wide_graph(tmp_path / "wide.csv", 60)
    llm = create_llm("openai:test", base_url=words_llm.url, api_key="k", retries=0)
    with open_graph(uri) as store:
        vocab = profile_graph(store, llm=llm).vocabulary
    assert len(words_llm.prompts) == 2  # 60 relations and 1 label: 50 + 11
    assert vocab.compiled is not None and vocab.compiled.calls == 2
    assert vocab.compiled.relations == 60 and vocab.compiled.labels == 1
    assert any("NOT_ASKED" in w for w in vocab.compiled.warnings)
    fw = vocab.phrases("rel_07", sources=["llm"])
    assert [p.text for p in fw] == ["rel_07 fwd", "said rel_07"]
    assert [p.text for p in vocab.phrases("rel_07", inverse=True, sources=["llm"])] == [
        "rel_07 back"]
    # a second open (another process) reads the phrases from the cache: no call
    with open_graph(uri) as store:
        again = profile_graph(store, llm=llm)
    assert again.source == "cache" and len(words_llm.prompts) == 2
    assert again.vocabulary.phrases("rel_07", sources=["llm"]) == fw
    # a lexicon added later keeps them
    lex = tmp_path / "w.toml"
    lex.write_text('[relations]\nrel_07 = ["seventh"]\n', encoding="utf-8")
    with open_graph(f"{uri}?lexicon={lex}") as store:
        both = profile_graph(store).vocabulary
    assert [p.source for p in both.phrases("rel_07")][:3] == ["lexicon", "llm", "llm"]


def test_run_config_compiles_with_the_runs_llm(words_llm, cache, scholars_jsonl):
    cfg = RunConfig(llm="openai:test", compile_words=True,
                    llm_options={"base_url": words_llm.url, "api_key": "k", "retries": 0})
    with open_graph(scholars_jsonl) as store:
        engine = Engine(store, cfg)
        vocab = engine.profile.vocabulary
        assert vocab.compiled is not None and vocab.compiled.model == "openai:test"
        assert engine.profile is engine.profile  # compiled once, kept
    assert len(words_llm.prompts) == 1
    assert [p.text for p in vocab.phrases("place of birth", sources=["llm"])][:1] == [
        "place of birth fwd"]
    assert vocab.label_phrases("Town")[0].source == "llm"


def test_profile_command_compiles_and_shows_the_words(words_llm, cache, scholars_jsonl,
                                                     tmp_path, monkeypatch):
    from click.testing import CliRunner

    from byokg.cli import cli

    monkeypatch.setenv("OPENAI_BASE_URL", words_llm.url)
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    lex = tmp_path / "w.toml"
    lex.write_text('[labels]\nTown = ["hometown"]\n', encoding="utf-8")
    run = CliRunner().invoke(cli, ["profile", "--graph", scholars_jsonl, "--lexicon", str(lex),
                                   "--compile-words", "--llm", "openai:test"])
    assert run.exit_code == 0, run.output
    assert "compiled by openai:test: 2 relations, 3 labels in 1 call(s)" in run.output
    assert "(:Town)  hometown [lexicon], town thing [llm], town" in run.output
    assert "alias:   known as  — shares words with the display name" in run.output
    shown = CliRunner().invoke(cli, ["profile", "--graph", scholars_jsonl, "--json"])
    vocab = json.loads(shown.output)["vocabulary"]
    assert vocab["compiled"]["calls"] == 1 and len(words_llm.prompts) == 1  # from the cache
    bad = CliRunner().invoke(cli, ["profile", "--graph", scholars_jsonl, "--compile-words"])
    assert bad.exit_code != 0 and "--compile-words needs an LLM" in bad.output


# --------------------------------------------------------------------------- the cache


def test_cache_is_read_and_a_changed_lexicon_rebuilds_the_vocabulary(scholars_kuzu, cache,
                                                                     tmp_path):
    lex = tmp_path / "words.toml"
    lex.write_text('[relations]\nBORN_IN = ["native of"]\n', encoding="utf-8")
    uri = f"{scholars_kuzu}?lexicon={lex}"
    with open_graph(uri) as store:
        first = profile_graph(store)
    with open_graph(uri) as store:
        second = profile_graph(store)
    assert (first.source, second.source) == ("built", "cache")
    assert second.vocabulary == first.vocabulary
    lex.write_text('[relations]\nBORN_IN = ["hails from"]\n', encoding="utf-8")
    with open_graph(uri) as store:
        third = profile_graph(store)
    texts = [p.text for p in third.vocabulary.phrases("BORN_IN", sources=["lexicon"])]
    assert texts == ["hails from"]
    assert third.vocabulary.lexicon.digest != first.vocabulary.lexicon.digest
    with open_graph(scholars_kuzu) as store:  # no lexicon: none of its phrases
        assert profile_graph(store).vocabulary.phrases("BORN_IN", sources=["lexicon"]) == ()


# --------------------------------------------------------------------------- servers


@pytest.mark.server
@pytest.mark.parametrize("engine", ["bolt", "falkordb"])
def test_aliases_over_bolt_and_falkordb(engine, request, cache):
    """The Bolt and FalkorDB backends read the alias column in their node-name query."""
    from scholars import build_scholars_bolt
    from scholars import build_scholars_falkordb

    if engine == "bolt":
        pytest.importorskip("neo4j")
        uri = build_scholars_bolt(request.getfixturevalue("bolt_server"), "scholars")
    else:
        pytest.importorskip("falkordb")
        uri = build_scholars_falkordb(request.getfixturevalue("falkordb_server"), "scholars")
    with open_graph(uri) as store:
        assert profile_graph(store).label("Scholar").aliases == ("knownName",)
        names = {n for batch in store.iter_node_names() for _i, n in batch}
        assert {"Max Karl Ernst Ludwig Planck", "Max Planck"} <= names
        got = _link(store, "Max Planck")["Max Planck"].candidates
        assert (got[0].name, got[0].method) == ("Max Karl Ernst Ludwig Planck", "alias")
