"""A scripted "careful reader" LLM behind a local OpenAI-compatible HTTP server.

Used by the LLM-path tests and ``benchmarks/bench_llmpath.py`` to measure calls and tokens per
question without a hosted model. The script reads each prompt the way a careful model would:

* KG-Linker, first round: the question's plan (entities, a relation path, a query, draft
  answers) from the dataset's own annotations;
* KG-Linker, later rounds: FINISH with the gold answers that the context shows, else the first
  round's proposal again (what real models were seen to do);
* answer generation: the gold answers the context shows, else the tail of the first fact;
* answer lists: as many as the prompt allows ("at most N"; 30 when a prompt states no cap, as
  before), with a last line ``TOTAL: n`` when the context shows more, as the prompt asks;
* agentic relation selection: the plan's relations among those listed, else the first listed;
  agentic next entities: FINISH when the facts show an answer, else the tails of the facts;
* query repair: the plan's query;
* the routing step (K candidate queries): the plan's query; with ``noisy=True`` the same query
  with its first label misspelt comes first (as models were seen to do), also in the
  KG-Linker's own <cypher> section, so routing and repair have something to tell apart;
  with ``noisy="shape"`` the copy that comes first runs but has the wrong shape (it returns the
  first matched node's rows, not what the question asks for);
* the query critic: a query that is the plan's query with a misspelt label (or the wrong-shape
  copy) is corrected to the plan's query, everything else is OK.

Every reply depends on the prompt text only, so a run can be recorded and replayed.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

_NORM = re.compile(r"[^0-9a-z]+")


def _norm(text: str) -> str:
    return " ".join(_NORM.sub(" ", str(text).casefold()).split())


@dataclass
class Plan:
    """What a careful model would propose for one question."""

    entities: list[str] = field(default_factory=list)
    relation_paths: list[list[str]] = field(default_factory=list)
    cypher: str | None = None
    drafts: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)


def demo_plans(path: str | Path) -> dict[str, Plan]:
    """Plans for the demo questions (topic entities, relation path, answers as drafts)."""
    out = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        q = json.loads(line)
        out[q["question"].strip()] = Plan(
            entities=list(q.get("topic_entities") or []),
            relation_paths=[list(q["relation_path"])] if q.get("relation_path") else [],
            drafts=list(q.get("answers") or [])[:3],
            answers=list(q.get("answers") or []),
        )
    return out


_REL = re.compile(r"\[\s*\w*\s*:\s*`?([A-Za-z_][A-Za-z0-9_]*)`?")
_QUOTED = re.compile(r"'([^'\n]{2,60})'")
_MATCHED = re.compile(r":\s*'([^'\n]{2,60})'\s*\}")  # a name matched in a node pattern


def northwind_plans(gold_file: str | Path) -> dict[str, Plan]:
    """Plans for Northwind questions: the query that ran on Kùzu, the names it quotes as
    entities, its relationship types as the relation path, the gold cells as answers."""
    out: dict[str, Plan] = {}
    for line in Path(gold_file).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        obj = json.loads(line)
        q = obj["question"].strip()
        if q in out or obj.get("kuzu_status") != "ok" or not obj.get("kuzu_rows"):
            continue
        query = obj.get("kuzu_query") or obj["cypher"]
        cells = list(dict.fromkeys(str(v) for r in obj["kuzu_rows"] for v in r if v is not None))
        out[q] = Plan(
            entities=list(dict.fromkeys(_QUOTED.findall(query))),
            relation_paths=[list(dict.fromkeys(_REL.findall(query)))],
            cypher=query,
            answers=cells[:50],
        )
    return out


def typed_plans(questions: Iterable[Any]) -> dict[str, Plan]:
    """Plans for generated typed-graph questions (``benchmarks.llmpath_graph.Question``): the
    gold query, the names it quotes, its relationship types, the gold rows' cells as answers.
    No drafts: nobody knows a generated graph's facts from memory."""
    return {q.question: Plan(entities=list(dict.fromkeys(_MATCHED.findall(q.cypher))),
                             relation_paths=[list(dict.fromkeys(_REL.findall(q.cypher)))],
                             cypher=q.cypher, answers=q.answers[:50])
            for q in questions}


def cwq_plans(path: str | Path) -> dict[str, Plan]:
    """Plans for CWQ/WebQSP questions: topic entity names, the gold relation paths, the
    answers (the first three as drafts, as a model that knows them would write)."""
    out: dict[str, Plan] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        q = json.loads(line)
        topics = q.get("topic_entities") or {}
        names = list(topics.values()) if isinstance(topics, dict) else list(topics)
        answers = list(q.get("answers") or [])
        out[q["question"].strip()] = Plan(
            entities=names, relation_paths=[list(p) for p in q.get("gold_relation_paths") or []],
            drafts=answers[:3], answers=answers)
    return out


