"""Chat goes first: a chat turn asked during a flush is served by a one-call-at-a-time model before the
flush's next call (``core/backends/turns.py``), and how long it waits is known to the window."""

from __future__ import annotations

import threading
import time

from monchat.core.backends.turns import BACKGROUND, CHAT, CallTurns, call_turns
from monchat.core.chat.waiting import reply_wait
from tests.flush.conftest import World
from tests.support.oracle import Rule
from tests.support.one_at_a_time import OneAtATime


def test_a_chat_turn_during_a_flush_is_served_before_the_flushs_next_call(home):
    model = OneAtATime([Rule("コーヒー", "コーヒーが好き", "likes.drink")])
    world = World(home, oracle=model)
    world.app.settings.flush.parallel = 2  # two flush calls in flight: one at the model, one waiting
    for hour in range(8, 12):
        world.say(f"2026-11-23T{hour:02d}:00:00+09:00", f"朝はコーヒーを飲む ({hour})")
    model.hold.set()
    flush = threading.Thread(target=lambda: world.flush("2026-11-23T20:00:00+09:00"))
    flush.start()
    assert model.serving.wait(10), "the flush never asked the model"
    time.sleep(0.5)  # the flush's next call reaches its place in line meanwhile
    assert reply_wait(world.app.chat, "hana") is not None  # the window is told the reply must wait
    replies: list = []
    chat = threading.Thread(target=lambda: replies.append(world.app.chat.send("今なにしてる？", persona_id="hana")))
    chat.start()
    time.sleep(0.5)  # the chat turn is in line
    assert model.order == ["json"], "nothing starts while the model serves a call"
    model.release.set()
    chat.join(20)
    flush.join(60)
    assert replies and replies[0].reply.text == model.chat_reply
    assert model.order[:2] == ["json", "chat"], model.order  # the chat turn went before the flush's next call
    assert model.order.count("json") > 1, "the flush had calls left when the chat turn came"
    assert list(call_turns(model).served)[:2] == [BACKGROUND, CHAT]


def test_chat_wait_says_what_the_running_call_has_left():
    now = [100.0]
    turns = CallTurns(1, clock=lambda: now[0])
    assert turns.chat_wait() is None  # nothing runs: a reply starts at once
    with turns.hold(BACKGROUND):
        assert turns.chat_wait() == 0.0  # must wait, how long not known yet
        now[0] += 30
    with turns.hold(BACKGROUND):
        now[0] += 10
        assert turns.chat_wait() == 20.0  # calls took 30 s; this one ran 10


def test_a_stopped_chat_turn_leaves_the_line_without_a_call():
    turns = CallTurns(1)
    stop = threading.Event()
    got: list[bool] = []
    with turns.hold(BACKGROUND):
        waiter = threading.Thread(target=lambda: got.append(turns.hold(CHAT, stop).__enter__()))
        waiter.start()
        stop.set()
        waiter.join(5)
    assert got == [False]
    assert list(turns.served) == [BACKGROUND]


def test_the_flushs_waiting_calls_start_in_the_order_they_came():
    turns = CallTurns(1)
    started: list[int] = []
    waiters = []
    with turns.hold(BACKGROUND):
        for n in range(8):
            def call(n=n):
                with turns.hold(BACKGROUND):
                    started.append(n)
            waiters.append(threading.Thread(target=call))
            waiters[-1].start()
            while len(turns._background_line) <= n:  # this one is in line before the next comes
                time.sleep(0.001)
    for waiter in waiters:
        waiter.join(5)
    assert started == list(range(8))
