"""Off the record goes on at the stop gate: what is said there adds nothing to the flush's backlog, so only
on-the-record chat is paused."""

from __future__ import annotations

import pytest

from monchat.app import build_app
from monchat.core.errors import GateClosed
from tests.support.scripted import ScriptedBackend
from tests.test_chat import T0, TickingClock, UTC, _fill_slot_files


@pytest.fixture
def backend() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def app(home, backend):
    return build_app(str(home), pinned_backend=backend, clock=TickingClock(T0), tz=UTC)


def test_off_the_record_is_answered_at_the_stop_gate_and_on_the_record_stays_refused(app, backend):
    backend.enqueue("on the record", "off the record", "again off")
    app.chat.send("before the gate closed", persona_id="hana")
    _fill_slot_files(app, 4)
    assert app.chat.gate().state == "stop"
    unflushed = {p.name: p.read_bytes() for p in app.logbook.files()}

    app.chat.set_off_record("hana", True)
    result = app.chat.send("just between us", persona_id="hana")
    assert result.reply.text == "off the record" and result.user.off_record
    assert app.chat.regenerate(persona_id="hana").reply.text == "again off"
    assert {p.name: p.read_bytes() for p in app.logbook.files()} == unflushed  # nothing added for a flush

    app.chat.set_off_record("hana", False)
    calls = len(backend.history)
    with pytest.raises(GateClosed):
        app.chat.send("and on the record?", persona_id="hana")
    with pytest.raises(GateClosed):
        app.chat.regenerate(persona_id="hana")
    assert len(backend.history) == calls
