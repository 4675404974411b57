"""``byokg profile``: what byokg chose about a graph (display names, keys, types, relation
signatures) and why, and the graph's vocabulary (name aliases, relation and label phrases)."""

from __future__ import annotations

import click

from byokg.commands.common import _opened
from byokg.commands.common import echo_json
from byokg.commands.common import echo_safe

from .options import display_option
from .options import llm_option


@click.command()
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. kuzu:./g.kz.")
@display_option
@click.option("--lexicon", type=click.Path(dir_okay=False), default=None,
              help="The graph owner's lexicon file (.toml or .json: relation and label -> "
                   "phrases); a URI's ?lexicon= wins.")
@click.option("--compile-words", is_flag=True,
              help="Have the LLM (--llm) write phrases for every relation and label now (one "
                   "call per 50), cached with the profile; later questions reuse them.")
@llm_option("--llm", "llm", default=None, help="LLM spec for --compile-words: {names}.")
@click.option("--refresh", is_flag=True, help="Rebuild the profile even if a cached one matches.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="Where profiles are cached (default $BYOKG_CACHE_DIR or ~/.cache/byokg).")
@click.option("--json", "as_json", is_flag=True, help="Print the profile as JSON.")
def profile(graph_uri: str, display: str | None, lexicon: str | None, compile_words: bool,
            llm: str | None, refresh: bool, cache_dir: str | None, as_json: bool) -> None:
    """Profile the graph: per label the property that names its nodes (and why), its aliases,
    the key, each property's type and examples; per relationship type its domain, range,
    cardinality and properties; which properties are numbers and dates; and the vocabulary:
    how questions may say each relation (both ways) and label, from the names, the lexicon
    file and the LLM's compilation."""
    from byokg.graph.profile import profile_graph

    model = None
    if compile_words:
        if not llm or llm == "none":
            raise click.UsageError("--compile-words needs an LLM: --llm openai:MODEL (or "
                                   "bedrock:ID, …)")
        from byokg.models.llm import create_llm

        model = create_llm(llm)
    elif llm:
        raise click.UsageError("--llm is used by --compile-words only")
    with _opened(graph_uri, display=display, lexicon=lexicon) as store:
        prof = profile_graph(store, refresh=refresh, cache_dir=cache_dir, llm=model,
                             recompile=compile_words)
    if as_json:
        echo_json(prof.model_dump(mode="json"))
    else:
        echo_safe(prof.describe())