def _section(prompt: str, start: str, end: str | None) -> str:
    if start not in prompt:
        return ""
    body = prompt.split(start, 1)[1]
    return body.split(end, 1)[0] if end and end in body else body


def _question(prompt: str) -> str:
    found = re.findall(r"^Question: (.+)$", prompt, flags=re.M)
    return found[-1].strip() if found else ""


def _relations(p: Plan) -> list[str]:
    return [r for rp in p.relation_paths for r in rp]


def _tails(text: str, relations: list[str] | None) -> list[str]:
    """Tail names of ``head -> relation -> t1 | t2`` lines (of ``relations`` when given)."""
    wanted = {_norm(r) for r in relations} if relations is not None else None
    out = []
    for ln in text.splitlines():
        parts = [x.strip() for x in ln.split("->")]
        if len(parts) != 3 or (wanted is not None and _norm(parts[1]) not in wanted):
            continue
        out += [t.split("(+")[0].strip() for t in parts[2].split("|")]
    return list(dict.fromkeys(t for t in out if t))


def _found(answers: Iterable[str], text: str) -> list[str]:
    hay = f" {_norm(text)} "
    return [a for a in answers if _norm(a) and f" {_norm(a)} " in hay]


_LABEL = re.compile(r"\(\s*\w*\s*:\s*`?([A-Za-z][A-Za-z0-9_]*)")
_CAP = re.compile(r"every answer, at most (\d+)", re.I)  # the answer cap a prompt states


_FIRST_NODE = re.compile(r"MATCH\s*\(\s*([A-Za-z_]\w*)\s*:\s*(`[^`]+`|[A-Za-z_]\w*)", re.I)


def wrong_shape(query: str) -> str | None:
    """A query that runs but answers another question: the first matched label's nodes."""
    m = _FIRST_NODE.search(query)
    if not m:
        return None
    var, label = m.group(1), m.group(2)
    return f"MATCH ({var}:{label}) RETURN {var} LIMIT 20"


def misspelt(query: str) -> str | None:
    """``query`` with its first node label misspelt (two letters swapped); None if it has none."""
    m = _LABEL.search(query)
    if not m or len(m.group(1)) < 3:
        return None
    name = m.group(1)
    bad = name[0] + name[2] + name[1] + name[3:]
    return query[:m.start(1)] + bad + query[m.end(1):] if bad != name else None


