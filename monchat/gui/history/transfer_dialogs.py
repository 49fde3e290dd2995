"""File → Import…, Export…, Back up and restore…: the same core code as ``monchat import|export|backup|restore``.

Each dialog runs its work on a worker and says what happened in the window's language. Paths
come from a file chooser; ``start(path)`` / ``export_to(path, kind)`` / ``back_up_to(path)`` /
``restore_from(path, folder)`` are what the buttons call (and what the tests call).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QButtonGroup, QDialog, QDialogButtonBox, QFileDialog, QGroupBox, QHBoxLayout, QLabel,
                               QProgressBar, QPushButton, QRadioButton, QVBoxLayout, QWidget)

from ...core.logs.files import FlushGate
from ...core.paths import Paths
from ...core.transfer.service import Transfer
from ...core.vocabulary.states import GateState
from ..failures import explanation, headline
from ..kit.lifetime import alive
from ..translation import arg
from ..kit.workers import Failure, TaskRunner


class _WorkDialog(QDialog):
    """A dialog with a status line, a progress bar and a Close button; one task at a time."""

    failed = Signal(object)

    def __init__(self, runner: TaskRunner, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.buttons.rejected.connect(self.close)
        self.column = QVBoxLayout(self)
        self.setMinimumWidth(560)

    def finish_layout(self) -> None:
        self.column.addWidget(self.progress)
        self.column.addWidget(self.status)
        self.column.addStretch(1)
        self.column.addWidget(self.buttons)

    def set_busy(self, busy: bool) -> None:
        for button in self.findChildren(QPushButton):
            button.setEnabled(not busy)

    def _failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.set_busy(False)
        self.progress.setVisible(False)
        self.status.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.failed.emit(failure)


class ImportDialog(_WorkDialog):
    """Signals:
        imported(ImportReport): the import ended (the chat window and the gate are refreshed).
    """

    imported = Signal(object)

    def __init__(self, transfer: Transfer, gate: Callable[[], FlushGate], runner: TaskRunner,
                 parent: QWidget | None = None) -> None:
        """Args:
            transfer: ``app.transfer`` (the import itself).
            gate: the chat's gate (``ChatService.gate``), to say whether the imported files now wait for a flush.
        """
        super().__init__(runner, parent)
        self.transfer, self.gate = transfer, gate
        self.setWindowTitle(self.tr("Import history"))
        intro = QLabel(self.tr("Bring your conversations from another assistant: a ChatGPT or Claude export "
                               "(conversations.json), a SillyTavern chat (.jsonl) or monchat's own JSONL. "
                               "Importing the same file twice adds nothing."), self)
        intro.setWordWrap(True)
        self.choose_button = QPushButton(self.tr("Choose a file…"), self)
        self.choose_button.clicked.connect(self.choose)
        self.column.addWidget(intro)
        self.column.addWidget(self.choose_button)
        self.finish_layout()

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import history"), str(Path.home()),
                                              self.tr("Chat history (*.json *.jsonl);;All files (*)"))
        if path:
            self.start(Path(path))

    def start(self, path: Path) -> None:
        transfer = self.transfer
        self.set_busy(True)
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.status.setText(arg(self.tr("Reading %1…"), path.name))

        def work(report):
            return transfer.import_history(path, progress=lambda done, total: report((done, total)))
        self.runner.start("import", work, on_progress=self._progress, on_finished=self._done, on_failed=self._failed)

    def _progress(self, step) -> None:
        if alive(self):
            done, total = step
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(done)

    def _done(self, report) -> None:
        if not alive(self):
            return
        self.set_busy(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        lines = [arg(self.tr("Imported %1 of %n message(s).", "", report.read), report.imported)]
        if report.already_known:
            lines.append(self.tr("%n of them were already here.", "", report.already_known))
        skipped = sum(report.skipped.values())
        if skipped:
            lines.append(self.tr("Skipped %n system, tool or empty message(s).", "", skipped))
        gate = self.gate()
        if gate.state == GateState.STOP:
            lines.append(arg(self.tr("%1 log files now wait for a flush, so chat is paused: press Flush. One flush "
                                     "reads them all, in parts that fit the model."), gate.unflushed_files))
        elif gate.state == GateState.WARN:
            lines.append(arg(self.tr("%1 log files now wait for a flush; a flush is recommended."),
                             gate.unflushed_files))
        self.status.setText("\n".join(lines))
        self.resize(self.size().expandedTo(self.sizeHint()))  # the result's lines whole, not clipped top and bottom
        self.imported.emit(report)


class _SaveAsDialog(_WorkDialog):
    """Two forms to choose from and Save as…: the file is written on a worker, then "Saved PATH."

    Signals:
        exported(str): the file was written (its path).
    """

    exported = Signal(str)

    def __init__(self, runner: TaskRunner, title: str, forms: list[tuple[str, str, str]],
                 write: Callable[[Path, str], Path], parent: QWidget | None = None, intro: str = "") -> None:
        """Args:
            forms: ``(label, key, file name offered)``, the first chosen.
            write: ``(path, key)`` → the path written (on the worker).
        """
        super().__init__(runner, parent)
        self.title, self.forms, self.write = title, forms, write
        self.setWindowTitle(title)
        if intro:
            label = QLabel(intro, self)
            label.setWordWrap(True)
            self.column.addWidget(label)
        self.choices = [QRadioButton(label, self) for label, _key, _name in forms]
        self.choices[0].setChecked(True)
        group = QButtonGroup(self)
        for choice in self.choices:
            group.addButton(choice)
            self.column.addWidget(choice)
        self.save_button = QPushButton(self.tr("Save as…"), self)
        self.save_button.clicked.connect(self.choose)
        self.column.addWidget(self.save_button)
        self.finish_layout()

    def chosen(self) -> str:
        return next(key for choice, (_label, key, _name) in zip(self.choices, self.forms) if choice.isChecked())

    def choose(self) -> None:
        key = self.chosen()
        name = next(name for _label, k, name in self.forms if k == key)
        path, _ = QFileDialog.getSaveFileName(self, self.title, str(Path.home() / name))
        if path:
            self.export_to(Path(path), key)

    def export_to(self, path: Path, key: str) -> None:
        write = self.write
        self.set_busy(True)
        self.runner.start(f"{self.title} {key}", lambda _report: str(write(path, key)), on_finished=self._done,
                          on_failed=self._failed)

    def _done(self, path: str) -> None:
        if alive(self):
            self.set_busy(False)
            self.status.setText(arg(self.tr("Saved %1."), path))
            self.exported.emit(path)


class ExportDialog(_SaveAsDialog):
    """File → Export…: every message as JSONL, or the readable memory as Markdown."""

    def __init__(self, transfer: Transfer, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(runner, self.tr("Export"), [
            (self.tr("Every message, archived or not (JSONL)"), "jsonl", "monchat-messages.jsonl"),
            (self.tr("The readable memory (Markdown)"), "markdown", "monchat-memory.md")],
            transfer.export_history, parent)
        self.messages_choice, self.memory_choice = self.choices

    def kind(self) -> str:
        return self.chosen()


class BackupDialog(_WorkDialog):
    """Signals:
        backed_up(BackupReport), restored(RestoreReport).
    """

    backed_up = Signal(object)
    restored = Signal(object)

    def __init__(self, paths: Paths, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(runner, parent)
        self.paths = paths
        self.setWindowTitle(self.tr("Back up and restore"))
        backup_box = QGroupBox(self.tr("Back up"), self)
        text = QLabel(arg(self.tr("One file with everything in %1: messages, memory, settings, personas and "
                                  "log files. Safe while you chat."), paths.data_dir), backup_box)
        text.setWordWrap(True)
        self.backup_button = QPushButton(self.tr("Back up to a file…"), backup_box)
        self.backup_button.clicked.connect(self.choose_backup)
        box = QVBoxLayout(backup_box)
        box.addWidget(text)
        box.addWidget(self.backup_button)
        restore_box = QGroupBox(self.tr("Restore"), self)
        text = QLabel(self.tr("A backup is restored into an empty folder; then start monchat with "
                              "MONCHAT_HOME set to that folder. To replace this data folder instead, quit "
                              "monchat and run: monchat restore FILE --force"), restore_box)
        text.setWordWrap(True)
        self.restore_button = QPushButton(self.tr("Restore a backup into a folder…"), restore_box)
        self.restore_button.clicked.connect(self.choose_restore)
        row = QHBoxLayout(restore_box)
        row.addWidget(text, 1)
        row.addWidget(self.restore_button)
        self.column.addWidget(backup_box)
        self.column.addWidget(restore_box)
        self.finish_layout()

    def choose_backup(self) -> None:
        from datetime import date
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Back up"),
                                              str(Path.home() / f"monchat-backup-{date.today()}.zip"),
                                              self.tr("monchat backup (*.zip)"))
        if path:
            self.back_up_to(Path(path))

    def back_up_to(self, path: Path) -> None:
        from ...core.transfer.backup import create_backup
        paths = self.paths
        self.set_busy(True)
        self.runner.start("backup", lambda _report: create_backup(paths, path), on_finished=self._backed_up,
                          on_failed=self._failed)

    def _backed_up(self, report) -> None:
        if alive(self):
            self.set_busy(False)
            self.status.setText(arg(self.tr("Saved %1: %2, %3, %4."), report.path,
                                    self.tr("%n file(s)", "", report.files),
                                    self.tr("%n archived message(s)", "", report.counts.get("messages", 0)),
                                    self.tr("%n memory(ies)", "", report.counts.get("memories", 0))))
            self.backed_up.emit(report)

    def choose_restore(self) -> None:
        source, _ = QFileDialog.getOpenFileName(self, self.tr("Restore"), str(Path.home()),
                                                self.tr("monchat backup (*.zip)"))
        if not source:
            return
        folder = QFileDialog.getExistingDirectory(self, self.tr("An empty folder to restore into"), str(Path.home()))
        if folder:
            self.restore_from(Path(source), Path(folder))

    def restore_from(self, source: Path, folder: Path) -> None:
        from ...core.transfer.restore import restore_backup
        target = Paths.from_env(folder)
        self.set_busy(True)
        self.runner.start("restore", lambda _report: restore_backup(source, target), on_finished=self._restored,
                          on_failed=self._failed)

    def _restored(self, report) -> None:
        if alive(self):
            self.set_busy(False)
            self.status.setText(arg(self.tr("Restored %1 and %2 into %3. Start monchat with MONCHAT_HOME=%3 to "
                                            "use them."),
                                    self.tr("%n archived message(s)", "", report.counts.get("messages", 0)),
                                    self.tr("%n memory(ies)", "", report.counts.get("memories", 0)),
                                    report.data_dir))
            self.restored.emit(report)
