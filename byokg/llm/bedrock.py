"""Amazon Bedrock through the Converse API (boto3 ``bedrock-runtime``).

Throttling and transient service errors are retried with capped exponential backoff and
jitter; every other error is raised as :class:`~byokg.errors.LLMError` carrying the AWS code.
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError, LLMError
from ..models import LLMResponse
from . import backoff_delays

RETRYABLE = frozenset(
    {
        "ThrottlingException",
        "TooManyRequestsException",
        "ServiceUnavailableException",
        "ModelNotReadyException",
        "InternalServerException",
        "RequestTimeout",
    }
)


class BedrockLLM:
    """``bedrock:MODEL_ID`` (a model id or inference-profile id/ARN)."""

    def __init__(
        self,
        model_id: str,
        *,
        region: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        top_p: float | None = None,
        retries: int = 5,
        backoff_base: float = 1.0,
        backoff_cap: float = 30.0,
        client: Any = None,
    ) -> None:
        if not model_id:
            raise ConfigError("bedrock: spec needs a model id, e.g. bedrock:anthropic.claude-3-haiku-20240307-v1:0")
        self.model_id = model_id
        self.name = f"bedrock:{model_id}"
        self.temperature, self.max_tokens, self.top_p = temperature, max_tokens, top_p
        self.retries, self.backoff_base, self.backoff_cap = retries, backoff_base, backoff_cap
        self.region = region
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3  # heavy: only when Bedrock is used
            from botocore.config import Config

            self._client = boto3.client(
                "bedrock-runtime",
                region_name=self.region,
                config=Config(retries={"max_attempts": 1, "mode": "standard"}),
            )
        return self._client

    def request(
        self, prompt: str, *, system: str | None, max_tokens: int | None, temperature: float | None
    ) -> dict[str, Any]:
        inference: dict[str, Any] = {
            "maxTokens": int(max_tokens or self.max_tokens),
            "temperature": float(self.temperature if temperature is None else temperature),
        }
        if self.top_p is not None:
            inference["topP"] = float(self.top_p)
        req: dict[str, Any] = {
            "modelId": self.model_id,
            "messages": [{"role": "user", "content": [{"text": prompt}]}],
            "inferenceConfig": inference,
        }
        if system:
            req["system"] = [{"text": system}]
        return req

    def complete(
        self,
        prompt: str,
        *,
        system: str | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> LLMResponse:
        from botocore.exceptions import BotoCoreError, ClientError

        from . import sleep

        req = self.request(prompt, system=system, max_tokens=max_tokens, temperature=temperature)
        delays = backoff_delays(self.retries, base=self.backoff_base, cap=self.backoff_cap)
        code, last = None, ""
        for attempt in range(self.retries + 1):
            try:
                resp = self.client.converse(**req)
                break
            except ClientError as exc:
                err = exc.response.get("Error", {})
                code, last = err.get("Code", "ClientError"), err.get("Message", str(exc))
                if code not in RETRYABLE:
                    raise LLMError(f"{self.name}: {code}: {last}", code=code) from None
            except BotoCoreError as exc:  # endpoint/credentials problems: not retried
                raise LLMError(f"{self.name}: {type(exc).__name__}: {exc}", code=type(exc).__name__) from None
            if attempt < self.retries:
                sleep(delays[attempt])
        else:
            raise LLMError(f"{self.name}: {code} after {self.retries + 1} attempts: {last}", code=code)
        try:
            blocks = resp["output"]["message"]["content"]
            text = "".join(b.get("text", "") for b in blocks)
        except (KeyError, TypeError):
            raise LLMError(f"{self.name}: Converse reply has no output message", code="bad-reply") from None
        usage = resp.get("usage") or {}
        return LLMResponse(
            text=text,
            model=self.name,
            prompt_tokens=int(usage.get("inputTokens") or 0),
            completion_tokens=int(usage.get("outputTokens") or 0),
        )
