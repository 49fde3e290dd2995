"""The main window: persona picker, conversation, composer, flush gate and context meter.

It is the only place that connects sibling widgets and the only place that
starts chat work. Every LLM call runs on the task runner's threads; results
come back as signals and are shown here.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QMessageBox, QToolBar, QVBoxLayout, QWidget

from ..core.chat import TurnResult
from ..core.errors import KnownError
from ..core.paths import resource_dir
from ..core.types import Message, format_ts, local_now
from .chat_view import ChatView, MessageBubble
from .composer import Composer
from .context_meter import ContextMeterWidget
from .failures import explanation, headline, show_failure
from .gate_bar import GateBar
from .i18n import arg
from .lifetime import alive as _alive
from .outbound import CloudQuestion, LinkOpener
from .workers import Failure, TaskRunner

log = logging.getLogger(__name__)

OLDER_PAGE = 50
GATE_POLL_MS = 60_000
# Failures raised before the user's message was logged: the composer gets the text back. A full
# disk is among them (the append was undone); other storage failures may come after it was logged.
NOTHING_LOGGED = ("gate_closed", "input", "storage_full", "storage_read_only")


@dataclass
class Turn:
    """A chat turn in flight."""

    kind: str  # send | regenerate | edit
    text: str
    stop: threading.Event
    reply: MessageBubble
    user: MessageBubble | None = None
    removed: list = field(default_factory=list)


class MainWindow(QMainWindow):
    """The chat window.

    Signals:
        turn_finished(TurnResult): a reply ended (complete or stopped).
        turn_failed(Failure): a turn failed; the failure has been shown.
        gate_changed(FlushGate): the gate was read again.
        meter_changed(ContextMeter): the context meter was counted again.
    """

    turn_finished = Signal(object)
    turn_failed = Signal(object)
    gate_changed = Signal(object)
    meter_changed = Signal(object)

    def __init__(self, app, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.runner = TaskRunner(app.paths.crash_dir, self)
        self.turn: Turn | None = None
        self.editing = False
        self.dialogs: list = []
        self._meter_generation = 0
        self.closing = False
        self.setWindowTitle(self.tr("monchat"))
        icon = resource_dir("assets") / "monchat.svg"
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.resize(860, 720)

        self.gate_bar = GateBar(self)
        self.chat_view = ChatView(self.persona_name, self)
        self.composer = Composer(self)
        central = QWidget(self)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.gate_bar)
        column.addWidget(self.chat_view, 1)
        column.addWidget(self.composer)
        self.setCentralWidget(central)

        self.persona_box = QComboBox(self)
        self.persona_box.setToolTip(self.tr("Who you are talking to"))
        self.meter = ContextMeterWidget(self)
        self.backend_label = QLabel(self)
        self.statusBar().addPermanentWidget(self.backend_label)
        self.statusBar().addPermanentWidget(self.meter)
        self.cloud = CloudQuestion(app, self)
        self.links = LinkOpener(self, lambda text: self.statusBar().showMessage(text, 15000))
        self._build_actions()
        self._connect()

        self.show_send_key()
        flush_ok = self.flush_service() is not None
        self.gate_bar.set_flush_available(flush_ok, "" if flush_ok else self._no_flush_text())
        self.reload_personas()
        self.reload_conversation()
        self.refresh_gate()
        self.refresh_meter()
        self.gate_timer = QTimer(self)
        self.gate_timer.setInterval(GATE_POLL_MS)
        self.gate_timer.timeout.connect(self.refresh_gate)
        self.gate_timer.start()
        self.composer.edit.setFocus()

    # ---- construction ----------------------------------------------------
    def _build_actions(self) -> None:
        def action(text: str, slot, shortcut: str | QKeySequence | None = None) -> QAction:
            act = QAction(text, self)
            act.triggered.connect(slot)
            if shortcut:
                act.setShortcut(QKeySequence(shortcut))
            return act

        self.regenerate_action = action(self.tr("Regenerate reply"), self.regenerate, "Ctrl+R")
        self.edit_action = action(self.tr("Edit last message"), self.begin_edit_last, "Ctrl+E")
        self.stop_action = action(self.tr("Stop"), self.stop_reply, "Esc")
        self.flush_action = action(self.tr("Flush…"), self.open_flush)
        self.memory_action = action(self.tr("Memory…"), self.open_memory)
        self.queue_action = action(self.tr("Review queue…"), self.open_review_queue)
        self.surface_action = action(self.tr("Surface personas…"), self.open_surface_personas)
        self.filter_action = action(self.tr("Filter personas…"), self.open_filter_personas)
        self.settings_action = action(self.tr("Settings…"), self.open_settings, QKeySequence.StandardKey.Preferences)
        self.quit_action = action(self.tr("Quit"), self.close, QKeySequence.StandardKey.Quit)
        self.send_key_action = QAction(self.tr("Ctrl+Enter sends"), self)
        self.send_key_action.setCheckable(True)
        self.send_key_action.setToolTip(self.tr("On: Enter adds a line and Ctrl+Enter sends. "
                                                "Off: Enter sends and Shift+Enter adds a line."))
        self.send_key_action.toggled.connect(self.set_ctrl_enter_sends)
        if self.flush_service() is None:
            self.flush_action.setEnabled(False)
            self.flush_action.setToolTip(self._no_flush_text())
        if self.memory_service() is None:
            for act in (self.memory_action, self.queue_action):
                act.setEnabled(False)
                act.setToolTip(self.tr("Memory is not available in this version of monchat."))

        menu = self.menuBar()
        chat_menu = menu.addMenu(self.tr("&Chat"))
        for act in (self.regenerate_action, self.edit_action, self.stop_action):
            chat_menu.addAction(act)
        chat_menu.addSeparator()
        chat_menu.addAction(self.send_key_action)
        chat_menu.addSeparator()
        chat_menu.addAction(self.quit_action)
        memory_menu = menu.addMenu(self.tr("&Memory"))
        for act in (self.flush_action, self.memory_action, self.queue_action):
            memory_menu.addAction(act)
        persona_menu = menu.addMenu(self.tr("&Personas"))
        persona_menu.addAction(self.surface_action)
        persona_menu.addAction(self.filter_action)
        settings_menu = menu.addMenu(self.tr("&Settings"))
        settings_menu.addAction(self.settings_action)

        bar = QToolBar(self.tr("Main"), self)
        bar.setObjectName("main_toolbar")
        bar.setMovable(False)
        bar.addWidget(QLabel(self.tr("Persona:") + " ", bar))
        bar.addWidget(self.persona_box)
        bar.addSeparator()
        for act in (self.regenerate_action, self.edit_action, self.flush_action, self.memory_action,
                    self.settings_action):
            bar.addAction(act)
        self.addToolBar(bar)

    def _connect(self) -> None:
        self.composer.send_requested.connect(self.send_message)
        self.composer.stop_requested.connect(self.stop_reply)
        self.composer.flush_requested.connect(self.open_flush)
        self.composer.cancel_edit_requested.connect(self.cancel_edit)
        self.gate_bar.flush_requested.connect(self.open_flush)
        self.chat_view.older_requested.connect(self.load_older)
        self.chat_view.link_requested.connect(self.links.request)
        self.persona_box.currentIndexChanged.connect(self._persona_picked)

    # ---- the send key (settings.chat.ctrl_enter_sends) ------------------------
    def show_send_key(self) -> None:
        """The composer and the Chat menu follow the setting."""
        value = bool(self.app.settings.chat.ctrl_enter_sends)
        self.composer.set_ctrl_enter_sends(value)
        self.send_key_action.blockSignals(True)
        self.send_key_action.setChecked(value)
        self.send_key_action.blockSignals(False)

    def set_ctrl_enter_sends(self, value: bool) -> None:
        """The Chat menu's toggle: saved in settings.toml at once."""
        if bool(self.app.settings.chat.ctrl_enter_sends) != value:
            self.app.settings.chat.ctrl_enter_sends = value
            self.save_settings()
        self.show_send_key()

    def save_settings(self) -> bool:
        """Save settings.toml; a disk that refuses is shown, not a crash (the choice holds until exit)."""
        try:
            self.app.save_settings()
        except KnownError as exc:
            self.dialogs.append(show_failure(self, Failure.from_known(exc)))
            return False
        return True

    def _no_flush_text(self) -> str:
        return self.tr("Flush is not available in this version of monchat.")

    # ---- services --------------------------------------------------------
    def flush_service(self):
        return self.app.services.get("flush")

    def memory_service(self):
        return self.app.services.get("memory")

    # ---- personas --------------------------------------------------------
    def persona_name(self, persona_id: str) -> str:
        persona = self.app.personas.surface.get(persona_id)
        return persona.name if persona else (persona_id or self.tr("Assistant"))

    def persona_id(self) -> str:
        return self.persona_box.currentData() or self.app.settings.chat.persona

    def reload_personas(self) -> None:
        current = self.persona_box.currentData() or self.app.settings.chat.persona
        self.persona_box.blockSignals(True)
        self.persona_box.clear()
        for persona in sorted(self.app.personas.surface.values(), key=lambda p: p.name):
            self.persona_box.addItem(persona.name, persona.id)
            self.persona_box.setItemData(self.persona_box.count() - 1, persona.description,
                                         Qt.ItemDataRole.ToolTipRole)
        index = max(self.persona_box.findData(current), 0)
        self.persona_box.setCurrentIndex(index)
        self.persona_box.blockSignals(False)
        self._show_greeting()

    def _persona_picked(self, _index: int) -> None:
        persona_id = self.persona_box.currentData()
        if not persona_id or persona_id == self.app.settings.chat.persona:
            return
        self.app.settings.chat.persona = persona_id
        self.save_settings()
        self._show_greeting()
        self.refresh_meter()

    def _show_greeting(self) -> None:
        persona = self.app.personas.surface.get(self.persona_id())
        self.chat_view.set_greeting(persona.greeting if persona else "")

    # ---- conversation ----------------------------------------------------
    def reload_conversation(self) -> None:
        """Show the Layer 3 window again (after a regeneration failed, a flush, …)."""
        self.chat_view.set_messages(self.app.chat.window())

    def load_older(self, epoch: float) -> None:
        """Older messages before ``epoch``: archived ones plus unflushed ones outside the window."""
        older = {m.id: m for m in self.app.archive.before(epoch, OLDER_PAGE)}
        for message in self.app.logbook.read_all().messages:
            if message.dt.timestamp() < epoch:
                older.setdefault(message.id, message)
        page = sorted(older.values(), key=lambda m: (m.dt.timestamp(), m.id))[-OLDER_PAGE:]
        self.chat_view.prepend_older(page)

    # ---- turns -----------------------------------------------------------
    def _turn_allowed(self) -> bool:
        if self.turn is not None:
            return False
        gate = self.refresh_gate()
        return gate.state != "stop"

    def send_message(self, text: str) -> None:
        """Send (or, in edit mode, replace the last message with) ``text``."""
        if not text.strip() or not self._turn_allowed():
            return
        if not self.cloud.allows(self.app.personas.surface.get(self.persona_id()), lambda: self.send_message(text)):
            return  # asked first; sent once the user agrees (the text stays in the box meanwhile)
        chat, persona_id, stop = self.app.chat, self.persona_id(), threading.Event()
        removed = []
        if self.editing:
            kind = "edit"
            last_user = self.chat_view.last_bubble("user")
            if last_user is not None:
                start = self.chat_view.bubbles.index(last_user)
                removed = self.chat_view.bubbles[start:]
                for bubble in list(removed):
                    bubble.hide()

            def work(report):
                return chat.edit_last(text, persona_id=persona_id, on_chunk=report, stop=stop)
        else:
            kind = "send"

            def work(report):
                return chat.send(text, persona_id=persona_id, on_chunk=report, stop=stop)
        draft = Message(id="", ts=format_ts(local_now()), role="user", text=text, persona=persona_id)
        user = self.chat_view.add_message(draft)
        reply = self.chat_view.start_reply(persona_id)
        self.turn = Turn(kind, text, stop, reply, user, removed)
        self.composer.clear()
        self._set_editing(False)
        self._start_turn(work)

    def regenerate(self) -> None:
        """Ask again for the last reply; the new one replaces it."""
        last = self.chat_view.bubbles[-1] if self.chat_view.bubbles else None
        if last is None or last.role != "assistant" or not self._turn_allowed():
            return
        if not self.cloud.allows(self.app.personas.surface.get(self.persona_id()), self.regenerate):
            return
        chat, persona_id, stop = self.app.chat, self.persona_id(), threading.Event()
        last.hide()
        reply = self.chat_view.start_reply(persona_id)
        self.turn = Turn("regenerate", "", stop, reply, None, [last])

        def work(report):
            return chat.regenerate(persona_id=persona_id, on_chunk=report, stop=stop)
        self._start_turn(work)

    def begin_edit_last(self) -> None:
        last_user = self.chat_view.last_bubble("user")
        if last_user is None or self.turn is not None:
            return
        self._set_editing(True, last_user.text())

    def cancel_edit(self) -> None:
        self._set_editing(False)
        self.composer.clear()

    def _set_editing(self, editing: bool, text: str = "") -> None:
        self.editing = editing
        self.composer.set_editing(editing, text)

    def stop_reply(self) -> None:
        if self.turn is not None:
            self.turn.stop.set()
            self.composer.stop_button.setEnabled(False)

    def _start_turn(self, work) -> None:
        self.composer.set_streaming(True)
        self.composer.stop_button.setEnabled(True)
        self._set_turn_actions(False)
        self.runner.start("chat turn", work, on_progress=self._on_chunk,
                          on_finished=self._on_turn_finished, on_failed=self._on_turn_failed)

    def _set_turn_actions(self, enabled: bool) -> None:
        for widget in (self.regenerate_action, self.edit_action, self.persona_box, self.flush_action):
            widget.setEnabled(enabled and (widget is not self.flush_action or self.flush_service() is not None))

    def _on_chunk(self, piece: str) -> None:
        if self.turn is not None:
            self.turn.reply.append(piece)

    def _end_turn(self) -> Turn | None:
        turn, self.turn = self.turn, None
        self.composer.set_streaming(False)
        self._set_turn_actions(True)
        return turn

    def _on_turn_finished(self, result: TurnResult) -> None:
        turn = self._end_turn()
        if turn is None:
            return
        for bubble in turn.removed:
            self.chat_view.remove_bubble(bubble)
        if turn.user is not None:
            turn.user.finish(result.user, "ok")
        if result.reply is None:
            self.chat_view.remove_bubble(turn.reply)
            self.chat_view.add_notice(self.tr("Stopped before the reply began."))
        else:
            turn.reply.finish(result.reply, "stopped" if result.stopped else result.reply.status)
        for warning in result.warnings:  # core's words (no codes yet), under a label in the window's language
            self.statusBar().showMessage(arg(self.tr("Note from the model backend: %1"), warning), 15000)
        self.refresh_gate()
        self.refresh_meter()
        self.turn_finished.emit(result)

    def _on_turn_failed(self, failure: Failure) -> None:
        turn = self._end_turn()
        if turn is not None and failure.code in NOTHING_LOGGED and turn.kind in ("send", "edit"):
            self.composer.restore(turn.text)
        # What is on disk now is the truth: the user's words are logged, a partial reply is marked.
        self.reload_conversation()
        self.chat_view.add_notice(f"{headline(failure)}\n{explanation(failure)}")
        if not failure.known:
            self.dialogs.append(show_failure(self, failure))
        self.refresh_gate()
        self.refresh_meter()
        self.turn_failed.emit(failure)

    # ---- gate and meter --------------------------------------------------
    def refresh_gate(self):
        gate = self.app.chat.gate()
        self.gate_bar.set_gate(gate)
        flush_ok = self.flush_service() is not None
        self.composer.set_gate_closed(gate.state == "stop", self.gate_bar.stop_explanation(gate), flush_ok,
                                      "" if flush_ok else self._no_flush_text())
        self.gate_changed.emit(gate)
        return gate

    def refresh_meter(self) -> None:
        """Count the prompt's tokens off the GUI thread (choosing a backend may probe the network)."""
        if self.closing:
            return
        self._meter_generation += 1
        generation, chat, persona_id = self._meter_generation, self.app.chat, self.persona_id()

        def work(_report):
            meter = chat.context_meter(persona_id)
            return generation, meter, chat.backend_for(chat.persona(persona_id)).describe()
        self.runner.start("context meter", work, on_finished=self._meter_ready, on_failed=self._meter_failed)

    def _meter_ready(self, result) -> None:
        generation, meter, backend = result
        if generation != self._meter_generation:
            return
        self.meter.set_meter(meter)
        self.backend_label.setText(backend)
        self.meter_changed.emit(meter)

    def _meter_failed(self, failure: Failure) -> None:
        self.meter.set_unknown(f"{headline(failure)}\n{explanation(failure)}")

    # ---- dialogs ---------------------------------------------------------
    def _open(self, dialog):
        for old in self.dialogs:  # closed dialogs are dropped the next time one opens
            if _alive(old) and not old.isVisible():
                old.deleteLater()
        self.dialogs = [d for d in self.dialogs if _alive(d) and d.isVisible()]
        self.dialogs.append(dialog)
        dialog.open()
        return dialog

    def open_settings(self):
        from .settings_dialog import SettingsDialog
        dialog = SettingsDialog(self.app, self.runner, self)
        dialog.saved.connect(self._settings_saved)
        return self._open(dialog)

    def _settings_saved(self, restart_needed: bool) -> None:
        if restart_needed:
            self.statusBar().showMessage(
                self.tr("Saved. Some changes take effect the next time monchat starts."), 20000)
        self.show_send_key()
        self.reload_personas()
        self.refresh_gate()
        self.refresh_meter()

    def open_surface_personas(self):
        from .surface_editor import SurfacePersonaDialog
        dialog = SurfacePersonaDialog(self.app, self)
        dialog.personas_changed.connect(self._personas_changed)
        return self._open(dialog)

    def _personas_changed(self) -> None:
        self.reload_personas()
        self.refresh_meter()

    def open_filter_personas(self):
        from .filter_editor import FilterPersonaDialog
        return self._open(FilterPersonaDialog(self.app, self.runner, self))

    def open_flush(self):
        if self.flush_service() is None or self.turn is not None:
            return None
        if not self.cloud.allows(None, self.open_flush):
            return None
        from .flush_dialog import FlushDialog
        dialog = FlushDialog(self.app, self.runner, self)
        dialog.flush_finished.connect(self._flushed)
        return self._open(dialog)

    def _flushed(self, _report) -> None:
        self.reload_conversation()
        self.refresh_gate()
        self.refresh_meter()

    def open_memory(self):
        if self.memory_service() is None:
            return None
        from .memory_browser import MemoryBrowser
        dialog = MemoryBrowser(self.app, self.runner, self)
        dialog.memory_changed.connect(self.refresh_meter)
        return self._open(dialog)

    def open_review_queue(self):
        if self.memory_service() is None:
            return None
        from .review_queue import ReviewQueueDialog
        dialog = ReviewQueueDialog(self.app, self.runner, self)
        dialog.memory_changed.connect(self.refresh_meter)
        return self._open(dialog)

    # ---- closing ---------------------------------------------------------
    def shutdown(self, timeout_ms: int = 15000) -> bool:
        """Stop a streaming reply and any flush, and wait for the workers."""
        self.closing = True
        if self.turn is not None:
            self.turn.stop.set()
        for dialog in self.dialogs:
            if _alive(dialog) and hasattr(dialog, "cancel"):
                dialog.cancel()
        self.gate_timer.stop()
        return self.runner.drain(timeout_ms)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if not self.shutdown():
            self.closing = False
            self.gate_timer.start()
            box = QMessageBox(QMessageBox.Icon.Warning, self.tr("monchat"),
                              self.tr("A task is still running; monchat will close when it ends."),
                              QMessageBox.StandardButton.Ok, self)
            box.open()
            self.dialogs.append(box)
            event.ignore()
            return
        event.accept()