class ScriptedReader:
    """Replies to byokg's prompts from per-question plans (see the module doc)."""

    def __init__(self, plans: dict[str, Plan], *, noisy: bool | str = False) -> None:
        self.plans = plans
        self.noisy = noisy
        self.calls = 0
        self._lock = threading.Lock()

    def queries(self, p: Plan) -> list[str]:
        """The queries this reader writes for a plan (a misspelt one first when noisy)."""
        if not p.cypher:
            return []
        bad = self._distractor(p.cypher)
        return [bad, p.cypher] if bad else [p.cypher]

    def _distractor(self, query: str) -> str | None:
        if not self.noisy:
            return None
        return wrong_shape(query) if self.noisy == "shape" else misspelt(query)

    def plan(self, prompt: str) -> Plan:
        return self.plans.get(_question(prompt)) or Plan()

    def reply(self, prompt: str, system: str | None = None) -> str:
        with self._lock:
            self.calls += 1
        if system and "repair" in system.lower():
            return self._repair(prompt)
        if "You are the query router" in prompt:
            return "<cypher>\n" + "\n\n".join(self.queries(self.plan(prompt))) + "\n</cypher>"
        if "You check openCypher queries" in prompt:
            return self._critic(prompt)
        if "You are KG-Linker" in prompt:
            if "Graph context retrieved so far" in prompt:
                return self._iterative(prompt)
            return self._linker(self.plan(prompt))
        if prompt.startswith("Answer the question using ONLY"):
            return self._answer(prompt)
        if "Select the relations worth following" in prompt:
            return self._relations(prompt)
        if "choose the entities to explore next" in prompt:
            return self._next_entities(prompt)
        if prompt.startswith("Answer the question from your own knowledge"):
            return "<answers>\n" + "\n".join(self.plan(prompt).drafts) + "\n</answers>"
        return "<answers>\n</answers>"

    # ------------------------------------------------------------------ KG-Linker
    def _linker(self, p: Plan, with_drafts: bool = True) -> str:
        parts = ["<entities>", *p.entities, "</entities>", "<relation-paths>"]
        parts += [" -> ".join(rp) for rp in p.relation_paths if rp]
        parts.append("</relation-paths>")
        if p.cypher:
            parts += ["<cypher>", "\n\n".join(self.queries(p)), "</cypher>"]
        parts += ["<answers>", *(p.drafts if with_drafts else []), "</answers>"]
        return "\n".join(parts)

    def _read(self, prompt: str, start: str, end: str) -> tuple[Plan, str, str | None]:
        """The plan, the prompt's context section, and an answers block when it names them
        (at most the cap the prompt states, with the TOTAL line it asks for beyond it)."""
        p = self.plan(prompt)
        ctx = _section(prompt, start, end)
        seen = _found(p.answers, ctx)
        cap = _CAP.search(prompt)
        n = int(cap.group(1)) if cap else 30
        lines = seen[:n] + ([f"TOTAL: {len(seen)}"] if cap and len(seen) > n else [])
        block = "<answers>\n" + "\n".join(lines) + "\n</answers>" if seen else None
        return p, ctx, block

    def _iterative(self, prompt: str) -> str:
        p, ctx, block = self._read(prompt, "Graph context retrieved so far:",
                                   "If the graph context above")
        if block:
            return "FINISH\n" + block
        # not there yet: the entities the context reached along the plan's relations, too
        reached = _tails(ctx, _relations(p))
        return self._linker(Plan(entities=list(dict.fromkeys(p.entities + reached))[:8],
                                 relation_paths=p.relation_paths, cypher=p.cypher,
                                 drafts=p.drafts, answers=p.answers))

    def _answer(self, prompt: str) -> str:
        _, ctx, block = self._read(prompt, "Graph context:", "\nQuestion:")
        if block:
            return block
        first = next((ln for ln in ctx.splitlines() if "->" in ln), "")
        tail = first.split("->")[-1].split("|")[0].strip() if first else ""
        return f"<answers>\n{tail}\n</answers>"

    # ------------------------------------------------------------------ agentic
    def _relations(self, prompt: str) -> str:
        p = self.plan(prompt)
        wanted = {_norm(r) for r in _relations(p)}
        picks = []
        for block in re.findall(r"Entity: (.+)\nRelations: (.+)", prompt):
            ent, rels = block[0].strip(), [r.strip() for r in block[1].split(",")]
            good = [r for r in rels if _norm(r) in wanted] or rels[:1]
            picks += [f"{ent} | {r}" for r in good]
        return "<selected-relations>\n" + "\n".join(picks) + "\n</selected-relations>"

    def _next_entities(self, prompt: str) -> str:
        p = self.plan(prompt)
        facts = _section(prompt, "Facts found so far (head -> relation -> tail):", "\nQuestion:")
        if _found(p.answers, facts):
            return "FINISH"
        names = (_tails(facts, _relations(p)) or _tails(facts, None))[:3]
        return "<next-entities>\n" + "\n".join(names) + "\n</next-entities>"

    # ------------------------------------------------------------------ critic
    def _critic(self, prompt: str) -> str:
        p = self.plan(prompt)
        block = _section(prompt, "Queries to check:\n", "\n\nQuestion:")
        queries = [q.strip() for q in block.split("\n\n") if q.strip()]
        bad = self._distractor(p.cypher) if p.cypher else None
        fixed = [p.cypher if bad and q == bad.strip() else q for q in queries]
        if fixed == queries:
            return "OK"
        return "<cypher>\n" + "\n\n".join(q or "" for q in fixed) + "\n</cypher>"

    # ------------------------------------------------------------------ repair
    def _repair(self, prompt: str) -> str:
        p = self.plan(prompt)
        return f"<cypher>\n{p.cypher or ''}\n</cypher>"


class _Handler(BaseHTTPRequestHandler):
    reader: ScriptedReader

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        msgs = body.get("messages") or []
        system = next((m["content"] for m in msgs if m.get("role") == "system"), None)
        prompt = msgs[-1]["content"] if msgs else ""
        text = self.reader.reply(prompt, system)
        out = json.dumps({
            "id": "scripted", "object": "chat.completion", "model": body.get("model", "scripted"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": max(1, len(prompt) // 4),
                      "completion_tokens": max(1, len(text) // 4)},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


class ScriptedServer:
    """``with ScriptedServer(plans) as srv:`` serves ``srv.base_url`` (OpenAI-compatible)."""

    def __init__(self, plans: dict[str, Plan], *, noisy: bool | str = False) -> None:
        self.reader = ScriptedReader(plans, noisy=noisy)
        handler = type("ScriptedHandler", (_Handler,), {"reader": self.reader})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    @property
    def calls(self) -> int:
        return self.reader.calls

    def llm_options(self) -> dict[str, Any]:
        return {"base_url": self.base_url, "api_key": "scripted", "retries": 0}

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)
