"""Words for failures: the core gives codes, the GUI says what happened and what to do."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from .translation import arg, ui_is_english
from .kit.workers import Failure


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
        "request_too_large": QCoreApplication.translate(
            "Failures", "The filter's instructions alone do not fit the model's context."),
        "reply_cut_off": QCoreApplication.translate(
            "Failures", "The model server ended the reply before it finished."),
        "flush_incomplete": QCoreApplication.translate(
            "Failures", "A filter could not read some messages, so nothing was changed."),
        "pin_over_budget": QCoreApplication.translate(
            "Failures", "Pinned memories would fill the whole memory budget of the prompt."),
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
        "flush_running": QCoreApplication.translate(
            "Failures", "A flush is already running."),
        "sync_running": QCoreApplication.translate("Failures", "A sync is already running."),
        "keyring": QCoreApplication.translate(
            "Failures", "This computer's keyring cannot store the key."),
        "cloud_consent": QCoreApplication.translate(
            "Failures", "Nothing was sent: this service is a cloud you have not agreed to send to here."),
        "storage": QCoreApplication.translate(
            "Failures", "monchat could not read or write its data."),
        "storage_full": QCoreApplication.translate(
            "Failures", "The disk is full: your message was not saved and not sent."),
        "download": QCoreApplication.translate(
            "Failures", "The model could not be downloaded."),
        "download_cancelled": QCoreApplication.translate(
            "Failures", "The download was cancelled; nothing was installed."),
        "no_disk_space": QCoreApplication.translate(
            "Failures", "There is not enough free disk space for this model."),
        "storage_corrupt": QCoreApplication.translate(
            "Failures", "The database file is damaged."),
        "storage_locked": QCoreApplication.translate(
            "Failures", "The database is in use by another program."),
        "storage_read_only": QCoreApplication.translate(
            "Failures", "monchat may not write to its data folder."),
        "storage_newer_schema": QCoreApplication.translate(
            "Failures", "The data was last used by a newer monchat; this one will not change it."),
        "error": QCoreApplication.translate(
            "Failures", "That could not be done."),
        "bug": QCoreApplication.translate(
            "Failures", "monchat hit an internal error."),
    }
    return words.get(failure.code) or QCoreApplication.translate("Failures", "Something went wrong.")


def advice(code: str) -> str:
    """What to do, worded by the GUI for codes whose meaning is specific enough ("" for the others)."""
    words = {
        "gate_closed": QCoreApplication.translate(
            "Failures", "Flush the waiting log files (Memory → Flush); chat reopens afterwards."),
        "backend_unreachable": QCoreApplication.translate(
            "Failures", "Check that the model server is running (or that you are online) and that its address "
                        "in Settings is right, then try again."),
        "model_not_found": QCoreApplication.translate(
            "Failures", "Install the model on the server (for Ollama: ollama pull and the model name) or choose "
                        "another model in Settings."),
        "auth_failed": QCoreApplication.translate(
            "Failures", "Enter a valid Gemini API key in Settings."),
        "rate_limited": QCoreApplication.translate(
            "Failures", "Wait a minute, then try again."),
        "backend_unavailable": QCoreApplication.translate(
            "Failures", "Choose another backend in Settings; \"Test connection\" there shows what is missing."),
        "malformed_reply": QCoreApplication.translate(
            "Failures", "Try again; a larger model follows the format more reliably."),
        "request_too_large": QCoreApplication.translate(
            "Failures", "Raise the model's context in Settings, or shorten the filter persona's text."),
        "reply_cut_off": QCoreApplication.translate(
            "Failures", "Press Retry. If the reply is empty every time, the server's context may be smaller "
                        "than the one set in Settings."),
        "pin_over_budget": QCoreApplication.translate(
            "Failures", "Unpin a memory you need less, or raise the budget: monchat settings set flush.memory_token_budget N."),
        "flush_incomplete": QCoreApplication.translate(
            "Failures", "Flush again (a busy model often answers the next time), choose a larger model, or "
                        "flush without the unread messages."),
        "flush_cancelled": QCoreApplication.translate(
            "Failures", "Run it again when you are ready; the logs are still there."),
        "flush_running": QCoreApplication.translate(
            "Failures", "Wait for it to finish; its summary shows what changed."),
        "sync_running": QCoreApplication.translate("Failures", "Wait a moment; the window syncs again by itself."),
        "storage_full": QCoreApplication.translate(
            "Failures", "Free some disk space, then send again; your text is still in the box."),
        "download": QCoreApplication.translate(
            "Failures", "Check the internet connection and download again; a file that fails its check is "
                        "never used."),
        "download_cancelled": QCoreApplication.translate(
            "Failures", "Download it again when you want it."),
        "no_disk_space": QCoreApplication.translate(
            "Failures", "Free some disk space, or choose a smaller model."),
        "storage_corrupt": QCoreApplication.translate(
            "Failures", "Run `monchat doctor` in a terminal: it says how to recover the file. Your unflushed "
                        "log files are safe."),
        "storage_locked": QCoreApplication.translate(
            "Failures", "Close other monchat windows or programs using monchat.db, then try again."),
        "storage_read_only": QCoreApplication.translate(
            "Failures", "Make the data folder writable by you, then start monchat again."),
        "storage_newer_schema": QCoreApplication.translate(
            "Failures", "Update monchat to the newest version."),
        "keyring": QCoreApplication.translate(
            "Failures", "Set the GEMINI_API_KEY environment variable before starting monchat instead; "
                        "monchat never writes the key to its own files."),
    }
    return words.get(code, "")


def explanation(failure: Failure) -> str:
    """What to do, then (for a bug) where the crash report went.

    Core's ``message`` and ``hint`` are English. An English window shows them as they are; a
    translated one shows the GUI's own advice for the code instead, and core's words only for
    codes too general to word here (input, not found, …: the message is the only account of it).
    """
    lines = []
    worded = advice(failure.code) if failure.known else ""
    if worded and not ui_is_english():
        lines.append(arg(QCoreApplication.translate("Failures", "What to do: %1"), worded))
    else:
        lines.append(failure.message)
        if failure.hint:
            lines.append(arg(QCoreApplication.translate("Failures", "What to do: %1"), failure.hint))
    if not failure.known:
        if failure.crash_report:
            lines.append(arg(QCoreApplication.translate(
                "Failures", "A crash report was saved to %1. Please attach it to a bug report."),
                failure.crash_report))
        else:
            lines.append(QCoreApplication.translate(
                "Failures", "The details are in monchat.log in the data folder."))
    return "\n".join(lines)


def backend_note(warning: str) -> str:
    """A backend's note on a reply (``core.types.Coded``), worded from its code."""
    words = {
        "blocked": QCoreApplication.translate(
            "Failures", "The service blocked this message and did not answer it."),
        "ended_early": QCoreApplication.translate(
            "Failures", "The service ended the reply early; it may be cut off."),
        "cut_at_length": QCoreApplication.translate(
            "Failures", "The server cut the reply at its length limit; ask it to go on, or raise the limit."),
    }
    worded = words.get(getattr(warning, "code", ""))
    if worded is None:  # a note with no code: core's English, only in an English window
        worded = warning if ui_is_english() else QCoreApplication.translate(
            "Failures", "The model backend added a note to this reply (see monchat.log).")
    return arg(QCoreApplication.translate("Failures", "Note from the model backend: %1"), worded)


def show_failure(parent: QWidget | None, failure: Failure) -> QMessageBox:
    """A non-blocking message box (``open()``, never ``exec()``), returned for tests."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical if not failure.known else QMessageBox.Icon.Warning)
    box.setWindowTitle(QCoreApplication.translate("Failures", "monchat"))
    box.setText(headline(failure))
    box.setInformativeText(explanation(failure))
    details = failure.details or (f"{failure.message}\n{failure.hint}".strip() if failure.known else "")
    if details:
        box.setDetailedText(details)
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
