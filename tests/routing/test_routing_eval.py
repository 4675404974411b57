"""The routing and critic presets through the eval harness on Northwind (Kùzu) with the scripted
reader (noisy: a misspelt copy of each query first): the report says whether the critic was on,
the per-question routing metrics are in the summary, and routing costs fewer calls."""

from __future__ import annotations

import pytest

from benchmarks.scripted_llm import ScriptedServer
from benchmarks.scripted_llm import northwind_plans
from byokg.config import RunConfig
from byokg.eval.runner import EvalSettings
from byokg.eval.runner import run_eval


@pytest.fixture(scope="module")
def nw_store(northwind_kuzu):
    return northwind_kuzu


def _run(store, shared_data, srv, strategy, out):
    settings = EvalSettings(dataset="northwind", data=str(shared_data / "northwind" / "text2cypher"),
                            graph=store.uri, llm="openai:scripted", strategy=strategy, limit=8,
                            config=RunConfig(llm_options=srv.llm_options()),
                            dataset_options={"gold_source": "file"})
    return run_eval(settings, out, store=store, progress=False)


def test_routing_and_critic_on_off_in_the_report(nw_store, shared_data, tmp_path):
    plans = northwind_plans(shared_data / "northwind" / "kuzu_gold_results.jsonl")
    with ScriptedServer(plans, noisy=True) as srv:
        off = _run(nw_store, shared_data, srv, "graph-query", tmp_path / "off")
        routed = _run(nw_store, shared_data, srv, "routed-query", tmp_path / "routed")
        critic = _run(nw_store, shared_data, srv, "routed-critic", tmp_path / "critic")
    assert "critic_calls" not in off["metrics"]  # the default run's summary is unchanged
    assert routed["metrics"]["critic_calls"]["mean"] == 0
    assert critic["metrics"]["critic_calls"]["mean"] >= 1
    assert routed["metrics"]["cypher_first"]["mean"] > 0.5
    assert routed["metrics"]["llm_calls"]["mean"] < off["metrics"]["llm_calls"]["mean"]
    assert routed["metrics"]["exec_acc"]["mean"] >= off["metrics"]["exec_acc"]["mean"] - 0.13
    assert "query critic **off**" in (tmp_path / "routed" / "report.md").read_text()
    report = (tmp_path / "critic" / "report.md").read_text()
    assert "query critic **on**" in report and "routed-linker" in report
    assert "| critic_calls |" in report
