"""What ``byokg plugins`` shows: every installed plugin distribution (entry-point group
``byokg``) with its version, each of its plugins' status, and what each registered, including
plugins that registered nothing, plugins that failed and plugins ``BYOKG_LOAD_PLUGINS`` left out.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel
from pydantic import Field

from byokg import __version__
from byokg import registry


class PluginInfo(BaseModel):
    """One plugin (an entry point, a built-in module, or a plugin registered at run time)."""

    name: str  # the name the registries record as its plugin
    target: str | None = None  # the entry point's ``module:attr``
    status: Literal["loaded", "failed", "not loaded"]
    error: str | None = None  # why it failed or was not loaded
    registered: dict[str, list[str]] = Field(default_factory=dict)  # kind -> names


class DistributionInfo(BaseModel):
    """An installed distribution that provides plugins (``byokg`` itself for the built-ins)."""

    name: str | None  # None: plugins registered at run time, not installed
    version: str | None = None
    builtin: bool = False
    plugins: list[PluginInfo] = Field(default_factory=list)


def installed_plugins() -> list[DistributionInfo]:
    """Load plugins without stopping at a broken one, then describe every distribution."""
    from importlib.metadata import entry_points

    registry.load_plugins(strict=False)
    failed = registry.failures()
    by_plugin: dict[str, dict[str, list[str]]] = {}
    for kind, items in registry.describe().items():
        for name, plugin in items.items():
            by_plugin.setdefault(plugin, {}).setdefault(kind, []).append(name)
    allowed = registry._allowed_entry_points()
    loaded = dict(registry.pm.list_name_plugin())
    seen: set[str] = set()

    def info(name: str, target: str | None = None, skipped: str | None = None) -> PluginInfo:
        seen.add(name)
        if name in failed:
            return PluginInfo(name=name, target=target, status="failed", error=failed[name],
                              registered=by_plugin.get(name, {}))
        if skipped or name not in loaded:
            return PluginInfo(name=name, target=target, status="not loaded",
                              error=skipped or "not registered")
        return PluginInfo(name=name, target=target, status="loaded",
                          registered=by_plugin.get(name, {}))

    builtins = [info(m) for m in registry.DEFAULT_PLUGINS if m in loaded]
    out = [DistributionInfo(name="byokg", version=__version__, builtin=True, plugins=builtins)]
    dists: dict[str, DistributionInfo] = {}
    for ep in sorted(entry_points(group=registry.ENTRY_POINT_GROUP),
                     key=lambda e: (e.dist.name if e.dist else "", e.name)):
        dist_name = ep.dist.name if ep.dist is not None else None
        dist = dists.get(dist_name or "")
        if dist is None:
            dist = DistributionInfo(name=dist_name or ep.name,
                                    version=ep.dist.version if ep.dist is not None else None)
            dists[dist_name or ""] = dist
        skipped = None
        if allowed is not None and ep.name not in allowed and dist_name not in allowed:
            skipped = "left out by BYOKG_LOAD_PLUGINS"
        elif ep.name in loaded and not _is(ep, loaded[ep.name]):
            skipped = f"another plugin is already registered as {ep.name!r}"
        dist.plugins.append(info(ep.name, ep.value, skipped))
    out.extend(dists.values())
    rest = [n for n in loaded if n not in seen] + [n for n in failed if n not in seen]
    if rest:  # registered at run time (notebooks, tests)
        out.append(DistributionInfo(name=None, plugins=[info(n) for n in dict.fromkeys(rest)]))
    return out


def _is(ep, plugin: object) -> bool:
    """Whether the registered ``plugin`` is what entry point ``ep`` names (not a namesake)."""
    try:
        return ep.load() is plugin
    except Exception:
        return False
