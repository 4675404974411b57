"""Generated graphs in several naming styles with paraphrase sets: the offline reasoner's
development and report sets (nothing here is shipped or read by byokg itself).

Each *domain* (music, academia, sports, workplace, family, business, publishing, medicine,
aviation, dining, art, opensource, farming, courts, railways, mountaineering, theatre,
spaceflight, maritime, fashion, biography, winemaking, beekeeping, cycling, chess, archaeology)
is a small world of typed entities and relations, written by us: every relation has a
noun-style name (``place_of_birth``), a verb-style name (``BORN_IN``) and a camelCase name, and
*several phrasings* — noun phrases for the tail given the head ("the birthplace of {x}", "the
town {x} was born in"), questions asking for it ("where was {x} born?", "what is {x} 's
hometown?"), and relative clauses for the head given the tail ("was born in {x}"), some of them
indirect ("{x} 's other half", "what killed {x}"). A domain is rendered as a *variant*: a
relation naming style (snake_case, camelCase, dotted ``domain.type.property``, UPPER_CASE
verbs), typed (node labels) or plain triples, and entity names written as names ("Ada Brandt")
or as lower-case ids with underscores and a spaced possessive ("ada_brandt 's other half ?").

Questions are composed from the phrasings: 1-hop (asking forwards and backwards), 2- and 3-hop
(noun phrases nested: "what is the job of ada_brandt 's son ?") and conjunctions ("which
musician plays the cello and comes from Aldwick?"); the gold answers are computed from the
graph by walking the chain (a conjunction: the intersection).

The **fit** split (music, academia, sports, workplace) is the only one the offline scorer's
weights and confidence were fitted on; the **report** split (family, business) shares no
relation name and no phrasing with it and is only measured. Its aggregate figures (per kind of
error, never question by question) led to fixes in issue 24j, so the **holdout** split
(publishing, medicine), written after those fixes with wording of its own, is the clean
held-out measure. The **blind** split (aviation, dining) was written by a helper who had never
read byokg's reasoning code, before the session's reasoning changes, with relation names and
wording of its own: it measures wording byokg has not met, and is measured only in aggregate
(never read question by question). The **blind2** split (art, opensource) was written the same
way by another such helper, with names and wording of its own; it is kept unmeasured until the
end of the session that asked for it, and then measured only in aggregate. The **blind3** split
(farming, courts) was written the same way by a third such helper, in two worlds no other split
touches, and is measured only in aggregate. The **blind4** split (railways, mountaineering) was
written the same way by a fourth such helper, who never read the reasoning code, in two worlds
no other split touches, and is measured only in aggregate. The **blind5** split (theatre,
spaceflight) was written the same way by a fifth helper, who never read the reasoning code, in
two worlds no other split touches, and is measured only in aggregate. The **blind6** split
(maritime, fashion) was written the same way by a sixth helper, who never read the reasoning
code, in two worlds no other split touches (merchant shipping and the fashion houses), and is
measured only in aggregate. The **blind7** split (biography, winemaking) was written the same
way by a seventh helper, who never read the reasoning code, in two worlds no other split
touches (the lives of famous people and winemaking), and is measured only in aggregate. The
**blind8** split (beekeeping, cycling) was written the same way by an eighth helper, who never
read the reasoning code, in two worlds no other split touches (keeping bees and selling their
honey, and professional bicycle racing), and is measured only in aggregate. The **blind9** split
(chess, archaeology) was written the same way by a ninth helper, who never read the reasoning
code, in two worlds no other split touches (club and tournament chess, and excavations and
their finds), and is measured only in aggregate. The twelve splits share no relation name and
no phrasing. Deterministic for a seed.
"""

from __future__ import annotations

import os
import random
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks import reasoning_graphs as rg

Hop = tuple[str, bool]  # (relation key, walked backwards)
STYLES = ("snake", "camel", "dotted", "upper")


@dataclass(frozen=True)
class Rel:
    """One relation of a domain, with its names and phrasings. ``{x}`` stands for the head
    (``np``, ``ask``) or the tail (``clause``, ``np_back``, ``ask_back``)."""

    key: str
    head: str  # entity type of the head
    tail: str  # entity type of the tail
    noun: str  # snake_case noun-style name
    verb: str  # UPPER_CASE verb-style name
    camel: str  # camelCase name
    np: tuple[str, ...]  # the tail(s) of {x}, as a noun phrase
    ask: tuple[str, ...]  # a question asking for the tail(s) of {x}
    clause: tuple[str, ...] = ()  # "{head} <clause>" is true: "was born in {x}"
    np_back: tuple[str, ...] = ()  # the head(s) of {x}, as a noun phrase
    ask_back: tuple[str, ...] = ()  # a question asking for the head(s) of {x}
    fanout: tuple[int, int] = (1, 1)  # tails per head (min, max)
    skew: float = 0.6  # popularity skew of the tails (higher: a few hubs)
    chain: bool = True  # may be an inner hop of a multi-hop question

    def name(self, style: str, domain: str) -> str:
        if style == "snake":
            return self.noun
        if style == "camel":
            return self.camel
        if style == "upper":
            return self.verb
        return f"{domain}.{self.head.lower()}.{self.noun}"


@dataclass(frozen=True)
class Domain:
    name: str
    prefix: str  # the dotted style's domain segment
    types: dict[str, tuple[str, int]]  # type -> (name pool key, how many entities)
    type_words: dict[str, str]  # type -> the word a question uses for it ("musician")
    rels: tuple[Rel, ...]


@dataclass
class Question(rg.Question):
    """A reasoning-graph question with its kind and variant: ``topic`` holds the question's
    entities (a conjunction has two), ``hops`` relation keys (the conjunction's first branch)."""

    topic: tuple[str, ...]  # type: ignore[assignment]
    kind: str  # "1hop" | "2hop" | "3hop" | "conj"
    variant: str = ""


@dataclass(kw_only=True)
class Variant(rg.Generated):
    """One domain rendered in one style (a generated graph with its questions)."""

    domain: str
    split: str  # "fit" | "report" | "holdout" | "blind" | ... | "blind9"
    style: str
    typed: bool
    underscored: bool

    def write_jsonl(self, path: str | os.PathLike[str], *, typed: bool | None = None) -> None:
        """The graph as byokg JSONL: node records with labels (typed variants), then triples."""
        super().write_jsonl(path, typed=self.typed if typed is None else typed)

    def store(self):
        """An in-memory store of the variant (typed variants keep their labels)."""
        import tempfile

        from byokg.graph.open import open_graph

        tmp = tempfile.mkdtemp(prefix=f"byokg-{self.name}-")
        path = os.path.join(tmp, "graph.jsonl")
        self.write_jsonl(path)
        return open_graph(f"memory:{path}")


# --------------------------------------------------------------------------- name pools

_SYL = ("ka ri lo ne ta mi so va de lu po ra ve ni ko sa te mo li da be ru fa go hi ju "
        "na pe ro si tu wa ze ya bo cu").split()
_FIRST = ("Ada Boris Carla Dmitri Elena Farid Greta Hiro Ines Jonas Kemal Lucia Mateo Nadia "
          "Otto Priya Quentin Rosa Stellan Tamsin Umberto Vesna Wilhelm Ximena Yannick Zofia "
          "Anouk Bastian Cosima Darius Eamon Flora Gideon Halina Ilario Juno Kasimir Leona "
          "Marius Noor Orla Pavel Rhea Silvio Thora Ulric Valentina Wendell Yara Zeno").split()
_LAST = ("Abernathy Brandt Castellano Dufresne Ekwueme Falkenrath Gallagher Halvorsen Ibarra "
         "Jovanovic Kowalczyk Lindqvist Marchetti Nakamura Okonkwo Petrov Quiroga Rasmussen "
         "Santangelo Tanaka Ulvaeus Vasquez Whitfield Xenakis Yamamoto Zeller Achterberg "
         "Bergmann Cavendish Dragomir Esposito Fairbanks Grimaldi Holloway Iwasaki Jablonski "
         "Kristiansen Lombardi Moreau Novak Oyelaran Pellegrini Rahimi Sorensen Thackeray").split()
FIXED = {
    "instrument": "cello violin trumpet drums piano bass guitar harp flute saxophone oboe "
                  "clarinet accordion banjo".split(),
    "genre": "jazz punk reggae folk techno opera blues funk ambient grunge".split(),
    "field": "topology genomics linguistics astrophysics ecology cryptography economics "
             "neuroscience seismology epidemiology".split(),
    "position": "goalkeeper striker defender midfielder winger sweeper".split(),
    "profession": "lawyer architect nurse carpenter journalist pilot chemist farmer teacher "
                  "surgeon diplomat painter".split(),
    "gender": "male female".split(),
    "religion": "buddhism judaism islam hinduism christianity sikhism".split(),
    "cause": "pneumonia stroke malaria tuberculosis cancer heart_failure drowning "
             "influenza".split(),
    "industry": "aerospace retail banking shipping mining software textiles tourism "
                "pharmaceuticals agriculture".split(),
    "product": "tractors lenses bicycles turbines yogurt umbrellas ceramics satellites "
               "perfume pianos ladders batteries helmets".split(),
    "title": "analyst engineer designer accountant recruiter auditor planner consultant "
             "administrator translator".split(),
    "department": "Finance Marketing Logistics Legal Research Sales Support Security "
                  "Procurement Compliance".split(),
    "hobby": "chess sailing pottery climbing gardening birdwatching cycling origami fencing "
             "karaoke".split(),
    "litgenre": "mystery romance satire memoir fantasy thriller poetry western".split(),
    "language": "Welsh Basque Icelandic Maltese Estonian Tagalog".split(),
    "specialty": "cardiology dermatology oncology neurology pediatrics radiology psychiatry "
                 "orthopedics".split(),
    "condition": "asthma diabetes migraine arthritis anemia eczema gout insomnia".split(),
    "drug": "insulin ibuprofen metformin warfarin amoxicillin prednisone lithium "
            "codeine".split(),
    "rank": "captain commander cadet navigator trainee first_officer".split(),
    "year": "1947 1953 1961 1968 1974 1982 1989 1995 2003 2011 2016 2021".split(),
    "dish": "risotto paella ramen goulash moussaka ceviche biryani pierogi tagine gumbo "
            "lasagne falafel".split(),
    "cuisine": "Peruvian Georgian Ethiopian Lebanese Korean Sicilian Oaxacan Catalan".split(),
    "ingredient": "saffron tamarind fennel sorrel quince chestnut anchovy miso cardamom "
                  "sumac".split(),
    "movement": "Cubism Fauvism Surrealism Futurism Vorticism Dadaism Pointillism Tonalism "
                "Expressionism Suprematism".split(),
    "proglang": "Rust Haskell OCaml Erlang Fortran Lua Elixir Zig Kotlin Clojure".split(),
    "licence": "MIT Apache-2.0 GPL-3.0 BSD-3-Clause MPL-2.0 LGPL-2.1 AGPL-3.0 EPL-2.0 "
               "Unlicense".split(),
    "crop": "barley wheat oats rye sorghum millet lentils hops flax rapeseed".split(),
    "breed": "Jersey Hereford Merino Berkshire Angus Holstein Tamworth Wensleydale".split(),
    "soil": "clay loam silt chalk peat sand gravel marl".split(),
    "verdict": "acquittal conviction dismissal settlement mistrial remand".split(),
    "traction": "steam diesel electric hydrogen battery bimode".split(),
    "discipline": "bouldering ice-climbing alpinism ski-touring big-wall free-soloing trad "
                  "aid-climbing".split(),
    "lawarea": "tort probate antitrust copyright immigration insolvency admiralty "
               "tax".split(),
    "dramaform": "tragedy comedy farce melodrama musical pantomime absurdist "
                 "kitchen-sink".split(),
    "celestial": "Moon Mars Venus Mercury Europa Titan Ceres Io Callisto Enceladus Phobos "
                 "Ganymede".split(),
    "orbit": "low-earth geostationary polar sun-synchronous lunar heliocentric molniya "
             "halo".split(),
    "cargo": "grain coal timber copper coffee cocoa iron-ore bauxite sugar fertiliser cement "
             "crude".split(),
    "shiptype": "tanker bulk-carrier container-ship reefer ro-ro coaster dredger "
                "trawler".split(),
    "fabric": "silk tweed cashmere organza denim velvet linen chiffon leather "
              "jersey".split(),
    "aesthetic": "minimalist avant-garde bohemian streetwear preppy gothic romantic "
                 "utilitarian".split(),
    "calling": "singer politician boxer novelist broadcaster comedian dancer footballer "
               "jockey sculptor filmmaker presenter".split(),
    "grape": "Merlot Riesling Syrah Malbec Tempranillo Nebbiolo Grenache Chardonnay Sangiovese "
             "Zinfandel Viognier Mourvedre".split(),
    "cask": "barrique foudre amphora stainless concrete acacia puncheon".split(),
    "beestrain": "Carniolan Buckfast Ligurian Caucasian Cordovan Saskatraz Russian "
                 "Dark-European".split(),
    "forage": "clover heather lavender borage linden buckwheat manuka eucalyptus thyme "
              "sunflower orange-blossom bramble".split(),
    "beepest": "varroa nosema foulbrood wax-moth chalkbrood hive-beetle tracheal-mite "
               "sacbrood".split(),
    "riderstyle": "climber sprinter rouleur puncheur time-triallist domestique baroudeur "
                  "cobbles-specialist".split(),
    "chessopening": "Sicilian French Caro-Kann Ruy-Lopez Grunfeld Nimzo-Indian Dutch Pirc "
                    "Scandinavian Alekhine Benoni Petroff".split(),
    "chesstitle": "grandmaster international-master FIDE-master candidate-master "
                  "woman-grandmaster national-master arena-grandmaster".split(),
    "epoch": "Neolithic Mesolithic Bronze-Age Iron-Age Roman Viking Byzantine Hellenistic "
             "Chalcolithic Anglo-Saxon".split(),
    "findmaterial": "gold silver bronze amber flint bone jet obsidian terracotta antler "
                    "faience ivory".split(),
}
_HUE = ("Crimson Drowsy Silent Broken Golden Wintry Distant Sleeping Burning Pale Hidden "
        "Northern Weeping Scarlet Misty Lonely Amber Frozen Sunlit Velvet").split()
_SCENE = ("Orchard Harbour Lantern Bather Chapel Meadow Vineyard Lighthouse Shepherdess "
          "Ferryman Mill Bridge Dancer Violinist Courtyard Reaper Balcony Fisherwoman Glacier "
          "Bouquet").split()
_MUSEUM = ("Royal Municipal National Modern Civic Riverside Provincial Imperial Harbourfront "
           "Grand").split()
_GALLERY = ("Kunsthalle", "Pinacoteca", "Art Gallery", "Museum of Art", "Art Collection", "Salon")
_NOBLE = ("Baron", "Countess", "Duke", "Lady", "Sir", "Marquise", "Dame", "Count")
_REPO_END = ("db", "kit", "ly", "hub", "io", "flow", "ctl", "js")


def _coined(rng: random.Random, parts: int, suffix: str = "") -> str:
    word = "".join(rng.choice(_SYL) for _ in range(parts))
    return word.capitalize() + suffix


def _pool(kind: str, rng: random.Random, n: int) -> list[str]:
    """``n`` distinct names of a kind (people, places, organisations, titles, fixed words)."""
    if kind in FIXED:
        return FIXED[kind][:n]
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        if kind == "person":
            name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        elif kind == "city":
            name = _coined(rng, rng.choice([2, 3]), rng.choice(["", "", "burg", "ford", "ville"]))
        elif kind == "country":
            name = _coined(rng, 2, rng.choice(["ia", "land", "stan", "ora"]))
        elif kind == "band":
            name = f"The {_coined(rng, 2)} {rng.choice(['Collective', 'Brothers', 'Echoes', 'Union', 'Machines'])}"
        elif kind == "album":
            name = f"{rng.choice(['Songs of', 'Nights in', 'Return to', 'Letters from'])} {_coined(rng, 3)}"
        elif kind == "label":
            name = f"{_coined(rng, 2)} {rng.choice(['Records', 'Sounds', 'Music'])}"
        elif kind == "university":
            name = f"University of {_coined(rng, 3)}"
        elif kind == "paper":
            name = f"{rng.choice(['Notes on', 'A Theory of', 'On the', 'Towards'])} {_coined(rng, 3).lower()} {rng.choice(['graphs', 'flows', 'fields', 'bounds'])}"
        elif kind == "team":
            name = f"{_coined(rng, 2)} {rng.choice(['Rovers', 'United', 'Falcons', 'Athletic', 'Wanderers'])}"
        elif kind == "league":
            name = f"{_coined(rng, 2)} {rng.choice(['Premier League', 'Cup', 'Division'])}"
        elif kind == "stadium":
            name = f"{_coined(rng, 2)} {rng.choice(['Arena', 'Park', 'Stadium', 'Field'])}"
        elif kind == "book":
            name = f"{rng.choice(['The Last', 'Under the', 'A Song for', 'The House of'])} {_coined(rng, 3)}"
        elif kind == "publisher":
            name = f"{_coined(rng, 2)} {rng.choice(['Press', 'Books', 'House'])}"
        elif kind == "hospital":
            name = f"{_coined(rng, 2)} {rng.choice(['General', 'Infirmary', 'Clinic', 'Memorial'])}"
        elif kind == "airline":
            name = f"{_coined(rng, 2)} {rng.choice(['Air', 'Airways', 'Airlines', 'Skyways', 'Jet'])}"
        elif kind == "airport":
            name = f"{_coined(rng, 2)} {rng.choice(['International', 'Airfield', 'Aerodrome'])}"
        elif kind == "aircraft":
            name = f"{rng.choice(['Skylark', 'Condor', 'Petrel', 'Albatross', 'Heron', 'Osprey'])} {rng.randint(10, 99) * 10}"
        elif kind == "restaurant":
            name = f"{rng.choice(['Chez', 'Casa', 'Osteria', 'Maison', 'Taverna', 'Trattoria'])} {_coined(rng, 2)}"
        elif kind == "artwork":
            name = f"{rng.choice(_HUE)} {rng.choice(_SCENE)}"
        elif kind == "museum":
            name = f"{rng.choice(_MUSEUM)} {rng.choice(_GALLERY)}"
        elif kind == "patron":
            name = f"{rng.choice(_NOBLE)} {_coined(rng, 3)}"
        elif kind == "repo":
            name = f"{_coined(rng, 2).lower()}{rng.choice(_REPO_END)}"
        elif kind == "vendor":
            name = f"{_coined(rng, 2)}{rng.choice(['soft', 'ware', 'tech', 'systems'])}"
        elif kind == "farm":
            name = f"{_coined(rng, 2)} {rng.choice(['Farm', 'Acres', 'Homestead', 'Croft', 'Grange', 'Orchards'])}"
        elif kind == "coop":
            name = f"{_coined(rng, 2)} {rng.choice(['Growers Cooperative', 'Farmers Union', 'Co-op', 'Producers Guild'])}"
        elif kind == "county":
            name = f"{_coined(rng, 2)} {rng.choice(['Shire', 'Vale', 'County', 'Downs'])}"
        elif kind == "case":
            name = f"{rng.choice(_LAST)} v. {_coined(rng, 2)}"
        elif kind == "court":
            name = f"{_coined(rng, 2)} {rng.choice(['Crown Court', 'High Court', 'District Court', 'Court of Appeal', 'Magistrates Court'])}"
        elif kind == "lawfirm":
            name = f"{rng.choice(_LAST)} & {rng.choice(_LAST)} {rng.choice(['LLP', 'Chambers', 'Legal'])}"
        elif kind == "train":
            name = f"{_coined(rng, 2)} {rng.choice(['Express', 'Flyer', 'Sleeper', 'Mail', 'Limited', 'Pullman', 'Sprinter'])}"
        elif kind == "station":
            name = f"{_coined(rng, 2)} {rng.choice(['Central', 'Junction', 'Parkway', 'Halt', 'Road', 'Street'])}"
        elif kind == "railline":
            name = f"{_coined(rng, 2)} {rng.choice(['Line', 'Branch', 'Valley Line', 'Loop', 'Main Line'])}"
        elif kind == "railco":
            name = f"{_coined(rng, 2)} {rng.choice(['Rail', 'Railways', 'Trains', 'Railway Company'])}"
        elif kind == "province":
            name = f"{_coined(rng, 2)} {rng.choice(['Province', 'Region', 'Coast', 'Uplands'])}"
        elif kind == "expedition":
            name = f"{_coined(rng, 2)} {rng.choice(['Expedition', 'Winter Expedition', 'Traverse', 'Ascent'])} {rng.randint(1950, 2020)}"
        elif kind == "peak":
            if rng.random() < 0.5:
                name = f"{rng.choice(['Mount', 'Piz', 'Pic', 'Monte'])} {_coined(rng, 2)}"
            else:
                name = f"{_coined(rng, 2)} {rng.choice(['Peak', 'Spire', 'Horn', 'Dome'])}"
        elif kind == "range":
            name = f"{_coined(rng, 2)} {rng.choice(['Range', 'Massif', 'Mountains', 'Highlands'])}"
        elif kind == "alpineclub":
            name = f"{_coined(rng, 2)} {rng.choice(['Alpine Club', 'Mountaineering Club', 'Climbing Society', 'Fell Club'])}"
        elif kind == "outfitter":
            name = f"{_coined(rng, 2)} {rng.choice(['Outdoor', 'Mountain Gear', 'Alpinwear', 'Summit Kit'])}"
        elif kind == "production":
            name = f"{rng.choice(['Spring', 'Autumn', 'Winter', 'Summer', 'Festival', 'Midnight'])} {rng.choice(['Revival', 'Season', 'Tour', 'Premiere', 'Staging'])} {rng.randint(1960, 2023)}"
        elif kind == "play":
            name = f"{rng.choice(['The Ballad of', 'Waiting for', 'The Trial of', 'A Winter with', 'The Widow of', 'Three Sisters of', 'The Ghosts of', 'Requiem for'])} {_coined(rng, 2)}"
        elif kind == "playhouse":
            name = f"{_coined(rng, 2)} {rng.choice(['Playhouse', 'Lyceum', 'Hippodrome', 'Little Theatre', 'Alhambra', 'Theatre Royal'])}"
        elif kind == "troupe":
            name = f"{_coined(rng, 2)} {rng.choice(['Players', 'Repertory Company', 'Stage Company', 'Theatre Guild', 'Ensemble'])}"
        elif kind == "mission":
            name = f"{_coined(rng, 2)} {rng.choice(['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX'])}"
        elif kind == "launcher":
            name = f"{_coined(rng, 2)} {rng.choice(['Heavy', 'Lift', 'Prime', 'Booster', 'Rocket'])}"
        elif kind == "spaceport":
            name = f"{_coined(rng, 2)} {rng.choice(['Spaceport', 'Cosmodrome', 'Launch Complex', 'Space Centre'])}"
        elif kind == "agency":
            name = f"{_coined(rng, 2)} {rng.choice(['Space Agency', 'Orbital Directorate', 'Aerospace Authority', 'Space Institute'])}"
        elif kind == "company":
            name = f"{_coined(rng, 2)} {rng.choice(['Industries', 'Holdings', 'Group', 'Works', 'Labs'])}"
        elif kind == "vessel":
            name = f"{rng.choice(['MV', 'SS', 'MS', 'MT'])} {_coined(rng, 2)} {rng.choice(['Star', 'Spirit', 'Trader', 'Venture', 'Pride', 'Endeavour'])}"
        elif kind == "seaport":
            name = (f"Port {_coined(rng, 2)}" if rng.random() < 0.3 else
                    f"{_coined(rng, 2)} {rng.choice(['Harbour', 'Docks', 'Roads', 'Bay'])}")
        elif kind == "shipline":
            name = f"{_coined(rng, 2)} {rng.choice(['Line', 'Shipping', 'Maritime', 'Navigation Company', 'Steamship Company'])}"
        elif kind == "shipyard":
            name = f"{_coined(rng, 2)} {rng.choice(['Shipyard', 'Dockyard', 'Marine Works', 'Shipbuilding'])}"
        elif kind == "fashionhouse":
            name = rng.choice(["House of {}", "{} Couture", "Atelier {}", "{} & Fils"]).format(
                _coined(rng, 2))
        elif kind == "collection":
            name = f"{_coined(rng, 2)} {rng.choice(['Resort', 'Pre-Fall', 'Couture', 'Spring-Summer', 'Autumn-Winter', 'Cruise'])} {rng.randint(1985, 2024)}"
        elif kind == "fashionweek":
            name = f"{_coined(rng, 2)} {rng.choice(['Fashion Week', 'Couture Week', 'Runway Days'])}"
        elif kind == "almamater":
            name = rng.choice(["University of {}", "{} College", "{} Academy of Dramatic Art",
                               "{} Polytechnic", "{} School of Economics",
                               "{} Conservatoire"]).format(_coined(rng, 2))
        elif kind == "wine":
            name = f"{_coined(rng, 2)} {rng.choice(['Reserve', 'Grand Vin', 'Old Vines', 'Riserva', 'Blanc de Blancs', 'Rouge', 'Late Harvest', 'Cuvee Prestige'])}"
        elif kind == "winery":
            name = rng.choice(["Chateau {}", "Domaine {}", "{} Estate", "Bodega {}", "Weingut {}",
                               "{} Cellars"]).format(_coined(rng, 2))
        elif kind == "winearea":
            name = rng.choice(["{} Valley", "Cotes de {}", "{} Hills", "Upper {}", "{} Slopes",
                               "{} Coast"]).format(_coined(rng, 2))
        elif kind == "apiary":
            name = f"{_coined(rng, 2)} {rng.choice(['Apiary', 'Bee Yard', 'Bee Garden', 'Hives', 'Honey Farm'])}"
        elif kind == "honey":
            name = f"{_coined(rng, 2)} {rng.choice(['Raw Honey', 'Creamed Honey', 'Comb Honey', 'Set Honey', 'Runny Honey', 'Summer Honey', 'Autumn Honey'])}"
        elif kind == "beeclub":
            name = f"{_coined(rng, 2)} {rng.choice(['Beekeepers Association', 'Beekeeping Society', 'Bee Club', 'Apiarists Guild'])}"
        elif kind == "honeyshop":
            name = f"{_coined(rng, 2)} {rng.choice(['Farm Shop', 'Deli', 'Market Hall', 'General Store', 'Wholefoods'])}"
        elif kind == "cycleteam":
            name = rng.choice(["Team {}", "{} Pro Cycling", "{} Racing", "{} Cycling Team",
                               "{} Velo"]).format(_coined(rng, 2))
        elif kind == "bikebrand":
            name = rng.choice(["{} Cycles", "{} Bicycles", "{} Bikes", "{} Frameworks",
                               "{} Bike Co"]).format(_coined(rng, 2))
        elif kind == "bikerace":
            name = rng.choice(["Tour of {}", "{} Classic", "Giro del {}", "Circuit de {}",
                               "{} Grand Prix", "{} Week"]).format(_coined(rng, 2))
        elif kind == "chessclub":
            name = rng.choice(["{} Chess Club", "{} Knights", "{} Chess Circle", "{} Gambiteers",
                               "{} Rooks"]).format(_coined(rng, 2))
        elif kind == "chessevent":
            name = rng.choice(["{} Open", "{} Invitational", "{} Chess Congress", "{} Masters",
                               "{} Memorial", "{} Rapidplay"]).format(_coined(rng, 2))
        elif kind == "excavation":
            name = rng.choice(["{} Excavation", "{} Dig", "{} Field Project",
                               "{} Rescue Excavation", "{} Landscape Project"]).format(
                _coined(rng, 2))
        elif kind == "digsite":
            name = rng.choice(["{} Barrow", "{} Hillfort", "Tell {}", "{} Villa", "{} Necropolis",
                               "{} Cave", "{} Henge", "{} Crannog"]).format(_coined(rng, 2))
        elif kind == "artefact":
            name = rng.choice(["{} Hoard", "{} Torc", "{} Figurine", "{} Helmet", "{} Brooch",
                               "{} Tablet", "{} Mask", "{} Chalice", "{} Amulet"]).format(
                _coined(rng, 2))
        elif kind == "archmuseum":
            name = rng.choice(["{} Museum of Antiquities", "{} Archaeological Museum",
                               "{} Heritage Centre", "{} Museum", "{} Antiquarium"]).format(
                _coined(rng, 2))
        elif kind == "heritagefund":
            name = rng.choice(["{} Heritage Trust", "{} Foundation", "{} Antiquarian Society",
                               "{} Archaeology Fund", "{} Research Council"]).format(
                _coined(rng, 2))
        else:
            raise KeyError(kind)
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


