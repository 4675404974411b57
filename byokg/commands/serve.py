"""``byokg serve --http`` and ``byokg serve --mcp``."""

from __future__ import annotations

import click

from byokg.presentation.termsafe import terminal_safe
from byokg.redaction import redact_uri

from .options import llm_option


@click.command()
@click.option("--http", "mode", flag_value="http", help="Serve a JSON API (FastAPI + uvicorn).")
@click.option("--mcp", "mode", flag_value="mcp",
              help="Serve MCP tools (stdio; streamable HTTP with --port).")
@click.option("--graph", "graph_uri", required=True, help="Graph URI, e.g. memory:demo or kuzu:./g.kz.")
@llm_option("--llm", "llm", default=None, help="LLM spec: {names} (default none: offline).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Run config (JSON or TOML).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind (anything but loopback prints a warning: no authentication).")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Port (HTTP default 8765; MCP: serve streamable HTTP on this port).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
              help="Seconds a request may take (then a timeout error; the server goes on).")
@click.option("--max-concurrency", type=click.IntRange(1, 64), default=4, show_default=True,
              help="Requests answered side by side (one shared engine and graph).")
@click.option("--max-queue", type=click.IntRange(0, 10_000), default=32, show_default=True,
              help="Requests waiting for a worker before 'busy' errors.")
@click.option("--max-body", type=click.IntRange(256), default=64 * 1024, show_default=True,
              help="HTTP request body size in bytes.")
@click.option("--max-question-chars", type=click.IntRange(1), default=2000, show_default=True,
              help="Characters in a question.")
@click.option("--max-items", type=click.IntRange(1), default=50, show_default=True,
              help="Mentions in one link request.")
@click.option("--read-timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
              help="Seconds a client has to send its request headers, and again its body "
                   "(then 408 and the connection is closed).")
@click.option("--max-connections", type=click.IntRange(2, 100_000), default=256,
              show_default=True, help="Open HTTP connections at most (past it the oldest idle "
                                      "or half-sent one is closed, else 503).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="A Host name the server answers besides 127.0.0.1, localhost, ::1 and the "
                   "--host address (repeatable; '*' answers any: no DNS-rebinding check).")
def serve(mode: str | None, graph_uri: str, llm: str | None, config_file: str | None, host: str,
          port: int | None, timeout: float, max_concurrency: int, max_queue: int, max_body: int,
          max_question_chars: int, max_items: int, read_timeout: float, max_connections: int,
          allow_hosts: tuple[str, ...]) -> None:
    """Serve the graph to other programs: --http (JSON API) or --mcp (Model Context Protocol).

    The graph and the LLM are chosen here, once; requests carry questions and names, never
    queries. Needs pip install 'byokg[server]'."""
    if mode is None:
        raise click.UsageError("choose --http or --mcp")
    from byokg.serve.core import ServeLimits
    from byokg.serve.core import Service

    limits = ServeLimits(max_body_bytes=max_body, max_question_chars=max_question_chars,
                         max_items=max_items, timeout=timeout, max_concurrency=max_concurrency,
                         max_queue=max_queue, read_timeout=read_timeout,
                         max_connections=max_connections, allow_hosts=allow_hosts)
    if mode == "http":
        from byokg.serve.http import serve_http  # the extra's import error comes before loading
    else:
        from byokg.serve.mcp import serve_mcp
    service = Service.open(graph_uri, llm=llm, config_file=config_file, limits=limits)
    try:
        if mode == "http":
            port = 8765 if port is None else port
            click.echo(f"byokg: serving {terminal_safe(redact_uri(graph_uri))} on "
                       f"http://{terminal_safe(host)}:{port} (docs at /docs)", err=True)
            serve_http(service, host=host, port=port)
        else:
            serve_mcp(service, host=host, port=port, allow_hosts=allow_hosts)
    finally:
        service.close()
