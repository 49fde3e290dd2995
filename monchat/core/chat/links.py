"""Links in replies: which a click may open.

A model's reply is text from outside: it can hold any URL, ``file://``, ``javascript:`` or a
custom scheme that starts a program included. Only ``http`` and ``https`` links with a host are
opened, and the GUI first shows where one goes (a link's text can say anything).
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass

OPENABLE_SCHEMES = ("http", "https")


@dataclass(frozen=True)
class LinkTarget:
    """A link that may be opened: the whole address and its host, for the user to read first."""

    url: str
    host: str


def openable_link(url: str) -> LinkTarget | None:
    """The link's target when it is an http(s) address with a host, else None (never opened)."""
    text = (url or "").strip()
    try:
        parts = urllib.parse.urlsplit(text)
        host = parts.hostname or ""
    except ValueError:
        return None
    if parts.scheme.lower() not in OPENABLE_SCHEMES or not host:
        return None
    return LinkTarget(url=text, host=host)
