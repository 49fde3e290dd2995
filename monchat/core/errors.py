"""Two error families.

``KnownError`` is the environment's fault or the user's input: it carries a
user-safe ``message``, a ``hint`` saying what to do, and a stable ``code`` the
GUI can word in the user's language. Anything else that escapes is our bug and
becomes a crash report.
"""

from __future__ import annotations


class KnownError(Exception):
    """An error the user can act on.

    Args:
        message: what happened, safe to show.
        hint: what to do about it.
    """

    code = "error"
    exit_code = 1

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  → {self.hint}" if self.hint else self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "hint": self.hint}


class SettingsError(KnownError):
    code = "settings"


class GateClosed(KnownError):
    """Too many unflushed log files: chat waits for a flush."""

    code = "gate_closed"
    exit_code = 3


class BackendError(KnownError):
    """A backend failed in a way we can describe."""

    code = "backend"
    exit_code = 4


class BackendUnreachable(BackendError):
    code = "backend_unreachable"


class ModelNotFound(BackendError):
    code = "model_not_found"


class AuthFailed(BackendError):
    code = "auth_failed"


class RateLimited(BackendError):
    code = "rate_limited"


class BackendUnavailable(BackendError):
    """The backend cannot be used here at all (missing package or key)."""

    code = "backend_unavailable"


class MalformedReply(BackendError):
    """The model answered, but not in the shape we asked for."""

    code = "malformed_reply"


class InputError(KnownError):
    """A file or argument the user gave us is not usable."""

    code = "input"
    exit_code = 2


class NotFound(KnownError):
    code = "not_found"
    exit_code = 2


class PersonaError(KnownError):
    code = "persona"
    exit_code = 2


class FlushRunning(KnownError):
    """A second flush was asked for while one runs."""

    code = "flush_running"


class KeyringUnavailable(KnownError):
    """The OS keyring cannot store a secret here."""

    code = "keyring"
