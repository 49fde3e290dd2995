"""The main window: persona picker, conversation, composer, flush gate and context meter.

It is the only place that connects sibling widgets. Chat turns are started and settled by its
``ChatTurns`` (``chat/turns.py``); every LLM call runs on the task runner's threads, results come back as signals.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMainWindow, QWidget

from ..core.paths import resource_dir
from .window_frame import FirstPaint, Frame
from .window_state import about_box, restore_geometry, save_geometry

if TYPE_CHECKING:  # the chat's parts (and the app's core under them) are imported by ``attach``, after the frame paints
    from PySide6.QtGui import QCloseEvent

    from ..core.chat.service import TurnResult
    from .kit.workers import Failure

log = logging.getLogger(__name__)

OLDER_PAGE = 50
# The gate is read again every minute; every 2 s while chat is paused or a flush runs, so a flush started or ended
# in another process (``monchat flush``, a second window) opens or closes chat here within moments.
GATE_POLL_MS, GATE_WATCH_MS = 60_000, 2_000
REVIEW_COUNT_DELAY_MS = 1500  # the Memory menu's count waits until the window is painted and the meter counted
LATE_START_MS = 1000  # what waits for the first paint starts by then anyway (a window that starts hidden)


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

    def __init__(self, app=None, parent: QWidget | None = None, *, config_dir=None) -> None:
        """The frame (``window_frame.py``) at once; with ``app`` the window is filled too (else ``attach`` fills it).
        ``config_dir``: where ``window.ini`` is (default: the app's config folder)."""
        super().__init__(parent)
        self.app = None
        self.dialogs: list = []
        self.closing = False
        self.setWindowTitle(self.tr("monchat"))
        icon = resource_dir("assets") / "monchat.svg"
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.resize(860, 720)
        self.frame = Frame(self)
        restore_geometry(self, config_dir if config_dir is not None else app.paths.config_dir)
        if app is not None:
            self.attach(app)

    def attach(self, app) -> None:
        """Fill the frame with the chat for ``app``: its parts replace the frame's in one pass (no paint between)."""
        from .chat.bubble import AVATAR_PX
        from .chat.context_meter import ContextMeterWidget, MeterCounter
        from .chat.composer import Composer
        from .chat.gate_bar import GateBar
        from .chat.message_delete import MessageDeletions
        from .chat.outbound import CloudQuestion, LinkOpener
        from .chat.reply_ratings import ReplyRatings
        from .chat.turns import ChatTurns
        from .chat.view import ChatView
        from .memory.menu import MemoryMenu
        from .personas.avatars import Avatars
        from .kit.workers import TaskRunner
        from .window_menus import build_help_menu, build_menus
        from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout

        self.setUpdatesEnabled(False)
        self.frame.remove()
        self.app = app
        self.runner = TaskRunner(app.paths.crash_dir, self)
        self.gate_bar = GateBar(self)
        self.avatars = Avatars(app.personas, AVATAR_PX)
        self.chat_view = ChatView(self.persona_name, self, persona_avatar=self.avatars)
        self.ratings = ReplyRatings(app.feedback, self.runner, self.chat_view, lambda t, ms: self.statusBar().showMessage(t, ms))
        self.deletions = MessageDeletions(app.messages, self.runner, self.chat_view, self.ratings.say, self.reload_conversation,
                                          busy=lambda: self.turns.current is not None)  # a reply is being written
        self.composer = Composer(self)
        self.cloud = CloudQuestion(app.backends, app.consent, app.settings, self)
        self.links = LinkOpener(self, lambda text: self.statusBar().showMessage(text, 15000))
        self.memory_menu = MemoryMenu(self)  # the Memory menu's windows and the review count
        self.turns = ChatTurns(app.chat, self.runner, self.chat_view, self.composer, self.persona_id,
                               self.refresh_gate, self._may_send, self)
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
        self.meter_counter = MeterCounter(self)
        self.backend_label = QLabel(self)
        self.statusBar().addPermanentWidget(self.backend_label)
        self.statusBar().addPermanentWidget(self.meter)
        build_menus(self)
        build_help_menu(self)
        self._connect()

        self.gate_timer = QTimer(self, interval=GATE_POLL_MS, timeout=self.refresh_gate)
        self.show_send_key()
        self.reload_personas()
        self.reload_conversation()
        self.refresh_gate()
        self.gate_timer.start()
        self.setUpdatesEnabled(True)
        self.composer.edit.setFocus()
        self._started = False  # what the first filled paint does not need starts after it (``_start_late``)
        self._first_paint = FirstPaint(self, self._start_late)
        QTimer.singleShot(LATE_START_MS, self, self._start_late)

    def _start_late(self) -> None:
        """After the first paint: count the context meter (it may load a tokenizer on a worker, which would
        slow the paint) and, a little later, the review queue."""
        if self._started or self.closing:
            return
        self._started = True
        self.refresh_meter()
        QTimer.singleShot(REVIEW_COUNT_DELAY_MS, self, self.memory_menu.refresh_review_count)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        """Back in the window (after ``monchat flush``): the gate is read again; dark or light: the style follows."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            from .kit.tab_style import follow_palette  # imported after the frame's paint (kit/tab_style.py)
            follow_palette()
        elif (event.type() == QEvent.Type.ActivationChange and self.isActiveWindow() and not self.closing
                and self.app is not None):
            self.refresh_gate()

    # ---- construction ----------------------------------------------------
    def _connect(self) -> None:
        self.composer.send_requested.connect(self.turns.send)
        self.composer.stop_requested.connect(self.turns.stop)
        self.composer.cancel_edit_requested.connect(self.turns.cancel_edit)
        self.turns.busy_changed.connect(self.update_actions)
        self.turns.finished.connect(self._turn_finished)
        self.turns.failed.connect(self._turn_failed)
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
        from ..core.errors import KnownError
        from .failures import show_failure
        from .kit.workers import Failure
        try:
            self.app.save_settings()
        except KnownError as exc:
            self.dialogs.append(show_failure(self, Failure.from_known(exc)))
            return False
        return True

    # ---- personas --------------------------------------------------------
    def persona_name(self, persona_id: str) -> str:
        persona = self.app.personas.surface.get(persona_id)
        return persona.name if persona else (persona_id or self.tr("Assistant"))

    def persona_id(self) -> str:
        return self.persona_box.currentData() or self.app.settings.chat.persona

    def reload_personas(self) -> None:
        from PySide6.QtCore import Qt
        current = self.persona_box.currentData()
        if current not in self.app.personas.surface:  # none yet, or the one shown was deleted
            current = self.app.settings.chat.persona
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
        self.chat_view.set_current_persona(self.persona_id())

    # ---- conversation ----------------------------------------------------
    def reload_conversation(self) -> None:
        """Show the Layer 3 window again (after a regeneration failed, a flush, …)."""
        messages = self.app.chat.window()
        self.chat_view.set_messages(messages)
        oldest = messages[0].dt.timestamp() if messages else time.time()
        older = bool(self.app.chat.older(oldest, 1))
        self.chat_view.set_older_available(older)
        self.nothing_said = not messages and not older  # a new user: the welcome explains the window
        self.update_actions()

    def load_older(self, epoch: float) -> None:
        """Older messages before ``epoch``: archived ones plus unflushed ones outside the window."""
        self.chat_view.prepend_older(self.app.chat.older(epoch, OLDER_PAGE))
        self.update_actions()

    # ---- turns (ChatTurns starts and settles them) -------------------------
    def _may_send(self, then) -> bool:
        """A turn may go now, unless its backend is a cloud the user has not agreed to yet (then asks)."""
        return self.cloud.allows(self.app.personas.surface.get(self.persona_id()), then)

    def update_actions(self, *_args) -> None:
        """Enable what can act now; what cannot is disabled and its tooltip says why."""
        from .chat.turn_actions import ChatState
        view = self.chat_view
        state = ChatState(streaming=self.turns.current is not None, paused=self.composer.is_gate_closed(),
                          last_role=view.bubbles[-1].role if view.bubbles else "",
                          has_user_message=view.last_bubble("user") is not None,
                          nothing_to_flush=self.gate_bar.files == 0, flushing=self.gate_bar.flushing)
        self._reasons.apply(state, self.regenerate_action, self.edit_action, self.flush_action, self.gate_bar)
        self.persona_box.setEnabled(not state.streaming)

    def _turn_finished(self, result: TurnResult) -> None:
        from .failures import backend_note
        for warning in result.warnings:
            self.statusBar().showMessage(backend_note(warning), 15000)
        self.refresh_gate()
        self.update_actions()
        if result.meter is None:
            self.refresh_meter()
        else:  # counted by the turn from the window it read: the logs are not read a second time
            self.meter_counter.counted(result.meter)
        self.turn_finished.emit(result)

    def _turn_failed(self, failure: Failure) -> None:
        from .failures import show_failure
        if not failure.known:
            self.dialogs.append(show_failure(self, failure))
        self.refresh_gate()
        self.update_actions()
        self.refresh_meter()
        self.turn_failed.emit(failure)

    # ---- gate and meter --------------------------------------------------
    def refresh_gate(self):
        gate = self.app.chat.gate()
        self.gate_timer.setInterval(GATE_WATCH_MS if gate.closed or gate.flushing else GATE_POLL_MS)
        self.gate_bar.set_gate(gate)
        self.composer.set_gate_closed(gate.closed)
        if gate.closed and self.turns.editing:
            self.turns.cancel_edit(keep_text=True)  # no "editing" banner over a box that cannot send
        self.update_actions()
        self.gate_changed.emit(gate)
        return gate

    def refresh_meter(self) -> None:
        """Count the context meter again (``chat/context_meter.py``: off the GUI thread, asks coalesced)."""
        self.meter_counter.refresh()

    # ---- dialogs ---------------------------------------------------------
    def _open(self, dialog, modal: bool = True):
        """Show ``dialog``: window-modal (``open()``), or (``modal=False``) as a window beside the chat."""
        from .kit.lifetime import alive as _alive
        for old in self.dialogs:  # closed dialogs are dropped the next time one opens
            if _alive(old) and not old.isVisible():
                old.deleteLater()
        self.dialogs = [d for d in self.dialogs if _alive(d) and d.isVisible()]
        self.dialogs.append(dialog)
        if modal:
            dialog.open()
        else:
            dialog.setModal(False)
            dialog.show()
        return dialog

    def open_about(self):
        box = about_box(self, self.app.paths.data_dir, self.app.paths.config_dir)
        self.dialogs.append(box)
        return box

    def open_settings(self):
        from .settings.dialog import SettingsDialog
        app = self.app
        dialog = SettingsDialog(app.settings, app.paths, app.personas, app.secrets, app.backends,
                                app.learning, self.runner, self)
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
        from .personas.surface_editor import SurfacePersonaDialog
        dialog = SurfacePersonaDialog(self.app.personas, self.app.settings.chat.persona, self,
                                      chat=self.app.settings.chat)
        dialog.personas_changed.connect(self._personas_changed)
        dialog.chat_persona_changed.connect(self.save_settings)
        return self._open(dialog)

    def _personas_changed(self) -> None:
        self.avatars.clear()
        self.reload_personas()
        self.refresh_meter()

    def open_filter_personas(self):
        from .personas.filter_editor import FilterPersonaDialog
        app = self.app
        return self._open(FilterPersonaDialog(app.personas, app.settings, app.paths.settings_path, app.flush,
                                              self.runner, self))

    # The Memory menu's windows live in memory/menu.py (not modal: they sit beside the chat).
    def open_flush(self):
        return None if self.turns.current is not None else self.memory_menu.open_flush()

    def open_memory(self):
        return self.memory_menu.open_memory()

    def open_review_queue(self):
        return self.memory_menu.open_review_queue()

    def open_inbox(self):
        return self.memory_menu.open_inbox()

    # ---- closing ---------------------------------------------------------
    def shutdown(self, timeout_ms: int = 15000) -> bool:
        """Stop a streaming reply and any flush, and wait for the workers."""
        from .kit.lifetime import alive as _alive
        self.closing = True
        self.turns.stop()
        for dialog in self.dialogs:
            if _alive(dialog) and hasattr(dialog, "cancel"):
                dialog.cancel()
        self.gate_timer.stop()
        return self.runner.drain(timeout_ms)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        if self.app is None:  # closed before it was filled: nothing runs yet
            self.closing = True
            event.accept()
            return
        if not self.shutdown():
            self.closing = False
            self.gate_timer.start()
            from PySide6.QtWidgets import QMessageBox
            box = QMessageBox(QMessageBox.Icon.Warning, self.tr("monchat"),
                              self.tr("A task is still running; monchat will close when it ends."),
                              QMessageBox.StandardButton.Ok, self)
            box.open()
            self.dialogs.append(box)
            event.ignore()
            return
        save_geometry(self, self.app.paths.config_dir)
        event.accept()
