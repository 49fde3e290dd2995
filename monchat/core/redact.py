"""API keys never leave in what monchat logs, prints or reports.

A server may echo the key it was sent (an OpenAI-compatible 401: "Incorrect API key provided:
sk-…"), and that text travels on into an error, ``monchat.log``, stderr, a crash report, the
window and ``doctor --json``. Each of those passes through ``redact`` — at the one place where
it is worded: ``KnownError``'s message and hint, the log's formatter (``RedactingFormatter``,
on every handler monchat installs, so records, their arguments and tracebacks alike), the crash
report writer, the bug line on stderr and the doctor report.

The keys are those monchat could send: the environment's ``OPENAI_API_KEY``, ``GEMINI_API_KEY``
and ``GOOGLE_API_KEY`` (read at each call, so a key set later counts), and every key read from or
stored in the OS keyring in this process (``SecretStore`` calls ``remember``). They are
process-wide, as the environment is, hence a module-level set rather than an object passed in:
the logging machinery and the exception classes have no composition root to receive it from.
A value shorter than ``MIN_KEY_CHARS`` is no key (a local server's placeholder such as "none")
and replacing it would garble ordinary words.
"""

from __future__ import annotations

import logging
import os
import threading

KEY_VARIABLES = ("OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
MIN_KEY_CHARS = 8
HIDDEN = "[API key hidden]"

_remembered: set[str] = set()
_lock = threading.Lock()


def remember(key: str | None) -> None:
    """Hide ``key`` from everything monchat writes from now on (a key read from or stored in the keyring)."""
    if key and len(key.strip()) >= MIN_KEY_CHARS:
        with _lock:
            _remembered.add(key.strip())


register = remember  # the name a reader of a secret calls (models/download.py)


def _keys() -> list[str]:
    found = {os.environ.get(name, "").strip() for name in KEY_VARIABLES}
    with _lock:
        found |= _remembered
    return sorted((k for k in found if len(k) >= MIN_KEY_CHARS), key=len, reverse=True)  # longest first


def redact(text: str) -> str:
    """``text`` with every configured API key replaced by ``HIDDEN``."""
    if not isinstance(text, str) or not text:
        return text
    for key in _keys():
        if key in text:
            text = text.replace(key, HIDDEN)
    return text


def redact_tree(value):
    """``redact`` over every string in a JSON-like value (a report of dicts and lists)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: redact_tree(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_tree(v) for v in value)
    return value


class RedactingFormatter(logging.Formatter):
    """A formatter whose whole output (message, arguments, traceback) has the API keys hidden."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def redact_last_resort() -> None:
    """Hide keys in what logging prints to stderr before monchat's own handler is installed."""
    if logging.lastResort is not None and not isinstance(logging.lastResort.formatter, RedactingFormatter):
        logging.lastResort.setFormatter(RedactingFormatter())
