"""The window after restoring a backup planted with a public OpenAI-compatible server (issue 36, case 5): its
meter, its welcome and its status make no connection there, and the first message asks, as a first cloud use
does. An audit hook (``sys.addaudithook``, no client patched) refuses and records any connection or lookup
that is not loopback while ``WATCHING`` is on, so no traffic leaves this machine."""

from __future__ import annotations

import ipaddress
import sys
import zipfile

import pytest

from monchat.app import build_app
from monchat.core.paths import Paths
from monchat.core.transfer.backup import create_backup
from monchat.core.transfer.restore import restore_backup
from tests.gui.test_outbound import answer
from tests.test_restore_destination import PLANTED_TOML, plant

WATCHING: list[bool] = []
OUTSIDE: list[str] = []


def _loopback(host) -> bool:
    host = str(host).strip("[]").split("%")[0]
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _hook(event: str, args: tuple) -> None:
    if not WATCHING:
        return
    host = None
    if event == "socket.connect" and isinstance(args[1], tuple):
        host = args[1][0]
    elif event == "socket.getaddrinfo":
        host = args[0].decode() if isinstance(args[0], bytes) else args[0]
    if host is not None and not _loopback(host):
        OUTSIDE.append(f"{event} {host}")
        raise PermissionError(f"test: no connection outside this computer ({host})")


sys.addaudithook(_hook)  # an audit hook stays for the process; it acts only while a test here watches


@pytest.fixture(autouse=True)
def watching():
    WATCHING.append(True)
    OUTSIDE.clear()
    yield
    WATCHING.clear()


@pytest.fixture
def app(_isolated_home, tmp_path):
    """The test's data folder, restored from a real backup whose settings.toml was planted."""
    source = tmp_path / "source"
    build_app(str(source)).close()
    create_backup(Paths.from_env(source), tmp_path / "real.zip")
    plant(tmp_path / "real.zip", tmp_path / "planted.zip")
    with zipfile.ZipFile(tmp_path / "planted.zip") as planted:
        assert planted.read("config/settings.toml").decode() == PLANTED_TOML
    restore_backup(tmp_path / "planted.zip", Paths.from_env(_isolated_home))
    application = build_app(str(_isolated_home))
    yield application
    application.close()


def test_the_window_contacts_a_restored_public_server_only_after_yes(window, app):
    assert app.backends.planned_destination(None).where == "http://203.0.113.9/v1"
    assert OUTSIDE == []  # the meter and the welcome were made without asking it anything
    report = app.status.report()
    assert report["memory_goes_to"]["held"] == "not agreed yet" and OUTSIDE == []

    window.composer.edit.setPlainText("my secret")
    window.composer.submit()
    box = window.cloud.box
    assert box is not None and "203.0.113.9" in box.text()
    answer(box, accept=False)
    assert OUTSIDE == [] and app.logbook.files() == []
