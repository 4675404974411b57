"""The whole loop on the demo graph: offline linker, scripted KG-Linker replies via replay cassettes,
concurrency and failures of tools, the context merge, and clear errors."""

from __future__ import annotations

import json
import threading
import time

import pytest

from byokg import registry
from byokg.config import RunConfig
from byokg.contracts import ContextItem
from byokg.contracts import Triplet
from byokg.demo import DEMO_QUESTIONS
from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import LLMError
from byokg.hookspecs import hookimpl
from byokg.language.text import normalize
from byokg.pipeline.context import Context
from byokg.pipeline.engine import Engine
from byokg.pipeline.engine import ask
from byokg.pipeline.engine import explain
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolResult

# hops <= 2 demo questions the offline linker must get right at rank 1 (all of them but one)
OFFLINE_EXCLUDED = {"demo-043"}  # "subject of the film Ray": 'about' shares no word with the question


def _rows():
    return [json.loads(x) for x in DEMO_QUESTIONS.read_text(encoding="utf-8").splitlines() if x.strip()]


def _answer_ids(answer):
    for ev in answer.trace.events:
        if "answer_ids" in ev.data:
            return ev.data["answer_ids"]
    return []


def test_offline_answers_demo_one_and_two_hop_questions(demo_store):
    rows = [r for r in _rows() if r["hops"] <= 2]
    assert len(rows) >= 40
    eng = Engine(demo_store)
    wrong = []
    for r in rows:
        a = eng.ask(r["question"])
        assert len(a.trace.llm_calls) == 0
        gold = {normalize(x) for x in r["answers"]}
        ids = _answer_ids(a)
        ok = bool(a.answers) and (normalize(a.answers[0]) in gold or normalize(ids[0]) in gold)
        if ok:
            assert a.evidence, r["id"]  # the answer comes with the facts that support it
        elif r["id"] not in OFFLINE_EXCLUDED:
            wrong.append((r["id"], r["question"], a.answers[:3]))
    assert wrong == []


def test_offline_answer_has_evidence_and_trace(demo_store):
    a = Engine(demo_store).ask("Where was Wynton Marsalis born?")
    assert a.answers[0] == "New Orleans"
    assert any("New Orleans" in e.text and "Wynton Marsalis" in e.text for e in a.evidence)
    assert a.trace.iterations >= 1 and a.trace.llm_calls == []
    stages = {s.stage for s in a.trace.stages}
    assert {"kg-linker", "link", "tools", "merge", "answer"} <= stages
    assert a.trace.artifacts[0].entities and a.trace.artifacts[0].relation_paths
    assert "New Orleans" in explain(a) and "Evidence:" in explain(a)


def test_module_ask_opens_and_closes_graph():
    a = ask("What is the capital of Jamaica?", "memory:demo", iterations=1)
    assert a.answers[0] == "Kingston" and a.trace.iterations == 1


# --------------------------------------------------------------------------- scripted KG-Linker

ROUND1 = """<entities>
Wynton Marsalis
</entities>
<relation-paths>
educated_at
</relation-paths>
<answers>
</answers>"""

ROUND2 = """<entities>
Juilliard School
</entities>
<relation-paths>
located_in
</relation-paths>
<answers>
New York City
</answers>"""


PATH_TOOLS = ["follow-paths", "shortest-paths", "one-hop"]

def _run_recorded(script_llm, tmp_path, name, script, question, **cfg):
    """Record a run through replay:…?record=script:NAME, then replay it offline; both must agree."""
    script_llm.scripts[name] = script
    cassette = tmp_path / f"{name}.jsonl"
    from byokg.graph.open import open_graph

    store = open_graph("memory:demo")
    rec = Engine(store, RunConfig(llm=f"replay:{cassette}?record=script:{name}", **cfg)).ask(question)
    prompts = list(script_llm.created[-1].prompts)
    rep = Engine(store, RunConfig(llm=f"replay:{cassette}", **cfg)).ask(question)
    assert rep.answers == rec.answers
    assert [c.prompt_checksum for c in rep.trace.llm_calls] == [c.prompt_checksum for c in rec.trace.llm_calls]
    assert all(c.cached for c in rep.trace.llm_calls)
    return rec, prompts