# --------------------------------------------------------------------------- domains

def _r(key, head, tail, noun, verb, camel, np, ask, clause=(), np_back=(), ask_back=(),
       fanout=(1, 1), skew=0.6, chain=True) -> Rel:
    return Rel(key, head, tail, noun, verb, camel, tuple(np), tuple(ask), tuple(clause),
               tuple(np_back), tuple(ask_back), fanout, skew, chain)


MUSIC = Domain("music", "sound", {
    "Musician": ("person", 160), "Band": ("band", 40), "Album": ("album", 90),
    "Label": ("label", 12), "City": ("city", 30), "Country": ("country", 8),
    "Instrument": ("instrument", 12), "Genre": ("genre", 10)}, {
    "Musician": "musician", "Band": "band", "Album": "album", "Label": "label",
    "City": "city", "Country": "country", "Instrument": "instrument", "Genre": "genre"}, (
    _r("member_of", "Musician", "Band", "band", "MEMBER_OF", "memberOf",
       ["the band of {x}", "{x} 's band", "the group {x} plays in"],
       ["which band is {x} in?", "what group does {x} belong to?", "{x} is a member of which band?"],
       ["plays in {x}", "is a member of {x}", "belongs to {x}"],
       ["the members of {x}", "the musicians in {x}"],
       ["who plays in {x}?", "who are the members of {x}?"], skew=0.3),
    _r("instrument", "Musician", "Instrument", "instrument", "PLAYS", "playsInstrument",
       ["the instrument of {x}", "{x} 's instrument"],
       ["what instrument does {x} play?", "which instrument is {x} known for?"],
       ["plays the {x}"], chain=False),
    _r("artist", "Album", "Band", "performer", "RECORDED_BY", "recordedBy",
       ["the band behind {x}", "the artist of {x}", "the group that recorded {x}"],
       ["who recorded {x}?", "which band made {x}?", "who is the artist behind {x}?"],
       ["was recorded by {x}", "is by {x}"],
       ["the albums of {x}", "{x} 's records"],
       ["which albums did {x} record?", "what records has {x} made?"], skew=0.4),
    _r("label", "Album", "Label", "record_label", "RELEASED_ON", "recordLabel",
       ["the label of {x}", "the record company that released {x}"],
       ["on which label was {x} released?", "which record company put out {x}?"],
       ["was released on {x}", "came out on {x}"], skew=0.8),
    _r("label_city", "Label", "City", "home_city", "BASED_IN", "basedIn",
       ["the home city of {x}", "the city {x} is based in"],
       ["where is {x} based?", "in which city is {x} headquartered?"],
       ["is based in {x}"]),
    _r("hometown", "Musician", "City", "hometown", "COMES_FROM", "hometown",
       ["the hometown of {x}", "{x} 's home town", "the city {x} comes from"],
       ["where does {x} come from?", "what is {x} 's hometown?", "which city is {x} from?"],
       ["comes from {x}", "grew up in {x}"],
       ["the musicians from {x}"], ["which musicians come from {x}?"]),
    _r("genre", "Band", "Genre", "genre", "PERFORMS_STYLE", "musicGenre",
       ["the style of {x}", "the genre of {x}", "{x} 's kind of music"],
       ["what kind of music does {x} play?", "which genre is {x}?", "what style does {x} perform?"],
       ["is a {x} band", "performs {x}"], chain=False),
    _r("city_country", "City", "Country", "country", "LOCATED_IN", "inCountry",
       ["the country of {x}", "the nation {x} lies in"],
       ["which country is {x} in?", "in what nation is {x}?"],
       ["lies in {x}", "is located in {x}"], skew=0.2),
))

ACADEMIA = Domain("academia", "scholar", {
    "Researcher": ("person", 160), "University": ("university", 18), "Paper": ("paper", 150),
    "Field": ("field", 10), "City": ("city", 20), "Country": ("country", 7)}, {
    "Researcher": "researcher", "University": "university", "Paper": "paper",
    "Field": "field", "City": "city", "Country": "country"}, (
    _r("employer", "Researcher", "University", "affiliation", "WORKS_AT", "employedBy",
       ["the employer of {x}", "the university {x} works for", "{x} 's institution"],
       ["where does {x} work?", "which university employs {x}?", "what is {x} 's institution?"],
       ["works at {x}", "is employed by {x}"],
       ["the staff of {x}", "the researchers at {x}"],
       ["who works at {x}?", "which researchers are employed by {x}?"]),
    _r("advisor", "Researcher", "Researcher", "doctoral_advisor", "ADVISED_BY", "advisor",
       ["the advisor of {x}", "{x} 's mentor", "the supervisor of {x}"],
       ["who supervised {x}?", "who was {x} 's doctoral advisor?", "who mentored {x}?"],
       ["was advised by {x}", "studied under {x}"],
       ["the students of {x}", "{x} 's doctoral students"],
       ["who did {x} supervise?", "who were the students of {x}?"], skew=0.3),
    _r("author", "Paper", "Researcher", "author", "WRITTEN_BY", "hasAuthor",
       ["the author of {x}", "the person who wrote {x}"],
       ["who wrote {x}?", "who is the author of {x}?", "who penned {x}?"],
       ["was written by {x}", "is by {x}"],
       ["the papers of {x}", "the articles {x} wrote"],
       ["what papers did {x} write?", "which articles has {x} published?"],
       fanout=(1, 2), skew=0.3),
    _r("topic", "Paper", "Field", "subject", "COVERS", "subjectArea",
       ["the topic of {x}", "the subject of {x}"],
       ["what is {x} about?", "which field does {x} cover?", "what subject does {x} deal with?"],
       ["is about {x}", "covers {x}"], chain=False),
    _r("expertise", "Researcher", "Field", "research_area", "SPECIALIZES_IN", "researchArea",
       ["the specialty of {x}", "{x} 's research area", "the field {x} works in"],
       ["what does {x} research?", "what is {x} 's area of expertise?", "which field is {x} an expert in?"],
       ["specializes in {x}", "researches {x}"], chain=False),
    _r("campus", "University", "City", "campus_city", "SITUATED_IN", "campusLocation",
       ["the city of {x}", "the town where {x} is", "the location of {x}"],
       ["where is {x}?", "in which city is {x} located?", "which town is {x} in?"],
       ["is situated in {x}"], skew=0.2),
    _r("alma_mater", "Researcher", "University", "alma_mater", "GRADUATED_FROM", "almaMater",
       ["the alma mater of {x}", "the school {x} graduated from"],
       ["where did {x} study?", "which university did {x} graduate from?", "where was {x} educated?"],
       ["graduated from {x}", "studied at {x}"]),
    _r("city_nation", "City", "Country", "nation", "WITHIN", "countryOf",
       ["the nation of {x}", "the country {x} belongs to"],
       ["which country is {x} in?", "what nation does {x} belong to?"],
       ["is within {x}"], skew=0.2),
))

SPORTS = Domain("sports", "sport", {
    "Athlete": ("person", 170), "Team": ("team", 24), "League": ("league", 5),
    "Stadium": ("stadium", 20), "City": ("city", 16), "Position": ("position", 6),
    "Coach": ("person", 30), "Country": ("country", 8)}, {
    "Athlete": "athlete", "Team": "team", "League": "league", "Stadium": "stadium",
    "City": "city", "Position": "position", "Coach": "coach", "Country": "country"}, (
    _r("team", "Athlete", "Team", "team", "PLAYS_FOR", "playsFor",
       ["the team of {x}", "the club {x} plays for", "{x} 's side"],
       ["which team does {x} play for?", "what club is {x} on?", "who does {x} play for?"],
       ["plays for {x}", "is on {x}"],
       ["the players of {x}", "the squad of {x}"],
       ["who plays for {x}?", "which athletes are on {x}?"], skew=0.2),
    _r("position", "Athlete", "Position", "position", "PLAYS_AS", "fieldPosition",
       ["the position of {x}", "{x} 's role on the field"],
       ["what position does {x} play?", "what is {x} 's role on the pitch?"],
       ["plays as a {x}"], chain=False),
    _r("coach", "Team", "Coach", "head_coach", "COACHED_BY", "coachedBy",
       ["the coach of {x}", "the manager of {x}", "the person in charge of {x}"],
       ["who coaches {x}?", "who manages {x}?", "who is in charge of {x}?"],
       ["is coached by {x}", "is managed by {x}"],
       ["the teams coached by {x}"], ["which teams does {x} coach?"]),
    _r("league", "Team", "League", "league", "COMPETES_IN", "competition",
       ["the league of {x}", "the competition {x} plays in"],
       ["which league does {x} compete in?", "what competition is {x} part of?"],
       ["competes in {x}"], skew=0.2),
    _r("venue", "Team", "Stadium", "home_venue", "PLAYS_HOME_GAMES_AT", "homeGround",
       ["the stadium of {x}", "{x} 's home ground", "the arena where {x} plays"],
       ["where does {x} play home games?", "what is {x} 's home ground?", "which stadium does {x} use?"],
       ["plays home games at {x}"], skew=0.1),
    _r("venue_city", "Stadium", "City", "city", "STANDS_IN", "cityOfVenue",
       ["the city of {x}", "the town {x} stands in"],
       ["in which city is {x}?", "where is {x}?"],
       ["stands in {x}"], skew=0.2),
    _r("citizenship", "Athlete", "Country", "citizenship", "CITIZEN_OF", "nationality",
       ["the country of {x}", "{x} 's homeland"],
       ["what is the nationality of {x}?", "which country does {x} represent?", "where is {x} a citizen?"],
       ["represents {x}", "is a citizen of {x}"]),
    _r("coach_from", "Coach", "Country", "home_country", "HAILS_FROM", "homeCountry",
       ["the home country of {x}", "the country {x} hails from"],
       ["where does {x} hail from?", "which country is {x} from?"],
       ["hails from {x}"]),
))

FAMILY = Domain("family", "kin", {
    "Person": ("person", 220), "City": ("city", 30), "Country": ("country", 8),
    "Profession": ("profession", 12), "Gender": ("gender", 2), "Religion": ("religion", 6),
    "Cause": ("cause", 8)}, {
    "Person": "person", "City": "city", "Country": "country", "Profession": "profession",
    "Gender": "gender", "Religion": "religion", "Cause": "cause"}, (
    _r("spouse", "Person", "Person", "spouse", "MARRIED_TO", "spouse",
       ["the spouse of {x}", "{x} 's other half", "{x} 's partner", "the person {x} married",
        "{x} 's husband or wife"],
       ["who is {x} married to?", "who is the spouse of {x}?", "who did {x} marry?",
        "who is {x} 's better half?"],
       ["is married to {x}"], skew=0.0),
    _r("child", "Person", "Person", "children", "PARENT_OF", "hasChild",
       ["the children of {x}", "{x} 's son", "{x} 's daughter", "{x} 's kids", "the offspring of {x}"],
       ["who are the children of {x}?", "who is {x} 's son?", "name the kids of {x}",
        "who did {x} raise?"],
       ["is a parent of {x}"],
       ["the parents of {x}", "{x} 's father", "{x} 's mother"],
       ["who are the parents of {x}?", "who is {x} 's mother?", "who raised {x}?"],
       fanout=(1, 3), skew=0.0),
    _r("profession", "Person", "Profession", "profession", "WORKS_AS", "occupation",
       ["the profession of {x}", "{x} 's job", "the occupation of {x}"],
       ["what does {x} do for a living?", "what is the job of {x}?", "what was {x} 's line of work?",
        "what is {x} 's trade?"],
       ["works as a {x}"], chain=False),
    _r("gender", "Person", "Gender", "gender", "HAS_GENDER", "gender",
       ["the gender of {x}", "{x} 's sex"],
       ["is {x} a man or a woman?", "what is the gender of {x}?", "what sex is {x}?"],
       chain=False),
    _r("birthplace", "Person", "City", "place_of_birth", "BORN_IN", "birthPlace",
       ["the birthplace of {x}", "the town {x} was born in", "the city where {x} was born"],
       ["where was {x} born?", "in which city was {x} born?", "what is the birthplace of {x}?",
        "where did {x} come into the world?"],
       ["was born in {x}"], ["the people born in {x}"], ["who was born in {x}?"]),
    _r("death", "Person", "Cause", "cause_of_death", "DIED_OF", "causeOfDeath",
       ["the cause of death of {x}", "what killed {x}"],
       ["what killed {x}?", "how did {x} die?", "what did {x} die of?"],
       ["died of {x}"], chain=False),
    _r("religion", "Person", "Religion", "religion", "PRACTICES", "faith",
       ["the religion of {x}", "{x} 's faith"],
       ["what faith does {x} follow?", "what is {x} 's religion?", "which religion did {x} practice?"],
       ["practices {x}"], chain=False),
    _r("city_state", "City", "Country", "sovereign_state", "PART_OF_COUNTRY", "stateOf",
       ["the country containing {x}", "the state {x} is part of"],
       ["which country is {x} part of?", "in what country does {x} lie?"],
       ["is part of {x}"], skew=0.2),
))

BUSINESS = Domain("business", "trade", {
    "Company": ("company", 60), "Person": ("person", 90), "City": ("city", 20),
    "Country": ("country", 7), "Industry": ("industry", 10), "Product": ("product", 13)}, {
    "Company": "company", "Person": "person", "City": "city", "Country": "country",
    "Industry": "industry", "Product": "product"}, (
    _r("founder", "Company", "Person", "founder", "FOUNDED_BY", "foundedBy",
       ["the founder of {x}", "the person who started {x}", "{x} 's creator"],
       ["who founded {x}?", "who started {x}?", "who set up {x}?"],
       ["was founded by {x}", "was started by {x}"],
       ["the companies {x} founded", "the firms started by {x}"],
       ["which companies did {x} found?", "what firms did {x} start?"], skew=0.3),
    _r("ceo", "Company", "Person", "chief_executive", "LED_BY", "ceo",
       ["the boss of {x}", "the CEO of {x}", "the person running {x}"],
       ["who runs {x}?", "who is the head of {x}?", "who leads {x}?"],
       ["is led by {x}", "is run by {x}"], skew=0.0),
    _r("hq", "Company", "City", "headquarters", "HEADQUARTERED_IN", "headOffice",
       ["the headquarters of {x}", "the city where {x} has its head office"],
       ["where is {x} headquartered?", "in which city is the head office of {x}?",
        "where does {x} have its main office?"],
       ["is headquartered in {x}", "has its head office in {x}"],
       ["the companies based in {x}"], ["which companies are headquartered in {x}?"]),
    _r("industry", "Company", "Industry", "sector", "OPERATES_IN", "industrySector",
       ["the industry of {x}", "the sector {x} is in", "{x} 's line of business"],
       ["what business is {x} in?", "which industry does {x} belong to?", "what sector is {x} in?"],
       ["operates in {x}", "is in the {x} business"], chain=False),
    _r("product", "Company", "Product", "products", "MAKES", "manufactures",
       ["the products of {x}", "the goods {x} makes"],
       ["what does {x} make?", "what does {x} manufacture?", "what goods does {x} produce?"],
       ["makes {x}", "manufactures {x}"], fanout=(1, 2), chain=False),
    _r("owner", "Company", "Company", "parent_company", "OWNED_BY", "parentOrganization",
       ["the owner of {x}", "the parent of {x}", "the company that owns {x}"],
       ["who owns {x}?", "which company is {x} part of?", "what is the parent company of {x}?"],
       ["is owned by {x}"],
       ["the subsidiaries of {x}", "the companies {x} owns"],
       ["which companies does {x} own?", "what are the subsidiaries of {x}?"], skew=0.3),
    _r("residence", "Person", "City", "residence", "LIVES_IN", "livesIn",
       ["the home of {x}", "the city {x} lives in"],
       ["where does {x} live?", "in which city does {x} reside?", "where is {x} 's home?"],
       ["lives in {x}", "resides in {x}"]),
    _r("city_land", "City", "Country", "land", "IN_TERRITORY_OF", "territoryOf",
       ["the land of {x}", "the country {x} is in"],
       ["which country holds {x}?", "what land is {x} in?"],
       ["is in {x}"], skew=0.2),
))

# people linked to people (who reports to whom, who mentors whom) with attributes at the end
# of a chain: the fit split's shape nearest the report split's kinship chains, in a domain and
# wording of its own
WORKPLACE = Domain("workplace", "org", {
    "Employee": ("person", 170), "Title": ("title", 10), "Department": ("department", 10),
    "Office": ("city", 14), "Country": ("country", 6), "Hobby": ("hobby", 10)}, {
    "Employee": "employee", "Title": "title", "Department": "department", "Office": "office",
    "Country": "country", "Hobby": "hobby"}, (
    _r("manager", "Employee", "Employee", "line_manager", "REPORTS_TO", "reportsTo",
       ["the manager of {x}", "{x} 's boss", "the person {x} reports to"],
       ["who does {x} report to?", "who is {x} 's boss?", "who manages {x}?"],
       ["reports to {x}"],
       ["the direct reports of {x}", "the people {x} manages"],
       ["who reports to {x}?", "whom does {x} manage?"], skew=0.3),
    _r("mentor", "Employee", "Employee", "mentor", "MENTORED_BY", "mentoredBy",
       ["the mentor of {x}", "the person who guides {x}", "{x} 's mentor"],
       ["who mentors {x}?", "who guides {x}?", "who is {x} 's mentor?"],
       ["is mentored by {x}"],
       ["the mentees of {x}", "the people {x} guides"],
       ["who does {x} mentor?", "whom does {x} guide?"], skew=0.2),
    _r("title", "Employee", "Title", "job_title", "HOLDS_TITLE", "jobTitle",
       ["the title of {x}", "{x} 's role", "the position {x} holds"],
       ["what is {x} 's role?", "what title does {x} hold?", "what position does {x} have?"],
       ["serves as {x}"], chain=False),
    _r("department", "Employee", "Department", "department", "WORKS_IN", "inDepartment",
       ["the department of {x}", "the unit {x} belongs to", "{x} 's division"],
       ["which department is {x} in?", "what unit does {x} work in?"],
       ["works in {x}", "is in the {x} department"],
       ["the employees of {x}"], ["who works in {x}?"], skew=0.2),
    _r("dept_head", "Department", "Employee", "department_head", "HEADED_BY", "headedBy",
       ["the head of {x}", "the person leading {x}"],
       ["who heads {x}?", "who is in charge of the {x} department?"],
       ["heads {x}"], skew=0.0),
    _r("office", "Employee", "Office", "office_location", "BASED_AT", "officeLocation",
       ["the office of {x}", "the site {x} works from"],
       ["which office does {x} work from?", "where is {x} 's desk?"],
       ["works from {x}"], ["the people at {x}"], ["who works from {x}?"], skew=0.2),
    _r("office_country", "Office", "Country", "office_country", "OFFICE_IN", "officeCountry",
       ["the country of {x}", "the country where {x} is"],
       ["which country is {x} in?", "in what country is {x}?"],
       ["is a site in {x}"], skew=0.2),
    _r("hobby", "Employee", "Hobby", "hobby", "ENJOYS", "pastime",
       ["the hobby of {x}", "{x} 's pastime"],
       ["what does {x} do for fun?", "what is {x} 's hobby?", "how does {x} spend free time?"],
       ["enjoys {x}"], chain=False),
))

