"""Built-in LLM providers: ``bedrock:MODEL_ID``, ``openai:MODEL``, ``replay:CASSETTE``."""

from __future__ import annotations

from typing import Any

from byokg.hookspecs import hookimpl


def _bedrock(rest: str, **options: Any):
    from byokg.models.bedrock import BedrockLLM

    return BedrockLLM(rest, **options)


def _openai(rest: str, **options: Any):
    from byokg.models.openai import OpenAICompatLLM

    return OpenAICompatLLM(rest, **options)


def _replay(rest: str, **options: Any):
    from byokg.models.replay import create_replay

    return create_replay(rest, **options)


@hookimpl
def register_llms(register):
    register("bedrock", _bedrock, description="Amazon Bedrock Converse API")
    register("openai", _openai, description="any OpenAI-compatible /v1/chat/completions endpoint")
    register("replay", _replay, description="record/replay cassette keyed by prompt checksum")
