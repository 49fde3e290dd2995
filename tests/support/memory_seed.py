"""A small real memory to export, import and serve: a supersession chain resting on archived user lines.

"Remember: I live in Sendai" (Mon) became the lasting memory "Lives in Sendai"; "moved last week, I'm in
Kanazawa now" (Sun) replaced it with "Lives in Kanazawa" (old row superseded, ``invalid_at`` set); the
green tea habit waits for review. Made through ``Transitions`` as a flush makes them.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from monchat.app import build_app
from monchat.core.records.memory import MemoryRecord
from monchat.core.vocabulary.states import Action, State
from monchat.core.memory.transitions import Transitions
from monchat.core.types import Message

JST = timezone(timedelta(hours=9))
MESSAGES = [
    Message(id="u-sendai", ts="2026-11-23T21:10:00.000+09:00", role="user", text="Remember: I live in Sendai",
            persona="mira"),
    Message(id="a-sendai", ts="2026-11-23T21:10:05.000+09:00", role="assistant", text="Sendai, got it!",
            persona="mira"),
    Message(id="u-kanazawa", ts="2026-11-29T19:00:00.000+09:00", role="user",
            text="moved last week, I'm in Kanazawa now", persona="mira"),
    Message(id="u-tea", ts="2026-11-29T19:05:00.000+09:00", role="user", text="green tea with every meal",
            persona="mira"),
]
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=JST)


def _rows(app, ids: list[str], kind: str) -> list[dict]:
    found = app.archive.get_many(ids)
    return [{"message_id": i, "day": found[i]["day"], "session": found[i]["session"], "kind": kind,
             "contradicts": 0, "persona": "base"} for i in ids]


def seed(app) -> None:
    app.archive.archive(MESSAGES, NOW)
    t = Transitions(app.memory.memories, app.settings.flush, NOW)
    with app.store.atomic():
        old = t.create(MemoryRecord(id="mem-sendai", text="Lives in Sendai", slot="home/city", kind="explicit",
                                    confidence=0.9, valid_at=MESSAGES[0].ts, created_at=MESSAGES[0].ts),
                       _rows(app, ["u-sendai"], "explicit"))
        old = t.activate(old)
        new = t.create(MemoryRecord(id="mem-kanazawa", text="Lives in Kanazawa", slot="home/city", kind="explicit",
                                    confidence=0.9, valid_at=MESSAGES[2].ts, created_at=MESSAGES[2].ts),
                       _rows(app, ["u-kanazawa"], "explicit"))
        t.supersede(old, new)
        t.activate(new)
        tea = t.create(MemoryRecord(id="mem-tea", text="Drinks green tea with every meal", slot="drink/daily",
                                    kind="habit", state=State.QUEUED, confidence=0.5, valid_at=MESSAGES[3].ts),
                       _rows(app, ["u-tea"], "habit"))
        t.queue(tea, Action.LAYER1, "test: waits for review", 0.5)
    app.memory.rebuild()


@pytest.fixture(name="app")
def seeded_app(home):
    """An App on the test's ``home`` (UTC) holding ``seed``'s memories; closed after the test. A module takes it as its
    ``app`` fixture by importing ``seeded_app``."""
    app = build_app(str(home), tz=timezone.utc)
    seed(app)
    yield app
    app.close()
