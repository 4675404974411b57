"""The question's arithmetic (QuestionAnalysis.aggregate) and the shape check and arithmetic
over rows (byokg.plugins.routing.shapes), on made-up typed rows that look like no dataset."""

from __future__ import annotations

import pytest
from byokg.plugins.routing.shapes import compute
from byokg.plugins.routing.shapes import fit
from byokg.plugins.routing.shapes import format_number

from byokg.contracts import QueryResult
from byokg.language.analysis import analyze


@pytest.mark.parametrize(("question", "aggregate", "k", "descending"), [
    ("How many moons does Jupiter have?", "count", None, True),
    ("What is the total weight of the cargo on ship Aurora?", "sum", None, True),
    ("What is the total number of tickets sold for the opera?", "sum", None, True),
    ("What is the average height of the towers in Lyon?", "avg", None, True),
    ("What is the highest elevation of a lake in Peru?", "max", None, True),
    ("What is the lowest score recorded in 1998?", "min", None, False),
    ("Which river is the longest in Europe?", "rank", None, True),
    ("List the top 4 cheapest hotels in Oslo.", "rank", 4, True),
    ("Name the three smallest planets.", "rank", 3, False),
    ("Is the Nile longer than the Amazon?", "compare", None, True),
    ("Which is older, Rome or Athens?", "compare", None, True),
    ("Which is cheaper, tea or coffee?", "compare", None, False),
    ("Which towers are 300 metres or higher?", None, None, True),
    ("What are the top 3 leagues by the average age of their players?", "rank", 3, True),
    ("Who wrote Dune?", None, None, True),
])
def test_aggregate_from_generic_english(question, aggregate, k, descending):
    a = analyze(question)
    assert (a.aggregate, a.top_k) == (aggregate, k)
    if aggregate in ("rank", "compare", "min"):
        assert a.descending is descending


def _res(cols, *rows, truncated=False):
    return QueryResult(columns=tuple(cols), rows=tuple(tuple(r) for r in rows),
                       truncated=truncated)


def test_fit_prefers_the_shape_the_question_asks_for():
    count = analyze("How many moons does Jupiter have?")
    one = _res(["n"], [95])
    rows = _res(["moon"], ["Io"], ["Europa"])
    assert fit(count, one) == 1.0 > fit(count, rows) > 0 == fit(count, _res(["n"]))
    assert fit(count, _res(["moon"], ["Io"], truncated=True)) < 0.5  # the cap cut the rows
    rank = analyze("Which river is the longest?")
    assert fit(rank, _res(["river", "km"], ["Nile", 6650], ["Amazon", 6400])) == 1.0
    assert fit(rank, _res(["km"], [6650])) < 0.5


def test_arithmetic_in_python():
    s = compute(analyze("What is the total weight of the crates?"),
                _res(["crate", "kg"], ["a", 1.5], ["b", 2], ["c", "3.25"]))
    assert s.answers == ["6.75"] and s.value == 6.75 and "Python" in s.how
    avg = compute(analyze("What is the average weight of the crates?"),
                  _res(["kg"], [1], [2], [4]))
    assert avg.answers == ["2.333333333"]
    cnt = compute(analyze("How many crates are there?"), _res(["c"], ["a"], ["b"], ["a"]))
    assert cnt.answers == ["2"]  # distinct rows
    passed = compute(analyze("How many crates are there?"), _res(["n"], [0.1 + 0.2]))
    assert passed.answers == [repr(0.1 + 0.2)]  # one value passes through as the store gave it
    assert compute(analyze("How many crates?"), _res(["c"], ["a"], truncated=True)) is None


def test_top_k_with_ties_and_direction():
    rows = _res(["city", "pop"], ["A", 5], ["B", 9], ["C", 7], ["D", 7], ["E", 1])
    top = compute(analyze("List the top 2 biggest cities."), rows)
    assert top.answers == ["B", "C", "D"]  # C and D tie at the cut
    low = compute(analyze("Which city is the smallest?"), rows)
    assert low.answers == ["E"]
    cmp_ = compute(analyze("Which is bigger, C or E?"), _res(["c", "p"], ["C", 7], ["E", 1]))
    assert cmp_.answers == ["C"]


def test_grouped_values_and_number_format():
    per = compute(analyze("How many crates does each ship carry?"),
                  _res(["ship", "n"], ["Aurora", 3], ["Borealis", 5]))
    assert per.answers == ["Borealis: 5", "Aurora: 3"]
    assert format_number(3.0) == "3" and format_number(2.5) == "2.5"
    assert format_number(1 / 3) == "0.3333333333"


def test_whole_nodes_are_named_by_their_name_property():
    rows = _res(["n", "score"], [{"_label": "Team", "code": "X1", "teamName": "Owls"}, 3],
                [{"_label": "Team", "code": "X2", "teamName": "Larks"}, 5])
    assert compute(analyze("Which team has the highest score?"), rows).answers == ["Larks"]


def test_a_list_question_with_an_aggregate_word_is_not_computed():
    a = analyze("Display the crates heavier than the average crate.")
    assert a.aggregate == "avg"
    rows = _res(["crate", "kg"], ["a", 5], ["b", 7])
    assert compute(a, rows) is None  # a list of crates: the answer stage reads the rows
    assert compute(analyze("What is the average weight of the crates?"), rows).answers == ["6"]


def test_one_id_written_as_text_is_a_weak_count():
    count = analyze("How many orders did the shop take?")
    assert fit(count, _res(["id"], ["10248"])) < fit(count, _res(["n"], [12])) == 1.0


def test_yes_no_comparisons_name_the_subject_first():
    rows = _res(["river", "km"], ["Amazon", 6400], ["Nile", 6650])
    assert compute(analyze("Is the Nile longer than the Amazon?"), rows).answers == ["yes"]
    assert compute(analyze("Is the Amazon longer than the Nile?"), rows).answers == ["no"]
    assert compute(analyze("Is the Amazon shorter than the Nile?"), rows).answers == ["yes"]
    assert compute(analyze("Which is longer, the Nile or the Amazon?"), rows).answers == ["Nile"]
    assert compute(analyze("Is the Nile longer than the Amazon?"),
                   _res(["longer"], [True])).answers == ["yes"]
