"""An example third-party byokg plugin, registering one object through every hook.

Install it next to byokg (``pip install ./docs/example_plugin``) and ``byokg plugins`` lists
each name below with the plugin ``myplug`` (the entry-point name in pyproject.toml).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, ClassVar

from byokg import (
    ConfigError,
    ContextItem,
    InputError,
    LLMResponse,
    Tool,
    ToolParams,
    ToolRequest,
    ToolResult,
    graph_from_triplets,
    hookimpl,
)

# ----------------------------------------------------------------------------- a retrieval tool


class EntityCardParams(ToolParams):
    max_properties: int = 5


class EntityCardTool(Tool):
    """One context item per linked entity: its name, labels, aliases and a few properties."""

    name: ClassVar[str] = "entity-card"
    description: ClassVar[str] = "Describe each linked entity from its own node record."
    default: ClassVar[bool] = False  # opt-in: run with --tools entity-card
    Params: ClassVar[type[ToolParams]] = EntityCardParams
    needs: ClassVar[frozenset[str]] = frozenset({"entities"})  # else: an event, no call

    def retrieve(self, request: ToolRequest, params: Any, result: ToolResult) -> None:
        nodes = request.store.get_nodes(request.entity_ids)  # one batched call
        for node_id, node in nodes.items():
            if node is None:
                result.event(self.name, f"linked id {node_id!r} is not in the graph",
                             level="warning")
                continue
            props = list(node.properties.items())[: params.max_properties]
            parts = [node.display, "is a " + ", ".join(node.labels) if node.labels else ""]
            if node.aliases:
                parts.append("also known as " + ", ".join(node.aliases))
            parts += [f"{k}: {v}" for k, v in props]
            result.items.append(
                ContextItem(text="; ".join(p for p in parts if p), tool=self.name,
                            iteration=request.iteration, kind="note", nodes=(node_id,))
            )
        result.counts["cards"] = len(result.items)


# ----------------------------------------------------------------------------- a backend


def open_inline(uri: str, **options: Any):
    """``inline:HEAD|REL|TAIL;HEAD|REL|TAIL`` - a tiny graph written in the URI itself."""
    body = uri.split(":", 1)[1]
    rows = [tuple(part.split("|")) for part in body.split(";") if part]
    bad = [r for r in rows if len(r) != 3 or not all(r)]
    if not rows or bad:
        raise ConfigError(f"inline: URI needs HEAD|REL|TAIL rows separated by ';' (bad: {bad})")
    return graph_from_triplets(rows, uri=uri)  # byokg's in-memory store, under this URI


# ----------------------------------------------------------------------------- models


class CannedLLM:
    """``canned:TEXT`` always answers TEXT (handy in demos and tests)."""

    def __init__(self, text: str, **options: Any) -> None:
        self.name = f"canned:{text}"
        self.text = text

    def complete(self, prompt: str, *, system: str | None = None,
                 max_tokens: int | None = None, temperature: float | None = None) -> LLMResponse:
        return LLMResponse(text=self.text, model=self.name,
                           prompt_tokens=len(prompt.split()), completion_tokens=len(self.text.split()))


class CharHashEmbedder:
    """Hashed character trigrams, L2-normalised: a dependency-free embedder."""

    name = "char-hash"

    def __init__(self, dim: int = 64, **options: Any) -> None:
        self.dim = dim

    def encode(self, texts: Sequence[str], *, batch_size: int = 256):
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            padded = f"  {text.lower()} "
            for j in range(len(padded) - 2):
                h = hashlib.blake2b(padded[j : j + 3].encode(), digest_size=4).digest()
                out[i, int.from_bytes(h, "little") % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


class WordOverlapReranker:
    """Scores a passage by the share of query words it contains."""

    name = "word-overlap"

    def __init__(self, **options: Any) -> None:
        pass

    def score(self, query: str, passages: Sequence[str], *, batch_size: int = 64) -> list[float]:
        q = set(query.lower().split())
        return [len(q & set(p.lower().split())) / (len(q) or 1) for p in passages]


# ----------------------------------------------------------------------------- a dataset


def load_tsv_qa(path: str, **options: Any):
    """``question<TAB>answer1|answer2`` per line."""
    from byokg import Dataset, Example

    ds = Dataset(name="tsv-qa", source=str(path))
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            question, sep, answers = line.rstrip("\n").partition("\t")
            if not sep or not answers:
                raise InputError("expected question<TAB>answers", source=str(path), line=line_no)
            ds.examples.append(Example(id=f"tsv-{line_no}", question=question,
                                       answers=answers.split("|")))
    return ds


# ----------------------------------------------------------------------------- the hooks


@hookimpl
def register_tools(register):
    register(EntityCardTool)  # the name comes from EntityCardTool.name


@hookimpl
def register_backends(register):
    register("inline", open_inline)


@hookimpl
def register_llms(register):
    register("canned", CannedLLM)


@hookimpl
def register_embedders(register):
    register("char-hash", CharHashEmbedder)


@hookimpl
def register_rerankers(register):
    register("word-overlap", WordOverlapReranker)


@hookimpl
def register_datasets(register):
    register("tsv-qa", load_tsv_qa)
