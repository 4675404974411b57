"""Run configuration: one pydantic model, loadable from JSON or TOML, with per-tool parameters;
and where byokg keeps what it caches on disk (:func:`cache_root`, one folder per graph URI:
:func:`slug`)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path as FsPath
from typing import Any

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import ValidationError

from byokg.errors import ConfigError


class RunConfig(BaseModel):
    """Everything a run needs besides the question and the graph.

    ``params`` maps a tool name to that tool's parameters (validated by the tool's Params model);
    ``tools`` None means every registered retrieval tool that applies to the store.
    """

    model_config = ConfigDict(extra="forbid")

    iterations: int = Field(2, ge=1, le=10, description="T_R refinement rounds")
    llm: str = Field("none", description="LLM spec: none, bedrock:ID, openai:MODEL, replay:FILE")
    proposer: str | None = Field(
        None, description="KG-Linker stage: kg-linker, offline-linker, question-only, or a "
                          "plugin's; None = the default for the LLM and tools (stage_names)")
    answerer: str | None = Field(
        None, description="answer stage: llm-answer, offline-answer, vanilla-answer, or a "
                          "plugin's; None = the default for the LLM and tools (stage_names)")
    linker: str = Field("entity-linker", description="tool that links mentions to nodes")
    tools: list[str] | None = Field(None, description="retrieval tools to run; None = all")
    embedder: str | None = Field(None, description="embedder name; None = best available")
    reranker: str | None = Field(None, description="reranker name; None = embedder cosine")
    embedder_options: dict[str, Any] = Field(
        default_factory=dict, description="options for the embedder factory, e.g. {path: DIR}"
    )
    reranker_options: dict[str, Any] = Field(
        default_factory=dict, description="options for the reranker factory, e.g. {path: DIR}"
    )
    context_tokens: int = Field(4000, ge=100, description="token budget of the merged context")
    prompt_chars: int = Field(
        8000, ge=1000, description="characters of one KG-Linker or answer prompt at most: the "
                                   "schema and the graph context are fitted into it, and what "
                                   "they leave out is said in the prompt")
    max_answers: int = Field(
        50, ge=1, description="answers kept at most; a longer list is cut and the answer says "
                              "so (Answer.truncated, Answer.total); the prompts state the cap")
    offline_first: float | None = Field(
        None, ge=0.0, le=1.0, description="the hybrid strategy: with an LLM, answer first with "
                                          "the offline stages and keep that answer (no LLM "
                                          "call) when its confidence is at least this; "
                                          "otherwise the LLM stages answer. None: off")
    max_llm_calls: int | None = Field(
        None, ge=2, description="LLM calls per question at most (proposer, tools and answer "
                                "together; None = no cap). When it is reached the rounds stop, "
                                "one call stays for the answer, and the trace says so")
    finish_answers: bool = Field(
        True, description="when the KG-Linker replies FINISH with answers the context supports "
                          "(names or ids of retrieved nodes, query cells), they are the answer: "
                          "no answer call")
    query_critic: bool = Field(
        False, description="one short LLM call checks generated queries against the question "
                           "before they run (reply OK or corrected queries): the cypher tool's "
                           "and the routed-linker's candidates")
    workers: int = Field(4, ge=1, le=64, description="tools run side by side")
    index_dir: str | None = Field(None, description="where linking indexes are cached")
    display: str | dict[str, str | list[str]] | None = Field(
        None, description="display property per label, overriding the graph profile's choice: "
                          "'Person.fullName,Prize.category+year' or {Person: fullName}; a URI's "
                          "?display= and --display win over it")
    lexicon: str | None = Field(
        None, description="the graph owner's lexicon file (.toml or .json: relation and label "
                          "-> phrases; docs/profile.md); a URI's ?lexicon= wins over it. A "
                          "relative path read from a config file is relative to that file")
    compile_words: bool = Field(
        False, description="with an LLM, compile phrases for every relation and label of the "
                           "graph once (one call per 50), cached with the graph's profile")
    llm_options: dict[str, Any] = Field(default_factory=dict)
    params: dict[str, dict[str, Any]] = Field(default_factory=dict)

    def stage_names(self, *, has_llm: bool | None = None) -> tuple[str, str]:
        """(proposer, answerer) for this run: as configured, else the defaults — offline without
        an LLM; the KG-Linker and an LLM answer with one; with an LLM and an empty tool list, the
        vanilla baseline (the question alone). ``has_llm`` overrides ``llm`` (an LLM object
        handed to the run directly)."""
        if has_llm is None:
            has_llm = bool(self.llm) and self.llm != "none"
        if not has_llm:
            default = ("offline-linker", "offline-answer")
        elif self.tools is not None and not self.tools:
            default = ("question-only", "vanilla-answer")
        else:
            default = ("kg-linker", "llm-answer")
        return (self.proposer or default[0], self.answerer or default[1])

    def tool_params(self, tool_name: str, model: type[BaseModel]) -> BaseModel:
        raw = self.params.get(tool_name, {})
        try:
            return model(**raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise ConfigError(
                f"bad parameter params.{tool_name}.{loc}: {first['msg']} "
                f"(valid fields: {', '.join(model.model_fields)})"
            ) from None

    @classmethod
    def load(cls, path: str | FsPath) -> RunConfig:
        p = FsPath(path)
        try:
            raw = p.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read config {p}: {exc.strerror}") from None
        try:
            data = tomllib.loads(raw.decode()) if p.suffix == ".toml" else json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{p}: not valid {'TOML' if p.suffix == '.toml' else 'JSON'}: {exc}") from None
        lex = data.get("lexicon") if isinstance(data, dict) else None
        if isinstance(lex, str) and lex and not FsPath(lex).expanduser().is_absolute():
            data["lexicon"] = str(p.parent / lex)  # relative to the config file
        try:
            return cls(**data)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(x) for x in first["loc"])
            raise ConfigError(f"{p}: field {loc!r}: {first['msg']}") from None


def settings_diff(old: dict[str, Any], new: dict[str, Any],
                  ignore: Iterable[str] = ()) -> list[tuple[str, Any, Any]]:
    """Settings that differ between two runs, as ``(dotted key, old, new)`` sorted by key (nested
    dicts compared key by key; keys in ``ignore`` — top-level or dotted — left out). Resume
    checks (``eval --resume``, batch ``ask --out``) name these."""

    def flat(prefix: str, value: Any, out: dict[str, Any]) -> dict[str, Any]:
        if isinstance(value, dict):
            for k, v in value.items():
                flat(f"{prefix}.{k}" if prefix else str(k), v, out)
        else:
            out[prefix] = value
        return out

    skip = set(ignore)
    before = flat("", {k: v for k, v in old.items() if k not in skip}, {})
    now = flat("", {k: v for k, v in new.items() if k not in skip}, {})
    return [(k, before.get(k), now.get(k)) for k in sorted(set(before) | set(now))
            if before.get(k) != now.get(k) and k not in skip]


def cache_root(cache_dir: str | os.PathLike[str] | None = None) -> FsPath | None:
    """Where profiles are cached: ``cache_dir``, else ``$BYOKG_CACHE_DIR``, else
    ``~/.cache/byokg``; None when ``BYOKG_CACHE_DIR`` is ``off``."""
    if cache_dir is not None:
        return FsPath(cache_dir)
    env = os.environ.get("BYOKG_CACHE_DIR")
    if env is not None and env.strip().lower() in ("off", "0", "none", ""):
        return None
    return FsPath(env) if env else FsPath.home() / ".cache" / "byokg"


def graph_cache_dir(uri: str, cache_dir: str | os.PathLike[str] | None = None) -> FsPath | None:
    """The folder where byokg keeps what it computed about the graph at ``uri`` (its profile,
    name index, text vectors): ``cache_root(cache_dir) / slug(uri)``; None when caching is off
    or the graph was built in this process (``memory:``, networkx: no identity to cache
    under)."""
    if uri.rstrip(":/") in ("", "memory", "memory:networkx") or uri.startswith("memory:networkx"):
        return None
    root = cache_root(cache_dir)
    return None if root is None else root / slug(uri)


def slug(uri: str) -> str:
    """A folder name for a store URI: readable prefix plus a short hash (unique per URI)."""
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", uri)[-48:].strip("_") or "graph"
    return f"{readable}-{hashlib.sha1(uri.encode()).hexdigest()[:10]}"