# the holdout split: written after the report split had been looked at in aggregate (which
# kinds of error it makes) and fixes had been made for them; measured once per session, never
# read question by question
PUBLISHING = Domain("publishing", "lit", {
    "Author": ("person", 150), "Book": ("book", 120), "Publisher": ("publisher", 12),
    "City": ("city", 25), "Country": ("country", 7), "Genre": ("litgenre", 8),
    "Language": ("language", 6)}, {
    "Author": "author", "Book": "book", "Publisher": "publisher", "City": "city",
    "Country": "country", "Genre": "genre", "Language": "language"}, (
    _r("novelist", "Book", "Author", "novelist", "PENNED_BY", "novelist",
       ["the writer of {x}", "the novelist behind {x}", "the one who penned {x}"],
       ["who put {x} on paper?", "whose book is {x}?", "which novelist wrote {x}?"],
       ["was penned by {x}", "came from the pen of {x}"],
       ["the books {x} penned", "{x} 's novels"],
       ["what did {x} write?", "which books are by {x}?"], skew=0.3),
    _r("imprint", "Book", "Publisher", "imprint", "ISSUED_BY", "publishedBy",
       ["the publisher of {x}", "the house that issued {x}"],
       ["who published {x}?", "which house brought out {x}?"],
       ["was issued by {x}", "was published by {x}"],
       ["the titles of {x}", "the books {x} issued"],
       ["what has {x} published?"]),
    _r("base_city", "Publisher", "City", "base_city", "OPERATES_FROM", "baseCity",
       ["the city {x} operates from", "{x} 's home base"],
       ["where is {x} located?", "in which town does {x} operate?"],
       ["operates from {x}"], skew=0.2),
    _r("native", "Author", "City", "native_city", "NATIVE_OF", "nativeCity",
       ["the native city of {x}", "the place {x} grew up"],
       ["where is {x} from originally?", "what town does {x} call home?"],
       ["was brought up in {x}", "is a native of {x}"],
       ["the writers from {x}"], ["which authors were brought up in {x}?"]),
    _r("city_nation_state", "City", "Country", "nation_state", "INSIDE", "insideCountry",
       ["the country around {x}", "the nation {x} sits in"],
       ["in which country does {x} sit?", "which nation contains {x}?"],
       ["sits inside {x}"], skew=0.2),
    _r("form", "Book", "Genre", "literary_form", "CLASSIFIED_AS", "bookGenre",
       ["the category of {x}", "the kind of book {x} is"],
       ["what sort of book is {x}?", "what genre does {x} belong in?"],
       ["is classified as {x}", "is a work of {x}"], chain=False),
    _r("influence", "Author", "Author", "influence", "INSPIRED_BY", "influencedBy",
       ["the idol of {x}", "{x} 's literary hero", "the writer who inspired {x}"],
       ["who inspired {x}?", "whose work shaped {x}?", "who did {x} look up to?"],
       ["was inspired by {x}", "looked up to {x}"],
       ["the writers {x} inspired", "{x} 's admirers"],
       ["whom did {x} inspire?", "who looks up to {x}?"], skew=0.3),
    _r("tongue", "Book", "Language", "original_language", "WRITTEN_IN", "inLanguage",
       ["the language of {x}"],
       ["what language is {x} in?", "in which tongue was {x} written?"],
       ["is written in {x}"], chain=False),
))

MEDICINE = Domain("medicine", "med", {
    "Doctor": ("person", 90), "Patient": ("person", 160), "Hospital": ("hospital", 12),
    "City": ("city", 20), "Specialty": ("specialty", 8), "Condition": ("condition", 8),
    "Drug": ("drug", 8)}, {
    "Doctor": "doctor", "Patient": "patient", "Hospital": "hospital", "City": "city",
    "Specialty": "specialty", "Condition": "condition", "Drug": "drug"}, (
    _r("physician", "Patient", "Doctor", "physician", "CARED_FOR_BY", "attendingDoctor",
       ["the doctor of {x}", "{x} 's physician", "the medic looking after {x}"],
       ["who treats {x}?", "who is {x} 's doctor?", "which physician sees {x}?"],
       ["is treated by {x}", "sees {x}"],
       ["the patients of {x}", "the people {x} treats"],
       ["who does {x} treat?", "whom does {x} look after?"], skew=0.3),
    _r("practice", "Doctor", "Hospital", "hospital", "PRACTISES_AT", "practiceSite",
       ["the hospital of {x}", "the clinic where {x} practises"],
       ["where does {x} practise?", "at which hospital does {x} work?"],
       ["practises at {x}", "is on the staff of {x}"],
       ["the doctors at {x}", "the staff physicians of {x}"],
       ["which doctors practise at {x}?"]),
    _r("site", "Hospital", "City", "site_city", "BUILT_IN", "hospitalTown",
       ["the town housing {x}", "{x} 's town"],
       ["where does {x} stand?", "which town is {x} located in?"],
       ["was built in {x}"], ["the hospitals in {x}"], ["which hospitals are in {x}?"],
       skew=0.2),
    _r("specialty", "Doctor", "Specialty", "specialty", "FOCUSES_ON", "medicalSpecialty",
       ["the field of medicine {x} practises", "{x} 's area of care"],
       ["what kind of doctor is {x}?", "what does {x} specialise in?"],
       ["specialises in {x}", "is trained in {x}"], chain=False),
    _r("diagnosis", "Patient", "Condition", "diagnosis", "SUFFERS_FROM", "hasCondition",
       ["the illness of {x}", "what ails {x}"],
       ["what is wrong with {x}?", "what illness does {x} have?",
        "what was {x} diagnosed with?"],
       ["suffers from {x}", "was diagnosed with {x}"], chain=False),
    _r("medication", "Patient", "Drug", "medication", "PRESCRIBED", "takesDrug",
       ["the medicine of {x}", "the drug {x} takes"],
       ["what is {x} taking?", "which drug was {x} prescribed?"],
       ["takes {x}", "was prescribed {x}"], chain=False),
    _r("trainer", "Doctor", "Doctor", "residency_supervisor", "TRAINED_UNDER", "trainedBy",
       ["the teacher of {x}", "the senior who trained {x}"],
       ["who trained {x}?", "under whom did {x} train?"],
       ["trained under {x}"],
       ["the trainees of {x}", "the juniors {x} trained"],
       ["whom did {x} train?", "who trained under {x}?"], skew=0.3),
    _r("domicile", "Patient", "City", "domicile", "RESIDES_AT", "dwellsIn",
       ["the home town of {x}", "the place {x} calls home"],
       ["where does {x} stay?", "in what town is {x} 's home?"],
       ["dwells in {x}", "has a home in {x}"],
       ["the patients living in {x}"], ["who has a home in {x}?"]),
))

# the blind split: written by a helper who had never read byokg's reasoning code, before the
# session's reasoning changes, with names and wording of its own; measured only in aggregate
AVIATION = Domain("aviation", "aero", {
    "Pilot": ("person", 150), "Airline": ("airline", 18), "Airport": ("airport", 24),
    "City": ("city", 24), "Country": ("country", 9), "Aircraft": ("aircraft", 10),
    "Rank": ("rank", 6), "Year": ("year", 12)}, {
    "Pilot": "pilot", "Airline": "airline", "Airport": "airport", "City": "city",
    "Country": "country", "Aircraft": "aircraft", "Rank": "rank", "Year": "year"}, (
    _r("employer", "Pilot", "Airline", "carrier", "FLIES_FOR", "airlineEmployer",
       ["the airline {x} flies for", "the outfit that employs {x}", "{x} 's airline"],
       ["which airline did {x} fly for?", "who is {x} flying for these days?",
        "what carrier employs {x}?", "{x} works for which airline?"],
       ["flies for {x}", "is on the payroll of {x}"],
       ["the pilots of {x}", "the people flying for {x}", "{x} 's pilots"],
       ["who flies for {x}?", "which pilots does {x} employ?", "who are {x} 's pilots?"],
       skew=0.1),
    _r("instructor", "Pilot", "Pilot", "flight_instructor", "LEARNED_FROM", "taughtBy",
       ["the instructor of {x}", "the pilot who taught {x} to fly", "{x} 's flying teacher"],
       ["who taught {x} to fly?", "who was {x} 's instructor?",
        "under which pilot did {x} earn their wings?"],
       ["learned to fly under {x}", "got their wings from {x}"],
       ["the students {x} taught to fly", "{x} 's flight students"],
       ["whom did {x} teach to fly?", "who learned to fly from {x}?",
        "which pilots trained with {x}?"], skew=0.3),
    _r("hub", "Airline", "Airport", "main_base", "OPERATES_OUT_OF", "hubAirport",
       ["the hub of {x}", "the airport {x} operates out of", "{x} 's main hub"],
       ["where does {x} have its base?", "which airport does {x} use as its hub?",
        "out of which airport does {x} fly?", "what is {x} 's hub?"],
       ["is hubbed at {x}", "operates out of {x}"],
       ["the airlines hubbed at {x}", "the carriers based at {x}"],
       ["which airlines are based at {x}?", "what carriers fly out of {x}?"], skew=0.2),
    _r("serves", "Airport", "City", "served_city", "SERVES", "servesCity",
       ["the city served by {x}", "the place {x} is the airport for"],
       ["which city does {x} serve?", "what town is {x} the airport for?",
        "if you land at {x}, what city are you in?"],
       ["serves {x}", "is the airport for {x}"],
       ["the airports of {x}", "the airfields serving {x}", "the airports near {x}"],
       ["which airports serve {x}?", "where do planes land for {x}?",
        "what airport would you fly into to visit {x}?"], skew=0.2),
    _r("nation", "City", "Country", "host_nation", "PART_OF_NATION", "nationOf",
       ["the country {x} lies within", "the nation that is home to {x}"],
       ["what country is {x} located in?", "{x} is in which country?",
        "which nation does {x} belong to?"],
       ["is a city of {x}", "lies within {x}"],
       ["the cities of {x}"], ["which cities are in {x}?", "name the cities of {x}"],
       skew=0.2),
    _r("rating", "Pilot", "Aircraft", "type_rating", "RATED_ON", "certifiedAircraft",
       ["the aircraft {x} is rated on", "the planes {x} is qualified to fly"],
       ["what aircraft is {x} certified to fly?", "which planes can {x} fly?",
        "what type rating does {x} hold?"],
       ["is type-rated on the {x}", "is qualified to fly the {x}"],
       ["the pilots rated on {x}"],
       ["who is qualified to fly {x}?", "which pilots hold a rating on {x}?"],
       fanout=(1, 2), skew=0.4),
    _r("rank", "Pilot", "Rank", "seniority", "HOLDS_RANK", "cockpitRank",
       ["the rank of {x}", "{x} 's seniority"],
       ["what rank does {x} hold?", "how senior is {x}?", "what is {x} 's rank in the cockpit?"],
       ["holds the rank of {x}", "ranks as {x}"], skew=0.5, chain=False),
    _r("founded", "Airline", "Year", "year_founded", "ESTABLISHED_IN", "foundingYear",
       ["the year {x} was founded", "the founding year of {x}"],
       ["when was {x} founded?", "in what year did {x} start flying?",
        "when did {x} begin operations?"],
       ["was founded in {x}", "started flying in {x}"], chain=False),
))

DINING = Domain("dining", "dine", {
    "Chef": ("person", 120), "Restaurant": ("restaurant", 40), "Dish": ("dish", 12),
    "Cuisine": ("cuisine", 8), "Ingredient": ("ingredient", 10), "City": ("city", 20),
    "Year": ("year", 12)}, {
    "Chef": "chef", "Restaurant": "restaurant", "Dish": "dish", "Cuisine": "cuisine",
    "Ingredient": "ingredient", "City": "city", "Year": "year"}, (
    _r("kitchen", "Chef", "Restaurant", "kitchen", "COOKS_AT", "chefAt",
       ["the restaurant {x} cooks at", "the kitchen {x} runs", "{x} 's restaurant"],
       ["where does {x} cook?", "which restaurant is {x} the chef at?",
        "at which restaurant can you eat {x} 's food?"],
       ["cooks at {x}", "runs the kitchen at {x}"],
       ["the chefs of {x}", "the cooks working at {x}"],
       ["who cooks at {x}?", "who is in the kitchen at {x}?",
        "which chefs work the line at {x}?"], skew=0.2),
    _r("apprenticeship", "Chef", "Chef", "apprenticeship", "APPRENTICED_UNDER", "mentorChef",
       ["the chef {x} apprenticed under", "the master who trained {x}", "{x} 's old mentor"],
       ["who did {x} apprentice under?", "who taught {x} to cook?", "whose apprentice was {x}?"],
       ["apprenticed under {x}", "learned the trade from {x}"],
       ["the apprentices of {x}", "the cooks {x} brought up"],
       ["who apprenticed with {x}?", "which cooks did {x} train?",
        "who came up in {x} 's kitchen?"], skew=0.3),
    _r("signature", "Restaurant", "Dish", "signature_dish", "KNOWN_FOR", "famousDish",
       ["the signature dish of {x}", "the plate {x} is known for", "{x} 's house specialty"],
       ["what is {x} famous for?", "what should you order at {x}?",
        "which dish made {x} 's name?"],
       ["is famous for its {x}", "is known for its {x}"],
       ["the restaurants known for {x}", "the places famous for their {x}"],
       ["where should I go for {x}?", "which restaurants are famous for {x}?"], skew=0.5),
    _r("cuisine", "Dish", "Cuisine", "tradition", "BELONGS_TO_CUISINE", "cuisine",
       ["the cuisine of {x}", "the culinary tradition behind {x}"],
       ["what cuisine is {x}?", "which cooking tradition does {x} come from?",
        "{x} belongs to which cuisine?"],
       ["is a classic of {x} cooking", "comes from the {x} kitchen"], skew=0.3, chain=False),
    _r("ingredient", "Dish", "Ingredient", "key_ingredient", "MADE_WITH", "mainIngredient",
       ["the key ingredient of {x}", "what goes into {x}"],
       ["what is {x} made with?", "which ingredient does {x} call for?", "what goes into {x}?"],
       ["is made with {x}", "calls for {x}"], fanout=(1, 2), skew=0.4, chain=False),
    _r("location", "Restaurant", "City", "locality", "ADDRESS_IN", "restaurantCity",
       ["the town where {x} has its dining room", "the city that {x} calls home"],
       ["in what city can you find {x}?", "where would I find {x}?",
        "which town do I travel to for dinner at {x}?"],
       ["has its dining room in {x}", "can be found in {x}"],
       ["the restaurants of {x}", "the places to eat in {x}"],
       ["where can I eat in {x}?", "which restaurants are there in {x}?"], skew=0.2),
    _r("raised", "Chef", "City", "origin", "GREW_UP_IN", "hometownCity",
       ["the town {x} grew up in", "{x} 's hometown"],
       ["where did {x} grow up?", "which town does {x} hail from?",
        "what city was {x} raised in?"],
       ["was raised in {x}", "spent their childhood in {x}"],
       ["the chefs raised in {x}", "the cooks who grew up in {x}"],
       ["which cooks grew up in {x}?", "who among the chefs was raised in {x}?"]),
    _r("opened", "Restaurant", "Year", "opening_year", "OPENED_IN", "yearOpened",
       ["the year {x} opened"],
       ["when did {x} open?", "in which year did {x} first welcome diners?",
        "what year did {x} open its doors?"],
       ["opened its doors in {x}", "first welcomed diners in {x}"], chain=False),
))

# the blind2 split: written like the blind split, by a helper who had never read byokg's
# reasoning rules, with names and wording of its own; kept unmeasured until the end of the
# session that asked for it, then measured only in aggregate
ART = Domain("art", "gallery", {
    "Museum": ("museum", 16), "Patron": ("patron", 14), "Painting": ("artwork", 130),
    "Artist": ("person", 140), "City": ("city", 22), "Movement": ("movement", 8),
    "Year": ("year", 12)}, {
    "Museum": "museum", "Patron": "patron", "Painting": "painting", "Artist": "artist",
    "City": "city", "Movement": "movement", "Year": "year"}, (
    _r("painter", "Painting", "Artist", "creator", "PAINTED_BY", "attributedTo",
       ["the painter of {x}", "the artist who made {x}", "the one whose brush gave us {x}"],
       ["who painted {x}?", "{x} is the work of which artist?", "whose hand is behind {x}?",
        "who is {x} attributed to?"],
       ["was painted by {x}", "is attributed to {x}"],
       ["the pictures {x} painted", "{x} 's canvases", "the body of work of {x}"],
       ["what did {x} paint?", "which pictures are by {x}?",
        "what canvases came out of {x} 's studio?"], skew=0.3),
    _r("teacher", "Artist", "Artist", "teacher", "PUPIL_OF", "apprenticedTo",
       ["the painter who taught {x}", "the master {x} trained with", "{x} 's old master"],
       ["who taught {x}?", "whose pupil was {x}?", "with which master did {x} train?",
        "who was {x} apprenticed to?"],
       ["trained with {x}", "was a pupil of {x}"],
       ["the pupils of {x}", "the artists {x} taught", "the apprentices {x} has had"],
       ["who learned painting from {x}?", "whom did {x} take on as pupils?",
        "which artists came out of {x} 's workshop?"], skew=0.3),
    _r("holding", "Painting", "Museum", "current_holder", "HANGS_IN", "museumCollection",
       ["the museum that owns {x}", "the gallery where {x} hangs",
        "the collection {x} is part of"],
       ["where can I see {x}?", "which museum has {x}?", "where does {x} hang these days?",
        "in which gallery is {x} on display?"],
       ["hangs in {x}", "is on display at {x}", "belongs to the collection of {x}"],
       ["the holdings of {x}", "the pictures on show at {x}", "{x} 's collection"],
       ["what paintings does {x} own?", "what is there to see at {x}?",
        "which works hang in {x}?"], skew=0.3),
    _r("museum_city", "Museum", "City", "municipality", "SITED_IN", "museumTown",
       ["the city that hosts {x}", "the town you would travel to for {x}"],
       ["which city is {x} situated in?", "where would I go to visit {x}?",
        "which town is home to {x}?"],
       ["is in the city of {x}", "stands in the heart of {x}"],
       ["the museums of {x}", "the galleries you can visit in {x}"],
       ["what museums are there in {x}?", "which galleries does {x} have?"], skew=0.2),
    _r("benefactor", "Museum", "Patron", "benefactor", "ENDOWED_BY", "mainDonor",
       ["the benefactor of {x}", "the patron who bankrolled {x}", "{x} 's chief donor"],
       ["who funded {x}?", "whose money built {x}?", "who is {x} 's biggest donor?",
        "who paid for {x}?"],
       ["was endowed by {x}", "owes its existence to {x}"],
       ["the museums {x} supported", "the institutions {x} gave money to"],
       ["which museum did {x} donate to?", "where did {x} 's money go?",
        "what galleries has {x} sponsored?"], skew=0.4),
    _r("movement", "Artist", "Movement", "school", "ASSOCIATED_WITH", "artMovement",
       ["the movement of {x}", "the school {x} belonged to", "{x} 's style"],
       ["what movement was {x} part of?", "which school of painting does {x} belong to?",
        "what style did {x} paint in?"],
       ["was part of the {x} movement", "painted in the {x} manner"], skew=0.3, chain=False),
    _r("birthplace", "Artist", "City", "native_town", "BORN_AT", "placeOfOrigin",
       ["the native town of {x}", "the city that gave us {x}", "{x} 's home city"],
       ["where was {x} from?", "which city produced {x}?", "what is {x} 's native town?",
        "in what city did {x} spend their early years?"],
       ["was born and raised in {x}", "grew up painting in {x}"],
       ["the artists born in {x}", "the painters who came from {x}"],
       ["which artists came from {x}?", "who are the painters born in {x}?",
        "what famous painters grew up in {x}?"], skew=0.3),
    _r("completed", "Painting", "Year", "date_completed", "FINISHED_IN", "yearCompleted",
       ["the year {x} was painted", "the date of {x}"],
       ["when was {x} painted?", "what year is {x} from?", "when did the artist finish {x}?"],
       ["was finished in {x}", "dates from {x}"], chain=False),
))

OPENSOURCE = Domain("opensource", "oss", {
    "Language": ("proglang", 8), "License": ("licence", 8), "Company": ("vendor", 14),
    "City": ("city", 20), "Project": ("repo", 90), "Developer": ("person", 150)}, {
    "Language": "language", "License": "license", "Company": "company", "City": "city",
    "Project": "project", "Developer": "developer"}, (
    _r("maintainer", "Project", "Developer", "lead_maintainer", "MAINTAINED_BY", "maintainer",
       ["the maintainer of {x}", "the developer looking after {x}",
        "the person who keeps {x} alive"],
       ["who maintains {x}?", "who looks after {x} these days?",
        "who do I ping about bugs in {x}?", "whose project is {x}?"],
       ["is maintained by {x}", "is kept alive by {x}"],
       ["the projects {x} maintains", "{x} 's repositories", "the code {x} looks after"],
       ["what does {x} maintain?", "which projects is {x} responsible for?",
        "what repos does {x} look after?"], fanout=(1, 2), skew=0.3),
    _r("upstream", "Project", "Project", "upstream", "FORKED_FROM", "forkOf",
       ["the project {x} was forked from", "the upstream of {x}", "{x} 's parent project"],
       ["what was {x} forked from?", "which project did {x} split off from?",
        "where did {x} 's code originally come from?", "{x} is a fork of what?"],
       ["was forked from {x}", "is a fork of {x}", "started life as a fork of {x}"],
       ["the forks of {x}", "the projects that forked {x}", "{x} 's offshoots"],
       ["which projects forked {x}?", "what forks of {x} exist?",
        "what has been forked off {x}?"], skew=0.4),
    _r("language", "Project", "Language", "implementation_language", "CODED_IN",
       "primaryLanguage",
       ["the programming language behind {x}", "{x} 's main language"],
       ["what language is {x} implemented in?", "which programming language does {x} use?",
        "what is {x} coded in?"],
       ["is implemented in {x}", "is coded in {x}"], skew=0.4, chain=False),
    _r("license", "Project", "License", "licence", "RELEASED_UNDER", "licenseId",
       ["the license of {x}", "the terms {x} is distributed under"],
       ["what license does {x} use?", "under which license can I use {x}?",
        "how is {x} licensed?", "what are {x} 's licensing terms?"],
       ["is released under {x}", "ships under the {x} license"], skew=0.5, chain=False),
    _r("employer", "Developer", "Company", "day_job", "EMPLOYED_AT", "worksFor",
       ["the company {x} works for", "{x} 's employer", "the firm that pays {x}"],
       ["who does {x} work for?", "which company employs {x}?",
        "where does {x} have a day job?", "who signs {x} 's paychecks?"],
       ["works for {x}", "is on staff at {x}"],
       ["the developers at {x}", "the engineers {x} employs", "{x} 's staff"],
       ["who works for {x}?", "which engineers does {x} employ?",
        "who is on {x} 's payroll?"], skew=0.2),
    _r("sponsor", "Project", "Company", "corporate_backer", "BANKROLLED_BY", "sponsoredBy",
       ["the sponsor of {x}", "the company bankrolling {x}", "{x} 's corporate backer"],
       ["who sponsors {x}?", "which company puts money into {x}?",
        "who pays for the development of {x}?", "who is backing {x}?"],
       ["is sponsored by {x}", "gets its funding from {x}"],
       ["the projects {x} sponsors", "the open source work {x} funds"],
       ["which projects does {x} fund?", "what open source does {x} pay for?"], skew=0.3),
    _r("hq", "Company", "City", "hq_city", "HEADQUARTERED_AT", "hqLocation",
       ["the city {x} is headquartered in", "the town {x} runs its business from"],
       ["where does {x} have its HQ?", "which city is {x} headquartered in?",
        "in what city would I find {x} 's head office?"],
       ["has its headquarters in {x}", "is run out of {x}"],
       ["the tech firms in {x}", "the companies run out of {x}"],
       ["what tech companies are in {x}?", "which firms have their HQ in {x}?"], skew=0.2),
    _r("residence", "Developer", "City", "current_city", "RESIDES_IN", "homeLocation",
       ["the town {x} is living in", "the place {x} codes from", "{x} 's current city"],
       ["where does {x} live these days?", "what city does {x} live in?",
        "where is {x} based now?"],
       ["is living in {x}", "works remotely from {x}"],
       ["the developers living in {x}", "the coders based in {x}"],
       ["which developers live in {x}?", "who codes from {x}?"], skew=0.3),
))

