"""The plugin system: hooks fill the registries, each entry records its plugin, a name registered
twice is an error naming both plugins, BYOKG_LOAD_PLUGINS restricts entry-point plugins, and a
real third-party distribution (docs/example_plugin) plugs in through its entry point."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import textwrap

import pytest
from core_helpers import make_venv
from core_helpers import run
from core_helpers import venv_env

from byokg import registry
from byokg.errors import ConfigError
from byokg.errors import PluginError
from byokg.hookspecs import HOOK_KINDS
from byokg.hookspecs import hookimpl
from byokg.pipeline.tools import Tool
from byokg.pipeline.tools import ToolResult


class EchoTool(Tool):
    name = "test-echo"

    def run(self, request):
        return ToolResult()


class AllHooks:
    """One registration through every hook."""

    @hookimpl
    def register_tools(self, register):
        register("test-echo", EchoTool, cost="low")

    @hookimpl
    def register_backends(self, register):
        register("test-scheme", lambda uri, **kw: uri)

    @hookimpl
    def register_llms(self, register):
        register("test-llm", lambda rest, **kw: rest)

    @hookimpl
    def register_embedders(self, register):
        register("test-embedder", lambda **kw: "emb")

    @hookimpl
    def register_rerankers(self, register):
        register("test-reranker", lambda **kw: "rr")

    @hookimpl
    def register_datasets(self, register):
        register("test-dataset", lambda path, **kw: path)


@pytest.fixture
def all_hooks():
    registry.register_plugin(AllHooks(), name="test-all-hooks")
    yield
    registry.unregister_plugin("test-all-hooks")


@pytest.fixture
def fresh_manager():
    """Forget loaded plugins so loading runs again; afterwards restore what was registered at
    run time (other tests' plugins) on top of a normal load."""
    registry.load_plugins()
    extra = [(n, p) for n, p in registry.pm.list_name_plugin() if n not in registry.DEFAULT_PLUGINS]
    registry.reset()
    yield
    registry.reset()
    registry.load_plugins()
    for name, plugin in extra:
        if not registry.pm.has_plugin(name):
            registry.register_plugin(plugin, name=name)


def test_every_hook_records_its_plugin(all_hooks):
    names = {"tools": "test-echo", "backends": "test-scheme", "llms": "test-llm",
             "embedders": "test-embedder", "rerankers": "test-reranker",
             "datasets": "test-dataset"}
    assert set(names) == set(HOOK_KINDS.values())
    described = registry.describe()
    for kind, name in names.items():
        entry = registry.registry(kind).get(name)
        assert entry.plugin == "test-all-hooks" and entry.kind == kind
        assert described[kind][name] == "test-all-hooks"
    assert registry.tools().get("test-echo").meta == {"cost": "low"}
    assert isinstance(registry.tools().create("test-echo"), EchoTool)
    assert registry.backends().create("test-scheme", "test-scheme:x") == "test-scheme:x"


def test_builtins_register_through_the_same_hooks():
    described = registry.describe()
    assert described["backends"]["memory"] == "byokg.backends.memory"
    for kind, items in described.items():
        for name, plugin in items.items():
            assert plugin, (kind, name)
    loaded = {name for name, _ in registry.pm.list_name_plugin()}
    for module in registry.DEFAULT_PLUGINS:  # every built-in present in this build is loaded
        present = importlib.util.find_spec(module) is not None
        assert (module in loaded) is present, module
    # and nothing is attributed to a plugin the manager does not know
    assert {p for items in described.values() for p in items.values()} <= loaded


def test_unregister_removes_entries(all_hooks):
    registry.unregister_plugin("test-all-hooks")
    assert "test-echo" not in registry.tools()
    registry.register_plugin(AllHooks(), name="test-all-hooks")  # for the fixture's teardown
    assert "test-echo" in registry.tools()


def test_name_registered_twice_names_both_plugins():
    class Dup:
        @hookimpl
        def register_backends(self, register):
            register("memory", lambda uri, **kw: None)

    with pytest.raises(PluginError) as err:
        registry.register_plugin(Dup(), name="test-dup")
    msg = str(err.value)
    assert "'memory'" in msg and "'byokg.backends.memory'" in msg and "'test-dup'" in msg
    # the failed registration left the manager as it was
    assert not registry.pm.has_plugin("test-dup")
    assert registry.backends().get("memory").plugin == "byokg.backends.memory"


def test_registry_errors_are_clear(all_hooks):
    with pytest.raises(ConfigError, match="unknown tool 'nope'.*test-echo"):
        registry.tools().get("nope")
    with pytest.raises(ConfigError, match="unknown registry"):
        registry.registry("widgets")

    class Bad:
        @hookimpl
        def register_tools(self, register):
            register("", EchoTool)

    with pytest.raises(PluginError, match="'test-bad'.*empty name"):
        registry.register_plugin(Bad(), name="test-bad")

    class NotCallable:
        @hookimpl
        def register_tools(self, register):
            register("x", 42)

    with pytest.raises(PluginError, match="not callable"):
        registry.register_plugin(NotCallable(), name="test-nc")


def test_unknown_hook_name_is_an_error():
    class Typo:
        @hookimpl
        def register_tool(self, register):  # singular: not a byokg hook
            register("x", EchoTool)

    with pytest.raises(PluginError, match="'test-typo'.*unknown hook 'register_tool'"):
        registry.register_plugin(Typo(), name="test-typo")
    assert not registry.pm.has_plugin("test-typo")


# --------------------------------------------------------------------------- entry points


def _distribution(folder, dist: str, entry: str, module: str, source: str) -> None:
    """An installed-looking distribution ``dist`` in ``folder``: the module ``module`` with
    ``source``, and a dist-info whose entry point ``entry`` (group ``byokg``) names it."""
    (folder / f"{module}.py").write_text(textwrap.dedent(source))
    info = folder / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[byokg]\n{entry} = {module}\n")


def _tool_plugin(tool: str) -> str:
    return f"""
        from byokg.hookspecs import hookimpl

        @hookimpl
        def register_tools(register):
            register({tool!r}, lambda: None)
    """


@pytest.fixture
def fake_distribution(fresh_manager, tmp_path, monkeypatch):
    # fresh_manager comes first so that it is torn down last: its reload must run after
    # monkeypatch has taken the fake distribution off sys.path again
    """An installed-looking distribution ``byokg-fakeplug`` (dist-info with an entry point in
    group ``byokg``) on sys.path, registering the tool ``fake-tool``."""
    _distribution(tmp_path, "byokg-fakeplug", "fakeplug", "byokg_fakeplug_mod",
                  _tool_plugin("fake-tool"))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "fakeplug"


@pytest.mark.parametrize(
    "setting, loaded",
    [(None, True), ("", False), ("fakeplug", True), ("byokg-fakeplug", True),
     ("someone-else, other", False), (" fakeplug , other", True)],
)
def test_byokg_load_plugins_restricts_entry_points(fake_distribution, fresh_manager, monkeypatch,
                                                   setting, loaded):
    if setting is None:
        monkeypatch.delenv("BYOKG_LOAD_PLUGINS", raising=False)
    else:
        monkeypatch.setenv("BYOKG_LOAD_PLUGINS", setting)
    described = registry.describe()
    assert ("fake-tool" in described["tools"]) is loaded
    if loaded:
        assert described["tools"]["fake-tool"] == "fakeplug"
    assert described["backends"]["memory"] == "byokg.backends.memory"  # built-ins always load


def test_broken_entry_point_plugin_is_named(fresh_manager, tmp_path, monkeypatch):
    _distribution(tmp_path, "byokg-broken", "broken", "byokg_broken_mod",
                  "raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("BYOKG_LOAD_PLUGINS", raising=False)
    with pytest.raises(PluginError, match="'broken'.*byokg-broken.*boom"):
        registry.load_plugins()
    monkeypatch.setenv("BYOKG_LOAD_PLUGINS", "")
    registry.load_plugins()  # restricting loading is the way round a broken plugin
    assert "memory" in registry.backends()


def test_two_entry_points_with_one_name_are_not_silently_merged(fake_distribution, fresh_manager,
                                                                tmp_path, monkeypatch):
    """A second distribution whose entry point reuses the name ``fakeplug`` is named in the
    error (strict) or in ``failures()`` (``byokg plugins``); it is not skipped without a word."""
    other = tmp_path / "second"
    other.mkdir()
    _distribution(other, "byokg-other", "fakeplug", "byokg_other_mod", _tool_plugin("other-tool"))
    monkeypatch.syspath_prepend(str(other))
    monkeypatch.delenv("BYOKG_LOAD_PLUGINS", raising=False)
    with pytest.raises(PluginError, match="'fakeplug'.*byokg_(other|fakeplug)_mod.*rename"):
        registry.load_plugins()
    registry.load_plugins(strict=False)
    assert any("rename" in why for why in registry.failures().values()), registry.failures()


# --------------------------------------------------------------------------- a real distribution


@pytest.mark.slow
def test_third_party_distribution_via_entry_point(tmp_path, byokg_wheel, example_plugin_wheel):
    """docs/example_plugin built and installed with byokg into a fresh venv."""
    venv = make_venv(tmp_path / "venv", [byokg_wheel, example_plugin_wheel])
    exe = str(venv / "bin" / "byokg")

    out = run([exe, "plugins", "--json"], cwd=tmp_path, env=venv_env()).stdout
    data = json.loads(out)["registered"]
    expected = {"tools": "entity-card", "backends": "inline", "llms": "canned",
                "embedders": "char-hash", "rerankers": "word-overlap", "datasets": "tsv-qa"}
    for kind, name in expected.items():
        assert data[kind].get(name) == "myplug", (kind, data[kind])
    assert data["backends"]["memory"] == "byokg.backends.memory"

    hidden = json.loads(run([exe, "plugins", "--json"], cwd=tmp_path,
                            env=venv_env(BYOKG_LOAD_PLUGINS="")).stdout)["registered"]
    assert all(p != "myplug" for items in hidden.values() for p in items.values())
    assert hidden["backends"]["memory"] == "byokg.backends.memory"
    by_dist = json.loads(run([exe, "plugins", "--json"], cwd=tmp_path,
                             env=venv_env(BYOKG_LOAD_PLUGINS="byokg-myplug")).stdout)["registered"]
    assert by_dist["tools"]["entity-card"] == "myplug"

    # the plugin's objects work: its backend serves a graph and its tool reads it
    script = textwrap.dedent("""
        from byokg import registry
        from byokg.graph.open import open_graph
        from byokg.models.services import Services
        from byokg.pipeline.tools import ToolRequest
        from byokg.contracts import Candidate, MentionLinks
        store = open_graph("inline:Björk|born_in|Reykjavík;Reykjavík|located_in|Iceland")
        assert store.stats().triplets == 2
        tool = registry.tools().create("entity-card")
        req = ToolRequest(question="q", store=store, services=Services(),
                          params=tool.Params(), entities=[MentionLinks(mention="bjork",
                          candidates=(Candidate(id="Björk", name="Björk", score=1,
                          method="exact"),))])
        res = tool.run(req)
        print(res.items[0].text, res.items[0].tool)
        emb = registry.embedders().create("char-hash").encode(["jazz", "jazz", "rock"])
        print(round(float(emb[0] @ emb[1]), 3), round(float(emb[0] @ emb[2]), 3) < 1)
        print(registry.llms().create("canned", "Reykjavík").complete("where?").text)
    """)
    out = run([str(venv / "bin" / "python"), "-c", script], cwd=tmp_path, env=venv_env())
    lines = out.stdout.splitlines()
    assert lines[0] == "Björk; is a Entity entity-card"
    assert lines[1] == "1.0 True"
    assert lines[2] == "Reykjavík"

    bad = subprocess.run([exe, "stats", "--graph", "inline:only-two|fields"], cwd=tmp_path,
                         env=venv_env(), capture_output=True, text=True)
    assert bad.returncode == 1 and "HEAD|REL|TAIL" in bad.stderr


def test_a_tool_class_says_its_name_once(all_hooks):
    class ByClass:
        @hookimpl
        def register_tools(self, register):
            class Named(EchoTool):
                name = "test-named-once"

            register(Named)

    registry.register_plugin(ByClass(), name="test-by-class")
    try:
        entry = registry.tools().get("test-named-once")
        assert entry.plugin == "test-by-class"
        assert registry.tools().create("test-named-once").name == "test-named-once"
    finally:
        registry.unregister_plugin("test-by-class")

    class Mismatch:
        @hookimpl
        def register_tools(self, register):
            register("other-name", EchoTool)  # EchoTool.name is "test-echo"

    with pytest.raises(PluginError, match="'other-name' with a class named 'test-echo'"):
        registry.register_plugin(Mismatch(), name="test-mismatch")

    class Nameless:
        @hookimpl
        def register_tools(self, register):
            register(lambda: None)

    with pytest.raises(PluginError, match="without a name"):
        registry.register_plugin(Nameless(), name="test-nameless")


def test_a_lazily_registered_linker_gets_its_registered_name():
    linker = registry.tools().create("entity-linker")
    assert linker.name == "entity-linker"
