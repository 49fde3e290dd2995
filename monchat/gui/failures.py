"""Words for failures: the core gives codes, the GUI says what happened and what to do."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from .workers import Failure



def headline(failure: Failure) -> str:
    """One translated sentence for the failure's code."""
    words = {
        "gate_closed": QCoreApplication.translate(
            "Failures", "Chat is paused until you flush the waiting log files."),
        "backend_unreachable": QCoreApplication.translate(
            "Failures", "The model server could not be reached."),
        "model_not_found": QCoreApplication.translate(
            "Failures", "The model is not installed on the server."),
        "auth_failed": QCoreApplication.translate(
            "Failures", "The API key was refused or is missing."),
        "rate_limited": QCoreApplication.translate(
            "Failures", "The service says too many requests were made; wait a little."),
        "backend_unavailable": QCoreApplication.translate(
            "Failures", "This backend cannot be used on this computer."),
        "malformed_reply": QCoreApplication.translate(
            "Failures", "The model answered in a shape monchat cannot use."),
        "backend": QCoreApplication.translate(
            "Failures", "The model call failed."),
        "input": QCoreApplication.translate(
            "Failures", "That cannot be used."),
        "not_found": QCoreApplication.translate(
            "Failures", "That cannot be found."),
        "persona": QCoreApplication.translate(
            "Failures", "The persona could not be used or saved."),
        "settings": QCoreApplication.translate(
            "Failures", "A setting is not valid."),
        "flush_cancelled": QCoreApplication.translate(
            "Failures", "The flush was cancelled; nothing was changed."),
        "bug": QCoreApplication.translate(
            "Failures", "monchat hit an internal error."),
    }
    return words.get(failure.code) or QCoreApplication.translate("Failures", "Something went wrong.")


def explanation(failure: Failure) -> str:
    """The core's own description and hint, then where a crash report went."""
    lines = [failure.message]
    if failure.hint:
        lines.append(QCoreApplication.translate("Failures", "What to do: {hint}").format(hint=failure.hint))
    if not failure.known:
        if failure.crash_report:
            lines.append(QCoreApplication.translate(
                "Failures", "A crash report was saved to {path}. Please attach it to a bug report.").format(
                path=failure.crash_report))
        else:
            lines.append(QCoreApplication.translate(
                "Failures", "The details are in monchat.log in the data folder."))
    return "\n".join(lines)


def show_failure(parent: QWidget | None, failure: Failure) -> QMessageBox:
    """A non-blocking message box (``open()``, never ``exec()``), returned for tests."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical if not failure.known else QMessageBox.Icon.Warning)
    box.setWindowTitle(QCoreApplication.translate("Failures", "monchat"))
    box.setText(headline(failure))
    box.setInformativeText(explanation(failure))
    if failure.details:
        box.setDetailedText(failure.details)
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
