"""The compact name index answers exactly like the plain one it replaced.

``reference_fuzzy.NameIndex`` is the index as it was (Python lists of strings, a dict per key and
per word). Both are built from the same generated pairs — aliases, accents, case, punctuation,
repeated names, a node whose pairs are not consecutive, names that normalise to nothing — and
must give the same spots, exact hits, fuzzy candidates with the same scores, word matches and
initials, also after a save and load and when built from a store that shares its node ids.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from byokg.backends.memory import MemoryGraph
from reference_fuzzy import NameIndex as Reference

from byokg.language.grams import fast_normalize
from byokg.linking.fuzzy import NameIndex
from byokg.linking.strings import StrArray

_FIRST = ["Anna", "Björn", "Zoë", "José", "Chloé", "Ming", "Ólafur", "Dmitri", "Ana", "Jean-Luc"]
_LAST = ["Smith", "Müller", "García", "O'Brien", "Nakamura", "Straße", "Dvořák", "Smyth", "Nguyen"]
_WORDS = ["River", "Bank", "North", "Institute", "of", "the", "Saint", "Lake", "Museum", "Art"]


def _pairs(n: int = 3000, seed: int = 7) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for i in range(n):
        kind = rng.random()
        if kind < 0.45:
            name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        elif kind < 0.75:
            name = " ".join(rng.choice(_WORDS).capitalize() if j % 2 == 0 else rng.choice(_WORDS)
                            for j in range(rng.randint(2, 5)))
        elif kind < 0.85:
            name = f"m.0{rng.getrandbits(30):x}"  # an unnamed node: its id
        elif kind < 0.9:
            name = str(rng.randint(1, 3000))
        else:
            name = rng.choice(["US", "UK", "C", "Go", "!!!", "", "École", "ÉCOLE", "U.S.A."])
        if rng.random() < 0.3:
            name = name.upper() if rng.random() < 0.5 else name.lower()
        nid = f"n{i}"
        out.append((nid, name))
        for _ in range(rng.choice([0, 0, 0, 1, 2])):  # aliases, some sharing other names
            out.append((nid, rng.choice([f"{rng.choice(_FIRST)} {rng.choice(_LAST)}",
                                         name.replace(" ", "-"), name + " (2)", ""])))
    out.insert(len(out) // 3, ("n5", "Late Alias of Five"))  # a node whose pairs are apart
    out.append(("n5", "Another Late Alias"))
    return out


def _mentions(pairs: list[tuple[str, str]], seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    names = [n for _i, n in pairs if n]
    out = []
    for _ in range(300):
        m = rng.choice(names)
        r = rng.random()
        if r < 0.3 and len(m) > 4:  # a typo
            j = rng.randrange(len(m) - 1)
            m = m[:j] + m[j + 1] + m[j] + m[j + 2:]
        elif r < 0.45:
            m = " ".join(reversed(m.split()))
        elif r < 0.55:
            m = m + " " + rng.choice(_WORDS)
        elif r < 0.6:
            m = "".join(m.split())
        out.append(m)
    return out + ["", "zzzz qqqq", "Smith", "the", "Straße", "strasse", "ecole", "US", "u.s.a"]


def _same(a: NameIndex, ref: Reference, pairs: list[tuple[str, str]]) -> None:
    mentions = _mentions(pairs)
    assert len(a) == len(ref.keys) and list(a.keys) == ref.keys
    assert [a.node_names[i] for i in range(len(ref.node_ids))] == ref.node_names
    assert [a.node_ids[i] for i in range(len(ref.node_ids))] == ref.node_ids
    assert list(a.vocab_list) == ref.vocab_list
    for k in ("tok_ptr", "tok_post", "vgram_codes", "vgram_ptr", "vgram_post", "vgram_count"):
        assert np.array_equal(a.tables[k], ref.tables[k]), k
    assert np.array_equal(a.key_weight, ref.key_weight)
    for kw in ({}, {"top_k": 5, "min_score": 0.3}, {"top_k": 1}, {"fuzzy": False, "top_k": 4}):
        assert a.search(mentions, **kw) == ref.search(mentions, **kw), kw
    for m in mentions:
        key = fast_normalize(m)
        assert a.exact(m) == ref.exact(m)
        assert a.lookup.get(key) == ref.lookup.get(key)
        assert a.fuzzy_keys(key, limit=40) == ref.fuzzy_keys(key, limit=40)
        assert np.array_equal(a.candidate_keys(key, limit=20), ref.candidate_keys(key, limit=20))
        for t in key.split():
            assert a.token_matches(t) == ref.token_matches(t)
    rng = random.Random(5)
    names = [n for _i, n in pairs if n]
    for _ in range(100):
        text = f"Was {rng.choice(names)} born in {rng.choice(names)} or the US, C++ or Go?"
        assert [s.model_dump() for s in a.spot(text)] == [s.model_dump() for s in ref.spot(text)]
    for acr in ("US", "USA", "U.S.", "AS", "RB", "NI", "MA", "X", "ZZ"):
        assert a.initials(acr) == ref.initials(acr), acr


@pytest.fixture(scope="module")
def pairs() -> list[tuple[str, str]]:
    return _pairs()


@pytest.fixture(scope="module")
def reference(pairs) -> Reference:
    return Reference.from_pairs(pairs)


def test_compact_index_answers_like_the_reference(pairs, reference):
    index = NameIndex.from_pairs(pairs)
    assert isinstance(index.node_ids, StrArray)  # no store to share ids with
    assert index.fingerprint == reference.fingerprint and index.count == reference.count
    _same(index, reference, pairs)


def test_saved_and_loaded_index_answers_like_the_reference(pairs, reference, tmp_path):
    NameIndex.from_pairs(pairs).save(tmp_path / "ix")
    loaded = NameIndex.load(tmp_path / "ix", expect_fingerprint=reference.fingerprint)
    _same(loaded, reference, pairs)


def test_index_from_a_memory_store_shares_its_node_ids(tmp_path):
    rng = random.Random(11)
    triplets, names = [], {}
    for i in range(2000):
        triplets.append((f"e{i}", "rel", f"e{rng.randrange(2000)}"))
        if rng.random() < 0.8:
            names[f"e{i}"] = f"{rng.choice(_FIRST)} {rng.choice(_LAST)} {rng.choice(_WORDS)}"
    g = MemoryGraph.from_triplets(triplets, names=names)
    pairs = [p for batch in g.iter_node_names() for p in batch]
    reference = Reference.from_pairs(pairs)
    index = NameIndex.from_store(g)
    assert index.node_ids is g.csr().ids  # the store's list itself, not a copy
    _same(index, reference, pairs)
    index.save(tmp_path / "ix")
    again = NameIndex.load(tmp_path / "ix", store=g)
    assert again.node_ids is g.csr().ids
    _same(again, reference, pairs)
    other = MemoryGraph.from_triplets(list(reversed(triplets)), names=names)  # other order
    moved = NameIndex.load(tmp_path / "ix", store=other)
    assert isinstance(moved.node_ids, StrArray)  # ids read from disk: the store's differ
    _same(moved, reference, pairs)


def test_format_1_index_on_disk_is_rebuilt(tmp_path):
    import json

    from byokg.linking.indexes import get_name_index
    from byokg.models.services import Services

    g = MemoryGraph.from_triplets([("a", "r", "b")], uri="memory:/x/g.csv")
    folder = tmp_path / "names"
    folder.mkdir()
    (folder / "names.json").write_text("{}")
    (folder / "manifest.json").write_text(json.dumps(
        {"kind": "names", "format": 1, "byokg_version": "0", "count": 2, "fingerprint": "x"}))
    from byokg.config import slug

    (tmp_path / slug("memory:/x/g.csv")).mkdir()
    (folder).rename(tmp_path / slug("memory:/x/g.csv") / "names")
    index = get_name_index(g, Services(), index_dir=tmp_path)
    assert index.status.startswith("rebuilt: format: index has 1, expected 2")
    assert not (tmp_path / slug("memory:/x/g.csv") / "names" / "names.json").exists()
    again = get_name_index(g, Services(), index_dir=tmp_path)
    assert again.status == "loaded" and again.search(["a"])[0].candidates[0].id == "a"


def test_chunked_gram_table_equals_the_whole_one():
    from byokg.language.grams import gram_table
    from byokg.linking.fuzzy import _gram_table

    rng = random.Random(2)
    words = list(dict.fromkeys("".join(rng.choice("abcdé東 ") for _ in range(rng.randint(1, 9)))
                               .strip() or "x" for _ in range(3000)))
    whole = gram_table(words)
    for chunk in (1, 97, 5000):
        for a, b in zip(gram_table(words), _gram_table(StrArray.from_strings(words), chunk=chunk),
                        strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
    assert len(whole[2]) > 0


def test_interning_survives_a_hash_collision(monkeypatch):
    """Two different strings with one hash are never merged: the next multiplier is tried."""
    from byokg.linking import strings as S

    real = S.hash_strings

    def colliding(sa, seed=0):
        h = real(sa, seed)
        return np.zeros_like(h) if seed == 0 else h  # every string collides under seed 0

    monkeypatch.setattr(S, "hash_strings", colliding)
    words = ["a", "b", "a", "", "héllo", "b", "c"]
    number, first, _h, seed = S.intern(StrArray.from_strings(words))
    assert seed == 1 and number.tolist() == [0, 1, 0, 2, 3, 1, 4] and first.tolist() == [0, 1, 3, 4, 6]


def test_key_weights_in_slices_equal_one_bincount():
    """The keys' IDF sums, added slice by slice, equal one ``bincount`` to the last bit."""
    from byokg.linking.fuzzy import _key_weight

    rng = np.random.default_rng(0)
    df = rng.integers(0, 40, 4000)
    ptr = np.zeros(len(df) + 1, np.int64)
    np.cumsum(df, out=ptr[1:])
    post = rng.integers(0, 2500, int(ptr[-1])).astype(np.int32)
    idf = rng.random(len(df)) * 7
    whole = np.bincount(post, weights=np.repeat(idf, df), minlength=2500)
    for step in (1, 37, 1 << 22):
        assert np.array_equal(_key_weight(ptr, post, idf, 2500, step=step), whole)
