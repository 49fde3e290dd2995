"""Settings → Sync with an encrypted folder (issue 41, point 7): the passphrase typed twice joins it, and a computer
whose keyring lacks the passphrase is told so in plain words. The keyring keeps nothing here (the null keyring):
the page says the window remembers the passphrase until it closes."""

from __future__ import annotations


import pytest

from monchat.app import build_app
from tests.gui.test_sync_window import archived_texts, open_sync_page, said_elsewhere
from tests.support.scripted import ScriptedBackend

pytestmark = pytest.mark.usefixtures("qapp")

PASSPHRASE = "correct horse battery staple"


@pytest.fixture
def other(tmp_path, shared, monkeypatch):
    """Another computer that encrypted the shared folder."""
    monkeypatch.delenv("MONCHAT_SYNC_PASSPHRASE", raising=False)
    application = build_app(str(tmp_path / "desktop-home"), pinned_backend=ScriptedBackend())
    application.sync.setup(shared, "desktop", PASSPHRASE)
    yield application
    application.store.close()


def test_joining_an_encrypted_folder_from_the_page_with_the_passphrase_typed_twice(window, app, other, shared,
                                                                                   qtbot):
    said_elsewhere(other, "sukiyaki on the desktop")
    dialog, page = open_sync_page(window)
    page.folder.setText(str(shared))
    page.name.setText("laptop")
    page.set_up.click()  # no passphrase: refused in words
    qtbot.waitUntil(lambda: "Not set up:" in page.message.text(), timeout=5000)
    assert "is encrypted" in page.message.text() and app.sync.device() is None
    page.passphrase.setText(PASSPHRASE)
    page.passphrase_again.setText(PASSPHRASE + "x")
    page.set_up.click()
    assert "differ" in page.message.text() and app.sync.device() is None
    page.passphrase_again.setText(PASSPHRASE)
    page.set_up.click()
    qtbot.waitUntil(lambda: "sukiyaki on the desktop" in archived_texts(app), timeout=8000)
    assert "window remembers it until it closes" in page.message.text()
    assert page.passphrase.text() == "" and page.passphrase_again.text() == ""
    qtbot.waitUntil(lambda: "The folder is encrypted" in page.status.text(), timeout=5000)
    assert "Other device: desktop" in page.status.text()
    dialog.reject()


def test_a_computer_whose_keyring_lacks_the_passphrase_is_told_so(make_window, app, other, shared, qtbot):
    app.sync.setup(shared, "laptop", PASSPHRASE)
    app.sync.passphrase = None  # a new start: the keyring keeps nothing here
    said = said_elsewhere(other, "guitar on the desktop")
    window = make_window("en")
    qtbot.waitUntil(lambda: window.sync.label.text() == "Sync stopped (Settings → Sync)", timeout=8000)
    dialog, page = open_sync_page(window)
    assert "does not hold its passphrase" in page.message.text()
    page.passphrase.setText(PASSPHRASE)
    page.passphrase_again.setText(PASSPHRASE)
    page.set_up.click()
    qtbot.waitUntil(lambda: "guitar on the desktop" in archived_texts(app), timeout=8000)
    assert said and not app.sync.needs_passphrase()
    dialog.reject()
