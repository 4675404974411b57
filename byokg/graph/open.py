"""Opening graphs by URI: ``memory:PATH``, ``kuzu:PATH``, ``ladybug:PATH``, ``neo4j://…``,
``bolt://…``, ``falkordb://HOST:PORT/GRAPH``, ``neptune-graph://GRAPH_ID``,
``neptune-db://HOST[:PORT]``. The scheme picks the backend
registered through the ``register_backends`` hook.

Every URI may carry options after ``?`` (``&``-separated, percent-encoded, read by
:func:`split_query` the way Bolt URIs are). Two are handled here for every backend:
``display=Label.prop,Other.a+b`` overrides the display property the graph's profile would choose
(see :mod:`byokg.graph.profile`), and ``lexicon=FILE`` names the graph owner's lexicon file (see
:mod:`byokg.graph.vocabulary`); the other options belong to the backend, which refuses unknown
ones."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from pathlib import Path as FsPath
from typing import TYPE_CHECKING
from typing import Any
from urllib.parse import parse_qsl
from urllib.parse import urlencode

from byokg.errors import ConfigError
from byokg.graph.store import GraphStore

if TYPE_CHECKING:
    from byokg.contracts import Triplet


def uri_scheme(uri: str) -> str:
    if ":" not in uri:
        raise ConfigError(
            f"graph URI {uri!r} has no scheme; use memory:PATH, kuzu:PATH, ladybug:PATH, "
            "neo4j://HOST, bolt://HOST, falkordb://HOST:PORT/GRAPH, neptune-graph://GRAPH_ID "
            "or neptune-db://HOST[:PORT] "
            "(memory:demo is the built-in demo graph)"
        )
    return uri.split(":", 1)[0].lower()


def split_query(uri: str) -> tuple[str, dict[str, str]]:
    """``(uri before '?', options)``: the query string parsed like a Bolt URI's (``&``-separated
    ``key=value`` pairs, percent-decoding, ``+`` read as a space; the last value of a repeated
    key wins). A malformed pair is a ConfigError."""
    base, sep, query = uri.partition("?")
    if not sep:
        return uri, {}
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise ConfigError(f"{uri!r}: cannot read the options after '?' (write key=value pairs "
                          "joined by '&', e.g. ?display=Person.fullName&timeout=10)") from None
    return base, dict(pairs)


def without_option(uri: str, key: str) -> tuple[str, str | None]:
    """``uri`` without the query option ``key``, and that option's value (None: absent)."""
    base, opts = split_query(uri)
    if key not in opts:
        return uri, None
    value = opts.pop(key)
    return (base + ("?" + urlencode(opts) if opts else "")), value


def open_graph(uri: str, *, display: Any = None, lexicon: str | None = None,
               **options: Any) -> GraphStore:
    """Open the graph at ``uri`` with the backend registered for its scheme.

    ``display`` (and ``?display=`` in the URI, which wins) overrides the display property of
    labels: ``"Person.fullName,Prize.category+year"`` or ``{"Person": "fullName"}``.
    ``lexicon`` (and ``?lexicon=FILE``, which wins) names the graph owner's lexicon file
    (:mod:`byokg.graph.vocabulary`). The store is handed its profiler: the graph's profile
    (:mod:`byokg.graph.profile`) is built, or read from its disk cache, the first time the
    store names a node."""
    from byokg import registry
    from byokg.graph.profile import apply_display
    from byokg.graph.profile import apply_lexicon_option
    from byokg.graph.profile import parse_display
    from byokg.graph.profile import profile_graph

    scheme = uri_scheme(uri)
    reg = registry.backends()
    if scheme not in reg:
        known = ", ".join(sorted(reg.names())) or "none"
        raise ConfigError(f"no backend for URI scheme {scheme!r} in {uri!r} (known: {known})")
    uri, in_uri = without_option(uri, "display")
    uri, lex_uri = without_option(uri, "lexicon")
    wanted = {**parse_display(display), **parse_display(in_uri)}  # validated before opening
    store = reg.create(scheme, uri, **options)
    if getattr(store, "profiler", False) is None:  # a BaseGraphStore with none of its own
        store.profiler = profile_graph  # type: ignore[attr-defined]
    try:
        if wanted:
            apply_display(store, wanted, prefer=True)
        if lex_uri or lexicon:
            apply_lexicon_option(store, lex_uri or lexicon, prefer=True)
    except BaseException:
        store.close()
        raise
    return store


def builtin_graph(name: str) -> FsPath | None:
    """The file of a graph that ships with byokg, by name (``demo``), or None.

    File-backed backends resolve these names before paths, so ``memory:demo`` opens the demo
    graph whatever the current folder holds (the store's ``uri`` stays ``memory:demo``)."""
    if name == "demo":
        from byokg.demo import DEMO_GRAPH

        return DEMO_GRAPH
    return None


def graph_from_triplets(
    rows: Iterable[Triplet | tuple[str, str, str]], *, uri: str = "memory:",
    backend: str = "memory", names: Mapping[str, str] | None = None,
) -> GraphStore:
    """A graph built in memory from ``(head, relation, tail)`` tuples or Triplets, by the
    ``from_triplets`` the ``backend`` registered (``register(…, from_triplets=…)``); ``uri`` is
    what the store reports as its ``uri``; ``names``: display names of node ids (handed on only
    when given). A row that is not three non-empty strings is an
    :class:`~byokg.errors.InputError` naming it."""
    from byokg import registry

    entry = registry.backends().get(backend)
    build = entry.meta.get("from_triplets")
    if build is None:
        raise ConfigError(
            f"backend {backend!r} (plugin {entry.plugin}) cannot build a graph from triplets; "
            "use backend='memory'"
        )
    return build(rows, uri=uri, names=names) if names else build(rows, uri=uri)
