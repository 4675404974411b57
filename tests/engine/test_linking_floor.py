"""The engine's Linker stage with the confidence floor: what linking drops is in the trace, a
number in the question never becomes a node id that merely holds it (the literal stored as a
node is the value itself), and nothing is retrieved from dropped nodes."""

from __future__ import annotations

import pytest

from byokg import graph_from_triplets
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine

# a capital, two look-alikes of China, a literal stored as a node (its id is 1918) and a node
# whose id holds a number (Order:1918)
TRIPLETS = [("China", "capital", "Beijing"), ("China Daily", "published_in", "Beijing"),
            ("Tiger Hotel", "located_in", "Beijing"), ("Ada Example", "born_in_year", "1918"),
            ("Bo Example", "born_in_year", "1918"), ("Order:1918", "ships_to", "Beijing")]


@pytest.fixture(scope="module")
def store():
    return graph_from_triplets(TRIPLETS, uri="memory:floor-engine-test")


def test_the_engine_records_what_linking_dropped(script_llm, store):
    reply = ("<entities>\nOverlook Hotel\nChina\n1918\n</entities>\n<relation-paths>\ncapital\n"
             "</relation-paths>\n<answers>\n</answers>")

    def script(prompt, n):
        return "<answers>\nBeijing\n</answers>" if prompt.startswith("Answer the") else reply

    script_llm.scripts["floor"] = script
    a = Engine(store, RunConfig(llm="script:floor", iterations=1, tools=["one-hop"])).ask(
        "What is the capital of China, seen from the Overlook Hotel in 1918?")
    links = {m.mention: m for m in a.trace.links[0]}
    assert links["Overlook Hotel"].ids == [] and links["1918"].ids == ["1918"]
    assert links["China"].ids == ["China"]
    low = next(e for e in a.trace.events if "below the confidence floor" in e.message)
    assert "Overlook Hotel" in low.data["dropped"] and "China" in low.data["dropped"]
    # nothing was retrieved from the look-alikes or from the id that holds the number
    assert not any(n in ("Tiger Hotel", "China Daily", "Order:1918") for it in a.context
                   for t in it.triplets for n in (t.head,))


def test_a_number_links_the_literal_stored_as_a_node_never_an_id_holding_it(store):
    """"Who was born in 1918?" over triples: the tail ``1918`` is the year itself, the only way
    to who was born then; ``Order:1918`` is an order, whatever its id says."""
    a = Engine(store, RunConfig(iterations=1)).ask("Who was born in 1918?")
    linked = {i for ms in a.trace.links for m in ms for i in m.ids}
    assert "1918" in linked and "Order:1918" not in linked
    assert sorted(a.answers) == ["Ada Example", "Bo Example"]


def test_a_short_number_spots_its_literal_node_not_a_quantity():
    """Numbers under four digits are values too: over triples whose tails are "7" or "28"
    ("number *7*", "*28* years old") the literal node is spotted and answered from; after a
    quantity word ("the top *5*", "more than *3*") a number is never a node."""
    clubs, countries = ("Aldo FC", "Brava United", "Cosmo City"), ("Brazil", "Ghana", "Chile")
    triples, by = [], {}
    for i in range(30):
        p = f"player_{chr(97 + i % 26)}{i}"
        facts = {"plays_in_club": clubs[i % 3], "plays_for_country": countries[(i // 3) % 3],
                 "wears_number": str(1 + i % 11), "is_aged": str(20 + i % 7)}
        by[p] = facts
        triples += [(p, r, t) for r, t in facts.items()]
    store = graph_from_triplets(triples, uri="memory:numbers-as-nodes")
    eng = Engine(store, RunConfig(iterations=1))

    def gold(**want):
        return sorted(p for p, f in by.items() if all(f[k] == v for k, v in want.items()))

    a = eng.ask("Which players wear number 7?")
    assert sorted(a.answers) == gold(wears_number="7")
    a = eng.ask("Who is 22 years old and plays for Ghana?")
    assert sorted(a.answers) == gold(is_aged="22", plays_for_country="Ghana")
    for q in ("Who are the top 5 players of Brazil?", "Which players are older than 5?"):
        linked = {i for ms in eng.ask(q).trace.links for m in ms for i in m.ids}
        assert "5" not in linked, q
