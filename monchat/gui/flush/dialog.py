"""The flush dialog: the plan, the stages and each persona's progress, Cancel, then the changes.

``FlushService.run`` runs on a worker; its ``FlushProgress`` reports arrive as signals. Cancel sets the
``threading.Event`` the service checks; a cancelled flush writes nothing. The summary lists every change with the
log lines it came from (``Change.evidence``)."""

from __future__ import annotations

import threading

from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (QCheckBox, QDialog, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QProgressBar,
                               QPushButton, QTreeWidget, QVBoxLayout, QWidget)

from ...core.flush.records import FlushIncomplete
from ...core.vocabulary.states import FLUSH_STEPS as STAGES, FlushStage  # the steps shown, in order
from ...core.flush.service import FlushService
from ...core.personas.library import PersonaRegistry
from ..failures import explanation, headline
from .changes import fill_changes
from .cut_button import SendCutButton
from .layers import LayerRows
from .fit import ScrollingLabel, fit_on_screen
from .timing import FlushTiming
from .words import FlushWords
from ..kit.lifetime import alive
from ..chat.small_model_words import small_model_warning
from ..translation import arg
from ..kit.workers import Failure, TaskRunner


class FlushDialog(QDialog):
    """Not modal: while the flush runs, chat is open again (the window reads the gate at ``flush_started``).

    Signals:
        flush_started(): the flush holds its lock and reads (the first progress report).
        flush_finished(FlushReport): the flush ended (committed, dry run or nothing to do).
        flush_failed(Failure): it failed or was cancelled; nothing was written.
        plan_loaded(object): the plan is shown.
        review_requested(): "Open review queue (N)" was pressed.
    """

    flush_started = Signal()
    flush_finished = Signal(object)
    flush_failed = Signal(object)
    plan_loaded = Signal(object)
    review_requested = Signal()

    def __init__(self, flush: FlushService, personas: PersonaRegistry, runner: TaskRunner,
                 parent: QWidget | None = None, memory=None) -> None:
        super().__init__(parent)
        self.flush = flush
        self.personas = personas
        self.runner = runner
        self.cancel_event: threading.Event | None = None
        self.running = False
        self.report = self.plan = None  # the flush's report once it ends; the plan once read
        self._close_when_done = False
        self.persona_rows: dict[str, tuple[QLabel, QProgressBar]] = {}
        self.role_labels: dict[str, QLabel] = {}
        self._announced = False
        self.words = FlushWords(personas, self)  # every word the window shows for a code (gui/flush/words.py)
        self.stage_name, self.role_name, self.change_name = (self.words.stage_name, self.words.role_name,
                                                             self.words.change_name)
        self.report_words, self.persona_name = self.words.report_words, self.words.persona_name
        self.setWindowTitle(self.tr("Flush"))
        self.resize(720, 300)  # as tall as the plan once it is read; grows to the results when the flush is done

        self.plan_label = QLabel(self.tr("Reading the plan…"), self)
        self.plan_label.setWordWrap(True)
        self.small_model = QLabel(self)  # the backend's model is known to be small: said before the flush
        self.small_model.setWordWrap(True)
        self.small_model.hide()
        self.dry_run = QCheckBox(self.tr("Preview only (show the changes, write nothing)"), self)

        stages_box = QGroupBox(self.tr("Stages"), self)
        stage_grid = QGridLayout(stages_box)
        self.stage_labels: dict[str, QLabel] = {}
        self.stage_marks: dict[str, QLabel] = {}
        for row, stage in enumerate(STAGES):
            mark = QLabel("○", stages_box)
            label = QLabel(self.stage_name(stage), stages_box)
            stage_grid.addWidget(mark, row, 0)
            stage_grid.addWidget(label, row, 1)
            self.stage_marks[stage], self.stage_labels[stage] = mark, label
        stage_grid.setColumnStretch(1, 1)
        self.overall = QProgressBar(self)
        self.overall.setRange(0, len(STAGES) * 100)  # in hundredths of a stage: reading moves the bar
        self.overall.setValue(0)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.hide()  # shown from the start on: an empty label would still take a row
        self.timing = FlushTiming(self)  # elapsed, and the time left from the parts read

        self.personas_box = QGroupBox(self.tr("Filter personas"), self)
        self.persona_grid = QGridLayout(self.personas_box)
        self.persona_grid.setColumnStretch(2, 1)

        self.summary = ScrollingLabel(self)  # many notes scroll inside: Close stays on the screen
        self.summary.setWordWrap(True)
        self.summary.hide()
        self.layers = LayerRows(self)  # what each background layer changed, once the flush is done
        self.changes = QTreeWidget(self)
        self.changes.setHeaderLabels([self.tr("Change"), self.tr("Memory / evidence")])
        self.changes.setColumnWidth(0, 170)
        self.changes.setWordWrap(True)
        self.changes.hide()

        self.start_button = QPushButton(self.tr("Start flush"), self)
        self.start_button.setDefault(True)
        self.start_button.setEnabled(False)
        self.start_button.clicked.connect(self.start)
        # Offered only after a flush stopped because a filter could not read some messages.
        self.partial_button = QPushButton(self.tr("Flush without the unread messages"), self)
        self.partial_button.setToolTip(self.tr("The filters that could not read some messages skip them; "
                                               "the run records which."))
        self.partial_button.hide()
        self.partial_button.clicked.connect(self.start_partial)
        self.cancel_button = QPushButton(self.tr("Cancel flush"), self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.clicked.connect(self.reject)
        self.review_button = QPushButton(self)  # "Open review queue (N)": the next step after a flush
        self.review_button.clicked.connect(self.review_requested)
        self.review_button.hide()
        self.cut_button = SendCutButton(memory, flush.archive, runner, self.status, self)  # what the limit cut
        buttons = QHBoxLayout()
        buttons.addWidget(self.dry_run, 1)
        buttons.addWidget(self.cut_button)
        buttons.addWidget(self.review_button)
        buttons.addWidget(self.partial_button)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.plan_label)
        layout.addWidget(self.small_model)
        self.progress_area = QWidget(self)  # stages and personas; folded away once a flush is done
        top = QHBoxLayout(self.progress_area)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(stages_box, 1)
        top.addWidget(self.personas_box, 1)
        layout.addWidget(self.progress_area)
        layout.addWidget(self.overall)
        layout.addWidget(self.status)
        layout.addWidget(self.timing.label)
        layout.addWidget(self.summary)
        layout.addWidget(self.layers, 1)
        layout.addWidget(self.changes, 3)
        layout.addStretch(0)
        layout.addLayout(buttons)
        self.load_plan()

    # ---- plan ------------------------------------------------------------
    def load_plan(self) -> None:
        flush = self.flush
        self.runner.start("flush plan", lambda _report: flush.plan(), on_finished=self._plan_ready,
                          on_failed=self._plan_failed)

    def _plan_ready(self, plan) -> None:
        if not alive(self):
            return
        self.plan = plan
        if not plan.files:
            self.plan_label.setText(self.tr("There are no log files to flush."))
        else:
            self.plan_label.setText(arg(self.tr("%1 log files with %2 messages will be read."),
                                        len(plan.files), plan.messages))
        self.small_model.setText(small_model_warning(plan.small_model["label"]) if plan.small_model else "")
        self.small_model.setVisible(bool(plan.small_model))
        for row, entry in enumerate(plan.personas):
            self._persona_row(entry["id"], entry.get("role", ""), row)
        self.start_button.setEnabled(not self.running and bool(plan.files))
        self.start_button.setToolTip("" if plan.files else self.tr("Nothing to flush yet: chat first."))
        self.layout().activate()  # the plan's rows are in: as tall as they need, no empty space below
        self.resize(max(self.width(), self.sizeHint().width()), self.sizeHint().height())
        self.plan_loaded.emit(plan)

    def _plan_failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self.plan_label.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.start_button.setEnabled(True)

    def _persona_row(self, persona_id: str, role: str, row: int | None = None) -> tuple[QLabel, QProgressBar]:
        if persona_id in self.persona_rows:
            return self.persona_rows[persona_id]
        row = self.persona_grid.rowCount() if row is None else row
        name = QLabel(self.persona_name(persona_id), self.personas_box)
        role_label = QLabel(self.role_name(role), self.personas_box)
        role_label.setToolTip(self.words.role_tip(role))
        font = role_label.font()
        font.setItalic(True)  # a note beside the name, set apart by its shape: its colour reads as any text's
        role_label.setFont(font)
        bar = QProgressBar(self.personas_box)
        bar.setRange(0, 1)
        bar.setValue(0)
        bar.setFormat(self.tr("waiting"))
        widest = arg(self.tr("part %1/%2 · %3 tokens"), 99, 99, 9999)
        bar.setMinimumWidth(bar.fontMetrics().horizontalAdvance(widest) + 24)
        self.persona_grid.addWidget(name, row, 0)
        self.persona_grid.addWidget(role_label, row, 1)
        self.persona_grid.addWidget(bar, row, 2)
        self.role_labels[persona_id] = role_label
        self.persona_rows[persona_id] = (name, bar)
        return name, bar

    # ---- running ---------------------------------------------------------
    def start_partial(self) -> None:
        """Run again, accepting that some messages stay unread by the filters that failed on them."""
        self.start(accept_partial=True)

    def start(self, accept_partial: bool = False) -> None:
        if self.running:
            return
        for button in (self.partial_button, self.review_button, self.cut_button):
            button.hide()
        self.progress_area.show()
        self.running = True
        self._announced = False
        self.report = None
        self.cancel_event = threading.Event()
        flush, cancel, dry_run = self.flush, self.cancel_event, self.dry_run.isChecked()
        self.start_button.setEnabled(False)
        self.dry_run.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText(self.tr("Cancel flush"))
        self.close_button.setEnabled(False)
        self.changes.clear()
        self.changes.hide()
        self.summary.clear()
        self.summary.hide()
        self.overall.setValue(0)
        for stage in STAGES:
            self.stage_marks[stage].setText("○")
        for _name, bar in self.persona_rows.values():
            bar.setRange(0, 1)
            bar.setValue(0)
            bar.setFormat(self.tr("waiting"))
        self.status.setText(self.tr("Starting…"))
        self.status.show()
        self.timing.begin(self.plan, self.flush.backend)
        self.runner.start("flush", lambda report: flush.run(dry_run=dry_run, progress=report, cancel=cancel,
                                                            accept_partial=accept_partial),
                          on_progress=self.show_progress, on_finished=self._finished, on_failed=self._failed)

    def cancel(self) -> None:
        """Ask the running flush to stop; it writes nothing."""
        if self.running and self.cancel_event is not None:
            self.cancel_event.set()
            self.cancel_button.setEnabled(False)
            self.cancel_button.setText(self.tr("Cancelling…"))

    def show_progress(self, progress) -> None:
        if not self._announced:  # the flush holds its lock now: the window opens chat again
            self._announced = True
            self.flush_started.emit()
        row = progress.stage  # the diary, digests and lint are asked beside the filters: they move no row's mark
        if row in STAGES:
            index = STAGES.index(row)
            for stage in STAGES[:index]:
                self.stage_marks[stage].setText("✓")
            self.stage_marks[row].setText("●")
            share = progress.done / progress.total if progress.total and progress.stage != FlushStage.SCORE else 0
            self.overall.setValue(max(self.overall.value(), round((index + min(share, 1)) * 100)))
        if progress.stage == FlushStage.SCORE and progress.persona:
            # Personas read side by side; each reports as each part of the log is read.
            name, bar = self._persona_row(progress.persona, "")
            bar.setRange(0, max(1, progress.total))
            bar.setValue(progress.done)
            self.timing.part(progress.persona, progress.done, progress.total)
            parts = [(b.value(), b.maximum()) for _n, b in self.persona_rows.values()]
            read = sum(d for d, _ in parts) / max(1, sum(t for _, t in parts))
            self.overall.setValue(max(self.overall.value(), round((STAGES.index("score") + read) * 100)))
            if progress.unread:
                bar.setFormat(arg(self.tr("%1 of %2 unread"), progress.unread, progress.total))
            elif progress.tokens:  # an answer arriving: a slow model moves here, not only per part
                bar.setFormat(arg(self.tr("part %1/%2 · %3 tokens"), progress.part, progress.total,
                                  progress.tokens))
            elif progress.done < progress.total:
                bar.setFormat(f"{progress.done} / {progress.total}")
            else:
                bar.setFormat(self.tr("done"))
            if progress.tokens:
                self.status.setText(arg(self.tr("%1 is reading part %2 of %3 · %4 tokens written"), name.text(),
                                        progress.part, progress.total, progress.tokens))
                return
            bars = [b for _n, b in self.persona_rows.values()]
            self.status.setText(arg(self.tr("The filter personas are reading the logs (%1 of %2 parts read)."),
                                    sum(b.value() for b in bars), sum(b.maximum() for b in bars)))
        elif progress.stage == FlushStage.JUDGE:
            if progress.total == 0:
                self.status.setText(self.tr("Nothing new resembles what is remembered; no comparisons needed."))
            elif progress.done < progress.total:
                self.status.setText(arg(self.tr("Comparing %1 pairs, each a new item and a remembered one."),
                                        progress.total))
            else:
                self.status.setText(arg(self.tr("Compared %1 pairs with what is remembered."), progress.total))
        elif progress.stage == FlushStage.REFLECT:
            self.status.setText(self.tr("Looking back over what this flush found…"))
        elif progress.stage == FlushStage.DIARY:
            self.status.setText(arg(self.tr("Writing the diary: %1 of %2 days."), progress.done, progress.total))
        elif progress.stage == FlushStage.CONSOLIDATE and progress.total:
            self.status.setText(arg(self.tr("Weighing the evidence for %1 items."), progress.total))
        elif progress.stage in STAGES:
            self.status.setText(self.stage_name(progress.stage) + "…")

    def _end(self) -> None:
        self.running = False
        self.timing.stop()
        for _name, bar in self.persona_rows.values():
            if bar.value() < bar.maximum():  # this persona never finished reading
                bar.setFormat(self.tr("stopped"))
        self.cancel_button.setEnabled(False)
        self.close_button.setEnabled(True)
        self.dry_run.setEnabled(True)

    def _finished(self, report) -> None:
        if not alive(self):
            return
        self._end()
        self.report = report
        for stage in STAGES:
            self.stage_marks[stage].setText("✓")
        self.overall.setValue(len(STAGES) * 100)
        self.status.setText(self.tr("Preview finished: nothing was written.") if report.dry_run
                            else self.tr("Flush finished."))
        self.start_button.setEnabled(report.dry_run)
        self.show_summary(report)
        self.progress_area.setVisible(report.nothing_to_flush)  # the changes get the room
        self.show_review_rows(report.review_rows)
        self.cut_button.show_for(report)
        fit_on_screen(self)  # as tall as 640 px where there is room, never below the screen's edge
        self.flush_finished.emit(report)
        if self._close_when_done:
            self.accept()

    def show_review_rows(self, rows: int) -> None:
        """After a flush (not a preview): "Open review queue (N)", the queue's rows as the Memory menu counts them."""
        rows = rows if self.report is not None and not self.report.dry_run else 0
        self.review_button.setText(arg(self.tr("Open review queue (%1)"), rows))
        self.review_button.setVisible(bool(rows))
        self.review_button.setDefault(bool(rows))

    def _failed(self, failure: Failure) -> None:
        if not alive(self):
            return
        self._end()
        for stage in STAGES:
            if self.stage_marks[stage].text() == "●":
                self.stage_marks[stage].setText("✗")
        self.status.setText(f"{headline(failure)}\n{explanation(failure)}")
        self.status.show()
        self.start_button.setEnabled(True)
        self.partial_button.setVisible(failure.code == FlushIncomplete.code)
        self.flush_failed.emit(failure)
        if self._close_when_done:
            self.reject()

    # ---- summary ---------------------------------------------------------
    def show_summary(self, report) -> None:
        if report.nothing_to_flush:
            self.summary.setText(self.tr("There was nothing new to flush."))
            self.summary.show()
            self.layers.show_layers(None)
            return
        self.layers.show_layers(report.background)
        lines = [
            arg(self.tr("Lasting memory: +%1   Recent memory: +%2   Replaced: %3   Sent to review: %4"),
                report.promoted.get("layer1", 0), report.promoted.get("layer2", 0), report.superseded,
                report.queued),
            *[t for t in [self.words.accounting_text(report.accounting)] if t],  # every proposal, the counts add up
            arg(self.tr("Model calls: %1   Tokens: %2   Time: %3 s"), report.llm_calls,
                self.words.tokens_text(report.usage), f"{report.duration_s:.1f}")]
        # each note and problem said once
        lines += [arg(self.tr("Note: %1"), note) for note in dict.fromkeys(map(self.report_words, report.notes))]
        lines += [arg(self.tr("Problem: %1"), e) for e in dict.fromkeys(map(self.report_words, report.errors))]
        self.summary.setText("\n".join(lines))
        self.summary.show()
        fill_changes(self.changes, report, self.change_name, self.tr("No changes"))
        self.changes.show()

    # ---- closing ---------------------------------------------------------
    def reject(self) -> None:
        if self.running:
            self._close_when_done = True
            self.cancel()
            return
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if self.running:
            self._close_when_done = True
            self.cancel()
            event.ignore()
            return
        super().closeEvent(event)
