"""ChatService with a scripted backend: one call per turn, log first, stable system prompt, Layer 3."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone

import pytest

from monchat.app import build_app
from monchat.core.errors import BackendError, BackendUnreachable, GateClosed, InputError
from monchat.core.types import Message, Turn, format_ts
from tests.support.scripted import FailingBackend, ScriptedBackend

UTC = timezone.utc
T0 = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)


class TickingClock:
    """A test clock: each reading is one second after the previous one; ``advance`` jumps."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> TickingClock:
    return TickingClock()


@pytest.fixture
def backend() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def app(home, backend, clock):
    return build_app(str(home), pinned_backend=backend, clock=clock, tz=UTC)


def logged(app) -> list[Message]:
    """Every message in the log files, in file order."""
    return app.logbook.read_all().messages


def raw_log_lines(app) -> list[dict]:
    return [json.loads(line) for path in sorted(app.paths.logs_dir.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def chat_calls(backend: ScriptedBackend) -> list[tuple]:
    return [h for h in backend.history if h[0] == "chat"]


def texts(turns: list[Turn]) -> list[tuple[str, str]]:
    return [(t.role, t.content) for t in turns]


# ---- one turn, one call ----------------------------------------------------
def test_each_turn_is_exactly_one_backend_call(app, backend):
    backend.enqueue(["こん", "にちは"], "元気だよ")
    first = app.chat.send("やあ")
    assert first.reply.text == "こんにちは"
    assert len(chat_calls(backend)) == 1 and backend.calls == 1
    app.chat.send("元気？")
    assert len(chat_calls(backend)) == 2 and backend.calls == 2
    _, _, turns, _ = chat_calls(backend)[1]
    assert texts(turns) == [("user", "やあ"), ("assistant", "こんにちは"), ("user", "元気？")]
    assert [(m.role, m.text, m.status) for m in logged(app)] == [
        ("user", "やあ", "ok"), ("assistant", "こんにちは", "ok"), ("user", "元気？", "ok"), ("assistant", "元気だよ", "ok")]
    reply = logged(app)[1]
    assert (reply.persona, reply.backend, reply.model) == ("hana", "scripted", "scripted-1")


def test_the_user_message_is_on_disk_before_the_backend_is_called(app, home):
    seen: list[list[dict]] = []

    class DiskCheckingBackend(ScriptedBackend):
        def _stream(self, system, turns, temperature, reply):
            seen.append(raw_log_lines(app))  # read the files themselves, not a cache
            yield from super()._stream(system, turns, temperature, reply)

    checking = DiskCheckingBackend().enqueue("ok")
    app.backends.pinned = checking
    app.chat.send("忘れないでね")
    assert len(seen) == 1
    [on_disk] = seen
    assert [(m["role"], m["text"]) for m in on_disk] == [("user", "忘れないでね")]


def test_two_turns_send_byte_identical_system_prompts(app, backend):
    backend.enqueue("one", "two")
    first = app.chat.send("first")
    second = app.chat.send("second")
    (_, system1, _, _), (_, system2, _, _) = chat_calls(backend)
    assert system1.encode("utf-8") == system2.encode("utf-8")
    assert first.system_prompt == second.system_prompt == system1
    assert "ハナ" in system1
    assert "first" not in system1 and "one" not in system1  # the conversation is history, not system prompt


def test_the_stream_reaches_on_chunk_in_order(app, backend):
    backend.enqueue(["a", "b", "c"])
    pieces: list[str] = []
    result = app.chat.send("hi", on_chunk=pieces.append)
    assert pieces == ["a", "b", "c"] and result.reply.text == "abc"


def test_an_empty_message_is_refused_without_a_call(app, backend):
    with pytest.raises(InputError):
        app.chat.send("   \n")
    assert backend.history == [] and logged(app) == []


# ---- Layer 3: the window -----------------------------------------------------
def test_the_window_holds_only_the_last_window_hours(app, backend, clock):
    backend.enqueue("r-ancient", "r-recent", "r-now")
    app.chat.send("ancient")  # 08:00
    clock.advance(hours=2)
    app.chat.send("recent")  # 10:00
    clock.advance(hours=11)
    app.chat.send("now")  # 21:00: the window starts at 09:00
    _, _, turns, _ = chat_calls(backend)[2]
    assert texts(turns) == [("user", "recent"), ("assistant", "r-recent"), ("user", "now")]
    assert [m.text for m in app.chat.window()] == ["recent", "r-recent", "now", "r-now"]
    assert len(logged(app)) == 6  # nothing was dropped from the log, only from the window


def test_the_window_follows_the_window_hours_setting(app, backend, clock):
    app.settings.chat.window_hours = 1
    backend.enqueue("r1", "r2")
    app.chat.send("an hour and a half ago")
    clock.advance(minutes=90)
    app.chat.send("now")
    _, _, turns, _ = chat_calls(backend)[1]
    assert texts(turns) == [("user", "now")]


def test_the_window_has_archived_and_logged_messages_each_once(app, backend, clock):
    backend.enqueue("reply A", "reply B", "reply C")
    app.chat.send("A")  # slot 06
    clock.advance(hours=4)
    app.chat.send("B")  # slot 12
    messages = logged(app)
    assert app.archive.archive(messages) == 4  # archived, and the files are still there
    first_file = app.logbook.files()[0]
    # As a flush does: A's file is gone, A is only in the archive.
    assert app.logbook.remove_flushed([first_file], app.archive.ids()) == []
    app.chat.send("C")
    _, _, turns, _ = chat_calls(backend)[2]
    assert texts(turns) == [("user", "A"), ("assistant", "reply A"), ("user", "B"), ("assistant", "reply B"),
                            ("user", "C")]
    window_ids = [m.id for m in app.chat.window()]
    assert len(window_ids) == len(set(window_ids)) == 6


# ---- failures, stop, gate ----------------------------------------------------
def test_a_backend_error_mid_stream_keeps_the_user_message_and_marks_the_partial_reply(app, backend):
    backend.enqueue(["半分まで", BackendUnreachable("Ollama is not running.", "Start it with `ollama serve`.")])
    with pytest.raises(BackendUnreachable):
        app.chat.send("長い話をして")
    assert [(m.role, m.text, m.status) for m in logged(app)] == [
        ("user", "長い話をして", "ok"), ("assistant", "半分まで", "partial")]
    assert "\"status\":\"partial\"" in "".join(p.read_text(encoding="utf-8") for p in app.logbook.files())


def test_a_crash_mid_stream_also_keeps_the_partial_reply(app, backend):
    backend.enqueue(["piece", RuntimeError("adapter bug")])
    with pytest.raises(RuntimeError):
        app.chat.send("hi")
    assert [(m.role, m.status) for m in logged(app)] == [("user", "ok"), ("assistant", "partial")]


def test_a_backend_that_fails_before_any_text_keeps_the_user_message(home, clock):
    failing = FailingBackend(BackendError("The model is gone.", "Pull it again."))
    app = build_app(str(home), pinned_backend=failing, clock=clock, tz=UTC)
    with pytest.raises(BackendError):
        app.chat.send("still here?")
    assert [(m.role, m.text) for m in logged(app)] == [("user", "still here?")]
    assert len(failing.history) == 1


def test_stop_ends_the_reply_and_logs_it_as_stopped(app, backend):
    backend.enqueue(["one ", "two ", "three"])
    stop = threading.Event()
    result = app.chat.send("count", stop=stop, on_chunk=lambda piece: stop.set())
    assert result.stopped
    assert result.reply.text == "one " and result.reply.status == "stopped"
    assert [(m.role, m.text, m.status) for m in logged(app)] == [("user", "count", "ok"),
                                                                  ("assistant", "one ", "stopped")]


def _fill_slot_files(app, count: int, start: datetime = T0 - timedelta(days=3)) -> None:
    for i in range(count):
        ts = format_ts(start + timedelta(hours=6 * i))
        app.logbook.append(Message(id=f"old{i}", ts=ts, role="user", text=f"old {i}", persona="hana"))


def test_at_the_stop_gate_chat_is_refused_with_no_call_and_nothing_logged(app, backend):
    backend.enqueue("an answer")
    app.chat.send("before the gate closed")
    backend.history.clear()
    backend.calls = 0
    _fill_slot_files(app, 4)  # four older slots + today's = 5
    before = {p.name: p.read_bytes() for p in app.logbook.files()}
    with pytest.raises(GateClosed) as caught:
        app.chat.send("hello?")
    assert "flush" in caught.value.hint.lower()
    assert backend.history == [] and backend.calls == 0
    assert {p.name: p.read_bytes() for p in app.logbook.files()} == before
    with pytest.raises(GateClosed):
        app.chat.regenerate()
    with pytest.raises(GateClosed):
        app.chat.edit_last("changed")
    assert backend.history == []


def test_a_message_that_opens_the_stop_file_is_still_answered(app, backend):
    _fill_slot_files(app, 4)  # warn: chat is open
    assert app.chat.gate().state == "warn"
    backend.enqueue("answered")
    result = app.chat.send("this opens a fifth file")
    assert result.reply.text == "answered"
    assert app.chat.gate().state == "stop"  # the next message waits for a flush
    with pytest.raises(GateClosed):
        app.chat.send("and this one waits")
    assert len(backend.history) == 1


# ---- regenerate and edit -------------------------------------------------------
def test_regenerate_replaces_the_last_reply(app, backend):
    backend.enqueue("first answer", "second answer")
    app.chat.send("question")
    old_reply = logged(app)[-1]
    result = app.chat.regenerate()
    assert result.reply.replaces == old_reply.id
    _, _, turns, _ = chat_calls(backend)[1]
    assert texts(turns) == [("user", "question")]  # the old answer is not sent again
    assert [m.text for m in app.chat.window()] == ["question", "second answer"]
    assert len(logged(app)) == 3  # the old answer stays in the log


def test_regenerate_after_a_failed_reply_answers_the_waiting_message(app, backend):
    backend.enqueue("a1", BackendUnreachable("down", "start it"), "a2 at last")
    app.chat.send("q1")
    with pytest.raises(BackendUnreachable):
        app.chat.send("q2")
    assert [m.text for m in app.chat.window()] == ["q1", "a1", "q2"]  # no reply was logged
    result = app.chat.regenerate()  # the GUI's Retry
    assert result.reply.text == "a2 at last" and result.reply.replaces == ""
    _, _, turns, _ = chat_calls(backend)[2]
    assert texts(turns) == [("user", "q1"), ("assistant", "a1"), ("user", "q2")]  # q2 once, not twice
    assert [m.text for m in app.chat.window()] == ["q1", "a1", "q2", "a2 at last"]


def test_edit_last_replaces_the_last_message_and_its_reply(app, backend):
    backend.enqueue("a1", "a2", "a2 again")
    app.chat.send("q1")
    app.chat.send("q2 with a typo")
    old_user, old_reply = logged(app)[2:4]
    result = app.chat.edit_last("q2")
    assert result.user.replaces == old_user.id and result.reply.replaces == old_reply.id
    _, _, turns, _ = chat_calls(backend)[2]
    assert texts(turns) == [("user", "q1"), ("assistant", "a1"), ("user", "q2")]
    assert [m.text for m in app.chat.window()] == ["q1", "a1", "q2", "a2 again"]


def test_regenerate_and_edit_need_something_to_act_on(app, backend):
    with pytest.raises(InputError):
        app.chat.regenerate()
    with pytest.raises(InputError):
        app.chat.edit_last("nothing to edit")
    assert backend.history == []


# ---- user text is data -----------------------------------------------------------
def test_template_syntax_typed_by_the_user_stays_literal(app, backend):
    text = "{{ 7*7 }} and {% if true %}yes{% endif %} {# note #}"
    backend.enqueue("ok", "ok")
    app.chat.send(text)
    app.chat.send("next")
    (_, system1, turns1, _), (_, system2, turns2, _) = chat_calls(backend)
    assert turns1[-1].content == text
    assert turns2[0].content == text
    assert "49" not in system1 and text not in system1 and system1 == system2
    assert logged(app)[0].text == text
    assert raw_log_lines(app)[0]["text"] == text


def test_post_history_instructions_ride_on_the_last_user_turn(app, backend):
    (app.paths.user_surface_dir / "card.toml").write_text(
        'id = "card"\nname = "Card"\nlanguage = "en"\nsystem = "You are Card. {{ not a template }}"\n'
        'post_history_instructions = "Stay in character; {{char}} answers in one line."\n', encoding="utf-8")
    app.personas.reload()
    backend.enqueue("line one", "line two")
    app.chat.send("hello", persona_id="card")
    app.chat.send("again", persona_id="card")
    (_, system, turns1, _), (_, _, turns2, _) = chat_calls(backend)
    instruction = "Stay in character; {{char}} answers in one line."
    assert turns1[-1].content == f"hello\n\n({instruction})"
    assert texts(turns2) == [("user", "hello"), ("assistant", "line one"), ("user", f"again\n\n({instruction})")]
    assert "You are Card. {{ not a template }}" in system and instruction not in system
    assert [m.text for m in logged(app) if m.role == "user"] == ["hello", "again"]
    assert {m.persona for m in logged(app)} == {"card"}


def test_switching_persona_changes_the_system_prompt(app, backend):
    backend.enqueue("やあ", "hi")
    hana = app.chat.send("こんにちは").system_prompt
    mira = app.chat.send("hello", persona_id="mira").system_prompt
    assert hana != mira and "Mira" in mira
    assert [m.persona for m in logged(app)] == ["hana", "hana", "mira", "mira"]


def test_message_ids_sort_in_the_order_they_were_made():
    from monchat.core.types import new_message_id

    ids = [new_message_id() for _ in range(2000)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_a_chat_service_built_without_memory_renders_a_system_prompt(app):
    """ChatService's default memory (NoMemory) answers everything the system prompt asks of a memory."""
    from monchat.core.chat.service import ChatService

    bare = ChatService(app.settings, app.chat.logbook, app.chat.archive, app.chat.personas, app.chat.prompts,
                       app.chat.backends)
    hana = bare.persona()
    assert hana.receives_memory
    assert "ハナ" in bare.system_prompt(hana)
