"""Every hookspec has a section in docs/plugins.md with its exact signature, and a test that uses
it (datasette-style); the example plugin in the docs is the one the tests install."""

from __future__ import annotations

import ast
import re

import pytest
from core_helpers import EXAMPLE_PLUGIN
from core_helpers import REPO

from byokg import hookspecs
from byokg import registry as plugin_mod

HOOKSPECS = REPO / "byokg" / "hookspecs.py"
DOC = REPO / "docs" / "plugins.md"


def _hookspecs() -> dict[str, str]:
    """hook name -> exact signature as written in byokg/hookspecs.py."""
    out = {}
    for node in ast.parse(HOOKSPECS.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and any(
            ast.unparse(d).split("(")[0] == "hookspec" for d in node.decorator_list
        ):
            ret = f" -> {ast.unparse(node.returns)}" if node.returns else ""
            out[node.name] = f"{node.name}({ast.unparse(node.args)}){ret}"
    return out


HOOKS = _hookspecs()


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^#{2,4} +", text, flags=re.M)
    return {p.splitlines()[0].strip().strip("`"): p for p in parts[1:]}


def test_hookspecs_found():
    assert set(HOOKS) == set(hookspecs.HOOK_KINDS)
    assert set(HOOKS) == {name for name in dir(plugin_mod.pm.hook) if not name.startswith("_")}


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_hook_has_docs_section_with_exact_signature(hook):
    sections = _sections(DOC.read_text(encoding="utf-8"))
    assert hook in sections, f"docs/plugins.md has no '### {hook}' section"
    assert HOOKS[hook] in sections[hook], f"section {hook} lacks the signature {HOOKS[hook]!r}"
    doc_line = getattr(hookspecs, hook).__doc__.split(":")[0]  # "Register retrieval tools"
    assert doc_line in sections[hook]


@pytest.mark.parametrize("hook", sorted(HOOKS))
def test_hook_has_a_test(hook):
    tests = [p for p in (REPO / "tests").rglob("test_*.py") if p.name != "test_hook_docs.py"]
    using = [p for p in tests if re.search(rf"def {hook}\(", p.read_text(encoding="utf-8"))]
    assert using, f"no test implements the hook {hook}"


@pytest.mark.parametrize("name", ["pyproject.toml", "byokg_myplug.py"])
def test_docs_show_the_tested_example_plugin(name):
    """docs/plugins.md embeds docs/example_plugin verbatim (the package the tests install)."""
    text = (EXAMPLE_PLUGIN / name).read_text(encoding="utf-8")
    assert text.strip() in DOC.read_text(encoding="utf-8")


def test_example_plugin_implements_every_hook():
    source = (EXAMPLE_PLUGIN / "byokg_myplug.py").read_text(encoding="utf-8")
    for hook in HOOKS:
        assert f"@hookimpl\ndef {hook}(register):" in source, hook
    assert '[project.entry-points.byokg]\nmyplug = "byokg_myplug"' in (
        EXAMPLE_PLUGIN / "pyproject.toml").read_text(encoding="utf-8")


def test_docs_list_default_plugins():
    text = DOC.read_text(encoding="utf-8")
    for name in plugin_mod.DEFAULT_PLUGINS:
        assert f'"{name}"' in text, name
    assert "BYOKG_LOAD_PLUGINS" in text and "group **`byokg`**" in text