# the blind3 split: written like the blind and blind2 splits, by a helper who had never read
# byokg's reasoning code, with relation names and wording of its own (two worlds no other
# split touches: farming and the law courts); measured only in aggregate
FARMING = Domain("farming", "agri", {
    "Farmer": ("person", 150), "Farm": ("farm", 45), "Crop": ("crop", 10),
    "Cooperative": ("coop", 12), "Village": ("city", 24), "County": ("county", 6),
    "Breed": ("breed", 8), "Soil": ("soil", 8)}, {
    "Farmer": "farmer", "Farm": "farm", "Crop": "crop", "Cooperative": "cooperative",
    "Village": "village", "County": "county", "Breed": "breed", "Soil": "soil"}, (
    _r("works_farm", "Farmer", "Farm", "holding", "TILLS", "farmsAt",
       ["the farm {x} works", "the land {x} tills", "{x} 's farm", "{x} 's patch of land",
        "the acres {x} looks after"],
       ["which farm does {x} work on?", "where does {x} farm?",
        "where does {x} earn a living off the land?", "what 's the name of {x} 's farm?",
        "{x} drives a tractor at which place?"],
       ["works the land at {x}", "farms at {x}", "is a hand at {x}"],
       ["the farmers of {x}", "the people working {x}", "{x} 's farmhands",
        "the folks who run {x}"],
       ["who farms {x}?", "who works the land at {x}?", "who are {x} 's farmhands?",
        "who gets up at dawn to run {x}?"], skew=0.2),
    _r("predecessor", "Farmer", "Farmer", "predecessor", "TOOK_OVER_FROM", "succeededFarmer",
       ["the farmer {x} took over from", "{x} 's predecessor",
        "the one who handed the reins to {x}", "the old hand who passed the land on to {x}"],
       ["who did {x} take over from?", "who handed the farm down to {x}?",
        "whose shoes did {x} step into?", "who ran things before {x}?", "{x} succeeded whom?"],
       ["took over from {x}", "inherited the work of {x}", "stepped into the shoes of {x}"],
       ["the successor of {x}", "the farmer who took over from {x}", "{x} 's heir on the land"],
       ["who took over from {x}?", "who succeeded {x}?", "who carried on {x} 's work?",
        "to whom did {x} pass the land?"], skew=0.3),
    _r("crop", "Farm", "Crop", "main_crop", "GROWS", "cropGrown",
       ["the crop of {x}", "what {x} grows", "the harvest at {x}", "{x} 's staple crop"],
       ["what does {x} grow?", "what comes up in the fields of {x}?",
        "what is harvested at {x}?", "what 's planted at {x}?", "what is {x} 's cash crop?"],
       ["grows {x}", "plants {x} every spring", "harvests {x}"],
       ["the farms growing {x}", "the places that plant {x}"],
       ["which farms grow {x}?", "where is {x} grown?", "where can I see {x} growing?"],
       fanout=(1, 2), skew=0.4, chain=False),
    _r("coop", "Farm", "Cooperative", "marketing_coop", "SELLS_THROUGH", "coopMembership",
       ["the co-op of {x}", "the cooperative {x} sells through", "{x} 's co-op",
        "the collective that markets {x} 's produce"],
       ["which cooperative does {x} sell through?", "what co-op is {x} a member of?",
        "who markets the produce of {x}?", "where does {x} take its harvest to be sold?",
        "{x} belongs to which co-op?"],
       ["sells through {x}", "sends its harvest to {x}", "markets its produce through {x}"],
       ["the member farms of {x}", "the farms supplying {x}", "{x} 's members"],
       ["which farms belong to {x}?", "who supplies {x}?", "what farms sell through {x}?",
        "which farms are in {x}?"], skew=0.3),
    _r("depot", "Cooperative", "Village", "depot_village", "KEEPS_DEPOT_IN", "depotVillage",
       ["the village where {x} has its depot", "the home village of {x}",
        "the place {x} keeps its silos", "{x} 's base"],
       ["where are the silos of {x}?", "in which village does {x} have its depot?",
        "where would I drop off grain for {x}?", "which village is {x} run from?"],
       ["has its depot in {x}", "keeps its silos at {x}", "is run from {x}"],
       ["the co-ops based in {x}", "the cooperatives with a depot in {x}"],
       ["which cooperatives have a depot in {x}?", "what co-ops are run out of {x}?"],
       skew=0.2),
    _r("county", "Village", "County", "county", "LIES_IN_COUNTY", "shireOf",
       ["the county of {x}", "the shire around {x}", "the district {x} belongs to",
        "the rural district that takes in {x}"],
       ["which county is {x} in?", "what shire does {x} lie in?", "{x} is part of which county?",
        "in what district would you find {x}?"],
       ["is a village in {x}", "sits in the county of {x}", "belongs to the shire of {x}"],
       ["the villages of {x}", "the hamlets in {x}"],
       ["which villages lie in {x}?", "what hamlets does {x} take in?"], skew=0.2),
    _r("parish", "Farmer", "Village", "parish", "LIVES_IN_PARISH", "villageOfResidence",
       ["the village {x} lives in", "{x} 's village", "the parish {x} belongs to",
        "the village {x} goes home to at night"],
       ["which village does {x} live in?", "what village is {x} from?",
        "which parish is {x} in?", "where does {x} go home to after the milking?",
        "where 's {x} 's cottage?"],
       ["lives in the village of {x}", "is a parishioner of {x}", "has a cottage in {x}"],
       ["the farmers living in {x}", "the folk of {x}", "{x} 's villagers"],
       ["who lives in {x}?", "which farmers call {x} home?", "who are {x} 's villagers?"],
       skew=0.3),
    _r("livestock", "Farm", "Breed", "herd_breed", "RAISES", "livestockBreed",
       ["the breed kept at {x}", "the animals {x} raises", "{x} 's herd"],
       ["what breed does {x} keep?", "what animals are raised at {x}?",
        "what kind of livestock graze at {x}?", "which herd is {x} known for?"],
       ["raises {x}", "keeps a herd of {x}", "breeds {x}"],
       ["the farms raising {x}"], ["which farms keep {x}?", "where are {x} bred?"],
       fanout=(1, 2), skew=0.4, chain=False),
    _r("soil", "Farm", "Soil", "ground", "LIES_ON", "soilKind",
       ["the soil of {x}", "the kind of ground at {x}", "the dirt under {x}"],
       ["what soil is {x} on?", "what kind of earth does {x} have?",
        "what is the ground like at {x}?", "what are the fields of {x} made of?"],
       ["is on {x} soil", "stands on {x} ground", "has {x} fields"], skew=0.5, chain=False),
))

COURTS = Domain("courts", "law", {
    "Judge": ("person", 50), "Lawyer": ("person", 140), "Case": ("case", 130),
    "Court": ("court", 14), "Firm": ("lawfirm", 16), "City": ("city", 18),
    "Verdict": ("verdict", 6), "Field": ("lawarea", 8)}, {
    "Judge": "judge", "Lawyer": "lawyer", "Case": "case", "Court": "court", "Firm": "law firm",
    "City": "city", "Verdict": "verdict", "Field": "area of law"}, (
    _r("judge", "Case", "Judge", "presiding_judge", "HEARD_BY", "presidedOverBy",
       ["the judge of {x}", "the judge who heard {x}", "the one on the bench for {x}",
        "whoever presided over {x}", "{x} 's judge"],
       ["who heard {x}?", "who presided over {x}?", "which judge sat on {x}?",
        "who was on the bench for {x}?", "who banged the gavel in {x}?"],
       ["was heard by {x}", "came before {x}", "was decided by {x}"],
       ["the cases {x} heard", "{x} 's docket", "the trials {x} presided over"],
       ["which cases did {x} hear?", "what came before {x}?",
        "what trials has {x} presided over?", "what was on {x} 's docket?"], skew=0.3),
    _r("counsel", "Case", "Lawyer", "counsel", "ARGUED_BY", "counselOfRecord",
       ["the lawyer in {x}", "the attorney who argued {x}", "{x} 's counsel",
        "the barrister fighting {x}"],
       ["who argued {x}?", "who represented the parties in {x}?", "which lawyer took on {x}?",
        "who was the attorney on {x}?", "who pleaded {x} in court?"],
       ["was argued by {x}", "had {x} as counsel"],
       ["the cases {x} argued", "the trials {x} fought", "the briefs {x} took"],
       ["which cases did {x} argue?", "what has {x} litigated?", "what cases did {x} take on?",
        "in which trials did {x} appear?"], fanout=(1, 2), skew=0.3),
    _r("venue", "Case", "Court", "forum", "TRIED_AT", "courtOfTrial",
       ["the court that tried {x}", "the courtroom of {x}", "the tribunal where {x} was heard",
        "{x} 's court"],
       ["where was {x} tried?", "which court heard {x}?", "in what court did {x} go to trial?",
        "where did {x} go to trial?"],
       ["was tried at {x}", "went to trial in {x}", "was filed in {x}"],
       ["the cases tried at {x}", "the docket of {x}", "the lawsuits filed in {x}"],
       ["which cases were tried at {x}?", "what went to trial in {x}?",
        "what lawsuits landed in {x}?"], skew=0.3),
    _r("bench", "Judge", "Court", "bench", "SITS_ON", "appointedTo",
       ["the court {x} sits on", "{x} 's bench", "the court {x} was appointed to",
        "the court where {x} wears the robe"],
       ["which court does {x} sit on?", "where does {x} sit as a judge?",
        "to which court was {x} appointed?", "where does {x} wear the robes?"],
       ["sits on {x}", "was appointed to {x}", "is a judge at {x}"],
       ["the judges of {x}", "{x} 's judges", "the people in robes at {x}"],
       ["who sits on {x}?", "which judges serve at {x}?", "who are the judges of {x}?"],
       skew=0.2),
    _r("court_city", "Court", "City", "seat", "CONVENES_IN", "courtSeat",
       ["the city where {x} sits", "the seat of {x}", "the town {x} convenes in",
        "the city {x} has its courthouse in"],
       ["where does {x} convene?", "in which city is {x} seated?",
        "where is the courthouse of {x}?", "what town does {x} hold its hearings in?"],
       ["convenes in {x}", "holds hearings in {x}", "has its courthouse in {x}"],
       ["the courts in {x}", "the courthouses of {x}"],
       ["which courts sit in {x}?", "what courts are there in {x}?"], skew=0.2),
    _r("firm", "Lawyer", "Firm", "law_firm", "PARTNER_AT", "chambers",
       ["the firm of {x}", "the law firm {x} belongs to", "{x} 's chambers",
        "the practice {x} is a partner in"],
       ["which firm is {x} with?", "what law firm does {x} practise at?",
        "who does {x} bill hours for?", "where is {x} a partner?", "what are {x} 's chambers?"],
       ["is a partner at {x}", "is with {x}", "bills hours for {x}"],
       ["the lawyers of {x}", "the partners at {x}", "{x} 's associates"],
       ["who are the partners of {x}?", "which lawyers are with {x}?", "who bills for {x}?"],
       skew=0.3),
    _r("outcome", "Case", "Verdict", "disposition", "ENDED_IN", "ruling",
       ["the outcome of {x}", "the way {x} ended", "{x} 's result"],
       ["how did {x} end?", "what was the verdict in {x}?", "how was {x} decided?",
        "what came of {x}?", "how did {x} turn out?"],
       ["ended in {x}", "was resolved by {x}", "closed with {x}"],
       ["the cases that ended in {x}"],
       ["which cases ended in {x}?", "what trials closed with {x}?"], skew=0.4, chain=False),
    _r("specialism", "Lawyer", "Field", "practice_area", "LITIGATES", "legalSpecialism",
       ["the area of law of {x}", "the kind of law {x} practises", "{x} 's specialism"],
       ["what kind of law does {x} practise?", "what is {x} 's legal specialism?",
        "what sort of cases does {x} handle?", "what does {x} litigate?"],
       ["practises {x} law", "handles {x} cases", "litigates {x}"], skew=0.3, chain=False),
    _r("clerk", "Lawyer", "Judge", "clerkship", "CLERKED_FOR", "formerClerkOf",
       ["the judge {x} clerked for", "{x} 's old judge", "the judge who took {x} on as clerk"],
       ["who did {x} clerk for?", "which judge employed {x} as a clerk?",
        "under which judge did {x} learn the ropes?", "whose chambers did {x} clerk in?"],
       ["clerked for {x}", "learned the ropes under {x}"],
       ["the clerks of {x}", "the young lawyers {x} trained", "{x} 's former clerks"],
       ["who clerked for {x}?", "which lawyers were clerks to {x}?",
        "who learned the ropes in {x} 's chambers?"], skew=0.3),
))

# the blind4 split: written like the blind, blind2 and blind3 splits, by a fourth helper who
# never read byokg's reasoning code, with relation names and wording of its own (two worlds no
# other split touches: the railways and mountaineering); measured only in aggregate
RAILWAYS = Domain("railways", "rail", {
    "Driver": ("person", 140), "Train": ("train", 55), "Station": ("station", 40),
    "Line": ("railline", 12), "Operator": ("railco", 7), "Town": ("city", 26),
    "Province": ("province", 6), "Traction": ("traction", 6)}, {
    "Driver": "driver", "Train": "train", "Station": "station", "Line": "railway line",
    "Operator": "train operator", "Town": "town", "Province": "province",
    "Traction": "traction"}, (
    _r("rostered", "Driver", "Train", "rostered_service", "ASSIGNED_TO", "assignedTrain",
       ["the train {x} drives", "{x} 's train", "the service {x} is rostered on",
        "the train {x} sits up front in"],
       ["which train does {x} drive?", "what service is {x} rostered on?",
        "what train is {x} at the controls of?", "which train has {x} in the cab?",
        "{x} is the driver of which train?"],
       ["drives {x}", "is rostered on {x}", "takes the controls of {x}"],
       ["the drivers of {x}", "the crew in the cab of {x}", "{x} 's drivers"],
       ["who drives {x}?", "who is at the controls of {x}?", "who sits in the cab of {x}?",
        "which drivers are rostered on {x}?"], skew=0.2),
    _r("origin", "Train", "Station", "origin_station", "DEPARTS_FROM", "startsFrom",
       ["the starting station of {x}", "the station {x} departs from", "{x} 's origin",
        "the place {x} sets out from"],
       ["where does {x} start?", "which station does {x} depart from?",
        "where does {x} set off from?", "where do passengers board {x} at the start of its run?",
        "what is the first stop of {x}?"],
       ["departs from {x}", "sets off from {x}", "starts its run at {x}"],
       ["the trains leaving {x}", "the departures from {x}", "the services that start at {x}"],
       ["which trains start at {x}?", "what departs from {x}?",
        "which services begin their run at {x}?"], skew=0.3),
    _r("terminus", "Train", "Station", "terminus", "HAS_TERMINUS", "endStation",
       ["the terminus of {x}", "the station where {x} terminates", "the last stop of {x}",
        "the end of the line for {x}"],
       ["where does {x} terminate?", "what is the final stop of {x}?", "how far does {x} go?",
        "where does {x} end up?", "which station is {x} bound for?"],
       ["terminates at {x}", "runs through to {x}", "is bound for {x}"],
       ["the trains terminating at {x}", "the services that end at {x}",
        "the arrivals that go no further than {x}"],
       ["which trains terminate at {x}?", "what ends its run at {x}?",
        "which services go no further than {x}?"], skew=0.3),
    _r("on_line", "Station", "Line", "railway_line", "ON_LINE", "servedByLine",
       ["the line {x} is on", "the route through {x}", "{x} 's line",
        "the line that calls at {x}"],
       ["which line is {x} on?", "what line serves {x}?", "what route runs through {x}?",
        "which line do I take to get to {x}?"],
       ["is a stop on {x}", "lies on {x}", "is served by {x}"],
       ["the stations on {x}", "the stops along {x}", "{x} 's stations",
        "the places {x} calls at"],
       ["which stations are on {x}?", "where does {x} stop?",
        "what stops are there along {x}?", "where does {x} call?"], fanout=(1, 2), skew=0.3),
    _r("operator", "Line", "Operator", "franchisee", "OPERATED_BY", "lineOperator",
       ["the operator of {x}", "the company running trains on {x}",
        "the franchise holder for {x}", "whoever holds the franchise on {x}"],
       ["who operates {x}?", "which company runs the trains on {x}?",
        "who holds the franchise for {x}?", "whose trains run on {x}?"],
       ["is operated by {x}", "is franchised to {x}"],
       ["the lines {x} operates", "{x} 's network", "the routes franchised to {x}"],
       ["which lines does {x} operate?", "what routes has {x} got the franchise for?",
        "where do {x} 's trains run?"], skew=0.3),
    _r("station_town", "Station", "Town", "serves_town", "STATION_FOR", "stationLocality",
       ["the town {x} serves", "the town {x} is the station for", "the town around {x}"],
       ["what town does {x} serve?", "which town is {x} the station for?",
        "what town am I in if I get off at {x}?", "in which town would I find {x}?"],
       ["serves the town of {x}", "is the station for {x}", "is the railway station of {x}"],
       ["the railway stations in {x}", "{x} 's railway stations", "the stations serving {x}"],
       ["which stations serve {x}?", "where can I catch a train in {x}?",
        "what stations does {x} have?"], skew=0.3),
    _r("province", "Town", "Province", "administrative_region", "IN_PROVINCE", "provinceOf",
       ["the province of {x}", "the region around {x}", "the province {x} is in"],
       ["which province is {x} in?", "what region does {x} belong to?",
        "{x} lies in which province?"],
       ["is a town in {x}", "lies in the province of {x}"],
       ["the towns of {x}", "the towns in {x}"],
       ["which towns are in {x}?", "what towns does {x} have?"], skew=0.2),
    _r("traction", "Train", "Traction", "motive_power", "HAULED_BY", "tractionType",
       ["the traction of {x}", "what powers {x}", "the motive power of {x}"],
       ["what powers {x}?", "what kind of traction does {x} use?", "what hauls {x}?",
        "how is {x} powered?", "what does {x} run on?"],
       ["runs on {x}", "is {x} hauled", "uses {x} traction"],
       (), ["which trains run on {x}?", "what services use {x} power?"],
       skew=0.5, chain=False),
    _r("depot", "Driver", "Station", "home_depot", "BASED_AT_DEPOT", "depotStation",
       ["the depot of {x}", "the station {x} signs on at", "{x} 's home depot",
        "the shed {x} works out of"],
       ["where does {x} sign on?", "which depot is {x} based at?",
        "where does {x} book on for a shift?", "what station does {x} work out of?"],
       ["signs on at {x}", "is based at the depot in {x}", "books on at {x}"],
       ["the drivers based at {x}", "the crews who sign on at {x}", "the depot staff at {x}"],
       ["which drivers sign on at {x}?", "who works out of {x}?", "who books on at {x}?"],
       skew=0.3),
    _r("instructor", "Driver", "Driver", "driving_instructor", "TRAINEE_OF", "instructedBy",
       ["the driver {x} learned under", "the driver who taught {x}", "{x} 's instructor",
        "the old hand who showed {x} the road"],
       ["who trained {x} as a driver?", "who taught {x} to drive?", "who showed {x} the road?",
        "who was {x} 's driving instructor?", "under whom did {x} qualify?"],
       ["was trained by {x}", "learned the road from {x}", "qualified under {x}"],
       ["the trainee drivers of {x}", "the drivers {x} trained", "{x} 's pupils"],
       ["who has {x} brought through training?", "which drivers learned the road from {x}?",
        "who qualified under {x}?"], skew=0.3),
))

MOUNTAINEERING = Domain("mountaineering", "alpine", {
    "Climber": ("person", 150), "Expedition": ("expedition", 60), "Peak": ("peak", 45),
    "Range": ("range", 9), "Country": ("country", 5), "Club": ("alpineclub", 10),
    "Outfitter": ("outfitter", 8), "Discipline": ("discipline", 8)}, {
    "Climber": "climber", "Expedition": "expedition", "Peak": "peak",
    "Range": "mountain range", "Country": "country", "Club": "climbing club",
    "Outfitter": "outfitter", "Discipline": "discipline"}, (
    _r("member", "Climber", "Expedition", "participated_in", "EXPEDITION_MEMBER", "joinedExpedition",
       ["the expedition {x} joined", "{x} 's expedition", "the party {x} went up with",
        "the trip {x} signed up for"],
       ["which expedition did {x} join?", "what expedition was {x} part of?",
        "which party did {x} climb with?", "what trip did {x} sign up for?",
        "{x} went on which expedition?"],
       ["joined {x}", "went on {x}", "was part of {x}"],
       ["the climbers on {x}", "the roster of {x}", "{x} 's climbers",
        "the people roped up together on {x}"],
       ["who went on {x}?", "which climbers were on {x}?", "who signed up for {x}?",
        "who was on the roster of {x}?"], fanout=(1, 2), skew=0.3),
    _r("leader", "Expedition", "Climber", "expedition_leader", "UNDER_COMMAND_OF",
       "expeditionLead",
       ["the leader of {x}", "the climber in charge of {x}", "{x} 's leader",
        "whoever called the shots on {x}"],
       ["who led the way on {x}?", "who was the boss on {x}?", "who called the shots on {x}?",
        "who was the expedition leader on {x}?", "whose show was {x}?"],
       ["was led by {x}", "was under the command of {x}"],
       ["the expeditions {x} led", "the trips {x} was in charge of", "{x} 's command"],
       ["which expeditions did {x} lead?", "what expeditions has {x} been in charge of?",
        "what trips did {x} run?"], skew=0.3),
    _r("objective", "Expedition", "Peak", "objective", "TARGETED", "targetSummit",
       ["the peak {x} attempted", "the objective of {x}", "the mountain {x} set out to climb",
        "{x} 's goal"],
       ["which peak did {x} attempt?", "what mountain was {x} trying to climb?",
        "what was {x} 's objective?", "what summit was {x} after?", "where was {x} headed?"],
       ["attempted {x}", "set out to climb {x}", "went for the summit of {x}"],
       ["the expeditions to {x}", "the attempts on {x}", "the parties that tried {x}"],
       ["which expeditions went for {x}?", "what expeditions have tried {x}?",
        "who has made an attempt on {x}?"], skew=0.4),
    _r("range", "Peak", "Range", "mountain_range", "PART_OF_RANGE", "parentRange",
       ["the range of {x}", "the massif {x} belongs to", "the mountains {x} is part of"],
       ["which range is {x} in?", "what massif does {x} rise from?",
        "which mountain range does {x} belong to?", "where does {x} rise?"],
       ["rises in {x}", "is a summit of {x}", "is one of the peaks of {x}"],
       ["the peaks of {x}", "the summits in {x}", "{x} 's summits"],
       ["which peaks are in {x}?", "what summits does {x} have?", "what can I climb in {x}?"],
       skew=0.2),
    _r("range_country", "Range", "Country", "located_in_country", "SPANS", "rangeCountry",
       ["the nation {x} stands in", "the country {x} runs through", "the land that holds {x}"],
       ["in which country does {x} stretch?", "what country is home to {x}?",
        "where in the world is {x}?", "which country do you travel to for {x}?"],
       ["spans {x}", "stretches across {x}"],
       ["the ranges of {x}", "the mountains of {x}"],
       ["which ranges are in {x}?", "what mountains does {x} have?"], skew=0.2),
    _r("club", "Climber", "Club", "club_affiliation", "MEMBER_OF_CLUB", "climbingClub",
       ["the club of {x}", "{x} 's club", "the climbing club {x} is in"],
       ["which club is {x} in?", "what club does {x} belong to?",
        "where does {x} pay club dues?", "which climbing club has {x} on its books?"],
       ["pays dues to {x}", "is on the books of {x}", "holds a card from {x}"],
       ["the climbers in {x}", "{x} 's membership", "the card-carrying members of {x}"],
       ["who is in {x}?", "which climbers belong to {x}?", "who pays dues to {x}?"],
       skew=0.3),
    _r("club_country", "Club", "Country", "home_nation", "CLUB_BASED_IN", "clubCountry",
       ["the home nation of {x}", "the country {x} was founded in"],
       ["in which country was {x} founded?", "what nation does {x} call home?"],
       ["was set up in {x}", "is a club from {x}"],
       ["the clubs of {x}", "the climbing clubs in {x}"],
       ["which clubs are in {x}?", "what climbing clubs does {x} have?"], skew=0.2),
    _r("mentor", "Climber", "Climber", "climbing_mentor", "SCHOOLED_BY", "firstTeacher",
       ["the climber who taught {x}", "{x} 's teacher on the rock",
        "the one who first took {x} up a mountain"],
       ["who taught {x} to climb?", "who first took {x} under their wing?",
        "who introduced {x} to the mountains?", "who was {x} 's climbing mentor?"],
       ["was taught to climb by {x}", "was schooled on the crags by {x}"],
       ["the disciples of {x}", "the climbers {x} schooled", "{x} 's young charges"],
       ["who did {x} teach to climb?", "whom did {x} take under their wing?",
        "who learned to climb from {x}?"], skew=0.3),
    _r("discipline", "Climber", "Discipline", "climbing_style", "PRACTISES_DISCIPLINE",
       "preferredDiscipline",
       ["the discipline of {x}", "{x} 's kind of climbing", "the style {x} is known for"],
       ["what kind of climbing does {x} do?", "what is {x} 's discipline?",
        "what is {x} best at on the rock?", "what style of climbing is {x} known for?"],
       ["excels at {x}", "is known for {x}", "goes in for {x}"],
       (), ["who does {x}?", "which climbers excel at {x}?"], skew=0.4, chain=False),
    _r("outfitter", "Expedition", "Outfitter", "outfitter", "SUPPLIED_BY", "gearSupplier",
       ["the outfitter of {x}", "the brand that equipped {x}", "whoever kitted out {x}"],
       ["who equipped {x}?", "which brand kitted out {x}?", "whose gear did {x} carry?",
        "who supplied the tents for {x}?"],
       ["was kitted out by {x}", "carried gear from {x}", "was equipped by {x}"],
       ["the expeditions {x} equipped", "{x} 's sponsored trips"],
       ["which expeditions did {x} kit out?", "what has {x} equipped?"], skew=0.4),
))

