"""The ``byokg`` command line.

Core commands live here; bigger ones (ask, link, index, eval, demo) are loaded lazily from their
own modules so ``byokg --help`` stays fast. Errors print one line and exit 1 (traceback with
``--debug``).
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import click

from .errors import ByokgError

# name -> "module:attribute" of a click command, imported on first use
LAZY_COMMANDS: dict[str, str] = {
    "ask": "byokg.commands.ask:ask",
    "demo": "byokg.commands.ask:demo",
    "link": "byokg.commands.link:link",
    "index": "byokg.commands.link:index",
    "eval": "byokg.commands.evaluate:eval_group",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        names = set(super().list_commands(ctx))
        names.update(n for n in LAZY_COMMANDS if self._load(n) is not None)
        return sorted(names)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        cmd = super().get_command(ctx, name)
        return cmd if cmd is not None else self._load(name)

    @staticmethod
    def _load(name: str) -> click.Command | None:
        target = LAZY_COMMANDS.get(name)
        if target is None:
            return None
        mod_name, attr = target.split(":")
        return getattr(importlib.import_module(mod_name), attr, None)


class Context:
    def __init__(self, debug: bool) -> None:
        self.debug = debug


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="byokg")
@click.option("--debug", is_flag=True, help="Show tracebacks on errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Answer questions over the knowledge graph you already have."""
    ctx.obj = Context(debug)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def plugins(as_json: bool) -> None:
    """List registered tools, backends, LLMs, embedders, rerankers and datasets."""
    from . import registry

    data = registry.describe()
    if as_json:
        echo_json(data)
        return
    for kind, items in data.items():
        click.echo(f"{kind}:")
        if not items:
            click.echo("  (none)")
        for name, plugin in sorted(items.items()):
            click.echo(f"  {name:<24} {plugin}")


@cli.command()
@click.argument("source", nargs=-1, required=True)
@click.option("--into", "into", required=True, help="Target graph URI (e.g. kuzu:./graph.kz).")
@click.option("--mapping", type=click.Path(exists=True, dir_okay=False), help="Property-graph mapping file.")
@click.option("--skip-bad-rows", is_flag=True, help="Count and report malformed rows instead of failing.")
def load(source: tuple[str, ...], into: str, mapping: str | None, skip_bad_rows: bool) -> None:
    """Load triple files (CSV/TSV/JSONL) into a graph store."""
    from .loading import load_into

    report = load_into(list(source), into, mapping=mapping, skip_bad_rows=skip_bad_rows)
    click.echo(report.summary())


@cli.command()
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. memory:demo.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--samples", default=3, show_default=True, help="Sample values per property.")
def schema(graph_uri: str, as_json: bool, samples: int) -> None:
    """Show the graph's node labels, properties and relation patterns."""
    from .schema_render import render_schema

    with _opened(graph_uri) as store:
        sch = store.schema(samples=samples)
    if as_json:
        echo_json(sch.model_dump(mode="json"))
    else:
        click.echo(render_schema(sch))


@cli.command()
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. memory:demo.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def stats(graph_uri: str, as_json: bool) -> None:
    """Count nodes, triplets and relations."""
    with _opened(graph_uri) as store:
        st = store.stats()
    if as_json:
        echo_json(st.model_dump())
        return
    click.echo(f"graph:     {graph_uri}")
    click.echo(f"nodes:     {st.nodes:,}")
    click.echo(f"triplets:  {st.triplets:,}")
    click.echo(f"relations: {st.relations:,}")
    if st.duplicates_skipped:
        click.echo(f"duplicates skipped: {st.duplicates_skipped:,}")


class _opened:
    """Open a graph for one command and close it afterwards."""

    def __init__(self, uri: str, **options: Any) -> None:
        self.uri, self.options = uri, options

    def __enter__(self):
        from .graph import open_graph

        self.store = open_graph(self.uri, **self.options)
        return self.store

    def __exit__(self, *exc: object) -> None:
        close = getattr(self.store, "close", None)
        if close:
            close()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: one clear line on error, exit code 1."""
    args = list(argv if argv is not None else sys.argv[1:])
    debug = "--debug" in args
    if debug:  # accepted anywhere on the line, not only before the command
        args = ["--debug"] + [a for a in args if a != "--debug"]
    try:
        cli.main(args=args, prog_name="byokg", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except ByokgError as exc:
        if debug:
            raise
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # unexpected: still one line unless --debug
        if debug:
            raise
        click.echo(f"error: {type(exc).__name__}: {exc} (rerun with --debug for a traceback)", err=True)
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
