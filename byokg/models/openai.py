"""OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, LM Studio …) over plain HTTP.

Base URL and key come from options or the environment (``OPENAI_BASE_URL``, ``OPENAI_API_KEY``).
Each call has a hard deadline for the whole exchange (``timeout_s``; a server that drips its
reply cannot stretch it) and all attempts share a budget (``budget_s``); 429, 5xx, connection
errors and missed deadlines are retried with capped exponential back-off inside that budget.
Replies are read leniently: ``content`` may be a string or a list of text parts; ``usage`` is
optional metadata (bad counts are ignored and reported in ``LLMResponse.warnings``).

Streaming (``complete(..., on_token=cb)``): the request says ``"stream": true`` (and asks for
usage in the last chunk, ``stream_usage``); the server-sent events ``data: {...}`` are read as
they arrive and each ``delta.content`` goes to ``cb``; ``data: [DONE]`` ends the reply. A server
that answers a streamed request with plain JSON is read as usual; one that refuses it (400/422)
is asked again without streaming, and not asked to stream again (``stream=False`` skips the try).

Limits while reading: a JSON reply is kept up to ``max_reply_bytes`` (4 MiB) and a reply's text
up to ``max_reply_chars`` (200,000); past them reading stops and the reply says it was cut (a
warning), so a runaway 300 MiB reply is never read whole. Errors: clients see the status and
its kind (``LLM provider returned 401 (authentication)``); the provider's own text goes to the
``byokg.llm`` log with secrets redacted (:mod:`byokg.models.provider_errors`).
"""

from __future__ import annotations

import json
import os
import re
from json.decoder import scanstring
from typing import Any