# the blind5 split: written like the blind to blind4 splits, by a fifth helper who never read
# byokg's reasoning code, with relation names and wording of its own (two worlds no other
# split touches: the theatre and spaceflight); measured only in aggregate
THEATRE = Domain("theatre", "stage", {
    "Actor": ("person", 150), "Playwright": ("person", 36), "Production": ("production", 60),
    "Play": ("play", 45), "Venue": ("playhouse", 16), "Company": ("troupe", 12),
    "City": ("city", 20), "Form": ("dramaform", 8)}, {
    "Actor": "actor", "Playwright": "playwright", "Production": "production", "Play": "play",
    "Venue": "theatre", "Company": "troupe", "City": "city", "Form": "dramatic form"}, (
    _r("cast", "Actor", "Production", "cast_in", "ACTED_IN", "castIn",
       ["the production {x} was cast in", "{x} 's current show",
        "the show {x} is treading the boards in", "the staging {x} has a part in"],
       ["which production was {x} cast in?", "what show is {x} appearing in?",
        "where can I catch {x} on stage?", "what is {x} rehearsing for?",
        "{x} has a part in which production?"],
       ["was cast in {x}", "has a part in {x}", "appears on stage in {x}"],
       ["the cast of {x}", "the actors in {x}", "{x} 's company of players",
        "everyone who takes a bow in {x}"],
       ["who is in the cast of {x}?", "which actors appear in {x}?",
        "who takes a bow at the end of {x}?", "who was cast in {x}?"],
       fanout=(1, 2), skew=0.3),
    _r("staging", "Production", "Play", "staged_work", "STAGES", "basedOnPlay",
       ["the play {x} puts on", "the script behind {x}", "the work {x} stages", "{x} 's play"],
       ["which play does {x} stage?", "what play is {x} a production of?",
        "what script is {x} based on?", "what are they performing in {x}?",
        "{x} is a staging of which play?"],
       ["is a staging of {x}", "puts on {x}", "brings {x} to the stage"],
       ["the productions of {x}", "the stagings of {x}", "every revival of {x}"],
       ["which productions have staged {x}?", "where has {x} been put on?",
        "which shows have brought {x} to the stage?", "what stagings of {x} are there?"],
       skew=0.4),
    _r("author", "Play", "Playwright", "dramatist", "AUTHORED_BY", "playwright",
       ["the playwright of {x}", "the dramatist behind {x}", "the pen that gave us {x}",
        "whoever wrote the script of {x}"],
       ["who wrote the play {x}?", "which playwright is behind {x}?", "whose play is {x}?",
        "who is {x} by?", "who put {x} down on paper?"],
       ["was written for the stage by {x}", "is a play by {x}", "flowed from the pen of {x}"],
       ["the plays of {x}", "the works {x} wrote for the stage", "{x} 's plays",
        "{x} 's dramatic output"],
       ["which plays did {x} write?", "what has {x} written for the theatre?",
        "what are {x} 's plays?", "what came from the pen of {x}?"], skew=0.3),
    _r("venue", "Production", "Venue", "venue", "PLAYS_AT_THEATRE", "performedAt",
       ["the theatre staging {x}", "the house where {x} runs", "the venue of {x}",
        "{x} 's theatre"],
       ["where is {x} playing?", "which theatre is {x} on at?", "where can I get tickets for {x}?",
        "what venue hosts {x}?", "where does {x} raise its curtain?"],
       ["is playing at {x}", "runs at {x}", "raises its curtain at {x}"],
       ["the productions at {x}", "the shows on at {x}", "{x} 's programme",
        "what has played at {x}"],
       ["what is on at {x}?", "which productions run at {x}?", "what shows has {x} hosted?",
        "what is playing at {x}?"], skew=0.3),
    _r("venue_city", "Venue", "City", "venue_city", "HOUSED_IN", "theatreTown",
       ["the city {x} stands in", "the town of {x}", "the city that is home to {x}",
        "{x} 's city"],
       ["in what city does {x} stand?", "which city would I travel to for a night at {x}?",
        "where will I find the doors of {x}?", "in which city is the playhouse {x}?"],
       ["has its stage door in {x}", "is a theatre in {x}", "draws its audiences from {x}"],
       ["the theatres of {x}", "the playhouses in {x}", "{x} 's stages"],
       ["which theatres are there in {x}?", "where can I see a play in {x}?",
        "what playhouses does {x} have?"], skew=0.2),
    _r("producer", "Production", "Company", "producing_company", "MOUNTED_BY", "producedBy",
       ["the company that mounted {x}", "the troupe behind {x}", "the producers of {x}",
        "{x} 's troupe"],
       ["who mounted {x}?", "which troupe put on {x}?", "who produced {x}?",
        "which company is behind {x}?", "whose production is {x}?"],
       ["was mounted by {x}", "was produced by {x}", "is a show of {x}"],
       ["the productions {x} mounted", "{x} 's shows", "the repertoire of {x}"],
       ["what has {x} mounted?", "which productions did {x} put on?",
        "what is in {x} 's repertoire?"], skew=0.3),
    _r("troupe", "Actor", "Company", "ensemble", "RESIDENT_WITH", "companyMember",
       ["the troupe {x} belongs to", "{x} 's company", "the ensemble {x} is a resident of",
        "the players {x} tours with"],
       ["which troupe is {x} with?", "what company does {x} act for?", "who does {x} tour with?",
        "which ensemble has {x} on its books?", "where is {x} a company member?"],
       ["is a company member of {x}", "tours with {x}", "is in the ensemble of {x}"],
       ["the actors of {x}", "the ensemble of {x}", "{x} 's players", "the regulars at {x}"],
       ["who acts for {x}?", "which actors are in {x}?", "who tours with {x}?",
        "who are {x} 's players?"], skew=0.3),
    _r("understudy", "Actor", "Actor", "understudy_for", "COVERS_FOR", "understudies",
       ["the actor {x} understudies", "the lead {x} covers for",
        "the star {x} waits in the wings for", "whoever {x} steps in for"],
       ["who does {x} understudy?", "whose part does {x} cover?",
        "who is {x} ready to step in for?", "for whom does {x} wait in the wings?",
        "who does {x} go on for when they are off sick?"],
       ["understudies {x}", "covers for {x}", "is the understudy of {x}"],
       ["the understudy of {x}", "{x} 's understudy", "the actor who covers for {x}",
        "the one waiting in the wings for {x}"],
       ["who understudies {x}?", "who covers for {x}?", "who goes on when {x} is off?",
        "who is waiting in the wings for {x}?"], skew=0.3),
    _r("form", "Play", "Form", "dramatic_form", "CLASSED_AS", "playGenre",
       ["the form of {x}", "the kind of play {x} is", "{x} 's genre"],
       ["what kind of play is {x}?", "what genre of drama is {x}?", "how would you class {x}?",
        "what sort of evening is {x}?"],
       ["is a {x}", "is classed as {x}", "belongs to the {x} tradition"],
       (), ["which plays are {x}?", "what {x} plays are there?"], skew=0.4, chain=False),
    _r("native", "Playwright", "City", "native_town", "ORIGINALLY_FROM", "birthTown",
       ["the town that raised {x}", "the city {x} was raised in", "{x} 's home turf",
        "the streets {x} grew up on"],
       ["where was {x} raised?", "which city is {x} a native of?", "what city shaped {x}?",
        "which town did {x} grow up in?"],
       ["is a child of {x}", "first walked the streets of {x}", "was born and bred in {x}"],
       ["the playwrights from {x}", "the dramatists {x} produced", "{x} 's native writers"],
       ["which playwrights hail from {x}?", "what dramatists were raised in {x}?",
        "who writes plays and comes from {x}?"], skew=0.3),
))

SPACEFLIGHT = Domain("spaceflight", "cosmos", {
    "Astronaut": ("person", 140), "Mission": ("mission", 60), "Launcher": ("launcher", 10),
    "Spaceport": ("spaceport", 12), "Agency": ("agency", 7), "Country": ("country", 7),
    "Body": ("celestial", 10), "Orbit": ("orbit", 8)}, {
    "Astronaut": "astronaut", "Mission": "mission", "Launcher": "rocket",
    "Spaceport": "spaceport", "Agency": "space agency", "Country": "country",
    "Body": "celestial body", "Orbit": "orbit"}, (
    _r("crew", "Astronaut", "Mission", "crew_assignment", "FLEW_ABOARD", "crewedMission",
       ["the mission {x} flew on", "{x} 's flight", "the mission {x} was crewed on",
        "the flight that carried {x} into space"],
       ["which mission did {x} fly on?", "what flight was {x} crewed on?",
        "on which mission did {x} reach orbit?", "what mission took {x} into space?",
        "{x} was aboard which flight?"],
       ["flew on {x}", "was aboard {x}", "went up on {x}"],
       ["the crew of {x}", "the astronauts aboard {x}", "{x} 's crew",
        "everyone strapped in for {x}"],
       ["who flew on {x}?", "who was in the crew of {x}?", "which astronauts went up on {x}?",
        "who was strapped in for {x}?"], fanout=(1, 2), skew=0.3),
    _r("commander", "Mission", "Astronaut", "mission_commander", "COMMANDED_BY",
       "flightCommander",
       ["the commander of {x}", "the astronaut in command of {x}", "{x} 's skipper",
        "whoever sat in the left seat on {x}"],
       ["who commanded {x}?", "who was in command of {x}?", "who was the skipper of {x}?",
        "who sat in the commander 's seat on {x}?", "who had the final say aboard {x}?"],
       ["was commanded by {x}", "flew under the command of {x}"],
       ["the missions {x} commanded", "the flights under {x} 's command",
        "the crews {x} was in charge of"],
       ["which missions did {x} command?", "what flights has {x} been in charge of?",
        "what did {x} command?"], skew=0.3),
    _r("vehicle", "Mission", "Launcher", "launch_vehicle", "LIFTED_BY", "launchVehicle",
       ["the rocket of {x}", "the launcher that lifted {x}", "the booster under {x}",
        "{x} 's rocket"],
       ["which rocket launched {x}?", "what did {x} ride into orbit?",
        "what launcher carried {x}?", "which booster got {x} off the ground?",
        "{x} flew on top of which rocket?"],
       ["rode {x} into orbit", "was lifted by {x}", "launched on {x}"],
       ["the missions flown on {x}", "the launches of {x}", "{x} 's payloads"],
       ["which missions flew on {x}?", "what has {x} launched?",
        "what did {x} carry into orbit?"], skew=0.5),
    _r("pad", "Mission", "Spaceport", "launch_site", "LAUNCHED_FROM", "launchPad",
       ["the launch site of {x}", "the spaceport {x} lifted off from", "the pad {x} left from",
        "{x} 's launch site"],
       ["where did {x} launch from?", "from which spaceport did {x} lift off?",
        "where did {x} leave the ground?", "which pad did {x} go from?",
        "where was the countdown for {x}?"],
       ["lifted off from {x}", "launched from {x}", "left the ground at {x}"],
       ["the launches from {x}", "the missions that lifted off from {x}", "{x} 's launches"],
       ["which missions lifted off from {x}?", "what has launched from {x}?",
        "what went up from {x}?"], skew=0.3),
    _r("pad_country", "Spaceport", "Country", "hosting_country", "LOCATED_IN_NATION", "spaceportCountry",
       ["the nation hosting {x}", "the country {x} is built in", "the soil {x} stands on"],
       ["which country hosts {x}?", "in what nation was {x} built?",
        "whose territory is {x} on?", "what country would I fly to to visit {x}?"],
       ["is sited in {x}", "is built on the soil of {x}", "is a spaceport of {x}"],
       ["the spaceports of {x}", "the launch sites in {x}", "{x} 's cosmodromes"],
       ["which spaceports does {x} have?", "where can rockets launch from in {x}?",
        "what launch sites are in {x}?"], skew=0.2),
    _r("agency", "Mission", "Agency", "operating_agency", "FLOWN_FOR", "missionAgency",
       ["the agency behind {x}", "the space agency that ran {x}", "{x} 's agency",
        "the people who paid for {x}"],
       ["which agency ran {x}?", "who operated {x}?", "what space agency was behind {x}?",
        "whose mission was {x}?", "who footed the bill for {x}?"],
       ["was flown for {x}", "was run by {x}", "was funded by {x}"],
       ["the missions of {x}", "the flights {x} ran", "{x} 's programme of missions"],
       ["which missions did {x} run?", "what has {x} flown?",
        "what missions has {x} paid for?"], skew=0.3),
    _r("corps", "Astronaut", "Agency", "astronaut_corps", "SELECTED_BY", "recruitedBy",
       ["the corps {x} belongs to", "the agency that selected {x}",
        "the agency whose patch {x} wears"],
       ["which agency selected {x}?", "what space agency does {x} fly for?",
        "whose astronaut corps is {x} in?", "whose patch is on {x} 's shoulder?",
        "who picked {x} to go to space?"],
       ["was selected by {x}", "is an astronaut with {x}", "wears the patch of {x}"],
       ["the astronauts of {x}", "the corps of {x}", "{x} 's astronauts"],
       ["who wears the patch of {x}?", "which astronauts did {x} select?",
        "who is in the astronaut corps of {x}?"], skew=0.3),
    _r("target", "Mission", "Body", "target_body", "HEADED_TO", "targetBody",
       ["the world {x} was sent to", "the destination of {x}", "the body {x} set out to study",
        "{x} 's target"],
       ["where did {x} go?", "what was {x} sent to explore?", "which world did {x} visit?",
        "what was {x} aiming for?", "which celestial body did {x} study?"],
       ["went to {x}", "was sent to explore {x}", "studied {x}"],
       ["the missions to {x}", "the probes and crews sent to {x}", "the visits to {x}"],
       ["which missions went to {x}?", "what has been sent to {x}?", "who has visited {x}?"],
       skew=0.4),
    _r("orbit", "Mission", "Orbit", "orbit_regime", "INSERTED_INTO", "orbitType",
       ["the orbit of {x}", "the kind of orbit {x} flew", "{x} 's trajectory"],
       ["what orbit did {x} fly?", "what kind of orbit was {x} in?",
        "which orbit was {x} placed in?", "what path did {x} trace around the sky?"],
       ["flew a {x} orbit", "was placed in a {x} orbit"], skew=0.5, chain=False),
    _r("backup", "Astronaut", "Astronaut", "backup_for", "STOOD_BY_FOR", "backupCrewFor",
       ["the astronaut {x} was backup to", "the flyer {x} stood by for",
        "the prime crew member {x} shadowed", "whoever {x} trained to replace"],
       ["who was {x} the backup for?", "whose seat was {x} ready to take?",
        "who did {x} shadow in training?", "for whom did {x} stand by?",
        "which prime crew member did {x} back up?"],
       ["was the backup for {x}", "stood by to replace {x}", "shadowed {x} in training"],
       ["the backup of {x}", "{x} 's backup", "the astronaut ready to take {x} 's seat",
        "the one who shadowed {x}"],
       ["who backed up {x}?", "who was ready to fly in place of {x}?", "who was {x} 's backup?",
        "who stood by for {x}?"], skew=0.3),
))

# the blind6 split: written like the blind to blind5 splits, by a sixth helper who never read
# byokg's reasoning code, with relation names and wording of its own (two worlds no other
# split touches: merchant shipping and the fashion houses); measured only in aggregate
MARITIME = Domain("maritime", "sea", {
    "Sailor": ("person", 150), "Ship": ("vessel", 60), "Port": ("seaport", 16),
    "Line": ("shipline", 10), "Country": ("country", 8), "Shipyard": ("shipyard", 10),
    "Cargo": ("cargo", 12), "Hull": ("shiptype", 8)}, {
    "Sailor": "sailor", "Ship": "ship", "Port": "port", "Line": "shipping line",
    "Country": "country", "Shipyard": "shipyard", "Cargo": "cargo", "Hull": "type of vessel"}, (
    _r("crew", "Sailor", "Ship", "berth", "SIGNED_ON_TO", "assignedVessel",
       ["the ship {x} shipped out on", "the vessel {x} signed on to", "{x} 's ship",
        "the ship {x} went to sea on", "the boat that pays {x} 's wages"],
       ["which ship does {x} sail on?", "what vessel is {x} crewing?",
        "aboard what ship will I find {x}?", "{x} signed on to which vessel?",
        "what boat does {x} work on?"],
       ["sails aboard {x}", "signed on to {x}", "works the decks of {x}"],
       ["the sailors aboard {x}", "the hands of {x}", "{x} 's deckhands",
        "the seafarers who man {x}", "everyone on the articles of {x}"],
       ["who sails on {x}?", "who mans {x}?", "which sailors serve aboard {x}?",
        "who signed on to {x}?", "who is on the payroll of {x}?"], fanout=(1, 2), skew=0.3),
    _r("master", "Ship", "Sailor", "master", "SKIPPERED_BY", "shipMaster",
       ["the captain of {x}", "{x} 's captain", "the old man of {x}",
        "the officer who has the bridge on {x}"],
       ["who captains {x}?", "who is master of {x}?", "who is the old man aboard {x}?",
        "who gives the orders on {x}?", "who stands on the bridge of {x}?"],
       ["is captained by {x}", "sails under the command of {x}", "has {x} on the bridge"],
       ["the ship captained by {x}", "the vessel under {x} 's command",
        "the ship whose bridge belongs to {x}"],
       ["which ship does {x} captain?", "what vessel is {x} master of?",
        "what does {x} command at sea?", "which ship has {x} on its bridge?"], skew=0.3),
    _r("mentor", "Sailor", "Sailor", "sea_daddy", "LEARNED_ROPES_FROM", "learnedUnder",
       ["the old hand who taught {x}", "the sailor {x} learned the ropes from",
        "{x} 's sea daddy", "the mariner who showed {x} the ropes"],
       ["who taught seamanship to {x}?", "who did {x} learn the ropes from?",
        "who showed {x} the ropes?", "under whom did {x} serve as an apprentice at sea?",
        "who took {x} under their wing at sea?"],
       ["learned the ropes from {x}", "was taught seamanship by {x}",
        "served as apprentice to {x}"],
       ["the deck boys {x} raised", "the sailors {x} trained", "the greenhorns {x} brought on",
        "{x} 's former deck boys"],
       ["who did {x} train?", "who learned seamanship from {x}?",
        "whom did {x} show the ropes?", "which greenhorns did {x} bring on?"], skew=0.3),
    _r("homeport", "Ship", "Port", "port_of_registry", "REGISTERED_AT", "homePort",
       ["the home port of {x}", "the port {x} is registered at", "{x} 's home port",
        "the harbour {x} calls home", "the port painted on the stern of {x}"],
       ["where is {x} registered?", "what is {x} 's home port?",
        "which port does {x} call home?", "what port is painted on the stern of {x}?",
        "what port does {x} hail from?"],
       ["is registered at {x}", "calls {x} home", "has {x} lettered on her stern"],
       ["the ships registered at {x}", "the vessels that call {x} home",
        "{x} 's registered fleet"],
       ["which ships are registered at {x}?", "what vessels hail from {x}?",
        "which boats call {x} home?"], skew=0.3),
    _r("port_country", "Port", "Country", "port_ctry", "ON_COAST_OF", "portNation",
       ["the country {x} lies in", "the coast {x} is on", "{x} 's country",
        "the nation whose shore holds {x}"],
       ["in which country would I find the port {x}?", "on whose coast does {x} lie?",
        "what nation owns the quays of {x}?", "which country do I land in if I go ashore at {x}?"],
       ["lies on the coast of {x}", "is a seaport of {x}", "is a harbour in {x}"],
       ["the ports of {x}", "the harbours along {x} 's coast", "the seaports in {x}"],
       ["which ports does {x} have?", "where can a ship dock in {x}?",
        "what harbours lie along the coast of {x}?"], skew=0.2),
    _r("flag", "Ship", "Country", "flag_state", "FLIES_FLAG_OF", "ensign",
       ["the flag state of {x}", "the country whose flag {x} flies", "{x} 's flag",
        "the nation {x} is flagged in"],
       ["what flag does {x} fly?", "under which flag does {x} sail?",
        "which country is {x} flagged in?", "whose colours does {x} sail under?",
        "what ensign flies from the stern of {x}?"],
       ["flies the flag of {x}", "sails under the flag of {x}", "is flagged in {x}"],
       ["the ships flagged in {x}", "the vessels flying {x} 's flag",
        "the merchant fleet of {x}"],
       ["which ships fly the flag of {x}?", "what vessels are flagged in {x}?",
        "which ships sail under {x} 's colours?"], skew=0.5),
    _r("operator", "Ship", "Line", "opr", "IN_SERVICE_OF", "managingLine",
       ["the shipping line running {x}", "the company {x} sails for", "{x} 's owners",
        "the line whose funnel colours {x} wears"],
       ["which line operates {x}?", "which firm owns {x}?", "what company does {x} sail for?",
        "whose funnel colours does {x} carry?", "whose fleet is {x} part of?"],
       ["sails for {x}", "belongs to the fleet of {x}", "wears the funnel colours of {x}"],
       ["the fleet of {x}", "the ships {x} runs", "{x} 's vessels"],
       ["which ships does {x} operate?", "what vessels sail for {x}?",
        "what is in {x} 's fleet?"], skew=0.4),
    _r("built", "Ship", "Shipyard", "builder", "LAID_DOWN_AT", "yardOfBuild",
       ["the yard that built {x}", "the shipyard {x} was launched from", "{x} 's builders",
        "the slipway {x} came off"],
       ["where was {x} built?", "which yard built {x}?", "who launched {x}?",
        "what shipyard did {x} come out of?", "which yard laid down {x}?"],
       ["was built at {x}", "was laid down at {x}", "came off the slipway at {x}"],
       ["the ships built at {x}", "the hulls {x} launched", "{x} 's newbuilds"],
       ["which ships did {x} build?", "what vessels came off the slipways of {x}?",
        "what hulls has {x} turned out?"], skew=0.4),
    _r("cargo", "Ship", "Cargo", "commodity", "HAULS", "cargoType",
       ["the cargo {x} carries", "{x} 's freight", "the goods {x} hauls",
        "what {x} has in its holds"],
       ["what does {x} carry?", "what cargo is in {x} 's holds?", "what is {x} loaded with?",
        "what freight does {x} haul?", "what goods go to sea in {x}?"],
       ["carries {x}", "hauls {x}", "is loaded with {x}"],
       ["the ships carrying {x}", "the vessels that haul {x}", "the {x} carriers"],
       ["which ships carry {x}?", "what vessels haul {x}?", "who ships {x}?"],
       fanout=(1, 3), skew=0.5),
    _r("hull", "Ship", "Hull", "vessel_type", "RATED_AS", "hullClass",
       ["the type of {x}", "the kind of vessel {x} is", "{x} 's class"],
       ["what kind of ship is {x}?", "what type of vessel is {x}?", "how is {x} classed?",
        "what sort of boat is {x}?"],
       ["was built as a {x}", "is rated as a {x}", "sails as a {x}"],
       (), ["which ships are of the {x} type?", "what {x} vessels are there?"],
       skew=0.4, chain=False),
))

