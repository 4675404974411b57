"""Constraints the offline reasoner checks in the graph: a second entity met through a hub says
little, place adjectives name their place, and follow-paths keeps the proposer's best chain
first under its token budget. Graphs written by the tests."""

from __future__ import annotations

import json

from byokg.contracts import Path
from byokg.graph.open import open_graph
from byokg.pipeline.engine import Engine


def _graph(path, triples):
    with open(path, "w", encoding="utf-8") as fh:
        for h, r, t in triples:
            fh.write(json.dumps({"head": h, "relation": r, "tail": t}) + "\n")
    return open_graph(f"memory:{path}")


def test_a_hub_next_to_everything_does_not_win_a_conjunction(tmp_path):
    """*Aaland* is where every town is, so being in the Amber Zone *and* on the river says
    nothing about it; *Dorset* meets both constraints on its own. Alphabetical ties would pick
    the hub."""
    triples = [(f"Town {i}", "partOf", "Aaland") for i in range(400)]
    triples += [("Kell River", "flowsThrough", "Aaland"), ("Kell River", "flowsThrough", "Dorset"),
                ("Kell River", "flowsThrough", "Brill"), ("Aaland", "inZone", "Amber Zone"),
                ("Dorset", "inZone", "Amber Zone"), ("Brill", "inZone", "Coral Zone"),
                ("Dorset", "partOf", "Aaland")]
    eng = Engine(_graph(tmp_path / "rivers.jsonl", triples))
    a = eng.ask("What does the Kell River flow through in the Amber Zone?")
    assert a.answers[:1] == ["Dorset"], a.answers


def test_place_adjective_names_the_place(tmp_path):
    """"Northern Avalonian" is the node *Northern Avalonia*: only Zellin is there, and it
    sorts last among the currency's users."""
    triples = [("Ruvel", "usedBy", c) for c in ("Abbot", "Brisk", "Zellin")]
    triples += [("Zellin", "locatedIn", "Northern Avalonia"), ("Abbot", "locatedIn", "Southern Marsh"),
                ("Brisk", "locatedIn", "Southern Marsh")]
    eng = Engine(_graph(tmp_path / "currency.jsonl", triples))
    a = eng.ask("Which Northern Avalonian country uses the Ruvel?")
    assert a.answers[:1] == ["Zellin"], a.answers
    linked = {m.mention for ms in a.trace.links for m in ms}
    assert "Northern Avalonian" in linked


def test_follow_paths_orders_equal_walks_by_the_proposers_rating():
    from byokg.plugins.paths import _path_order

    walks = [Path(nodes=("x", "a"), relations=("r1",)), Path(nodes=("x", "b"), relations=("r2",)),
             Path(nodes=("x", "c", "d"), relations=("r3", "r4"))]
    # complete walks first; among them the better-rated relation path, whatever the node ids
    assert _path_order(walks, [1.0, 1.0, 0.5], rated=[0.1, 0.9, 2.0]) == [1, 0, 2]
    # without ratings: the end's rank, then ids (the LLM path's order is unchanged)
    assert _path_order(walks, [1.0, 1.0, 0.5], tails=[0.0, 0.5, 0.0]) == [1, 0, 2]
    assert _path_order(walks, [1.0, 1.0, 0.5]) == [0, 1, 2]


def test_a_shared_year_is_not_a_shared_publisher(tmp_path):
    """Books first published the same year as X meet by coincidence: "the books published by
    the publisher of X" goes through the publisher, not through the year."""
    triples = []
    for i in range(6):
        book, year = f"Tale {i}", str(1990 + i % 2)
        triples += [(book, "publishedBy", f"House {i % 3}"), (book, "firstPublished", year),
                    (f"Writer {i}", "wrote", book)]
    eng = Engine(_graph(tmp_path / "books.jsonl", triples))
    a = eng.ask("Who wrote the books published by the publisher of Tale 0?")
    # Tale 3 shares Tale 0's publisher (House 0); Tale 2 and Tale 4 only its year
    assert a.answers[:1] == ["Writer 3"], a.answers
    chain = next(e.data["chain"] for e in a.trace.events if e.source == "offline-answer")
    assert chain.startswith("publishedBy"), chain


