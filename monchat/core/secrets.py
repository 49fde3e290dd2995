"""API keys: from the environment or the OS keyring, never from a file we write."""

from __future__ import annotations

import logging
import os

import keyring
import keyring.errors

from .errors import KeyringUnavailable

log = logging.getLogger(__name__)

SERVICE = "monchat"
GEMINI_KEY_NAME = "gemini_api_key"
GEMINI_ENV = ("GEMINI_API_KEY", "GOOGLE_API_KEY")


class SecretStore:
    def gemini_key(self) -> str | None:
        """The Gemini key from ``GEMINI_API_KEY``, ``GOOGLE_API_KEY`` or the keyring."""
        for name in GEMINI_ENV:
            if os.environ.get(name):
                return os.environ[name]
        try:
            return keyring.get_password(SERVICE, GEMINI_KEY_NAME)
        except keyring.errors.KeyringError as exc:
            # Reported as "no key" by the caller, whose hint names GEMINI_API_KEY; the cause is logged.
            log.warning("the OS keyring could not be read: %s", exc)
            return None

    def gemini_key_source(self) -> str:
        for name in GEMINI_ENV:
            if os.environ.get(name):
                return name
        try:
            if keyring.get_password(SERVICE, GEMINI_KEY_NAME):
                return "keyring"
        except keyring.errors.KeyringError as exc:
            log.warning("the OS keyring could not be read: %s", exc)
        return ""

    def set_gemini_key(self, key: str | None) -> None:
        """Store (or with None, remove) the key in the OS keyring."""
        try:
            if key:
                keyring.set_password(SERVICE, GEMINI_KEY_NAME, key)
                if keyring.get_password(SERVICE, GEMINI_KEY_NAME) != key:
                    # The "null" keyring (no desktop keyring on this machine) accepts and drops it.
                    raise keyring.errors.KeyringError("the keyring did not keep the key")
            else:
                try:
                    keyring.delete_password(SERVICE, GEMINI_KEY_NAME)
                except keyring.errors.PasswordDeleteError:
                    pass
        except keyring.errors.KeyringError as exc:
            raise KeyringUnavailable(
                f"The OS keyring could not store the key ({exc}).",
                "Set GEMINI_API_KEY in your environment instead; monchat never writes keys to its own files.",
            ) from exc
