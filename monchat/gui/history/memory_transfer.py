"""File → Export memory… and Import memory…: the same core code as ``monchat export --memory`` / ``import --memory``.

Export writes every memory with its history and the words it rests on (JSON, documented in
``docs/memory-export.md``, or Markdown to read). Import takes a monchat memory export, or a list pasted
from ChatGPT or Claude, into the review queue: nothing becomes memory until the user approves it.
``export_to(path, form)`` and ``import_text(text, source)`` / ``import_file(path, source)`` are what the
buttons call (and what the tests call).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit,
                               QPushButton, QWidget)

from ...core.transfer.service import Transfer
from ..kit.lifetime import alive
from .transfer_dialogs import _SaveAsDialog, _WorkDialog
from ..translation import arg
from ..kit.workers import TaskRunner


class MemoryExportDialog(_SaveAsDialog):
    """File → Export memory…: JSON for another app or monchat, or Markdown to read."""

    def __init__(self, transfer: Transfer, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(runner, self.tr("Export memory"), [
            (self.tr("For another app or monchat (JSON)"), "json", "monchat-memory.json"),
            (self.tr("To read (Markdown)"), "markdown", "monchat-memory-export.md")],
            transfer.export_memory, parent,
            intro=self.tr("Every memory with its state, its earlier versions and the messages it rests on, "
                          "to keep or to bring into another monchat (File → Import memory…)."))
        self.json_choice, self.markdown_choice = self.choices

    def form(self) -> str:
        return self.chosen()


class MemoryImportDialog(_WorkDialog):
    """Signals:
        imported(MemoryImportReport): the memories now wait in the review queue.
        review_requested(): the user asked for the review queue ("Open review queue (N)" after an import).
    """

    imported = Signal(object)
    review_requested = Signal()

    def __init__(self, transfer: Transfer, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(runner, parent)
        self.transfer = transfer
        self.setWindowTitle(self.tr("Import memory"))
        intro = QLabel(self.tr("Paste the memories another assistant keeps about you, one per line — ChatGPT: "
                               "Settings → Personalization → Manage memories; Claude: its memory export — or "
                               "choose a monchat memory export. Each one waits in the review queue: nothing is "
                               "remembered until you approve it. Importing the same list twice adds nothing."), self)
        intro.setWordWrap(True)
        self.pasted = QPlainTextEdit(self)
        self.pasted.setPlaceholderText(self.tr("- Lives in Kanazawa\n- Prefers short answers"))
        self.source = QComboBox(self)
        for label, key in ((self.tr("ChatGPT"), "chatgpt"), (self.tr("Claude"), "claude"),
                           (self.tr("Another app"), "pasted")):
            self.source.addItem(label, key)
        self.import_button = QPushButton(self.tr("Import the pasted list"), self)
        self.import_button.clicked.connect(lambda: self.import_text(self.pasted.toPlainText(),
                                                                    self.source.currentData()))
        self.choose_button = QPushButton(self.tr("Choose a file…"), self)
        self.choose_button.clicked.connect(self.choose)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("From"), self))
        row.addWidget(self.source, 1)
        row.addWidget(self.import_button)
        row.addWidget(self.choose_button)
        self.column.addWidget(intro)
        self.column.addWidget(self.pasted, 1)
        self.column.addLayout(row)
        self.finish_layout()
        # After an import: the queue where the items wait, one click away (the rows it shows: alike items as one).
        self.open_queue_button = self.buttons.addButton(self.tr("Open review queue"),
                                                        QDialogButtonBox.ButtonRole.ActionRole)
        self.open_queue_button.setVisible(False)
        self.open_queue_button.clicked.connect(self._open_queue)

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import memory"), str(Path.home()),
                                              self.tr("Memory (*.json *.md *.txt);;All files (*)"))
        if path:
            self.import_file(Path(path), self.source.currentData())

    def import_text(self, text: str, source: str) -> None:
        self._start(lambda: self._run(None, text, source))

    def import_file(self, path: Path, source: str) -> None:
        self._start(lambda: self._run(path, None, source))

    def _run(self, path, text, source):
        return self.transfer.import_memory(path, text, source)

    def _start(self, call) -> None:
        self.set_busy(True)
        self.status.setText(self.tr("Importing…"))
        self.runner.start("import memory", lambda _report: call(), on_finished=self._done, on_failed=self._failed)

    def _done(self, report) -> None:
        if not alive(self):
            return
        self.set_busy(False)
        lines = [arg(self.tr("%1 of %2 memories now wait for your review (Memory → Review queue)."),
                     report.queued, report.read)]
        if report.already_known:
            lines.append(arg(self.tr("%1 were already known."), report.already_known))
        if report.left_out:
            lines.append(arg(self.tr("%1 earlier, refused or forgotten memories were left out."), report.left_out))
        self.status.setText("\n".join(lines))
        waiting = self.transfer.memory.review_rows()
        self.open_queue_button.setText(self.tr("Open review queue (%n)", "", waiting))
        self.open_queue_button.setVisible(waiting > 0)
        self.imported.emit(report)

    def _open_queue(self) -> None:
        self.close()
        self.review_requested.emit()
