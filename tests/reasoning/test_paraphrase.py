"""The paraphrase graphs (benchmarks/paraphrase_graphs.py) and the offline reasoner on them:
the splits share no relation name and no phrasing, gold answers come from the graph, and
paraphrases of relations that never share a word with the relation's name are answered (a
typed family graph of our own in several naming styles)."""

from __future__ import annotations

import itertools

import pytest

from benchmarks import paraphrase_graphs as pg
from byokg import graph_from_triplets
from byokg.pipeline.engine import Engine


def _phrasings(split: str) -> set[str]:
    return {t for d in pg.SPLITS[split] for r in pg.DOMAINS[d].rels
            for t in (*r.np, *r.ask, *r.clause, *r.np_back, *r.ask_back)}


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(pg.SPLITS, 2)))
def test_the_splits_share_no_relation_name_and_no_phrasing(a, b):
    assert not pg.relation_names(a) & pg.relation_names(b)
    assert not _phrasings(a) & _phrasings(b)
    styles = {v.style for v in pg.variants(per_kind=0)}
    assert styles == set(pg.STYLES)  # every naming style is rendered


@pytest.mark.parametrize("v", [*pg.variants("blind", per_kind=16),
                               *pg.variants("blind2", per_kind=16),
                               *pg.variants("blind3", per_kind=16),
                               *pg.variants("blind4", per_kind=16),
                               *pg.variants("blind5", per_kind=16),
                               *pg.variants("blind6", per_kind=16),
                               *pg.variants("blind7", per_kind=16),
                               *pg.variants("blind8", per_kind=16),
                               *pg.variants("blind9", per_kind=16)], ids=lambda v: v.name)
def test_every_blind_variant_asks_every_kind_with_gold_answers(v):
    """The blind splits (written without reading the reasoning code) are only counted: every
    variant has questions of all four kinds, each with a gold answer."""
    assert {q.kind for q in v.questions} == {"1hop", "2hop", "3hop", "conj"}
    assert all(q.answers for q in v.questions)


def test_an_unknown_split_is_refused():
    with pytest.raises(ValueError, match="holdout"):
        pg.variants("heldout")


def test_gold_answers_are_walked_in_the_graph():
    v = pg.variant("family", "upper", True, False, per_kind=6)
    facts = {(h, r, t) for h, r, t in v.triples}
    rel = {r.key: r.name("upper", "kin") for r in pg.FAMILY.rels}
    kinds = {q.kind for q in v.questions}
    assert kinds == {"1hop", "2hop", "3hop", "conj"}
    for q in v.questions:
        if q.kind != "1hop":
            continue
        (key, back), = q.hops
        for a in q.answers:
            edge = (a, rel[key], q.topic[0]) if back else (q.topic[0], rel[key], a)
            assert edge in facts, (q.text, a)


def test_underscored_variants_write_ids_and_spaced_possessives():
    v = pg.variant("family", "dotted", False, True, per_kind=6)
    assert all(" " not in h for h, _r, _t in v.triples)
    assert all(r.startswith("kin.person.") or r.startswith("kin.city.") for _h, r, _t in v.triples)
    assert any(" 's " in q.text for q in v.questions)
    assert all(q.text == q.text.lower() and not q.text.endswith(("s?", "e?", "n?"))
               for q in v.questions)


# --------------------------------------------------------------------------- paraphrases

PEOPLE = [("Vera Lind", "female", "pilot", "malaria"), ("Omar Cast", "male", "chemist", "stroke"),
          ("Juno Acht", "male", "architect", "influenza"),
          ("Pia Moss", "female", "surgeon", "pneumonia")]
# (person, city of birth, city of residence, faith, nation)
MORE = [("Vera Lind", "Sorvik", "Dunmere", "buddhism", "Estovia"),
        ("Omar Cast", "Valemont", "Dunmere", "judaism", "Galvania"),
        ("Juno Acht", "Dunmere", "Sorvik", "buddhism", "Estovia"),
        ("Pia Moss", "Kestrel Bay", "Sorvik", "islam", "Hesperia")]


def _family_triples(style: str) -> list[tuple[str, str, str]]:
    """Vera and Omar are married; Juno is their son; Pia is Juno's wife; nine relations."""
    names = {"spouse": {"snake": "spouse", "camel": "spouse", "upper": "MARRIED_TO"},
             "children": {"snake": "children", "camel": "hasChild", "upper": "PARENT_OF"},
             "gender": {"snake": "gender", "camel": "gender", "upper": "HAS_GENDER"},
             "profession": {"snake": "profession", "camel": "occupation", "upper": "WORKS_AS"},
             "cause_of_death": {"snake": "cause_of_death", "camel": "causeOfDeath",
                                "upper": "DIED_OF"},
             "birthplace": {"snake": "place_of_birth", "camel": "birthPlace", "upper": "BORN_IN"},
             "residence": {"snake": "residence", "camel": "livesIn", "upper": "LIVES_IN"},
             "religion": {"snake": "religion", "camel": "faith", "upper": "PRACTICES"},
             "nationality": {"snake": "nationality", "camel": "citizenOf",
                             "upper": "CITIZEN_OF"}}
    n = {k: v[style] for k, v in names.items()}
    triples = [("Vera Lind", n["spouse"], "Omar Cast"), ("Omar Cast", n["spouse"], "Vera Lind"),
               ("Juno Acht", n["spouse"], "Pia Moss"), ("Pia Moss", n["spouse"], "Juno Acht"),
               ("Vera Lind", n["children"], "Juno Acht"), ("Omar Cast", n["children"], "Juno Acht")]
    for person, gender, job, death in PEOPLE:
        triples += [(person, n["gender"], gender), (person, n["profession"], job),
                    (person, n["cause_of_death"], death)]
    for person, born, home, faith, nation in MORE:
        triples += [(person, n["birthplace"], born), (person, n["residence"], home),
                    (person, n["religion"], faith), (person, n["nationality"], nation)]
    return triples


