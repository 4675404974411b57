"""Hostile and odd-but-legitimate queries for the guard: payloads (writes, file and network
access, catalogue and session changes) per dialect, the wrappers that tried to smuggle them past
earlier guards (comment, string, escape, parameter, keyword and Unicode tricks), and reads that
look odd but are fine (keywords used as names, comments, strings holding clause words).

``{secret}``, ``{out}``, ``{other}`` and ``{dir}`` are filled with paths by the tests.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- payloads

COMMON_WRITES = [
    "CREATE (:Category {categoryID: 'pwn', categoryName: 'pwn'})",
    "MATCH (c:Category) SET c.categoryName = 'pwn'",
    "MATCH (c:Category) DETACH DELETE c",
    "MATCH (c:Category) DELETE c",
    "MERGE (c:Category {categoryID: 'pwn'})",
    "MATCH (c:Category) REMOVE c.categoryName",
    "CALL { CREATE (:Category {categoryID: 'pwn'}) }",
    "UNWIND [1] AS i CREATE (:Category {categoryID: 'pwn'})",
    "MATCH (c:Category) WITH c SET c.categoryName = 'pwn' RETURN c",
]
KUZU_PAYLOADS = COMMON_WRITES + [
    "COPY (MATCH (c:Category) RETURN c.categoryName) TO '{out}'",
    "LOAD FROM '{secret}' (header=false, file_format='csv') RETURN *",
    "LOAD WITH HEADERS (line STRING) FROM '{secret}' (file_format='csv') RETURN *",
    "ATTACH '{other}' AS o (dbtype kuzu)",
    "CALL threads=1",
    "CALL timeout=1",
    "COMMENT ON TABLE Category IS 'pwn'",
    "EXPORT DATABASE '{dir}/export'",
    "IMPORT DATABASE '{dir}/export'",
    "INSTALL json",
    "LOAD EXTENSION json",
    "LOAD json",
    "UPDATE json",
    "UNINSTALL json",
    "FORCE INSTALL json",
    "CHECKPOINT",
    "BEGIN TRANSACTION",
    "COMMIT",
    "ROLLBACK",
    "CALL CREATE_FTS_INDEX('Category', 'pwn', ['categoryName'])",
    "CALL project_graph('pwn', ['Category'], [])",
    "ALTER TABLE Category ADD pwn INT64",
    "ALTER TABLE Category RENAME TO Pwn",
    "DROP TABLE Category",
    "CREATE NODE TABLE Pwn(id INT64, PRIMARY KEY(id))",
    "CREATE SEQUENCE pwn_seq",
    "CREATE MACRO pwn(x) AS x",
    "USE o",
    "DETACH o",
    "CALL read_csv_serial('{secret}') RETURN *",
    "COPY Category FROM '{secret}'",
    "MATCH (c:Category) RETURN c UNION CREATE (:Category {categoryID: 'pwn'}) RETURN 1",
]
BOLT_PAYLOADS = COMMON_WRITES + [
    "FOREACH (i IN [1] | CREATE (:Category {categoryID: 'pwn'}))",
    "LOAD CSV FROM 'file://{secret}' AS r RETURN r",
    "RETURN sql.eval('INSERT INTO Category SET categoryID = \\'pwn\\'')",
    "CALL sql.eval('CREATE VERTEX TYPE Pwn')",
    "RETURN apoc.cypher.runFirstColumnSingle('CREATE (:Category {categoryID: \"pwn\"})', {})",
    "CALL apoc.create.node(['Category'], {categoryID: 'pwn'})",
    "CALL apoc.load.csv('file://{secret}') YIELD list RETURN list",
    "CALL { MATCH (c:Category) DETACH DELETE c } IN TRANSACTIONS",
    "INSERT (:Category {categoryID: 'pwn'})",
    "CALL db.createLabel('Pwn')",
    "CREATE INDEX pwn FOR (c:Category) ON (c.categoryName)",
    "DROP INDEX pwn",
    "STOP DATABASE neo4j",
    "SHOW USERS",
]

FALKORDB_PAYLOADS = COMMON_WRITES + [
    "LOAD CSV FROM 'file://{secret}' AS r RETURN r",
    "LOAD CSV WITH HEADERS FROM 'file://{secret}' AS r RETURN r",
    "FOREACH (i IN [1] | CREATE (:Category {categoryID: 'pwn'}))",
    "CALL db.idx.fulltext.createNodeIndex('Category', 'categoryName')",
    "CALL db.idx.fulltext.drop('Category')",
    "CREATE INDEX FOR (c:Category) ON (c.categoryName)",
    "CREATE FULLTEXT INDEX FOR (c:Category) ON (c.description)",
    "DROP INDEX ON :Category(categoryName)",
    "CREATE CONSTRAINT ON (c:Category) ASSERT c.categoryID IS UNIQUE",
    "MATCH (c:Category) SET c:Pwn",
    "MATCH (c:Category) REMOVE c:Category",
    "MATCH (c:Category) SET c += {categoryName: 'pwn'}",
    "CALL dbms.procedures()",
    "RETURN sql.eval('x')",
]

# --------------------------------------------------------------------------- wrappers

# ``{w}`` is the payload. Each wrapper is a smuggling form some engine reads differently from
# a naive lexer (see docs/cypher.md).
WRAPPERS = [
    "{w}",
    "MATCH (p:Product) RETURN 1 /* **/ ' */ {w} //'",
    "MATCH (p:Product) RETURN 1 /* **/ {w} /* */",
    "MATCH (p:Product) RETURN 1 /***/ {w}",
    "MATCH (p:Product) RETURN 1 /* a ***/ {w}",
    "MATCH (p:Product) RETURN 1 /* /* */ {w} */",
    "MATCH (p:Product) RETURN 1 // x\r{w}",
    "MATCH (p:Product) RETURN 1 // x\u2028{w}",
    "MATCH (p:Product) RETURN 1 // x\x85{w}",
    "MATCH (p:Product) RETURN 1; {w}",
    "MATCH (p:Product) RETURN 1;\n{w}",
    "MATCH (p:Product) RETURN 1 ;/* */ {w}",
    "RETURN 'a\\' {w} //'",
    "RETURN \"a\\\" {w} //\"",
    "RETURN 'a'' {w} //'",
    "RETURN 'a\\q' + ' {w} //'",
    "RETURN 'a\\x27 {w} //'",
    "RETURN 'a\\u0027 {w} //'",
    "MATCH (c:Category) WHERE c.categoryID = $0{w}",
    "MATCH (c:Category) WHERE c.categoryID = $1{w}",
    "MATCH (c:Category) WHERE c.categoryID = $00{w}",
    "MATCH (c:Category) WHERE c.categoryID = $a${w}",
    "MATCH (c:Category) WHERE c.categoryID = $`x`{w}",
    "MATCH (c:Category) WHERE c.categoryID = 1{w}",
    "MATCH (c:Category) WITH c AS as {w}",
    "MATCH (create:Category) {w}",
    "MATCH (c:Category) RETURN c.categoryName AS show {w}",
    "MATCH (c:Category) RETURN c.categoryName AS `x` {w}",
    "MATCH (c:Category) CALL {{ {w} }} RETURN c",
    "MATCH (c:Category) WITH c, call {{ {w} }} RETURN c",
    "MATCH (c:Category) RETURN c.categoryName + `\u200b{w}` AS x",
    "EXPLAIN {w}",
    "PROFILE {w}",
    "/* leading comment */ {w}",
    "// leading comment\n{w}",
    "\ufeff{w}",
]

# Disguises applied to the payload's first keyword.
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\u180e"]
CONFUSABLE = {"C": "С", "E": "Е", "A": "А", "T": "Т", "O": "О", "P": "Р", "M": "М", "H": "Н",
              "e": "е", "a": "а", "o": "о", "c": "с", "p": "р"}


def disguise(word: str, how: str) -> str:
    if how == "lower":
        return word.lower()
    if how == "fullwidth":
        return "".join(chr(ord(c) + 0xFEE0) if c.isalpha() else c for c in word)
    if how == "confusable":
        return "".join(CONFUSABLE.get(c, c) for c in word)
    if how.startswith("zw"):
        mark = ZERO_WIDTH[int(how[2:]) % len(ZERO_WIDTH)]
        return word[:2] + mark + word[2:]
    return word


DISGUISES = ["plain", "lower", "fullwidth", "confusable", "zw0", "zw3", "zw5"]


def build(wrapper: str, payload: str, how: str = "plain", fill: dict[str, str] | None = None
          ) -> str:
    """``wrapper`` around ``payload`` (placeholders filled, first keyword disguised)."""
    body = payload
    for key, value in (fill or {}).items():
        body = body.replace("{" + key + "}", value)
    first, _, rest = body.partition(" ")
    body = disguise(first, how) + (" " + rest if rest else "")
    return wrapper.replace("{{", "{").replace("}}", "}").replace("{w}", body)


def secret_fill(folder, secret: str) -> dict[str, str]:
    """Placeholders for payloads that reach for files: a secret file written in ``folder``, a
    file to write beside it, another path and the folder itself."""
    path = folder / "secret.csv"
    path.write_text(f"{secret}\n")
    return {"secret": str(path), "out": str(folder / "out.csv"), "other": str(folder / "o"),
            "dir": str(folder)}


def campaign(store, payloads: list[str], fill: dict[str, str], secret: str,
             examples: int = 150) -> tuple[list[str], list[str], list[str]]:
    """Every wrapper around every payload as written, then ``examples`` generated mixes with
    disguised keywords, each through byokg's execution path on ``store``: (tried, accepted,
    leaked) — accepted ran (harmless reads); leaked showed the secret file's content."""
    from hypothesis import HealthCheck
    from hypothesis import given
    from hypothesis import settings
    from hypothesis import strategies as st

    from byokg.cypher.execute import Status
    from byokg.cypher.execute import execute

    tried: list[str] = []
    accepted: list[str] = []
    leaked: list[str] = []

    def attack(q: str) -> None:
        tried.append(q)
        ex = execute(store, q, timeout_s=10, row_limit=20)
        if ex.status is not Status.REJECTED:
            accepted.append(q)
        if secret in repr(ex.result) or secret in (ex.error or ""):
            leaked.append(q)

    for wrapper in WRAPPERS:
        for payload in payloads:
            attack(build(wrapper, payload, "plain", fill))

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(wrapper=st.sampled_from(WRAPPERS), payload=st.sampled_from(payloads),
           how=st.sampled_from(DISGUISES))
    def generated(wrapper, payload, how) -> None:
        attack(build(wrapper, payload, how, fill))

    generated()
    return tried, accepted, leaked


