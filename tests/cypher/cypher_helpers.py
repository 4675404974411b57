"""Helpers for the Cypher tool tests: build a small real Kùzu Northwind graph, count its tables.

The Northwind graph is built here with the kuzu Python API (one UNWIND batch per table) so the
tests do not depend on other areas' fixtures; when the Kùzu backend (byokg.backends.kuzu) is
installed the store fixture opens the same files through it, else a minimal query-only store
wraps the connection.
"""

from __future__ import annotations

import csv
import os
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from byokg.contracts import GraphSchema
from byokg.contracts import NodeLabel
from byokg.contracts import PropertyInfo
from byokg.contracts import QueryResult
from byokg.contracts import RelationType
from byokg.errors import QueryError
from byokg.models.base import LLMResponse

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BYOKG_SHARED_DATA", REPO.parent / "shared" / "data"))
NW = SHARED / "northwind"
IMPORT = NW / "graph" / "import"

NODE_TABLES = {  # label -> (csv, primary key, typed columns)
    "Product": ("products.csv", "productID", {
        "unitPrice": "DOUBLE", "unitsInStock": "INT64", "unitsOnOrder": "INT64",
        "reorderLevel": "INT64", "discontinued": "BOOLEAN"}),
    "Category": ("categories.csv", "categoryID", {}),
    "Supplier": ("suppliers.csv", "supplierID", {}),
    "Customer": ("customers.csv", "customerID", {}),
    "Order": ("orders.csv", "orderID", {}),
}  # fmt: skip
REL_TABLES = ("PART_OF", "SUPPLIES", "PURCHASED", "ORDERS")


