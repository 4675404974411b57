"""Amazon Bedrock through the Converse API (boto3 ``bedrock-runtime``).

Throttling and transient service errors are retried with capped exponential backoff and
jitter; every other error is raised as :class:`~byokg.errors.LLMError` carrying the AWS code.
Each call has a deadline for the whole exchange (``timeout_s``) and all attempts share a budget
(``budget_s``), as for every provider (:class:`byokg.models.base.BaseLLM`).

Streaming (``complete(..., on_token=cb)``) uses ``converse_stream``: each ``contentBlockDelta``
text goes to ``cb`` as it arrives, ``metadata`` carries the usage; past ``max_reply_chars`` the
stream is closed and the reply says it was cut. Errors: clients see the status and the AWS
code (``LLM provider returned 403 (permission: AccessDeniedException)``); AWS's message (which
can name accounts and resources) goes to the ``byokg.llm`` log.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

from byokg.cancel import check as check_cancelled
from byokg.errors import LLMError
from byokg.models.base import MAX_REPLY_CHARS
from byokg.models.base import BaseLLM
from byokg.models.base import LLMResponse
from byokg.models.base import StreamedReply
from byokg.models.base import TokenCallback
from byokg.models.base import TransientLLMError
from byokg.models.base import spec_part
from byokg.models.base import token_counts
from byokg.models.llm import content_text
from byokg.models.provider_errors import redact
from byokg.models.provider_errors import report

RETRYABLE = frozenset(
    {
        "ThrottlingException",
        "TooManyRequestsException",
        "ServiceUnavailableException",
        "ModelNotReadyException",
        "InternalServerException",
        "RequestTimeout",
        "ModelStreamErrorException",  # "an error occurred while streaming … retry your request"
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
        max_reply_chars: int = MAX_REPLY_CHARS,
    ) -> None:
        self.model_id = spec_part("bedrock", model_id,
                                  "a model id, e.g. bedrock:anthropic.claude-3-haiku-20240307-v1:0")
        self.name = f"bedrock:{model_id}"
        self.temperature, self.max_tokens, self.top_p = temperature, max_tokens, top_p
        self.retries, self.backoff_base, self.backoff_cap = retries, backoff_base, backoff_cap
        self.region = region
        self._client = client
        self.max_reply_chars = int(max_reply_chars)
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
        if exc is not None:
            raise self._mapped(exc)
        return box["resp"]

    def _mapped(self, exc: BaseException) -> BaseException:
        """The error to raise for a botocore failure: AWS's code and the status for clients,
        AWS's message to the log only; throttling and transient faults retryable."""
        from botocore.exceptions import BotoCoreError
        from botocore.exceptions import ClientError

        if isinstance(exc, ClientError):  # EventStreamError (inside a stream) is one too
            err = exc.response.get("Error", {})
            code = str(err.get("Code") or "ClientError")
            status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
            msg = report(self.name, status, str(err.get("Message") or exc), code=code)
            retry = code in RETRYABLE or (code[:1].upper() + code[1:]) in RETRYABLE
            cls = TransientLLMError if retry else LLMError
            return cls(f"{self.name}: {msg}" + ("" if retry else " (AWS's message is in the "
                                                "byokg.llm log)"), code=code,
                       summary=f"{self.name}: {msg}")
        if isinstance(exc, BotoCoreError):
            name = type(exc).__name__
            cls = TransientLLMError if name in _TRANSIENT_BOTO else LLMError
            return cls(f"{self.name}: {name}: {redact(str(exc))}", code=name)
        return exc

    def _stream(self, prompt: str, system: str | None, max_tokens: int | None,
                temperature: float | None, timeout_s: float, on_token: TokenCallback
                ) -> LLMResponse:
        """``converse_stream`` read in a helper thread (botocore bounds each socket read, not
        the call); the events come back through a queue, so ``on_token`` runs in the caller's
        thread and the deadline holds for the whole stream."""
        req = self.request(prompt, system=system, max_tokens=max_tokens, temperature=temperature)
        end = time.monotonic() + timeout_s
        events: queue.Queue[tuple[str, Any]] = queue.Queue()
        box: dict[str, Any] = {}
        client = self.client

        def run() -> None:
            try:
                stream = client.converse_stream(**req)["stream"]
                box["stream"] = stream
                for ev in stream:
                    events.put(("event", ev))
                    if box.get("stop"):
                        break
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                events.put(("error", exc))
            finally:
                events.put(("end", None))

        threading.Thread(target=run, daemon=True, name="byokg-bedrock-stream").start()
        acc = _Accumulator(self, on_token)
        try:
            while not acc.cut:
                try:
                    kind, value = events.get(timeout=max(end - time.monotonic(), 0.001))
                except queue.Empty:
                    raise TransientLLMError(f"no complete reply within {timeout_s:g} s",
                                            code="timeout") from None
                if kind == "end":
                    break
                if kind == "error":
                    raise self._mapped(value)
                acc.take(value)
        finally:
            box["stop"] = True
            stream = box.get("stream")
            if stream is not None:
                try:
                    stream.close()
                except Exception:  # noqa: BLE001 - closing a stream that already ended
                    pass
        return acc.response()

    def _call(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None, timeout_s: float) -> LLMResponse:
        req = self.request(prompt, system=system, max_tokens=max_tokens, temperature=temperature)
        resp = self._converse(req, timeout_s)
        try:
            blocks = resp["output"]["message"]["content"]
        except (KeyError, TypeError):
            raise LLMError(f"{self.name}: Converse reply has no output message", code="bad-reply") from None
        text, warns = content_text(blocks)
        if len(text) > self.max_reply_chars:
            warns.append(f"reply of {len(text):,} characters cut to {self.max_reply_chars:,} "
                         "(llm_options max_reply_chars)")
            text = text[:self.max_reply_chars]
        pt, ct, usage_warns = token_counts(resp.get("usage"), "inputTokens", "outputTokens")
        return LLMResponse(text=text, model=self.name, prompt_tokens=pt, completion_tokens=ct,
                           warnings=[f"{self.name}: {w}" for w in warns + usage_warns])


class _Accumulator(StreamedReply):
    """The text, usage and stop reason of a ``converse_stream`` reply as its events arrive."""

    usage_keys = ("inputTokens", "outputTokens")

    def __init__(self, llm: BedrockLLM, on_token: TokenCallback) -> None:
        super().__init__(llm, on_token)
        self.stopped: str | None = None
        self.skipped: list[str] = []

    def take(self, ev: dict[str, Any]) -> None:
        if "contentBlockDelta" in ev:
            delta = ev["contentBlockDelta"].get("delta") or {}
            text = delta.get("text")
            if isinstance(text, str):
                self.send(text)
            else:
                self.skipped.extend(k for k in delta if k not in self.skipped)
        elif "messageStop" in ev:
            self.stopped = str(ev["messageStop"].get("stopReason") or "end")
        elif "metadata" in ev:
            self.usage = ev["metadata"].get("usage")

    def response(self) -> LLMResponse:
        if not self.cut and self.stopped is None:
            raise TransientLLMError(f"{self.llm.name}: the stream ended before messageStop "
                                    f"after {self.chars:,} characters", code="stream-ended")
        if self.skipped:
            self.warnings.insert(0, f"skipped non-text content: {', '.join(self.skipped)}")
        return super().response()
