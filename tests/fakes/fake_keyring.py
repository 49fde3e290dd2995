"""An OS keyring for subprocess tests: ``PYTHON_KEYRING_BACKEND=tests.fakes.fake_keyring.FileKeyring``.

It keeps passwords in the JSON file ``MONCHAT_TEST_KEYRING`` names ({"service": {"name": "password"}}), so a
test can put a key "in the keyring" of a ``python -m monchat`` it starts, without touching the real one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

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
