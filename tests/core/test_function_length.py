"""No function in the library runs past 60 lines unless its docstring says why it is long.

A long function is read top to bottom by the next contributor; past a screenful it either splits
into named steps or says, in its docstring ("Long because …"), why one reading is clearer.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60
REASON = re.compile(r"\b(long|lines)\s+because\b", re.IGNORECASE)


def long_functions(source: str, limit: int = LIMIT) -> list[tuple[str, int]]:
    """``(name, lines)`` of each function over ``limit`` lines whose docstring gives no reason."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit and not REASON.search(ast.get_docstring(node) or ""):
                found.append((node.name, lines))
    return found


def test_library_functions_are_short_or_say_why() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{name} ({lines} lines)"
        for top in ("byokg", "plugins")
        for path in sorted((ROOT / top).rglob("*.py"))
        for name, lines in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, (
        f"functions over {LIMIT} lines: split them, or say in the docstring why they are "
        f"long ('Long because …'): {offenders}"
    )


def test_the_check_flags_a_long_function_and_accepts_a_reason() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT))
    plain = f'def big():\n    """Does things."""\n{body}'
    said = f'def big():\n    """Does things. Long because one pass reads clearer."""\n{body}'
    assert long_functions(plain) == [("big", LIMIT + 2)]
    assert long_functions(said) == []
    assert long_functions("def small():\n    return 1\n") == []
