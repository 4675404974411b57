"""The read-only guard: unit cases, every gold query accepted, property-based smuggling attempts
rejected (counted), and a real Kùzu database unchanged after the attacks ran through the tool's
execution path."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from byokg.plugins.cypher import CypherParams
from byokg.plugins.cypher import CypherTool
from cypher_helpers import MiniKuzuStore
from cypher_helpers import ScriptedLLM
from cypher_helpers import build_northwind_kuzu
from cypher_helpers import table_counts
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from byokg.contracts import Artifacts
from byokg.contracts import QueryResult
from byokg.cypher.execute import Status
from byokg.cypher.execute import execute
from byokg.cypher.guard import GuardVerdict
from byokg.cypher.guard import allowed_procedures
from byokg.cypher.guard import check_query
from byokg.cypher.guard import confirm_with_explain
from byokg.cypher.lexer import LexError
from byokg.cypher.lexer import normalize
from byokg.cypher.lexer import tokenize
from byokg.models.services import Services
from byokg.pipeline.tools import ToolRequest

# ----------------------------------------------------------------------------- unit cases

READS = [
    "MATCH (n:Product) RETURN n.productName",
    "MATCH (n) WHERE n.name = 'CREATE (x)' RETURN n",
    "MATCH (n) WHERE n.name = \"a; DELETE n\" RETURN n",
    "MATCH (n) RETURN n // DELETE n",
    "MATCH (n) /* SET n.x = 1 */ RETURN n",
    "MATCH (n:`DELETE`)-[:`SET`]->(m) RETURN m.`remove`",
    "MATCH (n) RETURN n.set, n.create, n.delete",
    "MATCH (n {create: 1}) RETURN n",
    "MATCH (s:Set)-[:CREATE]->(d:Delete) RETURN s",
    "MATCH (n) RETURN n;",
    "MATCH (n) RETURN n;  // trailing comment",
    "CALL { MATCH (a) RETURN a UNION MATCH (b) RETURN b } RETURN count(*)",
    "MATCH (n) WHERE n.name = 'United People\\'s Party' RETURN n",
    "MATCH (n) WHERE n.name CONTAINS 'merge' RETURN n.name AS `set`",
    "UNWIND [1, 2] AS x RETURN x",
    "MATCH (a)-[:SENT]->(transaction) RETURN transaction.amount",
    "MATCH (commit:Commit) RETURN commit.sha, commit.message",
    "MATCH (s:Show) WITH s.title AS title RETURN title",
]

WRITES = [
    ("CREATE (n:X)", "CREATE"),
    ("MATCH (n) SET n.x = 1", "SET"),
    ("MATCH (n) DETACH DELETE n", "DETACH"),
    ("MATCH (n) delete n", "DELETE"),
    ("MERGE (n:X {id: 1})", "MERGE"),
    ("MATCH (n) REMOVE n.x", "REMOVE"),
    ("DROP TABLE Product", "DROP"),
    ("LOAD CSV FROM 'file:///x.csv' AS r RETURN r", "LOAD"),
    ("LOAD FROM 'x.csv' RETURN *", "LOAD"),
    ("FOREACH (x IN [1] | CREATE (:X))", "FOREACH"),
    ("COPY Product FROM 'p.csv'", "COPY"),
    ("INSTALL fts", "INSTALL"),
    ("LOAD EXTENSION fts", "LOAD"),
    ("ALTER TABLE Product ADD x INT64", "ALTER"),
    ("EXPORT DATABASE '/tmp/x'", "EXPORT"),
    ("ATTACH '/tmp/x' AS y (dbtype kuzu)", "ATTACH"),
    ("MATCH (n) RETURN n; MATCH (m) DELETE m", ";"),
    ("MATCH (n) RETURN n; RETURN 1", ";"),
    ("MATCH (n) CALL { WITH n RETURN n } IN TRANSACTIONS RETURN n", "TRANSACTIONS"),
    ("MATCH (n) CALL { WITH n RETURN n } IN 3 CONCURRENT TRANSACTIONS OF 10 ROWS RETURN n",
     "TRANSACTIONS"),
    ("MATCH (n) CALL (n) { RETURN n } IN TRANSACTIONS RETURN n", "TRANSACTIONS"),
    ("CALL apoc.create.node(['X'], {})", "CALL"),
    ("CALL db.createLabel('X')", "CALL"),
    ("CALL threads = 4", "CALL"),
    ("RETURN apoc.cypher.runFirstColumnSingle('CREATE (n) RETURN n', {})", "apoc"),
    ("RETURN `apoc`.`cypher`.runFirstColumnSingle('CREATE (n) RETURN n', {})", "apoc"),
    ("RETURN `apoc.cypher.runFirstColumnSingle`('CREATE (n) RETURN n', {})", "apoc"),
    ("RETURN apoc . cypher . runFirstColumnSingle('CREATE (n) RETURN n', {})", "apoc"),
    ("CALL `apoc`.`create`.node(['X'], {})", "CALL"),
    ("MATCH (n) ＳＥＴ n.x = 1", "SET"),
    ("MATCH (n) DE\u200bLETE n", "DELETE"),
    ("MATCH (n) \u0421R\u0415\u0410\u0422\u0415 (m)", "CREATE"),  # Cyrillic С, Е, А, Т, Е
    ("RETURN 'a\\' CREATE (n) //'", "CREATE"),
    ("USE other MATCH (n) RETURN n", "USE"),
    ("MATCH (n) RETURN n // x\rCREATE (m)", "CREATE"),  # ArcadeDB ends // comments at \r
    ("MATCH (n) RETURN n // x\r\nDETACH DELETE n", "DETACH"),
    ("MATCH (n) WHERE n.name = 'a\x00' RETURN n", "U+0000"),
]


@pytest.mark.parametrize("query", READS)
def test_reads_are_allowed(query: str) -> None:
    v = check_query(query, dialect="neo4j")
    assert isinstance(v, GuardVerdict)
    assert v.allowed, v.reason
    assert v.keywords_found == ()


@pytest.mark.parametrize(("query", "keyword"), WRITES)
def test_writes_are_rejected(query: str, keyword: str) -> None:
    for dialect in ("neo4j", "kuzu", "neptune-analytics"):
        v = check_query(query, dialect=dialect)
        assert not v.allowed, (dialect, query)
        assert v.reason
        assert any(keyword.lower() in k.lower() for k in v.keywords_found), v.keywords_found


def test_procedure_allow_list_per_dialect() -> None:
    assert check_query("CALL db.labels() YIELD label RETURN label", dialect="neo4j").allowed
    assert check_query(
        "CALL db.index.fulltext.queryNodes('names', 'chai') YIELD node, score RETURN node",
        dialect="neo4j").allowed
    assert not check_query("CALL db.labels()", dialect="kuzu").allowed
    assert check_query("CALL show_tables() RETURN *", dialect="kuzu").allowed
    assert check_query("CALL QUERY_FTS_INDEX('Product', 'idx', 'chai') RETURN *",
                       dialect="kuzu").allowed
    assert not check_query("CALL CREATE_FTS_INDEX('Product', 'idx', ['name'])",
                           dialect="kuzu").allowed
    assert check_query("CALL neptune.graph.pg_schema() YIELD schema RETURN schema",
                       dialect="neptune-analytics").allowed
    assert not check_query("CALL neptune.algo.pageRank.mutate({})",
                           dialect="neptune-analytics").allowed
    # a user may extend the allow-list for their own read-only procedures
    assert check_query("CALL my.reader()", dialect="neo4j", extra_procedures=["my.reader"]).allowed
    assert "db.labels" in allowed_procedures("neo4j")
    v = check_query("CALL db.labels() YIELD label RETURN label", dialect="neo4j")
    assert v.procedures == ("db.labels",)


def test_normalisation_and_lexer_errors() -> None:
    text, notes = normalize("ＭＡＴＣＨ (n)\u200b RETURN n")
    assert text == "MATCH (n) RETURN n"
    assert notes
    with pytest.raises(LexError):
        tokenize("RETURN 'unterminated")
    v = check_query("MATCH (n) RETURN 'open")
    assert not v.allowed and "cannot parse" in v.reason
    assert not check_query("").allowed
    assert not check_query("// only a comment").allowed
    assert check_query("MATCH (n) RETURN n;").normalized_query == "MATCH (n) RETURN n"


class _ExplainStore:
    capabilities = frozenset({"cypher", "explain"})

    def __init__(self, qtype: str | None, reliable: bool = True) -> None:
        self.qtype, self.reliable = qtype, reliable

    def explain(self, cypher, params=None):
        if self.qtype is None:
            return {}
        return {"query_type": self.qtype, "server_query_type_reliable": self.reliable}


def test_explain_confirmation() -> None:
    v = check_query("MATCH (n) RETURN n")
    assert confirm_with_explain(_ExplainStore("r"), v).allowed
    w = confirm_with_explain(_ExplainStore("rw"), v)
    assert not w.allowed and "rw" in w.reason
    assert confirm_with_explain(_ExplainStore(None), v).allowed  # no query type: lexical decides
    # ArcadeDB says "w" for every EXPLAIN; the backend flags that, and the lexer decides
    assert confirm_with_explain(_ExplainStore("w", reliable=False), v).allowed


# ----------------------------------------------------------------------------- gold queries

def test_every_gold_query_is_accepted(gold_queries: dict[str, list[str]]) -> None:
    total = accepted = 0
    rejected: list[str] = []
    for name, queries in gold_queries.items():
        for q in queries:
            for dialect in ("neo4j", "kuzu"):
                total += 1
                v = check_query(q, dialect=dialect)
                if v.allowed:
                    accepted += 1
                else:
                    rejected.append(f"{name} [{dialect}]: {v.reason}: {q[:120]!r}")
    n_files = len(gold_queries)
    print(f"\ngold queries accepted: {accepted}/{total} ({n_files} files, 2 dialects)")
    assert n_files == 3  # two Northwind CSVs with a cypher column + CypherBench sample
    assert total >= 2 * 1400
    assert accepted == total, "\n".join(rejected[:20])


# ----------------------------------------------------------------------------- attacks

WRITE_CLAUSES = [
    "CREATE (x:Product {productID: 'pwn'})",
    "MERGE (x:Category {categoryID: 'pwn'})",
    "SET p.productName = 'pwn'",
    "DELETE p",
    "DETACH DELETE p",
    "REMOVE p.productName",
    "FOREACH (i IN [1] | CREATE (:Category {categoryID: 'pwn'}))",
    "CALL { CREATE (:Category {categoryID: 'pwn'}) }",
    "CALL { CALL { MATCH (c:Category) DETACH DELETE c } }",
    "CALL { MATCH (c:Category) DELETE c } IN TRANSACTIONS",
    "CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DELETE n', {})",
    "CALL CREATE_FTS_INDEX('Product', 'pwn', ['productName'])",
    "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
    "COPY Category FROM '/tmp/pwn.csv'",
    "DROP TABLE Category",
    "ALTER TABLE Product ADD pwn INT64",
    "INSTALL httpfs",
    "LOAD EXTENSION httpfs",
    "RETURN apoc.cypher.runFirstColumnSingle('MATCH (c:Category) DETACH DELETE c', {})",
    "CALL apoc.cypher.doIt('MATCH (c:Category) DETACH DELETE c', {})",
    "WITH p CALL (p) { SET p.productName = 'pwn' }",
]
PREFIXES = [
    "MATCH (p:Product) ",
    "MATCH (p:Product) WITH p ",
    "MATCH (p:Product) WHERE p.productName = 'Chai' ",
    "MATCH (p:Product) RETURN p; ",
    "MATCH (p:Product) RETURN p;\n",
    "MATCH (p:Product) WHERE p.productName = 'x\\' ",  # escape boundary: quote closes here
    "MATCH (p:`Product`) ",
    "MATCH (p:Product) /* comment */ ",
    "MATCH (p:Product) // line comment\n",
    "MATCH (p:Product) RETURN p // ArcadeDB ends this comment here\r",
    "MATCH (p:Product) WHERE p.productName <> \"it's\" ",
    "MATCH (p:Product) WHERE p.productName = '/*' ",
]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e"]
CONFUSABLE = {"C": "С", "E": "Е", "A": "А", "T": "Т", "O": "О", "P": "Р", "M": "М", "H": "Н",
              "e": "е", "a": "а", "o": "о", "c": "с", "p": "р"}
WRITE_WORDS = {"CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "FOREACH", "CALL",
               "LOAD", "COPY", "DROP", "ALTER", "INSTALL", "TRANSACTIONS"}

ATTACKS = {"tried": 0, "accepted": 0, "examples": []}


@st.composite
def disguised_word(draw: st.DrawFn, word: str) -> str:
    out = []
    for ch in word:
        style = draw(st.sampled_from(["plain", "lower", "fullwidth", "confusable", "zw"]))
        c = ch.lower() if style == "lower" or draw(st.booleans()) else ch
        if style == "fullwidth" and c.isalpha():
            c = chr(ord(c) + 0xFEE0)
        elif style == "confusable":
            c = CONFUSABLE.get(c, c)
        out.append(c)
        if style == "zw":
            out.append(draw(st.sampled_from(ZERO_WIDTH)))
    return "".join(out)


@st.composite
def attack(draw: st.DrawFn) -> str:
    clause = draw(st.sampled_from(WRITE_CLAUSES))
    # disguise every write keyword of the clause (only whole words; tokens stay tokens)
    parts = []
    for w in clause.split(" "):
        parts.append(draw(disguised_word(w)) if w.upper() in WRITE_WORDS else w)
    sep = draw(st.sampled_from([" ", "\n", "\t", " /* x */ ", "\u3000", "\u00a0", " // c\n",
                                "\r", "\r\n", " // c\r", "\u2028", "\x0b", " // '\r"]))
    body = sep.join(parts)
    prefix = draw(st.sampled_from(PREFIXES))
    suffix = draw(st.sampled_from(["", " RETURN 1", ";", " // '", " RETURN 'x'", " */"]))
    return prefix + body + suffix


@pytest.fixture(scope="module")
def writable_kuzu(tmp_path_factory: pytest.TempPathFactory):
    """A *writable* Kùzu Northwind: only the guard stands between an attack and the data."""
    path = tmp_path_factory.mktemp("attack") / "nw.kuzu"
    build_northwind_kuzu(path)

    class Writable(MiniKuzuStore):
        def __init__(self, p: Path) -> None:
            import kuzu

            self.uri = f"kuzu:{p}"
            self.db = kuzu.Database(str(p))
            self.con = kuzu.Connection(self.db)
            self.sent: list[str] = []

        def query(self, cypher, params=None, **kw) -> QueryResult:
            self.sent.append(cypher)
            return super().query(cypher, params, **kw)

    store = Writable(path)
    before = table_counts(store.con)
    yield store, before
    store.close()


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(q=attack())
def test_smuggled_writes_are_rejected(q: str, writable_kuzu) -> None:
    store, _ = writable_kuzu
    ATTACKS["tried"] += 1
    verdicts = [check_query(q, dialect=d) for d in ("neo4j", "kuzu")]
    ex = execute(store, q, timeout_s=5, row_limit=10)  # the tool's execution path
    if any(v.allowed for v in verdicts) or ex.status is not Status.REJECTED:
        ATTACKS["accepted"] += 1
        ATTACKS["examples"].append(q)
    assert not any(v.allowed for v in verdicts), q
    assert ex.status is Status.REJECTED, (q, ex.status, ex.error)


def test_attack_summary_and_database_unchanged(writable_kuzu) -> None:
    store, before = writable_kuzu
    print(f"\nattack cases tried: {ATTACKS['tried']}, accepted writes: {ATTACKS['accepted']}")
    assert ATTACKS["tried"] >= 100  # the property test above ran
    assert ATTACKS["accepted"] == 0, ATTACKS["examples"][:5]
    assert store.sent == []  # no attack reached the database
    # the fixed attack list too, through the execution path and through the tool itself
    for q, _ in WRITES:
        assert execute(store, q, timeout_s=5).status is Status.REJECTED, q
    llm = ScriptedLLM([])  # a rejection must never reach the repair LLM
    for q, _ in WRITES:
        res = CypherTool().run(ToolRequest(
            question="q", store=store, services=Services(llm=llm),
            params=CypherParams(max_queries=1), artifacts=Artifacts(cypher=(q,))))
        assert res.counts.get("cypher_rejected") == 1, q
        # no rows: only the line telling the next prompt the query was refused, and why
        assert [(it.kind, it.text.splitlines()[-1].split(":")[0]) for it in res.items] == [
            ("query-failed", "Failed")] and "refused" in res.items[0].text, q
    assert llm.prompts == [] and store.sent == []
    assert table_counts(store.con) == before


def test_count_check_detects_a_write(tmp_path: Path) -> None:
    """Control: the count-for-count check does see a write that bypasses the guard."""
    import kuzu

    path = tmp_path / "ctl.kuzu"
    before = build_northwind_kuzu(path)
    db = kuzu.Database(str(path))
    con = kuzu.Connection(db)
    con.execute("CREATE (:Category {categoryID: 'pwn'})")
    after = table_counts(con)
    con.close()
    db.close()
    shutil.rmtree(path, ignore_errors=True)
    assert after["Category"] == before["Category"] + 1
