"""Sync from the window (issue 41): Settings → Sync sets it up, the window syncs at start, after a flush and on a
timer, in the background, and the status bar says the state.

The other device is a second data folder (its own ``build_app``) writing the shared folder, as a second computer
would through a USB stick or Dropbox (``tests/test_sync_journal.py`` does the same without a window).
"""

from __future__ import annotations

import shutil

import pytest

from monchat.app import build_app
from monchat.core.logs.files import FlushGate
from monchat.core.paths import held_lock
from monchat.core.types import Message, format_ts, new_message_id
from tests.support.scripted import ScriptedBackend

pytestmark = pytest.mark.usefixtures("qapp")


@pytest.fixture
def other(tmp_path, shared):
    """Another computer: its own data folder, set up on the shared folder as "desktop"."""
    application = build_app(str(tmp_path / "desktop-home"), pinned_backend=ScriptedBackend())
    application.sync.setup(shared, "desktop")
    yield application
    application.store.close()


def said_elsewhere(other, text: str) -> str:
    """A message the other computer archived and synced to the folder."""
    message = Message(id=new_message_id(), ts=format_ts(other.clock()), role="user", text=text, persona="hana")
    other.archive.archive([message], other.clock())
    assert other.sync.run().exported == 1
    return message.id


def archived_texts(app) -> set[str]:
    return {m.text for m in app.archive.all()}


def open_sync_page(window):
    dialog = window.open_settings()
    assert dialog.sync_page is not None, "Settings has a Sync page"
    return dialog, dialog.sync_page


def test_setup_from_the_page_with_a_chosen_folder_then_it_syncs(window, app, other, shared, qtbot):
    said_elsewhere(other, "sukiyaki on the desktop")
    assert app.sync.device() is None
    assert not window.sync.label.isVisible(), "nothing said about sync before it is set up"
    dialog, page = open_sync_page(window)
    assert "does not sync yet" in page.status.text()
    page.ask_folder = lambda: str(shared)  # the folder dialog, as the user answers it
    page.choose.click()
    assert page.folder.text() == str(shared)
    page.name.setText("laptop")
    page.set_up.click()
    qtbot.waitUntil(lambda: app.sync.device() is not None and "laptop" in page.message.text(), timeout=5000)
    assert app.sync.device().name == "laptop" and app.sync.device().folder == str(shared)
    qtbot.waitUntil(lambda: "sukiyaki on the desktop" in archived_texts(app), timeout=5000)  # synced after setup
    qtbot.waitUntil(lambda: "desktop" in page.status.text() and "This device: laptop" in page.status.text(),
                    timeout=5000)
    assert "No conflict copies." in page.status.text()
    dialog.reject()


def test_a_sync_at_start_imports_another_devices_message_and_the_status_bar_says_so(make_window, app, other,
                                                                                      shared, qtbot):
    said_elsewhere(other, "guitar practice on the desktop")
    app.sync.setup(shared, "laptop")
    window = make_window("en")
    qtbot.waitUntil(lambda: "guitar practice on the desktop" in archived_texts(app), timeout=8000)
    qtbot.waitUntil(lambda: window.sync.label.text() == "Synced just now", timeout=5000)
    assert window.sync.label.isVisible()
    qtbot.waitUntil(lambda: "guitar practice on the desktop" in [b.text() for b in window.chat_view.bubbles],
                    timeout=5000)  # the conversation shows what came


def test_a_flush_that_ends_is_followed_by_a_sync(make_window, app, other, shared, qtbot):
    app.sync.setup(shared, "laptop")
    window = make_window("en")
    qtbot.waitUntil(lambda: window.sync.last_report is not None, timeout=8000)  # the sync at start
    said_elsewhere(other, "said while this window was open")
    window.gate_changed.emit(FlushGate(3, 10, 20, flushing=True))  # a flush runs…
    window.refresh_gate()  # …and ends: the gate is read again, not flushing
    qtbot.waitUntil(lambda: "said while this window was open" in archived_texts(app), timeout=5000)


