"""A typed Kùzu graph for the LLM-path benchmark, in several naming styles, with its questions.

Music festivals: artists perform at festivals (a relationship with properties: the slot and the
set's minutes; a few artists perform at a second festival, added last so a sample of the first
edges misses them), festivals are held in towns, a third of the towns lie in a region (so a
"per region" count undercounts unless the model knows the coverage), artists come from towns.
Dates are stored both ways: an artist's birth date as DATE, a festival's start as text in a
style-dependent format. Names live in properties that are not called ``name``.

Three naming styles (``STYLES``): ``camel`` (``Artist.stageName``, ``PERFORMED_AT``), ``snake``
(``artist.stage_name``, ``performed_at``) and ``spaced`` (``Performer.`Known As```, property
names with spaces as a spreadsheet header would have them). Questions come from ten templates
with two wordings each (instances alternate between them); each question carries its gold
query in the style's names, and :func:`build` runs every gold query on the built graph to get
the gold rows (never written by hand).

Nothing here is read by byokg itself: it is benchmark data.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from benchmarks.kuzu_files import new_database

FIRST = ["Ada", "Bo", "Cleo", "Dex", "Eira", "Finn", "Gia", "Hal", "Iko", "Juno", "Kai", "Lux",
         "Mika", "Nell", "Oz", "Pia", "Quin", "Rhea", "Sol", "Tove"]
LAST = ["Vantablack", "Quasar", "Moth", "Ember", "Static", "Lagoon", "Driftwood", "Halcyon",
        "Cinder", "Marrow", "Nimbus", "Orchid"]
GENRES = ["ambient", "bluegrass", "dub", "grime", "krautrock", "zydeco"]
TOWNS = ["Ashgrove", "Brackenford", "Calderbank", "Dunmere", "Elderholt", "Fernwick",
         "Glenmorrow", "Harrowgate", "Ivybridge", "Juniper Falls", "Kestrel Bay", "Larkspur",
         "Millhaven", "Northcote", "Oakhurst", "Pebblebrook", "Quarrydale", "Rosewater",
         "Saltmarsh", "Thornbury", "Umberlee", "Valemount", "Willowmere", "Yarrowby"]
REGIONS = ["Upper Vale", "Coastlands", "Midmarch", "Fenland"]
FEST_WORDS = ["Echo", "Solstice", "Riverlight", "Lantern", "Meadow", "Aurora", "Tidal",
              "Emberfall", "Skyline", "Harvest"]

N_ARTISTS = 240
N_FESTIVALS = 30
ARTISTS_PER_FESTIVAL = 8
TWICE = 5  # artists who perform at a second festival (their edges are created last)


@dataclass(frozen=True)
class Style:
    """One naming style: label, relationship and property names."""

    name: str
    labels: dict[str, str]  # artist, festival, town, region -> label
    rels: dict[str, str]  # performed, held, region, from -> relationship type
    props: dict[str, str]  # logical property -> property name
    date_text: str  # strftime format of the festival start stored as text

    def p(self, key: str) -> str:
        """The property name, backticked when it needs to be."""
        name = self.props[key]
        return f"`{name}`" if not name.replace("_", "").isalnum() else name


# one row per name, one column per style: camel, snake, spaced
_NAMES: dict[str, dict[str, tuple[str, str, str]]] = {
    "labels": {
        "artist": ("Artist", "artist", "Performer"), "festival": ("Festival", "festival", "Event"),
        "town": ("Town", "town", "Place"), "region": ("Region", "region", "Area")},
    "rels": {
        "performed": ("PERFORMED_AT", "performed_at", "PLAYED"),
        "held": ("HELD_IN", "held_in", "TOOK_PLACE_IN"),
        "region": ("IN_REGION", "in_region", "PART_OF"),
        "from": ("COMES_FROM", "comes_from", "HAILS_FROM")},
    "props": {
        "artist_id": ("artistId", "artist_id", "Perf ID"),
        "artist_name": ("stageName", "stage_name", "Known As"),
        "born": ("bornOn", "born_on", "Birth Date"),
        "genre": ("genre", "music_genre", "Style"),
        "fest_id": ("festivalCode", "festival_code", "Event Ref"),
        "fest_name": ("title", "festival_title", "Event Title"),
        "starts": ("startsAt", "starts_on", "Start Date"),
        "capacity": ("capacity", "max_capacity", "Head Count"),
        "town_id": ("townKey", "town_key", "Place Key"),
        "town_name": ("label", "town_label", "Place Name"),
        "population": ("population", "population", "Inhabitants"),
        "region_id": ("regionId", "region_id", "Area Code"),
        "region_name": ("regionLabel", "region_title", "Area Name"),
        "slot": ("slot", "slot", "Billing"),
        "minutes": ("setMinutes", "set_minutes", "Length (min)")},
}
_DATE_TEXT = {"camel": "%Y-%m-%d %H:%M:%S.000", "snake": "%Y-%m-%d", "spaced": "%Y/%m/%d"}
STYLES: dict[str, Style] = {
    style: Style(style, *({k: v[i] for k, v in _NAMES[part].items()}
                          for part in ("labels", "rels", "props")), _DATE_TEXT[style])
    for i, style in enumerate(("camel", "snake", "spaced"))}


@dataclass
class Data:
    """The graph's rows, in logical names (a style maps them to its own)."""

    artists: list[dict[str, Any]] = field(default_factory=list)
    festivals: list[dict[str, Any]] = field(default_factory=list)
    towns: list[dict[str, Any]] = field(default_factory=list)
    regions: list[dict[str, Any]] = field(default_factory=list)
    performed: list[tuple[int, str, str, int]] = field(default_factory=list)
    held: list[tuple[str, str]] = field(default_factory=list)
    in_region: list[tuple[str, str]] = field(default_factory=list)
    comes_from: list[tuple[int, str]] = field(default_factory=list)