# --------------------------------------------------------------------------- legitimate

# Reads that look odd: keywords as names, clause words in strings and comments, escapes,
# unusual spacing and case. (dialect, query) — "any" runs on every dialect.
LEGIT = [
    ("any", "MATCH (c:Category) RETURN c.categoryName AS show"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS update ORDER BY update"),
    ("any", "MATCH (start:Category) RETURN start.categoryName AS stop"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS set, c.description AS delete"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS create LIMIT 3"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS copy, c.categoryID AS load"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS comment, c.categoryID AS attach"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS `use`, c.categoryID AS detach"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS remove, c.categoryID AS merge"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS install, c.categoryID AS export"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS checkpoint, c.categoryID AS commit"),
    ("any", "MATCH (c:Category) WITH c.categoryName AS show RETURN show ORDER BY show DESC"),
    ("any", "MATCH (set:Category)<-[delete:PART_OF]-(merge:Product) RETURN set.categoryName, "
            "count(merge) AS n ORDER BY n DESC LIMIT 2"),
    ("any", "MATCH (c:Category) WHERE c.categoryName = 'CREATE (x) // DELETE' RETURN c"),
    ("any", "MATCH (c:Category) WHERE c.categoryName = \"a; DETACH DELETE c\" RETURN c"),
    ("any", "MATCH (c:Category) WHERE c.categoryName <> 'it\\'s /* not */ a comment' RETURN c"),
    ("any", "MATCH (c:Category) // CREATE (x)\nRETURN c.categoryName"),
    ("any", "MATCH (c:Category) /* SET c.x = 1; DROP TABLE Category */ RETURN c.categoryName"),
    ("any", "MATCH (c:Category)\r\nRETURN\tc.categoryName ;"),
    ("any", "match (c:Category) return c.categoryName as name order by name skip 1 limit 2"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS `weird name; DROP`"),
    ("any", "MATCH (p:Product) WHERE p.unitPrice > $min AND p.productName STARTS WITH $prefix "
            "RETURN p.productName"),
    ("any", "MATCH (p:Product) RETURN p.productName, p.unitPrice * 2 AS double ORDER BY double "
            "DESC LIMIT 1"),
    ("any", "UNWIND [1, 2, 3] AS transaction RETURN transaction"),
    ("any", "MATCH (c:Category) RETURN count(*) AS `count`"),
    ("any", "MATCH (c:Category) WHERE c.categoryName IN ['Beverages', 'Seafood'] RETURN c.categoryID"),
    ("any", "MATCH (c:Category) RETURN CASE WHEN c.categoryName = 'Seafood' THEN 'fish' "
            "ELSE 'other' END AS kind"),
    ("any", "MATCH (p:Product)-[:PART_OF]->(c:Category) WITH c, count(p) AS n WHERE n > 10 "
            "RETURN c.categoryName, n"),
    ("any", "MATCH (c:Category) RETURN c.categoryName AS name UNION MATCH (s:Supplier) "
            "RETURN s.companyName AS name"),
    ("any", "MATCH (p:Product) WHERE EXISTS { MATCH (p)-[:PART_OF]->(:Category "
            "{categoryName: 'Seafood'}) } RETURN p.productName"),
    ("any", "MATCH (p:Product) RETURN p.productName ORDER BY p.unitPrice DESC, "
            "p.productName ASC LIMIT 5"),
    ("any", "MATCH (a:Product), (b:Product) WHERE a.unitPrice < -1 RETURN a"),
    ("any", "MATCH (c:Category) RETURN toUpper(c.categoryName) AS loud, size(c.description) AS len"),
    ("any", "RETURN 1 AS return"),
    ("neo4j", "MATCH (c:Category) RETURN c {.categoryName, .categoryID} AS m"),
    ("neo4j", "MATCH (p:Product) RETURN [x IN collect(p.unitPrice) WHERE x > 50 | x * 2] AS big"),
    ("neo4j", "MATCH (c:Category) RETURN COUNT { (c)<-[:PART_OF]-() } AS products"),
    ("neo4j", "CALL db.labels() YIELD label RETURN label AS show ORDER BY show"),
    ("neo4j", "MATCH p = shortestPath((a:Category)-[*..4]-(b:Supplier)) RETURN length(p) LIMIT 1"),
    ("kuzu", "MATCH (p:Product) RETURN list_transform(collect(p.unitPrice), x -> x * 2)[1] AS d"),
    ("kuzu", "MATCH (a:Category)-[* SHORTEST 1..4]-(b:Supplier) RETURN count(*) AS n"),
    ("kuzu", "CALL show_tables() RETURN name AS show ORDER BY show"),
    ("kuzu", "CALL table_info('Category') RETURN *"),
    ("kuzu", "MATCH (p:Product) RETURN CAST(p.unitPrice AS INT64) AS price LIMIT 2"),
]
