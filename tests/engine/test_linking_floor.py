"""The engine's Linker stage with the confidence floor: what linking drops is in the trace, a
number in the question never becomes a node id, and nothing is retrieved from dropped nodes."""

from __future__ import annotations

import pytest

from byokg import graph_from_triplets
from byokg.config import RunConfig
from byokg.pipeline.engine import Engine

# a capital, two look-alikes of China, and a literal stored as a node (its id is 1918)
TRIPLETS = [("China", "capital", "Beijing"), ("China Daily", "published_in", "Beijing"),
            ("Tiger Hotel", "located_in", "Beijing"), ("Ada Example", "born_in_year", "1918"),
            ("Bo Example", "born_in_year", "1918")]


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
    assert links["Overlook Hotel"].ids == [] and links["1918"].ids == []
    assert links["China"].ids == ["China"]
    low = next(e for e in a.trace.events if "below the confidence floor" in e.message)
    assert "Overlook Hotel" in low.data["dropped"] and "China" in low.data["dropped"]
    nums = next(e for e in a.trace.events if "number/date mention" in e.message)
    assert nums.data["mentions"] == ["1918"]
    assert a.trace.counts["linker.literal_mentions"] == 1
    # nothing was retrieved from the literal node or the look-alikes
    assert not any(n in ("1918", "Tiger Hotel", "China Daily") for it in a.context
                   for t in it.triplets for n in (t.head,))


def test_offline_spotting_of_a_number_is_not_a_node(store):
    a = Engine(store, RunConfig(iterations=1)).ask("Who was born in 1918?")
    assert all("1918" not in m.ids for ms in a.trace.links for m in ms)
    assert any("number/date mention" in e.message for e in a.trace.events)
