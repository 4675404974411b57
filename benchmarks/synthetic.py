"""Deterministic synthetic knowledge graph for benchmarks.

Shape (chosen to look like a Freebase slice, not uniform noise):

* power-law degrees: heads and tails are drawn from Zipf-like rank distributions over separate
  random permutations of the nodes, so a few nodes are huge hubs (the top head has ~5% of all
  edges) while most nodes have one or two edges; some nodes only ever appear as heads, some only
  as tails;
* ~2,000 relation names in Freebase's dotted style (``people.person.place_of_birth``), also
  Zipf-distributed;
* entity names built from shared tokens ("North Harbor Bank", "Harbor City", "Anna Harbor"),
  so fuzzy linking has near-misses to reject; about a quarter of nodes are CVT-like ids
  (``m.0abc12``) as in Freebase;
* no duplicate triplets; no commas, quotes or tabs in names (plain CSV round-trips).

Everything is vectorised with numpy: 1.5M triplets take a few seconds.

    >>> from benchmarks.synthetic import generate, write_csv, names
    >>> rows = list(generate(1000, seed=0))      # (head, relation, tail) strings
    >>> write_csv("kg.csv", 1_500_000, seed=0)   # header + rows
    >>> names(5000)                              # distinct entity names for linking benchmarks
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

# ----------------------------------------------------------------------------- vocabularies
_PREFIX = (
    "North South East West New Old Upper Lower Great Little Saint Port Fort Mount Lake Grand "
    "Royal Central Inner Outer"
).split()
_PLACE = (
    "Harbor River Oak Maple Summit Pine Cedar Stone Bridge Meadow Valley Spring Brook Hill Glen "
    "Ash Elm Willow Birch Falcon Raven Eagle Silver Golden Iron Copper Crystal Amber Coral Ivy "
    "Rose Thorn Haven Crest Ridge Field Wood Dale Marsh Bay Shore Cliff Rock Sand Snow Frost Sun "
    "Moon Star Cloud Storm Wind Fair Green Red Black White Blue Grey Clear Bright Ever Key Mill "
    "Kings Queens Bishop Abbey Castle Tower Gate Cross Wells Ford Haven Point Island Cove"
).split()
_KIND = (
    "Bank City University College Records Press Hospital Airport Park Museum Church School "
    "Company Group Club Theatre Station Library Institute Foundation Orchestra Studios Hotel "
    "Bridge County Railway Observatory Academy Gazette Brewery Stadium Cathedral Council"
).split()
_FIRST = (
    "Anna Ben Clara David Elena Frank Grace Henry Iris Jack Karen Leo Maria Noah Olivia Paul "
    "Quinn Rosa Sam Tara Umar Vera Will Xena Yusuf Zoe Adam Beth Carl Dina Emil Fiona George "
    "Hana Ivan Julia Kofi Lena Marco Nina Oscar Priya Raj Sara Tom Uma Victor Wen Yara Zack "
    "Alice Bruno Chloe Diego Eva Felix Gita Hugo Ines Jonas Kira Luis Mia Nils Omar Petra Ravi "
    "Sofia Theo Ulla Vito Wanda Yuki Zara Aaron Bea Cyrus Daria Ezra Freya Gus Hilda Igor June"
).split()
_INITIAL = [f"{c}." for c in "ABCDEFGHJKLMNPRSTW"]
_ROLE = (
    "people person film actor music artist album track book author location country city "
    "organization company sports team education university government politician award "
    "business employer tv program medicine disease biology organism religion language "
    "architecture building aviation airport military conflict food dish chemistry element"
).split()
_DOMAIN = (
    "people film music book location organization sports education government award business tv "
    "medicine biology religion language architecture aviation military food chemistry common "
    "base user freebase measurement_unit time symbols travel transportation celebrities "
    "fictional_universe geography law olympics royalty theater visual_art astronomy"
).split()
_TYPE = (
    "person actor artist album track author country city team university politician award "
    "employer program disease organism language building airport conflict dish element topic "
    "event place company position member record release genre series character work body "
    "structure station region office honor nomination role contract"
).split()
_PROP = (
    "nationality place_of_birth place_of_death spouse children parents sibling profession "
    "employment_history education gender religion ethnicity languages_spoken date_of_birth "
    "contains containedby capital currency official_language population area located_in "
    "founded_by founder headquarters members leader notable_people_born_here genre label "
    "release_date producer director starring written_by composer performer instrument "
    "award_won nominated_for ceremony winner category position_held office_holder from to "
    "jurisdiction country_of_origin time_zones adjoins partially_contains part_of has_part "
    "subject appears_in_topic_gallery notable_types is_reviewed sibling_s owner operator"
).split()

_B32 = np.array(list("0123456789bcdfghjklmnpqrstvwxyz_"))


@dataclass
class SyntheticKG:
    """The generated graph as interned arrays (ids index ``node_names`` / ``relation_names``)."""

    node_names: list[str]
    relation_names: list[str]
    heads: np.ndarray
    rels: np.ndarray
    tails: np.ndarray

    def __len__(self) -> int:
        return len(self.heads)

    def triplets(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[str, str, str]]:
        nn, rn = self.node_names, self.relation_names
        h, r, t = (
            self.heads[start:stop].tolist(),
            self.rels[start:stop].tolist(),
            self.tails[start:stop].tolist(),
        )
        for a, b, c in zip(h, r, t, strict=True):
            yield nn[a], rn[b], nn[c]

    def memory_graph(self, uri: str = "memory:synthetic") -> Any:
        """The graph as an in-memory store, straight from the arrays (no CSV round trip)."""
        from byokg.backends.memory import MemoryGraph

        from byokg.io.readers import TripleTable

        names, rel_names = list(self.node_names), list(self.relation_names)
        return MemoryGraph(TripleTable(
            node_ids=names, node_index={x: i for i, x in enumerate(names)},
            rel_names=rel_names, rel_index={x: i for i, x in enumerate(rel_names)},
            heads=self.heads.astype(np.int32), rels=self.rels.astype(np.int32),
            tails=self.tails.astype(np.int32), edge_props={}, names={}, aliases={}, labels={},
            node_props={}), uri)


def relation_names(n_relations: int = 2000, seed: int = 0) -> list[str]:
    """``n_relations`` distinct Freebase-style dotted relation names."""
    rng = np.random.default_rng([seed, 1])
    n_combo = len(_DOMAIN) * len(_TYPE) * len(_PROP)
    if n_relations > n_combo:
        raise ValueError(f"at most {n_combo} relation names")
    pick = rng.choice(n_combo, size=n_relations, replace=False)
    d, rest = np.divmod(pick, len(_TYPE) * len(_PROP))
    t, p = np.divmod(rest, len(_PROP))
    return [
        f"{_DOMAIN[a]}.{_TYPE[b]}.{_PROP[c]}"
        for a, b, c in zip(d.tolist(), t.tolist(), p.tolist(), strict=True)
    ]


def _mids(idx: np.ndarray) -> list[str]:
    """Freebase-like CVT ids ``m.0xxxxx`` (unique per index)."""
    digits = np.stack([(idx >> (5 * k)) & 31 for k in range(5, -1, -1)], axis=1)
    chars = _B32[digits]
    return ["m.0" + "".join(row) for row in chars.tolist()]


def node_names(n_nodes: int, seed: int = 0, *, mid_fraction: float = 0.25) -> list[str]:
    """``n_nodes`` distinct node names: people, organisations, places and CVT ids.

    Names share tokens across kinds ("North Harbor Bank", "Harbor City", "Anna Harbor").
    A name drawn twice gets a disambiguating suffix ("Harbor City (2)"), as Freebase does.
    """
    rng = np.random.default_rng([seed, 2])
    kind = rng.random(n_nodes)
    out: list[str] = [""] * n_nodes
    is_mid = kind < mid_fraction
    mid_idx = np.flatnonzero(is_mid)
    for i, m in zip(mid_idx.tolist(), _mids(mid_idx.astype(np.int64) * 7919 + 12345), strict=True):
        out[i] = m
    named = np.flatnonzero(~is_mid)
    k = len(named)
    style = rng.integers(0, 4, size=k)
    a = rng.integers(0, 1 << 30, size=k)
    b = rng.integers(0, 1 << 30, size=k)
    c = rng.integers(0, 1 << 30, size=k)
    base: list[str] = []
    for s, x, y, z in zip(style.tolist(), a.tolist(), b.tolist(), c.tolist(), strict=True):
        if s == 0:  # person: "Anna K. Harbor" / "Anna Harbor"
            mid = f" {_INITIAL[y % len(_INITIAL)]}" if z % 3 == 0 else ""
            base.append(
                f"{_FIRST[x % len(_FIRST)]}{mid} {_PLACE[(y >> 8) % len(_PLACE)]}son"
                if z % 5 == 0
                else f"{_FIRST[x % len(_FIRST)]}{mid} {_PLACE[(y >> 8) % len(_PLACE)]}"
            )
        elif s == 1:  # organisation: "North Harbor Bank"
            base.append(
                f"{_PREFIX[x % len(_PREFIX)]} {_PLACE[y % len(_PLACE)]} {_KIND[z % len(_KIND)]}"
            )
        elif s == 2:  # place: "Harbor City", "Harborwood"
            place = _PLACE[x % len(_PLACE)]
            base.append(
                f"{place} {_KIND[y % len(_KIND)]}"
                if z % 2
                else f"{place}{_PLACE[y % len(_PLACE)].lower()}"
            )
        else:  # creative work / topic: "The Silver River", "Storm of Harbor"
            base.append(
                f"The {_PLACE[x % len(_PLACE)]} {_PLACE[y % len(_PLACE)]}"
                if z % 2
                else f"{_PLACE[x % len(_PLACE)]} of {_PLACE[y % len(_PLACE)]}"
            )
    seen: dict[str, int] = {}
    for i, name in zip(named.tolist(), base, strict=True):
        n = seen.get(name, 0) + 1
        seen[name] = n
        out[i] = name if n == 1 else f"{name} ({n})"
    return out


def names(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct human-readable entity names (no CVT ids), for linking benchmarks."""
    pool = node_names(int(n / 0.75) + 64, seed=seed)
    got = [x for x in pool if not x.startswith("m.0")]
    while len(got) < n:  # pragma: no cover - only for tiny n with unlucky draws
        pool = node_names(len(pool) * 2, seed=seed)
        got = [x for x in pool if not x.startswith("m.0")]
    return got[:n]


