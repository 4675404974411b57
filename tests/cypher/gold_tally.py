"""Running the Northwind gold queries on a store and tallying them against Kùzu's gold rows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field

from benchmarks.bench_cypher import same_rows
from byokg.cypher.execute import Status
from byokg.cypher.execute import execute


@dataclass
class GoldTally:
    gold_ok: int = 0  # gold queries Kùzu answered
    runs: int = 0  # ... of which ran here
    agree: int = 0  # ... with the same rows as Kùzu's
    limit_only: int = 0  # ... with other rows, under a LIMIT (engine order picks the rows)
    gold_err: int = 0  # gold queries that failed on Kùzu
    gold_err_run: int = 0  # ... of which ran here
    errors: dict[str, int] = field(default_factory=dict)  # error message head -> count


def tally_gold(store, recs) -> GoldTally:
    """Execute every record's ``cypher`` through the tool's path and compare with the gold."""
    t = GoldTally()
    for rec in recs:
        ex = execute(store, rec["cypher"], timeout_s=20, row_limit=5000)
        ran = ex.status in (Status.OK, Status.EMPTY)
        if not ran:
            key = (ex.error or "").split("failed: ", 1)[-1][:70]
            t.errors[key] = t.errors.get(key, 0) + 1
        if rec["kuzu_status"] == "ok":
            t.gold_ok += 1
            t.runs += ran
            if ran and same_rows(ex.result.rows, rec["kuzu_rows"]):
                t.agree += 1
            elif ran and re.search(r"\bLIMIT\b", rec["cypher"], re.I):
                t.limit_only += 1
        else:
            t.gold_err += 1
            t.gold_err_run += ran
    return t
