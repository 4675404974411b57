"""Click options whose help lists what the plugin registry holds (read when the help is shown,
so ``byokg --help`` loads no plugin and a third-party provider appears in the help)."""

from __future__ import annotations

from typing import Any

import click


class RegistryOption(click.Option):
    """``help`` is a template: ``{names}`` becomes the names registered in ``registry_kind``,
    each written as ``fmt`` (e.g. ``"{}:MODEL"`` for LLM specs)."""

    def __init__(self, *args: Any, registry_kind: str, fmt: str = "{}", extra: tuple[str, ...] = (),
                 **kwargs: Any) -> None:
        self.template = kwargs.get("help") or ""
        self.registry_kind, self.fmt, self.extra = registry_kind, fmt, extra
        super().__init__(*args, **kwargs)

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from byokg import registry

        names = [*self.extra, *(self.fmt.format(n) for n in sorted(registry.registry(
            self.registry_kind).names()))]
        self.help = self.template.format(names=", ".join(names))
        return super().get_help_record(ctx)


def llm_option(*decls: str, **kwargs: Any) -> Any:
    """``--llm SPEC`` listing the registered providers."""
    kwargs.setdefault("help", "LLM spec: {names}.")
    return click.option(*decls, cls=RegistryOption, registry_kind="llms", fmt="{}:…",
                        extra=("none",), **kwargs)


def display_option(fn: Any) -> Any:
    """``--display Label.prop,…``: the display property per label (overrides the profile)."""
    return click.option(
        "--display", "display", default=None, metavar="LABEL.PROP,…",
        help="Display property per label, overriding the graph profile's choice "
             "(e.g. Person.fullName,Prize.category+year).")(fn)
