"""Protocols for the model-backed parts: LLMs, embedders, rerankers.

Providers are registered through the ``register_llms``, ``register_embedders`` and
``register_rerankers`` hooks; heavy libraries are imported inside the providers, never here.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import Protocol
from typing import runtime_checkable

from pydantic import BaseModel
from pydantic import Field

from byokg.errors import ConfigError
from byokg.errors import LLMError

if TYPE_CHECKING:  # numpy stays out of `import byokg`
    import numpy as np

DEFAULT_TIMEOUT_S = 60.0  # one call, connect + whole reply (llm_options: timeout_s)
DEFAULT_BUDGET_S = 150.0  # all attempts of one call, retries and back-off included (budget_s)
MAX_REPLY_CHARS = 200_000  # characters of one reply read before it is cut (max_reply_chars)

TokenCallback = Callable[[str], None]  # receives each piece of a reply's text as it arrives


class LLMResponse(BaseModel):
    text: str
    model: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    # what the provider's reply held that byokg ignored or fixed (bad usage counts, skipped
    # content parts); callers record these as trace warnings
    warnings: list[str] = Field(default_factory=list)


class TransientLLMError(LLMError):
    """A failure another attempt may not repeat (throttling, 5xx, connection, deadline)."""


def spec_part(provider: str, value: str, needs: str) -> str:
    """The part of a ``provider:…`` spec after the colon; a ConfigError saying what the spec
    needs (``needs``: what it is, with an example) when it is empty."""
    if not value:
        raise ConfigError(f"{provider}: spec needs {needs}")
    return value


def token_counts(usage: Any, prompt_key: str, completion_key: str) -> tuple[int, int, list[str]]:
    """``(prompt_tokens, completion_tokens, warnings)`` from a provider's ``usage``: optional
    metadata, so a missing, non-integer, negative or list value is ignored with a warning."""
    if usage is None:
        return 0, 0, []
    if not isinstance(usage, Mapping):
        return 0, 0, [f"usage is {type(usage).__name__}, not an object: token counts ignored"]
    out, warns = [], []
    for key in (prompt_key, completion_key):
        v = usage.get(key)
        if v is None:
            out.append(0)
        elif isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            out.append(v)
        elif isinstance(v, float) and v.is_integer() and v >= 0:
            out.append(int(v))
        else:
            out.append(0)
            warns.append(f"usage.{key} = {str(v)[:40]!r} is not a token count: ignored")
    return out[0], out[1], warns


class StreamedReply:
    """A reply read as a provider streams it: each text piece sent on to ``on_token`` and kept,
    reading stopped past ``max_reply_chars`` (``cut``). Providers decode their own events and
    call :meth:`send`; :meth:`response` builds the :class:`LLMResponse`."""

    usage_keys: ClassVar[tuple[str, str]] = ("prompt_tokens", "completion_tokens")

    def __init__(self, llm: Any, on_token: TokenCallback) -> None:
        self.llm, self.on_token = llm, on_token
        self.parts: list[str] = []
        self.chars = 0
        self.cut = False
        self.usage: Any = None
        self.warnings: list[str] = []

    def send(self, text: str) -> None:
        room = self.llm.max_reply_chars - self.chars
        if len(text) > room:
            text, self.cut = text[:room], True
        if text:
            self.parts.append(text)
            self.chars += len(text)
            self.on_token(text)

    def response(self) -> LLMResponse:
        """The reply read so far, with the cut and the usage's problems as warnings."""
        name = self.llm.name
        warns = list(self.warnings)
        if self.cut:
            warns.append(f"reply cut at {self.llm.max_reply_chars:,} characters while reading "
                         "(llm_options max_reply_chars); the rest was not read")
        pt, ct, usage_warns = token_counts(self.usage, *self.usage_keys)
        return LLMResponse(text="".join(self.parts), model=name, prompt_tokens=pt,
                           completion_tokens=ct,
                           warnings=[f"{name}: {w}" for w in warns + usage_warns])


