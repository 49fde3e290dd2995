"""The first start's offer of a better embedded model: which catalog model this machine runs comfortably
(``core/models/machine.py``), its size and what it is for, and how fast it should be: an estimate from a
short probe, remembered once measured (by ``monchat doctor`` or the offer's Measure button, off the GUI
thread; never on its own at start, where it would load a second model beside the window's). Download, or Not now: never forced, and the
window works without it. A download that finishes selects the model (``models/service.py``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from ...core.models.catalog import CatalogModel
from ...core.models.service import Models
from ...core.models.machine import Machine, estimate, probe_speed, recommend, remembered_probe, this_machine
from ..kit.lifetime import alive
from ..kit.workers import TaskRunner
from .model_catalog import Download, _gb
from ..translation import arg, ui_language


class ModelOffer(QDialog):
    """Offers ``model`` (a catalog model) for download; ``machine`` says why it fits."""

    def __init__(self, models: Models, data_dir: Path, runner: TaskRunner, model: CatalogModel, machine: Machine,
                 parent: QWidget | None = None) -> None:
        """Args:
            models: ``app.models`` (where downloads go; a finished one is selected through it).
            data_dir: where the speed probe is remembered.
        """
        super().__init__(parent)
        self.models, self.data_dir, self.model, self.machine, self.runner = models, data_dir, model, machine, runner
        self.setWindowTitle(self.tr("A better model for this computer"))
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.text.setText(arg(self.tr(
            "This computer has %1 GB of memory and %2 cores: it runs <b>%3</b> comfortably. "
            "It is a %4 download, kept on this computer; replies and memory (Flush) then come from it "
            "instead of the tiny built-in model.<br>%5<br>Languages: %6. Licence: %7."),
            f"{machine.ram_gb:.0f}", machine.cores, model.title, _gb(model.size_bytes),
            model.purpose_ja if ui_language() == "ja" and model.purpose_ja else model.purpose,
            ", ".join(model.languages), model.licence))
        self.speed = QLabel(self.tr("How fast it will be here is not measured yet."), self)
        self.speed.setWordWrap(True)
        self.measure = QPushButton(self.tr("Measure (a few seconds)"), self)
        self.measure.clicked.connect(self.start_probe)
        self.download = Download(runner, models.models_dir, lambda: model, self)
        self.download.finished.connect(self._downloaded)
        self.buttons = QDialogButtonBox(self)
        self.later = self.buttons.addButton(self.tr("Not now"), QDialogButtonBox.ButtonRole.RejectRole)
        self.later.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.text, self.speed, self.measure, self.download, self.buttons):
            layout.addWidget(widget)
        known = remembered_probe(data_dir, machine)
        if known is not None:
            self._measured(known)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        """The wrapped words keep the height they need at this width, so the window grows when the download's
        progress row appears instead of cutting the description mid-sentence."""
        super().resizeEvent(event)
        for label in (self.text, self.speed):
            label.setMinimumHeight(label.heightForWidth(label.width()))

    def start_probe(self) -> None:
        self.measure.setEnabled(False)
        self.speed.setText(self.tr("How fast it will be: measuring this computer (a few seconds)…"))
        data_dir, machine = self.data_dir, self.machine
        self.runner.start("machine probe", lambda _report: probe_speed(data_dir, machine),
                          on_finished=self._measured, on_failed=lambda _failure: self._measured(None))

    def _measured(self, probe) -> None:
        if not alive(self):
            return
        if probe is None:
            self.speed.setText(self.tr("How fast it will be could not be measured here."))
            return
        self.measure.setVisible(False)
        guess = estimate(self.model, probe)
        self.speed.setText(arg(self.tr("Estimate from a short test on this computer: about %1 s for a reply, "
                                       "about %2 min for a Flush of 35 messages."),
                               f"{guess.turn_s:.0f}", f"{max(1.0, guess.flush_35_s / 60):.0f}"))

    def _downloaded(self, done: bool) -> None:
        if done:
            self.models.select(self.model.name)
            self.later.setText(self.tr("Close"))


def offer_model(models, data_dir, runner, dialogs, parent) -> ModelOffer | None:
    """On a first start: offer the recommended catalog model, unless it is the built-in one or already here."""
    machine = this_machine()
    model = recommend(machine)
    if models.installed(model):
        return None
    dialog = ModelOffer(models, data_dir, runner, model, machine, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialogs.keep(dialog)
    dialog.show()
    return dialog
