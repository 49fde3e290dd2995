"""The guard against what the real embedded model answered: SmolLM2's recorded answers, replayed.

``tests/data/recorded/evening_{en,ja}.json`` hold every answer SmolLM2-135M gave to a flush of a short
English and a short Japanese evening (``scripts/record-embedded``; the README there says how): its items
echo the filter rules and the personas' talents ("Mood swings, ways of speaking, shared jokes…"), take
schema placeholders for slots ("id of a user line", "role: user"), run one syllable ("ラジェストラジェス…"),
and its English diary page is the request's own profile line with placeholder topics. Replayed through a
real flush, none of it may reach a view the user is shown as theirs, and every message is archived.
"""

from __future__ import annotations

import pytest

from tests.support.recorded import VIEWS, ReplayBackend, proposals, run_evening, traces, views

EVENINGS = ("evening_en", "evening_ja")


@pytest.fixture(scope="module", params=EVENINGS)
def replayed(request, tmp_path_factory):
    home = tmp_path_factory.mktemp(request.param)
    backend = ReplayBackend.load(request.param)
    report, messages = run_evening(home, request.param, backend)
    return request.param, backend, report, messages, views(home)


def test_the_replay_asks_what_was_recorded(replayed):
    evening, backend, report, _, _ = replayed
    assert backend.answered, evening  # the model's answers reached the flush
    assert report.errors == [] or all("diary" in e or "reflect" in e for e in report.errors), report.errors


def test_every_message_is_archived(replayed):
    _, _, report, messages, _ = replayed
    assert report.messages_archived == len(messages)


def test_every_proposal_is_kept_or_dropped_with_its_reason(replayed):
    _, backend, report, _, shown = replayed
    proposed = proposals([c["answer"] for c in backend.answered if c["label"].startswith("filter/") and "answer" in c])
    kept = [item for items in report.items.values() for item in items]
    assert proposed and len(kept) + len(report.dropped_items) == proposed
    assert all(d["reason"] for d in report.dropped_items)
    assert len(shown["memory"]) <= len(kept)


def test_the_day_has_a_page_or_says_why_not(replayed):
    _, _, report, messages, shown = replayed
    [day] = {m.ts[:10] for m in messages}
    refused = [e for e in report.errors if e.startswith(f"diary {day}")]
    assert [p["date"] for p in shown["diary"]] == ([] if refused else [day])
    for page in shown["diary"]:
        assert page["messages"] and set(page["messages"]) <= {m.id for m in messages if m.role == "user"}


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_no_view_shows_the_prompt_the_persona_or_a_placeholder(replayed, view):
    _, _, _, messages, shown = replayed
    assert traces(shown[view], [m.text for m in messages]) == []
