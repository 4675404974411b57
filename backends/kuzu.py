"""Kùzu graph store (``kuzu:PATH``, embedded, kuzu 0.11.3) and ``byokg load --into kuzu:PATH``.

Kùzu is archived (0.11.3 is its last release); its maintained fork LadybugDB has its own
backend (``ladybug:PATH``, byokg.backends.ladybug). Both are the shared Kùzu-family store of
:mod:`byokg.cypher.kuzufamily` with an engine description (:mod:`byokg.cypher.kuzuengine`):
the class opens a database (``KuzuGraph(uri, **options)``), ``KuzuGraph.load`` writes one.
"""

from __future__ import annotations

from typing import ClassVar

from byokg.cypher.kuzuengine import KUZU
from byokg.cypher.kuzuengine import KuzuEngine
from byokg.cypher.kuzufamily import KuzuFamilyGraph
from byokg.hookspecs import hookimpl


class KuzuGraph(KuzuFamilyGraph):
    """A Kùzu database opened read-only as a GraphStore with the cypher capability."""

    engine: ClassVar[KuzuEngine] = KUZU
    worker_factory: ClassVar[str] = "byokg.backends.kuzu:KuzuGraph"
    dialect = "kuzu"


load_kuzu = KuzuGraph.load  # ``byokg load --into kuzu:PATH`` (see kuzufamily.load_into)


@hookimpl
def register_backends(register):
    register("kuzu", KuzuGraph, loader=KuzuGraph.load)
