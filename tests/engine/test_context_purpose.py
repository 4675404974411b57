"""Context with a purpose: ranked by relevance to the question, the best of every tool kept, query
results never dropped silently, cuts marked in the prompt and the trace, lists showing the most
relevant items, answers checked against the context."""

from __future__ import annotations

import random

from byokg.backends.memory import MemoryGraph

from byokg.config import RunConfig
from byokg.contracts import ContextItem
from byokg.contracts import Path
from byokg.contracts import QueryResult
from byokg.contracts import Triplet
from byokg.graph.verbalize import verbalize_triplets
from byokg.language.analysis import analyze
from byokg.models.services import Services
from byokg.models.similarity import Similarity
from byokg.pipeline.context import Context
from byokg.pipeline.context import Relevance
from byokg.pipeline.context import supported_answers
from byokg.pipeline.context import tail_ranker


def _fact(h, r, t, tool="one-hop", score=None):
    return ContextItem(text=f"{h} -> {r} -> {t}", tool=tool, score=score,
                       triplets=(Triplet(head=h, relation=r, tail=t),))


def _query(n_rows: int, tool: str = "cypher") -> ContextItem:
    rows = tuple((f"Product {i}", i) for i in range(n_rows))
    table = "\n".join(["| name | n |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows),
                       f"({n_rows} rows)"])
    return ContextItem(text=f"Query: MATCH (p:Product) RETURN p.name, p.n\n{table}", tool=tool,
                       kind="query", query="MATCH (p:Product) RETURN p.name, p.n",
                       rows=QueryResult(columns=("name", "n"), rows=rows, sort_columns=()))


def test_ranked_by_relevance_to_the_question_whatever_the_order_they_came_in():
    a = analyze("Where was Wynton Marsalis born?")
    items = [_fact("Wynton Marsalis", "instrument", "trumpet"),
             _fact("Wynton Marsalis", "born_in", "New Orleans"),
             _fact("Wynton Marsalis", "signed_to", "Columbia Records"),
             _fact("Wynton Marsalis", "sibling", "Branford Marsalis")]
    orders = []
    for seed in range(4):
        shuffled = list(items)
        random.Random(seed).shuffle(shuffled)
        c = Context(1000, Relevance(Similarity(a)))
        c.add(shuffled)
        orders.append([i.text for i in c.select()])
        assert c.render() == "\n".join(orders[-1])
    assert all(o == orders[0] for o in orders)
    assert orders[0][0] == "Wynton Marsalis -> born_in -> New Orleans"


def test_the_best_of_every_tool_is_kept_and_cuts_are_marked():
    a = analyze("Where was Wynton Marsalis born?")
    c = Context(40, Relevance(Similarity(a)))
    c.add([_fact("Wynton Marsalis", "born_in", f"Place {i}", tool="one-hop") for i in range(12)])
    c.add([_fact("Wynton Marsalis", "instrument", "trumpet", tool="agentic")])
    sel = c.select()
    assert {i.tool for i in sel} == {"one-hop", "agentic"}  # the weaker tool still has its best
    note = sel.note
    assert note is not None and note.kind == "note"
    assert "left out for the token budget (one-hop" in note.text
    assert note.metadata["cut_items"]["one-hop"] == 12 + 1 - len(sel)
    assert sel.cut is not None and sel.cut.items == {"one-hop": 12 + 1 - len(sel)}
    assert c.render().splitlines()[-1] == note.text
    assert c.select().cut == sel.cut  # selecting has no side effect: the same cut again


def test_a_query_result_is_never_dropped_its_rows_are_cut_with_a_mark():
    a = analyze("Which products are there?")
    c = Context(120, Relevance(Similarity(a)))
    c.add([_fact("X", "rel", f"Y{i}") for i in range(30)])
    c.add([_query(60)])
    sel = c.select()
    q = [i for i in sel if i.kind == "query"]
    assert len(q) == 1
    assert q[0].metadata["rows_cut"] > 0
    assert q[0].text.splitlines()[-1].startswith(f"[{q[0].metadata['rows_cut']} more row(s)")
    assert q[0].text.startswith("Query: MATCH (p:Product)")
    assert "query row(s) left out (cypher" in sel.note.text
    # a result that fits is passed whole
    small = Context(4000, Relevance(Similarity(a)))
    small.add([_query(3)])
    got = small.select()
    assert got.items[0].text == _query(3).text and got.note is None and got.cut is None


def test_engine_records_cuts_in_the_trace(demo_store):
    from byokg.pipeline.engine import Engine

    a = Engine(demo_store, RunConfig(context_tokens=100, iterations=1)).ask(
        "Who was born in New Orleans?")
    ev = [e for e in a.trace.events if e.source == "context"]
    assert ev and "left out for the token budget" in ev[-1].message
    assert sum(v for k, v in a.trace.counts.items() if k.startswith("context_cut.")) > 0