def _family(style: str):
    return Engine(graph_from_triplets(_family_triples(style), uri=f"memory:family-{style}"))


@pytest.mark.parametrize("style", ["snake", "camel", "upper"])
def test_alternatives_the_question_lists(style, installed):
    """"a man or a woman": the relation's name (``gender``, ``HAS_GENDER``) shares no word
    with the question; the chain through the spouse and the answer saying one of the listed
    alternatives ("female" for "woman") decide."""
    assert _family(style).ask("Is Juno Acht 's spouse a man or a woman?").answers[:1] == [
        "female"]


@pytest.mark.parametrize("style", ["snake", "camel", "upper"])
def test_a_verb_for_a_noun_relation(style, monkeypatch):
    """"what killed … partner": *killed* says ``cause_of_death`` / ``DIED_OF`` by meaning,
    *partner* says ``spouse`` / ``MARRIED_TO`` (core install)."""
    import byokg.models.embedders as emb

    monkeypatch.setattr(emb, "minilm_available", lambda: False)
    assert _family(style).ask("What killed Juno Acht 's partner?").answers[:1] == ["pneumonia"]


@pytest.mark.parametrize("style", ["snake", "camel", "upper"])
def test_the_job_of_a_son(style, installed, request):
    """"the job of X 's son": *son* says ``children`` through its general noun, *job* (the
    type word asked as an attribute) says the profession relation."""
    if installed == "minilm" and style == "upper":
        request.applymarker(pytest.mark.xfail(
            strict=False, reason="MiniLM puts 'job' near 'works as' (WORKS_AS) at 0.11 only, "
            "and the chain through LIVES_IN ties it"))
    assert _family(style).ask("What is the job of Omar Cast 's son?").answers[:1] == [
        "architect"]


def test_a_third_hop_beyond_the_best_four_two_hop_chains(installed):
    """"Which country is the site the employees of Marketing works from in?" (a fit-split
    graph): the two-hop chain the third hop extends (the department's people, their office)
    is not among the four best two-hop chains when the walk chooses what to extend, so it
    takes the walk's cap of eight (``WalkCaps.prefixes_3``) to reach the country at all."""
    from byokg.plugins.offline.weights import WEIGHTS

    assert WEIGHTS.caps.prefixes_3 >= 8
    v = pg.variant("workplace", "camel", True, False)
    q = next(q for q in v.questions
             if q.text == "Which country is the site the employees of Marketing works from in?")
    a = Engine(v.store()).ask(q.text)
    assert a.answers, a
    first = (a.answer_ids.get(a.answers[0]) or [a.answers[0]])[0]
    assert first in q.answers, (a.answers[:3], a.evidence[0].text if a.evidence else None)


@pytest.mark.xfail(strict=True, reason="an idiom: neither the static model nor MiniLM puts "
                   "'other half' near 'spouse', and nothing else in the question says it "
                   "(the owner's lexicon can: see below)")
def test_other_half_is_not_understood_yet(installed):
    """Understood means read as ``spouse``. With MiniLM the answer is Omar Cast all the same,
    through the child the two share (``children`` out and back: "other" asks for sharing);
    the core install answers their son."""
    a = _family("snake").ask("Who is Vera Lind 's other half?")
    assert a.answers[:1] == ["Omar Cast"]
    assert a.evidence[0].text.startswith("Vera Lind -> spouse -> Omar Cast"), a.evidence[0].text


def test_the_owners_lexicon_teaches_an_idiom(tmp_path, monkeypatch):
    """What no model reads, the graph's owner writes once: a lexicon entry "other half" for
    ``spouse`` reaches the offline scorer through the profile's vocabulary."""
    import json

    import byokg.models.embedders as emb
    from byokg.graph.open import open_graph

    monkeypatch.setattr(emb, "minilm_available", lambda: False)
    graph = tmp_path / "family.jsonl"
    graph.write_text("".join(json.dumps({"head": h, "relation": r, "tail": t}) + "\n"
                             for h, r, t in _family_triples("snake")), encoding="utf-8")
    lex = tmp_path / "words.toml"
    lex.write_text('[relations.spouse]\nforward = ["other half"]\nbackward = ["other half"]\n',
                   encoding="utf-8")
    with open_graph(f"memory:{graph}?lexicon={lex}") as store:
        got = Engine(store).ask("Who is Vera Lind 's other half?")
    assert got.answers[:1] == ["Omar Cast"], got.answers
