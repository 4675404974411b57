"""Failures shown (issue 25, point 5): a failed or crashed query is summarised to the model in the
next round's prompt and to the user in the batch line; what the query worker writes when it
dies (a glibc or engine message) is captured into the trace and never reaches our stderr."""

from __future__ import annotations

import json
import textwrap

from benchmarks.scripted_llm import Plan
from benchmarks.scripted_llm import ScriptedServer
from byokg.config import RunConfig
from byokg.graph.open import open_graph
from byokg.pipeline.engine import Engine

CRASH = "RETURN " + "size([" * 400 + "1" + "])" * 400 + " AS n"  # SIGSEGV in kuzu 0.11.3
DYING = "MATCH (p:Product) WHERE p.productName = 'die-loudly' RETURN p.productName"

HELPER = '''
"""A Kùzu store whose worker process writes like a dying C library, then aborts."""
import os

from byokg.backends.kuzu import KuzuGraph


class LoudKuzu(KuzuGraph):
    def query(self, cypher, params=None, **kw):
        if "die-loudly" in cypher:
            os.write(2, b"free(): invalid pointer\\n")
            os.abort()
        return super().query(cypher, params, **kw)


def open_loud(uri, **options):
    return LoudKuzu(uri, **options)
'''


def _reader(plans, prompts):
    srv = ScriptedServer(plans)
    real = srv.reader.reply

    def spy(prompt, system=None):
        prompts.append(prompt)
        return real(prompt, system)

    srv.reader.reply = spy
    return srv


def test_a_crash_reaches_the_next_prompt_and_the_batch_line(northwind_kuzu_path, tmp_path):
    from byokg.commands.batch import run_batch

    q = "Which products are in the Seafood category?"
    plans = {q: Plan(entities=["Seafood"], relation_paths=[["PART_OF"]], cypher=CRASH)}
    store = open_graph(f"kuzu:{northwind_kuzu_path}")
    prompts: list[str] = []
    try:
        with _reader(plans, prompts) as srv:
            cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                            tools=["cypher", "one-hop"])
            qfile = tmp_path / "q.txt"
            qfile.write_text(q + "\n", encoding="utf-8")
            out = tmp_path / "a.jsonl"
            run_batch(Engine(store, cfg), graph=store.uri, cfg=cfg, file=str(qfile),
                      out=str(out), progress=False)
    finally:
        store.close()
    second = [p for p in prompts if "Graph context retrieved so far" in p]
    assert second, "a second KG-Linker round"
    assert "Failed: the database engine crashed on it (a retry cannot fix it)" in second[0]
    assert "Query: RETURN size([size([" in second[0]
    row = json.loads(out.read_text(encoding="utf-8"))
    assert any("engine crashed" in t for t in row["error_texts"]), row["error_texts"]
    assert row["error"] is None  # the question went on


def test_the_workers_dying_words_go_to_the_trace_not_to_stderr(northwind_kuzu_path, tmp_path,
                                                              monkeypatch, capfd):
    from byokg.cypher.worker import StoreSpec

    (tmp_path / "loud_kuzu.py").write_text(textwrap.dedent(HELPER), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    store = open_graph(f"kuzu:{northwind_kuzu_path}")
    spec = store.worker_spec()
    monkeypatch.setattr(store, "worker_spec", lambda: StoreSpec(
        factory="loud_kuzu:open_loud", uri=spec.uri, options=spec.options))
    q = "Which product is called die-loudly?"
    plans = {q: Plan(entities=["die-loudly"], cypher=DYING)}
    try:
        with ScriptedServer(plans) as srv:
            cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                            tools=["cypher"], iterations=1)
            a = Engine(store, cfg).ask(q)
    finally:
        store.close()
    crash = next(ev for ev in a.trace.events if ev.source == "cypher"
                 and ev.data.get("error_kind") == "crashed")
    assert "free(): invalid pointer" in crash.data["engine_stderr"]
    assert crash.level == "error" and "signal 6, SIGABRT" in crash.data["error"]
    assert "free(): invalid pointer" not in capfd.readouterr().err


def test_a_query_whose_own_limit_comes_back_full_says_the_list_may_be_cut(northwind_kuzu_path):
    """The model writes LIMIT 50 for a question that asks for every order of 1996 (152 of
    them): the answer keeps the 50 rows and says the list was cut, how many is not known."""
    q = "Which orders were placed in the year 1996?"
    cypher = ("MATCH (o:`Order`) WHERE o.orderDate STARTS WITH '1996' "
              "RETURN o.orderID ORDER BY o.orderID LIMIT 50")
    plans = {q: Plan(entities=[], relation_paths=[], cypher=cypher)}
    store = open_graph(f"kuzu:{northwind_kuzu_path}")
    try:
        with ScriptedServer(plans) as srv:
            cfg = RunConfig(llm="openai:scripted", llm_options=srv.llm_options(),
                            tools=["cypher"])
            a = Engine(store, cfg).ask(q)
    finally:
        store.close()
    assert len(a.answers) == 50 and a.truncated and a.total is None
    assert a.answers[0] == "10248"