def _zipf_sample(rng: np.random.Generator, n_items: int, size: int, s: float) -> np.ndarray:
    """Ranks 0..n_items-1 drawn with probability proportional to 1 / (rank + 1) ** s."""
    w = 1.0 / np.arange(1, n_items + 1, dtype=np.float64) ** s
    cdf = np.cumsum(w)
    cdf /= cdf[-1]
    return np.searchsorted(cdf, rng.random(size), side="right").clip(0, n_items - 1)


@lru_cache(maxsize=4)
def build(n_triplets: int, seed: int = 0, n_relations: int = 2000) -> SyntheticKG:
    """The synthetic KG as arrays (cached: several benchmarks share one graph)."""
    if n_triplets <= 0:
        raise ValueError("n_triplets must be positive")
    n_nodes = max(n_triplets // 3, 16)
    n_rel = min(n_relations, max(n_triplets // 4, 4))
    rng = np.random.default_rng([seed, 3])
    head_perm = rng.permutation(n_nodes)
    tail_perm = rng.permutation(n_nodes)
    rel_perm = rng.permutation(n_rel)
    R, N = np.int64(n_rel), np.int64(n_nodes)
    have = np.zeros(0, dtype=np.int64)
    draw = int(n_triplets * 1.2) + 64
    while True:
        h = head_perm[_zipf_sample(rng, n_nodes, draw, 1.0)].astype(np.int64)
        t = tail_perm[_zipf_sample(rng, n_nodes, draw, 0.8)].astype(np.int64)
        r = rel_perm[_zipf_sample(rng, n_rel, draw, 1.0)].astype(np.int64)
        keep = h != t
        keys = np.concatenate([have, ((h * R + r) * N + t)[keep]])
        _, first = np.unique(keys, return_index=True)
        first.sort()
        have = keys[first]
        if len(have) >= n_triplets:
            break
        draw = (n_triplets - len(have)) * 2 + 64
    have = have[:n_triplets]
    hr, t = np.divmod(have, N)
    h, r = np.divmod(hr, R)
    # Keep only nodes that occur (compact ids in sorted order).
    used = np.unique(np.concatenate([h, t]))
    all_names = node_names(n_nodes, seed=seed)
    node_list = [all_names[i] for i in used.tolist()]
    return SyntheticKG(
        node_names=node_list,
        relation_names=relation_names(n_rel, seed=seed),
        heads=np.searchsorted(used, h).astype(np.int32),
        rels=r.astype(np.int32),
        tails=np.searchsorted(used, t).astype(np.int32),
    )


def generate(
    n_triplets: int, *, seed: int = 0, n_relations: int = 2000
) -> Iterator[tuple[str, str, str]]:
    """Stream ``n_triplets`` distinct ``(head, relation, tail)`` string tuples (deterministic)."""
    yield from build(n_triplets, seed, n_relations).triplets()


def write_csv(
    path: str | os.PathLike[str],
    n_triplets: int,
    seed: int = 0,
    *,
    n_relations: int = 2000,
    header: bool = True,
    delimiter: str = ",",
) -> str:
    """Write the synthetic KG as ``head,relation,tail`` CSV; returns the path."""
    kg = build(n_triplets, seed, n_relations)
    nn = np.array(kg.node_names, dtype=object)
    rn = np.array(kg.relation_names, dtype=object)
    d = delimiter
    step = 250_000
    with open(path, "w", encoding="utf-8", newline="") as fh:
        if header:
            fh.write(f"head{d}relation{d}tail\n")
        for s in range(0, len(kg), step):
            h = nn[kg.heads[s : s + step]].tolist()
            r = rn[kg.rels[s : s + step]].tolist()
            t = nn[kg.tails[s : s + step]].tolist()
            fh.write("".join(f"{a}{d}{b}{d}{c}\n" for a, b, c in zip(h, r, t, strict=True)))
    return str(path)


if __name__ == "__main__":  # python -m benchmarks.synthetic N OUT.csv
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_500_000
    out = sys.argv[2] if len(sys.argv) > 2 else f"synthetic_{n}.csv"
    t0 = time.perf_counter()
    write_csv(out, n)
    print(f"wrote {n:,} triplets to {out} in {time.perf_counter() - t0:.1f}s")
