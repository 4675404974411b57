"""``replay:CASSETTE``: record every prompt/response of a real run, replay them offline.

``replay:run.jsonl?record=openai:gpt-4o`` (or the option ``record="openai:gpt-4o"``) calls the
real model and appends each exchange to the cassette; with ``&missing=1`` as well, a prompt the
cassette already answers is replayed and only the others are recorded (a cassette grown run by
run). ``replay:run.jsonl`` answers from the cassette only, keyed by prompt checksum. A prompt not in the cassette is an LLMError naming the
checksum and the cassette.

Streams are recorded as they came: a call made with ``on_token`` stores the pieces in the
entry's ``chunks`` (they join to ``response``), and replaying with ``on_token`` sends the same
pieces; an entry without ``chunks`` is sent as one piece.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from pathlib import Path
from typing import Any

from byokg.errors import ConfigError
from byokg.errors import InputError
from byokg.errors import LLMError
from byokg.models.base import LLM
from byokg.models.base import LLMResponse
from byokg.models.base import TokenCallback
from byokg.models.base import WrappingLLM
from byokg.models.base import complete_streaming
from byokg.models.base import prompt_checksum
from byokg.models.base import spec_part
from byokg.models.base import token_counts


def parse_replay_spec(rest: str) -> tuple[str, dict[str, str]]:
    path, _, query = rest.partition("?")
    opts = {k: v[-1] for k, v in urllib.parse.parse_qs(query, keep_blank_values=True).items()}
    return path, opts


def load_cassette(path: Path) -> dict[str, dict[str, Any]]:
    entries: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return entries
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key = row.get("checksum") or prompt_checksum(row["prompt"], row.get("system"))
                row["response"]  # noqa: B018 - required field
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise InputError(
                    f"not a cassette entry ({exc}); each line needs 'response' and 'checksum' or 'prompt'",
                    source=str(path),
                    line=n,
                ) from None
            chunks = row.get("chunks")
            if chunks is not None and (not isinstance(chunks, list) or not all(
                    isinstance(c, str) for c in chunks) or "".join(chunks) != str(row["response"])):
                raise InputError("'chunks' must be a list of strings that join to 'response' "
                                 "(the streamed pieces of the reply); fix or drop it",
                                 source=str(path), line=n, field="chunks")
            entries[key] = row
    return entries


class ReplayLLM(WrappingLLM):
    """Answers from a cassette; with ``record`` a real model answers (its deadline, budget and
    retries apply: options such as ``timeout_s`` / ``budget_s`` are passed through to it)."""

    retries = 0
    budget_s = float("inf")

    def __init__(self, cassette: str | Path, *, record: str | LLM | None = None,
                 missing: bool | str = False, **options: Any) -> None:
        self.path = Path(cassette).expanduser()
        flag = str(missing).strip().lower()
        if flag not in ("", "0", "1", "true", "false", "yes", "no"):
            raise ConfigError(f"replay option missing={missing!r}: write missing=1 (record only "
                              "the prompts the cassette lacks) or leave it out")
        self.missing = flag in ("1", "true", "yes")
        self._lock = threading.Lock()
        self.inner: LLM | None = None
        if record:
            if isinstance(record, str):
                from byokg.models.llm import create_llm

                self.inner = create_llm(record, **options)
            else:
                self.inner = record
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif not self.path.is_file():
            raise ConfigError(
                f"replay cassette {self.path} does not exist; record one with "
                f"--llm 'replay:{self.path}?record=openai:MODEL' (or bedrock:MODEL_ID)"
            )
        self.entries = load_cassette(self.path)
        self.name = f"replay:{self.path.name}"

    def _answer(self, prompt: str, system: str | None, max_tokens: int | None,
                temperature: float | None, on_token: TokenCallback | None) -> LLMResponse:
        key = prompt_checksum(prompt, system)
        hit = self.entries.get(key)
        if hit is not None and (self.inner is None or self.missing):
            pt, ct, warns = token_counts(hit, "prompt_tokens", "completion_tokens")
            if on_token is not None:
                for piece in hit.get("chunks") or [str(hit["response"])]:
                    if piece:
                        on_token(piece)
            return LLMResponse(
                text=str(hit["response"]),
                model=str(hit.get("model", self.name)),
                prompt_tokens=pt,
                completion_tokens=ct,
                cached=True,
                warnings=[f"{self.name}: cassette entry {key}: {w}" for w in warns],
            )
        if self.inner is None:
            raise LLMError(
                f"replay cassette {self.path} has no response for prompt checksum {key} "
                f"(prompt starts {prompt[:60]!r}); re-record with replay:{self.path}?record=SPEC",
                code="replay-miss",
            )
        chunks: list[str] = []
        if on_token is None:
            resp = self.inner.complete(prompt, system=system, max_tokens=max_tokens,
                                       temperature=temperature)
        else:
            def keep(piece: str) -> None:
                chunks.append(piece)
                on_token(piece)

            resp = complete_streaming(self.inner, prompt, keep, system=system,
                                      max_tokens=max_tokens, temperature=temperature)
        row = {
            "checksum": key,
            "model": resp.model,
            "system": system,
            "prompt": prompt,
            "response": resp.text,
            "prompt_tokens": resp.prompt_tokens,
            "completion_tokens": resp.completion_tokens,
        }
        if on_token is not None and "".join(chunks) == resp.text:
            row["chunks"] = chunks
        with self._lock:
            self.entries[key] = row
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        return resp


def create_replay(rest: str, **options: Any) -> ReplayLLM:
    path, opts = parse_replay_spec(rest)
    path = spec_part("replay", path, "a cassette file, e.g. replay:run.jsonl")
    record = options.pop("record", None) or opts.pop("record", None)
    missing = options.pop("missing", None) or opts.pop("missing", False)
    return ReplayLLM(path, record=record, missing=missing, **options)
