"""KG-Linker templates, prompt rendering and the never-crashing parser."""

from __future__ import annotations

import pytest
from byokg.plugins.kglinker.prompt import answer_prompt
from byokg.plugins.kglinker.prompt import fill
from byokg.plugins.kglinker.prompt import iterative_prompt
from byokg.plugins.kglinker.prompt import linker_prompt
from byokg.plugins.kglinker.prompt import load_template
from byokg.plugins.kglinker.prompt import parse_reply
from byokg.plugins.kglinker.prompt import render_schema_for
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from byokg.contracts import Artifacts
from byokg.contracts import GraphSchema
from byokg.contracts import RelationPattern
from byokg.contracts import RelationType
from byokg.errors import ConfigError
from byokg.language.analysis import analyze
from byokg.language.analysis import lexical_relation_scores
from byokg.models.base import prompt_checksum
from byokg.models.replies import MAX_ITEMS
from byokg.models.replies import MAX_REPLY_CHARS
from byokg.models.similarity import Similarity


def test_templates_keep_their_line_structure():
    from importlib import resources

    for name in ("kg_linker", "kg_linker_iterative", "answer", "cypher_task", "cypher_format"):
        raw = resources.files("byokg.prompts").joinpath(f"{name}.v1.txt").read_bytes().decode()
        text = load_template(name)
        assert text == raw
        assert text.count("\n") == raw.count("\n") > 3 or name == "cypher_format"
    # the output format block is on separate lines, not glued together
    lines = load_template("kg_linker").splitlines()
    assert "<entities>" in lines and "</entities>" in lines and "<relation-paths>" in lines


def test_fill_requires_every_placeholder():
    assert fill("a {{x}} b", x=1) == "a 1 b"
    with pytest.raises(ConfigError, match="x"):
        fill("a {{x}}")
    # schema text with braces is inserted verbatim, not re-formatted
    assert fill("{{s}}", s="(:A {name: {{y}}})") == "(:A {name: {{y}}})"


def test_cypher_section_only_with_capability():
    without = linker_prompt("Who?", "schema here")
    with_c = linker_prompt("Who?", "schema here", cypher=True, dialect="kuzu")
    assert "<cypher>" not in without.text and "openCypher" not in without.text
    assert "<cypher>" in with_c.text and "openCypher" in with_c.text
    assert "Task 4 - Draft answers" in with_c.text and "Task 3 - Draft answers" in without.text
    assert with_c.checksum == prompt_checksum(with_c.text) != without.checksum
    assert "{{" not in with_c.text and "{{" not in without.text


def test_iterative_prompt_carries_context_and_finish():
    p = iterative_prompt("Q?", "schema", "Wynton Marsalis -[born_in]-> New Orleans", round_no=2, rounds=2)
    assert "Wynton Marsalis -[born_in]-> New Orleans" in p.text and "FINISH" in p.text
    assert "Round 2 of 2" in p.text
    a = answer_prompt("Q?", "fact one")
    assert "fact one" in a.text and "<answers>" in a.text


def test_schema_pruned_by_question_relevance():
    rels = [RelationType(name=f"filler.rel_{i}", patterns=(RelationPattern(src="A", dst="B"),))
            for i in range(500)]
    rels.insert(250, RelationType(name="people.person.place_of_birth",
                                  patterns=(RelationPattern(src="Person", dst="City"),)))
    schema = GraphSchema(relation_types=tuple(rels))
    text = render_schema_for(schema, Similarity(analyze("Where was Wynton Marsalis born?")), max_tokens=300)
    lines = text.splitlines()
    rel_lines = [line for line in lines if "-[:" in line]
    assert "place_of_birth" in rel_lines[0]  # most relevant first
    assert len(rel_lines) < 100 and "more relationship types omitted" in lines[-1]


def test_first_prompt_for_tiny_freebase_under_8000_chars(freebase_store):
    q = "What genre of film is associated with the place where Wynton Marsalis was born?"
    schema_text = render_schema_for(freebase_store.schema(samples=1), Similarity(analyze(q)))
    p = linker_prompt(q, schema_text)
    assert p.chars < 8000, p.chars
    assert "people.person.place_of_birth" in schema_text


def test_lexical_relation_scores_rank_the_right_relation():
    s = lexical_relation_scores("Who directed Paris, Texas?", ["directed_by", "born_in", "genre"])
    assert s["directed_by"] > s["born_in"] and s["directed_by"] > s["genre"]


# --------------------------------------------------------------------------- parser

GOOD = """<entities>
Wynton Marsalis
</entities>
<relation-paths>
born_in -> located_in
born_in
</relation-paths>
<cypher>
MATCH (p {name: $n})-[:born_in]->(c) RETURN c.name LIMIT 5
</cypher>
<answers>
New Orleans
</answers>"""


def test_parse_well_formed_reply():
    a = parse_reply(GOOD)
    assert a.entities == ("Wynton Marsalis",)
    assert [str(p) for p in a.relation_paths] == ["born_in -> located_in", "born_in"]
    assert len(a.cypher) == 1 and a.cypher[0].startswith("MATCH")
    assert a.draft_answers == ("New Orleans",) and not a.finish and a.warnings == ()