def test_a_name_after_a_lower_case_article_is_still_a_name(tmp_path):
    """"the Silver Realm" is written with a lower-case article before the name *The Silver
    Realm*: it is spotted as a capitalised name (and so constrains the answer), not dropped like
    the common word "language"."""
    triples = [("Common Tongue", "spokenIn", "Norvia"), ("Old Speech", "spokenIn", "Norvia"),
               ("Old Speech", "foundInUniverse", "The Silver Realm"),
               ("Common Tongue", "foundInUniverse", "Dust World"), ("Old Speech", "kind", "Language"),
               ("Common Tongue", "kind", "Language")]
    eng = Engine(_graph(tmp_path / "realm.jsonl", triples))
    a = eng.ask("What language is spoken in Norvia and in the fictional universe the Silver Realm?")
    linked = {m.mention for ms in a.trace.links for m in ms}
    assert "the Silver Realm" in linked, linked
    assert a.answers[:1] == ["Old Speech"], a.answers


def test_acronyms_link_to_the_name_they_clearly_abbreviate(tmp_path):
    """"UPK" and "U.P." name *United Provinces of Kell* (the best-connected node with those
    initials); "RS" is left unlinked because two names abbreviate to it about equally."""
    triples = [(f"Town {i}", "locatedIn", "United Provinces of Kell") for i in range(30)]
    triples += [("United Provinces of Kell", "timeZone", "Amber Time"),
                ("United Post Office", "locatedIn", "Tarn"),
                ("Red Sea", "borders", "Tarn"), ("Rock Spring", "borders", "Tarn")]
    eng = Engine(_graph(tmp_path / "kell.jsonl", triples))
    for q in ("Which time zone is the UPK in?", "Which time zone is the U.P. in?"):
        a = eng.ask(q)
        assert a.answers[:1] == ["Amber Time"], (q, a.answers)
    a = eng.ask("What borders the RS?")
    linked = {m.mention for ms in a.trace.links for m in ms}
    assert "RS" not in linked


def test_a_question_with_mojibake_is_read_as_utf8_and_the_trace_says_so(tmp_path):
    triples = [("Hagåtña", "capitalOf", "Guam"), ("Guam", "partOf", "Oceania"),
               ("Tumon", "capitalOf", "Saipan")]
    eng = Engine(_graph(tmp_path / "guam.jsonl", triples))
    a = eng.ask("Hag\u00c3\u00a5t\u00c3\u00b1a is the capital of what?")
    assert a.answers[:1] == ["Guam"], a.answers
    ev = next(e for e in a.trace.events if "repaired" in e.message)
    assert ev.data["read"] == "Hagåtña is the capital of what?"
    assert "\u00c3" in ev.data["asked"]


def test_a_long_name_is_spotted_whole(tmp_path):
    """A name of nine words is spotted as one entity (not cut into shorter names)."""
    name = "The Old Stone Bridge of the River Kell at Dunmore"
    triples = [(name, "crosses", "River Kell"), ("River Kell", "flowsThrough", "Dunmore"),
               ("Old Stone", "madeOf", "Granite")]
    eng = Engine(_graph(tmp_path / "bridge.jsonl", triples))
    a = eng.ask(f"What does {name} cross?")
    linked = {m.mention for ms in a.trace.links for m in ms}
    assert name in linked, linked
    assert a.answers[:1] == ["River Kell"], a.answers


