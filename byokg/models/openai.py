"""OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, LM Studio …) over plain HTTP.

Base URL and key come from options or the environment (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``).
Each call has a hard deadline for the whole exchange (``timeout_s``; a server that drips its
reply cannot stretch it) and all attempts share a budget (``budget_s``); 429, 5xx, connection
errors and missed deadlines are retried with capped exponential back-off inside that budget.
Replies are read leniently: ``content`` may be a string or a list of text parts; ``usage`` is
optional metadata (bad counts are ignored and reported in ``LLMResponse.warnings``).
"""

from __future__ import annotations

import json
import os
from typing import Any

from byokg.errors import ConfigError, LLMError
from byokg.models.base import BaseLLM, LLMResponse, TransientLLMError, token_counts
from byokg.models.llm import content_text

DEFAULT_BASE_URL = "https://api.openai.com/v1"


class OpenAICompatLLM(BaseLLM):
    """``openai:MODEL``: POST ``{base_url}/chat/completions``."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout_s: float | None = None,
        budget_s: float | None = None,
        timeout: float | None = None,  # older name of timeout_s
        retries: int = 4,
        backoff_base: float = 0.5,
        backoff_cap: float = 20.0,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if not model:
            raise ConfigError("openai: spec needs a model name, e.g. openai:gpt-4o-mini")
        self.model = model
        self.name = f"openai:{model}"
        base = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self.base_url = base.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.temperature, self.max_tokens = temperature, max_tokens
        self.retries, self.backoff_base, self.backoff_cap = retries, backoff_base, backoff_cap
        self.extra_body = extra_body or {}
        self._set_limits(timeout_s, budget_s, timeout)

    def _post(self, body: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        from byokg.models.http import DeadlineExceeded, post

        url = f"{self.base_url}/chat/completions"
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        try:
            status, raw = post(url, json.dumps(body).encode(), headers, timeout_s)
        except DeadlineExceeded as exc:
            raise TransientLLMError(f"{url}: {exc}", code="timeout") from None
        except OSError as exc:
            raise TransientLLMError(f"cannot reach {url}: {exc}", code="unreachable") from None
        if status == 429 or status >= 500:
            raise TransientLLMError(f"HTTP {status}: {raw[:300].decode('utf-8', 'replace')}",
                                    code=str(status))
        if status >= 400:
            raise LLMError(f"{self.name} at {url} failed: HTTP {status}: "
                           f"{raw[:300].decode('utf-8', 'replace')}", code=str(status))
        try:
            return json.loads(raw.decode("utf-8"))
        except ValueError as exc:  # bad JSON
            raise LLMError(f"{self.name} at {url} sent a reply that is not JSON: {exc}",
                           code="bad-reply") from None

    def _call(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None, timeout_s: float) -> LLMResponse:
        messages = ([{"role": "system", "content": system}] if system else []) + [
            {"role": "user", "content": prompt}
        ]
        body = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature if temperature is None else temperature,
            "max_tokens": max_tokens or self.max_tokens,
            **self.extra_body,
        }
        data = self._post(body, timeout_s)
        try:
            content = data["choices"][0]["message"].get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            raise LLMError(
                f"{self.name}: reply has no choices[0].message.content: {json.dumps(data)[:300]}",
                code="bad-reply",
            ) from None
        text, warns = content_text(content)
        pt, ct, usage_warns = token_counts(data.get("usage") if isinstance(data, dict) else None,
                                           "prompt_tokens", "completion_tokens")
        return LLMResponse(text=text, model=self.name, prompt_tokens=pt, completion_tokens=ct,
                           warnings=[f"{self.name}: {w}" for w in warns + usage_warns])
