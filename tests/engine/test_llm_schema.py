"""The schema the LLM sees (issue 25, point 1), on graphs written by the tests: the typed
festival graph in Kùzu (names in ``stageName`` / ``Known As``, relationship properties, dates as
DATE and as text, headers with spaces and brackets) and Northwind in Kùzu.

Cardinality and coverage are counted in the data, dates say how they are stored, examples come
from one node, the labels the question touches show every property, and the repair prompt shows
the KG-Linker's schema."""

from __future__ import annotations

import re

import pytest
from byokg.plugins.kglinker.prompt import render_schema_for

from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import typed_plans
from byokg.config import RunConfig
from byokg.graph.profile import date_format
from byokg.graph.profile import profile_graph
from byokg.language.analysis import analyze
from byokg.models.similarity import Similarity
from byokg.pipeline.engine import Engine


def test_cardinality_and_coverage_are_counted_in_the_data(festival_store):
    store = festival_store("spaced")
    prof = profile_graph(store, refresh=True, cache_dir=None)
    played = prof.relation("PLAYED")
    # the five repeat performances are the last edges: a sample of the first 200 misses them
    assert played.count == 245 > 200
    assert played.cardinality == "many-to-many"
    assert played.heads == {"Performer": 240} and played.tails == {"Event": 30}
    part_of = prof.relation("PART_OF")  # a third of the places lie in an area
    assert part_of.heads == {"Place": 8} and prof.label("Place").count == 24
    assert prof.relation("TOOK_PLACE_IN").cardinality == "many-to-one"


def test_date_formats_of_text_dates():
    assert date_format(["1997-01-01 00:00:00.000", "1998-12-31 23:59:59.999"]) == \
        "YYYY-MM-DD hh:mm:ss.SSS"
    assert date_format(["2016/05/06", "2017/10/13"]) == "YYYY/MM/DD"
    assert date_format(["13/05/2016", "01/10/2017"]) == "DD/MM/YYYY"
    assert date_format(["05/13/2016", "10/01/2017"]) == "MM/DD/YYYY"
    assert date_format(["Ashgrove", "2016/05/06"]) is None
    assert date_format(["12", "13"]) is None


def _label_line(text: str, label: str) -> str:
    return next(ln for ln in text.splitlines() if ln.startswith(f"(:{label} "))


def test_the_schema_of_a_question(festivals, festival_store):
    store = festival_store("spaced")
    prof = profile_graph(store)
    q = "Which events in Ashgrove started after June 1, 2014?"
    text = render_schema_for(prof, Similarity(analyze(q)))
    event = _label_line(text, "Event")
    for p in ("Event Ref", "Event Title", "Start Date", "Head Count"):
        assert f"`{p}`: " in event  # names that are not identifiers as a query writes them
    assert "more properties" not in event
    # how the text dates are stored and how to compare them
    assert "`Start Date`: STRING (dates as text 'YYYY/MM/DD')" in event
    assert "Dates as text 'YYYY/MM/DD' compare as text in that format: after 1 January 1997 " \
           "is > '1997/01/01'" in text
    assert "`Birth Date`: DATE date(" in text and "DATE properties compare with date(" in text
    # the examples of a label come from one node
    title = re.search(r"`Event Title`: STRING '([^']+)'", event).group(1)
    fest = next(f for f in festivals["spaced"].data.festivals if f["fest_name"] == title)
    assert f"'{fest['fest_id']}'" in event and f"INTEGER {fest['capacity']}" in event
    assert f"'{fest['starts'].strftime('%Y/%m/%d')}'" in event
    # relationship properties, cardinality and coverage from the data
    assert "[:PLAYED {Billing: STRING" in text and "`Length (min)`: INTEGER" in text
    assert "many-to-many, 245 edges; every Performer has one" in text
    assert "many-to-one, 8 edges; 8 of 24 Place have one" in text
    assert "10 of 24 Place have one pointing in" in text  # festivals use 10 towns


def test_a_small_budget_summarises_untouched_labels_and_says_so(festival_store):
    prof = profile_graph(festival_store("camel"))
    q = "Which festivals had the largest capacity?"
    text = render_schema_for(prof, Similarity(analyze(q)), max_chars=900)
    assert len(text) <= 900
    festival = _label_line(text, "Festival")  # touched: every property
    assert all(f"{p}: " in festival for p in ("title", "festivalCode", "capacity", "startsAt"))
    assert "more properties" not in festival
    assert "more properties" in text or "more labels not shown" in text
    assert re.search(r"// \d+ more (relationship types omitted|labels not shown)", text)


def test_northwind_orders_show_every_property_and_repair_shows_the_same(northwind_kuzu):
    """The issue's Order line ended "… 2 more" (shippedDate, shipVia): now every property; and
    the repair prompt shows the schema the KG-Linker saw, byte for byte."""
    q = "Which orders shipped via shipper 3 were shipped after 1998-01-01?"
    good = ("MATCH (o:`Order`) WHERE o.shipVia = '3' AND o.shippedDate >= "
            "'1998-01-02 00:00:00.000' RETURN o.orderID")
    plans = typed_plans([type("Q", (), {"question": q, "cypher": good,
                                         "answers": ["10808"]})()])
    prompts: list[tuple[str, str | None]] = []
    with ScriptedServer(plans, noisy=True) as srv:  # a misspelt label first: a repair call
        real = srv.reader.reply

        def spy(prompt: str, system: str | None = None) -> str:
            prompts.append((prompt, system))
            return real(prompt, system)

        srv.reader.reply = spy
        eng = Engine(northwind_kuzu, RunConfig(llm="openai:scripted", tools=["cypher"],
                                               llm_options=srv.llm_options()))
        a = eng.ask(q)
    linker = next(p for p, s in prompts if "You are KG-Linker" in p)
    schema = linker.split("Graph schema:\n", 1)[1].split("\nNames on this graph", 1)[0]
    order = _label_line(schema, "Order")
    assert "shippedDate: STRING (dates as text 'YYYY-MM-DD hh:mm:ss.SSS')" in order
    assert "shipVia: " in order and "more properties" not in order
    repair = next(p for p, s in prompts if s and "repair" in s.lower())
    assert "Schema:\n" + schema in repair
    assert len(repair) <= 8000 and len(linker) <= 8000
    assert [c.purpose for c in a.trace.llm_calls] == ["kg-linker", "cypher-repair"]


@pytest.mark.parametrize("style", ["camel", "spaced"])
def test_first_prompt_fits_and_names_every_label(festival_store, style):
    from byokg.plugins.kglinker.prompt import fit_prompt
    from byokg.plugins.kglinker.prompt import kg_linker_prompt

    store = festival_store(style)
    prof = profile_graph(store)
    q = "Who headlined Meadow Fest 2016?"
    sim = Similarity(analyze(q))
    p = fit_prompt(lambda s, c: kg_linker_prompt(q, s, cypher=True, dialect="kuzu",
                                                 store=store, profile=prof),
                   lambda chars: render_schema_for(prof, sim, max_chars=chars), max_chars=8000)
    assert p.chars <= 8000
    assert all(f"(:{lab.name} " in p.text for lab in prof.labels)
