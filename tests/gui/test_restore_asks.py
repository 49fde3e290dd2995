"""After a restore the window asks again before the first message goes to a cloud: a backup made where
the user said yes to that cloud does not carry the yes (before: it did, and the window sent at once)."""

from __future__ import annotations

import pytest

from monchat.app import build_app
from monchat.core.transfer.backup import create_backup
from monchat.core.paths import Paths
from monchat.core.privacy.cloud import CloudConsent
from monchat.core.transfer.restore import restore_backup
from tests.gui.test_outbound import CloudBackend, answer


@pytest.fixture
def backend():
    return CloudBackend(delay=0.002)


@pytest.fixture
def home(_isolated_home, tmp_path):
    """The test's data folder, restored from a backup of a folder that had agreed to the cloud."""
    source = tmp_path / "source"
    made = build_app(str(source), pinned_backend=CloudBackend())
    CloudConsent(made.store).grant(made.backends.planned_destination(None))
    made.close()
    create_backup(Paths.from_env(source), tmp_path / "b.zip")
    restore_backup(tmp_path / "b.zip", Paths.from_env(_isolated_home))
    return _isolated_home


def test_the_window_asks_again_after_a_restore_and_sends_nothing_before_yes(window, backend, app):
    window.composer.edit.setPlainText("hello")
    window.composer.submit()
    box = window.cloud.box
    assert box is not None and "cloud.example" in box.text()
    answer(box, accept=False)
    assert backend.history == [] and app.logbook.files() == []
