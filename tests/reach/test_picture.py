"""The evidence picture built from an Answer's fields alone: which nodes and facts are drawn and
where (hops from the question entities), answers found by id or by name, values without a node,
caps that say what they left out, well-formed SVG, escaped untrusted text, the same bytes for the
same Answer, ``Answer._repr_html_`` and ``byokg ask --html``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from byokg.backends.memory import MemoryGraph
from click.testing import CliRunner

from byokg.cli import cli
from byokg.config import RunConfig
from byokg.contracts import Candidate
from byokg.contracts import ContextItem
from byokg.contracts import MentionLinks
from byokg.contracts import Path
from byokg.contracts import Triplet
from byokg.errors import InputError
from byokg.pipeline.answer import Answer
from byokg.pipeline.engine import Engine
from byokg.presentation.picture import MAX_NODES
from byokg.presentation.picture import build_picture
from byokg.presentation.picture import render_fragment
from byokg.presentation.picture import render_page
from byokg.presentation.picture import render_svg
from byokg.presentation.picture import write_page

SVG_NS = "{http://www.w3.org/2000/svg}"


def company_answer(**changes) -> Answer:
    """Acme's founder and CEO were both born in Springfield; ids are opaque, names separate."""
    fields = dict(
        question="Where were the people who run acme born?",
        answers=["Springfield"],
        answer_ids={"Springfield": ["s1"]},
        entities=[MentionLinks(mention="acme", candidates=(
            Candidate(id="c1", name="Acme Corp", score=0.9, method="fuzzy"),
            Candidate(id="c9", name="Acme Ltd", score=0.7, method="fuzzy")))],
        names={"c1": "Acme Corp", "c9": "Acme Ltd", "p1": "Jane Roe", "p2": "John Doe",
               "s1": "Springfield"},
        evidence=[
            ContextItem(text="Acme Corp -[founded_by]-> Jane Roe -[born_in]-> Springfield",
                        tool="follow-paths", score=0.9,
                        path=Path(nodes=("c1", "p1", "s1"), relations=("founded_by", "born_in"))),
            # stored as John Doe -[ceo_of]-> Acme Corp, walked against its direction
            ContextItem(text="Acme Corp <-[ceo_of]- John Doe -[born_in]-> Springfield",
                        tool="shortest-paths",
                        path=Path(nodes=("c1", "p2", "s1"), relations=("ceo_of", "born_in"),
                                  inverted=(True, False))),
            ContextItem(text="Jane Roe -> advisor -> John Doe", tool="one-hop",
                        triplets=(Triplet(head="p1", relation="advisor", tail="p2"),
                                  Triplet(head="p1", relation="mentor", tail="p2"))),
        ],
    )
    fields.update(changes)
    return Answer(**fields)


def test_nodes_roles_and_columns():
    pic = build_picture(company_answer())
    nodes = {n.id: n for n in pic.nodes}
    assert set(nodes) == {"c1", "p1", "p2", "s1"}  # c9 is linked but not in the evidence
    assert (nodes["c1"].role, nodes["c1"].column, nodes["c1"].mention) == ("entity", 0, "acme")
    assert nodes["s1"].role == "answer" and nodes["s1"].column == 2
    assert nodes["p1"].column == nodes["p2"].column == 1
    assert nodes["p1"].label == "Jane Roe" and nodes["p1"].role == "node"
    # one arrow per (head, tail) in the stored direction, carrying all its relations
    edges = {(e.head, e.relations, e.tail): e.lane for e in pic.edges}
    assert edges == {("c1", ("founded_by",), "p1"): 0, ("p1", ("born_in",), "s1"): 0,
                     ("p2", ("ceo_of",), "c1"): 0, ("p2", ("born_in",), "s1"): 0,
                     ("p1", ("advisor", "mentor"), "p2"): 0}
    assert pic.not_drawn == 0
    # an arrow back between the same two nodes gets the second lane
    back = ContextItem(text="John Doe -[reports_to]-> Jane Roe", tool="one-hop",
                       triplets=(Triplet(head="p2", relation="reports_to", tail="p1"),))
    pic = build_picture(company_answer(evidence=[*company_answer().evidence, back]))
    lanes = {(e.head, e.tail): e.lane for e in pic.edges}
    assert lanes[("p1", "p2")] == 0 and lanes[("p2", "p1")] == 1


def test_answers_by_name_and_values_without_a_node():
    # an LLM answer carries no ids: the drawn node with that name is the answer
    pic = build_picture(company_answer(answer_ids={}, answers=["springfield", "42"]))
    nodes = {n.id: n for n in pic.nodes}
    assert nodes["s1"].role == "answer"
    (value,) = [n for n in pic.nodes if n.role == "value"]
    assert value.label == "42" and value.column == 2
    # no evidence: the linked entity and the answer still show
    pic = build_picture(company_answer(evidence=[]))
    assert {(n.id, n.role) for n in pic.nodes} == {("c1", "entity"), ("s1", "answer")}


def test_entity_that_is_also_the_answer():
    pic = build_picture(company_answer(answers=["Acme Corp"], answer_ids={"Acme Corp": ["c1"]}))
    assert {n.id: n.role for n in pic.nodes}["c1"] == "entity answer"
    assert 'class="byokg-node byokg-entity byokg-answer"' in render_svg(company_answer(
        answers=["Acme Corp"], answer_ids={"Acme Corp": ["c1"]}))


