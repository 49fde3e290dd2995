"""Helpers for flush tests: a world of one app, a pinned oracle backend, a clock and JST slots.

Every test drives the real ``FlushService`` and ``MemoryService`` built by
``build_app``; only the LLM is played by the oracle (``tests/support/oracle.py``).
Timestamps are explicit and carry +09:00; the 6-hour slots are JST.
"""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Iterator
from datetime import datetime, timedelta, timezone

import pytest

from monchat.app import build_app
from monchat.cli.main import build_parser
from monchat.core.flush.score import local_line_id
from monchat.core.flush.service import LINE_ID_KEY

if TYPE_CHECKING:
    from tests.fakes.fake_ollama import FakeOllamaServer
from monchat.core.paths import Paths
from monchat.core.settings import load_settings, save_settings, set_value
from monchat.core.memory import MemoryRecord
from monchat.core.types import Message, content_message_id, format_ts, parse_ts
from tests.support.oracle import Judgement, Oracle, Rule

JST = timezone(timedelta(hours=9))
SEED = 7  # the same seed everywhere: base + lifestyle + project (fixed) + emotional (the rest)

__all__ = ["JST", "SEED", "World", "Judgement", "Rule", "Oracle", "at"]


def at(text: str) -> datetime:
    """An aware datetime from ISO text with its offset, e.g. "2026-11-23T21:00:00+09:00"."""
    dt = datetime.fromisoformat(text)
    assert dt.tzinfo is not None, "tests use explicit offsets"
    return dt


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class World:
    """One monchat home with an oracle as its only backend.

    With ``settings`` (``{"backend.name": "ollama", …}``) they are written to ``settings.toml``
    first and nothing is pinned: the app chooses its backends from them, as a user's would.
    """

    def __init__(self, home, oracle: Oracle | None = None, start: str = "2026-11-23T08:00:00+09:00",
                 settings: dict[str, str] | None = None) -> None:
        self.home = home
        self.oracle = oracle or Oracle()
        self.clock = Clock(at(start))
        if settings:
            paths = Paths.from_env(str(home)).ensure()
            written, _ = load_settings(paths.settings_path)
            for key, value in settings.items():
                set_value(written, key, value)
            save_settings(written, paths.settings_path)
        self.app = build_app(str(home), pinned_backend=None if settings else self.oracle, clock=self.clock,
                             tz=JST)
        self.said: list[str] = []  # message ids in the order they were said
        if isinstance(self.oracle, Oracle):
            self.oracle.aliases = self.line_aliases

    # ---- services ---------------------------------------------------------
    @property
    def flusher(self):
        return self.app.flush

    @property
    def memory(self):
        return self.app.memory

    @property
    def settings(self):
        return self.app.settings.flush

    @property
    def store(self):
        return self.memory.memories

    # ---- what the user says ----------------------------------------------
    def say(self, when: str, text: str, role: str = "user", persona: str = "hana") -> str:
        """Log one message (deterministic id) as ChatService would; return its id."""
        ts = format_ts(parse_ts(when))
        message = Message(id=content_message_id(ts, role, text, persona), ts=ts, role=role, text=text,
                          persona=persona)
        self.app.logbook.append(message)
        self.said.append(message.id)
        return message.id

    def line_aliases(self) -> dict[str, str]:
        """``{"m1": id, …}``: the id filters are shown for the n-th message said here."""
        key = self.app.store.get_state(LINE_ID_KEY)
        if key is None:
            return {}
        return {f"m{n}": local_line_id(mid, bytes.fromhex(key)) for n, mid in enumerate(self.said, start=1)}

    def flush(self, when: str | None = None, **kwargs):
        """Run the real flush at ``when`` (the clock moves there)."""
        if when:
            self.clock.now = at(when)
        kwargs.setdefault("seed", SEED)
        return self.flusher.run(**kwargs)

    # ---- what there is ----------------------------------------------------
    def mem(self, text: str) -> MemoryRecord:
        """The one memory with this text."""
        found = [m for m in self.store.all() if m.text == text]
        assert len(found) == 1, f"{len(found)} memories with text {text!r}: {[m.text for m in self.store.all()]}"
        return found[0]

    def has(self, text: str) -> bool:
        return any(m.text == text for m in self.store.all())

    def layer(self, text: str) -> int:
        return self.mem(text).layer(self.clock().timestamp())

    def prompt(self) -> str:
        """The chat system prompt the next turn would send."""
        chat = self.app.chat
        return chat.system_prompt(chat.persona())

    def rows(self, table: str, order: str = "rowid") -> list[dict]:
        return list(self.app.store.db.query(f"SELECT * FROM {table} ORDER BY {order}"))

    def ledger(self, memory_id: str) -> list[dict]:
        return list(self.app.store.db.query(
            "SELECT * FROM evidence WHERE memory_id = ? ORDER BY message_id", [memory_id]))

    def queue(self) -> list[dict]:
        """The open review items as ``monchat memory queue --json`` shows them (``ReviewItem.as_dict``)."""
        return [item.as_dict() for item in self.memory.queue()]

    def log_files(self) -> list[str]:
        return sorted(p.name for p in self.app.paths.logs_dir.glob("*.jsonl"))

    # ---- the CLI words over the same services ----------------------------
    def cli(self, capsys, *argv: str) -> str:
        """Run ``monchat ARGV`` (flush/memory/export/status) against this app; return stdout."""
        args = build_parser().parse_args(list(argv))
        capsys.readouterr()
        code = args.run(self.app, args)
        assert code == 0
        return capsys.readouterr().out

    def cli_json(self, capsys, *argv: str):
        return json.loads(self.cli(capsys, *argv, "--json"))


@pytest.fixture
def world(home) -> World:
    return World(home)


@pytest.fixture
def make_world(tmp_path):
    """Worlds in separate homes (for comparisons)."""
    def build(name: str = "other", oracle: Oracle | None = None, start: str = "2026-11-23T08:00:00+09:00",
              settings: dict[str, str] | None = None):
        return World(tmp_path / name, oracle, start, settings)
    return build


@contextlib.contextmanager
def ollama_world(home, num_ctx: int = 8192, background: bool = False) -> Iterator[tuple[World, "FakeOllamaServer"]]:
    """A World whose flushes go through the real ``ollama`` client to a loopback fake Ollama.

    The line-id key is set ahead, so a test's scripted answers can cite real line ids. A test's
    scripted server answers filter and judge calls; the background track's calls (reflect, diary)
    are off unless ``background`` (they are tested through the oracle in test_background.py).
    """
    from monchat.core.backends.ollama import OllamaBackend
    from tests.fakes.fake_ollama import running_fake_ollama
    with running_fake_ollama() as server:
        server.structured_content = json.dumps({"items": []})
        backend = OllamaBackend("llama3.2", host=server.url, num_ctx=num_ctx, timeout_s=10, parallel=4)  # the fake serves 4
        world = World(home, oracle=backend, start="2026-11-23T08:00:00+09:00")
        world.app.store.set_state(LINE_ID_KEY, "00" * 16)
        world.app.settings.background.reflect = world.app.settings.background.diary = background
        world.app.settings.background.lint_llm = background
        try:
            yield world, server
        finally:
            backend.close()
