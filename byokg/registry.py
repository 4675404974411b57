"""byokg.registry: the plugin manager and one registry per hook kind.

Built-ins (the modules of ``byokg.plugins`` and ``byokg.backends`` in DEFAULT_PLUGINS) and
third-party plugins register through the same hooks.

Plugins load lazily, once, on first use of a registry. ``BYOKG_LOAD_PLUGINS`` (comma-separated
distribution or plugin names; empty string for none) restricts which installed entry-point
plugins load; built-ins always load.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import pluggy

from byokg import hookspecs
from byokg.errors import ConfigError
from byokg.errors import PluginError

DEFAULT_PLUGINS: tuple[str, ...] = (
    "byokg.backends.memory",
    "byokg.backends.kuzu",
    "byokg.backends.ladybug",
    "byokg.backends.falkordb",
    "byokg.backends.neo4j",
    "byokg.backends.neptune",
    "byokg.plugins.linking",
    "byokg.plugins.kglinker",
    "byokg.plugins.routing",
    "byokg.plugins.offline",
    "byokg.plugins.paths",
    "byokg.plugins.cypher",
    "byokg.plugins.agentic",
    "byokg.plugins.scoring",
    "byokg.plugins.providers",
    "byokg.plugins.evaluation",  # datasets (named so it does not shadow datasets())
)

ENTRY_POINT_GROUP = "byokg"

pm = pluggy.PluginManager("byokg")
pm.add_hookspecs(hookspecs)


@dataclass(frozen=True)
class Registered:
    """A registered object: its name, its factory and the plugin that registered it."""

    kind: str
    name: str
    factory: Callable[..., Any]
    plugin: str
    meta: dict[str, Any]


class Registry:
    """One registry per hook kind (tools, backends, llms, embedders, rerankers, datasets)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, Registered] = {}

    def add(self, name: str, factory: Callable[..., Any], plugin: str, **meta: Any) -> None:
        if not isinstance(name, str) or not name:
            raise PluginError(f"plugin {plugin!r} registered a {self.kind[:-1]} with an empty name")
        if not callable(factory):
            raise PluginError(f"plugin {plugin!r}: {self.kind[:-1]} {name!r} is not callable")
        if name in self._items:
            other = self._items[name].plugin
            raise PluginError(
                f"{self.kind[:-1]} {name!r} is registered twice: by plugin {other!r} and by "
                f"plugin {plugin!r}; uninstall one or restrict loading with BYOKG_LOAD_PLUGINS"
            )
        self._items[name] = Registered(self.kind, name, factory, plugin, dict(meta))

    def get(self, name: str) -> Registered:
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "none"
            raise ConfigError(f"unknown {self.kind[:-1]} {name!r} (registered: {known})") from None

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[Registered]:
        return iter(self._items.values())

    def names(self) -> list[str]:
        return list(self._items)

    def create(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the factory; a created object without a name of its own gets the registered one."""
        obj = self.get(name).factory(*args, **kwargs)
        if hasattr(obj, "name") and not getattr(obj, "name", None):
            try:
                obj.name = name
            except (AttributeError, TypeError):  # frozen or slotted objects keep what they have
                pass
        return obj


_lock = threading.RLock()
_loaded = False
_registries: dict[str, Registry] = {}
_failures: dict[str, str] = {}  # plugin name -> error, from load_plugins(strict=False)


def _allowed_entry_points() -> set[str] | None:
    raw = os.environ.get("BYOKG_LOAD_PLUGINS")
    if raw is None:
        return None
    return {p.strip() for p in raw.split(",") if p.strip()}


def _load_entry_points(errors: dict[str, str] | None = None) -> None:
    from importlib.metadata import entry_points

    allowed = _allowed_entry_points()
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist.name if ep.dist is not None else ep.name
        if allowed is not None and ep.name not in allowed and dist not in allowed:
            continue
        if pm.has_plugin(ep.name):
            held = pm.get_plugin(ep.name)
            if getattr(held, "__name__", None) == ep.module:
                continue  # the same module listed twice (a distribution seen on two paths)
            msg = (f"entry point {ep.name!r} of {dist} ({ep.value}) has the name of a plugin "
                   f"already loaded ({getattr(held, '__name__', held)!r}); rename one of them")
            if errors is None:
                raise PluginError(f"plugin {ep.name!r}: {msg}")
            errors[f"{ep.name} ({dist})"] = msg
            continue
        try:
            mod = ep.load()
        except Exception as exc:  # a broken plugin must say which one
            if errors is None:
                raise PluginError(f"plugin {ep.name!r} (from {dist}) failed to load: {exc}") from exc
            errors[ep.name] = f"failed to load: {type(exc).__name__}: {exc}"
            continue
        pm.register(mod, name=ep.name)


def load_plugins(*, strict: bool = True) -> None:
    """Register built-ins and entry-point plugins once, then fill the registries.

    ``strict=False`` (``byokg plugins``) does not stop at a broken plugin: it is left out and
    its error kept in :func:`failures`."""
    global _loaded
    with _lock:
        if _loaded:
            return
        for mod_name in DEFAULT_PLUGINS:
            if pm.has_plugin(mod_name):
                continue
            try:
                mod = importlib.import_module(mod_name)
            except ModuleNotFoundError as exc:
                if exc.name == mod_name:  # built-in not present in this build
                    continue
                raise
            pm.register(mod, name=mod_name)
        errors = None if strict else _failures
        _load_entry_points(errors)
        _fill_registries(errors)
        _loaded = True


def failures() -> dict[str, str]:
    """Plugins left out by a ``load_plugins(strict=False)``: plugin name -> what went wrong."""
    return dict(_failures)


def _fill_registries(errors: dict[str, str] | None = None) -> None:
    while True:  # a hookimpl whose name is no hook (a typo) would otherwise register nothing
        try:
            pm.check_pending()
            break
        except pluggy.PluginValidationError as exc:
            name = pm.get_name(exc.plugin) or repr(exc.plugin)
            hooks = ", ".join(hookspecs.HOOK_KINDS)
            msg = f"{exc.args[0].split(' in plugin')[0]}; byokg's hooks are {hooks}"
            if errors is None:
                raise PluginError(f"plugin {name!r}: {msg}") from exc
            errors[name] = msg
            pm.unregister(exc.plugin)
    fresh: dict[str, Registry] = {}  # built aside, swapped in whole: a failure leaves the old ones
    for hook_name, kind in hookspecs.HOOK_KINDS.items():
        reg = Registry(kind)
        caller = getattr(pm.hook, hook_name)
        for impl in caller.get_hookimpls():  # registration order
            def register(
                name: Any, factory: Callable[..., Any] | None = None, _p=impl.plugin_name,
                _r=reg, **meta: Any
            ) -> None:
                _r.add(*_named(name, factory, _r.kind, _p), _p, **meta)

            if errors is None:
                impl.function(register=register)
            elif impl.plugin_name not in errors:
                try:
                    impl.function(register=register)
                except Exception as exc:  # kept for `byokg plugins`, which lists it
                    errors[impl.plugin_name] = f"{hook_name}: {type(exc).__name__}: {exc}"
        fresh[kind] = reg
    _registries.clear()
    _registries.update(fresh)


def _named(name: Any, factory: Callable[..., Any] | None, kind: str,
           plugin: str) -> tuple[str, Callable[..., Any]]:
    """``register(name, factory)``, or ``register(cls)`` where ``cls.name`` says the name once.

    A factory that carries a ``name`` (a Tool class) must be registered under that name."""
    if factory is None:
        factory = name
        name = getattr(factory, "name", None)
        if not isinstance(name, str) or not name:
            raise PluginError(
                f"plugin {plugin!r} registered {factory!r} as a {kind[:-1]} without a name: "
                "call register(name, factory), or give the class a name attribute")
        return name, factory
    own = getattr(factory, "name", None) if isinstance(factory, type) else None
    if isinstance(own, str) and own and name and own != name:
        raise PluginError(
            f"plugin {plugin!r} registered {kind[:-1]} {name!r} with a class named {own!r}; "
            f"register the class alone (register({factory.__name__})) so the name is said once")
    return name, factory


def register_plugin(module: Any, name: str | None = None) -> None:
    """Register a plugin object at run time (tests, notebooks) and rebuild the registries."""
    with _lock:
        load_plugins()
        pm.register(module, name=name)
        try:
            _fill_registries()
        except Exception:  # e.g. a name registered twice: leave the manager as it was
            pm.unregister(module)
            raise


def unregister_plugin(name: str) -> None:
    with _lock:
        pm.unregister(name=name)
        _fill_registries()


def reset() -> None:
    """Forget loaded plugins (tests)."""
    global _loaded
    with _lock:
        for name, _plugin in list(pm.list_name_plugin()):
            pm.unregister(name=name)
        _registries.clear()
        _failures.clear()
        _loaded = False


def registry(kind: str) -> Registry:
    load_plugins()
    try:
        return _registries[kind]
    except KeyError:
        raise ConfigError(f"unknown registry {kind!r}") from None


# one accessor per hook kind: ``tools()`` is ``registry("tools")``
tools = partial(registry, "tools")
backends = partial(registry, "backends")
llms = partial(registry, "llms")
embedders = partial(registry, "embedders")
rerankers = partial(registry, "rerankers")
datasets = partial(registry, "datasets")


def describe() -> dict[str, dict[str, str]]:
    """``{kind: {name: plugin}}`` for ``byokg plugins``."""
    load_plugins()
    return {kind: {r.name: r.plugin for r in reg} for kind, reg in _registries.items()}