def test_the_timer_syncs_while_the_window_is_open(make_window, app, other, shared, qtbot):
    app.sync.setup(shared, "laptop")
    window = make_window("en")
    qtbot.waitUntil(lambda: window.sync.last_report is not None, timeout=8000)
    said_elsewhere(other, "said an hour later")
    window.sync.timer.setInterval(100)
    qtbot.waitUntil(lambda: "said an hour later" in archived_texts(app), timeout=5000)


def test_a_folder_gone_is_said_plainly_and_nothing_is_lost(make_window, app, other, shared, qtbot):
    app.sync.setup(shared, "laptop")
    message = Message(id=new_message_id(), ts=format_ts(app.clock()), role="user", text="kept here", persona="hana")
    app.archive.archive([message], app.clock())
    shutil.rmtree(shared)  # the USB stick is unplugged
    window = make_window("en")
    qtbot.waitUntil(lambda: window.sync.label.text() == "Sync: folder not found", timeout=8000)
    assert "does not exist" in window.sync.label.toolTip()
    assert archived_texts(app) == {"kept here"}
    dialog, page = open_sync_page(window)
    qtbot.waitUntil(lambda: "cannot be read now" in page.status.text(), timeout=5000)
    page.folder.setText(str(shared))
    page.set_up.click()  # setting up again on the missing folder: refused, the fields keep what was typed
    qtbot.waitUntil(lambda: "Not set up:" in page.message.text(), timeout=5000)
    assert "does not exist" in page.message.text()
    assert page.folder.text() == str(shared) and page.name.text() == "laptop"
    assert app.sync.device().name == "laptop" and archived_texts(app) == {"kept here"}
    dialog.reject()


def test_another_sync_running_is_no_failure(make_window, app, shared, qtbot):
    app.sync.setup(shared, "laptop")
    window = make_window("en")
    qtbot.waitUntil(lambda: window.sync.last_report is not None, timeout=8000)
    with held_lock(app.sync.lock) as held:  # `monchat sync` in a terminal
        assert held
        window.sync.sync_now()
        qtbot.waitUntil(lambda: not window.sync.running, timeout=5000)
    assert window.sync.last_problem is None
    assert window.sync.label.text() == "Synced just now"


def test_the_status_bar_speaks_japanese(make_window, app, shared, qtbot):
    app.sync.setup(shared, "laptop")
    window = make_window("ja")
    qtbot.waitUntil(lambda: window.sync.last_report is not None, timeout=8000)
    assert window.sync.label.text() == "同期しました（たった今）"


@pytest.fixture
def background(app, qtbot):
    """A BackgroundSync of its own (no window): ``busy[0]`` plays a reply being written."""
    from monchat.gui.kit.workers import TaskRunner
    from monchat.gui.sync_runner import BackgroundSync
    runner = TaskRunner()
    busy = [False]
    sync = BackgroundSync(lambda: app.sync, runner, lambda: busy[0], first_ms=600_000)  # each test says when
    sync.busy = busy
    yield sync
    sync.timer.stop()
    assert runner.drain(10000)


def test_one_sync_at_a_time_and_a_request_meanwhile_runs_after_it(app, shared, background, qtbot):
    app.sync.setup(shared, "laptop")
    starts = []
    background.started.connect(lambda: starts.append(background.running))
    background.sync_now()
    qtbot.waitUntil(lambda: background.last_report is not None, timeout=5000)
    background.sync_now()
    assert background.label.text() == "Syncing…"
    background.sync_now()  # while it runs: kept, not a second one at once
    assert background.again and len(starts) == 2
    qtbot.waitUntil(lambda: len(starts) == 3 and not background.running, timeout=5000)  # at once, not at a tick
    assert background.label.text() == "Synced just now"


