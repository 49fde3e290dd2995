"""API keys: from the environment or the OS keyring, never from a file we write.

Every key read here is registered with ``core/redact.py`` (``register``) where it is read, so no log,
error, crash report or doctor report carries it; the variables are ``redact.SECRET_VARIABLES``.

``keyring`` is imported when a key is first looked up there (finding the OS keyring
takes a while), so a start that needs no key never loads it.
"""

from __future__ import annotations

import logging
import os

from ..errors import KeyringUnavailable
from ..redact import register

log = logging.getLogger(__name__)

SERVICE = "monchat"
GEMINI_KEY_NAME = "gemini_api_key"
GEMINI_ENV = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
OPENAI_KEY_NAME = "openai_api_key"
OPENAI_ENV = ("OPENAI_API_KEY",)
SYNC_PASSPHRASE_NAME = "sync_passphrase"  # one a device: sync_passphrase/<device-id> (core/sync/crypto.py)
SYNC_PASSPHRASE_ENV = ("MONCHAT_SYNC_PASSPHRASE",)


class SecretStore:
    def gemini_key(self) -> str | None:
        """The Gemini key from ``GEMINI_API_KEY``, ``GOOGLE_API_KEY`` or the keyring."""
        return _key(GEMINI_ENV, GEMINI_KEY_NAME)

    def gemini_key_source(self) -> str:
        return _key_source(GEMINI_ENV, GEMINI_KEY_NAME)

    def set_gemini_key(self, key: str | None) -> None:
        """Store (or with None, remove) the key in the OS keyring. Raises KeyringUnavailable."""
        _set_key(GEMINI_KEY_NAME, key, "GEMINI_API_KEY")

    def openai_key(self) -> str | None:
        """The OpenAI-compatible server's key from ``OPENAI_API_KEY`` or the keyring (None: send none)."""
        return _key(OPENAI_ENV, OPENAI_KEY_NAME)

    def openai_key_source(self) -> str:
        return _key_source(OPENAI_ENV, OPENAI_KEY_NAME)

    def set_openai_key(self, key: str | None) -> None:
        """Store (or with None, remove) the key in the OS keyring. Raises KeyringUnavailable."""
        _set_key(OPENAI_KEY_NAME, key, "OPENAI_API_KEY")

    def sync_passphrase(self, device_id: str) -> str | None:
        """An encrypted sync folder's passphrase from ``MONCHAT_SYNC_PASSPHRASE`` or the keyring (None: neither)."""
        return _key(SYNC_PASSPHRASE_ENV, f"{SYNC_PASSPHRASE_NAME}/{device_id}")

    def set_sync_passphrase(self, device_id: str, passphrase: str | None) -> None:
        """Store (or with None, remove) it in the OS keyring. Raises KeyringUnavailable."""
        _set_key(f"{SYNC_PASSPHRASE_NAME}/{device_id}", passphrase, SYNC_PASSPHRASE_ENV[0])

    def keyring_usable(self) -> bool:
        """Whether this machine has a keyring that keeps secrets (not the "null" or "fail" stand-in)."""
        import keyring
        import keyring.errors

        try:
            backend = keyring.get_keyring()
        except keyring.errors.KeyringError as exc:
            log.warning("the OS keyring could not be opened: %s", exc)
            return False
        module = type(backend).__module__
        if module.startswith(("keyring.backends.null", "keyring.backends.fail")):
            return False
        priority = getattr(backend, "priority", 1)
        return not (isinstance(priority, (int, float)) and priority <= 0)


def _key(env: tuple[str, ...], name: str) -> str | None:
    for variable in env:
        if os.environ.get(variable):
            register(os.environ[variable])  # hidden even after the variable is unset
            return os.environ[variable]
    import keyring
    import keyring.errors

    try:
        key = keyring.get_password(SERVICE, name)
    except keyring.errors.KeyringError as exc:
        # Reported as "no key" by the caller, whose hint names the variable; the cause is logged.
        log.warning("the OS keyring could not be read: %s", exc)
        return None
    register(key)  # never in a log, an error or a report (core/redact.py)
    return key


def _key_source(env: tuple[str, ...], name: str) -> str:
    for variable in env:
        if os.environ.get(variable):
            return variable
    import keyring
    import keyring.errors

    try:
        key = keyring.get_password(SERVICE, name)
        register(key)
        if key:
            return "keyring"
    except keyring.errors.KeyringError as exc:
        log.warning("the OS keyring could not be read: %s", exc)
    return ""


def _set_key(name: str, key: str | None, variable: str) -> None:
    register(key)
    import keyring
    import keyring.errors

    try:
        if key:
            keyring.set_password(SERVICE, name, key)
            if keyring.get_password(SERVICE, name) != key:
                # The "null" keyring (no desktop keyring on this machine) accepts and drops it.
                raise keyring.errors.KeyringError("the keyring did not keep the key")
        else:
            try:
                keyring.delete_password(SERVICE, name)
            except keyring.errors.PasswordDeleteError:
                pass
    except keyring.errors.KeyringError as exc:
        raise KeyringUnavailable(
            f"The OS keyring could not store the key ({exc}).",
            f"Set {variable} in your environment instead; monchat never writes keys to its own files.",
        ) from exc
