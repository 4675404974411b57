"""``byokg load``: write triple files or property-graph CSVs into a graph store, through the
``loader`` its backend registered (``register(scheme, factory, loader=…)``; docs/plugins.md).

Loaders read triple files with :mod:`byokg.io.readers` and property-graph CSVs with
:mod:`byokg.io.pgmapping`, and return a :class:`LoadSummary`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from byokg.errors import ConfigError
from byokg.graph.open import uri_scheme
from byokg.io.readers import Limits
from byokg.io.readers import LoadReport


@dataclass(kw_only=True)
class LoadSummary(LoadReport):
    """What ``byokg load`` wrote into ``target`` (read from ``source``), and what it skipped
    (never silently)."""

    target: str

    @classmethod
    def of(cls, target: str, report: LoadReport) -> LoadSummary:
        """The summary of a load into ``target`` that read and froze its sources with
        ``report`` (:meth:`byokg.io.readers.TripleBuilder.freeze` fills nodes and triplets)."""
        return cls(target=target, **{**vars(report), "reasons": list(report.reasons),
                                      "notes": list(report.notes)})

    def summary(self) -> str:
        lines = [
            f"loaded {self.triplets:,} triplets over {self.nodes:,} nodes into {self.target}",
        ]
        if self.duplicates:
            lines.append(f"duplicates skipped: {self.duplicates:,}")
        if self.bad_rows:
            lines.append(f"bad rows skipped: {self.bad_rows:,}; first reasons:")
            lines += [f"  {r}" for r in self.reasons]
        notes = list(self.notes) + ([] if self.bad_rows else list(self.reasons))
        if notes:
            lines.append("notes:")
            lines += [f"  {n}" for n in notes]
        return "\n".join(lines)


def load_into(
    sources: list[str], into: str, *, mapping: str | None = None, skip_bad_rows: bool = False,
    limits: Limits | None = None, columns: Sequence[str] | None = None,
) -> LoadSummary:
    """Load ``sources`` into the store at ``into`` with the ``loader`` its backend registered
    (``memory:FILE.jsonl`` writes a validated, deduplicated JSONL file; see docs/backends.md).
    ``limits`` (line length, number digits, nesting) reach the built-in readers; the default
    comes from the ``BYOKG_MAX_*`` environment variables. ``columns``: the column order of
    triple CSV/TSV files without a header (e.g. ``["head", "relation", "tail"]``)."""
    from byokg import registry

    entry = registry.backends().get(uri_scheme(into))
    loader = entry.meta.get("loader")
    if loader is None:
        raise ConfigError(
            f"backend {entry.name!r} (plugin {entry.plugin}) does not support `byokg load`"
        )
    extra: dict[str, Any] = {"limits": limits} if limits is not None else {}
    if columns is not None:
        if mapping:
            raise ConfigError("--columns is for triple files; a --mapping names its own columns")
        extra["columns"] = list(columns)
    return loader(sources, into, mapping=mapping, skip_bad_rows=skip_bad_rows, **extra)
