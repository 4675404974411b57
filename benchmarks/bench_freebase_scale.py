"""Freebase-size graph in memory: load time, peak RSS, profile time and offline answering.

The paper answers WebQSP and CWQ over Freebase graphs of 16.3M and 35.3M triplets. This section
writes a graph of Freebase's *shape* at ``scale`` triplets (35M for the paper's CWQ graph) as a
plain ``head,relation,tail`` CSV, then, in a fresh process, loads it with the memory backend,
profiles it and answers generated questions offline.

Shape (see :func:`generate`): about 20 entity types with names (people, films, places,
organisations …), dotted ``domain.type.property`` relations (about 60 core ones plus a long tail
of rarely used ones, ~3,000 in all), CVT-like unnamed ``m.0…`` nodes carrying n-ary facts
(marriages, film performances, employment, populations …) with 2–4 edges each, hubs (two
genders with most people, ~250 countries led by one with a large share, notable types on half
of the entities), literal tails (dates, years, numbers), inverse relation pairs
(``contains``/``containedby``), names that share words and repeat with "(2)" suffixes.

Questions are made from the written graph, so their gold answers are known: one-hop ("What is
the place of birth of X?", every tail of that head and relation is gold), through a CVT ("What
is the actor of the starring of X?") and literal ones ("What is the date of birth of X?").

Metrics: ``load_s`` / ``load_cpu_s`` / ``rss_mb`` (resident growth of the loaded graph) /
``peak_rss_mb`` (high-water mark of the whole child process, all phases) / ``profile_s`` /
``name_index_s`` / ``name_index_cpu_s`` / ``name_index_rss_mb`` / ``name_index_peak_rss_mb`` (the linking name index
over every node, which the first question would otherwise build, and saved into a fresh cache
folder: ``name_index_status`` is ``built``) / ``first_question_s`` / ``first_question_rss_mb``
(the first offline question: relation-name vectors and other lazy state; resident after it) /
``end_rss_mb`` (resident after the last question) /
``offline_p50_ms`` / ``offline_p95_ms`` (the questions after the first) with the median per
pipeline stage (``stage_p50_ms_*``) / ``hit_at_1`` (strict exact match of the first answer) and
the load average (``uptime``) beside each phase, since the
machine's CPUs may be shared.

Run: ``python -m benchmarks.perf --only freebase_scale --scale 35000000 --json OUT`` or
``python -m benchmarks.bench_freebase_scale --scale 35000000 [--data-dir DIR] [--questions N]``
(``--data-dir`` keeps the generated files and reuses them on the next run of the same scale).
The 35M CSV is about 2.4 GB; generating it takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

GENERATOR_VERSION = 1
REFERENCE = {
    "load_s": {"goal": 60.0, "unit": " s", "note": "goals are for 35M triplets"},
    "peak_rss_mb": {"goal": 4096.0, "unit": " MB", "note": "whole process, all phases"},
    "offline_p50_ms": {"goal": 200.0, "unit": " ms"},
}

# ----------------------------------------------------------------------------- vocabularies
_FIRST = (
    "Anna Ben Clara David Elena Frank Grace Henry Iris Jack Karen Leo Maria Noah Olivia Paul "
    "Quinn Rosa Sam Tara Umar Vera Will Xena Yusuf Zoe Adam Beth Carl Dina Emil Fiona George "
    "Hana Ivan Julia Kofi Lena Marco Nina Oscar Priya Raj Sara Tom Uma Victor Wen Yara Zack "
    "Alice Bruno Chloe Diego Eva Felix Gita Hugo Ines Jonas Kira Luis Mia Nils Omar Petra Ravi "
    "Sofia Theo Ulla Vito Wanda Yuki Zara Aaron Bea Cyrus Daria Ezra Freya Gus Hilda Igor June "
    "Kai Lars Mona Nora Otto Pia Rita Sven Tess Ugo Vik Wilma Axel Bodil Cato Dag Edda Finn"
).split()
_ROOT = (
    "Harbor River Oak Maple Summit Pine Cedar Stone Bridge Meadow Valley Spring Brook Hill Glen "
    "Ash Elm Willow Birch Falcon Raven Eagle Silver Golden Iron Copper Crystal Amber Coral Ivy "
    "Rose Thorn Haven Crest Ridge Field Wood Dale Marsh Bay Shore Cliff Rock Sand Snow Frost Sun "
    "Moon Star Cloud Storm Wind Fair Green Red Black White Blue Grey Clear Bright Ever Key Mill "
    "King Queen Bishop Abbey Castle Tower Gate Cross Well Ford Point Island Cove Lark Wren Heath"
).split()
_SUFFIX = ["", "son", "berg", "ford", "man", "ley", "ton", "wood", "stein", "field", "more"]
_INITIAL = [f" {c}." for c in "ABCDEFGHJKLMNPRSTW"]
_PREFIX = "North South East West New Old Upper Lower Great Little Saint Port Fort Mount".split()
_ORG = ("Bank Records Press Hospital Museum Company Group Club Theatre Library Institute "
        "Foundation Orchestra Studios Hotel Railway Academy Gazette Brewery Council Partners "
        "Motors Airlines Systems Pictures Publishing").split()
_PLACEKIND = "City Springs Falls Heights Junction Harbor Village Park Port Valley".split()
_WORKWORD = ("Night Dream Song Road Heart Fire Light Shadow Garden Letter Winter Summer Echo "
             "Secret Promise Journey Return Legend Voice Mirror Storm Island Crown Silence "
             "Circle Window Hour Season Kingdom").split()


@dataclass(frozen=True)
class EType:
    """A named entity type: its Freebase-style type path, name style and share of entities."""

    path: str  # domain.type
    style: str  # person | work | place | org | fixed
    share: float = 0.0  # of the named (non-fixed) entities
    fixed: tuple[str, ...] = ()  # a closed set of names (hubs)


def _fixed(prefix: str, n: int) -> tuple[str, ...]:
    return tuple(f"{prefix} {_ROOT[i % len(_ROOT)]}{_SUFFIX[(i // len(_ROOT)) % len(_SUFFIX)]}"
                 + (f" {i // (len(_ROOT) * len(_SUFFIX)) + 1}" if i >= len(_ROOT) * len(_SUFFIX)
                    else "") for i in range(n))


TYPES: dict[str, EType] = {
    "person": EType("people.person", "person", 0.34),
    "film": EType("film.film", "work", 0.06),
    "tv": EType("tv.tv_program", "work", 0.02),
    "album": EType("music.album", "work", 0.06),
    "recording": EType("music.recording", "work", 0.12),
    "book": EType("book.book", "work", 0.05),
    "character": EType("fictional_universe.fictional_character", "person", 0.03),
    "city": EType("location.citytown", "place", 0.05),
    "location": EType("location.location", "place", 0.08),
    "organization": EType("organization.organization", "org", 0.06),
    "company": EType("business.business_operation", "org", 0.05),
    "university": EType("education.educational_institution", "org", 0.02),
    "team": EType("sports.sports_team", "org", 0.01),
    "award": EType("award.award_category", "org", 0.004),
    "profession": EType("people.profession", "org", 0.0006),
    "position": EType("government.government_office_or_title", "org", 0.0006),
    "genre": EType("media_common.media_genre", "work", 0.0003),
    "country": EType("location.country", "fixed", fixed=("United States of America",)
                     + _fixed("Republic of", 249)),
    "language": EType("language.human_language", "fixed", fixed=("English Language",)
                      + _fixed("Language", 399)),
    "gender": EType("people.gender", "fixed", fixed=("Male", "Female")),
    "union": EType("people.marriage_union_type", "fixed", fixed=("Marriage", "Domestic partnership")),
    "ntype": EType("type.type", "fixed", fixed=_fixed("Type", 1200)),
}

# Plain relations: (name, head type, tail type, weight, inverse name or "").
# Tail types "date", "year" and "number" are literals.
PLAIN: tuple[tuple[str, str, str, float, str], ...] = (
    ("people.person.place_of_birth", "person", "city", 6, ""),
    ("people.person.place_of_death", "person", "city", 1.5, ""),
    ("people.person.profession", "person", "profession", 5, ""),
    ("people.person.children", "person", "person", 2, "people.person.parents"),
    ("people.person.sibling", "person", "person", 1, ""),
    ("people.person.religion", "person", "genre", 0.5, ""),
    ("people.person.languages", "person", "language", 1, ""),
    ("film.film.directed_by", "film", "person", 2, "film.director.film"),
    ("film.film.written_by", "film", "person", 1.5, "film.writer.film"),
    ("film.film.produced_by", "film", "person", 1.2, ""),
    ("film.film.genre", "film", "genre", 2.5, ""),
    ("film.film.country", "film", "country", 1.5, ""),
    ("film.film.language", "film", "language", 1.5, ""),
    ("film.film.sequel", "film", "film", 0.3, "film.film.prequel"),
    ("tv.tv_program.genre", "tv", "genre", 0.6, ""),
    ("tv.tv_program.country_of_origin", "tv", "country", 0.5, ""),
    ("tv.tv_program.program_creator", "tv", "person", 0.5, "tv.tv_program_creator.programs_created"),
    ("music.album.artist", "album", "person", 3, "music.artist.album"),
    ("music.album.genre", "album", "genre", 2, ""),
    ("music.album.release_type", "album", "genre", 1, ""),
    ("music.recording.artist", "recording", "person", 5, "music.artist.track"),
    ("music.recording.releases", "recording", "album", 4, ""),
    ("book.written_work.author", "book", "person", 3, "book.author.works_written"),
    ("book.book.genre", "book", "genre", 1.5, ""),
    ("book.written_work.subjects", "book", "location", 1, ""),
    ("fictional_universe.fictional_character.appears_in_these_fictional_universes", "character",
     "film", 1, ""),
    ("fictional_universe.fictional_character.occupation", "character", "profession", 0.5, ""),
    ("location.location.containedby", "city", "location", 3, "location.location.contains"),
    ("location.location.containedby", "location", "country", 3, "location.location.contains"),
    ("location.location.adjoin_s", "location", "location", 1, ""),
    ("location.location.time_zones", "location", "genre", 1, ""),
    ("location.country.capital", "country", "city", 0.01, ""),
    ("location.country.official_language", "country", "language", 0.01, ""),
    ("organization.organization.headquarters", "organization", "city", 1.5, ""),
    ("organization.organization.founders", "organization", "person", 1, "organization.organization_founder.organizations_founded"),
    ("organization.organization.place_founded", "organization", "city", 1, ""),
    ("business.business_operation.industry", "company", "genre", 1.5, ""),
    ("business.business_operation.parent_company", "company", "company", 0.5, "business.business_operation.child_company"),
    ("education.educational_institution.campuses", "university", "city", 0.5, ""),
    ("education.educational_institution.colors", "university", "genre", 0.3, ""),
    ("sports.sports_team.location", "team", "city", 0.4, ""),
    ("sports.sports_team.sport", "team", "genre", 0.4, ""),
    ("award.award_category.presented_by", "award", "organization", 0.2, ""),
)
FUNCTIONAL = frozenset({"people.person.place_of_birth", "people.person.place_of_death",
                        "film.film.directed_by", "location.country.capital",
                        "organization.organization.headquarters", "sports.sports_team.location",
                        "music.recording.artist", "book.written_work.author"})
HUBS: tuple[tuple[str, str, str, float], ...] = (  # every head has it, tails are few
    ("people.person.gender", "person", "gender", 0.9),
    ("people.person.nationality", "person", "country", 0.8),
    ("common.topic.notable_types", "*", "ntype", 0.5),
)
LITERALS: tuple[tuple[str, str, str, float], ...] = (  # share of heads of the type that have it
    ("people.person.date_of_birth", "person", "date", 0.6),
    ("people.person.date_of_death", "person", "date", 0.15),
    ("film.film.initial_release_date", "film", "date", 0.7),
    ("music.album.release_date", "album", "date", 0.5),
    ("book.written_work.date_of_first_publication", "book", "year", 0.5),
    ("organization.organization.date_founded", "organization", "year", 0.5),
    ("location.location.area", "location", "number", 0.3),
)
# CVT families: (relation into the CVT, owner type, CVT type, weight, [(property, tail type)]).
# "@owner" as a tail type links the CVT back to its owner (a marriage names both spouses).
CVTS: tuple[tuple[str, str, str, float, tuple[tuple[str, str], ...]], ...] = (
    ("people.person.spouse_s", "person", "people.marriage", 1.0,
     (("spouse", "@owner"), ("spouse", "person"), ("type_of_union", "union"), ("from", "date"))),
    ("film.film.starring", "film", "film.performance", 3.0,
     (("actor", "person"), ("character", "character"))),
    ("people.person.employment_history", "person", "business.employment_tenure", 1.5,
     (("company", "company"), ("title", "profession"), ("from", "year"))),
    ("sports.sports_team.roster", "team", "sports.sports_team_roster", 1.0,
     (("player", "person"), ("position", "profession"), ("from", "year"))),
    ("award.award_winner.awards_won", "person", "award.award_honor", 1.0,
     (("award", "award"), ("year", "year"), ("honored_for", "film"))),
    ("government.politician.government_positions_held", "person",
     "government.government_position_held", 0.5,
     (("office_position_or_title", "position"), ("jurisdiction_of_office", "country"),
      ("from", "date"))),
    ("location.statistical_region.population", "location", "measurement_unit.dated_integer", 1.0,
     (("number", "number"), ("year", "year"))),
    ("people.person.education", "person", "education.education", 1.2,
     (("institution", "university"), ("degree", "profession"))),
)
N_LONG_TAIL = 2900  # rarely used relations (Freebase's base.* and user.* long tail)
SHARES = {"plain": 0.40, "hub": 0.17, "literal": 0.07, "cvt": 0.30, "tail": 0.06}


# ----------------------------------------------------------------------------- generation


def _loguniform_rank(rng: np.random.Generator, sizes: np.ndarray) -> np.ndarray:
    """Per element a rank in [0, size) with P(rank <= k) ~ log(k + 1) / log(size + 1): a few
    very popular items, a long tail (Zipf with s = 1), vectorised over varying sizes."""
    u = rng.random(len(sizes))
    r = np.floor(np.exp(u * np.log(sizes.astype(np.float64) + 1.0))).astype(np.int64) - 1
    return np.clip(r, 0, np.maximum(sizes - 1, 0))


def _names_for(style: str, k: int, rng: np.random.Generator) -> list[str]:
    a, b, c, d = (rng.integers(0, 1 << 30, size=k).tolist() for _ in range(4))
    nf, nr, ns, ni = len(_FIRST), len(_ROOT), len(_SUFFIX), len(_INITIAL)
    if style == "person":
        return [f"{_FIRST[x % nf]}{_INITIAL[z % ni] if z % 3 == 0 else ''} "
                f"{_ROOT[y % nr]}{_SUFFIX[w % ns]}" for x, y, z, w in zip(a, b, c, d, strict=True)]
    if style == "org":
        return [f"{_PREFIX[x % len(_PREFIX)] + ' ' if z % 2 else ''}{_ROOT[y % nr]}"
                f"{_SUFFIX[w % ns]} {_ORG[z % len(_ORG)]}" for x, y, z, w in zip(a, b, c, d, strict=True)]
    if style == "place":
        return [f"{_ROOT[x % nr]}{_SUFFIX[w % ns]}{' ' + _PLACEKIND[y % len(_PLACEKIND)] if z % 2 else ''}"
                for x, y, z, w in zip(a, b, c, d, strict=True)]
    return [f"The {_ROOT[x % nr]} {_WORKWORD[y % len(_WORKWORD)]}" if z % 3 == 0 else
            f"{_WORKWORD[y % len(_WORKWORD)]} of {_ROOT[x % nr]}{_SUFFIX[w % ns]}" if z % 3 == 1
            else f"{_ROOT[x % nr]} {_WORKWORD[y % len(_WORKWORD)]} {_WORKWORD[w % len(_WORKWORD)]}"
            for x, y, z, w in zip(a, b, c, d, strict=True)]


@dataclass
class Graph:
    """The generated graph: node strings, relation names, int arrays (deduplicated)."""

    nodes: list[str]
    relations: list[str]
    heads: np.ndarray
    rels: np.ndarray
    tails: np.ndarray
    kind: np.ndarray  # per node: 0 named entity, 1 CVT, 2 literal, 3 fixed hub
    cvt_in: frozenset[int]  # relation ids that lead into a CVT


class _Nodes:
    """Node table under construction: ranges per entity type, CVT ids, literals."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.kind: list[np.ndarray] = []
        self.ranges: dict[str, tuple[int, int]] = {}
        self._seen: dict[str, int] = {}

    def add(self, key: str, names: list[str], kind: int) -> None:
        start = len(self.names)
        seen = self._seen
        for n in names:  # a repeated name gets a Freebase-style "(2)" suffix
            c = seen.get(n, 0) + 1
            seen[n] = c
            self.names.append(n if c == 1 else f"{n} ({c})")
        self.kind.append(np.full(len(names), kind, dtype=np.int8))
        self.ranges[key] = (start, len(self.names))

    def pick(self, key: str, count: int, rng: np.random.Generator, how: str = "zipf"
             ) -> np.ndarray:
        """``count`` members of ``key``'s range: ``zipf`` (tails: a few very popular ones,
        log-uniform ranks over a fixed shuffle of the range), ``mild`` (heads: some entities
        have more facts than others), ``unique`` (a functional relation's heads: each once
        while the range lasts)."""
        lo, hi = self.ranges[key]
        size = max(hi - lo, 1)
        if how == "unique" and count <= size:
            return lo + rng.choice(size, size=count, replace=False)
        if how in ("mild", "unique"):
            return lo + np.floor(size * rng.random(count) ** 1.6).astype(np.int64)
        ranks = _loguniform_rank(rng, np.full(count, size, dtype=np.int64))
        mult = 2_654_435_761 % size or 1  # a fixed affine shuffle spreads the popular ones
        while np.gcd(mult, size) != 1:
            mult += 1
        return lo + (ranks * mult) % size


