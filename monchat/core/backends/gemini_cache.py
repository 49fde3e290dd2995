"""Gemini's explicit context cache of the system prompt, for one model.

Why a cache: the system prompt (persona plus memory layers) is large and byte-identical
from one flush to the next, yet every turn resends it. An explicit cache bills those
tokens at the cached rate every time; implicit caching (on by default for 2.5 models)
only may.

When: only when the prompt reaches the model's minimum cache size. The minimum is not
hard-coded. It starts at 1024 estimated tokens (``monchat.core.tokens``); the API's
"Cached content is too small … min_total_token_count=N" 400 teaches the real one, which
is remembered per model (state ``gemini.cache_min.<model>``) in our own estimate's units,
so the same prompt is never tried twice.

How: the cache holds only the system instruction and is identified by
sha256(model + system). Its handle (name, hash, created/refreshed epoch) is kept in memory
and in the store (state ``gemini.cache.<model>``), so a new process reuses it. A different
prompt (flush, persona switch) deletes the old cache and creates a new one. Past half its
TTL, the TTL is renewed (PATCH). A request naming a cache the API no longer knows (403/404:
expired or deleted) is the backend's to notice; it calls ``forget`` and asks again once.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import threading
from dataclasses import asdict, dataclass

from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from ..clock import system_epoch
from ..tokens import count_tokens

log = logging.getLogger(__name__)

DEFAULT_CACHE_MIN_TOKENS = 1024
CACHE_KEY = "gemini.cache.{model}"
CACHE_MIN_KEY = "gemini.cache_min.{model}"

_MIN_TOTAL = re.compile(r"min_total_token_count=(\d+)")
_TOTAL = re.compile(r"(?<!min_)total_token_count=(\d+)")


@dataclass
class CacheHandle:
    """Where the explicit cache of one system prompt lives."""

    name: str
    digest: str  # sha256(model + system)
    model: str
    created: float  # epoch seconds
    refreshed: float  # epoch seconds of creation or the last TTL renewal
    ttl_s: int

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "CacheHandle":
        data = json.loads(text)
        return cls(name=str(data["name"]), digest=str(data["digest"]), model=str(data["model"]),
                   created=float(data["created"]), refreshed=float(data["refreshed"]),
                   ttl_s=int(data["ttl_s"]))


def prompt_digest(model: str, system: str) -> str:
    return hashlib.sha256((model + "\x00" + system).encode("utf-8")).hexdigest()


class PromptCache:
    """Decides, per request, which cache (if any) carries the system prompt; creates, renews and
    deletes caches through the SDK client it is given. Thread-safe: the chat and flush threads
    share one backend."""

    def __init__(self, model: str, ttl_s: int, state=None) -> None:
        """Args:
            state: get_state/set_state (the Store) to keep the handle and the learned minimum
                across processes, or None for memory only.
        """
        self.model = model
        self.ttl_s = int(ttl_s)
        self._state = state
        self._lock = threading.Lock()  # one cache decision at a time
        self._handle: CacheHandle | None = None
        self._handle_loaded = False
        self._threshold_estimate: int | None = None  # in our estimate's tokens
        self._unsupported = False

    def name_for(self, client: genai.Client, system: str) -> str | None:
        """The cache name to send for this system prompt, or None to send it uncached."""
        if not system or self._unsupported:
            return None
        estimate = count_tokens(system)
        if estimate < self._threshold():
            return None
        digest = prompt_digest(self.model, system)
        with self._lock:
            handle = self._load()
            now = system_epoch()
            if handle and handle.digest == digest:
                age = now - handle.refreshed
                if age < handle.ttl_s / 2:
                    return handle.name
                if age < handle.ttl_s and self._renew(client, handle, now):
                    return handle.name
                self._save(None)  # expired or gone: nothing left to delete
            elif handle:
                self._delete_quietly(client, handle.name)
                self._save(None)
            return self._create(client, system, digest, estimate, now)

    def _create(self, client: genai.Client, system: str, digest: str, estimate: int,
                now: float) -> str | None:
        try:
            cache = client.caches.create(model=self.model, config=types.CreateCachedContentConfig(
                system_instruction=system, ttl=f"{self.ttl_s}s", display_name=f"monchat-{digest[:12]}"))
        except genai_errors.ClientError as exc:
            message = str(exc.message or "")
            if exc.code == 400 and "too small" in message.lower():
                self._learn_minimum(message, estimate)
                return None
            if exc.code == 404 and "createCachedContent" in message:
                # A model that cannot cache still chats; don't ask again in this process.
                log.warning("gemini model %s cannot use an explicit cache; sending the prompt uncached",
                            self.model)
                self._unsupported = True
                return None
            raise
        handle = CacheHandle(name=cache.name or "", digest=digest, model=self.model, created=now,
                             refreshed=now, ttl_s=self.ttl_s)
        log.info("gemini cache %s created for a %s-token system prompt (ttl %ss)",
                 handle.name, estimate, self.ttl_s)
        self._save(handle)
        return handle.name

    def _renew(self, client: genai.Client, handle: CacheHandle, now: float) -> bool:
        """Renew the TTL. False when the API no longer knows the cache."""
        try:
            client.caches.update(name=handle.name,
                                 config=types.UpdateCachedContentConfig(ttl=f"{self.ttl_s}s"))
        except genai_errors.ClientError as exc:
            if exc.code in (403, 404):
                log.info("gemini cache %s is gone (%s); creating a new one", handle.name, exc.code)
                return False
            raise
        handle.refreshed = now
        handle.ttl_s = self.ttl_s
        self._save(handle)
        log.info("gemini cache %s TTL renewed", handle.name)
        return True

    def _delete_quietly(self, client: genai.Client, name: str) -> None:
        # Deleting is cleanup: a cache we fail to delete expires by its TTL, so the chat goes on.
        try:
            client.caches.delete(name=name)
            log.info("gemini cache %s deleted (system prompt changed)", name)
        except genai_errors.APIError as exc:
            log.warning("gemini cache %s could not be deleted (%s %s); it expires by its TTL",
                        name, exc.code, exc.status)

    def forget(self, name: str) -> None:
        """The API said it no longer knows cache ``name``: drop its handle (the next call creates one)."""
        with self._lock:
            handle = self._load()
            if handle and handle.name == name:
                self._save(None)

    def _load(self) -> CacheHandle | None:
        if not self._handle_loaded:
            self._handle_loaded = True
            raw = self._state.get_state(CACHE_KEY.format(model=self.model)) if self._state else None
            if raw:
                try:
                    self._handle = CacheHandle.from_json(raw)
                except (ValueError, KeyError, TypeError):
                    log.warning("gemini cache handle in the store is unreadable; ignoring it")
        return self._handle

    def _save(self, handle: CacheHandle | None) -> None:
        self._handle = handle
        if self._state is not None:
            self._state.set_state(CACHE_KEY.format(model=self.model), handle.to_json() if handle else None)

    def _threshold(self) -> int:
        """Estimated system-prompt tokens below which no cache is tried."""
        if self._threshold_estimate is None:
            self._threshold_estimate = DEFAULT_CACHE_MIN_TOKENS
            raw = self._state.get_state(CACHE_MIN_KEY.format(model=self.model)) if self._state else None
            if raw:
                try:
                    self._threshold_estimate = int(json.loads(raw)["threshold_estimate"])
                except (ValueError, KeyError, TypeError):
                    log.warning("gemini cache minimum in the store is unreadable; ignoring it")
        return self._threshold_estimate

    def _learn_minimum(self, message: str, estimate: int) -> None:
        """Remember the model's minimum from a "too small" 400, in our estimate's units.

        Our tokenizer only estimates Gemini's, so the API's minimum is scaled by the ratio the
        failed request showed, and never below this prompt's estimate + 1 (never retry it).
        """
        minimum = _MIN_TOTAL.search(message)
        total = _TOTAL.search(message)
        threshold = estimate + 1
        if minimum and total and int(total.group(1)) > 0:
            threshold = max(threshold, math.ceil(int(minimum.group(1)) * estimate / int(total.group(1))))
        elif minimum:
            threshold = max(threshold, int(minimum.group(1)))
        self._threshold_estimate = threshold
        log.info("gemini %s: system prompt too small to cache (API minimum %s); sending it uncached",
                 self.model, minimum.group(1) if minimum else "unknown")
        if self._state is not None:
            self._state.set_state(CACHE_MIN_KEY.format(model=self.model), json.dumps({
                "min_total_token_count": int(minimum.group(1)) if minimum else None,
                "threshold_estimate": threshold}))
