"""Help → monchat Help…: the README's part for users (everything before "Development"), in a window beside the chat.

The README is read from the source checkout, else from the installed package's metadata (the wheel carries it
as its long description); it is written in English, which the window says in a Japanese window.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QMenu, QTextBrowser, QVBoxLayout, QWidget

from .translation import ui_is_english

README = Path(__file__).resolve().parents[2] / "README.md"
DEVELOPER_PART = "\n## Development"


def user_part(readme: str) -> str:
    """The README from its title (the setup lines above it are for a checkout) up to its developers' part."""
    title = readme.find("\n# ")
    start = title + 1 if title >= 0 and not readme.startswith("# ") else 0
    return readme[start:].split(DEVELOPER_PART, 1)[0].rstrip() + "\n"


def read_guide() -> str:
    """The README's user part; "" when neither the checkout nor the package metadata has it."""
    if README.is_file():
        return user_part(README.read_text(encoding="utf-8"))
    from importlib import metadata  # here, not at the top: some 30 ms of every window start
    try:
        return user_part(metadata.metadata("monchat").get("Description") or "")
    except metadata.PackageNotFoundError:
        return ""


class UserGuideWindow(QDialog):
    """The guide, readable and searchable with the keyboard; web links open in the browser."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("monchat Help"))
        self.resize(820, 640)
        self.note = QLabel(self.tr("This guide is written in English."), self)
        self.note.setVisible(not ui_is_english())
        self.text = QTextBrowser(self)
        self.text.setOpenLinks(False)
        self.text.anchorClicked.connect(self._link)
        guide = read_guide()
        if guide:
            self.text.setMarkdown(guide)
        else:
            self.text.setPlainText(self.tr("The guide is not installed; see https://pypi.org/project/monchat/."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
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
