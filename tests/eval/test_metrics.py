"""Metrics against hand-computed cases."""

from __future__ import annotations

import math

import pytest

from byokg.eval import metrics as M


def test_normalize_answer():
    assert M.normalize_answer("  The Beatles! ") == "beatles"
    assert M.normalize_answer("Beyoncé Knowles") == "beyonce knowles"
    assert M.normalize_answer("A") == "a"  # a one-letter answer survives article stripping
    assert M.normalize_answer(3.0) == "3"
    assert M.normalize_answer(2.5) == "2.5"


def test_hit_is_lenient_hit_at_1_uses_first():
    assert M.hit(["Paris", "New Orleans, Louisiana"], ["New Orleans"]) == 1.0
    assert M.hit_at_1(["Paris", "New Orleans"], ["New Orleans"]) == 0.0
    assert M.hit_at_1(["new orleans"], ["New Orleans"]) == 1.0
    # whole words only: "Orleans" must not match inside "Orleanses"
    assert M.hit(["Orleanses"], ["Orleans"]) == 0.0
    assert M.hit([], ["x"]) == 0.0


def test_exact_hit_does_not_take_a_name_inside_another():
    assert M.hit(["Kansas City"], ["Kansas"]) == 1.0  # lenient: whole words inside
    assert M.hit(["Kansas City"], ["Kansas"], lenient=False) == 0.0
    assert M.hit(["kansas", "Kansas City"], ["Kansas"], lenient=False) == 1.0  # normalised
    assert M.hit_at_1(["Kansas City", "Kansas"], ["Kansas"], lenient=False) == 0.0
    assert M.hit_at_1(["The Kansas"], [["Kansas", "KS"]], lenient=False) == 1.0  # articles
    assert M.hit_at_1(["KS"], [["Kansas", "KS"]], lenient=False) == 1.0  # an alias


def test_aliases_count_as_gold():
    gold = [["United States of America", "USA", "United States"]]
    assert M.hit(["USA"], gold) == 1.0
    assert M.exact_match(["usa"], gold) == 1.0


def test_exact_match_and_f1_hand_computed():
    assert M.exact_match(["x", "y"], ["y", "x"]) == 1.0
    assert M.exact_match(["x"], ["x", "y"]) == 0.0
    assert M.exact_match(["x", "z"], ["x"]) == 0.0
    # P = 1/2, R = 1/1 -> F1 = 2/3
    assert M.f1(["x", "z"], ["x"]) == pytest.approx(2 / 3)
    # P = 2/3, R = 2/4 -> F1 = 4/7
    assert M.f1(["a1", "a2", "zz"], ["a1", "a2", "a3", "a4"]) == pytest.approx(4 / 7)
    assert M.f1([], ["x"]) == 0.0


def test_recall_at_k():
    ctx = ["Louis Armstrong -> born_in -> New Orleans", "Paris -> capital_of -> France"]
    assert M.recall_at_k(ctx, ["New Orleans", "France"], 1) == 0.5
    assert M.recall_at_k(ctx, ["New Orleans", "France"], 2) == 1.0
    assert M.recall_at_k(ctx, ["Berlin"], 2) == 0.0


def test_execution_accuracy_column_order_and_partial():
    gold = [["Chai", 18.0], ["Chang", 19]]
    assert M.execution_accuracy([[18, "chai"], [19.0, "Chang"]], gold).exact == 1.0
    half = M.execution_accuracy([["Chai", 18]], gold)
    assert half.exact == 0.0
    # P = 1/1, R = 1/2 -> 2/3
    assert half.partial == pytest.approx(2 / 3)
    # extra columns still cover the gold row (partial credit, not exact)
    extra = M.execution_accuracy([["Chai", 18, "Beverages"], ["Chang", 19, "Beverages"]], gold)
    assert extra.exact == 0.0 and extra.partial == 1.0
    assert M.execution_accuracy([], gold).partial == 0.0
    assert M.execution_accuracy([], []).exact == 1.0


def test_bootstrap_ci_is_deterministic_and_brackets_the_mean():
    vals = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1]
    a = M.bootstrap_ci(vals, seed=3)
    b = M.bootstrap_ci(vals, seed=3)
    assert a == b
    assert a.mean == pytest.approx(0.7)
    assert a.ci_low <= a.mean <= a.ci_high
    assert 0.3 <= a.ci_low < 0.7 < a.ci_high <= 1.0
    assert math.isnan(M.bootstrap_ci([]).mean)


def test_execution_accuracy_against_truncated_gold():
    gold = [["a"], ["b"]]  # the first 2 rows of a longer gold result
    full = M.execution_accuracy([["a"], ["b"], ["c"]], gold, gold_truncated=True)
    assert full.exact == 1.0 and full.partial == 1.0
    half = M.execution_accuracy([["a"], ["c"]], gold, gold_truncated=True)
    assert half.exact == 0.0 and half.partial == 0.5
    # without the flag the extra row is an error
    assert M.execution_accuracy([["a"], ["b"], ["c"]], gold).exact == 0.0


def test_node_cells_ignore_backend_metadata_keys():
    gold = [[{"productName": "Chai", "unitPrice": 18.0}]]
    pred = [[{"_label": "Product", "_id": "0:1", "productName": "Chai", "unitPrice": 18}]]
    assert M.execution_accuracy(pred, gold).exact == 1.0


def test_ignored_node_keys():
    gold = [[{"productName": "Chai"}]]
    pred = [[{"productName": "Chai", "id": "Product:1"}]]
    assert M.execution_accuracy(pred, gold).exact == 0.0
    assert M.execution_accuracy(pred, gold, ignore_node_keys=["id"]).exact == 1.0


def test_limit_detection_ignores_strings_and_comments():
    from byokg.eval.datasets import _has_limit

    assert _has_limit("MATCH (n) RETURN n LIMIT 3")
    assert _has_limit("MATCH (n) RETURN n limit 3")
    assert not _has_limit("MATCH (n {name: 'no limit'}) RETURN n // LIMIT 3")
