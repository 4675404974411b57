"""OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, LM Studio …) over plain urllib.

Base URL and key come from options or the environment (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``);
429 and 5xx answers and connection errors are retried with capped exponential backoff.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any

from ..errors import ConfigError, LLMError
from ..models import LLMResponse
from . import backoff_delays

DEFAULT_BASE_URL = "https://api.openai.com/v1"


class OpenAICompatLLM:
    """``openai:MODEL``: POST ``{base_url}/chat/completions``."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        timeout: float = 120.0,
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
        self.temperature, self.max_tokens, self.timeout = temperature, max_tokens, timeout
        self.retries, self.backoff_base, self.backoff_cap = retries, backoff_base, backoff_cap
        self.extra_body = extra_body or {}

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        from . import sleep

        url = f"{self.base_url}/chat/completions"
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        delays = backoff_delays(self.retries, base=self.backoff_base, cap=self.backoff_cap)
        last = ""
        code: str | None = None
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(url, data=data, headers=headers, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.loads(resp.read().decode("utf-8"))
            except urllib.error.HTTPError as exc:
                detail = exc.read().decode("utf-8", "replace")[:300]
                code, last = str(exc.code), f"HTTP {exc.code}: {detail}"
                if exc.code != 429 and exc.code < 500:
                    raise LLMError(f"{self.name} at {url} failed: {last}", code=code) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                reason = getattr(exc, "reason", exc)
                code, last = "unreachable", f"cannot reach {url}: {reason}"
            except ValueError as exc:  # bad JSON
                raise LLMError(f"{self.name} at {url} sent a reply that is not JSON: {exc}", code="bad-reply") from None
            if attempt < self.retries:
                sleep(delays[attempt])
        raise LLMError(f"{self.name} failed after {self.retries + 1} attempts: {last}", code=code)

    def complete(
        self,
        prompt: str,
        *,
        system: str | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> LLMResponse:
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
        data = self._post(body)
        try:
            text = data["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise LLMError(
                f"{self.name}: reply has no choices[0].message.content: {json.dumps(data)[:300]}",
                code="bad-reply",
            ) from None
        usage = data.get("usage") or {}
        return LLMResponse(
            text=text,
            model=self.name,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
        )