def test_messages_that_came_during_a_reply_show_after_it(app, other, shared, background, qtbot):
    app.sync.setup(shared, "laptop")
    said_elsewhere(other, "while a reply was written")
    shown = []
    background.history_changed.connect(lambda: shown.append(True))
    background.sync_now()
    qtbot.waitUntil(lambda: background.last_report is not None, timeout=5000)
    assert shown == [True]
    said_elsewhere(other, "a second one")
    background.busy[0] = True  # a reply is being written: no sync starts, the conversation is not reloaded
    background.sync_now()
    assert not background.running and background.again
    background.busy[0] = False
    background.after_gate(FlushGate(0, 10, 20))  # the turn ended: the window read the gate again
    assert background.running, "what was asked during the reply runs now"
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=5000)
    assert "a second one" in archived_texts(app)
    said_elsewhere(other, "a third one")
    background.sync_now()
    background.busy[0] = True  # a reply began while the sync runs: what it brings waits for the reply's end
    qtbot.waitUntil(lambda: not background.running, timeout=5000)
    assert "a third one" in archived_texts(app) and len(shown) == 2
    background.busy[0] = False
    background.after_gate(FlushGate(0, 10, 20))
    assert len(shown) == 3


def test_a_copied_data_folder_is_refused_in_plain_words_and_the_page_makes_it_a_device_of_its_own(
        make_window, app, shared, qtbot):
    import json
    device = app.sync.setup(shared, "laptop")
    app.archive.archive([Message(id=new_message_id(), ts=format_ts(app.clock()), role="user", text="said here",
                                 persona="hana")], app.clock())
    info = shared / "monchat" / "devices" / device.id / "device.json"
    data = json.loads(info.read_text(encoding="utf-8"))
    info.write_text(json.dumps({**data, "last_sync": "2099-01-01T00:00:00+00:00"}), encoding="utf-8")  # a copy synced
    window = make_window("en")
    qtbot.waitUntil(lambda: window.sync.label.text() == "Sync stopped (Settings → Sync)", timeout=8000)
    assert "Another monchat syncs as this device" in window.sync.label.toolTip()
    dialog, page = open_sync_page(window)
    assert "The last sync did not run:\nAnother monchat syncs as this device" in page.message.text()
    page.set_up.click()  # the page's folder and name, as they were: this computer becomes a device of its own
    qtbot.waitUntil(lambda: window.sync.label.text() == "Synced just now", timeout=8000)
    assert app.sync.device().id != device.id and archived_texts(app) == {"said here"}
    dialog.reject()


def test_a_window_that_does_not_sync_starts_no_sync_task(window, app, qtbot):
    """Not set up: the sync at start, the timer and a flush's end start nothing on the window's pool. Each window
    used to start a task that read the store 2 s after it opened; across the GUI suite those of closed windows
    left new windows' token meters waiting past 5 s (seen in a clean-clone CI run and reproduced with tests/gui)."""
    started = []
    real_start = window.runner.start
    window.runner.start = lambda name, *args, **kwargs: (started.append(name), real_start(name, *args, **kwargs))[1]
    window.sync.sync_now()
    window.sync.timer.timeout.emit()
    qtbot.wait(50)
    assert app.sync.device() is None and "sync" not in started and not window.sync.running



def test_a_conflict_a_sync_opens_reaches_the_memory_menus_review_count(make_window, app, other, shared, qtbot):
    """Both computers changed one memory while apart: the window's sync opens a conflict item
    (``core/sync/replaying.py``) and the Memory menu counts it at once, as after a dialog's change."""
    other.transfer.import_memory(text="- Plays the violin on Sundays")
    [item] = other.memory.queue()
    other.memory.approve(str(item.id))
    other.sync.run()
    app.sync.setup(shared, "laptop")
    app.sync.run()
    [memory] = [m for m in app.memory.list() if "violin" in m.text]
    other.memory.forget(memory.id)  # apart: forgotten there…
    other.sync.run()
    app.memory.pin(memory.id)  # …pinned here
    window = make_window("en")
    qtbot.waitUntil(lambda: window.sync.last_report is not None, timeout=8000)  # the sync at start
    assert window.sync.last_report.conflicts_opened == 1
    qtbot.waitUntil(lambda: window.menus.queue_action.text() == "Review queue (1)…", timeout=5000)
    queue = window.memory_menu.open_review_queue()  # the row names what the choice is, not the merge it is held as
    assert queue.table.topLevelItem(0).text(2) == "Choose a device's version"
    queue.close()
    dialog, page = open_sync_page(window)  # and Settings → Sync says what waits, and where
    qtbot.waitUntil(lambda: "1 memory was changed on two devices while they were apart: choose in the review queue "
                            "which version to keep." in page.status.text(), timeout=5000)
    dialog.reject()
