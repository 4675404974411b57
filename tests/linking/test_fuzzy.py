"""Fuzzy name index: exact, alias, accent, typo, word order, longer mentions, spotting."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byokg.language.grams import fast_normalize
from byokg.language.grams import gram_codes
from byokg.language.grams import gram_table
from byokg.language.text import normalize
from byokg.linking.fuzzy import NameIndex


def top(index, mention, **kw):
    return index.search([mention], **kw)[0].candidates


# ---------------------------------------------------------------------- demo graph
@pytest.mark.parametrize(
    ("mention", "node", "method"),
    [
        ("Wynton Marsalis", "Wynton Marsalis", "exact"),
        ("  wynton   MARSALIS!", "Wynton Marsalis", "exact"),
        ("USA", "United States", "alias"),
        ("Great Britain", "United Kingdom", "alias"),
        ("Eire", "Ireland", "alias"),  # alias "Éire": accent-insensitive
        ("Reykjavik", "Reykjavík", "exact"),  # accents ignored: matches the name itself
        ("reykjavík", "Reykjavík", "exact"),
        ("Lodz", "Łódź", "alias"),
        ("Queen Bey", "Beyoncé", "alias"),
    ],
)
def test_demo_exact_alias_accent(demo_index, mention, node, method):
    c = top(demo_index, mention)
    assert c[0].id == node
    assert c[0].method == method
    assert c[0].score == 1.0


@pytest.mark.parametrize(
    ("mention", "node"),
    [
        ("Wynton Marsalls", "Wynton Marsalis"),  # one substitution
        ("Wyntn Marsalis", "Wynton Marsalis"),  # one deletion
        ("Wynotn Marsallis", "Wynton Marsalis"),  # transposition + insertion
        ("Branfrod Marsalis", "Branford Marsalis"),
        ("Marsalis Wynton", "Wynton Marsalis"),  # word order
        ("wynton marsalis trumpeter", "Wynton Marsalis"),  # longer than the name
        ("the jazz trumpeter Wynton Marsalis", "Wynton Marsalis"),
        ("Beyonse", "Beyoncé"),
    ],
)
def test_demo_fuzzy(demo_index, mention, node):
    c = top(demo_index, mention)
    assert c, f"no candidate for {mention!r}"
    assert c[0].id == node
    assert c[0].method == "fuzzy"
    assert 0.6 <= c[0].score < 1.0


def test_exact_always_wins(demo_index):
    c = top(demo_index, "Ellis Marsalis", top_k=5)
    assert c[0].id == "Ellis Marsalis Jr." and c[0].method == "alias"
    assert all(x.score < 1.0 and x.method == "fuzzy" for x in c[1:])
    assert [x.score for x in c[1:]] == sorted((x.score for x in c[1:]), reverse=True)


def test_grouping_order_top_k_and_min_score(demo_index):
    mentions = ["Marsalis Wynton", "USA", "zzzzqqqq", "", "Branford Marsalis"]
    got = demo_index.search(mentions, top_k=2)
    assert [g.mention for g in got] == mentions
    assert got[0].candidates[0].id == "Wynton Marsalis"
    assert got[1].candidates[0].id == "United States"
    assert got[2].candidates == () and got[3].candidates == ()
    assert all(len(g.candidates) <= 2 for g in got)
    strict = demo_index.search(["Marsalis Wynton"], top_k=5, min_score=0.95)[0]
    assert [c.id for c in strict.candidates] == ["Wynton Marsalis"]
    assert all(c.score >= 0.95 for c in strict.candidates)


def test_longer_mention_prefers_longer_name(demo_index):
    c = top(demo_index, "branford marsalis saxophonist", top_k=3)
    assert c[0].id == "Branford Marsalis"


# ---------------------------------------------------------------------- tiny Freebase
@pytest.mark.parametrize(
    ("mention", "method"),
    [
        ("wynton marsalis", "exact"),
        ("Wynton Marsalls", "fuzzy"),
        ("marsalis wynton", "fuzzy"),
        ("wynton marsalis trumpeter", "fuzzy"),
        ("Wynton  Marsalis.", "exact"),
    ],
)
def test_freebase_wynton(fb_index, mention, method):
    c = top(fb_index, mention)
    assert c[0].id == "Wynton Marsalis"
    assert c[0].method == method


def test_freebase_accent_and_typo(fb_index):
    c = top(fb_index, "Beyonce Knowles")
    assert c[0].name == "Beyoncé Knowles" and c[0].method == "exact"
    c = top(fb_index, "Beyonce Knowels")
    assert c[0].name == "Beyoncé Knowles" and c[0].method == "fuzzy"


def test_candidate_generation_is_bounded(fb_index):
    # the index scores a bounded candidate set, never every name
    cand = fb_index.candidate_keys(fast_normalize("new orleans"), limit=40)
    assert 0 < len(cand) <= 40 < len(fb_index)
    assert fb_index.lookup["new orleans"] in set(cand.tolist())


def test_spot(demo_index):
    text = "Where was Wynton Marsalis born, and is the USA bigger than the UK or Éire?"
    spots = demo_index.spot(text)
    by = {s.mention: s for s in spots}
    assert by["Wynton Marsalis"].ids == ("Wynton Marsalis",)
    assert by["Wynton Marsalis"].exact is True
    assert text[by["USA"].start:by["USA"].end] == "USA"
    assert by["USA"].ids == ("United States",)
    assert by["UK"].ids == ("United Kingdom",)
    assert by["Éire"].ids == ("Ireland",)
    assert "the" not in by and "is" not in by
    starts = [s.start for s in spots]
    assert starts == sorted(starts)


def test_spot_longest_non_overlapping():
    index = NameIndex.from_pairs([("ny", "New York"), ("nyc", "New York City"), ("c", "City"),
                                  ("the", "The"), ("us", "us")])
    spots = index.spot("I love new york city and the us")
    assert [(s.mention, s.ids) for s in spots] == [("new york city", ("nyc",))]
    assert spots[0].exact is False  # case differs from "New York City"
    assert [s.mention for s in index.spot("New York, then City")] == ["New York", "City"]


def test_several_nodes_share_a_name():
    index = NameIndex.from_pairs([("p1", "Paris"), ("p2", "Paris"), ("x", "Parish")])
    c = index.search(["paris"], top_k=3)[0].candidates
    assert {c[0].id, c[1].id} == {"p1", "p2"}
    assert c[0].method == c[1].method == "exact"
    assert c[2].id == "x" and c[2].method == "fuzzy"


def test_save_load_round_trip(tmp_path, demo_index):
    demo_index.save(tmp_path / "ix", store_uri="memory:demo")
    loaded = NameIndex.load(tmp_path / "ix", expect_fingerprint=demo_index.fingerprint)
    for m in ["Wynton Marsalls", "USA", "Marsalis Wynton", "Lodz"]:
        assert loaded.search([m]) == demo_index.search([m])
    with pytest.raises(Exception, match="stale"):
        NameIndex.load(tmp_path / "ix", expect_fingerprint="0-other")


# ---------------------------------------------------------------------- grams / normalise
@given(st.text(max_size=40))
def test_fast_normalize_matches_normalize(text):
    assert fast_normalize(text) == normalize(text)


def test_gram_table_matches_per_key_grams():
    keys = ["john smith", "smith john", "a", "né ö", "jo"]
    codes, ptr, post, per_key = gram_table(keys)
    for k, key in enumerate(keys):
        want = set(gram_codes(key).tolist())
        got = {int(codes[g]) for g in range(len(codes)) if k in post[ptr[g]:ptr[g + 1]]}
        assert got == want
        assert per_key[k] == len(want)
    # word order does not change the gram set
    assert np.array_equal(gram_codes("john smith"), gram_codes("smith john"))


@given(st.text(max_size=30), st.integers(min_value=1, max_value=5))
def test_search_any_text(text, k):
    index = NameIndex.from_pairs([("a", "Acme Corporation"), ("b", "Zürich"), ("c", "ß"),
                                  ("d", "東京"), ("e", "O'Brien")])
    (ml,) = index.search([text], top_k=k)
    assert ml.mention == text and len(ml.candidates) <= k
    assert all(0.0 <= c.score <= 1.0 for c in ml.candidates)
    exact = [c for c in ml.candidates if c.method in ("exact", "alias")]
    assert ml.candidates[:len(exact)] == tuple(exact)  # exact/alias come first
    index.spot(text)


def test_unicode_names():
    index = NameIndex.from_pairs([("t", "東京"), ("z", "Zürich"), ("o", "O'Brien")])
    assert index.search(["東京"])[0].candidates[0].id == "t"
    assert index.search(["zurich"])[0].candidates[0].method == "exact"
    assert index.search(["obrien"])[0].candidates[0].id == "o"  # fuzzy: "o brien" vs "obrien"


def test_initials_of_capitalised_names():
    from byokg.linking.fuzzy import NameIndex

    idx = NameIndex.from_pairs([("usa", "United States of America"), ("usd", "United States Dollar"),
                                ("wm", "Wynton Marsalis"), ("low", "the lower bank")])
    assert dict(idx.initials("USA")) == {"usa": True}
    assert dict(idx.initials("U.S.")) == {"usa": False, "usd": False}  # a prefix of both
    assert idx.initials("WM") == [("wm", True)]
    assert idx.initials("TLB") == []  # a name not written in capitals has no initials
    assert idx.initials("U") == []


def test_repair_mojibake_undoes_utf8_read_as_cp1252_and_keeps_the_rest():
    from byokg.language.text import repair_mojibake

    assert repair_mojibake("HagÃ¥tÃ±a") == "Hagåtña"
    assert repair_mojibake("UTC\xe2\x88\x9205:00") == "UTC−05:00"  # C1 bytes kept as Latin-1
    assert repair_mojibake("BeyoncÃ© â€” live") == "Beyoncé — live"
    # real accents, and runs that are not valid UTF-8, stay as written
    assert repair_mojibake("Ålesund, Ærø, naïve café") == "Ålesund, Ærø, naïve café"
    assert repair_mojibake("Ã alone") == "Ã alone"
