"""``byokg serve``: the engine behind an HTTP API (FastAPI + uvicorn) or an MCP server (the
official ``mcp`` SDK). Both share :class:`byokg.serve.core.Service`: one engine and graph chosen
at start, limits, timeouts and a bounded worker pool. Needs ``pip install 'byokg[server]'``."""