from byokg.errors import ConfigError
from byokg.errors import LLMError
from byokg.models.base import MAX_REPLY_CHARS
from byokg.models.base import BaseLLM
from byokg.models.base import LLMResponse
from byokg.models.base import StreamedReply
from byokg.models.base import TokenCallback
from byokg.models.base import TransientLLMError
from byokg.models.base import spec_part
from byokg.models.base import token_counts
from byokg.models.http import DEFAULT_MAX_REPLY_BYTES
from byokg.models.http import Reply
from byokg.models.llm import content_text
from byokg.models.provider_errors import log
from byokg.models.provider_errors import redact
from byokg.models.provider_errors import redact_url
from byokg.models.provider_errors import report
from byokg.models.sse import SSEDecoder
from byokg.models.sse import SSEError

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_CONTENT = re.compile(rb'"content"\s*:\s*"')


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
        stream: bool = True,
        stream_usage: bool = True,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
        max_reply_chars: int = MAX_REPLY_CHARS,
    ) -> None:
        self.model = spec_part("openai", model, "a model name, e.g. openai:gpt-4o-mini")
        self.name = f"openai:{model}"
        base = base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        self.base_url = base.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.temperature, self.max_tokens = temperature, max_tokens
        self.retries, self.backoff_base, self.backoff_cap = retries, backoff_base, backoff_cap
        self.extra_body = extra_body or {}
        self.stream, self.stream_usage = bool(stream), bool(stream_usage)
        for opt, v in (("max_reply_bytes", max_reply_bytes), ("max_reply_chars", max_reply_chars)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1024:
                raise ConfigError(f"{self.name}: llm_options {opt} must be a whole number of at "
                                  f"least 1024 (got {v!r})")
        self.max_reply_bytes, self.max_reply_chars = max_reply_bytes, max_reply_chars
        self._set_limits(timeout_s, budget_s, timeout)

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def _fail(self, status: int, body: bytes) -> None:
        """Raise the error for a non-2xx status: a summary for clients, the body to the log."""
        msg = f"{self.name}: " + report(self.name, status, body, url=self.url,
                                        secrets=[self.api_key])
        if status == 429 or status >= 500:
            raise TransientLLMError(msg, code=str(status), summary=msg)
        raise LLMError(msg + " (the provider's reply is in the byokg.llm log)", code=str(status),
                       summary=msg)

    def _exchange(self, body: dict[str, Any], timeout_s: float, sink: Any = None) -> Reply:
        from byokg.models.http import DeadlineExceeded
        from byokg.models.http import post

        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if sink is not None:
            headers["Accept"] = "text/event-stream"
        try:
            return post(self.url, json.dumps(body).encode(), headers, timeout_s,
                        max_bytes=self.max_reply_bytes, sink=sink)
        except DeadlineExceeded as exc:
            raise TransientLLMError(f"{self.name} at {redact_url(self.url)}: {exc}",
                                    code="timeout") from None
        except OSError as exc:
            raise TransientLLMError(f"connection to {redact_url(self.url)} failed: "
                                    f"{redact(str(exc), [self.api_key])}",
                                    code="unreachable") from None

    def _body(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None) -> dict[str, Any]:
        messages = ([{"role": "system", "content": system}] if system else []) + [
            {"role": "user", "content": prompt}
        ]
        return {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature if temperature is None else temperature,
            "max_tokens": max_tokens or self.max_tokens,
            **self.extra_body,
        }

    def _call(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None, timeout_s: float) -> LLMResponse:
        reply = self._exchange(self._body(prompt, system, max_tokens, temperature), timeout_s)
        if reply.status >= 300:
            self._fail(reply.status, reply.body)
        return self._whole(reply)

    def _whole(self, reply: Reply) -> LLMResponse:
        """The LLMResponse of a JSON reply (one that was cut: the text read before the cut)."""
        if reply.cut:
            text = _salvage_content(reply.body)
            if text is None:
                raise LLMError(f"{self.name}: the reply is over {self.max_reply_bytes:,} bytes "
                               "(llm_options max_reply_bytes); reading stopped there and no "
                               "text could be read from it", code="too-large")
            return self._cut(text, [f"reply over {self.max_reply_bytes:,} bytes: reading "
                                    "stopped there (llm_options max_reply_bytes), the text "
                                    "read so far kept"], 0, 0)
        try:
            data = json.loads(reply.body.decode("utf-8"))
        except ValueError as exc:  # bad JSON
            raise LLMError(f"{self.name} sent a reply that is not JSON: {exc}",
                           code="bad-reply") from None
        try:
            content = data["choices"][0]["message"].get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            log.warning("%s: reply without choices[0].message.content: %s", self.name,
                        redact(json.dumps(data)[:4000], [self.api_key]))
            raise LLMError(f"{self.name}: the reply has no choices[0].message.content (the "
                           "reply is in the byokg.llm log)", code="bad-reply") from None
        text, warns = content_text(content)
        pt, ct, usage_warns = token_counts(data.get("usage") if isinstance(data, dict) else None,
                                           "prompt_tokens", "completion_tokens")
        return self._cut(text, warns + usage_warns, pt, ct)

    def _cut(self, text: str, warns: list[str], pt: int, ct: int) -> LLMResponse:
        if len(text) > self.max_reply_chars:
            warns = [*warns, f"reply of {len(text):,} characters cut to "
                             f"{self.max_reply_chars:,} (llm_options max_reply_chars)"]
            text = text[:self.max_reply_chars]
        return LLMResponse(text=text, model=self.name, prompt_tokens=pt, completion_tokens=ct,
                           warnings=[f"{self.name}: {w}" for w in warns])

    def _stream(self, prompt: str, system: str | None, max_tokens: int | None,
                temperature: float | None, timeout_s: float, on_token: TokenCallback
                ) -> LLMResponse:
        if not self.stream:
            return super()._stream(prompt, system, max_tokens, temperature, timeout_s, on_token)
        body = {**self._body(prompt, system, max_tokens, temperature), "stream": True}
        if self.stream_usage:
            body["stream_options"] = {"include_usage": True}
        reader = _StreamReader(self, on_token)
        reply = self._exchange(body, timeout_s, sink=reader.feed)
        if reply.status in (400, 422):
            # a server that cannot stream (or take stream_options): once more, whole
            report(self.name, reply.status, reply.body, url=self.url, secrets=[self.api_key])
            self.stream = False
            resp = super()._stream(prompt, system, max_tokens, temperature, timeout_s, on_token)
            resp.warnings.append(f"{self.name}: the server refused a streamed request (HTTP "
                                 f"{reply.status}); answered without streaming, and will not "
                                 "ask it to stream again (llm_options stream=false skips the "
                                 "try)")
            return resp
        if reply.status >= 300:
            self._fail(reply.status, reply.body)
        if "event-stream" not in reply.content_type.lower():
            if not reply.body.lstrip().startswith(b"data:"):
                resp = self._whole(reply)  # plain JSON to a streamed request: read whole
                if resp.text:
                    on_token(resp.text)
                return resp
            reader.feed(reply.body)  # events under another Content-Type (kept, bounded)
        return reader.finish()


class _StreamReader(StreamedReply):
    """The sink of a streamed reply: decodes the events, sends each text delta on, keeps the
    usage of the last chunk and stops reading at ``[DONE]`` or past ``max_reply_chars``."""

    def __init__(self, llm: OpenAICompatLLM, on_token: TokenCallback) -> None:
        super().__init__(llm, on_token)
        self.decoder = SSEDecoder(max_line=llm.max_reply_bytes)
        self.done = False
        self.finished: str | None = None  # the last finish_reason

    def feed(self, chunk: bytes) -> bool:
        """Take one chunk of the body; False: stop reading."""
        if self.done or self.cut:
            return False
        try:
            events = self.decoder.feed(chunk)
        except SSEError as exc:
            raise LLMError(f"{self.llm.name}: {exc}", code="bad-reply") from None
        for _name, data in events:
            if not self._event(data):
                return False
        return True

    def _event(self, data: str) -> bool:
        if data.strip() == "[DONE]":
            self.done = True
            return False
        try:
            obj = json.loads(data)
        except ValueError:
            raise LLMError(f"{self.llm.name}: a streamed event is not JSON ({len(data)} "
                           "characters)", code="bad-reply") from None
        if not isinstance(obj, dict):
            return True
        if obj.get("error") is not None:  # an error sent inside the stream
            msg = report(self.llm.name, None, data, url=self.llm.url,
                         secrets=[self.llm.api_key])
            raise LLMError(f"{self.llm.name}: {msg} inside the stream (the provider's reply "
                           "is in the byokg.llm log)", code="stream-error")
        if obj.get("usage") is not None:
            self.usage = obj["usage"]
        choices = obj.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            first = choices[0]
            delta = first.get("delta")
            if isinstance(delta, dict):
                text, warns = content_text(delta.get("content"))
                self.warnings.extend(w for w in warns if w not in self.warnings)
                self.send(text)
            if first.get("finish_reason"):
                self.finished = str(first["finish_reason"])
        return not self.cut

    def finish(self) -> LLMResponse:
        for _name, data in self.decoder.close():
            if self.done or self.cut or not self._event(data):
                break
        if not (self.done or self.cut or self.finished):
            raise TransientLLMError(f"{self.llm.name}: the stream ended before its end ([DONE]) "
                                    f"after {self.chars:,} characters", code="stream-ended")
        return self.response()


def _salvage_content(raw: bytes) -> str | None:
    """The text of ``choices[0].message.content`` from a JSON reply cut short: the string up to
    its end, or up to the cut (a half escape sequence at the cut dropped)."""
    m = _CONTENT.search(raw)
    if m is None:
        return None
    rest = raw[m.end() - 1:].decode("utf-8", "replace")  # from the opening quote
    try:
        return scanstring(rest, 1)[0]  # the string ended before the cut
    except ValueError:
        pass
    body = rest[1:]
    for drop in range(0, 13):  # a cut inside \uXXXX\uXXXX is at most 12 characters back
        try:
            return json.loads('"' + body[:len(body) - drop] + '"')
        except ValueError:
            continue
    return None
