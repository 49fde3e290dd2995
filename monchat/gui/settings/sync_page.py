"""Settings → Sync (issue 41): choose the synced folder, name this device, set it up, see the folder's state.

Setting up takes effect at once (the device lives in the database, not settings.toml: Save and Cancel do not touch
it) and is followed by a sync. The status is read off the GUI thread (``core/sync/status.py`` reads the folder):
this device, the other devices and when each last wrote, deletions still waiting, conflict copies found. A folder
missing or not writable, or a copied data folder the core refuses, is said in plain words; the fields keep what
was typed. A passphrase typed there (twice) encrypts a new folder or joins an encrypted one (``core/sync/crypto.py``);
it goes to the OS keyring, or, where the keyring keeps nothing, stays in this window's memory until it closes; the
page says which, and says when this computer is set up on an encrypted folder whose passphrase it lacks.
"""

from __future__ import annotations

import platform
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QTabWidget,
                               QVBoxLayout, QWidget)

from ..kit.lifetime import alive
from ..kit.pages import scrolled
from ..kit.times import shown_time
from ..translation import arg

if TYPE_CHECKING:
    from ...core.sync.status import SyncStatus
    from ..kit.workers import Failure
    from ..sync_runner import BackgroundSync


class SyncPage(QWidget):
    def __init__(self, sync: BackgroundSync, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sync_page")
        self.sync = sync
        intro = QLabel(self.tr(
            "Use your history on another computer through a folder a sync tool keeps in step (Syncthing, "
            "Dropbox, a USB stick). Only your messages, their deletions and what was decided about your memory go "
            "there; settings, keys and the database never do. Each computer picks the same folder and its own "
            "name."), self)
        intro.setWordWrap(True)
        self.folder = QLineEdit(self)
        self.folder.setPlaceholderText(self.tr("A folder your sync tool shares"))
        self.choose = QPushButton(self.tr("Choose…"), self)
        self.choose.clicked.connect(self.choose_folder)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(self.choose)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. laptop"))
        self.passphrase = QLineEdit(self)
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setPlaceholderText(self.tr("Optional: encrypts everything written to the folder"))
        self.passphrase_again = QLineEdit(self)
        self.passphrase_again.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase_again.setPlaceholderText(self.tr("The same passphrase again"))
        self.set_up = QPushButton(self.tr("Sync through this folder"), self)
        self.set_up.clicked.connect(self.setup)
        self.sync_button = QPushButton(self.tr("Sync now"), self)
        self.sync_button.clicked.connect(self.sync.sync_now)
        buttons = QHBoxLayout()
        buttons.addWidget(self.set_up)
        buttons.addWidget(self.sync_button)
        buttons.addStretch(1)
        self.message = QLabel(self)  # what setting up said (an error stays until the next try)
        self.status = QLabel(self)  # the folder's state
        for label in (self.message, self.status):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form = QFormLayout()
        form.addRow(self.tr("Sync folder"), row)
        form.addRow(self.tr("This device's name"), self.name)
        form.addRow(self.tr("Passphrase"), self.passphrase)
        form.addRow(self.tr("Passphrase again"), self.passphrase_again)
        column = QVBoxLayout(self)
        for part in (intro, form, buttons, self.message, self.status):
            column.addLayout(part) if isinstance(part, (QFormLayout, QHBoxLayout)) else column.addWidget(part)
        column.addStretch(1)
        device = sync.service().device()
        if device is not None:
            self.folder.setText(device.folder)
            self.name.setText(device.name)
        else:
            self.name.setText(platform.node().split(".")[0])
        self.sync_button.setEnabled(device is not None)
        self.sync.synced.connect(lambda _report: self.refresh())
        self.sync.problem.connect(self._sync_problem)
        if sync.last_problem is not None:  # what the status bar says, in full
            self._sync_problem(sync.last_problem)
        if device is not None and sync.service().needs_passphrase():
            self.message.setText(self.missing_passphrase())
        self.refresh()

    @classmethod
    def add_to(cls, tabs: QTabWidget, sync: BackgroundSync | None, parent: QWidget) -> SyncPage | None:
        """The page as a tab of the Settings dialog (none when the window does not sync: a dialog built alone)."""
        if sync is None:
            return None
        page = cls(sync, parent)
        tabs.addTab(scrolled(page), page.title())
        return page

    def title(self) -> str:
        return self.tr("Sync")

    # ---- choosing and setting up ---------------------------------------------------
    def ask_folder(self) -> str:
        """The folder dialog (a test replaces this)."""
        return QFileDialog.getExistingDirectory(self, self.tr("Choose the sync folder"), self.folder.text())

    def choose_folder(self) -> None:
        chosen = self.ask_folder()
        if chosen:
            self.folder.setText(chosen)

    def missing_passphrase(self) -> str:
        return self.tr("The sync folder is encrypted, and this computer does not hold its passphrase (the OS keyring "
                       "lacks it). Type it in Passphrase, twice, and press “Sync through this folder”; until then "
                       "nothing is synced.")

    def setup(self) -> None:
        """Give this monchat its device in the chosen folder (off the GUI thread), then sync."""
        from pathlib import Path
        folder, name = self.folder.text().strip(), self.name.text().strip()
        passphrase = self.passphrase.text() or None
        if not folder:
            self.message.setText(self.tr("Choose a folder first."))
            return
        if self.passphrase.text() != self.passphrase_again.text():
            self.message.setText(self.tr("The two passphrases differ: type the same one twice."))
            return
        service = self.sync.service()
        self.set_up.setEnabled(False)
        self.message.setText(self.tr("Setting up…"))
        self.sync.runner.start("sync setup", lambda _report: service.setup(Path(folder), name, passphrase),
                               on_finished=self._set_up, on_failed=self._setup_failed)

    def _set_up(self, device) -> None:
        if not alive(self):
            return
        self.set_up.setEnabled(True)
        self.sync_button.setEnabled(True)
        self.folder.setText(device.folder)
        self.name.setText(device.name)
        words = [arg(self.tr("This computer syncs as “%1” through %2."), device.name, device.folder)]
        kept = self.sync.service().passphrase_kept
        if kept:
            words.append(self.tr("Everything it writes there is encrypted with the passphrase. Keep the passphrase "
                                 "somewhere safe: without it no computer can read the folder."))
        if kept == "keyring":
            words.append(self.tr("The passphrase is kept in the OS keyring."))
        elif kept:
            words.append(self.tr("This computer's keyring cannot keep the passphrase: this window remembers it "
                                 "until it closes. Set MONCHAT_SYNC_PASSPHRASE before starting monchat, or type it "
                                 "here again."))
        self.passphrase.clear()
        self.passphrase_again.clear()
        self.message.setText("\n".join(words))
        self.sync.sync_now()  # its journal goes to the folder, the others' messages come here
        self.refresh()

    def _setup_failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.set_up.setEnabled(True)
        self.message.setText(self.tr("Not set up:") + "\n" + "\n".join(p for p in (failure.message, failure.hint) if p))

    def _sync_problem(self, problem) -> None:
        if alive(self):
            self.message.setText(self.tr("The last sync did not run:") + "\n"
                                 + "\n".join(p for p in (problem.message, problem.hint) if p))

    # ---- the state -------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the folder's state again (off the GUI thread)."""
        service = self.sync.service()
        if service.device() is None:
            self.status.setText(self.tr("This computer does not sync yet."))
            return

        def read(_report):
            from ...core.sync.status import sync_status
            return sync_status(service)
        self.sync.runner.start("sync status", read, on_finished=self._show, on_failed=self._unreadable)

    def _unreadable(self, failure: Failure) -> None:
        if alive(self):
            self.status.setText(self.tr("The sync folder cannot be read now:") + "\n"
                                + "\n".join(p for p in (failure.message, failure.hint) if p))

    def _show(self, status: SyncStatus) -> None:
        if alive(self):
            self.status.setText(self.words(status))

    def words(self, status: SyncStatus) -> str:
        """The state, plainly worded, one fact a line."""
        lines = [self.sync.state_text()] if self.sync.state_text() else []  # "Synced 2 min ago", as the status bar
        lines += [arg(self.tr("This device: %1 (id %2)"), status.device["name"], status.device["id"][:8]),
                 arg(self.tr("Folder: %1 (%2 KB)"), status.folder, f"{(status.folder_size + 1023) // 1024:,}")]
        if not status.devices:
            lines.append(self.tr("No other device has written to the folder yet."))
        for other in status.devices:
            when = shown_time(other.last_write) if other.last_write else self.tr("never")
            lines.append(arg(self.tr("Other device: %1, last wrote %2"), other.name or other.id[:8], when))
        waiting = len(status.deletions_waiting)
        lines.append(self.tr("%n deletions wait for a device that has not synced since.", "", waiting) if waiting
                     else self.tr("No deletion is waiting."))
        if status.conflict_copies:
            lines.append(self.tr("%n conflict copies found. A sync tool made them when two computers changed one "
                                 "file; monchat never reads them. You may delete them:", "",
                                 len(status.conflict_copies)))
            lines.extend("  " + path for path in status.conflict_copies)
        else:
            lines.append(self.tr("No conflict copies."))
        if status.conflicts_open:
            lines.append(self.tr("%n memories were changed on two devices while they were apart: choose in the "
                                 "review queue which version to keep.", "", status.conflicts_open))
        if status.decisions_waiting:
            lines.append(self.tr("%n decisions about memory wait for the messages they rest on to arrive.", "",
                                 status.decisions_waiting))
        if status.encrypted:
            lines.append(self.tr("The folder is encrypted: it holds no readable words."))
        return "\n".join(lines)
