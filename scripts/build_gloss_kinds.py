"""Build ``byokg/data/gloss_kinds.txt.gz`` from ``byokg/data/glosses.txt.gz``: the nouns whose
WordNet gloss says they are somewhere or someone, by the lexicon's ``PLACE_GLOSS_WORDS`` and
``PERSON_GLOSS_WORDS``, and the nouns WordNet files under people
(``byokg/data/person_nouns.txt.gz``, from ``scripts/build_thesaurus.py``)
(:func:`byokg.language.thesaurus.mark_glosses`). A question then reads
this small table, not every gloss. Run it again after changing those words (a test checks
that the file matches them).

    python scripts/build_gloss_kinds.py
"""

from __future__ import annotations

import gzip
from pathlib import Path

from byokg.language.tables import read_words
from byokg.language.thesaurus import glosses
from byokg.language.thesaurus import mark_glosses

OUT = Path(__file__).resolve().parent.parent / "byokg" / "data" / "gloss_kinds.txt.gz"


def people() -> frozenset[str]:
    """The nouns WordNet files under people (``person_nouns.txt.gz``, a noun a line)."""
    return read_words("person_nouns.txt.gz")


def build() -> bytes:
    """The file's bytes: one ``noun<TAB>kind,kind`` line per noun, sorted; gzip without a
    timestamp, so the same glosses and words give the same bytes."""
    marked = mark_glosses(glosses(), people())
    text = "".join(f"{n}\t{marked[n]}\n" for n in sorted(marked))
    return gzip.compress(text.encode("utf-8"), mtime=0)


if __name__ == "__main__":
    got = build()
    OUT.write_bytes(got)
    nouns = len(gzip.decompress(got).splitlines())
    print(f"{OUT}: {nouns} nouns")
