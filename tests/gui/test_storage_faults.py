"""The desktop app when the disk or the data folder fails it: the words say what happened, never a crash."""

from __future__ import annotations

import errno
import subprocess
import sys

from monchat.core.errors import storage_error
from monchat.core.logs.files import LogBook
from tests.gui.conftest import fill_log_files
from tests.gui.flush_script import NO_ITEMS


class FullDiskLogBook(LogBook):
    """A real LogBook whose disk has no room left: every append fails as the OS reports it."""

    def _append_lines(self, path, lines):
        raise storage_error(OSError(errno.ENOSPC, "No space left on device"), path)


def test_a_full_disk_keeps_the_text_in_the_composer_and_sends_nothing(window, backend, app, qtbot):
    app.chat.logbook = FullDiskLogBook(app.logbook.logs_dir, app.logbook.quarantine_dir, app.logbook.tz)
    window.composer.edit.setPlainText("長いメッセージ")
    with qtbot.waitSignal(window.turn_failed, timeout=5000) as blocker:
        window.composer.submit()
    failure = blocker.args[0]
    assert failure.known and failure.code == "storage_full"
    assert window.composer.text() == "長いメッセージ"
    assert backend.history == [] and app.logbook.files() == []
    notices = window.chat_view.container.findChildren(type(window.chat_view.greeting), "notice")
    assert notices and "disk is full" in notices[-1].text()


def test_settings_that_cannot_be_written_are_not_applied_and_say_why(window, app):
    app.paths.settings_path.mkdir()  # something is in the way of settings.toml
    dialog = window.open_settings()
    dialog.warn_files.setValue(2)
    assert not dialog.save()
    assert "Not saved" in dialog.message.text() and "in the way" in dialog.message.text()
    assert app.settings.gate.warn_files == 3  # the running settings stay as the file has them
    dialog.close()


def test_picking_a_persona_when_settings_cannot_be_written_shows_it_not_a_crash(window, app):
    app.paths.settings_path.mkdir()
    other = next(i for i in range(window.persona_box.count()) if window.persona_box.itemData(i) != "hana")
    window.persona_box.setCurrentIndex(other)
    box = window.dialogs[-1]
    assert box.isVisible() and box.text() == "monchat could not read or write its data."
    box.close()


HOLD_FLUSH_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def test_a_flush_running_in_another_process_is_said_in_the_dialog(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    fill_log_files(app, 2)
    window = make_window("en")
    holder = subprocess.Popen([sys.executable, "-c", HOLD_FLUSH_LOCK, str(app.paths.flush_lock)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        dialog = window.memory_menu.open_flush()
        qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
        with qtbot.waitSignal(dialog.flush_failed, timeout=10000) as blocker:
            dialog.start_button.click()
        assert blocker.args[0].code == "flush_running"
        assert "already running" in dialog.status.text()
        assert len(app.logbook.files()) == 2 and app.archive.count() == 0
        dialog.close()
    finally:
        holder.communicate("")


def test_an_app_that_cannot_open_its_database_says_so_in_a_window(qapp):
    from monchat.core.errors import StorageCorrupt
    from monchat.gui.main import startup_error_box
    box = startup_error_box(StorageCorrupt("The database /x/monchat.db is damaged.", "Run `monchat doctor`."))
    try:
        assert box.isVisible() and box.text() == "The database file is damaged."
        assert "monchat doctor" in box.informativeText()
    finally:
        box.close()
