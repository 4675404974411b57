"""``byokg link`` (link mentions to graph nodes) and ``byokg index build`` (build and save the
linking indexes)."""

from __future__ import annotations

import time

import click

from byokg.commands.common import _opened
from byokg.commands.common import echo_json
from byokg.commands.common import echo_safe
from byokg.presentation.termsafe import terminal_safe

from .options import RegistryOption
from .options import display_option


def _services(index_dir: str | None, embedder: str | None):
    from byokg.models.services import Services

    from ..config import RunConfig

    return Services(RunConfig(index_dir=index_dir, embedder=embedder))


@click.command()
@click.argument("mentions", nargs=-1, required=True)
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. memory:demo.")
@click.option("--method", type=click.Choice(["auto", "fuzzy", "dense", "both"]), default="auto",
              show_default=True, help="fuzzy, dense, their union (both), or auto (both when "
              "--embedder is given, else fuzzy).")
@click.option("--top-k", "top_k", type=click.IntRange(1, 100), default=3, show_default=True,
              help="Candidates per mention and method.")
@click.option("--min-score", type=click.FloatRange(0, 1), default=0.6, show_default=True,
              help="Lowest fuzzy score kept.")
@click.option("--embedder", default=None, cls=RegistryOption, registry_kind="embedders",
              help="Embedder for dense linking ({names}).")
@click.option("--index-dir", type=click.Path(file_okay=False), default=None,
              help="Reuse/save indexes here (see `byokg index build`).")
@click.option("--no-store-index", is_flag=True, help="Ignore the store's full-text/vector index.")
@display_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def link(mentions: tuple[str, ...], graph_uri: str, method: str, top_k: int, min_score: float,
         embedder: str | None, index_dir: str | None, no_store_index: bool, display: str | None,
         as_json: bool) -> None:
    """Link MENTION... to graph nodes: candidates per mention, best first."""
    from byokg import registry

    if method in ("dense", "both") and embedder is None:
        from byokg.models.embedders import default_embedder_name

        embedder = default_embedder_name()
    services = _services(index_dir, embedder)
    linker = registry.tools().create(services.config.linker)  # the run's linker, by name
    params = linker.Params(method=method, top_k=top_k, min_score=min_score,
                           use_store_index=not no_store_index)
    with _opened(graph_uri, display=display) as store:
        links = linker.link(list(mentions), store=store, services=services, params=params)
    if as_json:
        echo_json([ml.model_dump(mode="json") for ml in links])
        return
    for ml in links:  # names and ids are graph text: shown with control characters escaped
        echo_safe(f"{terminal_safe(ml.mention)}:")
        if not ml.candidates:
            click.echo("  (no match)")
        for c in ml.candidates:
            name, cid = terminal_safe(c.name), terminal_safe(c.id)
            shown = name if c.name == c.id else f"{name}  [{cid}]"
            echo_safe(f"  {c.score:5.3f}  {terminal_safe(c.method):<8} {shown}")


@click.group()
def index() -> None:
    """Build and save entity-linking indexes."""


@index.command("build")
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. memory:demo.")
@click.option("--dense", is_flag=True, help="Also build the dense (FAISS) index.")
@click.option("--embedder", default=None, cls=RegistryOption, registry_kind="embedders",
              help="Embedder for --dense ({names}; default: minilm when its weights are installed, else static).")
@click.option("--index-dir", type=click.Path(file_okay=False), default=None,
              help="Where to save (default $BYOKG_CACHE_DIR or ~/.cache/byokg).")
@display_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def build(graph_uri: str, dense: bool, embedder: str | None, index_dir: str | None,
          display: str | None, as_json: bool) -> None:
    """Build (or verify and reuse) the fuzzy name index and optionally the dense index."""
    from byokg.config import slug
    from byokg.linking.indexes import get_dense_index
    from byokg.linking.indexes import get_name_index
    from byokg.linking.manifest import default_index_dir

    root = index_dir or str(default_index_dir())
    if dense and embedder is None:
        from byokg.models.embedders import default_embedder_name

        embedder = default_embedder_name()
    services = _services(root, embedder)
    report = []
    with _opened(graph_uri, display=display) as store:
        t0 = time.perf_counter()
        names = get_name_index(store, services)
        report.append({"index": "names", "status": names.status, "names": names.count,
                       "distinct": len(names), "seconds": round(time.perf_counter() - t0, 2),
                       "path": f"{root}/{slug(store.uri)}/names"})
        if dense:
            t0 = time.perf_counter()
            vecs = get_dense_index(store, services)
            report.append({"index": "dense", "status": vecs.status, "names": vecs.count,
                           "distinct": len(vecs), "embedder": vecs.embedder.name,
                           "dim": vecs.embedder.dim,
                           "seconds": round(time.perf_counter() - t0, 2),
                           "path": f"{root}/{slug(store.uri)}/dense-{slug(vecs.embedder.name)}"})
    if as_json:
        echo_json(report)
        return
    for r in report:
        extra = f", {r['embedder']} dim {r['dim']}" if "embedder" in r else ""
        echo_safe(f"{r['index']}: {r['status']} ({r['names']:,} names, {r['distinct']:,} distinct"
                   f"{extra}) in {r['seconds']}s -> {r['path']}")
