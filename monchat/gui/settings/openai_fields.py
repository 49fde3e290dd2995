"""The OpenAI-compatible server's context length and answer format fields of the Settings dialog, and the
requests a server answers at once (Ollama's and this server's)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QSpinBox, QWidget


def context_box(value: int, parent: QWidget) -> QSpinBox:
    """``openai.context_length``: 0 is "as the server says"."""
    box = QSpinBox(parent)
    box.setRange(0, 10_000_000)
    box.setSingleStep(1024)
    box.setSpecialValueText(QCoreApplication.translate("SettingsDialog", "as the server says (else 4096)"))
    box.setValue(value)
    return box


def at_once_box(value: int, lowest: int, parent: QWidget) -> QSpinBox:
    """``ollama.parallel`` (lowest 1) or ``openai.parallel`` (lowest 0: "1 here, 4 elsewhere"): how many requests
    the server answers at once. monchat sends it no more, so a chat turn asked during a flush is its next."""
    box = QSpinBox(parent)
    box.setRange(lowest, 64)
    if lowest == 0:
        box.setSpecialValueText(QCoreApplication.translate("SettingsDialog", "1 on this computer or network, 4 elsewhere"))
    box.setValue(value)
    box.setToolTip(QCoreApplication.translate(
        "SettingsDialog", "How many requests the server answers at the same time (Ollama: OLLAMA_NUM_PARALLEL, 1 unless "
        "you set it; llama-server: --parallel). monchat sends no more, so your chat is answered next during a "
        "flush; a higher number than the server's makes chat wait behind the flush."))
    return box


class AnswerFormatBox(QComboBox):
    """``openai.json_mode``: how flush calls ask for JSON (auto finds a server without schemas by itself)."""

    def __init__(self, value: str, parent: QWidget) -> None:
        super().__init__(parent)
        for mode, text in (("auto", self.tr("Automatic (a JSON schema, else JSON object)")),
                           ("json_schema", self.tr("JSON schema only")),
                           ("json_object", self.tr("JSON object with its JSON schema (llama_cpp.server)"))):
            self.addItem(text, mode)
        self.setCurrentIndex(max(0, self.findData(value)))
        self.setToolTip(self.tr("How a flush asks the server for structured answers. Servers that refuse a JSON "
                                "schema are found and remembered automatically."))

    def value(self) -> str:
        return self.currentData()
