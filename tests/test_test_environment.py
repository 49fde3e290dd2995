"""What tests/conftest.py sets for every test and every interpreter a test starts, to make the run cheaper
without changing what a test proves: a trust store of one certificate, and temporary files on a RAM disk."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import httpx

from tests import conftest
from tests.support.ram_tmp import ROOM, ram_disk_for_temporary_files

NO_ONE = Path(__file__).resolve().parent / "data" / "tls" / "no-one.pem"


def test_the_tests_and_what_they_start_trust_only_a_certificate_nobody_can_sign_with():
    # Every httpx client read the machine's 144 roots (16-20 ms of CPU) at construction; no test speaks TLS.
    assert os.environ["SSL_CERT_FILE"] == str(NO_ONE)  # in the environment: the interpreters tests start inherit it
    roots = httpx.create_ssl_context().get_ca_certs()  # what every httpx client is built with
    assert [dict(part[0] for part in root["subject"])["commonName"] for root in roots] == [
        "monchat tests: a CA whose key was thrown away"]


def test_temporary_files_go_to_the_ram_disk_when_it_has_room_and_the_user_chose_no_other(tmp_path):
    assert ram_disk_for_temporary_files({}, tmp_path, room=1) == tmp_path
    assert ram_disk_for_temporary_files({"TMPDIR": "/elsewhere"}, tmp_path, room=1) is None  # the user's choice
    assert ram_disk_for_temporary_files({"TMPDIR": str(tmp_path)}, tmp_path, room=1) == tmp_path  # an xdist worker
    assert ram_disk_for_temporary_files({}, tmp_path / "missing", room=1) is None
    assert ram_disk_for_temporary_files({}, tmp_path, room=2**62) is None  # too little room: the disk
    if conftest.RAM_DISK is not None:  # this run: every temporary file on it, here and in what tests start
        assert os.environ["TMPDIR"] == str(conftest.RAM_DISK) and conftest.RAM_DISK.stat().st_size >= 0
        assert Path(tempfile.gettempdir()) == conftest.RAM_DISK and tmp_path.is_relative_to(conftest.RAM_DISK)
    else:
        assert os.environ.get("TMPDIR") or ram_disk_for_temporary_files({}) is None, ROOM
