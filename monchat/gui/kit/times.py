"""A stored time as the window shows it: ``YYYY-MM-DD HH:MM`` in the user's zone, the same in every window.

A message's ``ts`` keeps the offset it was said in (``+09:00``); shown as stored, the review queue and the Memory
window gave each line its own zone while Search gave the machine's. Every list of times goes through ``shown_time``
with the zone the app reads the logs in (``MemoryService.tz``, ``LogBook.tz``: None is the machine's zone).
"""

from __future__ import annotations

from datetime import tzinfo

from ...core.types import parse_ts


def shown_time(value, tz: tzinfo | None = None) -> str:
    """``value`` (ISO text with an offset) as ``YYYY-MM-DD HH:MM`` in ``tz``; text that is no time, as it is."""
    text = str(value or "")
    try:
        return parse_ts(text).astimezone(tz).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return text[:16].replace("T", " ")
