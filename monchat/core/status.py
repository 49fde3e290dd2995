"""What ``monchat status`` shows (``App.status``): backend, gate, counts, warnings, as one dict.

The window's status bar reads the backend and the gate itself (``ChatService``).
"""

from __future__ import annotations

from .memory.pause import paused_since
from .privacy.cloud import destination
from .store.never import NeverStore


class StatusService:
    def __init__(self, *, settings, settings_warnings: list[str], paths, chat, logbook, archive, backends, memory,
                 learning, store) -> None:
        self.settings = settings
        self.settings_warnings = settings_warnings
        self.paths = paths
        self.chat = chat
        self.logbook = logbook
        self.archive = archive
        self.backends = backends
        self.memory = memory
        self.learning = learning
        self._store = store  # whether the database is read-only here; the user's own controls

    def report(self) -> dict:
        """``monchat status --json``: every key below, always."""
        gate = self.chat.gate()
        self.logbook.read_all()  # quarantines any unreadable line now, so the count below is current
        name = self.backends.chosen_name()
        counts = self.memory.counts()
        backend = self.backends.default()
        # a destination not agreed to is not contacted, not even for its model's size (issue 36)
        held = self.backends.held(backend)
        down = None if held else backend.not_running()  # a forced backend that does not answer is named so
        size = None if held else backend.model_size()  # asking may name the model (a server's first)
        context = None if held or down is not None else backend.context_length()  # may ask the server once
        goes_to = {**destination(backend).to_dict(), "contacted": not held, "held": held}
        return {
            "backend": name,
            "model": backend.model,
            # the model's parameters when the backend states them; "small" (< 1 B): memory built with it is unreliable
            "model_size": size.to_dict() if size is not None else None,
            # False: its server does not answer now ("Ollama is not running at …"); None: not contacted (held)
            "backend_running": None if held else down is None,
            "backend_problem": {"message": down.message, "hint": down.hint} if down is not None else None,
            # the context a turn and a flush's requests are sized for, in tokens, and where the figure comes from;
            # None (and ""): not contacted (held) or not running
            "context_length": context,
            "context_source": backend.context_source() if context is not None else "",
            # who is sent the persona, your memory and the recent conversation, whether it is local, and
            # whether it is held ("not agreed yet": status did not contact it)
            "memory_goes_to": goes_to,
            "unflushed_files": gate.unflushed_files,
            "gate": gate.state,
            "warn_at": gate.warn_at,
            "stop_at": gate.stop_at,
            "archived_messages": self.archive.count(),
            "quarantined_lines": len(self.logbook.quarantined()),
            "layers": counts["layers"],
            "review_queue": counts["queue"],  # the items waiting for review
            "review_rows": self.memory.review_rows(),  # the rows they make in the queue (near-duplicates as one)
            # the auto-approve thresholds the user's review decisions taught (core/memory/learning.py)
            "review_learning": self.learning.summary(),
            "persona": self.settings.chat.persona,
            # your own controls: memory paused (since when), off the record, never-remember rules (core/memory/)
            "memory_paused": paused_since(self._store),
            "off_record": self.logbook.off_record.summary(self.settings.off_record.hours).to_dict(),
            "never_rules": len(NeverStore(self._store).rules()),
            "data_dir": str(self.paths.data_dir),
            "settings_warnings": list(self.settings_warnings),
            # "" or why the database is read-only here (it was written by a newer monchat)
            "database_warning": self._store.newer_schema.message if self._store.newer_schema else "",
        }
