"""Where the server backends are: addresses worked out from settings and the environment.

Standard library only, so the automatic backend choice, ``status`` and the cloud
question can say where a backend is without importing its SDK.
"""

from __future__ import annotations

import ipaddress
import os
import urllib.parse

from ..errors import SettingsError

DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_PORT = 11434
DEFAULT_BASE_URL = "http://127.0.0.1:1234/v1"


def ollama_host(setting: str) -> str:
    """The Ollama address in force: the setting, else ``OLLAMA_HOST``, else this computer's port 11434."""
    return normalise_host(setting or os.environ.get("OLLAMA_HOST", ""))


def normalise_host(host: str) -> str:
    """Turn ``OLLAMA_HOST``-style text into a full URL, as the ollama client does.

    ``""`` → ``http://127.0.0.1:11434``, ``":5000"`` → ``http://127.0.0.1:5000``,
    ``"https://box"`` → ``https://box:443``.

    Raises:
        SettingsError: the text is not an address.
    """
    text = (host or "").strip()
    port = DEFAULT_PORT
    scheme, _, hostport = text.partition("://")
    if not hostport:
        scheme, hostport = "http", text
    elif scheme == "http":
        port = 80
    elif scheme == "https":
        port = 443
    try:
        split = urllib.parse.urlsplit(f"{scheme}://{hostport}")
        name = split.hostname or "127.0.0.1"
        port = split.port or port
    except ValueError as exc:
        raise SettingsError(f"The Ollama address {host!r} is not valid ({exc}).",
                            "Set ollama.host (or OLLAMA_HOST) like http://127.0.0.1:11434.") from exc
    try:
        if isinstance(ipaddress.ip_address(name), ipaddress.IPv6Address):
            name = f"[{name}]"
    except ValueError:
        pass  # a host name, not an IP address
    path = split.path.strip("/")
    return f"{scheme}://{name}:{port}/{path}" if path else f"{scheme}://{name}:{port}"


def resolve_base_url(setting: str) -> str:
    """The base URL in force: the setting, else ``OPENAI_BASE_URL``, else LM Studio's default."""
    url = (setting or os.environ.get("OPENAI_BASE_URL", "") or DEFAULT_BASE_URL).strip()
    return url.rstrip("/")
