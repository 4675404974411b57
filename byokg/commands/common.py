"""What every command shares: printing (JSON, and text with untrusted parts escaped) and opening a
graph for the length of one command."""

from __future__ import annotations

import json
import logging
from typing import Any

import click

from byokg.presentation.termsafe import json_safe
from byokg.presentation.termsafe import terminal_safe
from byokg.redaction import redact_uri

log = logging.getLogger("byokg.cli")


def echo_json(data: Any) -> None:
    click.echo(json_safe(json.dumps(data, indent=2, ensure_ascii=False, default=str)))


def echo_safe(text: object = "", *, err: bool = False) -> None:
    """Print text this program assembled from untrusted parts: line breaks kept, every other
    control character shown escaped (see byokg.presentation.termsafe)."""
    click.echo(terminal_safe(text, newlines=True), err=err)


class _opened:
    """Open a graph for one command and close it afterwards."""

    def __init__(self, uri: str, **options: Any) -> None:
        self.uri, self.options = uri, options

    def __enter__(self):
        import time

        from byokg.graph.open import open_graph

        t0 = time.perf_counter()
        self.store = open_graph(self.uri, **self.options)
        log.info("opened %s in %.2fs", redact_uri(self.uri), time.perf_counter() - t0)
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()
