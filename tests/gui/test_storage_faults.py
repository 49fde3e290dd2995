"""The desktop app on a full disk: the message is not sent, the text stays in the composer."""

from __future__ import annotations

import errno

from monchat.core.errors import storage_error
from monchat.core.logs import LogBook


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