def test_a_word_naming_the_mentions_own_label_is_not_a_relation_to_say(tmp_path):
    """"the Reef *group*": the word names Reef's label, not a relation to follow; and the
    items' ``groupCode`` (the group's number, shared by them all) or ``supplierCode`` (text)
    is a value, not one of the *items* or *suppliers* asked for (the type word names a
    label)."""
    rows = [{"id": "g1", "name": "Reef", "labels": ["Group"], "properties": {"groupCode": 8}},
            {"id": "g2", "name": "Dunes", "labels": ["Group"], "properties": {"groupCode": 3}},
            {"id": "s1", "name": "Coral Trading", "labels": ["Supplier"],
             "properties": {"region": "North Coast"}}]
    for i, (name, g) in enumerate([("Kelp Crisps", "g1"), ("Pearl Broth", "g1"),
                                   ("Sand Bread", "g2")]):
        rows.append({"id": f"i{i}", "name": name, "labels": ["Item"],
                     "properties": {"groupCode": 8 if g == "g1" else 3, "price": 4 + i,
                                    "supplierCode": "CORAL"}})
        rows.append({"head": f"i{i}", "relation": "PART_OF", "tail": g})
        rows.append({"head": "s1", "relation": "SUPPLIES", "tail": f"i{i}"})
    for j, (cust, code) in enumerate([("Berg Foods", "BERGS"), ("Lakeside Deli", "LAKED")]):
        rows.append({"id": f"c{j}", "name": cust, "labels": ["Customer"],
                     "properties": {"customerCode": code}})
        rows.append({"id": f"o{j}", "labels": ["Purchase"],
                     "properties": {"customerCode": code, "orderNo": 100 + j,
                                    "shipRegion": "Harbor Bay"}})
        rows.append({"head": f"c{j}", "relation": "PLACED", "tail": f"o{j}"})
        rows.append({"head": f"o{j}", "relation": "ORDERS", "tail": "i1"})
    path = tmp_path / "shop.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    eng = Engine(open_graph(f"memory:{path}"))
    a = eng.ask("Which items are in the Reef group?")
    assert sorted(a.answers) == ["Kelp Crisps", "Pearl Broth"], a.answers
    a = eng.ask("Which suppliers supply Pearl Broth?")  # not the item's supplierCode text
    assert a.answers == ["Coral Trading"], a.answers
    # the customers, not the purchases' customerCode text, nor the purchases themselves
    a = eng.ask("Which customers ordered Pearl Broth?")
    assert sorted(a.answers) == ["Berg Foods", "Lakeside Deli"], a.answers
    # "the *supplier* of Pearl Broth": Pearl Broth is no supplier, so the word says a relation
    a = eng.ask("Which region is the supplier of Pearl Broth in?")
    assert a.answers[:1] == ["North Coast"], a.answers


def test_a_node_both_entities_reach_keeps_its_chains_type(tmp_path):
    """"Which company is headquartered in Niliford and makes batteries?" on a graph without
    labels: *Abel Industries* owns another firm, so its edges name it a parent company (the
    type word's noun); *Sali Holdings*, the one that makes batteries, only has a parent,
    which says nothing either way. Meeting both constraints, it is not outranked by a
    company its edges happen to name (an alphabetical tie before)."""
    triples = [("Abel Industries", "headquarters", "Niliford"),
               ("Sali Holdings", "headquarters", "Niliford"),
               ("Kota Group", "headquarters", "Niliford"),
               ("Mora Works", "headquarters", "Tawateburg"),
               ("Tiva Group", "headquarters", "Tawateburg"),
               ("Kota Group", "parent_company", "Abel Industries"),
               ("Sali Holdings", "parent_company", "Tiva Group"),
               ("Mora Works", "parent_company", "Tiva Group"),
               ("Sali Holdings", "products", "batteries"),
               ("Mora Works", "products", "batteries"),
               ("Abel Industries", "products", "turbines"),
               ("Kota Group", "products", "pianos")]
    eng = Engine(_graph(tmp_path / "firms.jsonl", triples))
    a = eng.ask("Which company is headquartered in Niliford and makes batteries?")
    assert a.answers[:1] == ["Sali Holdings"], a.answers


def test_what_noun_a_subject_has(tmp_path):
    """"What illness does the patients living in Hiri have?": the patients are a step on the
    way; *illness* (asked as what they have) says ``diagnosis``, not ``medication``."""
    triples = [("Ana Reyes", "domicile", "Hiri"), ("Ben Okafor", "domicile", "Hiri"),
               ("Cleo Marsh", "domicile", "Tarn"), ("Ana Reyes", "diagnosis", "asthma"),
               ("Ben Okafor", "diagnosis", "insomnia"), ("Cleo Marsh", "diagnosis", "gout"),
               ("Ana Reyes", "medication", "codeine"), ("Ben Okafor", "medication", "zinc"),
               ("Ana Reyes", "physician", "Dara Voss"), ("Ben Okafor", "physician", "Dara Voss")]
    eng = Engine(_graph(tmp_path / "clinic.jsonl", triples))
    a = eng.ask("What illness does the patients living in Hiri have?")
    assert set(a.answers[:2]) == {"asthma", "insomnia"}, a.answers
