"""The package's gzipped word tables (``byokg/data/*.txt.gz``, ``key<TAB>value`` a line), read
on first use and kept for the process: the modules that read words through them (the
thesaurus, the letters rule of :func:`~byokg.language.analysis.term_sim`) share one copy."""

from __future__ import annotations

import functools
import gzip
from importlib import resources


def _lines(file: str) -> list[str]:
    ref = resources.files("byokg.data").joinpath(file)
    return gzip.decompress(ref.read_bytes()).decode("utf-8").splitlines()


def read_table(file: str) -> dict[str, str]:
    """A ``key<TAB>value`` table of the package's data, gzipped."""
    return dict(line.split("\t", 1) for line in _lines(file) if "\t" in line)


def read_words(file: str) -> frozenset[str]:
    """A word-a-line list of the package's data, gzipped."""
    return frozenset(_lines(file))


@functools.lru_cache(maxsize=1)
def thesaurus_table() -> dict[str, str]:
    """WordNet lemma -> ``"word|word|…"``, or ``"=base"`` for an irregular form
    (``byokg/data/thesaurus.txt.gz``; about 20 ms)."""
    return read_table("thesaurus.txt.gz")