def _csv(name: str) -> list[dict[str, Any]]:
    with open(IMPORT / name, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        cols = list(reader.fieldnames or [])
        return [{k: (r[k] if r[k] != "" else None) for k in cols} for r in reader]


def _typed(row: dict[str, Any], types: Mapping[str, str]) -> dict[str, Any]:
    out = dict(row)
    for col, typ in types.items():
        v = out[col]
        if typ == "DOUBLE":
            out[col] = float(v)
        elif typ == "INT64":
            out[col] = int(v)
        elif typ == "BOOLEAN":
            out[col] = v not in ("0", "false", None)
    return out


def build_northwind_kuzu(path: Path, engine: str = "kuzu") -> dict[str, int]:
    """Create the Neo4j-demo Northwind graph (5 labels, 4 relationship types) at ``path`` with
    a Kùzu-family ``engine`` (``kuzu`` or ``ladybug``: hosted in a child process when the other
    one is loaded here, byokg.cypher.kuzuengine)."""
    from byokg.cypher.kuzuengine import ENGINES
    from byokg.cypher.kuzuengine import connect

    con = connect(ENGINES[engine], str(path), read_only=False)
    rows: dict[str, list[dict[str, Any]]] = {}
    for label, (fname, pk, types) in NODE_TABLES.items():
        data = [_typed(r, types) for r in _csv(fname)]
        rows[label] = data
        cols = list(data[0])
        ddl = ", ".join(f"{c} {types.get(c, 'STRING')}" for c in cols)
        con.execute(f"CREATE NODE TABLE `{label}`({ddl}, PRIMARY KEY({pk}))")
        assign = ", ".join(f"{c}: r.{c}" for c in cols)
        con.execute(f"UNWIND $rows AS r CREATE (:`{label}` {{{assign}}})", {"rows": data})
    con.execute("CREATE REL TABLE PART_OF(FROM Product TO Category)")
    con.execute("CREATE REL TABLE SUPPLIES(FROM Supplier TO Product)")
    con.execute("CREATE REL TABLE PURCHASED(FROM Customer TO `Order`)")
    con.execute(
        "CREATE REL TABLE ORDERS(FROM `Order` TO Product, orderID STRING, productID STRING,"
        " unitPrice STRING, quantity INT64, discount STRING)"
    )
    ids = {lbl: {r[NODE_TABLES[lbl][1]] for r in rows[lbl]} for lbl in rows}

    def link(rel: str, src: str, dst: str, pairs: list[dict[str, Any]], props: str = "") -> None:
        spk, dpk = NODE_TABLES[src][1], NODE_TABLES[dst][1]
        con.execute(
            f"UNWIND $pairs AS x MATCH (a:`{src}` {{{spk}: x.a}}), (b:`{dst}` {{{dpk}: x.b}}) "
            f"CREATE (a)-[:{rel} {props}]->(b)",
            {"pairs": pairs},
        )

    prods = rows["Product"]
    link("PART_OF", "Product", "Category", [
        {"a": p["productID"], "b": p["categoryID"]} for p in prods
        if p["categoryID"] in ids["Category"]])
    link("SUPPLIES", "Supplier", "Product", [
        {"a": p["supplierID"], "b": p["productID"]} for p in prods
        if p["supplierID"] in ids["Supplier"]])
    link("PURCHASED", "Customer", "Order", [
        {"a": o["customerID"], "b": o["orderID"]} for o in rows["Order"]
        if o["customerID"] in ids["Customer"]])
    seen: set[tuple[str, str]] = set()
    details = []
    for d in _csv("order-details.csv"):  # one ORDERS edge per (order, product), like MERGE
        key = (d["orderID"], d["productID"])
        if key in seen or d["orderID"] not in ids["Order"] or d["productID"] not in ids["Product"]:
            continue
        seen.add(key)
        details.append({"a": d["orderID"], "b": d["productID"], "u": d["unitPrice"],
                        "q": int(d["quantity"]), "d": d["discount"]})
    link("ORDERS", "Order", "Product", details,
         "{orderID: x.a, productID: x.b, unitPrice: x.u, quantity: x.q, discount: x.d}")
    counts = table_counts(con)
    con.close()
    return counts


def table_counts(con: Any) -> dict[str, int]:
    """Rows per node and relationship table (the count-for-count check)."""
    out = {}
    for lbl in NODE_TABLES:
        out[lbl] = con.execute(f"MATCH (n:`{lbl}`) RETURN count(n)").get_next()[0]
    for rel in REL_TABLES:
        out[rel] = con.execute(f"MATCH ()-[r:{rel}]->() RETURN count(r)").get_next()[0]
    return out


class MiniKuzuStore:
    """Query-only Kùzu store used when byokg.backends.kuzu is not installed."""

    dialect = "kuzu"
    capabilities = frozenset({"cypher"})

    def __init__(self, path: Path) -> None:
        import kuzu

        self.uri = f"kuzu:{path}"
        self.db = kuzu.Database(str(path), read_only=True)
        self.con = kuzu.Connection(self.db)

    def query(self, cypher: str, params: Mapping[str, Any] | None = None, *,
              timeout_s: float | None = None, row_limit: int | None = None) -> QueryResult:
        t0 = time.perf_counter()
        if timeout_s:
            self.con.set_query_timeout(int(timeout_s * 1000))
        try:
            res = self.con.execute(cypher, dict(params or {}))
        except RuntimeError as exc:
            raise QueryError(str(exc), uri=self.uri) from None
        cols = tuple(res.get_column_names())
        rows, truncated = [], False
        while res.has_next():
            if row_limit is not None and len(rows) >= row_limit:
                truncated = True
                break
            rows.append(tuple(res.get_next()))
        return QueryResult(columns=cols, rows=tuple(rows), truncated=truncated,
                           elapsed_ms=(time.perf_counter() - t0) * 1000)

    def schema(self, *, samples: int = 3) -> GraphSchema:
        labels, rels = [], []
        for (name, typ) in self.query("CALL show_tables() RETURN name, type").rows:
            props = tuple(PropertyInfo(name=r[1], type=r[2]) for r in self.query(
                f"CALL table_info('{name}') RETURN *").rows)
            if typ == "NODE":
                labels.append(NodeLabel(name=name, properties=props))
            else:
                rels.append(RelationType(name=name, properties=props))
        return GraphSchema(node_labels=tuple(labels), relation_types=tuple(rels))

    def close(self) -> None:
        self.con.close()
        self.db.close()


def open_kuzu_store(path: Path) -> Any:
    try:
        from byokg.backends.kuzu import KuzuGraph  # the real backend, when it has landed
    except ImportError:
        return MiniKuzuStore(path)
    return KuzuGraph(f"kuzu:{path}")


# ----------------------------------------------------------------------------- fake LLMs

class ScriptedLLM:
    """Replies from a fixed list, in order; records every prompt."""

    name = "scripted"

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.prompts: list[str] = []

    def complete(self, prompt, *, system=None, max_tokens=None, temperature=None) -> LLMResponse:
        self.prompts.append(prompt)
        if not self.replies:
            raise AssertionError("LLM called more often than scripted")
        return LLMResponse(text=self.replies.pop(0), model=self.name, prompt_tokens=len(prompt))


class SuggestionLLM(ScriptedLLM):
    """Repairs like a careful model would: takes the query from the prompt and swaps each name
    marked NOT FOUND for the first nearest existing one the prompt lists (nothing scripted)."""

    def __init__(self) -> None:
        super().__init__([])

    def complete(self, prompt, *, system=None, max_tokens=None, temperature=None) -> LLMResponse:
        self.prompts.append(prompt)
        query = prompt.split("Query that was run:\n", 1)[1].split("\nResult:", 1)[0]
        query = query.split("\nDatabase error", 1)[0]
        for m in re.finditer(r"(?:label|relation|property|value) '([^']+)'.*?NOT FOUND; "
                             r"nearest existing: '([^']+)'", prompt):
            query = query.replace(m.group(1), m.group(2))
        return LLMResponse(text=f"<cypher>\n{query}\n</cypher>", model=self.name)
