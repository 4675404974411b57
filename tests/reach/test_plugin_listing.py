"""``byokg plugins`` lists every installed plugin distribution (entry-point group ``byokg``) with
its version and what it registered: also a plugin that registered nothing, one that fails to
import, one whose hook raises, one with a misspelt hook, one that takes a name already taken, and
one BYOKG_LOAD_PLUGINS leaves out; in text and --json."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest
from click.testing import CliRunner

from byokg import registry
from byokg.cli import cli
from byokg.errors import PluginError
from byokg.hookspecs import HOOK_KINDS

PLUGINS = {
    # distribution: (version, module source)
    "byokg-goodplug": ("1.2.3", """
        from byokg.hookspecs import hookimpl

        @hookimpl
        def register_tools(register):
            register("good-tool", lambda: None)

        @hookimpl
        def register_datasets(register):
            register("good-data", lambda path, **kw: path)
    """),
    "byokg-emptyplug": ("0.0.1", "VERSION = 1\n"),
    "byokg-brokenplug": ("0.1", "raise RuntimeError('boom \\x1b[2J')\n"),
    "byokg-hookfail": ("0.2", """
        from byokg.hookspecs import hookimpl

        @hookimpl
        def register_tools(register):
            raise ValueError("cannot register today")
    """),
    "byokg-typoplug": ("0.3", """
        from byokg.hookspecs import hookimpl

        @hookimpl
        def register_tool(register):
            register("never", lambda: None)
    """),
    "byokg-dupplug": ("0.4", """
        from byokg.hookspecs import hookimpl

        @hookimpl
        def register_backends(register):
            register("memory", lambda uri, **kw: None)
    """),
}


def _ep(dist: str) -> str:
    return dist.removeprefix("byokg-")


@pytest.fixture
def installed(tmp_path):
    """The distributions above, installed-looking (dist-info with entry points) on sys.path, with
    the plugin manager reset; afterwards everything is as before."""
    registry.load_plugins()
    extra = [(n, p) for n, p in registry.pm.list_name_plugin() if n not in registry.DEFAULT_PLUGINS]
    modules = []
    for dist, (version, source) in PLUGINS.items():
        mod = f"byokg_test_{_ep(dist)}_mod"
        modules.append(mod)
        (tmp_path / f"{mod}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        info = tmp_path / f"{dist.replace('-', '_')}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(f"[byokg]\n{_ep(dist)} = {mod}\n",
                                               encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(tmp_path))
        mp.delenv("BYOKG_LOAD_PLUGINS", raising=False)
        registry.reset()
        yield mp
        registry.reset()
    for mod in modules:
        sys.modules.pop(mod, None)
    for name in [n for n in vars(registry.pm.hook) if n not in HOOK_KINDS]:
        delattr(registry.pm.hook, name)  # the misspelt hook's caller outlives its plugin
    registry.load_plugins()
    for name, plugin in extra:
        if not registry.pm.has_plugin(name):
            registry.register_plugin(plugin, name=name)


def listing(*args: str) -> str:
    result = CliRunner().invoke(cli, ["plugins", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_json_lists_every_distribution(installed):
    data = json.loads(listing("--json"))
    dists = {d["name"]: d for d in data["distributions"]}
    assert dists["byokg"]["builtin"] and dists["byokg"]["version"]
    memory = next(p for p in dists["byokg"]["plugins"] if p["name"] == "byokg.backends.memory")
    assert memory["registered"] == {"backends": ["memory"]}
    for dist, (version, _) in PLUGINS.items():
        assert dists[dist]["version"] == version and not dists[dist]["builtin"]
        (plugin,) = dists[dist]["plugins"]
        assert plugin["name"] == _ep(dist)
        assert plugin["target"] == f"byokg_test_{_ep(dist)}_mod"
    plugin = {d: dists[d]["plugins"][0] for d in PLUGINS}
    assert plugin["byokg-goodplug"]["status"] == "loaded"
    assert plugin["byokg-goodplug"]["registered"] == {"tools": ["good-tool"],
                                                      "datasets": ["good-data"]}
    assert plugin["byokg-emptyplug"]["status"] == "loaded"
    assert plugin["byokg-emptyplug"]["registered"] == {}
    expected_errors = {
        "byokg-brokenplug": "failed to load: RuntimeError: boom \x1b[2J",
        "byokg-hookfail": "register_tools: ValueError: cannot register today",
        "byokg-typoplug": "unknown hook 'register_tool'",
        "byokg-dupplug": "backend 'memory' is registered twice",
    }
    for dist, err in expected_errors.items():
        assert plugin[dist]["status"] == "failed", plugin[dist]
        assert err in plugin[dist]["error"], plugin[dist]
    # the registries still hold the good plugin and the built-ins
    assert data["registered"]["tools"]["good-tool"] == "goodplug"
    assert data["registered"]["backends"]["memory"] == "byokg.backends.memory"


def test_text_listing(installed):
    out = listing()
    lines = [ln.strip() for ln in out.splitlines()]
    assert "byokg-goodplug 1.2.3" in lines and "byokg-emptyplug 0.0.1" in lines
    row = {ln.split()[0]: ln for ln in lines if " = byokg_test_" in ln}
    assert row["goodplug"].endswith("tools: good-tool; datasets: good-data")
    assert row["emptyplug"].endswith("registered nothing")
    assert row["brokenplug"].endswith("FAILED: failed to load: RuntimeError: boom \\x1b[2J")
    assert "\x1b" not in out  # the plugin's error text is shown, not executed
    assert "FAILED: register_tools: ValueError" in row["hookfail"]
    assert any(ln.split() == ["good-tool", "goodplug"] for ln in lines)


def test_load_plugins_restriction_is_shown(installed):
    installed.setenv("BYOKG_LOAD_PLUGINS", "goodplug")
    dists = {d["name"]: d for d in json.loads(listing("--json"))["distributions"]}
    assert dists["byokg-goodplug"]["plugins"][0]["status"] == "loaded"
    for dist in PLUGINS.keys() - {"byokg-goodplug"}:
        p = dists[dist]["plugins"][0]
        assert p["status"] == "not loaded" and "BYOKG_LOAD_PLUGINS" in p["error"], p


def test_other_commands_still_stop_at_a_broken_plugin(installed):
    with pytest.raises(PluginError, match="'brokenplug'.*boom"):
        registry.load_plugins()
