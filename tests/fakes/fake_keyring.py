"""OS keyrings for tests, neither touching the real one.

- ``FileKeyring`` for subprocess tests (``PYTHON_KEYRING_BACKEND=tests.fakes.fake_keyring.FileKeyring``): it keeps
  passwords in the JSON file ``MONCHAT_TEST_KEYRING`` names ({"service": {"name": "password"}}), so a test can put
  a key "in the keyring" of a ``python -m monchat`` it starts.
- ``memory_keyring()`` in process: a ``MemoryKeyring`` set through keyring's own ``set_keyring`` for the ``with``.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import keyring

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class FileKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]  # a usable keyring (monchat refuses priority <= 0)

    def _path(self) -> Path:
        return Path(os.environ["MONCHAT_TEST_KEYRING"])

    def _read(self) -> dict:
        path = self._path()
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def get_password(self, service, username):
        return self._read().get(service, {}).get(username)

    def set_password(self, service, username, password):
        data = self._read()
        data.setdefault(service, {})[username] = password
        self._path().write_text(json.dumps(data), encoding="utf-8")

    def delete_password(self, service, username):
        data = self._read()
        if username not in data.get(service, {}):
            raise PasswordDeleteError(username)
        del data[service][username]
        self._path().write_text(json.dumps(data), encoding="utf-8")


class MemoryKeyring(KeyringBackend):
    """Keeps what it is given, in this process only: ``values[(service, username)]``."""

    priority = 1  # type: ignore[assignment]

    def __init__(self):
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.values.get((service, username))

    def set_password(self, service, username, password):
        self.values[(service, username)] = password

    def delete_password(self, service, username):
        self.values.pop((service, username), None)


@contextlib.contextmanager
def memory_keyring() -> Iterator[MemoryKeyring]:
    """A ``MemoryKeyring`` as the process's keyring while the ``with`` runs; the one before it again after."""
    ring, previous = MemoryKeyring(), keyring.get_keyring()
    keyring.set_keyring(ring)
    try:
        yield ring
    finally:
        keyring.set_keyring(previous)
