"""Where your words go: which addresses count as this computer or your network, and consent to a cloud.

monchat is local-first. A backend whose server runs on this computer (loopback) or on
your own network (an RFC 1918 private, link-local or unique-local address, a bare host name, a
``.local``/``.lan``/``.home.arpa`` name) is *local*; anything else is a cloud — a public,
documentation, shared or reserved address however it is spelt (``3405803785``, ``0xcb007109``,
``::ffff:203.0.113.9``), and any other name. Names are judged as written, never resolved: a
public name that happens to resolve to a private address is still treated as elsewhere,
which errs towards asking.

The automatic backend choice only takes local backends. A cloud backend is used when
the user chose it (or a restored ``settings.toml`` names it); the window and the terminal
ask once per backend and address before the first message or flush goes there
(``CloudConsent``), saying what is sent: the persona, your memory and the recent
conversation. Until then the destination is *held*: ``status`` and ``doctor`` say "not
contacted: not agreed yet" and make no request to it.
"""

from __future__ import annotations

import ipaddress
import re
import urllib.parse
from dataclasses import dataclass

LAN_SUFFIXES = (".local", ".lan", ".home.arpa", ".internal", ".localhost")
CONSENT_KEY = "privacy.cloud_ok.{where}"
# What an address IS, not what Python's ``is_private`` says: that also counts the documentation ranges
# (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24), benchmarking and reserved blocks, which are nobody's
# network here — a planted ``http://203.0.113.9/v1`` was called "local". Only these are.
THIS_COMPUTER = tuple(ipaddress.ip_network(n) for n in ("127.0.0.0/8", "::1/128", "0.0.0.0/32", "::/128"))
YOUR_NETWORK = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",  # RFC 1918
    "169.254.0.0/16", "fe80::/10",  # link-local
    "fc00::/7",  # unique-local
))
# How a resolver reads an IPv4 address written as numbers: up to four parts, each decimal, 0x-hex or 0-octal
# (``http://3405803785/`` and ``http://0xcb007109/`` are 203.0.113.9, not bare host names).
NUMERIC_HOST = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}$")


def _numeric_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The address ``inet_aton`` would read from ``host``; None when it reads none (a part too large, an octal
    part with 8 or 9), which the caller counts as not local."""
    parts: list[int] = []
    for part in host.split("."):
        if part.startswith("0x"):
            if len(part) == 2:
                return None
            parts.append(int(part, 16))
        elif len(part) > 1 and part.startswith("0"):
            if not set(part) <= set("01234567"):
                return None
            parts.append(int(part, 8))
        else:
            parts.append(int(part))
    *head, last = parts
    if any(p > 255 for p in head) or last >= 256 ** (4 - len(head)):
        return None
    value = last
    for index, byte in enumerate(head):
        value += byte << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def _address_is_local(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        else:
            address = ipaddress.IPv6Address(address.compressed.split("%")[0])  # a zone id says nothing
    return any(address in network for network in (*THIS_COMPUTER, *YOUR_NETWORK) if network.version == address.version)


def is_local_url(url: str) -> bool:
    """Whether ``url`` points at this computer or the local network (see the module docstring).

    Judged by what the address is: loopback, RFC 1918 private, link-local or unique-local addresses, and
    the names ``localhost``, bare host names and ``.local``/``.lan``/``.home.arpa`` (…) names are local; any
    other address (a public, documentation, shared or reserved one) and any other name is not.
    """
    text = (url or "").strip()
    if "://" not in text:
        text = f"http://{text}"
    try:
        host = urllib.parse.unquote(urllib.parse.urlsplit(text).hostname or "").lower()
    except ValueError:
        return False
    if not host:
        return False
    try:
        return _address_is_local(ipaddress.ip_address(host))
    except ValueError:
        pass  # not an address as written; perhaps one a resolver reads, else a name
    if NUMERIC_HOST.match(host):
        numeric = _numeric_ipv4(host)
        return numeric is not None and _address_is_local(numeric)
    name = host[:-1] if host.endswith(".") else host
    return name == "localhost" or ("." not in name and bool(name)) or name.endswith(LAN_SUFFIXES)


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


NOT_AGREED = "not agreed yet"  # what status and doctor say of a destination they did not contact


def consent_place(where: str) -> str:
    """The destination a yes is kept for: its address with scheme and host lower-cased and no trailing ``/``.

    Per address, not per service: a yes to one OpenAI-compatible server (OpenRouter) never admits another
    (a restored ``base_url``), and the model asked there does not matter.
    """
    text = (where or "").strip().rstrip("/")
    scheme, sep, rest = text.partition("://")
    if not sep:
        return text.lower()
    netloc, slash, path = rest.partition("/")
    return f"{scheme.lower()}://{netloc.lower()}{slash}{path}"


class CloudConsent:
    """Remembers that the user agreed to send to one cloud destination (kept in the database's state).

    A destination that is not this computer or your network is *held* until then: nothing is sent there,
    and ``status``, ``doctor`` and the automatic choice do not contact it either.
    """

    def __init__(self, state) -> None:
        self.state = state  # get_state/set_state (the Store)

    @staticmethod
    def _key(dest: Destination) -> str:
        return CONSENT_KEY.format(where=f"{dest.backend}@{consent_place(dest.where)}")

    def needed(self, dest: Destination) -> bool:
        """True when ``dest`` is a cloud the user has not agreed to yet."""
        if dest.local:
            return False
        if self.state is None:  # nowhere to remember a yes (a registry built without a store): never agreed
            return True
        legacy = CONSENT_KEY.format(where=f"{dest.backend}@{dest.where}")  # a yes kept before keys were normalised
        return self.state.get_state(self._key(dest)) != "yes" and self.state.get_state(legacy) != "yes"

    def held(self, dest: Destination) -> str:
        """Why nothing may contact ``dest`` now (``NOT_AGREED``), or "" when it may."""
        return NOT_AGREED if self.needed(dest) else ""

    def grant(self, dest: Destination) -> None:
        self.state.set_state(self._key(dest), "yes")

    def revoke(self, dest: Destination) -> None:
        self.state.set_state(self._key(dest), None)
        self.state.set_state(CONSENT_KEY.format(where=f"{dest.backend}@{dest.where}"), None)