class BaseLLM:
    """``complete()`` for providers: retries with capped exponential back-off and jitter, a
    deadline for each call (connect + whole reply: ``timeout_s``) and a total budget across
    all attempts and waits (``budget_s``). A provider implements :meth:`_call`, raising
    :class:`TransientLLMError` for what another attempt may fix, and :meth:`_stream` when it
    can stream the reply's text."""

    name: str = "llm"
    timeout_s: float = DEFAULT_TIMEOUT_S
    budget_s: float = DEFAULT_BUDGET_S
    retries: int = 4
    backoff_base: float = 0.5
    backoff_cap: float = 20.0
    streams: ClassVar[bool] = True  # complete() takes on_token (see complete_streaming)

    def _set_limits(self, timeout_s: float | None, budget_s: float | None,
                    legacy_timeout: float | None = None) -> None:
        from byokg.errors import ConfigError

        t = timeout_s if timeout_s is not None else legacy_timeout
        self.timeout_s = float(t) if t is not None else DEFAULT_TIMEOUT_S
        self.budget_s = float(budget_s) if budget_s is not None else max(
            DEFAULT_BUDGET_S, self.timeout_s)
        if self.timeout_s <= 0 or self.budget_s <= 0:
            raise ConfigError(f"{self.name}: timeout_s and budget_s must be positive "
                              f"(got {self.timeout_s:g} and {self.budget_s:g})")

    def _call(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None, timeout_s: float) -> LLMResponse:
        raise NotImplementedError

    def _stream(self, prompt: str, system: str | None, max_tokens: int | None,
                temperature: float | None, timeout_s: float, on_token: TokenCallback
                ) -> LLMResponse:
        """One attempt whose text goes to ``on_token`` as it arrives. Providers that stream
        override this; the default answers whole and sends the text as one piece."""
        resp = self._call(prompt, system, max_tokens, temperature, timeout_s)
        if resp.text:
            on_token(resp.text)
        return resp

    def complete(
        self,
        prompt: str,
        *,
        system: str | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        on_token: TokenCallback | None = None,
    ) -> LLMResponse:
        """The reply, retried within the budget. With ``on_token`` the reply's text also goes
        to ``on_token`` piece by piece as the provider sends it; an attempt that fails after a
        piece was sent is not retried (the pieces cannot be taken back). A stopped question
        (:mod:`byokg.cancel`) makes no further attempt and ends the back-off at once."""
        from byokg.cancel import check as check_cancelled
        from byokg.models.retry import RetryPolicy

        start = time.monotonic()
        end = start + self.budget_s
        policy = RetryPolicy(self.retries, self.backoff_base, self.backoff_cap)
        last: TransientLLMError | None = None
        attempts = 0
        sent = 0

        def count(piece: str) -> None:
            nonlocal sent
            sent += len(piece)
            on_token(piece)  # type: ignore[misc]

        for attempt in range(self.retries + 1):
            check_cancelled()  # a stopped question makes no (further) call
            left = end - time.monotonic()
            if left <= 0.05:
                break
            attempts += 1
            try:
                if on_token is None:
                    return self._call(prompt, system, max_tokens, temperature,
                                      min(self.timeout_s, left))
                return self._stream(prompt, system, max_tokens, temperature,
                                    min(self.timeout_s, left), count)
            except TransientLLMError as exc:
                if sent:
                    raise LLMError(f"{self.name}: the reply broke off after {sent:,} characters "
                                   f"had been streamed: {exc}", code=exc.code) from None
                last = exc
            if attempt < self.retries:
                policy.sleep(min(policy.delay(attempt), end - time.monotonic()))
        spent = time.monotonic() - start
        raise LLMError(
            f"{self.name} failed after {attempts} attempts in {spent:.1f} s (deadline "
            f"{self.timeout_s:g} s per call, budget {self.budget_s:g} s in all; set "
            f"llm_options timeout_s / budget_s): {last}",
            code=last.code if last else "budget", summary=last.summary if last else None)


class WrappingLLM(BaseLLM):
    """An LLM that answers from a store of replies and asks a wrapped model on a miss (the
    cache, the replay cassette): plain and streamed calls both go to :meth:`_answer`, which
    sends the reply to ``on_token`` when given."""

    def _call(self, prompt: str, system: str | None, max_tokens: int | None,
              temperature: float | None, timeout_s: float) -> LLMResponse:
        return self._answer(prompt, system, max_tokens, temperature, None)

    def _stream(self, prompt: str, system: str | None, max_tokens: int | None,
                temperature: float | None, timeout_s: float, on_token: TokenCallback
                ) -> LLMResponse:
        return self._answer(prompt, system, max_tokens, temperature, on_token)

    def _answer(self, prompt: str, system: str | None, max_tokens: int | None,
                temperature: float | None, on_token: TokenCallback | None) -> LLMResponse:
        raise NotImplementedError


@runtime_checkable
class LLM(Protocol):
    """A text-completion model (:class:`BaseLLM` implements it for the built-in providers).
    Errors are raised (LLMError), never returned as text.

    Streaming is optional: a model whose class sets ``streams = True`` takes
    ``complete(..., on_token=callback)`` and hands the callback each piece of the reply as it
    arrives; :func:`complete_streaming` calls any model that way, sending the whole text of
    one that does not stream as one piece."""

    name: str

    def complete(self, prompt: str, *, system: str | None = None, max_tokens: int | None = None,
                 temperature: float | None = None) -> LLMResponse: ...


def complete_streaming(llm: Any, prompt: str, on_token: TokenCallback, **options: Any) -> Any:
    """``llm.complete(prompt, **options)`` with the reply's text sent to ``on_token``: piece by
    piece when the model streams (``streams = True``), else whole, once, when the reply is in."""
    if getattr(llm, "streams", False) is True:
        return llm.complete(prompt, on_token=on_token, **options)
    resp = llm.complete(prompt, **options)
    text = resp.text
    if text:
        on_token(text)
    return resp


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised float32 vectors (so inner product is cosine)."""

    name: str
    dim: int

    def encode(self, texts: Sequence[str], *, batch_size: int = 256) -> np.ndarray: ...


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs; higher is more relevant."""

    name: str

    def score(self, query: str, passages: Sequence[str], *, batch_size: int = 64) -> list[float]: ...


def prompt_checksum(prompt: str, system: str | None = None) -> str:
    """Stable checksum of a prompt (keys caches and replay cassettes)."""
    h = hashlib.sha256()
    h.update((system or "").encode("utf-8"))
    h.update(b"\x00")
    h.update(prompt.encode("utf-8"))
    return h.hexdigest()[:16]

