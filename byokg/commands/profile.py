"""``byokg profile``: what byokg chose about a graph (display names, keys, types, relation
signatures) and why."""

from __future__ import annotations

import click

from byokg.commands.common import _opened, echo_json, echo_safe

from .options import display_option


@click.command()
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. kuzu:./g.kz.")
@display_option
@click.option("--refresh", is_flag=True, help="Rebuild the profile even if a cached one matches.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="Where profiles are cached (default $BYOKG_CACHE_DIR or ~/.cache/byokg).")
@click.option("--json", "as_json", is_flag=True, help="Print the profile as JSON.")
def profile(graph_uri: str, display: str | None, refresh: bool, cache_dir: str | None,
            as_json: bool) -> None:
    """Profile the graph: per label the property that names its nodes (and why), the key,
    each property's type and examples; per relationship type its domain, range, cardinality
    and properties; which properties are numbers and dates."""
    from byokg.graph.profile import profile_graph

    with _opened(graph_uri, display=display) as store:
        prof = profile_graph(store, refresh=refresh, cache_dir=cache_dir)
    if as_json:
        echo_json(prof.model_dump(mode="json"))
    else:
        echo_safe(prof.describe())