def test_relevance_uses_the_configured_models():
    a = analyze("Where was Wynton Marsalis born?")
    rerank = RunConfig(embedder="lexical", reranker="cosine",
                       reranker_options={"embedder": "lexical"})
    assert Relevance(Similarity(a)).how == "lexical"
    assert Relevance(Similarity(a, Services(RunConfig(embedder="lexical")))).how == "embedder"
    assert Relevance(Similarity(a, Services(rerank))).how == "reranker"
    items = [_fact("Wynton Marsalis", "born_in", "New Orleans"),
             _fact("Kingston", "capital_of", "Jamaica")]
    for services in (Services(RunConfig(embedder="lexical")), Services(rerank)):
        s = Relevance(Similarity(a, services))(items)
        assert all(0.0 <= x <= 1.0 for x in s) and s[0] > s[1]


def test_lists_show_the_tails_most_relevant_to_the_question():
    heads = [("Office of Governor", "held_by", f"Person {i:02d}") for i in range(14)]
    heads.append(("Office of Governor", "held_by", "Rick Perry"))
    store = MemoryGraph.from_triplets(heads)
    trips = [Triplet(head=h, relation=r, tail=t) for h, r, t in heads]
    plain = verbalize_triplets(store, trips, max_tokens=500, max_tails=5)
    assert "Rick Perry" not in plain.text and "(+10 more)" in plain.text
    rank = tail_ranker(analyze("Was Rick Perry governor?"), answer_ids=())
    ranked = verbalize_triplets(store, trips, max_tokens=500, max_tails=5, tail_rank=rank)
    assert ranked.text.split(" -> ")[2].startswith("Rick Perry") and "(+10 more)" in ranked.text
    drafts = tail_ranker(analyze("Who held the office?"), answer_ids=["Person 13"])
    shown = verbalize_triplets(store, trips, max_tokens=500, max_tails=5, tail_rank=drafts)
    assert shown.text.split(" -> ")[2].startswith("Person 13")
    # ties are broken by name, so the store's order never shows
    again = verbalize_triplets(store, list(reversed(trips)), max_tokens=500, max_tails=5)
    assert again.text == plain.text


def test_supported_answers_are_names_ids_or_cells_of_the_context():
    store = MemoryGraph.from_triplets([("Wynton Marsalis", "born_in", "New Orleans"),
                                 ("Wynton Marsalis", "educated_at", "Juilliard School")])
    items = [ContextItem(text="x", tool="follow-paths", kind="path",
                         path=Path(nodes=("Wynton Marsalis", "New Orleans"), relations=("born_in",))),
             _query(2)]
    got = supported_answers(["new orleans", "Product 1", "Paris", "Juilliard"], items, store)
    assert got.answers == ["New Orleans", "Product 1"]
    assert got.answer_ids == {"New Orleans": ["New Orleans"]}  # a cell has no node id
    assert got.unsupported == ["Paris", "Juilliard"]  # not in the items; no partial matches


def _table_item(query: str, rows: list[tuple]) -> ContextItem:
    """A query result as the executor makes it: the sort keys read from the query by the guard's
    parser, the text rendered from the rows."""
    from byokg.cypher.execute import query_text
    from byokg.cypher.execute import sort_columns
    from byokg.cypher.guard import check_query

    cols = ("name", "n")
    result = QueryResult(columns=cols, rows=tuple(rows),
                         sort_columns=sort_columns(check_query(query).order_by, cols))
    return ContextItem(text=query_text(query, result), tool="cypher", kind="query",
                       query=query, rows=result)


def test_rows_a_store_may_return_in_any_order_get_a_fixed_order():
    from byokg.pipeline.context import stable_rows

    rows = [("Seafood", 12), ("Confections", 13), ("Beverages", 12)]
    unordered = [stable_rows(_table_item("MATCH (c) RETURN c.name AS name, c.n AS n", r))
                 for r in (rows, rows[::-1])]
    assert unordered[0].text == unordered[1].text and unordered[0].rows == unordered[1].rows
    assert [r[0] for r in unordered[0].rows.rows] == ["Beverages", "Confections", "Seafood"]
    # with ORDER BY the order is the query's; only rows that tie on its keys are sorted
    q = "MATCH (c) RETURN c.name AS name, c.n AS n ORDER BY n DESC"
    ordered = [("Confections", 13), ("Seafood", 12), ("Beverages", 12)]
    got = stable_rows(_table_item(q, ordered))
    assert [r[0] for r in got.rows.rows] == ["Confections", "Beverages", "Seafood"]
    assert got.text.splitlines()[3:6] == ["| Confections | 13 |", "| Beverages | 12 |",
                                          "| Seafood | 12 |"]
    # a key that is not a returned column: ties cannot be told apart, nothing moves
    odd = _table_item("MATCH (c) RETURN c.name AS name, c.n AS n ORDER BY toFloat(c.x)", ordered)
    assert stable_rows(odd) is odd
