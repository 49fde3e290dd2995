"""The embedded model's structured answer cut off at its allowance is asked again once, then given up.

Runs the real SmolLM2-135M-Instruct. The allowance is half the context here, and the schema asks
for twelve items, more than half a context just above twice the prompt can hold: every try is cut,
whatever the model writes. The first cut-off is retried (with the loop breaker), the second is
final, however many tries the policy allows: a looping model costs at most twice its allowance.
"""

from __future__ import annotations

import pytest

from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import MalformedReply
from monchat.core.types import Turn
from tests.support.embedded import require_embedded


SYSTEM = "List facts about the user as JSON."
TURNS = [Turn("user", "I like tea.")]
ITEMS = 12
SCHEMA = {
    "type": "object",
    "properties": {"items": {"type": "array", "minItems": ITEMS, "maxItems": ITEMS, "items": {
        "type": "object", "properties": {"text": {"type": "string"}, "score": {"type": "number"}},
        "required": ["text", "score"]}}},
    "required": ["items"],
}
MIN_ITEM_TOKENS = 6  # '{"text":"","score":0},' is at least this many tokens in any tokenizer we ship


class Waits(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def embedded(n_ctx: int, waits: Waits, attempts: int) -> EmbeddedBackend:
    return require_embedded(EmbeddedBackend(
        n_ctx=n_ctx, threads=1, retry=RetryPolicy(attempts=attempts, base_delay_s=0.0, jitter_s=0.0, sleep=waits)))


def test_a_cut_off_answer_is_retried_once_then_the_error_is_final():
    counter = embedded(2048, Waits(), attempts=1)
    try:
        prompt = counter.count_json_request(SYSTEM, TURNS, SCHEMA)
    finally:
        counter.close()
    n_ctx = 2 * prompt + 2  # the prompt fits beside half the context; the answer cannot
    assert n_ctx // 2 < ITEMS * MIN_ITEM_TOKENS
    waits = Waits()
    backend = embedded(n_ctx, waits, attempts=5)

    try:
        with pytest.raises(MalformedReply, match=f"cut off at {n_ctx // 2} tokens twice") as raised:
            backend.complete_json(SYSTEM, TURNS, SCHEMA, temperature=0.0)
    finally:
        backend.close()

    assert not raised.value.transient and raised.value.hint
    assert backend.calls == 2 and waits == [0.0]  # one retry, at once; not the policy's five tries