def test_second_round_uses_first_round_context(script_llm, tmp_path):
    def script(prompt, n):
        if prompt.startswith("Answer the question"):
            return "<answers>\nNew York City\n</answers>"
        return ROUND1 if "Graph context retrieved so far" not in prompt else ROUND2

    q = "In which city is the school Wynton Marsalis attended?"
    # the path tools only: the default set also holds the agentic tool, whose own LLM calls
    # (tested in tests/retrievers) would interleave with the KG-Linker's
    a, prompts = _run_recorded(script_llm, tmp_path, "two-rounds", script, q, iterations=2,
                               tools=PATH_TOOLS)
    assert a.trace.iterations == 2
    purposes = [c.purpose for c in a.trace.llm_calls]
    assert purposes == ["kg-linker", "kg-linker", "answer"]
    # round-1 context (Wynton Marsalis -[educated_at]-> Juilliard) is in the round-2 prompt
    assert "Graph context retrieved so far" not in prompts[0]
    ctx = prompts[1].split("Graph context retrieved so far:")[1].split("If the graph context")[0]
    assert "Wynton Marsalis" in ctx and "Juilliard" in ctx and "educated_at" in ctx
    assert a.answers == ["New York City"]
    assert any("New York City" in e.text for e in a.evidence)
    assert {c.prompt_checksum for c in a.trace.llm_calls} == {
        e.data["checksum"] for e in a.trace.events if "checksum" in e.data}
    assert a.trace.prompt_tokens > 0 and a.trace.completion_tokens > 0
    assert 2 in {it.iteration + 1 for it in a.context}  # context from the second round is kept


def test_broken_tags_recorded_and_run_goes_on(script_llm, tmp_path):
    broken = ("<|im_start|>\n<entities>\nWynton Marsalis\n<relation-paths>\n```\nborn_in\n```\n"
              "<answers>\nNew Orleans<|im_end|>")

    def script(prompt, n):
        return "New Orleans" if prompt.startswith("Answer the question") else broken

    a, _ = _run_recorded(script_llm, tmp_path, "broken", script, "Where was Wynton Marsalis born?",
                         iterations=1)
    art = a.trace.artifacts[0]
    assert art.entities == ("Wynton Marsalis",) and art.relation_paths[0].relations == ("born_in",)
    warns = [e.message for e in a.trace.warnings]
    assert any("not closed" in w for w in warns) and any("no recognised tags" in w for w in warns)
    assert a.trace.counts["parse_warnings"] >= 2
    # the answer reply had no tags: the engine fell back to the linker's draft answers, and said so
    assert a.answers == ["New Orleans"] and any("draft answers" in w for w in warns)


def test_finish_in_round_one_stops_the_loop(script_llm, tmp_path):
    def script(prompt, n):
        if prompt.startswith("Answer the question"):
            return "<answers>\nKingston\n</answers>"
        return "FINISH\n<entities>\nJamaica\n</entities>\n<relation-paths>\ncapital\n</relation-paths>"

    a, prompts = _run_recorded(script_llm, tmp_path, "finish", script, "What is the capital of Jamaica?",
                               iterations=3, tools=PATH_TOOLS)
    assert a.trace.iterations == 1 and a.trace.artifacts[0].finish
    assert [c.purpose for c in a.trace.llm_calls] == ["kg-linker", "answer"]
    assert any("FINISH" in e.message for e in a.trace.events)
    assert a.answers == ["Kingston"] and a.evidence


def test_draft_answer_linked_and_connected_by_shortest_paths(script_llm, tmp_path):
    reply = "<entities>\nBob Dylan\n</entities>\n<relation-paths>\n</relation-paths>\n<answers>\nMinneapolis\n</answers>"

    def script(prompt, n):
        return "<answers>\nMinneapolis\n</answers>" if prompt.startswith("Answer the question") else reply

    a, _ = _run_recorded(script_llm, tmp_path, "draft", script,
                         "In which city is the university Bob Dylan attended?", iterations=1,
                         tools=["shortest-paths"])
    links = a.trace.links[0]
    assert any(m.mention == "Minneapolis" and m.candidates for m in links)
    sp = [it for it in a.context if it.tool == "shortest-paths"]
    assert sp, "shortest-paths connected nothing"
    assert any(it.path is not None and it.path.start == "Bob Dylan" and it.path.end == "Minneapolis" for it in sp)
    assert a.answers == ["Minneapolis"] and a.evidence


def test_nothing_new_to_link_stops(script_llm, tmp_path):
    same = "<entities>\nJamaica\n</entities>\n<relation-paths>\ncapital\n</relation-paths>"

    def script(prompt, n):
        return "<answers>\nKingston\n</answers>" if prompt.startswith("Answer the question") else same

    a, _ = _run_recorded(script_llm, tmp_path, "same", script, "What is the capital of Jamaica?", iterations=3)
    assert a.trace.iterations == 2
    assert any("nothing new" in e.message for e in a.trace.events)