def test_caps_are_counted_and_said():
    facts = tuple(Triplet(head="hub", relation="has", tail=f"n{i:03d}") for i in range(120))
    answer = Answer(question="What does hub have?", answers=["n000"],
                    answer_ids={"n000": ["n000"]},
                    entities=[MentionLinks(mention="hub", candidates=(
                        Candidate(id="hub", name="hub", score=1, method="exact"),))],
                    evidence=[ContextItem(text="hub has many", tool="one-hop", triplets=facts)])
    pic = build_picture(answer)
    assert len(pic.nodes) == MAX_NODES
    assert pic.not_drawn == 120 - (MAX_NODES - 1)
    assert f"{pic.not_drawn} more fact(s) from the evidence are not drawn" in render_page(answer)


def test_svg_is_well_formed_and_labelled():
    answer = company_answer()
    root = ET.fromstring(render_svg(answer))
    groups = [g for g in root.iter(f"{SVG_NS}g") if "byokg-node" in g.get("class", "").split()]
    labels = {g.get("data-node"): "".join(g.find(f"{SVG_NS}text").itertext()) for g in groups}
    assert labels == {"c1": "Acme Corp", "p1": "Jane Roe", "p2": "John Doe", "s1": "Springfield"}
    edges = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "byokg-edge"]
    edge_labels = sorted("".join(g.find(f"{SVG_NS}text").itertext()) for g in edges)
    assert edge_labels == sorted(["founded_by", "born_in", "ceo_of", "born_in",
                                  "advisor · mentor"])
    tips = {"".join(g.find(f"{SVG_NS}title").itertext()) for g in edges}
    assert "Jane Roe -[advisor]-> John Doe; Jane Roe -[mentor]-> John Doe" in tips
    # each arrow starts and ends at its nodes' boxes: no two nodes share a place
    places = {(n.column, n.row) for n in build_picture(answer).nodes}
    assert len(places) == 4


HOSTILE = "<script>document.title='pwned'</script>"


def test_untrusted_text_is_escaped():
    bad = f'{HOSTILE}</svg>"\'\x1b]0;t\x07\u202e\r'
    answer = company_answer(question=f"Where? {HOSTILE}", answers=[bad],
                            answer_ids={bad: ["s1"]},
                            names={"c1": bad, "p1": "</text></g></svg><script>x()</script>",
                                   "p2": "a&b", "s1": bad},
                            entities=[MentionLinks(mention=bad, candidates=(
                                Candidate(id="c1", name=bad, score=1, method=bad),))])
    page = render_page(answer)
    assert "<script" not in page.lower()
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", page)
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in page
    assert "a&amp;b" in page and "\\x1b]0;t\\x07\\u202e\\r" in page
    ET.fromstring(render_svg(answer))  # still one well-formed SVG element
    # the page may not load anything or run anything
    assert "default-src 'none'" in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")


def test_same_answer_same_bytes(tmp_path):
    answer = company_answer()
    assert render_page(answer) == render_page(answer.model_copy(deep=True))
    src = tmp_path / "answer.json"
    src.write_text(answer.model_dump_json(), encoding="utf-8")
    code = ("import sys; from byokg.pipeline.answer import Answer; from byokg.presentation.picture import render_page\n"
            "a = Answer.model_validate_json(open(sys.argv[1], encoding='utf-8').read())\n"
            "sys.stdout.write(render_page(a))")
    pages = set()
    for seed in ("1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-c", code, str(src)], capture_output=True,
                              text=True, env=env, timeout=60, encoding="utf-8")
        assert proc.returncode == 0, proc.stderr
        pages.add(proc.stdout)
    assert pages == {render_page(answer)}


def test_repr_html_and_empty_answer():
    answer = company_answer()
    assert answer._repr_html_() == render_fragment(answer)
    assert answer._repr_html_().startswith('<div class="byokg-view">')
    empty = Answer(question="Anything?")
    html = empty._repr_html_()
    assert "No evidence to draw." in html and "no answer found in the graph" in html


def test_write_page_errors_name_the_file(tmp_path):
    with pytest.raises(InputError, match="does not exist; create it first"):
        write_page(company_answer(), tmp_path / "missing" / "a.html")
    with pytest.raises(InputError, match="is a folder"):
        write_page(company_answer(), tmp_path)
    out = write_page(company_answer(), tmp_path / "a.html")
    assert out.read_text(encoding="utf-8") == render_page(company_answer())


def test_engine_answer_draws():
    store = MemoryGraph.from_triplets([("Q42", "place_of_birth", "Q350")])
    answer = Engine(store, RunConfig(llm="none")).ask("Where was Q42 born?")
    assert answer.answers == ["Q350"]
    pic = build_picture(answer)
    assert {(n.id, n.role) for n in pic.nodes} == {("Q42", "entity"), ("Q350", "answer")}
    assert [(e.head, e.relations, e.tail) for e in pic.edges] == [
        ("Q42", ("place_of_birth",), "Q350")]


def test_cli_ask_html(typed_graph, tmp_path):
    page = tmp_path / "answer.html"
    result = CliRunner().invoke(cli, ["ask", "Where was Douglas Adams born?", "--graph",
                                      typed_graph, "--html", str(page), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["answers"] == ["Cambridge"]  # stdout stays pure JSON
    assert f"evidence picture: {page}" in result.stderr
    html = page.read_text(encoding="utf-8")
    assert 'data-node="Q42"' in html and ">Douglas Adams</text>" in html
    assert ">Cambridge</text>" in html and ">place_of_birth</text>" in html
    bad = CliRunner().invoke(cli, ["ask", "Where was Douglas Adams born?", "--graph", typed_graph,
                                   "--html", str(tmp_path / "no" / "a.html")])
    assert bad.exit_code != 0 and "does not exist" in str(bad.exception)
