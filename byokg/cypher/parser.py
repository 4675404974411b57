"""A recursive-descent parser for the *read* subset of Cypher (openCypher, Neo4j 5, Kùzu).

The guard accepts a query only when this parser reads all of it as read clauses. There is no
rule for CREATE, MERGE, SET, DELETE, REMOVE, FOREACH, LOAD, COPY, USE … at all, so a write is
rejected because it cannot be parsed, not because a word list happened to contain it; and a
keyword in a name position (``AS show``, ``MATCH (start:Category)``, ``n.update``) is a name,
as it is to the engines. The grammar is the union of the engines' read syntax:

* clauses: ``[OPTIONAL] MATCH`` (with Neo4j ``USING`` / Kùzu ``HINT`` hints), ``UNWIND``,
  ``WITH``, ``RETURN``, ``CALL { … }`` / ``CALL (x) { … }`` subqueries, ``[OPTIONAL] CALL
  proc(…) [YIELD …]``, ``UNION [ALL]``;
* patterns: node and relationship patterns, label expressions, variable length and Kùzu's
  recursive forms (``* SHORTEST 1..3 (e, n | WHERE …)``), quantified path patterns,
  ``shortestPath`` and Neo4j path selectors;
* expressions: the usual operators, ``CASE``, list / pattern comprehensions, map literals and
  projections, ``EXISTS`` / ``COUNT`` / ``COLLECT`` subqueries, quantifiers, ``reduce``,
  ``CAST``, Kùzu lambdas (``x -> …``) and named arguments (``top := 5``).

The parser records every function and procedure it reads (:class:`ParseResult`) so the guard
can check them against the dialect's allow-list. Depth is capped (:data:`MAX_DEPTH`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from dataclasses import field

from .lexer import Kind
from .lexer import Token

MAX_DEPTH = 1500  # nested brackets / subqueries; deeper input is refused, not crashed on

# Clause-level words the parser knows are writes or admin commands (only for messages: the
# grammar has no rule for them, so they are rejected wherever a clause is expected).
WRITE_CLAUSES = frozenset(
    """CREATE MERGE SET DELETE DETACH NODETACH REMOVE FOREACH LOAD COPY INSTALL UNINSTALL
    IMPORT EXPORT ATTACH USE CHECKPOINT BEGIN COMMIT ROLLBACK GRANT REVOKE DENY RENAME START
    STOP TERMINATE ENABLE DISABLE SHOW UPDATE INSERT TRUNCATE UPSERT DROP ALTER COMMENT FORCE
    FINISH EXPLAIN PROFILE DEALLOCATE REALLOCATE""".split()
)

_COMPARISON = frozenset({"=", "<>", "!=", "<", ">", "<=", ">=", "=~"})
_PREC = {"OR": 1, "XOR": 2, "AND": 3, "CMP": 5, "PRED": 6, "+": 7, "-": 7, "||": 7,
         "*": 8, "/": 8, "%": 8, "^": 9}
_NOT_PREC = 4
_QUANTIFIERS = frozenset({"ALL", "ANY", "NONE", "SINGLE"})
_KUZU_RECURSIVE = frozenset({"SHORTEST", "TRAIL", "ACYCLIC"})
_SORT = frozenset({"ASC", "ASCENDING", "DESC", "DESCENDING"})
_CLAUSE_START = frozenset({"MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN", "CALL"})


class ParseError(ValueError):
    """The query is not a read query this parser understands."""

    def __init__(self, message: str, token: Token | None, keyword: str = "") -> None:
        self.token = token
        self.keyword = keyword  # a write/admin keyword found where a clause was expected
        where = f" at offset {token.start}" if token is not None else " at the end"
        super().__init__(message + where)


@dataclass
class ParseResult:
    """What the query calls: functions and procedures (dotted names, as written)."""

    functions: list[str] = field(default_factory=list)
    procedures: list[str] = field(default_factory=list)
    subqueries: int = 0
    # the sort keys of the last projection read (the final RETURN's), as written
    order_by: tuple[str, ...] = ()


FRAMES_PER_LEVEL = 14  # Python frames one nesting level of the grammar takes (at most)


def depth_budget() -> int:
    """How deep a query may nest for this parse: :data:`MAX_DEPTH`, or less when the process's
    recursion limit leaves less room (the parser never changes the limit: a process setting)."""
    frames, f = 0, sys._getframe()
    while f is not None:
        frames += 1
        f = f.f_back
    room = sys.getrecursionlimit() - frames - 60
    return max(4, min(MAX_DEPTH, room // FRAMES_PER_LEVEL))


class _Backtrack(Exception):
    """Internal: an alternative did not match; the caller tries the next one."""


class Parser:
    """Parse a list of code tokens (comments removed) as one read statement."""

    def __init__(self, tokens: list[Token]) -> None:
        self.toks = tokens
        self.pos = 0
        self.depth = 0
        self.max_depth = MAX_DEPTH
        self.result = ParseResult()
        self.closing = _closing_brackets(tokens)

    # ------------------------------------------------------------------ token helpers
    def text_between(self, a: int, b: int) -> str:
        """The text of tokens ``a`` to ``b`` (exclusive) as written, gaps as one space."""
        out: list[str] = []
        for i in range(a, b):
            if out and self.toks[i - 1].end < self.toks[i].start:
                out.append(" ")
            out.append(self.toks[i].text)
        return "".join(out)

    def peek(self, k: int = 0) -> Token | None:
        i = self.pos + k
        return self.toks[i] if i < len(self.toks) else None

    def at_word(self, *words: str, k: int = 0) -> bool:
        t = self.peek(k)
        return t is not None and t.is_word(*words)

    def at_punct(self, *ps: str, k: int = 0) -> bool:
        t = self.peek(k)
        return t is not None and t.is_punct(*ps)

    def at_name(self, k: int = 0) -> bool:
        t = self.peek(k)
        return t is not None and t.kind in (Kind.WORD, Kind.NAME)

    def advance(self) -> Token:
        t = self.peek()
        if t is None:
            raise ParseError("unexpected end of query", None)
        self.pos += 1
        return t

    def accept_word(self, *words: str) -> bool:
        """Consume the next token if it is one of ``words``; whether it was."""
        if self.at_word(*words):
            self.advance()
            return True
        return False

    def accept_punct(self, *ps: str) -> bool:
        """Consume the next token if it is one of the punctuation marks ``ps``; whether it was."""
        if self.at_punct(*ps):
            self.advance()
            return True
        return False

    def fail(self, what: str) -> ParseError:
        t = self.peek()
        if t is None:
            return ParseError(f"expected {what}", None)
        return ParseError(f"expected {what}, found {t.text!r}", t)

    def expect_punct(self, *ps: str) -> Token:
        if not self.at_punct(*ps):
            raise self.fail(" or ".join(repr(p) for p in ps))
        return self.advance()

    def expect_word(self, *words: str) -> Token:
        if not self.at_word(*words):
            raise self.fail(" or ".join(words))
        return self.advance()

    def name(self) -> Token:
        if not self.at_name():
            raise self.fail("a name")
        return self.advance()

    def attempt(self, fn, *args):  # noqa: ANN001, ANN202 - small internal helper
        """Run ``fn``; on a syntax mismatch rewind and return None (backtracking)."""
        saved = (self.pos, len(self.result.functions), len(self.result.procedures), self.depth)
        try:
            return fn(*args)
        except (ParseError, _Backtrack):
            self.pos, self.depth = saved[0], saved[3]
            del self.result.functions[saved[1]:]
            del self.result.procedures[saved[2]:]
            return None

    def where(self) -> None:
        """An optional ``WHERE expr``."""
        if self.accept_word("WHERE"):
            self.expr()

    def comma_list(self, item) -> None:  # noqa: ANN001 - a parser method
        item()
        while self.accept_punct(","):
            item()

    def binding(self) -> None:
        """An optional path variable: ``p = …``."""
        if self.at_name() and self.at_punct("=", k=1):
            self.advance()
            self.advance()

    def nest(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            why = "" if self.max_depth >= MAX_DEPTH else (
                " (the depth this process's recursion limit allows; the byokg CLI raises it, "
                "a program may call sys.setrecursionlimit)")
            raise ParseError(f"query nested more than {self.max_depth} levels deep{why}",
                             self.peek())

    # ------------------------------------------------------------------ statements
    def statement(self) -> ParseResult:
        self.max_depth = depth_budget()
        if not self.toks:
            raise ParseError("empty query", None)
        self.query()
        self.accept_punct(";")
        t = self.peek()
        if t is not None:
            if self.toks[self.pos - 1].is_punct(";"):
                raise ParseError("multiple statements: ';' followed by more text", t, ";")
            raise self._unexpected("the end of the query")
        return self.result

    def query(self, *, need_return: bool = True) -> None:
        self.single_query(need_return=need_return)
        while self.accept_word("UNION"):
            self.accept_word("ALL", "DISTINCT")
            self.single_query(need_return=need_return)

    def single_query(self, *, need_return: bool) -> None:
        last = ""
        while True:
            t = self.peek()
            if t is None or t.is_punct(";", "}") or t.is_word("UNION"):
                break
            if last == "RETURN":
                raise self._unexpected("the end of the query after RETURN")
            last = self.clause()
        if not last:
            raise self._unexpected("a read clause (MATCH, UNWIND, WITH, CALL or RETURN)")
        if need_return and last not in ("RETURN", "PROC"):
            raise ParseError("a read query must end with RETURN (or be a procedure call)",
                             self.peek())

    def clause(self) -> str:
        t = self.peek()
        assert t is not None
        up = t.upper
        if t.kind is Kind.WORD and (up == "MATCH" or (up == "OPTIONAL" and self.at_word(
                "MATCH", k=1))):
            self.match_clause()
            return "MATCH"
        if up == "UNWIND":
            self.advance()
            self.expr()
            self.expect_word("AS")
            self.name()
            return "UNWIND"
        if up in ("WITH", "RETURN"):
            self.advance()
            self.projection()
            if up == "WITH" and self.accept_word("WHERE"):
                self.expr()
            return up
        if up == "CALL" or (up == "OPTIONAL" and self.at_word("CALL", k=1)):
            return self.call_clause()
        raise self._unexpected("a read clause (MATCH, UNWIND, WITH, CALL or RETURN)")

    def _unexpected(self, what: str) -> ParseError:
        t = self.peek()
        if t is not None and t.kind is Kind.WORD and t.upper in WRITE_CLAUSES:
            return ParseError(f"write or admin clause {t.upper} is not allowed in a read-only "
                              "query", t, t.upper)
        if t is not None and t.is_punct(";"):
            return ParseError("multiple statements: ';' followed by more text", t, ";")
        return self.fail(what)

    # ------------------------------------------------------------------ clauses
    def match_clause(self) -> None:
        self.accept_word("OPTIONAL")
        self.expect_word("MATCH")
        if self.accept_word("REPEATABLE", "DIFFERENT"):  # Neo4j match modes
            self.expect_word("ELEMENTS", "ELEMENT", "RELATIONSHIPS", "RELATIONSHIP")
        self.pattern_list()
        while self.at_word("USING"):
            self.using_hint()
        if self.accept_word("HINT"):
            self.join_hint()
        self.where()

    def using_hint(self) -> None:
        """Neo4j planner hints: ``USING [TEXT|RANGE|POINT] INDEX [SEEK] n:L(p)``, ``USING
        SCAN n:L``, ``USING JOIN ON a, b``."""
        self.expect_word("USING")
        if self.accept_word("JOIN"):
            self.expect_word("ON")
            self.comma_list(self.name)
            return
        if self.accept_word("SCAN"):
            self.name()
            self.expect_punct(":")
            self.name()
            return
        self.accept_word("TEXT", "RANGE", "POINT", "BTREE")
        self.expect_word("INDEX")
        self.accept_word("SEEK")
        self.name()
        self.expect_punct(":")
        self.name()
        self.expect_punct("(")
        self.comma_list(self.name)
        self.expect_punct(")")

    def join_hint(self) -> None:
        """Kùzu: ``HINT (a JOIN (b JOIN c)) MULTI_JOIN d``."""
        self.nest()
        if self.accept_punct("("):
            self.join_hint()
            self.expect_punct(")")
        else:
            self.name()
        while self.accept_word("JOIN", "MULTI_JOIN"):
            self.join_hint()
        self.depth -= 1

    def projection(self) -> None:
        self.accept_word("DISTINCT")
        if self.at_punct("*"):
            self.advance()
        else:
            self.comma_list(self.projection_item)
        keys: list[str] = []
        if self.at_word("ORDER") and self.at_word("BY", k=1):
            self.advance()
            self.advance()
            while True:
                start = self.pos
                self.expr()
                keys.append(self.text_between(start, self.pos))
                self.accept_word(*_SORT)
                if not self.at_punct(","):
                    break
                self.advance()
        self.result.order_by = tuple(keys)
        if self.accept_word("SKIP", "OFFSET"):
            self.expr()
        if self.accept_word("LIMIT"):
            self.expr()

    def projection_item(self) -> None:
        self.expr()
        if self.accept_word("AS"):
            self.name()

    def call_clause(self) -> str:
        self.accept_word("OPTIONAL")
        call = self.expect_word("CALL")
        if self.at_punct("{"):
            self.subquery_block()
            self._no_transactions()
            return "CALL"
        if self.accept_punct("("):  # Neo4j 5: CALL (a, b) { … } / CALL (*) { … }
            if self.at_punct("*"):
                self.advance()
            elif not self.at_punct(")"):
                self.comma_list(self.name)
            self.expect_punct(")")
            self.subquery_block()
            self._no_transactions()
            return "CALL"
        if not self.at_name():
            raise ParseError("CALL without a procedure", call, "CALL")
        proc = self.qualified_name()
        if self.at_punct("=", ":="):
            raise ParseError(f"CALL {proc} = … changes a database setting", call, "CALL")
        self.result.procedures.append(proc)
        if self.at_punct("("):
            self.arguments()
        self.where()
        if self.accept_word("YIELD"):
            if self.at_punct("*"):
                self.advance()
            else:
                self.comma_list(self._yield_item)
            self.where()
        return "PROC"

    def _yield_item(self) -> None:
        self.name()
        if self.accept_word("AS"):
            self.name()

    def _no_transactions(self) -> None:
        if self.at_word("IN"):
            raise ParseError("CALL { … } IN TRANSACTIONS is not allowed in a read-only query",
                             self.peek(), "TRANSACTIONS")

    def subquery_block(self) -> None:
        self.nest()
        self.expect_punct("{")
        self.result.subqueries += 1
        self.query()
        self.expect_punct("}")
        self.depth -= 1

    def qualified_name(self) -> str:
        parts = [self._name_text(self.name())]
        while self.at_punct(".") and self.at_name(k=1):
            self.advance()
            parts.append(self._name_text(self.advance()))
        return ".".join(parts)

    @staticmethod
    def _name_text(t: Token) -> str:
        return t.value if t.kind is Kind.NAME else t.text

    # ------------------------------------------------------------------ patterns
    def pattern_list(self) -> None:
        self.comma_list(self.pattern)

    def pattern(self) -> None:
        self.binding()
        self.path_selector()
        if self.at_word("SHORTESTPATH", "ALLSHORTESTPATHS") and self.at_punct("(", k=1):
            self.advance()
            self.advance()
            self.path_element()
            self.expect_punct(")")
            return
        self.path_element()

    def path_selector(self) -> None:
        """Neo4j 5 selectors: ``ALL [SHORTEST]``, ``ANY [SHORTEST] [k]``, ``SHORTEST k``."""
        if not self.at_word("ALL", "ANY", "SHORTEST"):
            return
        self.advance()
        self.accept_word("SHORTEST")
        if self.peek() is not None and self.peek().kind is Kind.NUMBER:
            self.advance()
        self.accept_word("PATH", "PATHS", "GROUP", "GROUPS")

    def path_element(self) -> None:
        self.nest()
        self.path_factor()
        while True:
            if self.at_punct("-", "<-"):
                self.relationship()
                self.path_factor()
            elif self.at_punct("("):
                self.path_factor()  # quantified path patterns are juxtaposed
            else:
                break
        self.depth -= 1

    def path_factor(self) -> None:
        if self.attempt(self.node_pattern) is not None:
            return
        self.expect_punct("(")
        self.binding()
        self.path_element()
        self.where()
        self.expect_punct(")")
        self.quantifier()

    def quantifier(self) -> None:
        if self.at_punct("+", "*"):
            self.advance()
        elif self.at_punct("{") and self._number_or("}", k=1):
            self.advance()
            if self.peek() is not None and self.peek().kind is Kind.NUMBER:
                self.advance()
            if self.accept_punct(","):
                if self.peek() is not None and self.peek().kind is Kind.NUMBER:
                    self.advance()
            self.expect_punct("}")

    def _number_or(self, p: str, k: int) -> bool:
        t = self.peek(k)
        return t is not None and (t.kind is Kind.NUMBER or t.is_punct(p, ","))

    def node_pattern(self) -> bool:
        self.expect_punct("(")
        if self.at_name() and not self.at_punct("(", ".", k=1):
            if not self.at_word("WHERE") or self.at_punct(":", ")", "{", k=1):
                self.advance()
        if self.at_punct(":"):
            self.label_expression()
        elif self.accept_word("IS"):
            self.label_or()
        self.properties()
        self.where()
        self.expect_punct(")")
        return True

    def properties(self) -> None:
        """A pattern's optional properties: a map literal or a parameter."""
        if self.at_punct("{"):
            self.map_literal()
        elif self.peek() is not None and self.peek().kind is Kind.PARAM:
            self.advance()

    def label_expression(self) -> None:
        self.expect_punct(":")
        self.label_or()

    def label_or(self) -> None:
        self.label_and()
        while self.accept_punct("|"):
            self.accept_punct(":")
            self.label_and()

    def label_and(self) -> None:
        self.label_not()
        while self.accept_punct("&", ":"):
            self.label_not()

    def label_not(self) -> None:
        self.nest()
        if self.accept_punct("!"):
            self.label_not()
        elif self.at_punct("%"):
            self.advance()
        elif self.accept_punct("("):
            self.label_or()
            self.expect_punct(")")
        else:
            self.name()
        self.depth -= 1

    def relationship(self) -> None:
        left = self.advance()  # "-" or "<-"
        if self.accept_punct("["):
            self.rel_detail()
            self.expect_punct("]")
        if not self.at_punct("-", "->"):
            raise self.fail(f"'-' or '->' closing the relationship opened by {left.text!r}")
        self.advance()
        self.quantifier()

    def rel_detail(self) -> None:
        if self.at_name() and not self.at_word("WHERE"):
            self.advance()
        if self.at_punct(":"):
            self.label_expression()
        if self.at_punct("*"):
            self.variable_length()
        self.properties()
        self.where()

    def variable_length(self) -> None:
        """``*``, ``*3``, ``*1..3``, ``*..$n``, Kùzu ``* SHORTEST 1..3 (e, n | WHERE …)``."""
        self.expect_punct("*")
        if self.at_word("ALL") and self.at_word("SHORTEST", "WSHORTEST", k=1):
            self.advance()
        if self.at_word(*_KUZU_RECURSIVE):
            self.advance()
        elif self.accept_word("WSHORTEST"):
            self.expect_punct("(")
            self.name()
            self.expect_punct(")")
        if self._bound():
            self.advance()
        if self.accept_punct(".."):
            if self._bound():
                self.advance()
        if self.at_punct("(") and self.at_name(k=1) and self.at_punct(",", k=2):
            self.recursive_filter()

    def _bound(self) -> bool:
        t = self.peek()
        return t is not None and t.kind in (Kind.NUMBER, Kind.PARAM)

    def recursive_filter(self) -> None:
        """Kùzu: ``(e, n | WHERE cond | {props}, {props})``."""
        self.expect_punct("(")
        self.name()
        self.expect_punct(",")
        self.name()
        if self.at_punct("|") and self.at_word("WHERE", k=1):
            self.advance()
            self.advance()
            self.expr()
        if self.accept_punct("|"):
            self._recursive_projection()
            self.expect_punct(",")
            self._recursive_projection()
        self.expect_punct(")")

    def _recursive_projection(self) -> None:
        self.expect_punct("{")
        if not self.at_punct("}"):
            self.comma_list(self.projection_item)
        self.expect_punct("}")

    # ------------------------------------------------------------------ expressions
    def expr(self, min_prec: int = 0) -> None:
        """Precedence climbing over the binary operators (few frames per nesting level)."""
        self.nest()
        self.prefix()
        while True:
            op = self._binary_op()
            if op is None or _PREC[op] < min_prec:
                break
            prec = _PREC[op]
            if op == "PRED":
                self.predicate()
                continue
            tok = self.advance()
            if op == "CMP" and tok.text == "<-":  # "a <-1" lexes as "<-": "<" then "-1"
                self.prefix()
                self._climb(prec + 1)
                continue
            self.expr(prec + 1)
        self.depth -= 1

    def _climb(self, min_prec: int) -> None:
        """Continue binary operators at or above ``min_prec`` after an operand."""
        while True:
            op = self._binary_op()
            if op is None or _PREC[op] < min_prec:
                return
            if op == "PRED":
                self.predicate()
                continue
            self.advance()
            self.expr(_PREC[op] + 1)

    def _binary_op(self) -> str | None:
        t = self.peek()
        if t is None:
            return None
        if t.kind is Kind.PUNCT:
            if t.text in _COMPARISON or t.text == "<-":
                return "CMP"
            return t.text if t.text in ("+", "-", "||", "*", "/", "%", "^") else None
        if t.kind is Kind.WORD:
            up = t.upper
            if up in ("OR", "XOR", "AND"):
                return up
            if up in ("IN", "CONTAINS", "IS") or (up in ("STARTS", "ENDS") and self.at_word(
                    "WITH", k=1)):
                return "PRED"
        return None

    def predicate(self) -> None:
        t = self.advance()
        up = t.upper
        if up in ("STARTS", "ENDS"):
            self.expect_word("WITH")
            self.expr(_PREC["PRED"] + 1)
        elif up in ("IN", "CONTAINS"):
            self.expr(_PREC["PRED"] + 1)
        else:  # IS [NOT] NULL / TYPED t / :: t / NORMALIZED / label
            self.accept_word("NOT")
            if self.at_word("NULL"):
                self.advance()
            elif self.at_word("TYPED") or self.at_punct("::"):
                self.advance()
                self.type_name()
            elif self.at_word("NFC", "NFD", "NFKC", "NFKD", "NORMALIZED"):
                if not self.at_word("NORMALIZED"):
                    self.advance()
                self.expect_word("NORMALIZED")
            else:
                self.label_or()

    def type_name(self) -> None:
        self.nest()
        self.name()
        while self.at_name() and not self.at_word("NOT", "AND", "OR", "XOR", "AS", "THEN",
                                                    "ELSE", "END", "WHEN", "RETURN", "WITH"):
            self.advance()  # multi-word types: LOCAL DATETIME, ZONED TIME …
        if self.accept_punct("<"):
            self.type_name()
            self.expect_punct(">")
        if self.at_punct("[") and self.at_punct("]", k=1):
            self.advance()
            self.advance()
        if self.accept_punct("|"):
            self.type_name()
        if self.at_word("NOT") and self.at_word("NULL", k=1):
            self.advance()
            self.advance()
        self.depth -= 1

    def prefix(self) -> None:
        if self.accept_word("NOT"):
            self.expr(_NOT_PREC + 1)
            return
        if self.accept_punct("+", "-"):
            self.prefix()
            return
        self.postfix()

    def postfix(self) -> None:
        variable = self.atom()
        while True:
            if self.at_punct(".") and (self.at_name(k=1) or self.at_punct("*", k=1)):
                self.advance()
                self.advance()
                variable = False
            elif self.at_punct("["):
                self.index()
                variable = False
            elif self.at_punct(":") and self._label_follows():
                self.label_expression()
            elif self.at_punct("{") and variable:
                self.map_projection()
                variable = False
            elif self.at_punct("!") and not self.at_punct("=", k=1):
                self.advance()  # Kùzu factorial
            else:
                return

    def _label_follows(self) -> bool:
        return self.at_name(k=1) or self.at_punct("!", "%", "(", k=1)

    def index(self) -> None:
        self.nest()
        self.expect_punct("[")
        if self.accept_punct("..", ":"):
            if not self.at_punct("]"):
                self.expr()
        else:
            self.expr()
            if self.accept_punct("..", ":"):
                if not self.at_punct("]"):
                    self.expr()
        self.expect_punct("]")
        self.depth -= 1

    def atom(self) -> bool:
        """One operand; returns True when it was a bare variable (map projection may follow)."""
        t = self.peek()
        if t is None:
            raise ParseError("expected an expression", None)
        if t.kind in (Kind.NUMBER, Kind.STRING, Kind.PARAM):
            self.advance()
            return False
        if t.kind is Kind.PUNCT:
            self._punct_atom(t)
            return False
        if t.kind is Kind.NAME:
            if self.at_punct("(", k=1) or self.at_punct(".", k=1) and self._is_call():
                self.function_call()
                return False
            self.advance()
            return True
        return self._word_atom(t)

    def _punct_atom(self, t: Token) -> None:
        if t.text == "[":
            self.list_atom()
        elif t.text == "{":
            self.map_literal()
        elif t.text == "(":
            if self.attempt(self._pattern_predicate) is None:
                self.nest()
                self.advance()
                self.expr()
                self.expect_punct(")")
                self.depth -= 1
        else:
            raise self._unexpected("an expression")

    def _pattern_predicate(self) -> bool:
        """``(a)-[:R]->(b)`` used as an expression: at least one relationship."""
        start = self.pos
        close = self.closing.get(start, -1)  # cheap test first: "(…)" then "-" / "<-"
        if close < 0 or not (close + 1 < len(self.toks)
                             and self.toks[close + 1].is_punct("-", "<-")):
            raise _Backtrack
        self.path_element()
        if not any(self.toks[i].is_punct("-", "<-") for i in range(start, self.pos)):
            raise _Backtrack
        return True

    def _word_atom(self, t: Token) -> bool:
        up = t.upper
        nxt = self.peek(1)
        if up in ("TRUE", "FALSE", "NULL"):
            self.advance()
            return False
        if up == "CASE":
            self.case()
            return False
        if up in ("EXISTS", "COUNT", "COLLECT") and nxt is not None and nxt.is_punct("{"):
            self.advance()
            self.subquery_expression(up)
            return False
        if nxt is not None and nxt.is_punct("("):
            if up == "CAST":
                self.cast()
                return False
            if up in _QUANTIFIERS and self.at_name(k=2) and self.at_word("IN", k=3):
                self.quantifier_expr()
                return False
            if up == "REDUCE" and self.at_name(k=2) and self.at_punct("=", k=3):
                self.reduce()
                return False
            if up in ("SHORTESTPATH", "ALLSHORTESTPATHS"):
                self.advance()
                self.advance()
                self.path_element()
                self.expect_punct(")")
                return False
            self.function_call()
            return False
        if nxt is not None and nxt.is_punct(".") and self._is_call():
            self.function_call()
            return False
        self.advance()
        return up not in WRITE_CLAUSES and up != "CALL"  # no "call { … }" map projection

    def _is_call(self) -> bool:
        """``a.b.c(`` ahead: a namespaced function call, not property access."""
        k = 0
        while self.at_name(k=k) and self.at_punct(".", k=k + 1):
            k += 2
        return self.at_name(k=k) and self.at_punct("(", k=k + 1)

    def function_call(self) -> None:
        self.nest()
        name = self.qualified_name()
        self.result.functions.append(name)
        self.arguments(count_star=name.lower() == "count")
        self.depth -= 1

    def arguments(self, count_star: bool = False) -> None:
        self.expect_punct("(")
        if count_star and self.at_punct("*"):
            self.advance()
            self.expect_punct(")")
            return
        if self.at_word("DISTINCT", "ALL") and not self.at_punct("(", ".", k=1):
            self.advance()
        if not self.at_punct(")"):
            self.comma_list(self.argument)
        self.expect_punct(")")

    def argument(self) -> None:
        if self.at_name() and self.at_punct(":=", k=1):  # Kùzu named argument
            self.advance()
            self.advance()
        elif self.at_name() and self.at_punct("->", k=1):  # Kùzu lambda x -> …
            self.advance()
            self.advance()
        elif self.at_punct("(") and self._lambda_vars():
            pass
        self.expr()

    def _lambda_vars(self) -> bool:
        """``(x, y) -> …``: consume the variables and the arrow when they are there."""
        k = 1
        while self.at_name(k=k):
            if self.at_punct(")", k=k + 1):
                if self.at_punct("->", k=k + 2):
                    self.pos += k + 3
                    return True
                return False
            if not self.at_punct(",", k=k + 1):
                return False
            k += 2
        return False

    def case(self) -> None:
        self.nest()
        self.expect_word("CASE")
        if not self.at_word("WHEN"):
            self.expr()
        if not self.at_word("WHEN"):
            raise self.fail("WHEN")
        while self.accept_word("WHEN"):
            self.expr()
            self.expect_word("THEN")
            self.expr()
        if self.accept_word("ELSE"):
            self.expr()
        self.expect_word("END")
        self.depth -= 1

    def cast(self) -> None:
        self.advance()
        self.expect_punct("(")
        self.expr()
        if self.accept_word("AS"):
            self.type_name()
        else:
            self.expect_punct(",")
            self.expr()
        self.expect_punct(")")

    def quantifier_expr(self) -> None:
        self.advance()
        self.expect_punct("(")
        self.name()
        self.expect_word("IN")
        self.expr()
        self.where()
        self.expect_punct(")")

    def reduce(self) -> None:
        self.advance()
        self.expect_punct("(")
        self.name()
        self.expect_punct("=")
        self.expr()
        self.expect_punct(",")
        self.name()
        self.expect_word("IN")
        self.expr()
        self.expect_punct("|")
        self.expr()
        self.expect_punct(")")

    def subquery_expression(self, kind: str) -> None:
        """``EXISTS { … }`` / ``COUNT { … }`` / ``COLLECT { … }``: a query, or a pattern."""
        self.nest()
        self.expect_punct("{")
        self.result.subqueries += 1
        if self.at_word(*_CLAUSE_START) and not self.at_punct(".", k=1):
            self.query(need_return=kind == "COLLECT")
        else:
            self.pattern_list()
            self.where()
        self.expect_punct("}")
        self.depth -= 1

    def list_atom(self) -> None:
        self.nest()
        if self.attempt(self._comprehension) is None and self.attempt(
                self._pattern_comprehension) is None:
            self.expect_punct("[")
            if not self.at_punct("]"):
                self.comma_list(self.expr)
            self.expect_punct("]")
        self.depth -= 1

    def _comprehension(self) -> bool:
        """``[x IN list WHERE cond | expr]``."""
        self.expect_punct("[")
        self.name()
        self.expect_word("IN")
        self.expr()
        self.where()
        if self.accept_punct("|"):
            self.expr()
        self.expect_punct("]")
        return True

    def _pattern_comprehension(self) -> bool:
        """``[p = (a)-->(b) WHERE cond | expr]``."""
        self.expect_punct("[")
        self.binding()
        self._pattern_predicate()
        self.where()
        self.expect_punct("|")
        self.expr()
        self.expect_punct("]")
        return True

    def map_literal(self) -> None:
        self.nest()
        self.expect_punct("{")
        if not self.at_punct("}"):
            self.comma_list(self._map_entry)
        self.expect_punct("}")
        self.depth -= 1

    def _map_entry(self) -> None:
        t = self.peek()
        if t is None or t.kind not in (Kind.WORD, Kind.NAME, Kind.STRING):
            raise self.fail("a map key")
        self.advance()
        self.expect_punct(":")
        self.expr()

    def map_projection(self) -> None:
        """Neo4j ``n {.name, .*, key: expr, other}``."""
        self.nest()
        self.expect_punct("{")
        while not self.at_punct("}"):
            if self.accept_punct("."):
                if self.at_punct("*"):
                    self.advance()
                else:
                    self.name()
            elif self.at_name() and self.at_punct(":", k=1):
                self.advance()
                self.advance()
                self.expr()
            else:
                self.name()
            if not self.at_punct(","):
                break
            self.advance()
        self.expect_punct("}")
        self.depth -= 1


def _closing_brackets(tokens: list[Token]) -> dict[int, int]:
    """Index of the token closing each ``(``, ``[`` and ``{`` (unbalanced ones are absent)."""
    out: dict[int, int] = {}
    stack: list[tuple[str, int]] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for i, t in enumerate(tokens):
        if t.kind is not Kind.PUNCT:
            continue
        if t.text in "([{":
            stack.append((t.text, i))
        elif t.text in pairs and stack and stack[-1][0] == pairs[t.text]:
            out[stack.pop()[1]] = i
    return out


def parse(tokens: list[Token]) -> ParseResult:
    """Parse ``tokens`` (code tokens of one statement) or raise :class:`ParseError`."""
    return Parser(tokens).statement()
