"""Build the demo graph (``memory:demo``) and its questions from the hand-written facts in
``scripts/demo_facts.txt``.

Run ``python scripts/build_demo_graph.py [OUT_DIR]`` from the repository to regenerate
``byokg/demo/demo_kg.jsonl`` and ``byokg/demo/questions.jsonl`` (the data files that ship in the
package; this generator does not); the output is deterministic (a test rebuilds it and compares
bytes).

The facts were written for this project (musicians, places, films, companies, universities),
in a small line format parsed here::

    [Label,OtherLabel]                      # section header: labels of the nodes that follow
    Node id :: relation=Target|Target2; @property=value; aka=Alias|Alias2; name=Display

Every ``relation=`` value becomes a triplet ``id -relation-> target``; every target must itself
be defined somewhere (so every node has labels). Marriages are CVT-style event nodes
(``m.demo_marriage_NN``) linking two people: ``person -marriage-> m`` and ``m -spouse-> person``
for both spouses, with ``from``/``to`` years as node properties.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1] / "byokg" / "demo"  # where the package data lives
FACTS = Path(__file__).resolve().with_name("demo_facts.txt")  # the hand-written facts


def read_facts() -> dict[str, str]:
    """The blocks of demo_facts.txt by name (places, vocabulary, labels, bands, musicians,
    film people, films, companies, marriages), each the text after its ``=== NAME`` line."""
    blocks: dict[str, str] = {}
    text = FACTS.read_text(encoding="utf-8")
    for part in text.split("\n=== ")[1:]:
        name, _, body = part.partition("\n")
        blocks[name.strip()] = "\n" + body
    return blocks


# A few edge properties (key: head, relation, tail).
EDGE_PROPERTIES: dict[tuple[str, str, str], dict[str, Any]] = {
    ("Freddie Mercury", "member_of", "Queen"): {"role": "lead vocals", "from": 1970, "to": 1991},
    ("Brian May", "member_of", "Queen"): {"role": "lead guitar", "from": 1970},
    ("John Lennon", "member_of", "The Beatles"): {"role": "rhythm guitar", "from": 1960, "to": 1970},
    ("Ringo Starr", "member_of", "The Beatles"): {"role": "drums", "from": 1962, "to": 1970},
    ("Beyoncé", "member_of", "Destiny's Child"): {"role": "lead vocals", "from": 1990, "to": 2006},
    ("Elvis Presley", "signed_to", "Sun Records"): {"from": 1954, "to": 1955},
    ("Elvis Presley", "signed_to", "RCA Victor"): {"from": 1955, "to": 1977},
    ("Johnny Cash", "signed_to", "Sun Records"): {"from": 1955, "to": 1958},
    ("Aretha Franklin", "signed_to", "Atlantic Records"): {"from": 1967, "to": 1979},
}

# --------------------------------------------------------------------------- questions

# (question, topic entities, relation path, inverted flags or None, answers, kind)
Q = tuple[str, list[str], list[str], list[bool] | None, list[str], str]
QUESTIONS: list[Q] = [
    ("Where was Wynton Marsalis born?", ["Wynton Marsalis"], ["born_in"], None,
     ["New Orleans"], "simple"),
    ("Where was Satchmo born?", ["Louis Armstrong"], ["born_in"], None,
     ["New Orleans"], "alias"),
    ("What instruments does Trombone Shorty play?", ["Troy Andrews"], ["instrument"], None,
     ["trombone", "trumpet"], "alias"),
    ("Which record label is Beyonce signed to?", ["Beyoncé"], ["signed_to"], None,
     ["Columbia Records"], "accent"),
    ("What is the capital of Jamaica?", ["Jamaica"], ["capital"], None, ["Kingston"], "simple"),
    ("What are the official languages of Switzerland?", ["Switzerland"], ["official_language"],
     None, ["German", "French", "Italian", "Romansh"], "simple"),
    ("Where was Agnetha Fältskog born?", ["Agnetha Fältskog"], ["born_in"], None,
     ["Jönköping"], "accent"),
    ("Where was Celine Dion born?", ["Céline Dion"], ["born_in"], None, ["Charlemagne"], "accent"),
    ("Who directed Paris, Texas?", ["Paris, Texas (film)"], ["directed_by"], None,
     ["Wim Wenders"], "disambiguation"),
    ("In which state is the town of Paris, Texas?", ["Paris, Texas"], ["located_in"], None,
     ["Texas"], "disambiguation"),
    ("Which genre is bebop a subgenre of?", ["bebop"], ["subgenre_of"], None, ["jazz"], "simple"),
    ("Which band was Freddie Mercury a member of?", ["Freddie Mercury"], ["member_of"], None,
     ["Queen"], "simple"),
    ("Who founded Hitsville U.S.A.?", ["Motown"], ["founded_by"], None, ["Berry Gordy"], "alias"),
    ("Who founded Studio Ghibli?", ["Studio Ghibli"], ["founded_by"], None,
     ["Hayao Miyazaki", "Isao Takahata", "Toshio Suzuki"], "simple"),
    ("Which record labels did the Queen of Soul sign with?", ["Aretha Franklin"], ["signed_to"],
     None, ["Columbia Records", "Atlantic Records"], "alias"),
    ("Where was Bird born?", ["Charlie Parker"], ["born_in"], None, ["Kansas City, Kansas"],
     "alias"),
    ("Which country's capital is Reykjavík?", ["Reykjavík"], ["capital"], [True], ["Iceland"],
     "simple"),
    ("Who were the members of ABBA?", ["ABBA"], ["member_of"], [True],
     ["Agnetha Fältskog", "Björn Ulvaeus", "Benny Andersson", "Anni-Frid Lyngstad"], "simple"),
    ("Who are the parents of Lisa Marie Presley?", ["Lisa Marie Presley"], ["parent"], None,
     ["Elvis Presley", "Priscilla Presley"], "simple"),
    ("Who is Beyoncé's sister?", ["Beyoncé"], ["sibling"], None, ["Solange Knowles"], "simple"),
    # two hops
    ("Which country is the birthplace of Björk in?", ["Björk"], ["born_in", "located_in"], None,
     ["Iceland"], "multi_hop"),
    ("Who was Johnny Cash married to?", ["Johnny Cash"], ["marriage", "spouse"], None,
     ["Vivian Liberto", "June Carter Cash"], "cvt"),
    ("Who is Beyoncé's spouse?", ["Beyoncé"], ["marriage", "spouse"], None, ["Jay-Z"], "cvt"),
    ("Who were the wives of Frank Sinatra?", ["Frank Sinatra"], ["marriage", "spouse"], None,
     ["Nancy Barbato", "Ava Gardner", "Mia Farrow", "Barbara Marx"], "cvt"),
    ("Who was Edith Piaf married to?", ["Édith Piaf"], ["marriage", "spouse"], None,
     ["Jacques Pills", "Théo Sarapo"], "cvt"),
    ("In which state is Big Blue headquartered?", ["IBM"], ["headquartered_in", "located_in"],
     None, ["New York"], "alias"),
    ("Where was the director of Amélie born?", ["Amélie"], ["directed_by", "born_in"], None,
     ["Roanne"], "multi_hop"),
    ("Which university did the founder of Amazon attend?", ["Amazon"],
     ["founded_by", "educated_at"], None, ["Princeton University"], "multi_hop"),
    ("In which city is the school Wynton Marsalis attended?", ["Wynton Marsalis"],
     ["educated_at", "located_in"], None, ["New York City"], "multi_hop"),
    ("In which city is the university Bob Dylan attended?", ["Bob Dylan"],
     ["educated_at", "located_in"], None, ["Minneapolis"], "multi_hop"),
    ("What is the official language of the country where Shakira was born?", ["Shakira"],
     ["born_in", "located_in", "official_language"], None, ["Spanish"], "multi_hop"),
    ("In which country was Chopin born?", ["Frédéric Chopin"], ["born_in", "located_in"], None,
     ["Poland"], "accent"),
    ("Who directed films set in Vienna?", ["Vienna"], ["set_in", "directed_by"], [True, False],
     ["Carol Reed", "Richard Linklater", "Miloš Forman"], "multi_hop"),
    ("Where is the record label of The Beatles headquartered?", ["The Beatles"],
     ["signed_to", "headquartered_in"], None, ["London"], "multi_hop"),
    ("Who founded a record label that Elvis Presley was signed to?", ["Elvis Presley"],
     ["signed_to", "founded_by"], None, ["Sam Phillips"], "multi_hop"),
    ("Which instrument family does the instrument Miles Davis played belong to?",
     ["Miles Davis"], ["instrument", "instrument_family"], None, ["brass instruments"],
     "multi_hop"),
    ("What is the currency of the country whose capital is Bern?", ["Bern"],
     ["capital", "currency"], [True, False], ["Swiss franc"], "multi_hop"),
    ("What industry is the company headquartered in Cupertino in?", ["Cupertino"],
     ["headquartered_in", "industry"], [True, False], ["consumer electronics", "software"],
     "multi_hop"),
    ("Who directed the film about Édith Piaf?", ["Édith Piaf"], ["about", "directed_by"],
     [True, False], ["Olivier Dahan"], "multi_hop"),
    ("Which actor starred in the biopic about Freddie Mercury?", ["Freddie Mercury"],
     ["about", "starring"], [True, False], ["Rami Malek"], "multi_hop"),
    ("Which films did the director born in Düsseldorf make?", ["Düsseldorf"],
     ["born_in", "directed_by"], [True, True], ["Wings of Desire", "Paris, Texas (film)"],
     "multi_hop"),
    ("Which films are set in the Big Apple?", ["New York City"], ["set_in"], [True],
     ["Taxi Driver", "Goodfellas", "The Godfather", "Manhattan (film)", "Annie Hall",
      "Whiplash", "Do the Right Thing"], "alias"),
    ("Where was the subject of the film Ray born?", ["Ray"], ["about", "born_in"], None,
     ["Albany, Georgia"], "multi_hop"),
    ("Who is the parent company of the label that signed Destiny's Child?", ["Destiny's Child"],
     ["signed_to", "parent_company"], None, ["Sony Music Entertainment"], "multi_hop"),
    # three hops
    ("What genre of film is set in the city where Louis Armstrong was born?", ["Louis Armstrong"],
     ["born_in", "set_in", "genre"], [False, True, False], ["drama", "fantasy"], "multi_hop"),
    ("Which currency is used in the country where Björk was born?", ["Björk"],
     ["born_in", "located_in", "currency"], None, ["Icelandic króna"], "multi_hop"),
    ("Which continent is Fela Kuti's birthplace in?", ["Fela Kuti"],
     ["born_in", "located_in", "continent"], None, ["Africa"], "multi_hop"),
    ("In which country was Freddie Mercury born?", ["Freddie Mercury"],
     ["born_in", "located_in", "located_in"], None, ["Tanzania"], "multi_hop"),
    ("Where was the wife of David Bowie born?", ["David Bowie"],
     ["marriage", "spouse", "born_in"], None, ["Mogadishu"], "cvt"),
    ("Who was married to the subject of the film Walk the Line?", ["Walk the Line"],
     ["about", "marriage", "spouse"], None, ["Vivian Liberto", "June Carter Cash"], "cvt"),
    ("In which country was the founder of Atlantic Records born?", ["Atlantic Records"],
     ["founded_by", "born_in", "located_in"], None, ["Turkey"], "multi_hop"),
    ("Which country is the Sorbonne in?", ["University of Paris"],
     ["located_in", "located_in", "located_in"], None, ["France"], "alias"),
    ("In which state were the founders of Microsoft born?", ["Microsoft"],
     ["founded_by", "born_in", "located_in"], None, ["Washington (state)"], "multi_hop"),
]

# --------------------------------------------------------------------------- build


def _split_id(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text


def _value(raw: str) -> Any:
    raw = raw.strip()
    return int(raw) if raw.lstrip("-").isdigit() else raw


def _parse(block: str, where: str) -> list[dict[str, Any]]:
    """Parse one block of ``id :: key=value; …`` lines under ``[Label,…]`` headers."""
    labels: list[str] = []
    out: list[dict[str, Any]] = []
    for n, line in enumerate(block.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            labels = [x.strip() for x in line[1:-1].split(",")]
            continue
        head, _, rest = line.partition(" :: ")
        node: dict[str, Any] = {
            "id": _split_id(head),
            "labels": list(labels),
            "aliases": [],
            "properties": {},
            "edges": [],
            "name": None,
        }
        for part in filter(None, (p.strip() for p in rest.split(";"))):
            key, eq, val = part.partition("=")
            if not eq:
                raise ValueError(f"{where} line {n}: {part!r} is not key=value")
            key = key.strip()
            if key == "aka":
                node["aliases"] += [a.strip() for a in val.split("|") if a.strip()]
            elif key == "name":
                node["name"] = val.strip()
            elif key.startswith("@"):
                node["properties"][key[1:]] = _value(val)
            else:
                node["edges"] += [(key, _split_id(t)) for t in val.split("|") if t.strip()]
        if not labels:
            raise ValueError(f"{where} line {n}: node {node['id']!r} has no [Label] section")
        out.append(node)
    return out


def _marriages(block: str) -> tuple[list[dict[str, Any]], list[tuple[str, str, str]]]:
    nodes, triplets = [], []
    rows = [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.startswith("#")]
    for k, line in enumerate(rows, start=1):
        pair, _, rest = line.partition(" :: ")
        a, b = (s.strip() for s in pair.split(" + "))
        mid = f"m.demo_marriage_{k:02d}"
        props = {p.split("=")[0].strip()[1:]: _value(p.split("=")[1]) for p in rest.split(";")}
        nodes.append({"id": mid, "labels": ["Marriage"], "aliases": [], "properties": props,
                      "edges": [], "name": None})
        for person in (a, b):
            triplets.append((person, "marriage", mid))
        for person in (a, b):
            triplets.append((mid, "spouse", person))
    return nodes, triplets


def build_records() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return (node rows, triplet rows), validated: unique ids, every target defined."""
    blocks = read_facts()
    marriages = blocks.pop("MARRIAGES")
    nodes: list[dict[str, Any]] = []
    for where, block in blocks.items():
        nodes += _parse(block, where)
    cvt_nodes, cvt_triplets = _marriages(marriages)
    nodes += cvt_nodes
    by_id: dict[str, dict[str, Any]] = {}
    for n in nodes:
        if n["id"] in by_id:
            raise ValueError(f"node {n['id']!r} is defined twice")
        by_id[n["id"]] = n
    # Eminem acts in 8 Mile: give the musician node the Actor label too.
    by_id["Eminem"]["labels"].append("Actor")
    triplets: list[tuple[str, str, str]] = []
    for n in nodes:
        triplets += [(n["id"], rel, t) for rel, t in n["edges"]]
    triplets += cvt_triplets
    seen: set[tuple[str, str, str]] = set()
    for t in triplets:
        for end in (t[0], t[2]):
            if end not in by_id:
                raise ValueError(f"triplet {t} refers to undefined node {end!r}")
        if t in seen:
            raise ValueError(f"triplet {t} is listed twice")
        seen.add(t)
    for key in EDGE_PROPERTIES:
        if key not in seen:
            raise ValueError(f"edge property for a missing triplet {key}")
    node_rows = []
    for n in nodes:
        row: dict[str, Any] = {"id": n["id"], "name": n["name"] or n["id"], "labels": n["labels"]}
        if n["aliases"]:
            row["aliases"] = n["aliases"]
        if n["properties"]:
            row["properties"] = n["properties"]
        node_rows.append(row)
    triplet_rows = []
    for h, r, t in triplets:
        row = {"head": h, "relation": r, "tail": t}
        if (h, r, t) in EDGE_PROPERTIES:
            row["properties"] = EDGE_PROPERTIES[(h, r, t)]
        triplet_rows.append(row)
    return node_rows, triplet_rows


def question_rows() -> list[dict[str, Any]]:
    rows = []
    for k, (question, topics, path, inverted, answers, kind) in enumerate(QUESTIONS, start=1):
        row: dict[str, Any] = {
            "id": f"demo-{k:03d}",
            "question": question,
            "answers": answers,
            "topic_entities": topics,
            "hops": len(path),
            "relation_path": path,
            "inverted": inverted or [False] * len(path),
            "kind": kind,
        }
        rows.append(row)
    return rows


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def build(out_dir: str | Path = HERE) -> tuple[Path, Path]:
    """Write ``demo_kg.jsonl`` and ``questions.jsonl`` into ``out_dir``; return both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    node_rows, triplet_rows = build_records()
    graph_path, questions_path = out / "demo_kg.jsonl", out / "questions.jsonl"
    _write_jsonl(graph_path, node_rows + triplet_rows)
    _write_jsonl(questions_path, question_rows())
    return graph_path, questions_path


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    graph_path, questions_path = build(args[0] if args else HERE)
    nodes, triplets = build_records()
    print(f"wrote {graph_path} ({len(nodes)} nodes, {len(triplets)} triplets)")
    print(f"wrote {questions_path} ({len(QUESTIONS)} questions)")


if __name__ == "__main__":
    main()