def test_llm_unreachable_keeps_partial_trace(script_llm, demo_store):
    def script(prompt, n):
        if n == 0:
            return "<entities>\nJamaica\n</entities>\n<relation-paths>\ncapital\n</relation-paths>"
        raise LLMError("endpoint down after 5 attempts", code="unreachable")

    script_llm.scripts["down"] = script
    with pytest.raises(LLMError) as ei:
        Engine(demo_store, RunConfig(llm="script:down")).ask("What is the capital of Jamaica?")
    exc = ei.value
    assert exc.trace.iterations == 2 and len(exc.trace.llm_calls) == 1
    assert exc.partial.context and exc.partial.answers == []
    assert any(e.level == "error" and "endpoint down" in e.message for e in exc.trace.events)


# --------------------------------------------------------------------------- tools


class _Slow(Tool):
    name = "test-slow"
    default = False
    active = 0
    peak = 0
    lock = threading.Lock()

    def run(self, request):
        cls = _Slow  # shared counters for both slow tools
        with cls.lock:
            cls.active += 1
            cls.peak = max(cls.peak, cls.active)
        time.sleep(0.2)
        with cls.lock:
            cls.active -= 1
        t = Triplet(head="Jamaica", relation="capital", tail="Kingston")
        return ToolResult(items=[ContextItem(text=f"Jamaica capital Kingston ({request.iteration})",
                                             tool=self.name, score=0.9, triplets=(t,), nodes=("Kingston",))])


class _Slow2(_Slow):
    name = "test-slow-2"


class _Boom(Tool):
    name = "test-boom"
    default = False

    def run(self, request):
        raise RuntimeError("kaboom")


@hookimpl
def register_tools(register):
    register("test-slow", _Slow)
    register("test-slow-2", _Slow2)
    register("test-boom", _Boom)


@pytest.fixture
def fake_tools(register_plugin):
    register_plugin("test-engine-tools", register_tools=register_tools)
    _Slow.peak = 0


def test_tools_run_concurrently_and_failures_are_recorded(demo_store, fake_tools):
    cfg = RunConfig(tools=["follow-paths", "test-slow", "test-slow-2", "test-boom"], iterations=1,
                    workers=4)
    t0 = time.perf_counter()
    a = Engine(demo_store, cfg).ask("What is the capital of Jamaica?")
    assert time.perf_counter() - t0 < 2.0
    assert _Slow.peak == 2  # both slow tools were inside run() at the same time
    errors = [e for e in a.trace.events if e.level == "error"]
    assert errors and errors[0].source == "test-boom" and "kaboom" in errors[0].message
    # same supporting triplet as the path follow-paths walked: one item, three tools
    key = ("Jamaica", "capital", "Kingston")
    merged = [it for it in a.context if [t.key for t in it.triplets] == [key]]
    assert len(merged) == 1
    assert merged[0].metadata["tools"] == ["follow-paths", "test-slow", "test-slow-2"]
    assert a.answers[0] == "Kingston"
    assert {s.stage for s in a.trace.stages} >= {"tool:test-slow", "tool:test-slow-2", "tool:test-boom"}


def test_default_tool_set_skips_non_default_and_inapplicable(demo_store, fake_tools):
    eng = Engine(demo_store)
    names = [n for n, _, _ in eng.tools()]
    assert "test-slow" not in names and "follow-paths" in names
    assert "cypher" not in names  # the memory store has no cypher capability


def test_unknown_tool_and_bad_params_are_clear(demo_store):
    with pytest.raises(ConfigError, match="unknown tool 'nope'"):
        Engine(demo_store, RunConfig(tools=["nope"])).ask("What is the capital of Jamaica?")
    with pytest.raises(ConfigError, match="params.follow-paths.bogus"):
        Engine(demo_store, RunConfig(tools=["follow-paths"], params={"follow-paths": {"bogus": 1}})).ask(
            "What is the capital of Jamaica?")


# --------------------------------------------------------------------------- context


def _item(text, tool, score=None, triplets=(), it=0):
    return ContextItem(text=text, tool=tool, score=score, triplets=tuple(triplets), iteration=it)


def test_context_dedupes_by_text_and_triplets_keeps_provenance_and_order():
    t = Triplet(head="a", relation="r", tail="b")
    c = Context(token_budget=1000)
    assert c.add([_item("A -r-> B", "x", 0.2, [t]), _item("other", "x", 0.9)]) == 2
    assert c.add([_item("a  r  b!", "y", 0.5), _item("A r B (verbalised differently)", "z", 0.1, [t], 1)]) == 0
    items = c.items
    assert [i.text for i in items] == ["A -r-> B", "other"]
    assert items[0].metadata["tools"] == ["x", "y", "z"] and items[0].metadata["iterations"] == [0, 1]
    assert items[0].score == 0.5 and c.duplicates == 2


