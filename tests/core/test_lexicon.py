"""What English words mean lives in one module (byokg/language/lexicon.py): no English word
list anywhere else in byokg/, plugins/ or backends/.

How the check decides, reading every module with ``ast`` (no import, no regex over text):

1. *Candidates*: set, list and tuple literals (``frozenset({...})`` included), the keys of a
   dict literal whose values are all constants or tuples of constants (a data table, not a
   payload), and a string literal split into words (``"a about above".split()``).
   ``Literal[...]`` type arguments are the program's own values and are skipped, and so is a
   row of a table of equal-length tuples (graph data such as a test graph's triples).
2. A candidate is a *word list* when it has at least two elements, every element is a
   lower-case word or phrase (letters and spaces), and at least two of its single-word
   elements are English words that are not names of the program.
3. *English word*: a whole-word token of the shipped static model's WordPiece vocabulary
   (30,522 tokens of BERT's uncased vocabulary), so the check needs no word list of its own.
4. *Names of the program*: Python's builtins, attribute, function, class, field and
   keyword-argument names, ``Literal[...]`` values, string keys of subscripts and of ``.get`` /
   ``.pop`` / ``.setdefault``; and collections compared with a field whose name says it holds
   an enumerated value (``x.kind in ("list", "map")``) or inside an ``assert`` (a check's
   expected values). These are identifiers, enum values and data, not words the user wrote.

:data:`ALLOWED` lists the few literals that are English but no wording rule, each with why.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
ROOTS = ("byokg", "plugins", "backends")
LEXICON = Path("byokg/language/lexicon.py")
_PHRASE = re.compile(r"^[a-z]+(?: [a-z]+)*$")
_ENUM_FIELDS = ("kind", "type", "mode", "status", "op", "scheme", "level", "method", "format",
                "dialect", "style")

# (file, the English words found, space-separated) -> why the literal is not a wording rule
ALLOWED: dict[tuple[str, str], str] = {
    ("byokg/cypher/execute.py", "interrupted terminated"):
        "fragments of the database engines' own error messages, not the user's words",
    ("byokg/cypher/execute.py", "unauthorized authentication credentials forbidden security"):
        "fragments of the database engines' own error messages, not the user's words",
    ("byokg/cypher/kuzufamily.py", "from to"): "column names of the triple tables",
    ("byokg/serve/mcp.py", "http https"): "URL schemes",
}


def _vocabulary() -> frozenset[str]:
    data = np.load(REPO / "byokg" / "data" / "static-minilm.npz")
    tokens = bytes(data["vocab"]).decode("utf-8").split("\n")
    return frozenset(t for t in tokens if t.isalpha() and t.islower())


def _files(root: Path = REPO) -> list[Path]:
    return [p for r in ROOTS for p in sorted((root / r).rglob("*.py"))]


def _program_names(trees: list[ast.AST]) -> set[str]:
    names: set[str] = set(dir(builtins))
    getters = ("get", "pop", "setdefault")
    for tree in trees:
        for n in ast.walk(tree):
            if isinstance(n, ast.Attribute):
                names.add(n.attr)
            elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(n.name)
            elif isinstance(n, ast.keyword) and n.arg:
                names.add(n.arg)
            elif (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                  and n.value.id == "Literal"):
                names.update(c.value for c in ast.walk(n.slice)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str))
            elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                names.add(n.target.id)
            elif isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
                if isinstance(n.slice.value, str):
                    names.add(n.slice.value)
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr in getters and n.args and isinstance(n.args[0], ast.Constant)
                  and isinstance(n.args[0].value, str)):
                names.add(n.args[0].value)
    return names


def _strings(node: ast.AST) -> list[str] | None:
    """The string elements of a candidate literal (None: not a candidate)."""
    if isinstance(node, ast.Set | ast.List | ast.Tuple):
        elts = node.elts
    elif isinstance(node, ast.Dict):
        table = all(isinstance(v, ast.Constant) or (isinstance(v, ast.Tuple | ast.List) and all(
            isinstance(e, ast.Constant) for e in v.elts)) for v in node.values)
        if not table or any(k is None for k in node.keys):
            return None
        elts = node.keys  # type: ignore[assignment]
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
          and node.func.attr == "split" and not node.args
          and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)):
        return node.func.value.value.split()
    else:
        return None
    out = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return out if len(out) == len(elts) else None


def _skipped(tree: ast.AST) -> set[int]:
    """ids of nodes that are program values or data rows, never word lists."""
    skip: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "Literal":
            skip.update(id(c) for c in ast.walk(n.slice))
        elif isinstance(n, ast.Compare):
            left = n.left
            field = left.attr if isinstance(left, ast.Attribute) else (
                left.id if isinstance(left, ast.Name) else "")
            if field.lower().endswith(_ENUM_FIELDS):
                skip.update(id(c) for c in n.comparators)
        elif isinstance(n, ast.List | ast.Tuple | ast.Set):
            rows = [e for e in n.elts if isinstance(e, ast.Tuple)]
            if len(rows) >= 2 and len({len(r.elts) for r in rows}) == 1:
                skip.update(id(c) for r in rows for c in ast.walk(r))
        elif isinstance(n, ast.Assert):
            skip.update(id(c) for c in ast.walk(n))  # a check's expected values
    return skip


def word_lists(files: list[Path], root: Path = REPO) -> Iterator[tuple[str, int, str]]:
    """``(file, line, English words)`` for every word list outside the lexicon."""
    vocab = _vocabulary()
    trees = {p: ast.parse(p.read_text(encoding="utf-8"), filename=str(p)) for p in files}
    names = _program_names(list(trees.values()))
    for path, tree in trees.items():
        rel = path.relative_to(root)
        if rel == LEXICON:
            continue
        skip = _skipped(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            got = _strings(node)
            if not got or len(got) < 2 or not all(_PHRASE.match(x) for x in got):
                continue
            english = [x for x in got if " " not in x and x in vocab and x not in names]
            if len(english) >= 2:
                yield rel.as_posix(), getattr(node, "lineno", 0), " ".join(english)


def test_no_english_word_list_outside_the_lexicon():
    found = [(f, line, ws) for f, line, ws in word_lists(_files()) if (f, ws) not in ALLOWED]
    assert not found, "English word lists outside byokg/language/lexicon.py (move them there):\n" \
        + "\n".join(f"  {f}:{line}: {ws}" for f, line, ws in found)


def test_every_allowed_literal_still_exists():
    """An exception that no longer matches anything is removed, not left to excuse a new one."""
    seen = {(f, ws) for f, _line, ws in word_lists(_files())}
    assert set(ALLOWED) <= seen, set(ALLOWED) - seen


@pytest.mark.parametrize("planted", [
    'QUESTION = frozenset({"who", "whom", "whose"})\n',
    'def f(w):\n    return w in ("which", "what")\n',
    'TABLE = {"when": 1, "where": 2}\n',
    'STOP = """across along amid""".split()\n',
    'class X:\n    WORDS = ["total", "average", "largest"]\n',
])
def test_the_check_fails_on_a_planted_list(tmp_path, planted):
    """A word list planted in a module is found (and the same module without it is clean)."""
    mod = tmp_path / "plugins" / "planted.py"
    mod.parent.mkdir(parents=True)
    mod.write_text("x = 1\n", encoding="utf-8")
    assert list(word_lists([mod], root=tmp_path)) == []
    mod.write_text(planted, encoding="utf-8")
    found = list(word_lists([mod], root=tmp_path))
    assert len(found) == 1 and found[0][0] == "plugins/planted.py", found


def test_program_names_are_not_words(tmp_path):
    """Identifiers, enum values and data rows are not word lists."""
    mod = tmp_path / "byokg" / "names.py"
    mod.parent.mkdir(parents=True)
    mod.write_text(
        'from typing import Literal\n'
        'Kind = Literal["person", "place", "thing"]\n'
        'def f(p):\n'
        '    return p.kind in ("list", "map")\n'
        'ROWS = [("alice", "knows", "bob"), ("bob", "likes", "carol")]\n', encoding="utf-8")
    assert list(word_lists([mod], root=tmp_path)) == []
