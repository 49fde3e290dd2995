"""`monchat flush` shows an answer's tokens as they arrive on a terminal, and never in a log file."""

from __future__ import annotations

import io
import sys

from monchat.cli.flush import _print_progress
from monchat.core.flush.records import FlushProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


ARRIVING = [FlushProgress("score", "base", 0, 2, f"Base is reading part 1 of 2: {n} tokens", part=1, tokens=n)
            for n in (1, 2, 3)]
READ = FlushProgress("score", "base", 1, 2, "Base read part 1 of 2")


def test_on_a_terminal_the_count_rewrites_one_line(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    for progress in ARRIVING + [READ]:
        _print_progress(progress)
    shown = terminal.getvalue()
    assert shown.count("\n") == 1  # the counts share one line, which the next report replaces
    assert shown.index("1 tokens") < shown.index("3 tokens") < shown.index("read part 1 of 2")


def test_into_a_file_only_the_parts_read_are_written(monkeypatch):
    written = io.StringIO()
    monkeypatch.setattr(sys, "stderr", written)
    for progress in ARRIVING + [READ]:
        _print_progress(progress)
    assert written.getvalue() == "[score base] Base read part 1 of 2\n"
