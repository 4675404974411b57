"""LadybugDB graph store (``ladybug:PATH``, embedded, PyPI ``ladybug``) and
``byokg load --into ladybug:PATH``.

LadybugDB is Kùzu's maintained fork, with Kùzu's Python API and Cypher dialect but its own file
format: this backend is the shared Kùzu-family store (:mod:`byokg.cypher.kuzufamily`) with the
LadybugDB engine description. A Kùzu file opened here (or a LadybugDB file opened as ``kuzu:``)
is refused with a message naming the engine that wrote it and the way across (docs/backends.md).
The two engines' native modules cannot share a process; when Kùzu is loaded in this one,
LadybugDB runs in a child process (:mod:`byokg.cypher.kuzuengine`). The class opens a
database (``LadybugGraph(uri, **options)``), ``LadybugGraph.load`` writes one.
"""

from __future__ import annotations

from typing import ClassVar

from byokg.cypher.kuzuengine import LADYBUG
from byokg.cypher.kuzuengine import KuzuEngine
from byokg.cypher.kuzufamily import KuzuFamilyGraph
from byokg.hookspecs import hookimpl


class LadybugGraph(KuzuFamilyGraph):
    """A LadybugDB database opened read-only as a GraphStore with the cypher capability."""

    engine: ClassVar[KuzuEngine] = LADYBUG
    worker_factory: ClassVar[str] = "byokg.backends.ladybug:LadybugGraph"
    dialect = "ladybug"


@hookimpl
def register_backends(register):
    register("ladybug", LadybugGraph, loader=LadybugGraph.load)