FASHION = Domain("fashion", "mode", {
    "Designer": ("person", 110), "Model": ("person", 100), "House": ("fashionhouse", 12),
    "Collection": ("collection", 55), "Week": ("fashionweek", 8), "City": ("city", 14),
    "Fabric": ("fabric", 10), "Look": ("aesthetic", 8)}, {
    "Designer": "designer", "Model": "model", "House": "fashion house",
    "Collection": "collection", "Week": "fashion week", "City": "city", "Fabric": "fabric",
    "Look": "aesthetic"}, (
    _r("atelier", "Designer", "House", "maison", "DESIGNS_FOR", "atelier",
       ["the house {x} designs for", "the label {x} works for", "{x} 's fashion house",
        "the atelier {x} sketches in"],
       ["which fashion house does {x} design for?", "what label does {x} work for?",
        "which house employs {x}?", "{x} designs for which label?",
        "at which atelier does {x} work?"],
       ["designs for {x}", "works in the atelier of {x}", "is on the design team of {x}"],
       ["the designers of {x}", "the design team at {x}", "{x} 's designers",
        "the people who draw for {x}"],
       ["who designs for {x}?", "which designers work at {x}?",
        "who is on {x} 's design team?", "who sketches for {x}?"], fanout=(1, 2), skew=0.3),
    _r("brand", "Collection", "House", "label", "PRESENTED_BY", "fromHouse",
       ["the house behind {x}", "the label that showed {x}", "{x} 's label"],
       ["which house presented {x}?", "whose collection is {x}?", "what label put out {x}?",
        "who showed {x}?", "{x} came from which fashion house?"],
       ["was shown by {x}", "was put out by {x}", "came out of {x}"],
       ["the collections of {x}", "the lines {x} showed", "{x} 's collections"],
       ["which collections did {x} show?", "what has {x} put on the runway?",
        "what lines has {x} released?"], skew=0.3),
    _r("creator", "Collection", "Designer", "designer_credit", "CONCEIVED_BY", "creativeLead",
       ["the designer of {x}", "the mind behind {x}", "whoever dreamed up {x}",
        "the creative lead on {x}"],
       ["who designed {x}?", "whose vision was {x}?", "who dreamed up {x}?",
        "who took the bow after {x}?", "which designer is credited with {x}?"],
       ["was designed by {x}", "was dreamed up by {x}", "bears the signature of {x}"],
       ["the collections {x} designed", "{x} 's designs", "the lines {x} dreamed up"],
       ["what did {x} design?", "which collections are {x} 's?",
        "what has {x} sent down the runway?"], skew=0.4),
    _r("walked", "Model", "Collection", "runway_credits", "WALKED_IN", "catwalkShows",
       ["the collections {x} walked", "the shows {x} was booked for", "{x} 's catwalk work",
        "the lines {x} wore down the runway"],
       ["which collections did {x} walk in?", "what shows has {x} modelled for?",
        "what has {x} worn on the runway?", "{x} walked which shows?",
        "for which collections did {x} hit the catwalk?"],
       ["walked in {x}", "modelled in {x}", "appeared on the catwalk for {x}"],
       ["the models of {x}", "the faces of {x}", "{x} 's line-up",
        "the models who walked for {x}"],
       ["who walked in {x}?", "which models appeared in {x}?",
        "who was on the catwalk for {x}?", "who modelled {x}?"], fanout=(1, 3), skew=0.2),
    _r("debut", "Collection", "Week", "shown_at_wk", "DEBUTED_AT", "premiereWeek",
       ["the fashion week {x} debuted at", "the week {x} was shown at", "{x} 's debut",
        "the runway season that saw {x}"],
       ["at which fashion week was {x} shown?", "where did {x} debut?",
        "which week did {x} go down the runway at?", "{x} premiered at which fashion week?"],
       ["debuted at {x}", "was shown during {x}", "premiered at {x}"],
       ["the collections shown at {x}", "the debuts at {x}", "{x} 's runway programme"],
       ["what was shown at {x}?", "which collections debuted at {x}?",
        "what went down the runway at {x}?"], skew=0.4),
    _r("week_city", "Week", "City", "host_city", "STAGED_IN", "weekLocation",
       ["the city hosting {x}", "the city where {x} is staged", "{x} 's host city",
        "the town that fills its hotels for {x}"],
       ["where is {x} held?", "which city hosts {x}?", "what city puts on {x}?",
        "where do the editors fly to for {x}?", "in which city does {x} take place?"],
       ["is held in {x}", "takes over {x} every season", "is staged in {x}"],
       ["the fashion weeks of {x}", "{x} 's fashion week", "the runway weeks {x} hosts"],
       ["which fashion week does {x} host?", "what fashion week is held in {x}?",
        "what does {x} stage for the fashion crowd?"], skew=0.2),
    _r("hq", "House", "City", "hq_city", "HQ_IN", "maisonSeat",
       ["the city {x} designs out of", "the city {x} works out of", "{x} 's headquarters city",
        "the city where {x} keeps its ateliers"],
       ["where does {x} operate from?", "in what city does {x} keep its headquarters?",
        "where are {x} 's ateliers?", "what city is {x} from?",
        "where does {x} have its headquarters?"],
       ["designs out of {x}", "has its ateliers in {x}", "keeps its headquarters in {x}"],
       ["the fashion houses of {x}", "the labels based in {x}", "{x} 's couture houses"],
       ["which fashion houses are based in {x}?", "what labels come from {x}?",
        "whose ateliers are in {x}?"], skew=0.3),
    _r("fabric", "Collection", "Fabric", "textiles", "CUT_FROM", "mainMaterial",
       ["the fabrics of {x}", "the cloth {x} was cut from", "{x} 's materials",
        "what {x} was sewn from"],
       ["what fabrics were used in {x}?", "what is {x} made of?",
        "what cloth was {x} cut from?", "what material dominates {x}?",
        "what did the seamstresses work with for {x}?"],
       ["was cut from {x}", "was made in {x}", "used a lot of {x}"],
       ["the collections made of {x}", "the lines cut from {x}", "the {x} collections"],
       ["which collections used {x}?", "what was made in {x}?",
        "which lines were cut from {x}?"], fanout=(1, 3), skew=0.5),
    _r("aesthetic", "Collection", "Look", "aesthetic", "STYLED_AS", "lookAndFeel",
       ["the aesthetic of {x}", "the look of {x}", "{x} 's vibe"],
       ["what style is {x}?", "how would you describe the look of {x}?",
        "what is the vibe of {x}?", "what aesthetic does {x} go for?"],
       ["is styled {x}", "is {x} in spirit", "has that {x} look"],
       (), ["which collections are {x}?", "what {x} collections are there?"],
       skew=0.4, chain=False),
    _r("muse", "Designer", "Model", "muse", "HAS_MUSE", "favouriteFace",
       ["the muse of {x}", "{x} 's muse", "the face {x} designs around",
        "the model who inspires {x}"],
       ["who is {x} 's muse?", "who inspires {x}?", "whose face does {x} design around?",
        "who does {x} have in mind at the sketchpad?", "which model does {x} adore dressing?"],
       ["is inspired by {x}", "counts {x} as a muse", "designs with {x} in mind"],
       ["the designers {x} inspires", "the designers who call {x} their muse",
        "{x} 's admirers in the atelier"],
       ["who is {x} the muse of?", "which designers does {x} inspire?", "whose muse is {x}?",
        "who designs with {x} in mind?"], skew=0.4),
))

# the blind7 split: written like the blind to blind6 splits, by a seventh helper who never read
# byokg's reasoning code, with relation names and wording of its own (two worlds no other
# split touches: the lives of famous people and winemaking); measured only in aggregate
BIOGRAPHY = Domain("biography", "vita", {
    "Person": ("person", 180), "Town": ("city", 24), "Country": ("country", 8),
    "Cause": ("cause", 8), "Calling": ("calling", 12), "Faith": ("religion", 6),
    "Tongue": ("language", 6), "College": ("almamater", 12)}, {
    "Person": "celebrity", "Town": "town", "Country": "country", "Cause": "cause of death",
    "Calling": "occupation", "Faith": "faith", "Tongue": "language", "College": "college"}, (
    _r("pob", "Person", "Town", "pob", "BEGAN_LIFE_IN", "cradleTown",
       ["the place where {x} was born", "{x} 's birthplace", "the town where {x} first drew breath",
        "the town that gave the world {x}", "the place {x} was born"],
       ["which town was {x} born in?", "where did {x} first see the light of day?",
        "what town did {x} originally come from?", "{x} was born where?",
        "in what town did {x} enter the world?"],
       ["came into the world in {x}", "first drew breath in {x}", "first saw the light of day in {x}"],
       ["the famous sons and daughters of {x}", "the celebrities born in {x}",
        "{x} 's native sons and daughters", "everyone famous who was born in {x}"],
       ["which famous people come from {x}?", "who are {x} 's most famous natives?",
        "which celebrities were born in {x}?", "who first saw the light of day in {x}?"],
       skew=0.5),
    _r("deathplace", "Person", "Town", "place_of_death", "PASSED_AWAY_IN", "deathPlace",
       ["the place {x} died", "the town where {x} passed away", "{x} 's place of death",
        "the town {x} died in", "the town that saw {x} 's last days"],
       ["where did {x} die?", "in which town did {x} pass away?",
        "where did {x} breathe their last?", "what town did {x} die in?",
        "where did {x} spend their final days?"],
       ["died in {x}", "passed away in {x}", "breathed their last in {x}"],
       ["the people who died in {x}", "the celebrities who passed away in {x}",
        "those who breathed their last in {x}"],
       ["who died in {x}?", "which famous people passed away in {x}?",
        "whose life ended in {x}?", "which celebrities died in {x}?"], skew=0.5),
    _r("cod", "Person", "Cause", "cod", "SUCCUMBED_TO", "diedFrom",
       ["the illness that took {x}", "{x} 's cause of death", "what {x} passed away from",
        "the thing that carried {x} off"],
       ["what did {x} pass away from?", "what carried {x} off?", "what did {x} succumb to?",
        "what was the cause of {x} 's death?", "what took {x} 's life?",
        "what illness did {x} die from?"],
       ["died from {x}", "succumbed to {x}", "was carried off by {x}", "lost their life to {x}"],
       ["the people {x} killed", "the celebrities who died from {x}", "{x} 's famous victims"],
       ["which celebrities were killed by {x}?", "who did {x} carry off?",
        "whose death was caused by {x}?", "who succumbed to {x}?"], chain=False),
    _r("vocation", "Person", "Calling", "vocation", "EARNS_LIVING_AS", "career",
       ["the line of work of {x}", "{x} 's calling", "what {x} does for a living",
        "the job {x} was famous for", "{x} 's profession"],
       ["what did {x} earn their living as?", "what did {x} do for work?",
        "what line of work did {x} go into?", "what was {x} 's career?", "how did {x} make a living?",
        "what did {x} work as?"],
       ["made a living as a {x}", "earns a living as a {x}", "is a {x} by profession",
        "became famous as a {x}"],
       ["the famous {x}s", "the people who worked as a {x}",
        "everyone who made a living as a {x}"],
       ["who made a living as a {x}?", "which celebrities were {x}s by trade?",
        "who earns their bread as a {x}?", "which famous people work as a {x}?"],
       skew=0.5, chain=False),
    _r("natl", "Person", "Country", "natl", "HOLDS_PASSPORT_OF", "passportCountry",
       ["{x} 's nationality", "the country {x} is a citizen of", "the nation {x} belongs to",
        "the country whose passport {x} carries"],
       ["what nationality is {x}?", "which country is {x} a citizen of?",
        "whose passport did {x} carry?", "what country did {x} call their own?",
        "where did {x} hold citizenship?"],
       ["carries the passport of {x}", "holds a passport from {x}", "is a national of {x}"],
       ["the citizens of {x}", "{x} 's famous nationals", "the people with a passport from {x}"],
       ["who are the famous citizens of {x}?", "which celebrities hold {x} 's passport?",
        "who is a national of {x}?", "which stars carry a passport from {x}?"], skew=0.4),
    _r("creed", "Person", "Faith", "creed", "ADHERES_TO", "religiousAffiliation",
       ["{x} 's religious beliefs", "the faith {x} was raised in", "the religion {x} practised",
        "the creed {x} professed"],
       ["what religion did {x} belong to?", "which faith did {x} grow up in?",
        "what is {x} 's religious affiliation?", "what religion did {x} follow?",
        "what faith did {x} profess?"],
       ["is a follower of {x}", "grew up a follower of {x}", "adheres to {x}"],
       ["the followers of {x}", "the famous adherents of {x}", "the celebrities who profess {x}"],
       ["which celebrities follow {x}?", "who are the famous followers of {x}?",
        "who was brought up in {x}?"], chain=False),
    _r("tongues", "Person", "Tongue", "languages_spoken", "SPEAKS", "speaksLanguage",
       ["the languages {x} speaks", "{x} 's languages", "the tongues {x} is fluent in",
        "the languages {x} can get by in"],
       ["what languages does {x} speak?", "which tongues can {x} speak fluently?",
        "in what languages can {x} hold a conversation?", "what languages did {x} master?",
        "what can {x} speak?"],
       ["speaks {x}", "is fluent in {x}", "can hold a conversation in {x}"],
       ["the {x} speakers", "the people who speak {x}", "the celebrities fluent in {x}"],
       ["who speaks {x}?", "which celebrities are fluent in {x}?", "who can converse in {x}?"],
       fanout=(1, 3), skew=0.5, chain=False),
    _r("spouse", "Person", "Person", "wed_to", "TIED_THE_KNOT_WITH", "consort",
       ["the person {x} wed", "{x} 's better half", "the person who walked down the aisle with {x}",
        "the one that {x} tied the knot with", "{x} 's significant other"],
       ["who did {x} end up marrying?", "who did {x} tie the knot with?",
        "whom did {x} take as a spouse?", "who is {x} 's significant other?",
        "who walked down the aisle with {x}?"],
       ["tied the knot with {x}", "wed {x}", "is the spouse of {x}",
        "walked down the aisle with {x}"],
       ["the person who married {x}", "the one who wed {x}", "{x} 's spouse"],
       ["who married {x}?", "who wed {x}?", "who is the husband or wife of {x}?"], skew=0.0),
    _r("issue", "Person", "Person", "issue", "HAD_CHILD", "progeny",
       ["{x} 's children", "the kids of {x}", "{x} 's offspring", "the sons and daughters of {x}",
        "{x} 's brood"],
       ["who are {x} 's children?", "what children did {x} have?", "who are the kids of {x}?",
        "whom did {x} bring into the world?", "which children did {x} leave behind?"],
       ["is the mother or father of {x}", "had {x} as a child", "brought {x} into the world"],
       ["{x} 's parents", "the mother and father of {x}", "the people who brought up {x}",
        "{x} 's mum and dad"],
       ["who are {x} 's parents?", "who brought {x} into the world?",
        "who are the mother and father of {x}?", "who gave birth to or fathered {x}?", "who are {x} 's folks?"],
       fanout=(1, 3), skew=0.0),
    _r("schooling", "Person", "College", "schooling", "STUDIED_AT", "educatedAt",
       ["the university {x} went to", "{x} 's old college", "the places {x} studied",
        "the college that educated {x}", "the college {x} graduated from"],
       ["where did {x} go to university?", "where did {x} get their education?",
        "which college did {x} attend?", "where did {x} do their studies?",
        "what school did {x} graduate from?"],
       ["took a degree at {x}", "spent their student years at {x}", "was educated at {x}", "is an alumnus of {x}"],
       ["the alumni of {x}", "{x} 's famous graduates", "the celebrities who studied at {x}",
        "the old boys and girls of {x}"],
       ["who studied at {x}?", "which celebrities went to {x}?",
        "who are {x} 's famous alumni?", "who graduated from {x}?"],
       fanout=(1, 2), skew=0.4),
))

WINEMAKING = Domain("winemaking", "vino", {
    "Winemaker": ("person", 110), "Wine": ("wine", 60), "Winery": ("winery", 14),
    "Grape": ("grape", 12), "Region": ("winearea", 10), "Country": ("country", 7),
    "Vessel": ("cask", 7), "Year": ("year", 12)}, {
    "Winemaker": "winemaker", "Wine": "wine", "Winery": "winery", "Grape": "grape",
    "Region": "wine region", "Country": "country", "Vessel": "ageing vessel",
    "Year": "vintage"}, (
    _r("maker", "Wine", "Winemaker", "oenologist", "VINIFIED_BY", "madeBy",
       ["the winemaker behind {x}", "the person who made {x}", "{x} 's winemaker",
        "whoever vinified {x}", "the hand that crafted {x}"],
       ["who made {x}?", "who is the winemaker behind {x}?", "whose cellar did {x} come out of?",
        "who crafted {x}?", "who was responsible for making {x}?"],
       ["was made by {x}", "was crafted by {x}", "is the work of {x}",
        "came out of {x} 's cellar"],
       ["the wines made by {x}", "the bottles crafted by {x}", "the wines that came out of the cellar of {x}",
        "{x} 's handiwork"],
       ["which wines were made by {x}?", "what did {x} make in the cellar?", "which bottles were crafted by {x}?",
        "what wines came from {x} 's hands?"], skew=0.3),
    _r("estate", "Wine", "Winery", "domaine", "BOTTLED_AT", "producerEstate",
       ["the winery that produces {x}", "the estate that {x} comes from", "{x} 's producer",
        "the domaine behind {x}", "the cellar door where you can buy {x}"],
       ["which winery produces {x}?", "what estate did {x} come from?", "who bottles {x}?",
        "where is {x} made?", "whose label is on the bottle of {x}?"],
       ["is produced by {x}", "hails from the cellars of {x}", "is bottled at {x}"],
       ["the bottles produced by {x}", "the wines put out by {x}", "{x} 's range",
        "the line-up of {x}"],
       ["what wines are produced at {x}?", "which bottles come from {x}?", "what gets bottled at {x}?",
        "what is in {x} 's range?"], skew=0.3),
    _r("cellar", "Winemaker", "Winery", "cellar", "MAKES_WINE_FOR", "employedAtWinery",
       ["the winery employing {x}", "the estate that {x} made wine for", "{x} 's cellar",
        "the domaine that employs {x}", "the estate with {x} in its cellar"],
       ["where does {x} make wine?", "which winery did {x} work for?",
        "what estate employs {x}?", "in whose cellar does {x} work?",
        "{x} makes wine at which estate?"],
       ["makes wine at {x}", "works in the cellar at {x}", "draws a wage from {x}"],
       ["the winemakers at {x}", "the cellar team of {x}", "{x} 's winemaking staff",
        "the people who make the wine at {x}"],
       ["who makes the wine at {x}?", "who works in {x} 's cellar?",
        "which winemakers are employed by {x}?", "who is on the cellar team at {x}?"], skew=0.3),
    _r("grapes", "Wine", "Grape", "cepage", "BLENDED_FROM", "grapeVarieties",
       ["the grapes in {x}", "the varieties {x} is blended from", "{x} 's grapes",
        "what {x} is pressed from"],
       ["what grapes go into {x}?", "which varieties did the winemaker use for {x}?",
        "what is {x} blended from?", "what grape went into making {x}?", "what's in the blend of {x}?"],
       ["is made from {x}", "contains {x}", "is blended from {x}", "has {x} in the blend"],
       ["the wines made from {x}", "the {x} wines", "the blends containing {x}"],
       ["which wines are made from {x}?", "what wines contain {x}?",
        "which wines have {x} in the blend?"], fanout=(1, 3), skew=0.4, chain=False),
    _r("appellation", "Winery", "Region", "appellation", "PLANTED_IN", "wineArea",
       ["the wine region of {x}", "the region {x} is in", "the area {x} grows its grapes in",
        "{x} 's appellation", "the slopes that {x} farms"],
       ["what region is {x} in?", "where are {x} 's vineyards?",
        "which wine region is {x} part of?", "in what appellation does {x} grow its grapes?",
        "where does {x} farm its vines?"],
       ["grows its grapes in {x}", "has its vineyards in {x}", "lies in the {x} appellation"],
       ["the wineries of {x}", "the estates in {x}", "{x} 's producers",
        "the domaines with vines in {x}"],
       ["which wineries are in {x}?", "what estates have vineyards in {x}?",
        "who grows grapes in {x}?", "which producers are found in {x}?"], skew=0.3),
    _r("rgn_ctry", "Region", "Country", "rgn_ctry", "FOUND_IN", "regionNation",
       ["the nation that {x} belongs to", "the country where {x} is found",
        "the country that contains {x}", "the nation home to {x}"],
       ["in which country can I find {x}?", "{x} is in what country?",
        "what nation is {x} a part of?", "which country is home to {x}?",
        "on the map, what country holds {x}?"],
       ["is a wine region of {x}", "lies inside the borders of {x}", "is found in {x}"],
       ["the wine regions of {x}", "{x} 's wine regions", "the winegrowing areas of {x}"],
       ["what wine regions does {x} have?", "which regions of {x} make wine?",
        "where is wine grown in {x}?"], skew=0.2),
    _r("elevage", "Wine", "Vessel", "elevage", "AGED_IN", "maturationVessel",
       ["what {x} is aged in", "the vessel {x} matures in", "{x} 's ageing vessel",
        "what {x} rests in before bottling"],
       ["what did the cellar age {x} in?", "how is {x} matured?", "what did {x} rest in before bottling?",
        "in what kind of vessel did {x} age?", "what vessel does {x} mature in?"],
       ["is aged in {x}", "matures in {x}", "rests in {x} before bottling"],
       ["the wines aged in {x}", "the wines that mature in {x}", "the {x}-aged wines"],
       ["which wines are aged in {x}?", "what wines see {x}?", "what rests in {x}?"],
       skew=0.4, chain=False),
    _r("vtg", "Wine", "Year", "vtg", "HARVESTED_IN", "vintageYear",
       ["the vintage of {x}", "the year {x} was harvested", "{x} 's vintage",
        "the harvest {x} comes from"],
       ["in which vintage were the grapes for {x} harvested?", "what year did the grapes for {x} come in?",
        "when were the grapes for {x} picked?", "from which harvest is {x}?",
        "which year's grapes went into {x}?"],
       ["was harvested in {x}", "is from the {x} vintage", "comes from the {x} harvest"],
       ["the wines of the {x} vintage", "the bottles from the {x} harvest",
        "the wines picked in {x}"],
       ["which wines were harvested in {x}?", "what wines are from the {x} vintage?",
        "what came out of the {x} harvest?"], skew=0.5, chain=False),
    _r("cellar_mentor", "Winemaker", "Winemaker", "cellar_mentor", "LEARNT_CRAFT_FROM",
       "wineMentor",
       ["the vintner {x} learned under", "{x} 's teacher in the cellar",
        "the person who taught {x} to make wine", "{x} 's old boss in the cellar",
        "the winemaker who trained {x}"],
       ["who taught {x} to make wine?", "under whom did {x} learn winemaking?",
        "who showed {x} how to make wine?", "whose cellar did {x} learn the craft in?",
        "which winemaker brought {x} up in the trade?"],
       ["learned winemaking under {x}", "learnt the craft from {x}",
        "was taught to make wine by {x}"],
       ["the winemakers whom {x} trained", "{x} 's protégés", "the people taught to make wine by {x}"],
       ["who did {x} teach to make wine?", "whom did {x} train in the cellar?",
        "which winemakers learned under {x}?"], skew=0.3),
    _r("proprietor", "Winery", "Winemaker", "proprietor", "BELONGS_TO", "estateOwner",
       ["the proprietor of {x}", "{x} 's owner", "the person who owns {x}",
        "whoever holds the deeds to {x}"],
       ["whose estate is {x}?", "who is the proprietor of {x}?", "who has title to {x}?",
        "who holds the deeds to {x}?", "to whom does {x} belong?"],
       ["has {x} as its proprietor", "is the property of {x}", "is in the hands of {x}"],
       ["the estates owned by {x}", "{x} 's wineries", "the domaines belonging to {x}"],
       ["which wineries are owned by {x}?", "what estates belong to {x}?",
        "what does {x} own in the wine world?"], skew=0.3),
))

