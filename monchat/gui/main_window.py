"""The main window: persona picker, conversation, composer, flush gate and context meter.

It is the only place that connects sibling widgets. Chat turns are started and settled by its
``ChatTurns`` (``chat/turns.py``); every LLM call runs on the task runner's threads, results come back as signals.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QVBoxLayout, QWidget

from ..core.paths import resource_dir
from .kit.dialogs import OpenDialogs
from .window_frame import FirstPaint, Frame
from .window_state import about_box, restore_geometry, save_geometry

if TYPE_CHECKING:  # the chat's parts (and the app's core under them) are imported by ``attach``, after the frame paints
    from PySide6.QtGui import QCloseEvent

    from ..core.chat.service import TurnResult
    from .kit.workers import Failure

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

    def __init__(self, app=None, parent: QWidget | None = None, *, config_dir=None, translators=None) -> None:
        """The frame (``window_frame.py``) at once; with ``app`` filled too (else ``attach`` fills it). ``config_dir``:
        where ``window.ini`` is (default: the app's); ``translators``: the installed translations, kept with it."""
        super().__init__(parent)
        self.app, self.translators = None, translators
        self.dialogs = OpenDialogs()  # held until closed; the window's parts are given it to open theirs
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

    @property
    def filled(self) -> bool:
        """Whether ``attach`` has filled the frame with the chat."""
        return self.app is not None

    def attach(self, app) -> None:
        """Fill the frame with the chat for ``app``: its parts replace the frame's in one pass (no paint between).
        Each part is given the services it uses (one the start need not build as a function that returns it) and
        ``self.dialogs`` to open its dialogs, never the window; ``_connect`` wires them."""
        from .chat.bubble import AVATAR_PX
        from .chat.context_meter import ContextMeterWidget, MeterCounter
        from .chat.composer import Composer
        from .chat.gate_bar import GateBar
        from .chat.long_message import LongMessages
        from .chat.message_delete import MessageDeletions
        from .chat.outbound import CloudQuestion, LinkOpener
        from .chat.reply_ratings import ReplyRatings
        from .chat.turns import ChatTurns
        from .chat.view import ChatView
        from .chat.your_controls import YourControls
        from .history.menu import FileMenu
        from .memory.menu import MemoryMenu
        from .personas.avatars import Avatars
        from .personas.picker import PersonaPicker
        from .kit.workers import TaskRunner
        from .settings.model_help import ModelHelp
        from .sync_runner import BackgroundSync
        from .user_guide import UserGuide
        from .window_menus import MainMenu

        self.setUpdatesEnabled(False)
        self.frame.remove()
        self.app = app
        self.runner = TaskRunner(app.paths.crash_dir, self)
        self.gate_bar = GateBar(self)
        self.avatars = Avatars(app.personas, AVATAR_PX)
        self.chat_view = ChatView(self.persona_name, self, persona_avatar=self.avatars)
        self.ratings = ReplyRatings(app.feedback, self.runner, self.chat_view, self.say)
        self.deletions = MessageDeletions(app.messages, self.runner, self.chat_view, self.ratings.say,
                                          self.reload_conversation, busy=lambda: self.turns.current is not None)
        self.composer = Composer(self)
        self.cloud = CloudQuestion(app.backends, app.consent, app.settings, self)
        self.links = LinkOpener(self, self.say)
        self.turns = ChatTurns(app.chat, self.runner, self.chat_view, self.composer, self.persona_id,
                               self.refresh_gate, self._may_send, self)
        self.persona_box = PersonaPicker(app.personas, app.settings, self)
        self.meter = ContextMeterWidget(self)
        self.meter_counter = MeterCounter(app.chat, self.runner, self.persona_id, lambda: self.nothing_said,
                                          lambda: self.closing, self)
        self.backend_label = QLabel(self, indent=24)  # a gap: a status-bar hint never runs into the name (issue 45)
        self.menus = MainMenu(self)
        self.file_menu = FileMenu(  # File: search (Ctrl+F), import, export, back up and restore
            self.menus.file_menu, logbook=app.logbook, archive=app.archive, transfer=lambda: app.transfer,
            gate=app.chat.gate, paths=app.paths, runner=self.runner, dialogs=self.dialogs,
            persona_name=self.persona_name, parent=self)
        self.memory_menu = MemoryMenu(  # the Memory menu's windows and the review count
            memory=app.memory, flush=lambda: app.flush, chat=app.chat, personas=app.personas, settings=app.settings,
            clock=app.clock, inbox=lambda: app.inbox, lint=lambda: app.lint, consent=app.consent, runner=self.runner,
            dialogs=self.dialogs, persona_id=self.persona_id, busy=lambda: self.turns.current is not None,
            may_flush=lambda: self.cloud.allows(None, self.memory_menu.open_flush),  # asks first, then opens it
            closing=lambda: self.closing, parent=self)
        self.controls = YourControls(  # off the record, pause memory, never remember (gui/chat/your_controls.py)
            self.menus.chat_menu, self.menus.memory_menu, self.menus.send_key_action, chat=app.chat, pause=app.pause,
            settings=app.settings, off_record=app.logbook.off_record, never=lambda: app.never, runner=self.runner,
            dialogs=self.dialogs, persona_id=self.persona_id, parent=self)
        self.model_help = ModelHelp(self.menus.help_menu, self.menus.about_action, models=lambda: app.models,
                                    data_dir=app.paths.data_dir, runner=self.runner, dialogs=self.dialogs, parent=self)
        self.user_guide = UserGuide(self.menus.help_menu, self.dialogs, self)  # Help → monchat Help… (gui/guide/)
        self.long_messages = LongMessages(app.chat.history, self.runner, self.dialogs, lambda: self.chat_view.bubbles,
                                          self)  # "Show all" under a long message
        central = QWidget(self)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        for part, stretch in ((self.gate_bar, 0), (self.chat_view, 1), (self.controls.banner, 0), (self.composer, 0)):
            column.addWidget(part, stretch)
        self.setCentralWidget(central)
        self.addToolBar(self.menus.toolbar(self.persona_box, self))
        self.sync = BackgroundSync(lambda: app.sync, self.runner, lambda: self.closing or self.turns.current, self)
        for part in (self.backend_label, self.meter, self.controls.paused_label, self.sync.label):
            self.statusBar().addPermanentWidget(part)
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
        """After the first paint: the context meter (a tokenizer may load, slowing a paint), later the review count."""
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

    # ---- the one wiring block: every part's signals, and what the window does with them -------------
    def _connect(self) -> None:
        """Each part says what the user asked for or what happened; here, and only here, what follows is decided."""
        menus, files, memory, controls = self.menus, self.file_menu, self.memory_menu, self.controls
        counter, view, turns = self.meter_counter, self.chat_view, self.turns
        for signal, *slots in (
                (menus.regenerate_requested, turns.regenerate), (menus.edit_requested, turns.begin_edit_last),
                (menus.stop_requested, turns.stop), (menus.quit_requested, self.close),
                (menus.flush_requested, memory.open_flush), (menus.memory_requested, memory.open_memory),
                (menus.review_queue_requested, memory.open_review_queue), (menus.inbox_requested, memory.open_inbox),
                (menus.chat_personas_requested, self.open_surface_personas),
                (menus.filter_personas_requested, self.open_filter_personas),
                (menus.settings_requested, self.open_settings), (menus.about_requested, self.open_about),
                (menus.ctrl_enter_sends_toggled, self.set_ctrl_enter_sends),
                (self.composer.send_requested, turns.send), (self.composer.stop_requested, turns.stop),
                (self.composer.cancel_edit_requested, turns.cancel_edit), (turns.busy_changed, self.update_actions),
                (turns.finished, self._turn_finished), (turns.failed, self._turn_failed),
                (self.turn_finished, memory.after_turn), (self.turn_failed, memory.after_turn),
                (self.gate_bar.flush_requested, memory.open_flush), (view.older_requested, self.load_older),
                (view.link_requested, self.links.request), (view.show_all_requested, self.long_messages.show_bubble),
                (self.persona_box.picked, self._persona_picked), (self.sync.history_changed, self.reload_conversation),
                (self.persona_box.currentIndexChanged, controls.refresh, self.refresh_gate),
                (files.history_imported, self.reload_conversation, self.refresh_gate, self.refresh_meter),
                (files.memory_imported, self.refresh_meter), (memory.memory_changed, self.refresh_meter),
                (files.review_queue_requested, memory.open_review_queue), (self.gate_changed, self.sync.after_gate),
                (memory.gate_moved, self.refresh_gate), (memory.conversation_changed, self.reload_conversation),
                (memory.review_count_changed, menus.queue_action.setText), (self.sync.memory_changed, memory.changed),
                (controls.title_changed, self.setWindowTitle), (controls.said, self.say),
                (controls.conversation_changed, self.reload_conversation, self.refresh_meter, self.refresh_gate),
                (controls.memory_changed, self.refresh_meter), (self.gate_changed, controls.refresh),
                (counter.counted, self.meter.set_meter, self.meter_changed), (counter.unknown, self.meter.set_unknown),
                (counter.backend_named, self.backend_label.setText), (counter.welcome_changed, view.set_welcome)):
            for slot in slots:
                signal.connect(slot)
        controls.refresh()

    def say(self, text: str, ms: int = 15000) -> None:
        """A line in the status bar for ``ms`` milliseconds."""
        self.statusBar().showMessage(text, ms)

    # ---- the send key (settings.chat.ctrl_enter_sends) ------------------------
    def show_send_key(self) -> None:
        """The composer and the Chat menu follow the setting."""
        value = bool(self.app.settings.chat.ctrl_enter_sends)
        self.composer.set_ctrl_enter_sends(value)
        self.menus.show_ctrl_enter_sends(value)

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
            self.dialogs.keep(show_failure(self, Failure.from_known(exc)))
            return False
        return True

    # ---- personas --------------------------------------------------------
    def persona_name(self, persona_id: str) -> str:
        persona = self.app.personas.surface.get(persona_id)
        return persona.name if persona else (persona_id or self.tr("Assistant"))

    def persona_id(self) -> str:
        return self.persona_box.persona_id()

    def reload_personas(self) -> None:
        self.persona_box.reload()
        self._show_greeting()

    def _persona_picked(self, _persona_id: str) -> None:
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
        self.menus.show_state(state, self.gate_bar)
        self.persona_box.setEnabled(not state.streaming)

    def _turn_finished(self, result: TurnResult) -> None:
        from .failures import backend_note
        for warning in result.warnings:
            self.say(backend_note(warning))
        self.refresh_gate()
        self.update_actions()
        if result.meter is None:
            self.refresh_meter()
        else:  # counted by the turn from the window it read: the logs are not read a second time
            self.meter_counter.show_counted(result.meter)
        self.turn_finished.emit(result)

    def _turn_failed(self, failure: Failure) -> None:
        from .failures import show_failure
        if not failure.known:
            self.dialogs.keep(show_failure(self, failure))
        self.refresh_gate()
        self.update_actions()
        self.refresh_meter()
        self.turn_failed.emit(failure)

    # ---- gate and meter --------------------------------------------------
    def refresh_gate(self):
        gate = self.app.chat.gate()
        self.gate_timer.setInterval(GATE_WATCH_MS if gate.closed or gate.flushing else GATE_POLL_MS)
        self.gate_bar.set_gate(gate, off_record=self.app.chat.off_record(self.persona_id()))
        self.composer.set_gate_closed(gate.closed and not self.gate_bar.off_record)  # off the record goes on
        if gate.closed and self.turns.editing:
            self.turns.cancel_edit(keep_text=True)  # no "editing" banner over a box that cannot send
        self.update_actions()
        self.gate_changed.emit(gate)
        return gate

    def refresh_meter(self) -> None:
        """Count the context meter again (``chat/context_meter.py``: off the GUI thread, asks coalesced)."""
        self.meter_counter.refresh()

    # ---- dialogs (opened through ``self.dialogs``, ``kit/dialogs.py``) -------------------------
    def open_about(self):
        box = about_box(self, self.app.paths.data_dir, self.app.paths.config_dir)
        self.dialogs.keep(box)
        return box

    def open_settings(self):
        from .settings.dialog import SettingsDialog
        app = self.app
        dialog = SettingsDialog(app.settings, app.paths, app.personas, app.secrets, app.backends,
                                app.learning, self.runner, self, sync=self.sync)
        dialog.saved.connect(self._settings_saved)
        return self.dialogs.open(dialog)

    def _settings_saved(self, restart_needed: bool) -> None:
        if restart_needed:
            self.say(self.tr("Saved. Some changes take effect the next time monchat starts."), 20000)
        self.show_send_key()
        self.reload_personas()
        self.refresh_gate()
        self.refresh_meter()

    def open_surface_personas(self):
        from .personas.surface_editor import SurfacePersonaDialog
        dialog = SurfacePersonaDialog(self.app.personas, self.app.settings.chat.persona, self, chat=self.app.settings.chat)
        dialog.personas_changed.connect(self._personas_changed)
        dialog.chat_persona_changed.connect(self.save_settings)
        return self.dialogs.open(dialog)

    def _personas_changed(self) -> None:
        self.avatars.clear()
        self.reload_personas()
        self.refresh_meter()

    def open_filter_personas(self):
        from .personas.filter_editor import FilterPersonaDialog
        app = self.app
        return self.dialogs.open(FilterPersonaDialog(app.personas, app.settings, app.paths.settings_path, app.flush,
                                              self.runner, self))

    # ---- closing ---------------------------------------------------------
    def shutdown(self, timeout_ms: int = 15000) -> bool:
        """Stop a streaming reply and any flush, and wait for the workers."""
        self.closing = True
        self.turns.stop()
        self.dialogs.cancel_work()
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
            box = QMessageBox(QMessageBox.Icon.Warning, self.tr("monchat"),
                              self.tr("A task is still running; monchat will close when it ends."),
                              QMessageBox.StandardButton.Ok, self)
            self.dialogs.keep(box).open()
            event.ignore()
            return
        save_geometry(self, self.app.paths.config_dir)
        event.accept()
