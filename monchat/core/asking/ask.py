"""The one way a flush stage asks a backend for a structured answer, and what the calls cost.

Filter and judge both call ``ask_json``: one request, the backend's own retries, the answer's tokens
told as they arrive (the flush dialog shows them), and its reported
usage added to a ``TokenUsage`` — prompt, output, cached and thinking tokens as the backend counted
them. A backend that reports nothing (or an answer kept from an earlier run, which cost nothing
now) is counted apart: estimated calls are counted with cl100k and flagged, never mixed in silently.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ..backends.base import Backend, TokenListener
from ..tokens import count_tokens
from ..types import Turn


TEXT_MARGIN = 1.3  # a model's text may take more tokens a character than the sample it is sized by
JSON_FRAME = 32  # tokens of an answer's braces, keys and quotes around its text
MIN_TEXT = 40  # characters a text may always have


def _tokens_per_char(backend: Backend, sample: str) -> float:
    """Tokens a character of text written like ``sample`` (its script) takes on ``backend``, with ``TEXT_MARGIN``."""
    sample = sample or "x"
    return max(1, backend.count_text(sample)) / len(sample) * TEXT_MARGIN


def text_room(backend: Backend, sample: str, limit: int, reserved: int = 0) -> int:
    """Characters of free text a structured answer may ask for on ``backend``: at most ``limit``, and few
    enough that a text written like ``sample`` (its script), with ``reserved`` tokens for the rest of the
    answer, fits the backend's answer allowance (``json_answer_reserve``). SmolLM2 takes 1.2–1.8 tokens
    a Japanese character: 400 of them are up to 700 tokens, cut off at its 640; a server's 1,024 holds them."""
    room = backend.json_answer_reserve() - reserved - JSON_FRAME
    return max(MIN_TEXT, min(limit, int(room / _tokens_per_char(backend, sample))))


def text_tokens(backend: Backend, sample: str, chars: int) -> int:
    """Tokens ``chars`` characters written like ``sample`` may take on ``backend`` (with ``TEXT_MARGIN``)."""
    return int(chars * _tokens_per_char(backend, sample)) + 1


def shared_text_room(backend: Backend, sample: str, limit: int, parts: int, reserved_per_part: int) -> int:
    """Characters for each of ``parts`` texts in one answer (at most ``limit`` each), so that all of them, with
    ``reserved_per_part`` tokens each for the rest of their entry, fit a small answer allowance.

    A backend with the usual allowance (``Backend.JSON_ANSWER_RESERVE``, a server's or a cloud's) keeps
    ``limit``; one with less (the embedded model's 640) gets texts short enough that even an answer whose
    every entry runs to its limit is not cut off: SmolLM2 otherwise loops to each string's maxLength.
    """
    if backend.json_answer_reserve() >= Backend.JSON_ANSWER_RESERVE:
        return limit
    parts = max(1, parts)
    whole = text_room(backend, sample, limit * parts, parts * reserved_per_part)
    return max(MIN_TEXT, min(limit, whole // parts))


@dataclass
class TokenUsage:
    calls: int = 0  # requests a stage made
    kept: int = 0  # of which answered from the answers kept by an earlier run: no tokens spent
    prompt_tokens: int = 0  # as the backends reported them
    output_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens the backend served from its cache
    thinking_tokens: int = 0  # a thinking model's hidden reasoning
    estimated_calls: int = 0  # calls whose backend reported no counts
    estimated_tokens: int = 0  # their prompt and answer, counted with cl100k

    def add(self, other: "TokenUsage") -> None:
        for name, value in asdict(other).items():
            setattr(self, name, getattr(self, name) + value)

    @property
    def total(self) -> int:
        """Reported tokens plus the estimates: the figure a summary shows (``estimated`` says which)."""
        return self.prompt_tokens + self.output_tokens + self.thinking_tokens + self.estimated_tokens

    @property
    def estimated(self) -> bool:
        return self.estimated_calls > 0

    def to_dict(self) -> dict:
        return {**asdict(self), "total": self.total, "estimated": self.estimated}


def ask_json(backend: Backend, system: str, user: str, schema: dict, usage: TokenUsage,
             on_tokens: TokenListener | None = None) -> dict:
    """One structured request with a single user turn; its usage is added to ``usage``.

    ``on_tokens(n)`` hears the answer's tokens so far as they arrive (see ``Backend.complete_json``).

    Raises what ``Backend.complete_json`` raises (``MalformedReply``, ``BackendError``); a call that
    failed is still counted, with the prompt estimated.
    """
    usage.calls += 1
    answer = None
    try:
        answer = backend.complete_json(system, [Turn("user", user)], schema, on_tokens=on_tokens)
        return answer
    finally:
        reported = backend.last_usage
        if reported.kept_answer:
            usage.kept += 1
        elif reported.prompt_tokens is None:
            usage.estimated_calls += 1
            usage.estimated_tokens += count_tokens(system) + count_tokens(user)
            if answer is not None:
                usage.estimated_tokens += count_tokens(json.dumps(answer, ensure_ascii=False))
        else:
            usage.prompt_tokens += reported.prompt_tokens
            usage.output_tokens += reported.output_tokens or 0
            usage.cached_tokens += reported.cached_tokens or 0
            usage.thinking_tokens += reported.thinking_tokens or 0
