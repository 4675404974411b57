"""A LlamaIndex retriever over byokg: ``pip install 'byokg[llamaindex]'``.

    from byokg.integrations.llamaindex import ByokgRetriever
    retriever = ByokgRetriever.from_graph("memory:demo")
    nodes = retriever.retrieve("Where was Louis Armstrong born?")

Each :class:`~llama_index.core.schema.NodeWithScore` holds one context item of
:meth:`byokg.pipeline.engine.Engine.retrieve` as a ``TextNode`` (best first), its score the item's score
and its metadata the provenance (tool, round, rank, node ids and names, relation path or
query, triplets).
"""

from __future__ import annotations

from typing import Any

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore
    from llama_index.core.schema import QueryBundle
    from llama_index.core.schema import TextNode
except ModuleNotFoundError as exc:  # pragma: no cover - the extra is missing
    raise ModuleNotFoundError(f"{exc.name} is not installed: pip install 'byokg[llamaindex]'",
                              name=exc.name) from exc

from byokg.pipeline.answer import Retrieval

from .common import engine_for
from .common import item_id
from .common import item_metadata


class ByokgRetriever(BaseRetriever):
    """Ranked graph evidence as scored nodes (no answer generation)."""

    def __init__(self, engine: Any, *, k: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.engine, self.k = engine, k

    @classmethod
    def from_graph(cls, graph: Any, *, llm: str = "none", k: int | None = None,
                   **config: Any) -> ByokgRetriever:
        """A retriever over ``graph`` (a URI or a store) with ``RunConfig(llm=…, **config)``."""
        return cls(engine_for(graph=graph, llm=llm, **config), k=k)

    def _nodes(self, r: Retrieval) -> list[NodeWithScore]:
        items = r.context[: self.k] if self.k is not None else r.context
        out = []
        for i, it in enumerate(items):
            meta = item_metadata(it, i, r)
            node = TextNode(text=it.text, id_=item_id(it), metadata=meta,
                            excluded_embed_metadata_keys=list(meta),
                            excluded_llm_metadata_keys=list(meta))
            out.append(NodeWithScore(node=node, score=it.score))
        return out

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return self._nodes(self.engine.retrieve(query_bundle.query_str))

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return self._nodes(await self.engine.aretrieve(query_bundle.query_str))
