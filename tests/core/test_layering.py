"""Dependency direction, read from the sources with ``ast`` (module level and inside functions,
absolute and relative imports, ``importlib.import_module("…")`` with a literal name, and the lazy
facade of ``byokg/__init__.py``):

* the core (``byokg/``) never imports ``byokg.backends`` nor ``byokg.plugins``;
* a backend (``backends/X.py``) imports only the core: never another backend, the demo data
  package or a built-in plugin;
* the built-in plugins (``plugins/``) never import ``byokg.backends``;
* inside the core, each layer imports only the layers below it (:data:`LAYERS`): the
  foundation (errors, contracts, hooks, registry, config …) nothing above it; language only
  the foundation; models never the graph layer or the pipeline; the graph layer never the
  pipeline or linking; nothing below the pipeline imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# the core's layers, lowest first; a module of a layer may import its own layer and the ones
# named for it (the top: eval, serve, commands, integrations, the CLI, testing, import any)
FOUNDATION = ("byokg.errors", "byokg.contracts", "byokg.hookspecs", "byokg.registry",
              "byokg.config", "byokg.cancel", "byokg.redaction", "byokg.weights",
              "byokg.demo", "byokg.prompts", "byokg.data")
LAYERS: dict[str, tuple[str, ...]] = {
    "foundation": (),
    "byokg.language": ("foundation",),
    "byokg.models": ("foundation", "byokg.language"),
    "byokg.graph": ("foundation", "byokg.language", "byokg.models"),
    "byokg.presentation": ("foundation", "byokg.language"),
    "byokg.io": ("foundation", "byokg.language", "byokg.graph"),
    "byokg.linking": ("foundation", "byokg.language", "byokg.models", "byokg.graph"),
    "byokg.cypher": ("foundation", "byokg.language", "byokg.models", "byokg.graph", "byokg.io"),
    "byokg.pipeline": ("foundation", "byokg.language", "byokg.models", "byokg.graph",
                       "byokg.presentation", "byokg.io", "byokg.linking", "byokg.cypher"),
}


def core_layer(module: str) -> str | None:
    """The layer of a core module (None: the top — the lazy facade ``byokg`` included — which
    may import any layer)."""
    if any(module == f or module.startswith(f + ".") for f in FOUNDATION):
        return "foundation"
    for layer in LAYERS:
        if _within(module, layer):
            return layer
    return None
# top-level folder -> the package it installs as (pyproject.toml's package-dir)
FOLDERS = {"byokg": "byokg", "backends": "byokg.backends", "plugins": "byokg.plugins"}
ALLOWED_IN_BACKENDS: tuple[str, ...] = ()  # none: shared Cypher helpers live in the core


def module_name(path: Path, root: Path = REPO) -> tuple[str, bool]:
    """(dotted module name, is a package ``__init__``) of a source file under ``root``."""
    rel = path.relative_to(root)
    parts = [FOLDERS[rel.parts[0]], *rel.parts[1:]]
    is_pkg = parts[-1] == "__init__.py"
    parts = parts[:-1] if is_pkg else [*parts[:-1], parts[-1][:-3]]
    return ".".join(p for p in parts if p), is_pkg


def imported_modules(source: str, module: str, is_pkg: bool = False) -> list[tuple[int, str]]:
    """``(line, module)`` for every import in ``source``, wherever it stands. ``from A import b``
    yields both ``A`` and ``A.b`` (``b`` may be a submodule); relative imports are resolved
    against ``module``."""
    package = module if is_pkg else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{a.name}") for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((node.lineno, arg.value))
    return found


def _is_dynamic_import(func: ast.expr) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("import_module", "__import__")


def facade_modules(source: str) -> list[tuple[int, str]]:
    """Modules named by the lazy facade ``_LAZY = {"Name": ("module", "attr")}``."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_LAZY" for t in node.targets
        ):
            for value in getattr(node.value, "values", []):
                if isinstance(value, ast.Tuple) and isinstance(value.elts[0], ast.Constant):
                    out.append((value.lineno, value.elts[0].value))
    return out


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _allowed_in_backend(target: str, module: str) -> bool:
    """A backend's own module, the (empty) ``byokg.backends`` package, or an allowance."""
    return (target == "byokg.backends" or _within(target, module)
            or any(_within(target, a) for a in ALLOWED_IN_BACKENDS))


def violations(path: Path, root: Path = REPO) -> list[str]:
    """The imports of one source file that break the dependency rule, as ``file:line: why``."""
    module, is_pkg = module_name(path, root)
    source = path.read_text(encoding="utf-8")
    imports = imported_modules(source, module, is_pkg)
    if module == "byokg":
        imports += facade_modules(source)
    rel = path.relative_to(root).as_posix()
    top = path.relative_to(root).parts[0]
    bad: dict[tuple[int, str], str] = {}
    for line, target in imports:
        why = None
        if top in ("byokg", "plugins") and _within(target, "byokg.backends"):
            why = "imports a backend"
        elif top == "byokg" and _within(target, "byokg.plugins"):
            why = "imports a built-in plugin"
        elif top == "byokg" and _within(target, "byokg") and core_layer(module) is not None:
            mine, theirs = core_layer(module), core_layer(target)
            if theirs is None and target.split(".")[1:2] and target.split(".")[1] in (
                    "eval", "serve", "commands", "integrations", "cli", "testing"):
                why = f"a {mine} module imports the top ({target.split('.')[1]})"
            elif theirs not in (None, mine) and theirs not in LAYERS[mine]:
                why = f"the {mine} layer imports the {theirs} layer"
        elif top == "backends" and not _allowed_in_backend(target, module):
            if _within(target, "byokg.backends"):
                why = "imports another backend"
            elif _within(target, "byokg.demo"):
                why = "imports the demo package"
            elif _within(target, "byokg.plugins"):
                why = "imports a built-in plugin"
        if why is None:
            continue
        if (line, why) not in bad or len(target) < len(bad[line, why]):
            bad[line, why] = target  # one entry per line: the shortest name (the module)
    return [f"{rel}:{line}: {why} ({target})" for (line, why), target in sorted(bad.items())]


