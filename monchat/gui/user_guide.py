"""Help → monchat Help… (F1): a short guide for people who use monchat, in the window's language, beside the chat.

The guides are ``guide/en.md`` and ``guide/ja.md`` in this package (what personas, logs, Flush, memory, review and
off the record are; how to pick a model; where the data lives). They name menus, never environment variables or
command-line flags: the developer docs stay in ``docs/`` and the README.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMenu, QTextBrowser, QVBoxLayout, QWidget

from .translation import ui_language

GUIDES = Path(__file__).resolve().parent / "guide"


def read_guide(language: str | None = None) -> str:
    """The guide in ``language`` (the window's by default; English for a language without one)."""
    path = GUIDES / f"{language or ui_language()}.md"
    return (path if path.is_file() else GUIDES / "en.md").read_text(encoding="utf-8")


class UserGuideWindow(QDialog):
    """The guide, readable and searchable with the keyboard; web links open in the browser."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("monchat Help"))
        self.resize(820, 640)
        self.text = QTextBrowser(self)
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._link)
        self.text.setMarkdown(read_guide())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)

    def _link(self, url: QUrl) -> None:
        if url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)
        elif url.hasFragment():
            self.text.scrollToAnchor(url.fragment())


class UserGuide:
    """Adds Help → monchat Help… (F1) first in ``help_menu``; one guide window at a time."""

    def __init__(self, help_menu: QMenu, dialogs, parent: QWidget) -> None:
        self.dialogs, self.parent = dialogs, parent
        action = QAction(QCoreApplication.translate("UserGuide", "monchat Help…"), parent)
        action.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        action.triggered.connect(self.open_help)
        help_menu.insertAction(help_menu.actions()[0], action)
        self.action = action
        self.guide: UserGuideWindow | None = None

    def open_help(self):
        from .kit.lifetime import alive
        if self.guide is not None and alive(self.guide) and self.guide.isVisible():
            self.guide.activateWindow()
            return self.guide
        self.guide = UserGuideWindow(self.parent)
        return self.dialogs.open(self.guide, modal=False)
