"""History and memory in and out (``app.transfer``): File → Import…, Export…, Import memory…, Export memory… and
``monchat import`` / ``monchat export`` call these, so the window and the terminal do the same thing."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..paths import Paths, write_private
from ..types import Clock


class Transfer:
    """Args:
        logbook, archive: the messages (logged and archived).
        memory: the ``MemoryService`` (its memories, its readable Markdown, the review queue).
        settings: for the default persona of imported messages.
        personas: surface personas by name, so an import can name whose conversation it was.
        paths: the data folder (the flush lock a memory import holds).
    """

    def __init__(self, logbook, archive, memory, settings, personas, paths: Paths, clock: Clock) -> None:
        self.logbook, self.archive, self.memory = logbook, archive, memory
        self.settings, self.personas, self.paths, self.clock = settings, personas, paths, clock

    # ---- history ---------------------------------------------------------------
    def import_history(self, path: Path, *, persona: str | None = None, skip_bad: bool = False,
                       progress: Callable[[int, int], None] | None = None, default_persona: str | None = None):
        """A chat export into the logs (``core/transfer/importers.py``); its ``ImportReport``. ``default_persona``:
        who answered in a line that names no persona (else ``chat.persona``)."""
        from .importers import import_file
        return import_file(path, self.logbook, self.archive, default_persona=default_persona or self.settings.chat.persona,
                           persona=persona, persona_names={p.name: p.id for p in self.personas.surface.values()},
                           skip_bad=skip_bad, now=self.clock(), tz=self.logbook.tz, progress=progress)

    def history_text(self, kind: str) -> str:
        """``"jsonl"``: every message, archived or not; ``"markdown"``: the readable memory."""
        if kind == "jsonl":
            from .messages import export_jsonl_text
            return export_jsonl_text(self.logbook, self.archive)
        return self.memory.markdown()

    def export_history(self, path: Path, kind: str) -> Path:
        write_private(path, self.history_text(kind))  # whole or not at all, 0600
        return path

    # ---- memory ----------------------------------------------------------------
    def memory_text(self, form: str) -> str:
        """Every memory with its history and evidence: ``"json"`` (docs/memory-export.md) or ``"markdown"``."""
        from .memory_export import export_json, export_markdown
        return (export_json if form == "json" else export_markdown)(self.memory.memories, self.clock())

    def export_memory(self, path: Path, form: str) -> Path:
        write_private(path, self.memory_text(form))
        return path

    def import_memory(self, path: Path | None = None, text: str | None = None, source: str = "pasted"):
        """A memory file or pasted list into the review queue; its ``MemoryImportReport``."""
        from .memory_import import import_memory
        return import_memory(self, path, text, source)  # reads .paths and .memory (never .archive)

    def quoted(self, memory_id: str) -> list[dict]:
        """What the file a memory came from quoted as its grounds (``{text, said_at, persona}``), kept with its review
        items, open or closed: quoted material, never the user's words here (``store/quoted.py``)."""
        from ..store.quoted import QuotedStore
        return QuotedStore(self.memory.store).of_memory(memory_id)
