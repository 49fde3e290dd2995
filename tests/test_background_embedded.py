"""The digest and lint stages through the real embedded model (llama.cpp + SmolLM2), once each.

A small memory set is made by a flush with the oracle (fast); then each stage asks SmolLM2 directly,
with llama.cpp's grammar built from that stage's JSON schema (a schema too deep once crashed SmolLM2
with SIGSEGV: see ``core/background/diary.py``). The model may answer anything: the test holds the
program to its word — no crash, no answer cut off (not even once, then retried), and what it keeps
passes the stage's own checks, or it is refused with a note.
"""

from __future__ import annotations

import json

import pytest

from monchat.core.backends.embedded import EmbeddedBackend
from monchat.core.backends.retry import RetryPolicy
from monchat.core.background.lint import SMALL_PAIRS, Lint, candidate_pairs
from monchat.core.background import digest as digest_stage
from monchat.core.asking.ask import JSON_FRAME, TokenUsage, text_room
from monchat.core.paths import resource_dir
from monchat.core.prompts import PromptLibrary
from tests.flush.conftest import Oracle, Rule, World
from tests.support.embedded import require_embedded


SETS = {  # (what the user said, the rule the oracle proposes it as), in English and Japanese
    "en": [("remember: I like ramen", Rule("ramen", "I like ramen", "food/likes", "explicit", 0.9)),
           ("remember: I like sushi", Rule("sushi", "I like sushi", "food/likes", "explicit", 0.9)),
           ("remember: I like spicy curry", Rule("curry", "I like spicy curry", "food/likes", "explicit", 0.9)),
           ("remember: I live in Sendai", Rule("Sendai", "I live in Sendai", "home/city", "explicit", 0.9,
                                               persona="lifestyle")),
           ("remember: I live in Kanazawa now", Rule("Kanazawa", "I live in Kanazawa", "home/city", "explicit", 0.9,
                                                     persona="lifestyle"))],
    "ja": [("覚えておいて：味噌ラーメンが好き", Rule("ラーメン", "ラーメンが好きで、特に味噌ラーメンをよく食べる", "food/likes",
                                            "explicit", 0.9)),
           ("覚えておいて：回転寿司によく行く", Rule("寿司", "寿司が好きで、回転寿司によく行く", "food/likes", "explicit", 0.9)),
           ("覚えておいて：辛いカレーが好き", Rule("カレー", "辛いカレーが好き", "food/likes", "explicit", 0.9)),
           ("覚えておいて：仙台に住んでる", Rule("仙台", "仙台に住んでいる", "home/city", "explicit", 0.9, persona="lifestyle")),
           ("覚えておいて：今は金沢に住んでる", Rule("金沢", "金沢に住んでいる", "home/city", "explicit", 0.9,
                                            persona="lifestyle"))],
}


class Waits(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture(scope="module")
def model():
    waits = Waits()  # a cut-off answer is retried once: a wait here means one was cut off
    backend = require_embedded(EmbeddedBackend(n_ctx=4096, max_tokens=512,
                                               retry=RetryPolicy(attempts=2, jitter_s=0.0, sleep=waits)))
    backend.waits = waits
    yield backend
    backend.close()


@pytest.fixture(scope="module", params=sorted(SETS))
def memories(request, tmp_path_factory):
    """A home whose memory holds three foods and two homes (kept, Layer 1), made through the oracle."""
    said = SETS[request.param]
    world = World(tmp_path_factory.mktemp(f"embedded-background-{request.param}"), Oracle([r for _, r in said]))
    world.app.settings.background.lint_llm = False
    for n, (text, _rule) in enumerate(said):
        world.say(f"2026-06-01T12:0{n}:00+09:00", text)
    world.flush("2026-06-01T22:00:00+09:00")
    assert len(world.store.live()) == 5
    world.language = request.param
    return world


def test_the_digest_stage_through_smollm2_keeps_only_a_checked_digest_or_says_why(model, memories):
    prompts = PromptLibrary(resource_dir("prompts"))
    food = [m for m in memories.store.live() if m.slot == "food/likes"]
    usage, errors, notes = TokenUsage(), [], []

    kept = digest_stage.ask_digests(model, prompts, {"food/likes": food}, usage, errors, notes, memories.language)

    assert usage.calls == 1 and usage.prompt_tokens > 0
    assert model.waits == [] and not [e for e in errors if "cut off" in e], errors  # answered in its allowance
    assert errors == []  # the grammar held it to the schema: JSON of the right shape
    if kept:
        [digest] = kept
        assert digest_stage.check({"text": digest.text, "covers": digest.covers}, food, "food/likes")[0] == digest
        assert len(digest.text) <= digest_stage.DIGEST_MAX and set(digest.covers) <= {m.id for m in food}
    else:
        assert [n for n in notes if n.startswith("no digest for food/likes: ")], notes


def test_the_lint_stage_through_smollm2_names_only_pairs_it_was_shown(model, memories):
    prompts = PromptLibrary(resource_dir("prompts"))
    lint = Lint(memories.app.store, prompts)
    pairs = candidate_pairs(lint.store.memories())
    assert len(pairs) == 4  # three food pairs, one home pair
    usage = TokenUsage()

    answer = lint.ask(model, usage, "embedded check")

    assert usage.calls == 1 and usage.prompt_tokens > 0
    assert model.waits == [] and answer.errors == [], answer.errors  # no cut-off, no malformed answer
    candidates = {(a["id"], b["id"]) for a, b in pairs}
    # a small model's answer room (SmolLM2: 640 tokens) is asked about SMALL_PAIRS of them (issue 26)
    assert answer.ran and set(answer.shown) <= candidates and len(answer.shown) == min(len(pairs), SMALL_PAIRS)
    shown = {frozenset(p) for p in answer.shown}
    assert all(frozenset(c["ids"]) in shown and len(c["reason"]) <= 200 for c in answer.contradictions)
    assert (answer.dropped > 0) == any("left out" in n for n in answer.notes)


def test_the_text_a_stage_asks_for_fits_the_models_answer_allowance(model, memories):
    """400 Japanese characters are up to 700 SmolLM2 tokens, past its 640 for an answer: the
    digest asks for fewer (the product's 400 stays the most), English keeps all 400."""
    food = [m for m in memories.store.live() if m.slot == "food/likes"]
    sample = "".join(m.text for m in food)
    ids = model.count_text(json.dumps([m.id for m in food]))

    most = text_room(model, sample, digest_stage.DIGEST_MAX, ids)

    assert model.count_text((sample * 50)[:most]) + ids + JSON_FRAME <= model.json_answer_reserve()
    assert (most == digest_stage.DIGEST_MAX) == (memories.language == "en")
