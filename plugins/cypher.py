"""The ``cypher`` retrieval tool: run the KG-Linker's openCypher queries, read-only, with repair.

Offered only on stores with the ``cypher`` capability and when an LLM is configured (the
queries come from ``request.artifacts.cypher`` and the repair loop asks the LLM). Every query
goes through :mod:`byokg.cypher`: dialect rewrites, the read-only guard (plus the engine's
EXPLAIN as a second opinion), LIMIT injection, execution in the store's worker process with a
wall-clock limit, a memory cap and a row cap (a crash or timeout is a recorded tool error, the
question goes on), and the repair loop with entity verification. See docs/cypher.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field

from byokg.contracts import ContextItem
from byokg.contracts import QueryResult
from byokg.contracts import TraceEvent
from byokg.cypher.execute import Execution
from byokg.cypher.execute import Status
from byokg.cypher.execute import cell_name
from byokg.cypher.execute import ran_key
from byokg.cypher.execute import to_context_item
from byokg.cypher.repair import RepairResult
from byokg.cypher.repair import run_with_repair
from byokg.hookspecs import hookimpl
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolParams
from byokg.pipeline.tools import ToolRequest
from byokg.pipeline.tools import ToolResult


class CypherParams(ToolParams):
    max_attempts: int = Field(3, ge=1, le=10, description="queries run per generated query, "
                              "first try included (repairs = max_attempts - 1)")
    timeout_s: float = Field(30.0, gt=0, description="per-query timeout in seconds")
    row_limit: int = Field(50, ge=1, le=10_000, description="rows kept per query (cap)")
    verify_entities: bool = Field(True, description="check names/values on empty results")
    max_queries: int = Field(3, ge=1, le=10, description="generated queries run per iteration")
    extra_procedures: list[str] = Field(default_factory=list,
                                        description="more read-only procedures to allow")


class CypherTool(Tool):
    name = "cypher"
    description = "Runs the KG-Linker's openCypher queries read-only, repairing failed ones."
    requires = frozenset({"cypher"})
    needs_llm = True
    Params = CypherParams
    reads = frozenset({"cypher"})  # the same queries in a later round are not run again
    needs = frozenset({"cypher"})

    def retrieve(self, request: ToolRequest, p: CypherParams, result: ToolResult) -> None:
        queries = [q for q in request.artifacts.cypher if q and q.strip()]
        if len(queries) > p.max_queries:
            result.events.append(TraceEvent(
                source="cypher", level="warning", iteration=request.iteration,
                message=f"{len(queries)} queries generated, running the first {p.max_queries}"))
            queries = queries[: p.max_queries]
        llm = request.services.llm
        store = request.store
        if request.services.config.query_critic and llm is not None:
            queries = self._critique(request, queries, result)
        for qi, query in enumerate(queries):
            fresh: list[bool] = []

            def build(query: str = query, fresh: list[bool] = fresh) -> RepairResult:
                from byokg.plugins.kglinker import schema_text_for

                fresh.append(True)
                ran = None if p.extra_procedures else request.services.peek(
                    ran_key(store, query, p.timeout_s, p.row_limit))
                return run_with_repair(
                    store, query, question=request.question, llm=llm,
                    max_attempts=p.max_attempts, verify_entities=p.verify_entities,
                    timeout_s=p.timeout_s, row_limit=p.row_limit,
                    extra_procedures=p.extra_procedures, ran=ran,
                    schema_text=lambda: schema_text_for(request),
                    max_prompt_chars=request.services.config.prompt_chars,
                )

            # a query the linker repeats in a later iteration is not run (or repaired) again;
            # kept for this question only (a server's run would otherwise grow with every one)
            key = ("byokg.cypher", store, p.model_dump_json(), query)
            rep = request.services.per_question(key, build)
            if fresh:
                result.llm_calls.extend(rep.llm_calls)
                for w in rep.warnings:
                    result.events.append(TraceEvent(source="cypher", level="warning",
                                                    iteration=request.iteration, message=w))
            else:
                result.counts["cypher_cached"] = result.counts.get("cypher_cached", 0) + 1
            self._record(result, request, qi, rep)
            item = self._item(request, qi, rep, p.row_limit)
            if item is not None:
                result.items.append(item)

    # ----------------------------------------------------------------- helpers
    def _critique(self, request: ToolRequest, queries: list[str], result: ToolResult
                  ) -> list[str]:
        """The query critic (``RunConfig.query_critic``): one call checks the queries first."""
        from byokg.plugins.kglinker import schema_text_for
        from byokg.plugins.routing.shapes import critique

        store, services = request.store, request.services
        text = schema_text_for(request)
        result.iteration = request.iteration
        return critique(services.llm, request.question, queries, text, out=result, store=store,
                        source="cypher", services=services)

    def _record(self, result: ToolResult, request: ToolRequest, qi: int, rep: RepairResult) -> None:
        for a in rep.attempts:
            ex = a.execution
            level = "info" if a.outcome in ("ok", "verified_empty") else "warning"
            if a.outcome == "rejected" or ex.error_kind in ("crashed", "timeout"):
                level = "error"  # refused, or the engine died / ran out of time: say so
            data: dict[str, Any] = {
                "query_index": qi, "attempt": a.number, "outcome": a.outcome,
                "query": ex.executed or ex.query, "rewrites": ex.rewrites,
                "limit_injected": ex.limit_injected,
            }
            if ex.error:
                data.update(error=ex.error[:500], error_kind=ex.error_kind)
            if ex.stderr:  # what the engine wrote before it died, never printed raw
                data["engine_stderr"] = ex.stderr
            if a.error_class:
                data["error_class"] = a.error_class
            if a.verification is not None:
                data["missing"] = [c.describe() for c in a.verification.missing]
            if ex.result is not None:
                data.update(rows=len(ex.result.rows), truncated=ex.result.truncated)
            result.events.append(TraceEvent(
                level=level, source="cypher", iteration=request.iteration, data=data,
                message=f"query {qi + 1} attempt {a.number}: {a.outcome}"
                + (f" ({a.error_class or ex.error_kind}: {ex.error.splitlines()[0][:160]})"
                   if ex.error else ""),
            ))
        result.events.append(TraceEvent(
            level="info", source="cypher", iteration=request.iteration,
            message=f"query {qi + 1}: {rep.stopped}",
            data={"query_index": qi, "trail": rep.trail, "stopped": rep.stopped},
        ))
        result.counts["cypher_queries"] = result.counts.get("cypher_queries", 0) + 1
        key = f"cypher_{rep.outcome}"
        result.counts[key] = result.counts.get(key, 0) + 1
        for a in rep.attempts:
            if a.execution.error_kind == "crashed":
                result.counts["cypher_crashed"] = result.counts.get("cypher_crashed", 0) + 1
        repairs = max(0, len(rep.attempts) - 1)
        if repairs:
            result.counts["cypher_repairs"] = result.counts.get("cypher_repairs", 0) + repairs

    def _item(
        self, request: ToolRequest, qi: int, rep: RepairResult, row_limit: int
    ) -> ContextItem | None:
        ex = rep.final
        meta = {"attempts": len(rep.attempts), "trail": rep.trail, "query_index": qi}
        if ex.status is Status.OK:
            item = to_context_item(ex, tool=self.name, iteration=request.iteration,
                                   row_limit=row_limit, metadata=meta)
            ids = cell_ids(request.store, request.graph_profile(), item.query or "", item.rows)
            if ids:
                item = item.model_copy(update={
                    "nodes": tuple(dict.fromkeys(i for v in ids.values() for i in v)),
                    "metadata": {**item.metadata, "cell_ids": ids}})
            return item
        if ex.status is Status.VERIFIED_EMPTY:
            q = ex.executed or ex.query
            return ContextItem(
                text=f"Query: {q}\nNo rows. Every label, relationship, property and value the "
                "query uses exists in the graph, so the answer is: none.",
                tool=self.name, iteration=request.iteration, kind="query", query=q,
                rows=ex.result or QueryResult(), metadata={"status": "verified_empty", **meta},
            )
        return failure_item(ex, rep, tool=self.name, iteration=request.iteration, meta=meta)


def failure_item(ex: Execution, rep: RepairResult, *, tool: str, iteration: int,
                 meta: dict[str, Any]) -> ContextItem:
    """What the next prompt and the answer stage read of a query that gave no rows: the last
    query tried and why it failed (a crash, an error, a refusal, no rows with names the graph
    lacks), in a line or two (kind ``query-failed``: every selection keeps it)."""
    q = " ".join((ex.executed or ex.query).split())
    q = q if len(q) <= 400 else q[:399] + "…"
    tries = f" after {len(rep.attempts)} attempts" if len(rep.attempts) > 1 else ""
    if ex.status is Status.EMPTY:
        a = rep.attempts[-1]
        missing = [c.describe() for c in a.verification.missing] if a.verification else []
        why = "no rows" + (f"; not in the graph: {'; '.join(missing[:3])}" if missing else "")
    elif ex.error_kind == "crashed":
        why = "the database engine crashed on it (a retry cannot fix it)"
    elif ex.error_kind == "timeout":
        why = "it ran out of time"
    elif ex.status is Status.REJECTED:
        why = f"refused: {(ex.error or '').splitlines()[0][:200]}"
    else:
        first = (ex.error or "").strip().splitlines()[0][:200] if ex.error else ""
        why = f"{ex.error_kind or 'error'}: {first}"
    return ContextItem(text=f"Query: {q}\nFailed{tries}: {why}", tool=tool, iteration=iteration,
                       kind="query-failed", query=ex.executed or ex.query,
                       metadata={"status": str(ex.status), "error_kind": ex.error_kind, **meta})


MAX_RESOLVED = 50  # query rows whose cells are tied to node ids


def _esc(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def cell_ids(store: Any, profile: Any, query: str, rows: QueryResult | None
             ) -> dict[str, list[str]]:
    """Node ids of the cells of a query result that stand for nodes (the answer ids of answers
    read from rows): a whole node, its key (``o.orderID``) or its display name
    (``p.productName``), the column's label read from the query's patterns. Keys are checked
    with one batched ``get_nodes``; names are looked up by one query per label. Nothing is
    guessed: a cell whose node is not found gets no id."""
    if rows is None or not rows.rows or profile is None:
        return {}
    keys, names = _node_cells(profile, query, rows)
    for (label, p), texts in names.items():  # name -> key, one query per label
        key = profile.label(label).key
        if not key or "cypher" not in store.capabilities:
            continue
        try:
            got = store.query(f"MATCH (n:{_esc(label)}) WHERE n.{_esc(p)} IN $v "
                              f"RETURN n.{_esc(p)}, n.{_esc(key)}", {"v": sorted(set(texts))},
                              timeout_s=10, row_limit=4 * MAX_RESOLVED)
        except Exception:  # noqa: BLE001 - ids are a help: a failed lookup leaves none
            continue
        for name, k in got.rows:
            if k is not None:
                keys[(label, str(k))] = str(name)
    return _ids_of_keys(store, keys)


def _node_cells(profile: Any, query: str, rows: QueryResult
                ) -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], list[str]]]:
    """The cells that stand for nodes: ``{(label, key as text): answer text}`` for whole nodes
    and key columns, ``{(label, property): [names]}`` for display-name columns."""
    from byokg.cypher.verify import extract_entities

    var_labels = extract_entities(query).var_labels if query else {}
    keys: dict[tuple[str, str], str] = {}
    names: dict[tuple[str, str], list[str]] = {}
    for ci, col in enumerate(rows.columns):
        cells = [r[ci] for r in rows.rows[:MAX_RESOLVED] if ci < len(r) and r[ci] is not None]
        var, _, prop = str(col).partition(".")
        labs = var_labels.get(var.strip("`"), [])
        lab = profile.label(labs[0]) if labs else None
        p = prop.strip("`")
        for c in cells:
            if isinstance(c, Mapping):
                node_lab = profile.label(str(c.get("_label")))
                text = cell_name(c, profile)
                if node_lab is not None and node_lab.key and c.get(node_lab.key) is not None \
                        and text:
                    keys[(node_lab.name, str(c[node_lab.key]))] = text
            elif lab is not None and p and isinstance(c, str | int):
                if p == lab.key:
                    keys[(lab.name, str(c))] = str(c)
                elif lab.display_parts == (p,):
                    names.setdefault((lab.name, p), []).append(str(c))
    return keys, names


def _ids_of_keys(store: Any, keys: dict[tuple[str, str], str]) -> dict[str, list[str]]:
    """Answer text -> node ids for ``(label, key)`` pairs: one batched ``get_nodes`` over the
    ids a node of that label may have (``Label:key`` or the key itself), the label checked."""
    if not keys:
        return {}
    tries = {(label, k): [f"{label}:{k}", k] for label, k in keys}
    try:
        found = store.get_nodes(list(dict.fromkeys(i for v in tries.values() for i in v)))
    except Exception:  # noqa: BLE001 - as above
        return {}
    out: dict[str, list[str]] = {}
    for (label, k), cands in tries.items():
        for nid in cands:
            node = found.get(nid)
            if node is not None and label in node.labels:
                ids = out.setdefault(keys[(label, k)], [])
                if node.id not in ids:
                    ids.append(node.id)
                break
    return out


@hookimpl
def register_tools(register):
    register(CypherTool)
