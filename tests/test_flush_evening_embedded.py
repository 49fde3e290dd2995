"""Flush requests fit the default embedded model, counted by its own tokenizer and chat template.

Before requests were sized to the context, 200 short messages made one filter
request of 5,522 tokens for a 4,096-token model: the flush stopped, and with the
gate closed chat could never resume. These tests use the real SmolLM2 model's
tokenizer; the flush of a whole evening through it is a figure of
``benchmarks/run`` (minutes of CPU), and ``test_e2e_embedded.py`` runs a flush.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from monchat.core.backends.base import chat_messages
from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.flush.answer import item_schema
from monchat.core.flush.score import build_lines, plan_chunks, render_log, user_ids
from monchat.core.personas.library import PersonaRegistry
from monchat.core.paths import resource_dir
from monchat.core.prompts import PromptLibrary
from monchat.core.types import Message, Turn, content_message_id, format_ts
from tests.support.embedded import require_embedded


SAYINGS = [
    ("user", "今日は会社で新しいプロジェクトの打ち合わせがあった。"),
    ("assistant", "お疲れさまでした。どんなプロジェクトですか?"),
    ("user", "Dinner was curry with my sister, she visited from Osaka."),
    ("assistant", "That sounds nice! Did you cook it together?"),
    ("user", "ギターの練習を30分した。Fコードがまだ難しい。"),
    ("assistant", "毎日少しずつ続けるのが大事ですね。"),
    ("user", "I'm thinking of going to bed early, tomorrow starts at seven."),
    ("assistant", "Good idea. Sleep well!"),
]


def evening(count: int) -> list[Message]:
    start = datetime(2026, 11, 30, 18, 0, tzinfo=timezone.utc)
    messages = []
    for n in range(count):
        role, text = SAYINGS[n % len(SAYINGS)]
        ts = format_ts(start + timedelta(minutes=n))
        text = f"{text} ({n})"
        messages.append(Message(id=content_message_id(ts, role, text, "hana"), ts=ts, role=role, text=text,
                                persona="hana"))
    return messages


@pytest.fixture(scope="module")
def backend():
    model = require_embedded(EmbeddedBackend(n_ctx=4096, max_tokens=512))  # the shipped defaults
    yield model
    model.close()


@pytest.fixture(scope="module")
def prompts():
    return PromptLibrary(resource_dir("prompts"))


@pytest.fixture(scope="module")
def filters(tmp_path_factory):
    empty = tmp_path_factory.mktemp("no-user-personas")
    registry = PersonaRegistry(resource_dir("personas"), empty, empty)
    return [registry.filter_persona(pid) for pid in ("base", "lifestyle", "project", "emotional")]


def test_every_request_of_an_evening_fits_the_default_model(backend, prompts, filters):
    lines = build_lines(evening(200), timezone.utc)

    chunks, notes = plan_chunks(backend, prompts, filters, lines)

    assert len(chunks) >= 2 and notes == []
    assert [line.message_id for chunk in chunks for line in chunk] == [line.message_id for line in lines]
    limit = backend.json_prompt_limit()
    sizes = {}
    for persona in filters:
        system = prompts.render("filter.md.j2")
        sizes[persona.id] = [
            backend.count_json_request(system, [Turn("user", render_log(prompts, chunk, n, len(chunks), persona))],
                                       item_schema(persona.max_items, user_ids(chunk)))
            for n, chunk in enumerate(chunks, start=1)]
        assert max(sizes[persona.id]) <= limit, f"{persona.id}: {sizes[persona.id]} tokens for {limit}"
    widest = max(sizes.values())  # packed, not merely split: full requests but the last
    assert min(widest[:-1]) > 0.9 * limit, sizes


def test_the_count_is_what_the_model_reads(backend, prompts, filters):
    """``count_json_request`` is llama.cpp's own prompt count for the request."""
    lines = build_lines(evening(4), timezone.utc)
    system = prompts.render("filter.md.j2")
    turns = [Turn("user", render_log(prompts, lines, 1, 1, filters[0]))]
    schema = item_schema(3, user_ids(lines))

    counted = backend.count_json_request(system, turns, schema)
    read = backend.load().create_chat_completion(messages=chat_messages(system, turns), max_tokens=1,
                                                 temperature=0.0)["usage"]["prompt_tokens"]

    assert counted == read
