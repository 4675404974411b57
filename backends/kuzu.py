"""Kùzu graph store (``kuzu:PATH``, embedded, kuzu 0.11.3) and ``byokg load --into kuzu:PATH``.

Kùzu is archived (0.11.3 is its last release); its maintained fork LadybugDB has its own
backend (``ladybug:PATH``, byokg.backends.ladybug). Both are the shared Kùzu-family store of
:mod:`byokg.cypher.kuzufamily` with an engine description (:mod:`byokg.cypher.kuzuengine`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from typing import ClassVar

from byokg.cypher.kuzuengine import KUZU
from byokg.cypher.kuzuengine import KuzuEngine
from byokg.cypher.kuzufamily import KuzuFamilyGraph
from byokg.cypher.kuzufamily import load_into
from byokg.hookspecs import hookimpl


class KuzuGraph(KuzuFamilyGraph):
    """A Kùzu database opened read-only as a GraphStore with the cypher capability."""

    engine: ClassVar[KuzuEngine] = KUZU
    worker_factory: ClassVar[str] = "byokg.backends.kuzu:open_kuzu"
    dialect = "kuzu"


def open_kuzu(uri: str, **options: Any) -> KuzuGraph:
    """Backend factory for ``kuzu:PATH[?option=value&…]``."""
    return KuzuGraph(uri, **options)


def load_kuzu(sources: Sequence[str], into: str, **options: Any):
    """``byokg load --into kuzu:PATH`` (see :func:`byokg.cypher.kuzufamily.load_into`)."""
    return load_into(KUZU, sources, into, **options)


@hookimpl
def register_backends(register):
    register("kuzu", open_kuzu, loader=load_kuzu)
