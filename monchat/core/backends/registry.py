"""Which backend answers: ``--backend``/``--model``, else settings, else the first local one that works.

The automatic choice never picks a cloud: it tries Ollama, then an OpenAI-compatible
server, each only while its address is this computer or the local network, then the
embedded model. Gemini, or an OpenAI-compatible server elsewhere, answers only when
chosen (``--backend``, settings, a persona's own backend).

Instances are built lazily and kept, so the embedded model loads once and stays warm. An
adapter's module (and its SDK) is imported only when that adapter is built; the automatic
choice asks with plain HTTP (``autoprobe``) and builds only the backend it picks.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from pathlib import Path
from typing import Callable

from ..errors import BackendUnavailable, CloudConsentNeeded, KnownError
from ..privacy.secrets import SecretStore
from ..privacy.cloud import CloudConsent, Destination, destination, is_local_url
from ..settings import Settings
from . import autoprobe
from .addresses import ollama_host, resolve_base_url
from .base import Backend
from .retry import RetryPolicy

log = logging.getLogger(__name__)

BACKEND_NAMES = ("ollama", "openai", "gemini", "embedded")
# What the automatic choice tries, in order; each is taken only when its address is local.
AUTO_ORDER = ("ollama", "openai", "embedded")


class HeldClient:
    """An SDK client whose every call first asks ``hold`` (which raises while its destination is not agreed to);
    closing it never asks."""

    def __init__(self, inner, hold: Callable[[], None]) -> None:
        self._inner = inner
        self._hold = hold

    def __getattr__(self, name: str):
        if name != "close":
            self._hold()
        return getattr(self._inner, name)


class BackendRegistry:
    def __init__(self, settings: Settings, secrets: SecretStore, state, *,
                 backend: str | None = None, model: str | None = None,
                 pinned: Backend | None = None, models_dir=None,
                 resolve_model: Callable[[str, Path], tuple[str, str]] | None = None) -> None:
        self.settings = settings
        self.secrets = secrets
        self.state = state  # get_state/set_state (the Store), for Gemini's cache handle
        self.forced_backend = backend
        self.forced_model = model
        self._instances: dict[tuple[str, str], Backend] = {}
        self._auto: str | None = None
        self._lock = threading.Lock()
        self.pinned = pinned  # one backend for everything (tests, benchmarks)
        self.models_dir = models_dir  # downloaded embedded models (Paths.models_dir)
        # A catalog name or a .gguf path → (file, title): the models' catalog (``models/catalog.py`` ``resolve``),
        # given by app.py, since models sit above the backends (the speed probe runs an embedded backend).
        self.resolve_model = resolve_model

    # ---- construction --------------------------------------------------
    def default_model(self, name: str) -> str:
        s = self.settings
        return {"ollama": s.ollama.model, "openai": s.openai.model, "gemini": s.gemini.model,
                "embedded": s.embedded.model_path}[name]

    def retry_policy(self) -> RetryPolicy:
        """How flush calls retry transient failures, from settings."""
        flush = self.settings.flush
        return RetryPolicy(attempts=flush.retries + 1, base_delay_s=flush.retry_delay_s,
                           jitter_s=flush.retry_delay_s)

    def build(self, name: str, model: str = "") -> Backend:
        """A new adapter (not cached)."""
        s = self.settings
        model = model or self.default_model(name)
        retry = self.retry_policy()
        if name == "ollama":
            from .ollama import OllamaBackend
            ollama = OllamaBackend(model, host=s.ollama.host, num_ctx=s.ollama.num_ctx,
                                   keep_alive=s.ollama.keep_alive, timeout_s=s.ollama.timeout_s,
                                   parallel=s.ollama.parallel, retry=retry)
            # Its chat, warm, list and pull go through one client: held while an Ollama elsewhere is not agreed to.
            ollama._client = HeldClient(ollama._client, lambda: self.refuse_if_held(ollama))  # type: ignore[assignment]
            return ollama
        if name == "openai":
            from .openai_compat import OpenAICompatBackend
            adapter = OpenAICompatBackend(model, base_url=s.openai.base_url, api_key=self.secrets.openai_key,
                                          context_length=s.openai.context_length, timeout_s=s.openai.timeout_s,
                                          state=self.state, json_mode=s.openai.json_mode,
                                          parallel=s.openai.parallel, retry=retry)
            # Its one door to the network (``_client``) refuses while a server elsewhere is not agreed to, so no
            # caller — the window's meter, a model list, a background task — contacts it before a yes.
            adapter.hold = lambda: self.refuse_if_held(adapter)
            return adapter
        if name == "gemini":
            from .gemini import GeminiBackend
            return GeminiBackend(model, api_key=self.secrets.gemini_key, api_version=s.gemini.api_version,
                                 base_url=s.gemini.base_url, cache_ttl_s=s.gemini.cache_ttl_s,
                                 timeout_s=s.gemini.timeout_s, state=self.state,
                                 flush_thinking_budget=s.gemini.flush_thinking_budget, retry=retry)
        if name == "embedded":
            from .embedded import EmbeddedBackend
            if self.resolve_model is None:
                raise BackendUnavailable("This registry was given no model catalog.", "Build it with build_app().")
            # ``model``: a catalog name or a .gguf path ("" is the bundled SmolLM2).
            path, title = self.resolve_model(model, self.models_dir)
            # Its retries are for cut-off answers, asked again at once: there is no server to wait for.
            return EmbeddedBackend(path, n_ctx=s.embedded.n_ctx, threads=s.embedded.threads,
                                   max_tokens=s.embedded.max_tokens, name=title,
                                   retry=dataclasses.replace(retry, base_delay_s=0.0, jitter_s=0.0))
        raise BackendUnavailable(f"Unknown backend {name!r}.", f"Use one of: {', '.join(BACKEND_NAMES)}.")

    def get(self, name: str, model: str = "") -> Backend:
        if self.pinned is not None:
            return self.pinned
        # An embedded model is cached by its file's name (catalog name or path): loaded once, kept warm.
        model = model or self.default_model(name)
        with self._lock:
            key = (name, model)
            if key not in self._instances:
                self._instances[key] = self.build(name, model)
            return self._instances[key]

    def reset(self) -> None:
        """Forget built backends and the automatic choice (after settings change)."""
        self.close()
        with self._lock:
            self._instances.clear()
            self._auto = None

    def trial(self, settings: Settings, secrets) -> "BackendRegistry":
        """A throwaway registry for settings not saved yet (Settings → Test connection, the model lists)."""
        return BackendRegistry(settings, secrets, self.state, resolve_model=self.resolve_model)

    def close(self) -> None:
        """Close every backend built so far (at exit)."""
        with self._lock:
            instances = list(self._instances.values())
        for backend in instances:
            backend.close()

    # ---- choice --------------------------------------------------------
    def chosen_name(self) -> str:
        """The backend name in force: CLI option, else settings, else the first that works."""
        if self.pinned is not None:
            return self.pinned.name
        if self.forced_backend:
            return self.forced_backend
        if self.settings.backend.name != "auto":
            return self.settings.backend.name
        if self._auto is None:
            self._auto = self._first_working()
        return self._auto

    def chosen_model(self, name: str) -> str:
        if self.forced_model:
            return self.forced_model
        if self.settings.backend.model and (self.forced_backend or self.settings.backend.name != "auto"):
            return self.settings.backend.model
        return self.default_model(name)

    def default(self) -> Backend:
        if self.pinned is not None:
            return self.pinned
        name = self.chosen_name()
        return self.get(name, self.chosen_model(name))

    def for_persona(self, persona) -> Backend:
        """A persona may name its own backend/model; CLI options still win."""
        if self.pinned is None and not self.forced_backend and not self.forced_model and persona.backend:
            return self.get(persona.backend, persona.model)
        return self.default()

    def planned_destination(self, persona=None) -> Destination | None:
        """Where a chat with ``persona`` (or a flush, with None) would send your memory, without I/O.

        None when the backend is the automatic choice, which is always local. Building an
        adapter makes no request, so the GUI can ask before the first message goes to a cloud.
        """
        if self.pinned is not None:
            return destination(self.pinned)
        if persona is not None and persona.backend and not self.forced_backend and not self.forced_model:
            return destination(self.get(persona.backend, persona.model))
        if not self.forced_backend and self.settings.backend.name == "auto":
            return None
        name = self.chosen_name()
        return destination(self.get(name, self.chosen_model(name)))

    def held(self, backend: Backend) -> str:
        """Why nothing may contact ``backend`` now ("not agreed yet": a destination that is not this computer or
        your network, not agreed to on this machine), or "" when it may. ``status``, ``doctor`` and the
        window's checks ask this before any request; chat and flush ask the user (``cli/consent.py``,
        ``gui/chat/outbound.py``)."""
        return CloudConsent(self.state).held(destination(backend))

    def refuse_if_held(self, backend: Backend) -> None:
        """Return when ``backend`` may be contacted; else raise, before any request.

        Raises:
            CloudConsentNeeded: its destination is elsewhere and not agreed to on this machine.
        """
        held = self.held(backend)
        if held:
            raise CloudConsentNeeded(f"{backend.name} at {backend.where()} is not on this computer or your network: "
                                     f"not contacted: {held}.",
                                     "monchat asks before anything goes there: answer once in `monchat chat` at a "
                                     "terminal or in the window, or choose a local backend (`monchat settings`).")

    def _first_working(self) -> str:
        """The first local backend that answers, asked without building adapters or importing SDKs."""
        s = self.settings
        for name in AUTO_ORDER:
            if name == "embedded":  # the last resort: its own error says what is missing when it is used
                break
            try:
                where = ollama_host(s.ollama.host) if name == "ollama" else resolve_base_url(s.openai.base_url)
            except KnownError as exc:
                log.info("backend %s not usable: %s", name, exc)
                continue
            if not is_local_url(where):
                log.info("automatic choice skips %s at %s: not local (choose it to use it)", name, where)
                continue
            if name == "ollama":
                works = autoprobe.ollama_has_model(where, self.default_model(name))
            else:
                works = autoprobe.openai_has_model(where, self.default_model(name), self.secrets.openai_key)
            if works:
                log.info("automatic backend choice: %s", name)
                return name
        log.info("automatic backend choice: embedded")
        return "embedded"

    def escalation(self) -> Backend | None:
        """The larger model a low-confidence judgement is re-asked with, if set."""
        spec = self.settings.backend.escalation.strip()
        if not spec:
            return None
        name, _, model = spec.partition(":")
        if name not in BACKEND_NAMES:
            raise BackendUnavailable(f"backend.escalation {spec!r} names no backend.",
                                     "Write it as ollama:MODEL, openai:MODEL or gemini:MODEL.")
        return self.get(name, model)