def _sources(folder: str, root: Path = REPO) -> list[Path]:
    return sorted((root / folder).rglob("*.py"))


@pytest.mark.parametrize("folder", list(FOLDERS))
def test_dependency_direction(folder):
    files = _sources(folder)
    assert files, f"no sources under {folder}/"
    bad = [v for f in files for v in violations(f)]
    assert not bad, "dependency rule broken (docs/architecture.md):\n" + "\n".join(bad)


# ----------------------------------------------------------------------------- the checker itself


def test_imports_are_found_in_every_form():
    src = (
        "import byokg.backends.memory\n"
        "from byokg.backends import kuzu\n"
        "from . import paths\n"
        "from ..backends.neo4j import open_neo4j\n"
        "def f():\n"
        "    from byokg.backends.memory import MemoryGraph\n"
        "    import importlib\n"
        "    importlib.import_module('byokg.backends.neptune')\n"
    )
    got = {m for _, m in imported_modules(src, "byokg.sub.mod")}
    assert {"byokg.backends.memory", "byokg.backends.kuzu", "byokg.sub.paths",
            "byokg.backends.neo4j", "byokg.backends.neptune"} <= got
    assert {m for _, m in imported_modules("from . import x\n", "byokg.sub", is_pkg=True)} == {
        "byokg.sub", "byokg.sub.x"}


def test_checker_flags_each_rule(tmp_path):
    """Planted files break each rule once; the checker names file, line and reason."""
    for folder, name, text in (
        ("byokg", "core.py", "def f():\n    from .backends.memory import MemoryGraph\n"),
        ("byokg", "__init__.py", "_LAZY = {'M': ('byokg.backends.memory', 'MemoryGraph')}\n"),
        ("backends", "one.py", "from byokg.backends.two import x\nfrom byokg.demo import D\n"),
        ("backends", "ok.py", "from byokg.graph.store import Capability\nfrom . import ok\n"
                              "from byokg.cypher.storecommon import esc\n"),
        ("plugins", "p.py", "import byokg.backends\n"),
    ):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_text(text, encoding="utf-8")
    got = {f.relative_to(tmp_path).as_posix(): violations(f, tmp_path)
           for folder in FOLDERS for f in _sources(folder, tmp_path)}
    assert got["byokg/core.py"] == ["byokg/core.py:2: imports a backend (byokg.backends.memory)"]
    assert got["byokg/__init__.py"] == [
        "byokg/__init__.py:1: imports a backend (byokg.backends.memory)"]
    assert got["backends/one.py"] == [
        "backends/one.py:1: imports another backend (byokg.backends.two)",
        "backends/one.py:2: imports the demo package (byokg.demo)",
    ]
    assert got["backends/ok.py"] == []
    assert got["plugins/p.py"] == ["plugins/p.py:1: imports a backend (byokg.backends)"]


def test_checker_flags_a_lower_layer_importing_a_higher_one(tmp_path):
    """Planted core files: language importing the pipeline, models importing the graph layer,
    the graph layer importing a plugin or the CLI; a pipeline module importing language is
    fine."""
    files = {
        "byokg/language/a.py": "from byokg.pipeline.engine import Engine\n",
        "byokg/models/b.py": "def f():\n    from byokg.graph.store import GraphStore\n",
        "byokg/graph/c.py": "from byokg.plugins.offline import chains\nimport byokg.cli\n",
        "byokg/pipeline/d.py": "from byokg.language.text import words\n",
        "byokg/errors.py": "from byokg.models.base import LLM\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    got = {rel: violations(tmp_path / rel, tmp_path) for rel in files}
    assert got["byokg/language/a.py"] == [
        "byokg/language/a.py:1: the byokg.language layer imports the byokg.pipeline layer "
        "(byokg.pipeline.engine)"]
    assert got["byokg/models/b.py"] == [
        "byokg/models/b.py:2: the byokg.models layer imports the byokg.graph layer "
        "(byokg.graph.store)"]
    assert got["byokg/graph/c.py"] == [
        "byokg/graph/c.py:1: imports a built-in plugin (byokg.plugins.offline)",
        "byokg/graph/c.py:2: a byokg.graph module imports the top (cli) (byokg.cli)"]
    assert got["byokg/pipeline/d.py"] == []
    assert got["byokg/errors.py"] == [
        "byokg/errors.py:1: the foundation layer imports the byokg.models layer (byokg.models.base)"]
