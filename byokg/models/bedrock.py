"""Amazon Bedrock through the Converse API (boto3 ``bedrock-runtime``).

Throttling and transient service errors are retried with capped exponential backoff and
jitter; every other error is raised as :class:`~byokg.errors.LLMError` carrying the AWS code.
Each call has a deadline for the whole exchange (``timeout_s``) and all attempts share a budget
(``budget_s``), as for every provider (:class:`byokg.models.base.BaseLLM`).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from byokg.cancel import check as check_cancelled
from byokg.errors import ConfigError, LLMError
from byokg.models.base import BaseLLM, LLMResponse, TransientLLMError, token_counts
from byokg.models.llm import content_text

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
# botocore errors another attempt may not repeat (network, endpoint timeouts)
_TRANSIENT_BOTO = frozenset({"ReadTimeoutError", "ConnectTimeoutError", "EndpointConnectionError",
                             "ConnectionClosedError"})


class BedrockLLM(BaseLLM):
    """``bedrock:MODEL_ID`` (a model id or inference-profile id/ARN)."""

    def __init__(
        self,
        model_id: str,
        *,
        region: str | None = None,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        top_p: float | None = None,
        timeout_s: float | None = None,
        budget_s: float | None = None,
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
        self._set_limits(timeout_s, budget_s)

    @property
    def client(self) -> Any:
        if self._client is None:
            import boto3  # heavy: only when Bedrock is used
            from botocore.config import Config

            self._client = boto3.client(
                "bedrock-runtime",
                region_name=self.region,
                config=Config(retries={"max_attempts": 1, "mode": "standard"},
                              connect_timeout=min(10.0, self.timeout_s),
                              read_timeout=self.timeout_s),
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

    def _converse(self, req: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        """``converse`` with a deadline for the whole call: botocore only bounds each socket
        read, so the call runs in a helper thread the caller stops waiting for."""
        from botocore.exceptions import BotoCoreError, ClientError

        box: dict[str, Any] = {}
        client = self.client

        def run() -> None:
            try:
                box["resp"] = client.converse(**req)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                box["exc"] = exc

        worker = threading.Thread(target=run, daemon=True, name="byokg-bedrock")
        worker.start()
        end = time.monotonic() + timeout_s
        while worker.is_alive() and (left := end - time.monotonic()) > 0:
            worker.join(min(left, 0.1))
            check_cancelled()  # a stopped question stops waiting (the thread ends on its own)
        if worker.is_alive():
            raise TransientLLMError(f"no reply within {timeout_s:g} s", code="timeout")
        exc = box.get("exc")
        if isinstance(exc, ClientError):
            err = exc.response.get("Error", {})
            code, msg = err.get("Code", "ClientError"), err.get("Message", str(exc))
            cls = TransientLLMError if code in RETRYABLE else LLMError
            raise cls(f"{self.name}: {code}: {msg}", code=code) from None
        if isinstance(exc, BotoCoreError):
            name = type(exc).__name__
            cls = TransientLLMError if name in _TRANSIENT_BOTO else LLMError
            raise cls(f"{self.name}: {name}: {exc}", code=name) from None
        if exc is not None:
            raise exc
        return box["resp"]

    def _call(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None, timeout_s: float) -> LLMResponse:
        req = self.request(prompt, system=system, max_tokens=max_tokens, temperature=temperature)
        resp = self._converse(req, timeout_s)
        try:
            blocks = resp["output"]["message"]["content"]
        except (KeyError, TypeError):
            raise LLMError(f"{self.name}: Converse reply has no output message", code="bad-reply") from None
        text, warns = content_text(blocks)
        pt, ct, usage_warns = token_counts(resp.get("usage"), "inputTokens", "outputTokens")
        return LLMResponse(text=text, model=self.name, prompt_tokens=pt, completion_tokens=ct,
                           warnings=[f"{self.name}: {w}" for w in warns + usage_warns])