def test_parse_missing_closing_tags_fences_and_junk():
    reply = (
        "<|im_start|>assistant\nHere you go:\n<entities>\n- Wynton Marsalis\n2. \"New Orleans\"\n"
        "<paths>\nborn_in → located_in\n</paths>\n<opencypher>\n```cypher\nMATCH (a) RETURN a LIMIT 1;\n"
        "MATCH (b) RETURN b LIMIT 2\n```\n</opencypher>\n<answers>\nJazz\n<|im_end|>"
    )
    a = parse_reply(reply)
    assert a.entities == ("Wynton Marsalis", "New Orleans")
    assert [p.relations for p in a.relation_paths] == [("born_in", "located_in")]
    assert a.cypher == ("MATCH (a) RETURN a LIMIT 1", "MATCH (b) RETURN b LIMIT 2")
    assert a.draft_answers == ("Jazz",)
    text = " ".join(a.warnings)
    assert "chat-template" in text and "<entities> is not closed" in text and "<answers> is not closed" in text


def test_parse_extra_unknown_and_empty_sections():
    a = parse_reply("<thinking>hmm</thinking><entities></entities><answers>\nnone\n</answers><foo>")
    assert a.entities == () and a.draft_answers == ()
    w = " ".join(a.warnings)
    assert "unknown tag <thinking>" in w and "unknown tag <foo>" in w
    assert "empty" not in w  # the prompts allow an empty section: no warning


def test_parse_answer_total_and_no_cut_at_thirty():
    names = [f"Laureate {i}" for i in range(40)]
    a = parse_reply("FINISH\n<answers>\n" + "\n".join(names) + "\nTOTAL: 61\n</answers>")
    assert a.draft_answers == tuple(names) and a.answers_total == 61 and not a.warnings
    assert parse_reply("<answers>\nx\n</answers>").answers_total is None


def test_parse_finish():
    a = parse_reply("FINISH\n<answers>\nNew Orleans\n</answers>")
    assert a.finish and a.draft_answers == ("New Orleans",)
    assert parse_reply("<answers>FINISH</answers>").finish
    assert not parse_reply("<entities>\nFinishing School\n</entities>").finish


def test_parse_no_tags_is_recorded():
    a = parse_reply("I think the answer is New Orleans.")
    assert a == Artifacts(warnings=a.warnings) and "no recognised tags" in a.warnings[0]
    assert "empty reply" in parse_reply("").warnings[0]
    assert parse_reply(None).warnings and parse_reply(12345).warnings


def test_parse_enormous_reply_is_bounded():
    reply = "<entities>\n" + "\n".join(f"entity {i}" for i in range(100_000)) + "\n</entities>"
    a = parse_reply(reply)
    assert len(a.entities) == MAX_ITEMS
    assert any("cut to" in w for w in a.warnings) and any("kept the first" in w for w in a.warnings)
    assert len(reply) > MAX_REPLY_CHARS


def test_parse_several_tags_merged():
    a = parse_reply("<entities>A</entities> text <entities>B</entities><cypher>MATCH (x) RETURN x</cypher>"
                    "<cypher>MATCH (y) RETURN y</cypher>")
    assert a.entities == ("A", "B") and len(a.cypher) == 2
    assert any("appears 2 times" in w for w in a.warnings)


_TAGS = ["<entities>", "</entities>", "<relation-paths>", "</relation-paths>", "<cypher>",
         "</cypher>", "<answers>", "</answers>", "<|im_end|>", "```", "FINISH", "->", "\n", "<", ">"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(_TAGS), st.text(max_size=30)), max_size=40))
def test_parser_never_raises_on_junk(parts):
    a = parse_reply("".join(parts))
    assert isinstance(a, Artifacts)
    for p in a.relation_paths:
        assert p.relations and all(r.strip() for r in p.relations)
    assert len(a.entities) <= MAX_ITEMS and len(a.draft_answers) <= MAX_ITEMS


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400))
def test_parser_never_raises_on_binary(data):
    assert isinstance(parse_reply(data.decode("utf-8", "replace")), Artifacts)


def test_relation_scores_blend_a_configured_embedder():
    import numpy as np

    from byokg.config import RunConfig
    from byokg.models.services import Services

    class Emb:
        name, dim = "fake", 2
        calls = 0

        def encode(self, texts, *, batch_size=256):
            Emb.calls += 1
            # "spouse" points where the question points; everything else is orthogonal
            return np.array([[1.0, 0.0] if ("spouse" in t or "wed" in t) else [0.0, 1.0] for t in texts],
                            dtype=np.float32)

    q, rels = "Who did Frank Sinatra wed?", ["people.person.spouse_s", "film.film.genre"]
    lexical = Similarity(analyze(q)).relation_scores(rels)
    svc = Services(RunConfig(embedder="fake"), embedder=Emb())
    sim = Similarity(analyze(q), svc)
    blended = sim.relation_scores(rels)
    # "wed" shares no word with "spouse": only the embedder lifts it
    assert blended["people.person.spouse_s"] > lexical["people.person.spouse_s"]
    assert blended["people.person.spouse_s"] > blended["film.film.genre"]
    assert Emb.calls == 2  # the relations once, the question once
    assert sim.relation_scores(rels) == blended and Emb.calls == 2  # memoised per question
    Similarity(analyze(q), svc).relation_scores(rels)
    assert Emb.calls == 2  # relation and question vectors are cached per embedder
