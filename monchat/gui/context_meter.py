"""The token/context meter: system prompt + Layer 3 window against the context length."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from ..core.chat import ContextMeter


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
        self.label.setText(self.tr("Context: {total} / {limit} tokens").format(
            total=f"{meter.total:,}", limit=f"{meter.context_length:,}"))
        self.setToolTip(self.tr("System prompt {system} tokens + recent messages {window} tokens, "
                                "of a context of {limit}.").format(
            system=f"{meter.system_tokens:,}", window=f"{meter.window_tokens:,}", limit=f"{meter.context_length:,}"))
        if meter.total > meter.context_length:
            self.label.setText(self.label.text() + " " + self.tr("— over the limit; the oldest messages are cut"))

    def set_unknown(self, reason: str) -> None:
        self.meter = None
        self.label.setText(self.tr("Context: unknown"))
        self.setToolTip(reason)
