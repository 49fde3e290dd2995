"""What a long run of model calls tells its caller: progress as it goes, and the cancel that stops it.

The flush's stages and the background track's calls report through these; they sit below both so
neither reaches up into the other for them (``flush/records.py`` names them for the flush's callers).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import KnownError
from ..vocabulary.states import FlushStage


class FlushCancelled(KnownError):
    code = "flush_cancelled"

    def __init__(self) -> None:
        super().__init__("The flush was cancelled; nothing was changed.",
                         "Run it again when you are ready; the logs are still there.")


@dataclass
class FlushProgress:
    stage: FlushStage  # a stage's name as a string is taken and checked: a misspelt one raises ValueError
    persona: str | None
    done: int
    total: int
    message: str = ""
    unread: int = 0  # score: parts this persona read without a usable answer for every line
    part: int = 0  # score, while an answer arrives: the part being read
    tokens: int = 0  # score, while an answer arrives: its tokens so far (0 for a report that is not one)

    def __post_init__(self) -> None:
        self.stage = FlushStage(self.stage)
