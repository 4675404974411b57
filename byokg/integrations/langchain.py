"""A LangChain retriever over byokg: ``pip install 'byokg[langchain]'``.

    from byokg.integrations.langchain import ByokgRetriever
    retriever = ByokgRetriever.from_graph("memory:demo")
    docs = retriever.invoke("Where was Louis Armstrong born?")

Each :class:`~langchain_core.documents.Document` is one context item of
:meth:`byokg.pipeline.engine.Engine.retrieve`, best first; its metadata holds the provenance (tool,
round, rank, score, node ids and names, relation path or query, triplets).
"""

from __future__ import annotations

from typing import Any

try:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ModuleNotFoundError as exc:  # pragma: no cover - the extra is missing
    raise ModuleNotFoundError(f"{exc.name} is not installed: pip install 'byokg[langchain]'",
                              name=exc.name) from exc
from pydantic import ConfigDict

from byokg.pipeline.answer import Retrieval

from .common import engine_for
from .common import item_id
from .common import item_metadata


class ByokgRetriever(BaseRetriever):
    """Ranked graph evidence as Documents (no answer generation)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    engine: Any
    k: int | None = None  # at most this many documents (None: all the context selected)

    @classmethod
    def from_graph(cls, graph: Any, *, llm: str = "none", k: int | None = None,
                   **config: Any) -> ByokgRetriever:
        """A retriever over ``graph`` (a URI or a store) with ``RunConfig(llm=…, **config)``."""
        return cls(engine=engine_for(graph=graph, llm=llm, **config), k=k)

    def _documents(self, r: Retrieval) -> list[Document]:
        items = r.context[: self.k] if self.k is not None else r.context
        return [Document(page_content=it.text, metadata=item_metadata(it, i, r), id=item_id(it))
                for i, it in enumerate(items)]

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return self._documents(self.engine.retrieve(query))

    async def _aget_relevant_documents(
            self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        return self._documents(await self.engine.aretrieve(query))