def generate(n_triplets: int, seed: int = 0) -> Graph:
    """A Freebase-shaped graph of about ``n_triplets`` distinct triplets (see the module doc)."""
    rng = np.random.default_rng([seed, 28])
    want = int(n_triplets)
    n = int(want * 1.08) + 100  # drawn with room for duplicates, then trimmed to ``want``
    nodes = _Nodes()
    n_named = max(int(n * 0.2), 400)
    for key, t in TYPES.items():
        if t.style == "fixed":
            nodes.add(key, list(t.fixed), 3)
        else:
            k = max(int(n_named * t.share), 20)
            nodes.add(key, _names_for(t.style, k, rng), 0)
    # literals: dates over two centuries, years, numbers
    days = rng.integers(0, 220 * 365, size=max(n // 400, 50))
    dates = sorted({str(np.datetime64("1800-01-01") + int(x)) for x in days.tolist()})
    nodes.add("date", dates, 2)
    nodes.add("year", [str(y) for y in range(1800, 2025)], 2)
    numbers = sorted({str(x) for x in rng.integers(3000, 30_000_000, size=max(n // 50, 50)).tolist()})
    nodes.add("number", numbers, 2)
    rel_names: list[str] = []
    rel_index: dict[str, int] = {}

    def rel(name: str) -> int:
        if name not in rel_index:
            rel_index[name] = len(rel_names)
            rel_names.append(name)
        return rel_index[name]

    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def emit(h: np.ndarray, r: int, t: np.ndarray) -> None:
        parts.append((h.astype(np.int64), np.full(len(h), r, dtype=np.int64), t.astype(np.int64)))

    total_w = sum(p[3] for p in PLAIN)
    for name, ht, tt, w, inv in PLAIN:
        count = int(n * SHARES["plain"] * w / total_w / (2 if inv else 1))
        how = "unique" if name in FUNCTIONAL else "mild"
        h, t = nodes.pick(ht, count, rng, how), nodes.pick(tt, count, rng)
        keep = h != t
        emit(h[keep], rel(name), t[keep])
        if inv:
            emit(t[keep], rel(inv), h[keep])
    named_keys = [k for k, t in TYPES.items() if t.style != "fixed"]

    def size(key: str) -> int:
        return nodes.ranges[key][1] - nodes.ranges[key][0]

    expected = sum(cover * sum(size(k) for k in (named_keys if ht == "*" else [ht]))
                   for _, ht, _, cover in HUBS)
    scale_h = min(1.0, n * SHARES["hub"] / max(expected, 1))
    for name, ht, tt, cover in HUBS:
        for key in (named_keys if ht == "*" else [ht]):
            lo, hi = nodes.ranges[key]
            h = np.arange(lo, hi)[rng.random(hi - lo) < cover * scale_h]
            emit(h, rel(name), nodes.pick(tt, len(h), rng))
    for name, ht, tt, cover in LITERALS:
        lo, hi = nodes.ranges[ht]
        h = np.arange(lo, hi)[rng.random(hi - lo) < cover]
        lit_lo, lit_hi = nodes.ranges[tt]
        emit(h, rel(name), rng.integers(lit_lo, lit_hi, size=len(h)))
    # CVTs: owner -in-> m.0… -prop-> tail, 2-4 edges out of each
    cvt_w = sum(c[3] for c in CVTS)
    per_cvt = np.mean([1 + len(c[4]) for c in CVTS])
    n_cvt = int(n * SHARES["cvt"] / per_cvt)
    cvt_start = len(nodes.names)
    counts = [int(n_cvt * c[3] / cvt_w) for c in CVTS]
    ids = np.arange(cvt_start, cvt_start + sum(counts), dtype=np.int64)
    scrambled = (ids * 2_654_435_761 + 0x5BD1E995) % (1 << 40)  # unique per id, not sequential
    digits = np.stack([(scrambled >> (5 * k)) & 31 for k in range(7, -1, -1)], axis=1)
    alphabet = np.array(list("0123456789bcdfghjklmnpqrstvwxyz_"))
    nodes.names.extend("m.0" + "".join(row) for row in alphabet[digits].tolist())
    nodes.kind.append(np.full(len(ids), 1, dtype=np.int8))
    cvt_in: set[int] = set()
    at = cvt_start
    for (name, owner, cvt_type, _w, props), k in zip(CVTS, counts, strict=True):
        c = np.arange(at, at + k, dtype=np.int64)
        at += k
        own = nodes.pick(owner, k, rng, "mild")
        r_in = rel(name)
        cvt_in.add(r_in)
        emit(own, r_in, c)
        for prop, tt in props:
            if tt == "@owner":
                emit(c, rel(f"{cvt_type}.{prop}"), own)
                continue
            present = rng.random(k) < 0.85  # some CVTs lack a field, as in Freebase
            emit(c[present], rel(f"{cvt_type}.{prop}"), nodes.pick(tt, int(present.sum()), rng))
    # the long tail: rare relations between random named types
    n_tail = int(n * SHARES["tail"])
    tail_rel = _long_tail_names(min(N_LONG_TAIL, max(n // 40, 20)), rng)  # ~2,900 from 120k up
    weights = 1.0 / np.arange(1, len(tail_rel) + 1)
    per = np.maximum((weights / weights.sum() * n_tail).astype(np.int64), 1)
    for i, name in enumerate(tail_rel):
        ht = named_keys[i % len(named_keys)]
        tt = named_keys[(i * 7 + 3) % len(named_keys)]
        emit(nodes.pick(ht, int(per[i]), rng, "mild"), rel(name),
             nodes.pick(tt, int(per[i]), rng))
    heads = np.concatenate([p[0] for p in parts])
    rels = np.concatenate([p[1] for p in parts])
    tails = np.concatenate([p[2] for p in parts])
    parts.clear()
    N, R = np.int64(len(nodes.names)), np.int64(len(rel_names))
    keys = (heads * R + rels) * N + tails
    del heads, rels, tails
    keys = np.unique(keys)  # distinct triplets, grouped by head (a dump sorted by subject)
    if len(keys) > want:  # trim to the requested size, keeping the head grouping
        keys = np.sort(rng.choice(keys, size=want, replace=False))
    hr, t = np.divmod(keys, N)
    del keys
    h, r = np.divmod(hr, R)
    return Graph(nodes=nodes.names, relations=rel_names, heads=h.astype(np.int32),
                 rels=r.astype(np.int32), tails=t.astype(np.int32),
                 kind=np.concatenate(nodes.kind), cvt_in=frozenset(cvt_in))


def _long_tail_names(k: int, rng: np.random.Generator) -> list[str]:
    words = sorted({w.lower() for w in _ROOT + _WORKWORD + _ORG + _PLACEKIND})
    out: dict[str, None] = {}
    while len(out) < k:
        a, b, c = rng.integers(0, len(words), size=3).tolist()
        dom = "base" if a % 3 else "user"
        out[f"{dom}.{words[a]}.{words[b]}_{words[c]}.{words[(a + c) % len(words)]}"] = None
    return list(out)


def write_csv(graph: Graph, path: str | os.PathLike[str]) -> None:
    """``head,relation,tail`` CSV without quotes (names hold no comma or quote)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    names = pa.array(graph.nodes, pa.string())
    rels = pa.array(graph.relations, pa.string())
    step = 2_000_000
    with pa.OSFile(str(path), "wb") as sink:
        sink.write(b"head,relation,tail\n")  # pyarrow would quote the header
        for s in range(0, len(graph.heads), step):
            table = pa.table({
                "head": names.take(pa.array(graph.heads[s:s + step])),
                "relation": rels.take(pa.array(graph.rels[s:s + step])),
                "tail": names.take(pa.array(graph.tails[s:s + step])),
            })
            pacsv.write_csv(table, sink, pacsv.WriteOptions(include_header=False,
                                                             quoting_style="none"))


def make_questions(graph: Graph, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """Questions with known gold answers: one-hop (60%), through a CVT (25%), literal (15%)."""
    rng = np.random.default_rng([seed, 29])
    order = np.argsort(graph.heads, kind="stable")
    h_sorted = graph.heads[order]
    kind = graph.kind
    rel_literal = {i for i, r in enumerate(graph.relations)
                   if any(r == x[0] for x in LITERALS)}
    rel_hub = {i for i, r in enumerate(graph.relations) if any(r == x[0] for x in HUBS)}
    rel_tail = {i for i, r in enumerate(graph.relations) if r.startswith(("base.", "user."))}

    def out_edges(node: int) -> np.ndarray:
        lo, hi = np.searchsorted(h_sorted, [node, node + 1])
        return order[lo:hi]

    def words(rel: str) -> str:
        return rel.rsplit(".", 1)[-1].replace("_", " ")

    want = {"one-hop": int(count * 0.6), "cvt": int(count * 0.25)}
    want["literal"] = count - want["one-hop"] - want["cvt"]
    got: dict[str, list[dict[str, Any]]] = {k: [] for k in want}
    seen: set[tuple[int, int]] = set()
    tries = 0
    m = len(graph.heads)
    while any(len(got[k]) < want[k] for k in want) and tries < count * 400:
        tries += 1
        e = int(rng.integers(m))
        h, r, t = int(graph.heads[e]), int(graph.rels[e]), int(graph.tails[e])
        if kind[h] != 0 or (h, r) in seen or r in rel_hub or r in rel_tail:
            continue
        edges = out_edges(h)
        same = edges[graph.rels[edges] == r]
        name = graph.nodes[h]
        if r in graph.cvt_in and kind[t] == 1:
            if len(got["cvt"]) >= want["cvt"]:
                continue
            cvt_out = out_edges(t)
            named = cvt_out[kind[graph.tails[cvt_out]] != 1]
            named = named[graph.tails[named] != h]
            if not len(named):
                continue
            r2 = int(graph.rels[named[int(rng.integers(len(named)))]])
            gold = sorted({graph.nodes[int(graph.tails[x])] for c in graph.tails[same]
                           for x in out_edges(int(c)) if int(graph.rels[x]) == r2})
            q = f"What is the {words(graph.relations[r2])} of the {words(graph.relations[r])} of {name}?"
            path = [graph.relations[r], graph.relations[r2]]
            bucket = "cvt"
        else:
            bucket = "literal" if r in rel_literal else "one-hop"
            if len(got[bucket]) >= want[bucket] or len(same) > 3 or kind[t] == 1:
                continue
            gold = sorted({graph.nodes[int(x)] for x in graph.tails[same]})
            q = f"What is the {words(graph.relations[r])} of {name}?"
            path = [graph.relations[r]]
        seen.add((h, r))
        got[bucket].append({"id": f"{bucket}-{len(got[bucket])}", "kind": bucket, "question": q,
                            "answers": gold, "topic": name, "path": path})
    return [q for k in want for q in got[k]]


# ----------------------------------------------------------------------------- measuring

_CHILD = r"""
import gc, json, os, statistics, sys, time
import psutil
proc = psutil.Process()
csv_path, questions_path = sys.argv[1], sys.argv[2]


def peak_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def load():
    return round(os.getloadavg()[0], 2)


from byokg.backends.memory import load_path
out = {"base_rss_mb": proc.memory_info().rss / 2**20}
gc.collect()
base = proc.memory_info().rss
c0, la0, t0 = proc.cpu_times(), load(), time.perf_counter()
graph, report = load_path(csv_path)
out["load_s"] = time.perf_counter() - t0
c1 = proc.cpu_times()
out["load_cpu_s"] = (c1.user + c1.system) - (c0.user + c0.system)
out["load_loadavg"] = max(la0, load())
gc.collect()
out["rss_mb"] = (proc.memory_info().rss - base) / 2**20
out["load_peak_rss_mb"] = peak_mb()
out["triplets"], out["nodes"], out["relations"] = len(graph), len(graph._ids), len(graph._rels)
print("PHASE " + json.dumps(out), flush=True)

from byokg.graph.profile import profile_graph
la0, t0 = load(), time.perf_counter()
prof = profile_graph(graph, refresh=True, cache_dir=None)
out["profile_s"] = time.perf_counter() - t0
out["profile_loadavg"] = max(la0, load())
out["profile_peak_rss_mb"] = peak_mb()
print("PHASE " + json.dumps(out), flush=True)

from byokg.config import RunConfig
from byokg.eval import metrics as M
from byokg.pipeline.engine import Engine
questions = [json.loads(x) for x in open(questions_path, encoding="utf-8")]
engine = Engine(graph, RunConfig())
from byokg.linking.indexes import get_name_index
c0, la0, t0 = proc.cpu_times(), load(), time.perf_counter()
index = get_name_index(graph, engine.services)  # what the first question would build on its way
out["name_index_s"] = time.perf_counter() - t0
c1 = proc.cpu_times()
out["name_index_cpu_s"] = (c1.user + c1.system) - (c0.user + c0.system)
out["name_index_status"] = getattr(index, "status", "")
out["name_index_loadavg"] = max(la0, load())
del index
gc.collect()
out["name_index_rss_mb"] = proc.memory_info().rss / 2**20
out["name_index_peak_rss_mb"] = peak_mb()
print("PHASE " + json.dumps(out), flush=True)
lat, hits, by_kind, stages = [], [], {}, {}
la0 = load()
for i, q in enumerate(questions):
    t0 = time.perf_counter()
    ans = engine.ask(q["question"])
    dt = time.perf_counter() - t0
    ok = M.hit_at_1(list(ans.answers), q["answers"], lenient=False)
    if i == 0:
        out["first_question_s"] = dt
        out["first_question_peak_rss_mb"] = peak_mb()
        gc.collect()
        out["first_question_rss_mb"] = proc.memory_info().rss / 2**20
        print("PHASE " + json.dumps(out), flush=True)
        continue
    lat.append(dt * 1000)
    hits.append(ok)
    by_kind.setdefault(q["kind"], []).append(ok)
    for stage, sec in ans.trace.stage_seconds().items():
        stages.setdefault(stage, []).append(sec * 1000)
lat.sort()
out["questions"] = len(lat)
out["offline_p50_ms"] = statistics.median(lat) if lat else float("nan")
out["offline_p95_ms"] = lat[min(len(lat) - 1, int(0.95 * len(lat)))] if lat else float("nan")
out["hit_at_1"] = sum(hits) / max(len(hits), 1)
for k, v in by_kind.items():
    out[f"hit_at_1_{k}"] = sum(v) / len(v)
for k, v in stages.items():  # where a question's time goes (median ms per stage)
    if k in ("kg-linker", "link", "tools", "merge", "answer"):
        out[f"stage_p50_ms_{k}"] = statistics.median(v)
out["answer_loadavg"] = max(la0, load())
out["peak_rss_mb"] = peak_mb()
gc.collect()
out["end_rss_mb"] = proc.memory_info().rss / 2**20
print("RESULT " + json.dumps(out), flush=True)
"""


def _measure(csv_path: Path, questions_path: Path, timeout: float) -> dict[str, Any]:
    """Run the child; the last PHASE line survives a child that dies (out of memory, …). The
    child's cache folder is a fresh one, so the name index is built (and saved), never read
    from an earlier run."""
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="byokg-fbscale-cache-") as cache:
        env = dict(os.environ, BYOKG_CACHE_DIR=cache)
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(csv_path), str(questions_path)],
                              capture_output=True, text=True, cwd=repo, timeout=timeout, env=env)
    last: dict[str, Any] = {}
    for line in proc.stdout.splitlines():
        if line.startswith(("PHASE ", "RESULT ")):
            last = json.loads(line.split(" ", 1)[1])
            if line.startswith("RESULT "):
                return last
    last["child_error"] = f"exit {proc.returncode}: {proc.stderr[-600:]}"
    return last


def prepare(scale: int, folder: Path, questions: int, seed: int = 0) -> tuple[Path, Path, dict]:
    """The graph CSV and questions in ``folder``, generated unless a matching pair is there."""
    folder.mkdir(parents=True, exist_ok=True)
    csv_path = folder / f"freebase_shape_{scale}.csv"
    q_path = folder / f"freebase_shape_{scale}_questions.jsonl"
    manifest = folder / f"freebase_shape_{scale}.json"
    want = {"version": GENERATOR_VERSION, "scale": scale, "seed": seed, "questions": questions}
    if manifest.exists() and csv_path.exists() and q_path.exists():
        info = json.loads(manifest.read_text())
        if {k: info.get(k) for k in want} == want:
            info["reused"] = True
            return csv_path, q_path, info
    t0 = time.perf_counter()
    graph = generate(scale, seed)
    gen_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    write_csv(graph, csv_path)
    write_s = time.perf_counter() - t0
    qs = make_questions(graph, questions, seed)
    with open(q_path, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(q, ensure_ascii=False) + "\n" for q in qs)
    deg = np.bincount(graph.tails, minlength=len(graph.nodes)) + np.bincount(
        graph.heads, minlength=len(graph.nodes))
    top = int(deg.argmax())
    info = dict(want, generate_s=round(gen_s, 1), write_s=round(write_s, 1),
                triplets=len(graph.heads), nodes=len(graph.nodes),
                relations=len(graph.relations), cvt_nodes=int((graph.kind == 1).sum()),
                literal_nodes=int((graph.kind == 2).sum()),
                top_hub=graph.nodes[top], top_hub_degree=int(deg[top]),
                csv_mb=round(csv_path.stat().st_size / 2**20, 1), reused=False)
    manifest.write_text(json.dumps(info, indent=2))
    return csv_path, q_path, info


def run(scale: int, results: dict, *, quick: bool = False, data_dir: str | None = None,
        questions: int | None = None) -> None:
    n_q = questions or (12 if quick else 200)
    data_dir = data_dir or os.environ.get("BYOKG_FREEBASE_SCALE_DIR")
    tmp = None if data_dir else tempfile.TemporaryDirectory(prefix="byokg-fbscale-")
    folder = Path(data_dir) if data_dir else Path(tmp.name)  # type: ignore[union-attr]
    try:
        results["loadavg_start"] = round(os.getloadavg()[0], 2)
        # numpy's BLAS threads (MiniLM's forward pass) matter on a shared CPU; the child
        # inherits the environment, so OPENBLAS_NUM_THREADS=1 on the command line sets it
        results["openblas_threads"] = os.environ.get("OPENBLAS_NUM_THREADS", "default")
        csv_path, q_path, info = prepare(scale, folder, n_q)
        for k in ("triplets", "nodes", "relations", "cvt_nodes", "literal_nodes",
                  "top_hub_degree", "csv_mb", "generate_s", "write_s"):
            results[k] = info[k]
        results["generated_reused"] = bool(info.get("reused"))
        got = _measure(csv_path, q_path, timeout=3 * 3600)
        for k, v in got.items():
            if k in ("triplets", "nodes", "relations"):
                continue
            results[k] = round(v, 3) if isinstance(v, float) else v
    finally:
        if tmp is not None:
            tmp.cleanup()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_freebase_scale",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--scale", type=int, default=35_000_000, help="triplets (default 35M)")
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--data-dir", help="keep (and reuse) the generated graph and questions here")
    ap.add_argument("--json", dest="json_out", help="write the results as JSON here")
    args = ap.parse_args(argv)
    res: dict[str, Any] = {}
    run(args.scale, res, data_dir=args.data_dir, questions=args.questions)
    width = max(len(k) for k in res)
    for k, v in res.items():
        note = ""
        if k in REFERENCE:
            goal = REFERENCE[k]["goal"]
            note = f"  goal <= {goal:g}{REFERENCE[k]['unit']} " + (
                "MET" if isinstance(v, int | float) and v <= goal else "MISSED")
        print(f"{k:<{width}}  {v}{note}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"scale": args.scale, "results": res,
                                                   "reference": REFERENCE}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