def generate(seed: int = 11) -> Data:
    rnd = random.Random(seed)
    d = Data()
    d.regions = [{"region_id": f"R{i + 1}", "region_name": n} for i, n in enumerate(REGIONS)]
    for i, n in enumerate(TOWNS):
        d.towns.append({"town_id": f"T-{i + 1:03d}", "town_name": n,
                        "population": 3_000 + 1_733 * i})
        if i % 3 == 0:  # a third of the towns lie in a known region
            d.in_region.append((f"T-{i + 1:03d}", f"R{(i // 3) % len(REGIONS) + 1}"))
    names = [f"{f} {last}" for last in LAST for f in FIRST]
    rnd.shuffle(names)
    for k, name in enumerate(names[:N_ARTISTS]):
        aid = 1000 + k
        d.artists.append({"artist_id": aid, "artist_name": name,
                          "born": dt.date(1960 + rnd.randint(0, 40), rnd.randint(1, 12),
                                          rnd.randint(1, 28)),
                          "genre": GENRES[k % len(GENRES)]})
        d.comes_from.append((aid, f"T-{rnd.randrange(len(TOWNS)) + 1:03d}"))
    words = list(FEST_WORDS)
    for j in range(N_FESTIVALS):
        start = dt.datetime(2012 + j % 5 + 2 * (j // 10), 1 + (j * 5) % 12, 1 + (j * 7) % 27)
        title = f"{words[j % len(words)]} Fest {start.year}"
        fid = f"F{j + 1:03d}"
        d.festivals.append({"fest_id": fid, "fest_name": title, "starts": start,
                            "capacity": 2_000 + 977 * ((j * 7) % N_FESTIVALS)})
        d.held.append((fid, f"T-{(j % 10) * 2 + 1:03d}"))  # three festivals per town
        for s in range(ARTISTS_PER_FESTIVAL):
            a = d.artists[(j * ARTISTS_PER_FESTIVAL + s) % N_ARTISTS]["artist_id"]
            d.performed.append((a, fid, "headliner" if s == 0 else "support", 30 + 5 * s))
    for t in range(TWICE):  # a second festival for a few artists: the edges come last
        a = d.artists[t * 7]["artist_id"]
        fid = d.festivals[(t * 11 + 3) % N_FESTIVALS]["fest_id"]
        d.performed.append((a, fid, "support", 25))
    return d


# --------------------------------------------------------------------------- questions


@dataclass(frozen=True)
class Question:
    id: str
    template: str
    question: str
    cypher: str
    rows: tuple[tuple[Any, ...], ...] = ()

    @property
    def answers(self) -> list[str]:
        return list(dict.fromkeys(str(v) for r in self.rows for v in r if v is not None))


def questions(d: Data, st: Style) -> list[tuple[str, str, str]]:
    """(template, question, gold query) for the style; two wordings per template."""
    L, R, p = st.labels, st.rels, st.p  # noqa: N806 - short names for long query text
    town = {t["town_id"]: t["town_name"] for t in d.towns}
    out: list[tuple[str, str, str]] = []

    def fest(name: str) -> str:  # the festival node pattern, matched by name
        return f"(f:{L['festival']} {{{p('fest_name')}: '{name}'}})"

    def per_festival(tpl: str, festivals: list[dict[str, Any]], wordings: tuple[str, str],
                     query: Callable[[str], str]) -> None:
        for i, f in enumerate(festivals):
            name = f["fest_name"]
            out.append((tpl, wordings[i % 2].format(name), query(name)))

    per_festival("town-of", d.festivals[:2],
                 ("In which town was {} held?", "Where did the {} take place?"),
                 lambda n: f"MATCH {fest(n)}-[:{R['held']}]->(t:{L['town']}) "
                           f"RETURN t.{p('town_name')}")
    per_festival("lineup", d.festivals[2:4],
                 ("Which artists performed at {}?", "Who played at the {}?"),
                 lambda n: f"MATCH (a:{L['artist']})-[:{R['performed']}]->{fest(n)} "
                           f"RETURN a.{p('artist_name')}")
    per_festival("headliner", d.festivals[4:6],
                 ("Who headlined {}?", "Which act was the headliner of the {}?"),
                 lambda n: f"MATCH (a:{L['artist']})-[r:{R['performed']}]->{fest(n)} "
                           f"WHERE r.{p('slot')} = 'headliner' RETURN a.{p('artist_name')}")
    for i, g in enumerate(GENRES[:2]):  # 40 answers each: more than a reply's 30 items
        q = [f"Which artists play {g}?", f"List every {g} performer."][i % 2]
        out.append(("genre-list", q, f"MATCH (a:{L['artist']}) WHERE a.{p('genre')} = '{g}' "
                    f"RETURN a.{p('artist_name')}"))
    for i, (tid, year) in enumerate([(d.held[0][1], 2014), (d.held[1][1], 2015)]):
        cut = dt.datetime(year, 6, 1).strftime(st.date_text)
        q = [f"Which festivals in {town[tid]} started after June 1, {year}?",
             f"What festivals held in {town[tid]} began later than 1 June {year}?"][i % 2]
        out.append(("text-date", q, f"MATCH (f:{L['festival']})-[:{R['held']}]->"
                    f"(t:{L['town']} {{{p('town_name')}: '{town[tid]}'}}) "
                    f"WHERE f.{p('starts')} > '{cut}' RETURN f.{p('fest_name')}"))
    for i, (tid, year) in enumerate([(d.comes_from[0][1], 1980), (d.comes_from[1][1], 1985)]):
        q = [f"Which artists from {town[tid]} were born before {year}?",
             f"Name the performers from {town[tid]} born earlier than {year}."][i % 2]
        out.append(("date-typed", q, f"MATCH (a:{L['artist']})-[:{R['from']}]->"
                    f"(t:{L['town']} {{{p('town_name')}: '{town[tid]}'}}) "
                    f"WHERE a.{p('born')} < date('{year}-01-01') RETURN a.{p('artist_name')}"))
    for i, reg in enumerate(d.regions[::2]):
        q = [f"How many festivals were held in {reg['region_name']}?",
             f"What is the number of festivals that took place in {reg['region_name']}?"][i % 2]
        out.append(("count-region", q, f"MATCH (f:{L['festival']})-[:{R['held']}]->"
                    f"(:{L['town']})-[:{R['region']}]->(r:{L['region']} "
                    f"{{{p('region_name')}: '{reg['region_name']}'}}) RETURN count(f)"))
    per_festival("capacity", d.festivals[6:8],
                 ("What is the capacity of {}?", "How many people can the {} hold?"),
                 lambda n: f"MATCH {fest(n)} RETURN f.{p('capacity')}")
    for i, k in enumerate([3, 5]):
        q = [f"Which {k} festivals had the largest capacity?",
             f"Name the top {k} festivals by capacity."][i % 2]
        out.append(("top-capacity", q, f"MATCH (f:{L['festival']}) RETURN f.{p('fest_name')}, "
                    f"f.{p('capacity')} ORDER BY f.{p('capacity')} DESC LIMIT {k}"))
    for i, a in enumerate(d.artists[:2]):
        tid = next(t for x, t in d.comes_from if x == a["artist_id"])
        q = [f"Which town does {a['artist_name']} come from?",
             f"Where is {a['artist_name']} from?"][i % 2]
        out.append(("home-town", q, f"MATCH (a:{L['artist']} {{{p('artist_name')}: "
                    f"'{a['artist_name']}'}})-[:{R['from']}]->(t:{L['town']}) "
                    f"RETURN t.{p('town_name')}"))
    return out


# --------------------------------------------------------------------------- Kùzu


def _ddl(st: Style) -> list[str]:
    L, R, p = st.labels, st.rels, st.p  # noqa: N806
    return [
        f"CREATE NODE TABLE {L['artist']}({p('artist_id')} INT64, {p('artist_name')} STRING, "
        f"{p('born')} DATE, {p('genre')} STRING, PRIMARY KEY({p('artist_id')}))",
        f"CREATE NODE TABLE {L['festival']}({p('fest_id')} STRING, {p('fest_name')} STRING, "
        f"{p('starts')} STRING, {p('capacity')} INT64, PRIMARY KEY({p('fest_id')}))",
        f"CREATE NODE TABLE {L['town']}({p('town_id')} STRING, {p('town_name')} STRING, "
        f"{p('population')} INT64, PRIMARY KEY({p('town_id')}))",
        f"CREATE NODE TABLE {L['region']}({p('region_id')} STRING, {p('region_name')} STRING, "
        f"PRIMARY KEY({p('region_id')}))",
        f"CREATE REL TABLE {R['performed']}(FROM {L['artist']} TO {L['festival']}, "
        f"{p('slot')} STRING, {p('minutes')} INT64)",
        f"CREATE REL TABLE {R['held']}(FROM {L['festival']} TO {L['town']})",
        f"CREATE REL TABLE {R['region']}(FROM {L['town']} TO {L['region']})",
        f"CREATE REL TABLE {R['from']}(FROM {L['artist']} TO {L['town']})",
    ]


def build(path: str | Path, style: str = "camel", d: Data | None = None
          ) -> tuple[str, list[Question]]:
    """The graph as a Kùzu database at ``path`` in ``style``; its URI and its questions with
    the gold rows their queries return on it."""
    st, d = STYLES[style], d or generate()
    L, R, p = st.labels, st.rels, st.p  # noqa: N806
    with new_database(path, _ddl(st)) as c:
        def create(label: str, keys: list[str], rows: list[dict[str, Any]]) -> None:
            sets = ", ".join(f"{p(k)}: $v{i}" for i, k in enumerate(keys))
            for r in rows:
                c.execute(f"CREATE (:{label} {{{sets}}})", {f"v{i}": r[k] for i, k in enumerate(keys)})

        create(L["artist"], ["artist_id", "artist_name", "born", "genre"], d.artists)
        create(L["festival"], ["fest_id", "fest_name", "starts", "capacity"],
               [{**f, "starts": f["starts"].strftime(st.date_text)} for f in d.festivals])
        create(L["town"], ["town_id", "town_name", "population"], d.towns)
        create(L["region"], ["region_id", "region_name"], d.regions)

        def link(rel: str, a: tuple[str, str], b: tuple[str, str], rows: list[tuple],
                 props: tuple[str, ...] = ()) -> None:
            sets = ", ".join(f"{p(k)}: $v{i}" for i, k in enumerate(props))
            q = (f"MATCH (a:{a[0]} {{{p(a[1])}: $a}}), (b:{b[0]} {{{p(b[1])}: $b}}) "
                 f"CREATE (a)-[:{rel}{' {' + sets + '}' if props else ''}]->(b)")
            for r in rows:
                c.execute(q, {"a": r[0], "b": r[1], **{f"v{i}": v for i, v in enumerate(r[2:])}})

        link(R["performed"], (L["artist"], "artist_id"), (L["festival"], "fest_id"), d.performed,
             ("slot", "minutes"))
        link(R["held"], (L["festival"], "fest_id"), (L["town"], "town_id"), d.held)
        link(R["region"], (L["town"], "town_id"), (L["region"], "region_id"), d.in_region)
        link(R["from"], (L["artist"], "artist_id"), (L["town"], "town_id"), d.comes_from)
        out = []
        for n, (tpl, text, query) in enumerate(questions(d, st)):
            res = c.execute(query)
            rows = []
            while res.has_next():
                rows.append(tuple(_plain(v) for v in res.get_next()))
            out.append(Question(f"{style}-{n + 1:02d}", tpl, text, query, tuple(rows)))
    return f"kuzu:{path}", out


def _plain(v: Any) -> Any:
    return v.isoformat() if isinstance(v, dt.date | dt.datetime) else v
