"""A first-ever flush has no earlier flush to go by: its time left is estimated from how long this backend's chat
replies took, once the filters say how many parts they read; with no chat reply either, the window says there is
no estimate yet instead of showing nothing."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget

from monchat.core.backends.turns import chat_pace
from monchat.gui.flush.timing import FlushTiming
from tests.gui.conftest import log_message
from tests.support.one_at_a_time import OneAtATime

REPLY_S = 0.6


@pytest.fixture
def backend():
    return OneAtATime(seconds=REPLY_S)  # each call, a chat reply or a flush's, takes this long


@pytest.fixture
def timing(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    made = FlushTiming(host)
    yield made
    made.stop()


def test_with_no_flush_and_no_chat_reply_the_window_says_no_estimate_yet(timing):
    timing.start(None, None)
    timing.part("base", 0, 4)
    assert timing.remaining() is None
    assert "no estimate yet" in timing.label.text()


def test_the_chat_replies_pace_times_the_parts_gives_the_first_estimate(timing):
    timing.start(None, (30.0, 1))  # a chat reply took 30 s; one call at a time
    assert "no estimate yet" not in timing.label.text()  # the parts are not known yet: nothing made up
    timing.part("base", 0, 4)
    timing.part("lifestyle", 0, 4)
    assert 235 < timing.remaining() <= 240  # 8 parts, one at a time, 30 s each
    assert "roughly 4:00 left (from how long your chat replies took)" in timing.label.text()
    timing.start(None, (30.0, 4))  # a server that answers four at once
    timing.part("base", 0, 8)
    assert 55 < timing.remaining() <= 60


def test_the_last_flush_goes_before_the_chat_replies(timing):
    timing.start(100.0, (30.0, 1))
    timing.part("base", 0, 8)
    assert 95 < timing.remaining() <= 100 and "pace of the last flush" in timing.label.text()


def test_a_first_flush_in_the_window_is_estimated_from_the_chat_reply_before_it(app, make_window, qtbot, backend):
    window = make_window("en")
    assert chat_pace(backend) is None
    app.chat.send("hello", persona_id="hana")  # one reply: REPLY_S
    seconds, at_once = chat_pace(backend)
    assert seconds >= REPLY_S and at_once == 1
    for n in range(3):
        log_message(app, 2 - n * 0.01, f"I water the garden every Sunday ({n})")
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    assert dialog.plan.last_run is None  # the first flush here
    dialog.start_button.click()
    qtbot.waitUntil(lambda: "from how long your chat replies took" in dialog.timing.label.text(), timeout=3000)
    qtbot.waitUntil(lambda: not dialog.running, timeout=30000)