def test_context_budget_keeps_best_ranked_first():
    c = Context(token_budget=12)
    c.add([_item("low " * 8, "x", 0.1), _item("mid two", "x", 0.5), _item("high one", "x", 0.9)])
    sel = c.select()
    assert [i.text for i in sel] == ["high one", "mid two"]
    assert sel.cut is not None and sel.cut.total == 1


# --------------------------------------------------------------------------- errors


def test_clear_errors(demo_store, tmp_path):
    with pytest.raises(ConfigError, match="no graph"):
        Engine(None)
    with pytest.raises(ConfigError, match="no graph"):
        ask("q?", "")
    with pytest.raises(InputError, match="empty"):
        Engine(demo_store).ask("   ")
    with pytest.raises(InputError, match="too long"):
        Engine(demo_store).ask("word " * 5000)
    with pytest.raises(ConfigError, match="unknown LLM provider 'nope'"):
        Engine(demo_store, RunConfig(llm="nope:x")).ask("What is the capital of Jamaica?")

    class Empty:
        uri = "memory:empty"
        capabilities = frozenset()

        def stats(self):
            from byokg.contracts import GraphStats

            return GraphStats(nodes=0, triplets=0, relations=0)

    with pytest.raises(InputError, match="no triplets"):
        Engine(Empty()).ask("Who?")


# --------------------------------------------------------------------------- a cypher-capable store


@pytest.fixture(scope="module")
def demo_kuzu(tmp_path_factory):
    from byokg.graph.open import open_graph
    from byokg.io.loading import load_into

    uri = f"kuzu:{tmp_path_factory.mktemp('demo-kuzu') / 'graph.kz'}"
    load_into([str(DEMO_QUESTIONS.parent / 'demo_kg.jsonl')], uri)
    store = open_graph(uri)
    yield store
    store.close()


@pytest.mark.slow
def test_kuzu_offline_and_cypher_round(demo_kuzu, script_llm):
    assert "cypher" in demo_kuzu.capabilities
    off = Engine(demo_kuzu).ask("Who were the wives of Frank Sinatra?")
    assert set(off.answers) == {"Nancy Barbato", "Ava Gardner", "Mia Farrow", "Barbara Marx"}

    query = ("MATCH (a:Entity {name: 'Jamaica'})-[r:REL]->(c:Entity) WHERE r.type = 'capital' "
             "RETURN c.name LIMIT 5")

    def script(prompt, n):
        if prompt.startswith("Answer the question"):
            return "<answers>\nKingston\n</answers>"
        return f"<entities>\nJamaica\n</entities>\n<cypher>\n```cypher\n{query}\n```\n</cypher>"

    script_llm.scripts["kz"] = script
    a = Engine(demo_kuzu, RunConfig(llm="script:kz", iterations=1)).ask("What is the capital of Jamaica?")
    first = script_llm.created[-1].prompts[0]
    assert "openCypher" in first and "<cypher>" in first and "Kùzu" in first  # dialect hints
    assert a.trace.artifacts[0].cypher == (query,)
    rows = [it for it in a.context if it.tool == "cypher"]
    assert rows and "Kingston" in rows[0].text
    assert a.answers == ["Kingston"] and any(e.tool == "cypher" for e in a.evidence)


def test_a_tool_factory_returning_no_tool_is_named(demo_store):
    from byokg.errors import PluginError
    from byokg.hookspecs import hookimpl

    class Broken:
        @hookimpl
        def register_tools(self, register):
            register("broken-tool", lambda: None)

    registry.register_plugin(Broken(), name="test-broken-tool")
    try:
        with pytest.raises(PluginError, match="'broken-tool'.*'test-broken-tool'.*NoneType"):
            Engine(demo_store, RunConfig()).ask("Where was Louis Armstrong born?")
    finally:
        registry.unregister_plugin("test-broken-tool")


def test_no_tools_with_an_llm_is_the_vanilla_baseline(script_llm, demo_store):
    script_llm.scripts["vanilla"] = lambda prompt, n: "<answers>\nNew Orleans\n</answers>"
    a = Engine(demo_store, RunConfig(llm="script:vanilla", tools=[])).ask(
        "Where was Louis Armstrong born?")
    assert a.answers == ["New Orleans"]
    assert [c.purpose for c in a.trace.llm_calls] == ["answer"]
    prompt = script_llm.created[-1].prompts[0]
    assert "Where was Louis Armstrong born?" in prompt
    assert "schema" not in prompt.lower() and "Graph context" not in prompt  # no graph at all
    assert a.context == [] and a.evidence == []
