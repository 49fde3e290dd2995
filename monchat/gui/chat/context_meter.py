"""The token/context meter: system prompt + Layer 3 window against the context length.

``MeterCounter`` counts it for the main window on a worker (choosing a backend may probe the network, the
count may load a tokenizer). Asks made in one pass of the event loop (a flush's end asks from several places)
start one count, in a pass of its own, so the count never lengthens the slice that asked for it.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from ...core.chat.service import ContextMeter
from ..translation import arg
from ..window_frame import METER_BAR_HEIGHT, METER_BAR_WIDTH


class ContextMeterWidget(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(self)
        self.bar = QProgressBar(self)
        self.bar.setTextVisible(False)
        self.bar.setMaximumWidth(METER_BAR_WIDTH)  # the window's frame shows the same (window_frame.py)
        self.bar.setMaximumHeight(METER_BAR_HEIGHT)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        self.meter: ContextMeter | None = None
        self.label.setText(self.tr("Context: counting…"))

    def set_meter(self, meter: ContextMeter) -> None:
        self.meter = meter
        limit = max(meter.context_length, 1)
        self.bar.setMaximum(limit)
        self.bar.setValue(min(meter.total, limit))
        self.label.setText(arg(self.tr("Context: %1 / %2 tokens"), f"{meter.total:,}", f"{meter.context_length:,}"))
        self.setToolTip(arg(self.tr("System prompt %1 tokens + recent messages %2 tokens, of a context of %3."),
                            f"{meter.system_tokens:,}", f"{meter.window_tokens:,}", f"{meter.context_length:,}"))
        if meter.left_out:
            self.label.setText(self.label.text() + " " + arg(self.tr("— %1 older messages not sent"),
                                                               meter.left_out))
            self.setToolTip(self.toolTip() + "\n" + arg(
                self.tr("%1 older messages of the recent window are not sent, so the reply has room. "
                        "They stay in the log and reach memory at the next flush."), meter.left_out))

    def set_unknown(self, reason: str) -> None:
        self.meter = None
        self.label.setText(self.tr("Context: unknown"))
        self.setToolTip(reason)


class MeterCounter(QObject):
    """Counts the main window's context meter off the GUI thread; the window shows what it says.

    Signals:
        counted(ContextMeter): the meter, counted (by a count here or by a turn).
        unknown(str): it could not be counted; why, in the window's language.
        backend_named(str): the persona's backend and model, as the status bar shows them.
        welcome_changed(str): the first start's welcome ("" once something was said).
    """

    counted = Signal(object)
    unknown = Signal(str)
    backend_named = Signal(str)
    welcome_changed = Signal(str)

    def __init__(self, chat, runner, persona_id: Callable[[], str], nothing_said: Callable[[], bool],
                 closing: Callable[[], bool], parent: QObject | None = None) -> None:
        """``chat``: the chat service; ``closing``: the window is closing (nothing more is counted)."""
        super().__init__(parent)
        self.chat, self.runner, self.persona_id = chat, runner, persona_id
        self.nothing_said, self.closing = nothing_said, closing
        self.generation = 0  # counts started; a result of an older one is dropped
        self._asked = False

    def refresh(self) -> None:
        """Count again, once for every ask of this pass of the event loop."""
        if self.closing() or self._asked:
            return
        self._asked = True
        QTimer.singleShot(0, self, self._count)

    def _count(self) -> None:
        self._asked = False
        if self.closing():
            return
        self.generation += 1
        generation, chat, persona_id = self.generation, self.chat, self.persona_id()

        def work(_report):
            meter = chat.context_meter(persona_id)
            backend = chat.backend_for(chat.persona(persona_id))
            size = None if chat.backends.held(backend) else backend.model_size()  # asked once a model, once agreed
            return generation, meter, backend.describe(), backend.name, size
        self.runner.start("context meter", work, on_finished=self._ready, on_failed=self._failed)

    def show_counted(self, meter: ContextMeter) -> None:
        """A turn counted it from the window it read: shown, and any count still running is older."""
        self.generation += 1
        self.counted.emit(meter)

    def _ready(self, result) -> None:
        from .first_start import welcome_text
        generation, meter, backend, backend_name, size = result
        if generation != self.generation:
            return
        self.backend_named.emit(backend)
        self.welcome_changed.emit(welcome_text(backend_name, backend, size) if self.nothing_said() else "")
        self.counted.emit(meter)

    def _failed(self, failure) -> None:
        from ..failures import explanation, headline
        from .first_start import welcome_text
        self.unknown.emit(f"{headline(failure)}\n{explanation(failure)}")
        self.welcome_changed.emit(welcome_text("", "") if self.nothing_said() else "")