BEEKEEPING = Domain("beekeeping", "apis", {
    "Beekeeper": ("person", 110), "Apiary": ("apiary", 30), "Honey": ("honey", 60),
    "Association": ("beeclub", 9), "Shop": ("honeyshop", 14), "Village": ("city", 20),
    "Strain": ("beestrain", 8), "Flower": ("forage", 12), "Pest": ("beepest", 8)}, {
    "Beekeeper": "beekeeper", "Apiary": "apiary", "Honey": "honey",
    "Association": "beekeeping association", "Shop": "shop", "Village": "village",
    "Strain": "bee strain", "Flower": "flower", "Pest": "pest"}, (
    _r("bee_yard", "Beekeeper", "Apiary", "bee_yard", "KEEPS_HIVES_AT", "hiveSite",
       ["the apiary used by {x}", "{x} 's bee yard", "the yard that houses {x} 's hives",
        "the spot where {x} set up their hives", "{x} 's apiary"],
       ["where does {x} keep their bees?", "which apiary are {x} 's hives kept at?",
        "at what bee yard does {x} keep hives?", "where has {x} set up their hives?",
        "{x} keeps bees at which apiary?"],
       ["keeps bees at {x}", "has hives at {x}", "looks after colonies at {x}"],
       ["the beekeepers at {x}", "the people who keep hives at {x}", "{x} 's beekeepers",
        "whoever keeps bees at {x}"],
       ["who keeps bees at {x}?", "whose hives are at {x}?",
        "which beekeepers have colonies at {x}?", "who tends the hives at {x}?"], skew=0.3),
    _r("harvester", "Honey", "Beekeeper", "harvester", "EXTRACTED_BY", "honeyMaker",
       ["the beekeeper behind {x}", "whoever jarred {x}", "the person who produces {x}",
        "the keeper whose bees made {x}", "{x} 's beekeeper"],
       ["whose bees made {x}?", "who jars {x}?", "which beekeeper takes off {x}?",
        "who is {x} produced by?", "who harvests {x}?"],
       ["is jarred by {x}", "comes from {x} 's hives", "is harvested by {x}",
        "is sold under the name of {x}"],
       ["the honeys produced by {x}", "{x} 's honeys", "the jars put out by {x}",
        "the honey that comes out of {x} 's hives"],
       ["which honeys does {x} produce?", "what honey comes from {x} 's hives?",
        "what does {x} jar up?", "which honeys are made by {x} 's bees?"], skew=0.2),
    _r("nectar", "Honey", "Flower", "nectar_source", "FORAGED_ON", "floralOrigin",
       ["the flowers behind {x}", "the blossom {x} comes from",
        "what the bees foraged on for {x}", "{x} 's nectar sources"],
       ["what flowers is {x} made from?", "what did the bees work to make {x}?",
        "what blossom is behind the flavour of {x}?", "what were the bees feeding on when they made {x}?",
        "where does the nectar in {x} come from?"],
       ["is made from {x} nectar", "comes from bees working the {x}", "tastes of {x}",
        "is a {x} honey"],
       ["the {x} honeys", "the honeys made from {x}", "the honey the bees make from {x}"],
       ["which honeys are made from {x}?", "what honey comes from {x}?",
        "which honeys taste of {x}?"], fanout=(1, 2), skew=0.4, chain=False),
    _r("stockist", "Honey", "Shop", "stockist", "ON_SHELVES_AT", "soldThrough",
       ["the shops that stock {x}", "the places you can buy {x}", "{x} 's stockists",
        "the stores carrying {x}"],
       ["where can I buy {x}?", "which shops sell {x}?", "where can you pick up a jar of {x}?",
        "who stocks {x}?", "what shops carry {x}?"],
       ["is sold at {x}", "can be bought at {x}", "is on the shelves at {x}", "is stocked by {x}"],
       ["the honeys on sale at {x}", "the honey stocked by {x}", "what is on the shelves of {x}",
        "{x} 's honey range"],
       ["which honeys does {x} sell?", "what honey can I get at {x}?",
        "what honey is on the shelves at {x}?", "which jars does {x} carry?"],
       fanout=(1, 2), skew=0.3),
    _r("shop_village", "Shop", "Village", "shopfront_village", "TRADES_FROM", "storeVillage",
       ["the village that is home to {x}", "the village where you'll find {x}",
        "the place where {x} can be found", "{x} 's home village"],
       ["what village is {x} in?", "where will I find {x}?", "which village is {x} located in?",
        "where does {x} trade from?", "whereabouts is {x}?"],
       ["trades from {x}", "is on the high street in {x}", "has its premises in {x}",
        "opens its doors in {x}"],
       ["the shops in {x}", "{x} 's shops", "the stores on {x} 's high street"],
       ["which shops are there in {x}?", "what shops does {x} have?",
        "where can I shop in {x}?"], skew=0.3),
    _r("yard_village", "Apiary", "Village", "yard_location", "SITS_OUTSIDE", "apiaryVillage",
       ["the village near {x}", "the village nearest to {x}",
        "the village just down the road from {x}", "{x} 's nearest village"],
       ["which village is {x} near?", "what village does {x} sit just outside?",
        "near which village will I find {x}?", "what's the nearest village to {x}?",
        "what village is closest to {x}?"],
       ["sits just outside {x}", "lies near {x}", "is on the edge of {x}"],
       ["the apiaries around {x}", "the bee yards near {x}", "{x} 's apiaries"],
       ["which apiaries are near {x}?", "where are the bee yards around {x}?",
        "what apiaries sit on the edge of {x}?"], skew=0.3),
    _r("bee_stock", "Apiary", "Strain", "bee_stock", "POPULATED_WITH", "beeStrain",
       ["the bees kept at {x}", "the strain of bee at {x}", "{x} 's bees",
        "the kind of bees housed at {x}"],
       ["what bees are kept at {x}?", "which strain of bee lives at {x}?",
        "what kind of bees does {x} run?", "what sort of bees are in the hives at {x}?"],
       ["runs {x} bees", "keeps {x} colonies", "is stocked with {x} bees"],
       ["the apiaries running {x} bees", "the {x} yards", "the bee yards stocked with {x} colonies"],
       ["which apiaries keep {x} bees?", "where are {x} bees kept?",
        "what yards are stocked with {x} queens?"], fanout=(1, 2), skew=0.4, chain=False),
    _r("infestation", "Apiary", "Pest", "infestation", "TROUBLED_BY", "hiveAilment",
       ["what is ailing the bees at {x}", "the pests plaguing {x}", "{x} 's bee troubles",
        "the problems in the hives at {x}"],
       ["what's troubling the hives at {x}?", "what pest has {x} got?",
        "what are the bees at {x} suffering from?", "which diseases have broken out at {x}?",
        "what has {x} been battling?"],
       ["has a {x} problem", "is plagued by {x}", "has come down with {x}", "is battling {x}"],
       ["the apiaries hit by {x}", "the yards with {x}", "the bee yards plagued by {x}"],
       ["which apiaries have {x}?", "where has {x} broken out?",
        "which bee yards are struggling with {x}?"], fanout=(1, 2), skew=0.4, chain=False),
    _r("society", "Beekeeper", "Association", "society", "PAYS_SUBS_TO", "beeClub",
       ["the association that {x} joined", "{x} 's bee club", "the society with {x} on its books",
        "the club {x} signed up to"],
       ["which association does {x} belong to?", "what bee club is {x} in?",
        "which society did {x} join?", "who does {x} pay their subs to?",
        "what club did {x} sign up with?"],
       ["pays subs to {x}", "signed up with {x}", "is a paid-up member of {x}",
        "is on the membership list of {x}"],
       ["{x} 's paid-up members", "the beekeepers who joined {x}", "the people signed up to {x}"],
       ["who belongs to {x}?", "who's a member of {x}?", "which beekeepers have joined {x}?",
        "who pays subs to {x}?"], skew=0.3),
    _r("bee_mentor", "Beekeeper", "Beekeeper", "bee_mentor", "SHOWN_THE_ROPES_BY",
       "apicultureTutor",
       ["the beekeeper who taught {x}", "{x} 's beekeeping mentor", "the person who got {x} into bees",
        "the old hand who trained {x}"],
       ["who taught {x} to keep bees?", "who got {x} started with bees?",
        "who showed {x} how to handle a hive?", "who did {x} learn beekeeping from?",
        "which old hand took {x} under their wing?"],
       ["learned beekeeping from {x}", "was shown the ropes by {x}",
        "picked up beekeeping from {x}", "was taken under the wing of {x}"],
       ["the beekeepers trained by {x}", "everyone {x} has trained up", "the newcomers brought into beekeeping by {x}",
        "the novices {x} took under their wing"],
       ["who did {x} teach to keep bees?", "whom has {x} mentored?",
        "who learned the craft from {x}?", "which beekeepers did {x} bring on?"], skew=0.3),
))

CYCLING = Domain("cycling", "velo", {
    "Rider": ("person", 120), "Team": ("cycleteam", 16), "Sponsor": ("company", 12),
    "Maker": ("bikebrand", 9), "Director": ("person", 18), "Race": ("bikerace", 14),
    "Country": ("country", 8), "Role": ("riderstyle", 8)}, {
    "Rider": "rider", "Team": "team", "Sponsor": "sponsor", "Maker": "bike maker",
    "Director": "directeur sportif", "Race": "race", "Country": "country",
    "Role": "kind of rider"}, (
    _r("squad", "Rider", "Team", "squad", "RIDES_FOR", "teamContract",
       ["the team employing {x}", "{x} 's team", "the squad {x} joined",
        "the outfit that signed {x}", "{x} 's current squad"],
       ["which team does {x} ride for?", "who does {x} race for?", "what outfit is {x} signed to?",
        "which squad did {x} join?", "{x} rides for which team?"],
       ["rides for {x}", "races in the colours of {x}", "is signed to {x}",
        "pulls on the jersey of {x}"],
       ["the riders of {x}", "{x} 's roster", "the riders signed to {x}",
        "the riders under contract with {x}"],
       ["who rides for {x}?", "which riders are on {x} 's roster?", "who is signed to {x}?",
        "who races in {x} 's colours?"], skew=0.3),
    _r("title_sponsor", "Team", "Sponsor", "title_sponsor", "JERSEY_PAID_FOR_BY", "moneyBehind",
       ["the title sponsor of {x}", "the company footing the bill for {x}", "{x} 's backer",
        "the firm whose name is on {x} 's jerseys", "the money behind {x}"],
       ["who puts up the money for {x}?", "which company bankrolls {x}?", "who pays the bills at {x}?",
        "whose name is on {x} 's jerseys?", "who is {x} 's title sponsor?"],
       ["is paid for by {x}", "is bankrolled by {x}", "has {x} as its title sponsor",
        "races with {x} on the jersey"],
       ["the teams {x} sponsors", "the squads bankrolled by {x}",
        "the teams carrying {x} 's name"],
       ["which teams does {x} sponsor?", "what team is {x} bankrolling?",
        "who carries {x} 's name on their jerseys?"], skew=0.3),
    _r("frame_supplier", "Team", "Maker", "frame_supplier", "RACES_ON", "bikeSupplier",
       ["the bikes raced by {x}", "the maker of {x} 's bikes", "the frame supplier to {x}",
        "the brand of bike ridden by {x}"],
       ["what bikes does {x} ride?", "who supplies {x} 's bikes?",
        "which brand of bike does {x} race on?", "whose frames does {x} ride on?",
        "who builds the bikes for {x}?"],
       ["races on {x} bikes", "is supplied by {x}", "rides {x} frames"],
       ["the teams on {x} bikes", "the squads supplied by {x}", "the teams riding {x} frames"],
       ["which teams ride {x} bikes?", "who does {x} supply?", "which squads race on {x}?"],
       skew=0.4),
    _r("team_boss", "Team", "Director", "team_boss", "STEERED_BY", "sportDirector",
       ["the directeur sportif of {x}", "{x} 's DS", "the person running {x} from the team car",
        "the team boss at {x}"],
       ["who is the directeur sportif of {x}?", "who runs things at {x}?",
        "who calls the shots in {x} 's team car?", "who's in charge at {x}?",
        "who directs {x} from the car?"],
       ["is run from the team car by {x}", "is directed by {x}", "takes orders from {x}", "has {x} in the team car"],
       ["the team run by {x}", "the squad directed by {x}", "{x} 's outfit"],
       ["which team does {x} run?", "what squad is {x} in charge of?",
        "where is {x} directeur sportif?"], skew=0.1),
    _r("old_team", "Director", "Team", "riding_days_team", "ONCE_RACED_FOR", "formerSquad",
       ["the team {x} used to ride for", "{x} 's old team",
        "the squads {x} raced for in their riding days",
        "the team {x} rode for before hanging up the wheels"],
       ["who did {x} ride for back in the day?", "which team did {x} race for as a rider?",
        "what team did {x} turn pro with?", "which squads did {x} ride for before retiring?"],
       ["used to ride for {x}", "raced for {x} in their riding days",
        "once pulled on the jersey of {x}"],
       ["the directeurs sportifs who once rode for {x}", "{x} 's old boys",
        "the bosses who used to race for {x}"],
       ["which directeurs sportifs once rode for {x}?",
        "who used to race for {x} before moving into the team car?",
        "which of today's bosses came through {x}?"], fanout=(1, 2), skew=0.3),
    _r("victories", "Rider", "Race", "palmares", "TRIUMPHED_AT", "racesWon",
       ["the races won by {x}", "{x} 's wins", "the races where {x} took the win",
        "{x} 's palmares"],
       ["which races has {x} won?", "what has {x} won?", "where has {x} taken a victory?",
        "which races did {x} come out on top in?", "what's on {x} 's palmares?"],
       ["has won {x}", "took victory at {x}", "came out on top at {x}", "claimed {x}"],
       ["the winners of {x}", "the riders who have won {x}", "{x} 's past champions",
        "everyone who has taken {x}"],
       ["who has won {x}?", "which riders have taken {x}?", "who came out on top at {x}?",
        "who are {x} 's past winners?"], fanout=(0, 2), skew=0.2),
    _r("host_nation", "Race", "Country", "host_land", "RUN_ON_ROADS_OF", "raceCountry",
       ["the country that stages {x}", "the nation that hosts {x}", "{x} 's host country",
        "the country where {x} is raced"],
       ["which country plays host to {x}?", "where is {x} contested?", "in what country is {x} raced?",
        "where does {x} take place?", "what country does {x} run through?"],
       ["is contested in {x}", "takes place in {x}", "is raced on the roads of {x}"],
       ["the races held in {x}", "{x} 's races", "the races run on the roads of {x}"],
       ["which races are held in {x}?", "what races does {x} host?",
        "what races go through {x}?"], skew=0.2),
    _r("licence", "Rider", "Country", "racing_licence", "RACES_UNDER_FLAG_OF", "licenceNation",
       ["the country represented by {x}", "{x} 's home nation", "the country whose flag {x} rode under",
        "the nation that {x} represented"],
       ["which country does {x} race for?", "where is {x} from?",
        "what flag does {x} race under?", "which nation does {x} ride for at the worlds?",
        "what country is {x} a native of?"],
       ["races under the flag of {x}", "flies the flag for {x}",
        "rides for {x} at the world championships", "comes from {x} originally"],
       ["the riders from {x}", "{x} 's riders", "the riders who represent {x}"],
       ["which riders come from {x}?", "who represents {x}?", "who rides for {x} at the worlds?"],
       skew=0.4),
    _r("rider_type", "Rider", "Role", "rider_profile", "SPECIALISES_AS", "ridingStyle",
       ["the kind of rider {x} is", "{x} 's speciality", "what {x} is best at"],
       ["what kind of rider is {x}?", "what sort of racing does {x} specialise in?",
        "what is {x} best known as in the bunch?", "what type of rider is {x}?",
        "what's {x} 's strength on the bike?"],
       ["is a born {x}", "rides as a {x}", "made their name as a {x}", "is known as a {x}"],
       ["the {x}s in the peloton", "the riders known as {x}s", "the best {x}s"],
       ["who are the {x}s in the peloton?", "which riders are {x}s?", "who rides as a {x}?"],
       skew=0.4, chain=False),
    _r("lieutenant", "Rider", "Rider", "team_leader", "DOMESTIQUE_FOR", "worksForLeader",
       ["the leader supported by {x}", "the captain served by {x}", "{x} 's team captain",
        "the captain {x} fetches bottles for"],
       ["who does {x} work for in the race?", "which leader does {x} ride in support of?",
        "who is {x} 's team leader?", "who does {x} fetch bottles for?", "whose lieutenant is {x}?"],
       ["rides in support of {x}", "fetches bottles for {x}", "is a lieutenant of {x}",
        "works for {x} in the big races"],
       ["the riders working for {x}", "{x} 's helpers", "{x} 's lieutenants",
        "the domestiques who ride for {x}"],
       ["who rides in support of {x}?", "who works for {x} in the race?",
        "who are {x} 's lieutenants?", "which riders fetch bottles for {x}?"], skew=0.2),
))

CHESS = Domain("chess", "caissa", {
    "Player": ("person", 120), "Club": ("chessclub", 14), "Town": ("city", 18),
    "Tournament": ("chessevent", 14), "Arbiter": ("person", 12), "Country": ("country", 8),
    "Opening": ("chessopening", 12), "Title": ("chesstitle", 7)}, {
    "Player": "player", "Club": "chess club", "Town": "town", "Tournament": "tournament",
    "Arbiter": "arbiter", "Country": "country", "Opening": "opening", "Title": "title"}, (
    _r("club_player", "Player", "Club", "home_club", "TURNS_OUT_FOR", "chessClubMembership",
       ["the club {x} plays their league chess for", "{x} 's chess club",
        "the club {x} turns out for",
        "the chess club that {x} belongs to", "{x} 's home club"],
       ["which club does {x} play for?", "what chess club is {x} a member of?",
        "who does {x} turn out for in the league?", "which club has {x} on its team sheet?",
        "{x} plays club chess where?"],
       ["turns out for {x}", "plays club chess for {x}", "is on the books at {x}",
        "plays league matches for {x}"],
       ["the members of the chess club {x}", "the players on {x} 's books",
        "the players who turn out for {x}", "everyone who plays for {x}"],
       ["who plays chess for {x}?", "which players belong to {x}?",
        "who turns out for {x} on match nights?", "who's on {x} 's team sheet?"], skew=0.3),
    _r("club_town", "Club", "Town", "club_meeting_town", "MEETS_WEEKLY_IN", "clubHomeTown",
       ["the town where {x} meets", "the town {x} plays its home matches in",
        "the place {x} holds its club nights", "the town {x} calls home"],
       ["where does {x} meet?", "in what town does {x} hold its club nights?",
        "where does {x} play its home matches?", "what town is {x} in?",
        "which town does {x} meet in on club nights?"],
       ["meets in {x}", "holds its club nights in {x}", "plays its home matches in {x}"],
       ["the chess clubs in {x}", "{x} 's chess clubs", "the clubs that meet in {x}"],
       ["which chess clubs are there in {x}?", "where can I play chess in {x}?",
        "what clubs meet in {x}?"], skew=0.3),
    _r("trainer", "Player", "Player", "chess_trainer", "TAUGHT_THE_GAME_BY", "chessCoach",
       ["{x} 's coach", "the trainer who works with {x}", "the player who coaches {x}",
        "the person who taught {x} to play chess", "{x} 's chess trainer"],
       ["who is coaching {x} these days?", "who trains {x}?", "who taught {x} chess?",
        "who is {x} 's trainer?",
        "who did {x} learn the game from?", "who's been working with {x} on their chess?"],
       ["gets coaching from {x}", "learned the game from {x}", "trains with {x}",
        "took lessons from {x}"],
       ["{x} 's chess pupils", "the players coached by {x}", "the students {x} has trained",
        "everyone who took lessons from {x}"],
       ["who does {x} coach?", "which players has {x} trained?", "who took lessons from {x}?",
        "whose coach is {x}?"], skew=0.2),
    _r("tournament_wins", "Player", "Tournament", "tournament_victories", "FINISHED_FIRST_IN",
       "eventsTopped",
       ["the tournaments {x} has won", "{x} 's tournament wins",
        "the events where {x} finished first", "the events {x} took first prize in"],
       ["which tournaments has {x} won?", "what events did {x} win?",
        "where has {x} taken first place?", "which tournaments did {x} finish top in?",
        "what has {x} won over the board?"],
       ["won {x}", "took first place at {x}", "finished top of the table at {x}",
        "came first in {x}"],
       ["the players who have won {x}", "{x} 's former winners",
        "everyone who has taken first prize at {x}", "the past champions of {x}"],
       ["who won {x}?", "which players have won {x}?", "who took first place at {x}?",
        "who has finished first at {x}?", "who are the past champions of {x}?"],
       fanout=(0, 2), skew=0.2),
    _r("tournament_town", "Tournament", "Town", "venue_town", "PLAYED_IN_TOWN", "tournamentCity",
       ["the town that hosts {x}", "the town where {x} is played", "{x} 's venue",
        "the host town of {x}"],
       ["where is {x} played?", "which town hosts {x}?", "where is {x} held each year?",
        "in which town does {x} take place?", "where do they play {x}?"],
       ["is played in {x}", "is held every year in {x}", "is hosted by the town of {x}"],
       ["the tournaments held in {x}", "the tournaments {x} hosts", "the events played in {x}"],
       ["which tournaments are played in {x}?", "what chess events does {x} host?",
        "what tournaments take place in {x}?"], skew=0.3),
    _r("organiser", "Tournament", "Club", "organising_club", "PUT_ON_BY", "hostClub",
       ["the club that organises {x}", "the organisers of {x}", "{x} 's organising club",
        "the club behind {x}"],
       ["who organises {x}?", "which club runs {x}?", "who puts on {x}?",
        "which club is behind {x}?"],
       ["is organised by {x}", "is put on every year by {x}", "is a {x} event"],
       ["the tournaments {x} organises", "the events {x} puts on",
        "the tournaments run by the club {x}"],
       ["which tournaments does {x} organise?", "what events does {x} run?",
        "what does {x} put on each year?"], skew=0.3),
    _r("chief_arbiter", "Tournament", "Arbiter", "chief_arbiter", "OFFICIATED_BY",
       "arbiterInCharge",
       ["the chief arbiter of {x}", "the arbiter in charge at {x}", "{x} 's arbiter",
        "the official running {x}"],
       ["who is the chief arbiter at {x}?", "who officiates {x}?", "who's the arbiter at {x}?",
        "who settles disputes at {x}?", "who is in charge of the rules at {x}?"],
       ["is officiated by {x}", "has {x} as chief arbiter", "is refereed by {x}"],
       ["the tournaments {x} officiates", "the events where {x} is arbiter",
        "the tournaments that have {x} as arbiter"],
       ["which tournaments does {x} officiate?", "where is {x} the arbiter?",
        "what events does {x} referee?"], skew=0.3),
    _r("federation", "Player", "Country", "chess_federation", "REPRESENTS_AT_OLYMPIADS",
       "fideFederation",
       ["the federation {x} plays under", "the country {x} represents", "{x} 's federation",
        "the nation {x} plays for at the Olympiad"],
       ["which country does {x} play for?", "what federation is {x} registered with?",
        "who does {x} represent at the Olympiad?", "which flag does {x} play under?",
        "what country is {x} rated under?"],
       ["represents {x} at the Olympiad", "plays under the {x} flag",
        "is registered with the {x} federation"],
       ["the players registered with {x}", "{x} 's chess players",
        "the players who represent {x} at the board"],
       ["which players represent {x}?", "who plays for {x} at the Olympiad?",
        "who is registered with the {x} federation?"], skew=0.4),
    _r("opening", "Player", "Opening", "pet_opening", "OPENS_WITH", "favouriteOpening",
       ["{x} 's favourite opening", "the opening {x} swears by", "{x} 's pet line",
        "the opening {x} is known for"],
       ["what opening does {x} play?", "what does {x} like to open with?",
        "which opening is {x} known for?", "what's {x} 's go-to opening?",
        "what line does {x} swear by?"],
       ["always goes for the {x}", "swears by the {x}", "likes to open with the {x}",
        "is a {x} specialist"],
       ["the players who swear by the {x}", "the {x} specialists",
        "the players who play the {x}"],
       ["who plays the {x}?", "which players open with the {x}?",
        "who is known for playing the {x}?"], fanout=(1, 2), skew=0.4, chain=False),
    _r("title", "Player", "Title", "fide_title", "HOLDS_THE_TITLE", "chessTitle",
       ["{x} 's chess title", "the title {x} holds", "the FIDE title held by {x}"],
       ["what chess title does {x} hold?", "what is {x} 's FIDE title?",
        "what title has {x} earned?",
        "how far up the title ladder has {x} got?"],
       ["has made {x}", "holds the {x} title", "earned the {x} title"],
       ["the players with the {x} title", "the {x}s on the circuit"],
       ["who holds the {x} title?", "which players are {x}s?", "who has earned the {x} title?"],
       skew=0.5, chain=False),
    _r("captain", "Club", "Player", "team_captain", "CAPTAINED_BY", "clubSkipper",
       ["the captain of the chess club {x}", "{x} 's club captain", "the player who captains {x}",
        "the one picking the team at {x}"],
       ["who captains the side at {x}?", "who is {x} 's captain?", "who picks the team at {x}?",
        "who's the skipper at {x}?"],
       ["is skippered by {x}", "has {x} as captain", "is led on match nights by {x}"],
       ["the club {x} captains", "the team {x} picks", "the club where {x} is captain"],
       ["which club does {x} captain?", "where is {x} the captain?",
        "what team does {x} pick?"], skew=0.1),
))

