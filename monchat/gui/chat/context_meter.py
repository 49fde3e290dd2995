"""The token/context meter: system prompt + Layer 3 window against the context length."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from ...core.chat.service import ContextMeter
from ..translation import arg


class ContextMeterWidget(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(self)
        self.bar = QProgressBar(self)
        self.bar.setTextVisible(False)
        self.bar.setMaximumWidth(140)
        self.bar.setMaximumHeight(12)
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
