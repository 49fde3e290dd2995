"""What leaves this computer: the question before the first message to a cloud, and opening links.

Both ask with a non-blocking message box (``open()``) and act only on an explicit yes. The
rules are core's (``core.privacy``, ``core.links``); this module only words and asks.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from ...core.backends.registry import BackendRegistry
from ...core.errors import KnownError
from ...core.chat.links import openable_link
from ...core.privacy.cloud import CloudConsent, Destination
from ...core.settings import Settings
from ..translation import arg


class CloudQuestion(QObject):
    """Asks once per cloud destination before anything is sent there; remembers a yes.

    ``self.box`` is the open question (None when none is open), for tests to answer.
    """

    def __init__(self, backends: BackendRegistry, consent: CloudConsent, settings: Settings, parent: QWidget) -> None:
        super().__init__(parent)
        self.backends = backends
        self.settings = settings
        self.window = parent
        self.consent = consent
        self.box: QMessageBox | None = None

    def allows(self, persona, then: Callable[[], None]) -> bool:
        """True when the chat with ``persona`` (a flush: None) may go ahead now.

        Otherwise the question is shown and ``then`` runs after the user agrees.
        """
        try:
            dest = self.backends.planned_destination(persona)
        except KnownError:
            return True  # the call itself reports the misconfiguration, with the message kept
        if dest is None or not self.consent.needed(dest):
            return True
        self.ask(dest, then)
        return False

    def ask(self, dest: Destination, then: Callable[[], None]) -> None:
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Send to a cloud service?"),
                          self.question(dest), QMessageBox.StandardButton.Cancel, self.window)
        send = box.addButton(self.tr("Send"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered(_result: int) -> None:
            self.box = None
            if box.clickedButton() is send:
                self.consent.grant(dest)
                then()

        box.finished.connect(answered)
        self.box = box
        box.open()

    def question(self, dest: Destination) -> str:
        hours = self.settings.chat.window_hours
        return arg(self.tr("%1 (model %2) at %3 is not on this computer or your network.\n\n"
                           "Each message sends it: this persona's text, your memory (what monchat remembers "
                           "about you), and the conversation of the last %4 hours. A flush sends it the "
                           "unflushed logs.\n\nSend to it? monchat asks only once for this address."),
                   dest.backend, dest.model or "—", dest.where, str(hours))


class LinkOpener(QObject):
    """Opens a link from a reply in the browser: http(s) only, after showing where it goes.

    ``opener`` opens a QUrl (``QDesktopServices.openUrl``; tests pass a recorder).
    """

    def __init__(self, parent: QWidget, notify: Callable[[str], None],
                 opener: Callable[[QUrl], object] = QDesktopServices.openUrl) -> None:
        super().__init__(parent)
        self.window = parent
        self.notify = notify
        self.opener = opener
        self.box: QMessageBox | None = None

    def request(self, url: str) -> None:
        target = openable_link(url)
        if target is None:
            self.notify(arg(self.tr("Not opened: monchat opens only web links (http, https), not %1"), url))
            return
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Open this link?"),
                          arg(self.tr("This link goes to %1:\n\n%2\n\nOpen it in your browser?"),
                              target.host, target.url),
                          QMessageBox.StandardButton.Cancel, self.window)
        open_button = box.addButton(self.tr("Open"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)

        def answered(_result: int) -> None:
            self.box = None
            if box.clickedButton() is open_button:
                self.opener(QUrl(target.url))

        box.finished.connect(answered)
        self.box = box
        box.open()
