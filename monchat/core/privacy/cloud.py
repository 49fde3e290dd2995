"""Where your words go: which addresses count as this computer or your network, and consent to a cloud.

monchat is local-first. A backend whose server runs on this computer (loopback) or on
your own network (a private, link-local or unique-local address, a bare host name, a
``.local``/``.lan``/``.home.arpa`` name) is *local*; anything else is a cloud. Names are
judged as written, never resolved: a public name that happens to resolve to a private
address is still treated as elsewhere, which errs towards asking.

The automatic backend choice only takes local backends. A cloud backend is used when
the user chose it; the GUI asks once per backend and address before the first message
or flush goes there (``CloudConsent``), saying what is sent: the persona, your memory
and the recent conversation.
"""

from __future__ import annotations

import ipaddress
import urllib.parse
from dataclasses import dataclass

LAN_SUFFIXES = (".local", ".lan", ".home.arpa", ".internal", ".localhost")
CONSENT_KEY = "privacy.cloud_ok.{where}"


def is_local_url(url: str) -> bool:
    """Whether ``url`` points at this computer or the local network (see the module docstring)."""
    text = (url or "").strip()
    if "://" not in text:
        text = f"http://{text}"
    try:
        host = (urllib.parse.urlsplit(text).hostname or "").lower()
    except ValueError:
        return False
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost" or "." not in host or host.endswith(LAN_SUFFIXES)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_private or address.is_link_local


@dataclass(frozen=True)
class Destination:
    """Who sees what a backend is sent.

    Attributes:
        backend: the backend's name (ollama, openai, gemini, embedded).
        model: the model it asks.
        where: the address the requests go to ("this computer" for an in-process model).
        local: True for this computer or the local network.
    """

    backend: str
    model: str
    where: str
    local: bool

    def to_dict(self) -> dict:
        return {"backend": self.backend, "model": self.model, "where": self.where, "local": self.local}

    def sentence(self) -> str:
        """One line for ``status`` and ``doctor``."""
        place = "local" if self.local else "NOT local: a cloud service"
        return f"{self.backend} ({self.model or 'its default model'}) at {self.where} — {place}"


def destination(backend) -> Destination:
    """Where ``backend`` sends the persona, the memory and the conversation."""
    return Destination(backend.name, backend.model, backend.where(), backend.is_local())


class CloudConsent:
    """Remembers that the user agreed to send to one cloud destination (kept in the database's state)."""

    def __init__(self, state) -> None:
        self.state = state  # get_state/set_state (the Store)

    @staticmethod
    def _key(dest: Destination) -> str:
        return CONSENT_KEY.format(where=f"{dest.backend}@{dest.where}")

    def needed(self, dest: Destination) -> bool:
        """True when ``dest`` is a cloud the user has not agreed to yet."""
        return not dest.local and self.state.get_state(self._key(dest)) != "yes"

    def grant(self, dest: Destination) -> None:
        self.state.set_state(self._key(dest), "yes")

    def revoke(self, dest: Destination) -> None:
        self.state.set_state(self._key(dest), None)