ARCHAEOLOGY = Domain("archaeology", "trowel", {
    "Archaeologist": ("person", 90), "Excavation": ("excavation", 36), "Site": ("digsite", 24),
    "Artefact": ("artefact", 80), "Museum": ("archmuseum", 10), "Region": ("province", 9),
    "Period": ("epoch", 10), "Material": ("findmaterial", 10), "Funder": ("heritagefund", 9)}, {
    "Archaeologist": "archaeologist", "Excavation": "excavation", "Site": "site",
    "Artefact": "artefact", "Museum": "museum", "Region": "region", "Period": "period",
    "Material": "material", "Funder": "funder"}, (
    _r("dig_leader", "Excavation", "Archaeologist", "dig_director", "LED_IN_THE_FIELD_BY",
       "excavationLead",
       ["the director of {x}", "the archaeologist who led {x}", "{x} 's director",
        "whoever ran {x}", "the person who was in charge of {x}"],
       ["who led {x}?", "who directed {x}?", "who was in charge of {x}?", "who ran {x}?",
        "which archaeologist headed up {x}?"],
       ["was led in the field by {x}", "was directed by {x}", "had {x} in charge"],
       ["the excavations {x} has led", "the digs directed by {x}", "{x} 's digs",
        "the fieldwork {x} has run"],
       ["which excavations has {x} directed?", "what digs has {x} led?",
        "which digs was {x} in charge of?", "what fieldwork has {x} run?"], skew=0.3),
    _r("dig_site", "Excavation", "Site", "excavated_site", "OPENED_TRENCHES_AT", "digLocation",
       ["the site dug by {x}", "the site {x} excavated", "the place {x} opened its trenches",
        "the place {x} was digging"],
       ["where did {x} dig?", "which site did {x} excavate?", "where did {x} open its trenches?",
        "what site was {x} working on?"],
       ["dug at {x}", "excavated {x}", "opened trenches at {x}", "worked on {x}"],
       ["the excavations at {x}", "the digs at {x}", "the campaigns that have dug {x}",
        "the fieldwork done at {x}"],
       ["which excavations have worked on {x}?", "what digs have there been at {x}?",
        "which projects have excavated {x}?", "what fieldwork has been done at {x}?"],
       skew=0.3),
    _r("site_region", "Site", "Region", "site_region", "LIES_WITHIN", "siteDistrict",
       ["the region {x} lies in", "the area where {x} is", "{x} 's region",
        "the part of the country {x} is in"],
       ["what region can {x} be found in?", "in which region will I find {x}?",
        "where exactly is {x}?",
        "what part of the country is {x} in?", "which region does {x} lie in?"],
       ["sits somewhere in {x}", "is out in {x}", "is tucked away in {x}"],
       ["the sites in {x}", "the archaeological sites of {x}", "{x} 's ancient sites"],
       ["which sites are in {x}?", "what archaeological sites are there in {x}?",
        "what ancient sites can you visit in {x}?"], skew=0.2),
    _r("site_period", "Site", "Period", "occupation_phase", "DATES_FROM", "sitePeriod",
       ["the period of {x}", "the era {x} dates from", "{x} 's date", "the age {x} belongs to"],
       ["how old is {x}?", "what period does {x} date from?", "when was {x} in use?",
        "which era is {x}?", "what age does {x} belong to?"],
       ["dates from the {x} period", "was occupied in the {x} period", "is a {x} site",
        "goes back to the {x} period"],
       ["the {x} sites", "the sites dating from the {x} period",
        "the places occupied in the {x} period"],
       ["which sites are {x}?", "what sites date from the {x} period?",
        "where are the {x} sites?"], fanout=(1, 2), skew=0.4, chain=False),
    _r("findspot", "Artefact", "Site", "findspot", "UNEARTHED_AT", "discoveryLocation",
       ["the site where {x} was found", "the findspot of {x}", "the place {x} was dug up",
        "the place {x} came out of the ground"],
       ["where was {x} found?", "where was {x} dug up?", "which site did {x} come from?",
        "where did {x} turn up?", "at what site was {x} unearthed?"],
       ["was found at {x}", "was dug up at {x}", "came out of the ground at {x}",
        "was unearthed at {x}"],
       ["the finds from {x}", "the artefacts found at {x}", "what has been dug up at {x}",
        "{x} 's finds"],
       ["what has been found at {x}?", "which artefacts came from {x}?", "what turned up at {x}?",
        "what have they dug up at {x}?"], skew=0.3),
    _r("collection", "Artefact", "Museum", "held_in_collection", "KEPT_IN_THE_COLLECTION_OF",
       "curatingMuseum",
       ["the museum that holds {x}", "the museum {x} is in now", "the collection {x} belongs to",
        "the museum where {x} is on display"],
       ["where can I go to see {x}?", "which museum has {x} now?", "where is {x} kept today?",
        "what museum is {x} in?", "where is {x} displayed?"],
       ["is displayed at {x}", "is held by {x}", "is in the collection of {x}",
        "ended up in {x}"],
       ["the collection of {x}", "the artefacts held by {x}", "the objects on display at {x}",
        "{x} 's holdings"],
       ["what does {x} have in its collection?", "which artefacts are in {x}?",
        "what can you see at {x}?", "what's on display at {x}?"], skew=0.4),
    _r("material", "Artefact", "Material", "made_of", "FASHIONED_FROM", "artefactMaterial",
       ["the material of {x}", "what {x} is made of", "the stuff {x} was made from"],
       ["what is {x} actually made of?", "what material is {x}?", "what was {x} fashioned from?",
        "what's {x} made out of?"],
       ["is made of {x}", "was fashioned from {x}", "was worked in {x}", "is a {x} piece"],
       ["the {x} artefacts", "the objects made of {x}", "the {x} finds"],
       ["which artefacts are made of {x}?", "what objects were fashioned from {x}?",
        "which finds are {x}?"], fanout=(1, 2), skew=0.4, chain=False),
    _r("museum_region", "Museum", "Region", "museum_region", "OPEN_TO_VISITORS_IN", "museumArea",
       ["the region {x} stands in", "the area that is home to {x}",
        "the region where you will find {x}"],
       ["where is {x} to be found?", "which region is {x} in?", "in what area would I find {x}?",
        "where do I go to visit {x}?"],
       ["can be visited in {x}", "is open to visitors in {x}", "has its galleries in {x}"],
       ["the museums in {x}", "{x} 's museums", "the museums you can visit in {x}"],
       ["which museums are in {x}?", "what museums does {x} have?",
        "where can I see antiquities in {x}?"], skew=0.2),
    _r("funder", "Excavation", "Funder", "dig_funder", "GRANT_FUNDED_BY", "grantGiver",
       ["the funder of {x}", "the body that paid for {x}", "{x} 's backers",
        "whoever put up the money for {x}"],
       ["who picked up the tab for {x}?", "who put up the funding for {x}?",
        "where did the money for {x} come from?",
        "which trust backed {x}?", "who bankrolled {x}?"],
       ["had its funding from {x}", "was paid for by {x}", "got a grant from {x}",
        "was bankrolled by {x}"],
       ["the excavations funded by {x}", "the digs {x} has paid for",
        "the projects backed by {x}"],
       ["which excavations has {x} funded?", "what digs did {x} pay for?",
        "what fieldwork has {x} backed?"], skew=0.3),
    _r("field_mentor", "Archaeologist", "Archaeologist", "field_mentor", "LEARNED_TO_DIG_UNDER",
       "trowelMentor",
       ["the archaeologist who trained {x}", "the person who taught {x} to dig",
        "{x} 's old teacher", "the archaeologist {x} learned the trade from"],
       ["who trained {x} in fieldwork?", "who taught {x} to dig?",
        "who was {x} 's mentor in the field?",
        "under whom did {x} learn excavation?", "who did {x} cut their teeth under?"],
       ["learned to dig under {x}", "served an apprenticeship under {x}",
        "cut their teeth on digs run by {x}",
        "was taught fieldwork by {x}"],
       ["the archaeologists trained by {x}", "{x} 's proteges", "the people {x} taught to dig",
        "the students {x} took into the field"],
       ["who did {x} train in the field?", "which archaeologists learned under {x}?",
        "who did {x} teach to dig?", "whose mentor was {x}?"], skew=0.2),
    _r("finder", "Artefact", "Archaeologist", "found_by", "FIRST_SPOTTED_BY", "discoverer",
       ["the person who found {x}", "the archaeologist who discovered {x}", "{x} 's discoverer",
        "whoever turned up {x}"],
       ["who found {x}?", "who discovered {x}?", "who dug up {x}?",
        "which archaeologist unearthed {x}?", "whose trowel turned up {x}?"],
       ["was discovered by {x}", "was found by {x}", "was dug up by {x}"],
       ["the finds made by {x}", "the artefacts {x} discovered", "{x} 's discoveries",
        "what {x} has dug up"],
       ["what has {x} found?", "which artefacts did {x} discover?", "what did {x} dig up?",
        "what are {x} 's most famous finds?"], skew=0.3),
))

DOMAINS = {d.name: d for d in (MUSIC, ACADEMIA, SPORTS, WORKPLACE, FAMILY, BUSINESS,
                               PUBLISHING, MEDICINE, AVIATION, DINING, ART, OPENSOURCE,
                               FARMING, COURTS, RAILWAYS, MOUNTAINEERING, THEATRE,
                               SPACEFLIGHT, MARITIME, FASHION, BIOGRAPHY, WINEMAKING,
                               BEEKEEPING, CYCLING, CHESS, ARCHAEOLOGY)}
FIT, REPORT = ("music", "academia", "sports", "workplace"), ("family", "business")
HOLDOUT, BLIND = ("publishing", "medicine"), ("aviation", "dining")
BLIND2, BLIND3 = ("art", "opensource"), ("farming", "courts")
BLIND4, BLIND5 = ("railways", "mountaineering"), ("theatre", "spaceflight")
BLIND6, BLIND7 = ("maritime", "fashion"), ("biography", "winemaking")
BLIND8, BLIND9 = ("beekeeping", "cycling"), ("chess", "archaeology")
SPLITS: dict[str, tuple[str, ...]] = {"fit": FIT, "report": REPORT, "holdout": HOLDOUT,
                                      "blind": BLIND, "blind2": BLIND2, "blind3": BLIND3,
                                      "blind4": BLIND4, "blind5": BLIND5, "blind6": BLIND6,
                                      "blind7": BLIND7, "blind8": BLIND8, "blind9": BLIND9}
# (domain, style, typed, underscored): each domain in two or three renderings
VARIANTS: tuple[tuple[str, str, bool, bool], ...] = (
    ("music", "snake", True, False), ("music", "upper", False, True),
    ("academia", "camel", True, False), ("academia", "dotted", False, True),
    ("sports", "dotted", True, False), ("sports", "upper", True, False),
    ("sports", "snake", False, True),
    ("workplace", "camel", True, False), ("workplace", "upper", False, True),
    ("family", "dotted", False, True), ("family", "camel", True, False),
    ("family", "upper", True, False),
    ("business", "snake", False, False), ("business", "upper", False, True),
    ("business", "dotted", True, False),
    ("publishing", "camel", True, False), ("publishing", "upper", False, True),
    ("publishing", "dotted", True, False),
    ("medicine", "snake", True, False), ("medicine", "dotted", False, True),
    ("medicine", "upper", True, False),
    ("aviation", "snake", True, False), ("aviation", "upper", False, True),
    ("aviation", "dotted", True, False),
    ("dining", "camel", False, False), ("dining", "dotted", False, True),
    ("dining", "upper", True, False),
    ("art", "snake", False, True), ("art", "camel", True, False),
    ("art", "upper", True, True),
    ("opensource", "dotted", True, False), ("opensource", "upper", False, False),
    ("opensource", "camel", False, True),
    ("farming", "snake", False, True), ("farming", "camel", True, False),
    ("farming", "upper", True, True),
    ("courts", "dotted", True, False), ("courts", "upper", False, False),
    ("courts", "camel", False, True),
    ("railways", "camel", False, True), ("railways", "dotted", True, False),
    ("railways", "snake", True, True),
    ("mountaineering", "upper", True, False), ("mountaineering", "snake", False, False),
    ("mountaineering", "dotted", False, True),
    ("theatre", "upper", False, True), ("theatre", "camel", True, False),
    ("theatre", "dotted", True, True),
    ("spaceflight", "snake", True, True), ("spaceflight", "dotted", False, False),
    ("spaceflight", "upper", True, False),
    ("maritime", "camel", True, True), ("maritime", "upper", False, False),
    ("maritime", "snake", True, False),
    ("fashion", "dotted", False, True), ("fashion", "upper", True, False),
    ("fashion", "camel", False, False),
    ("biography", "snake", False, True), ("biography", "dotted", True, False),
    ("biography", "upper", True, True),
    ("winemaking", "camel", True, False), ("winemaking", "upper", False, True),
    ("winemaking", "dotted", False, False),
    ("beekeeping", "dotted", True, True), ("beekeeping", "snake", False, False),
    ("beekeeping", "camel", True, False),
    ("cycling", "upper", False, True), ("cycling", "snake", True, True),
    ("cycling", "camel", False, False),
    ("chess", "snake", True, False), ("chess", "upper", False, False),
    ("chess", "dotted", False, True),
    ("archaeology", "camel", True, True), ("archaeology", "dotted", True, False),
    ("archaeology", "upper", False, True),
)


# --------------------------------------------------------------------------- graphs


def _skewed(rng: random.Random, items: Sequence[str], skew: float) -> str:
    k = int(len(items) * rng.random() ** (1 + 2 * skew))
    return items[min(k, len(items) - 1)]


def _facts(dom: Domain, seed: int) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    """(head, relation key, tail) facts and every entity's type."""
    rng = random.Random(seed)
    ents: dict[str, list[str]] = {}
    used: set[str] = set()
    for typ, (pool, n) in dom.types.items():
        names = [x for x in _pool(pool, rng, n + len(used)) if x not in used][:n]
        used.update(names)
        ents[typ] = names
    types = {e: t for t, es in ents.items() for e in es}
    facts: list[tuple[str, str, str]] = []
    for rel in dom.rels:
        tails = ents[rel.tail]
        for h in ents[rel.head]:
            k = rng.randint(*rel.fanout)
            got = {_skewed(rng, tails, rel.skew) for _ in range(k)} - {h}
            facts += [(h, rel.key, t) for t in sorted(got)]
    if any(r.key == "spouse" for r in dom.rels):  # marriages are mutual and one each
        facts = [f for f in facts if f[1] != "spouse"]
        people = list(ents["Person"])
        rng.shuffle(people)
        for a, b in zip(people[0::2], people[1::2], strict=False):
            if rng.random() < 0.8:
                facts += [(a, "spouse", b), (b, "spouse", a)]
    return list(dict.fromkeys(facts)), types


def _underscore(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


# --------------------------------------------------------------------------- questions


def _fits(template: str, x: str, nested: bool) -> bool:
    """A possessive template ("{x} 's band") takes a name or another possessive ("X 's son 's
    band"), not a phrase ending elsewhere ("the team of X 's home ground" reads as the team of
    X's home ground)."""
    if not nested or "{x} 's" not in template:
        return True
    toks = x.split()
    return len(toks) >= 2 and toks[-2] == "'s"


def _pick(options: Sequence[str], rng: random.Random, x: str, nested: bool) -> str | None:
    fitting = [t for t in options if _fits(t, x, nested)]
    return rng.choice(fitting).format(x=x) if fitting else None


def _np(rel: Rel, back: bool, rng: random.Random, x: str, nested: bool) -> str | None:
    return _pick(rel.np_back if back else rel.np, rng, x, nested)


def _ask(rel: Rel, back: bool, rng: random.Random, x: str, dom: Domain,
         nested: bool) -> str | None:
    if back:
        if rel.ask_back:
            return _pick(rel.ask_back, rng, x, nested)
        if rel.clause:
            who = dom.type_words[rel.head]
            return f"which {who} {rng.choice(rel.clause).format(x=x)}?"
        return None
    return _pick(rel.ask, rng, x, nested)


def _chains(dom: Domain, k: int) -> list[tuple[Hop, ...]]:
    """Every k-hop chain of the domain's relations that types line up, no hop undoing the one
    before it (``spouse`` then ``spouse`` back), inner hops only through chainable relations."""
    out: list[tuple[Hop, ...]] = []

    def ends(hop: Hop) -> tuple[str, str]:
        r = next(x for x in dom.rels if x.key == hop[0])
        return (r.tail, r.head) if hop[1] else (r.head, r.tail)

    def extend(prefix: tuple[Hop, ...]) -> None:
        if len(prefix) == k:
            out.append(prefix)
            return
        at = ends(prefix[-1])[1] if prefix else None
        for r in dom.rels:
            for back in (False, True):
                hop = (r.key, back)
                if back and not (r.np_back or r.ask_back or r.clause):
                    continue
                if at is not None and ends(hop)[0] != at:
                    continue
                if prefix and prefix[-1][0] == r.key:
                    continue  # out and back along one relation: a sharing question, not here
                if len(prefix) < k - 1 and not r.chain:
                    continue
                if len(prefix) < k - 1 and not (r.np_back if back else r.np):
                    continue
                extend((*prefix, hop))

    extend(())
    return out


def _questions(dom: Domain, facts, types, names: dict[str, str], rng: random.Random,
               n: dict[str, int]) -> list[Question]:
    idx = rg.TripleIndex(facts)
    rel = {r.key: r for r in dom.rels}
    by_type: dict[str, list[str]] = defaultdict(list)
    for e, t in types.items():
        by_type[t].append(e)
    out: list[Question] = []
    for k, kind in ((1, "1hop"), (2, "2hop"), (3, "3hop")):
        chains = _chains(dom, k)
        tries = 0
        got = 0
        while got < n[kind] and tries < n[kind] * 60 and chains:
            tries += 1
            hops = rng.choice(chains)
            first = rel[hops[0][0]]
            start_type = first.tail if hops[0][1] else first.head
            topic = rng.choice(by_type[start_type])
            gold = [g for g in idx.walk(topic, hops, cap=None) if g != topic]
            if not gold or len(gold) > 25:
                continue
            text: str | None = names[topic]
            for i, (r, back) in enumerate(hops[:-1]):
                text = _np(rel[r], back, rng, text, nested=i > 0) if text else None
            last, back = hops[-1]
            q = _ask(rel[last], back, rng, text, dom, nested=k > 1) if text else None
            if not q or not text:
                continue
            out.append(Question(q, (topic,), hops, gold, kind))
            got += 1
    out += _conjunctions(dom, idx, by_type, names, rng, n["conj"])
    return out


def _conjunctions(dom: Domain, idx: rg.TripleIndex, by_type, names, rng: random.Random,
                  n: int) -> list[Question]:
    """"which musician plays the cello and comes from Aldwick?": two clauses about one head
    type, the gold the heads both are true of."""
    pairs = [(a, b) for a in dom.rels for b in dom.rels
             if a.key < b.key and a.head == b.head and a.clause and b.clause]
    out: list[Question] = []
    tries = 0
    while len(out) < n and tries < n * 80 and pairs:
        tries += 1
        a, b = rng.choice(pairs)
        head = rng.choice(by_type[a.head])
        ta, tb = idx.step(head, (a.key, False)), idx.step(head, (b.key, False))
        if not ta or not tb:
            continue
        xa, xb = rng.choice(ta), rng.choice(tb)
        gold = sorted(set(idx.step(xa, (a.key, True))) & set(idx.step(xb, (b.key, True))))
        if not gold or len(gold) > 10 or len(idx.step(xa, (a.key, True))) < 2:
            continue
        who = dom.type_words[a.head]
        text = (f"which {who} {rng.choice(a.clause).format(x=names[xa])} and "
                f"{rng.choice(b.clause).format(x=names[xb])}?")
        out.append(Question(text, (xa, xb), ((a.key, True),), gold, "conj"))
    return out


def _spaced(text: str, underscored: bool) -> str:
    """Underscored variants write questions in lower case with spaced punctuation."""
    if not underscored:
        return text[0].upper() + text[1:]
    return re.sub(r"\s*\?$", " ?", text.lower())


def variant(domain: str, style: str, typed: bool, underscored: bool, *, seed: int = 0,
            per_kind: int = 16) -> Variant:
    """One domain rendered in one style, with ``per_kind`` questions per kind (1-, 2-, 3-hop,
    conjunction)."""
    dom = DOMAINS[domain]
    facts, types = _facts(dom, seed)
    names = {e: (_underscore(e) if underscored else e) for e in types}
    rel = {r.key: r for r in dom.rels}
    triples = [(names[h], rel[r].name(style, dom.prefix), names[t]) for h, r, t in facts]
    labels = {names[e]: t for e, t in types.items()}
    split = next(k for k, doms in SPLITS.items() if domain in doms)
    name = f"{domain}-{style}-{'typed' if typed else 'plain'}{'-ids' if underscored else ''}"
    v = Variant(name=name, domain=domain, split=split, style=style, typed=typed,
                underscored=underscored, triples=triples, labels=labels)
    rng = random.Random(seed + 7)
    qs = _questions(dom, facts, types, names, rng, {"1hop": per_kind, "2hop": per_kind,
                                                   "3hop": per_kind // 2, "conj": per_kind // 2})
    for q in qs:
        q.text = _spaced(q.text, underscored)
        q.topic = tuple(names[t] for t in q.topic)
        q.answers = [names[a] for a in q.answers]
        q.variant = name
    v.questions = qs
    return v


def variants(split: str | None = None, *, seed: int = 0, per_kind: int = 16) -> list[Variant]:
    """Every variant of a split (``fit`` / ``report`` / ``holdout`` / ``blind`` /
    ``blind2`` / ``blind3`` / ``blind4`` / ``blind5`` / ``blind6`` / ``blind7`` /
    ``blind8`` / ``blind9``; None: all)."""
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
    return [variant(d, s, t, u, seed=seed, per_kind=per_kind) for d, s, t, u in VARIANTS
            if split is None or d in SPLITS[split]]


def relation_names(split: str) -> set[str]:
    """Every relation name a split's variants use (for the no-overlap check)."""
    return {r for v in variants(split, per_kind=0) for _h, r, _t in v.triples}
