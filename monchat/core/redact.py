"""One list of secrets: no key or token leaves in what monchat logs, prints or reports.

A server may echo what it was sent (an OpenAI-compatible 401: "Incorrect API key provided: sk-…"; a
mirror whose error body lists the request's headers, ``Authorization: Bearer hf_…`` included), and that
text travels on into an error, ``monchat.log``, stderr, a crash report, the window and ``doctor --json``.
Each of those passes through ``redact`` — at the one place where it is worded: ``KnownError``'s message
and hint, the log's formatter (``RedactingFormatter``, on every handler monchat installs, so records, their
arguments and tracebacks alike), the crash report writer, the bug line on stderr and the doctor report.
A backup carries none of them: it leaves ``monchat.log`` and crash reports out (``transfer/backup.py``).

What is hidden, three ways:

- **The registry.** Every secret monchat reads is registered where it is read: the environment's
  ``SECRET_VARIABLES`` (read again at each call, so a variable set later counts), keys read from or
  stored in the OS keyring (``privacy/secrets.py``), keys typed in Settings and not yet stored, and the
  Hugging Face token a download sends (``models/download.py``) — each through ``register``.
  ``tests/test_one_secret_list.py`` fails when monchat reads a ``…_KEY``/``…_TOKEN`` variable this list
  does not name, or reads the keyring without registering what it got.
- **Headers, registered or not.** ``Authorization``, ``Proxy-Authorization``, ``api-key``, ``x-api-key``
  and ``x-goog-api-key`` followed by a value — as a header line, a JSON or Python mapping, a query
  parameter ``key=`` — keep their name and lose their value, so a credential monchat never read (a proxy's,
  a token file's) is hidden too.
- **Shapes.** A Hugging Face token (``hf_…``), an OpenAI key (``sk-…``) and a Google API key (``AIza…``)
  are hidden wherever they appear, registered or not.

The registry is process-wide, as the environment is, hence module state rather than an object passed in:
the logging machinery and the exception classes have no composition root to receive it from. A value
shorter than ``MIN_KEY_CHARS`` is no key (a local server's placeholder such as "none") and replacing it
would garble ordinary words.
"""

from __future__ import annotations

import logging
import os
import re
import threading

SECRET_VARIABLES = ("OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",  # the chat backends' keys
                    "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",  # what huggingface_hub sends to the Hub or HF_ENDPOINT
                    "MONCHAT_SYNC_PASSPHRASE")  # an encrypted sync folder's (core/sync/crypto.py)
KEY_VARIABLES = SECRET_VARIABLES  # the older name
SECRET_HEADERS = ("authorization", "proxy-authorization", "api-key", "x-api-key", "x-goog-api-key")
MIN_KEY_CHARS = 8
HIDDEN = "[API key hidden]"

_registered: set[str] = set()
_lock = threading.Lock()

# A secret header's name, what joins it to its value (": ", "=", '": "', "': '"), an optional scheme, the value.
_HEADER = re.compile(
    r"(?P<name>\b(?:" + "|".join(sorted(map(re.escape, SECRET_HEADERS), key=len, reverse=True)) + r")\b)"
    r"(?P<join>[\"']?[ \t]*[:=][ \t]*[\"']?)"
    r"(?P<scheme>(?:bearer|basic|token|key)[ \t]+)?"
    r"(?P<value>(?!\[API key hidden\])(?!(?:bearer|basic|token|key)[ \t]+\[API key hidden\])[^\s\"',;&}\])]+)",
    re.IGNORECASE)
_QUERY = re.compile(r"(?P<name>[?&](?:key|api_key|access_token|token)=)(?P<value>(?!\[API key hidden\])[^\s&\"'#]+)",
                    re.IGNORECASE)
_SHAPES = re.compile(r"\b(?:hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{30,})")


def register(secret: str | None) -> None:
    """Hide ``secret`` from everything monchat writes from now on; call it where the secret is read."""
    if secret and len(secret.strip()) >= MIN_KEY_CHARS:
        with _lock:
            _registered.add(secret.strip())


remember = register  # the older name


def secrets() -> list[str]:
    """Every secret known now: the registered ones and the environment's ``SECRET_VARIABLES``, longest first."""
    found = {os.environ.get(name, "").strip() for name in SECRET_VARIABLES}
    with _lock:
        found |= _registered
    return sorted((k for k in found if len(k) >= MIN_KEY_CHARS), key=len, reverse=True)


def _hide_header(match: re.Match) -> str:
    return f"{match['name']}{match['join']}{match['scheme'] or ''}{HIDDEN}"


def redact(text: str) -> str:
    """``text`` with every registered secret, secret header's value and key-shaped word replaced by ``HIDDEN``."""
    if not isinstance(text, str) or not text:
        return text
    text = _HEADER.sub(_hide_header, text)  # before the registry, so a header keeps its scheme word
    text = _QUERY.sub(lambda m: f"{m['name']}{HIDDEN}", text)
    for key in secrets():
        if key in text:
            text = text.replace(key, HIDDEN)
    return _SHAPES.sub(HIDDEN, text)


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
    """A formatter whose whole output (message, arguments, traceback) has every secret hidden."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def redact_last_resort() -> None:
    """Hide secrets in what logging prints to stderr before monchat's own handler is installed."""
    if logging.lastResort is not None and not isinstance(logging.lastResort.formatter, RedactingFormatter):
        logging.lastResort.setFormatter(RedactingFormatter())
