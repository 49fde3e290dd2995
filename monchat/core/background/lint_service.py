"""Knowledge lint on demand (``monchat lint``, the inbox's Check now), as a flush runs it: ``App.lint``."""

from __future__ import annotations

from ..errors import FlushRunning
from ..paths import held_lock
from ..privacy.cloud import CloudConsent, destination
from .lint import Lint, run


class LintService:
    """The lint findings and a run of lint now, under the flush lock (``core/background/lint.py`` does the work).

    Args:
        store, settings, prompts, paths, logbook, clock: as the app built them.
        backends: the registry whose default backend answers the LLM step.
    """

    def __init__(self, store, settings, prompts, paths, logbook, backends, clock) -> None:
        self._store = store
        self.settings = settings
        self.prompts = prompts
        self.paths = paths
        self.logbook = logbook
        self.backends = backends
        self.clock = clock

    def findings(self) -> list[dict]:
        """Every finding, newest first (the inbox's Lint tab, ``monchat lint``'s list)."""
        return Lint(self._store).findings()

    def run(self, no_llm: bool = False, consented_only: bool = False) -> dict:
        """Run lint now and return its summary.

        Args:
            no_llm: the program's rules only (the LLM step also needs ``background.lint_llm``).
            consented_only: skip the LLM step when its backend is a cloud the user has not agreed to send
                to yet (the GUI asks that only before a chat or a flush); ``skipped_cloud`` then names it.
        Raises:
            FlushRunning: a flush holds the flush lock (lint may queue reviews: not while a flush decides).
        """
        from . import views
        backend = self.backends.default() if not no_llm and self.settings.background.lint_llm else None
        skipped = ""
        if backend is not None and consented_only and CloudConsent(self._store).needed(destination(backend)):
            skipped, backend = backend.describe(), None
        with held_lock(self.paths.flush_lock) as held:
            if not held:
                raise FlushRunning("A flush is running in another monchat window or terminal.",
                                   "Check again (or run `monchat lint`) when it has finished.")
            summary = run(self._store, self.prompts, self.settings, backend, self.clock())
            views.rebuild(self._store, self.settings, self.clock(), self.logbook.tz)  # a memory sent to review
        summary["skipped_cloud"] = skipped
        return summary
