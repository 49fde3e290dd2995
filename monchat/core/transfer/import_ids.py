"""Ids of imported messages: from the source, never from the content alone.

Until issue 25 an imported message's id was a hash of (time, role, text, persona), so a second "ok"
at the same second (Claude) or a second "yes" in the same minute (SillyTavern's dates) was dropped
as a duplicate of the first. Now:

* a ChatGPT node or a Claude message gets an id from the export's own keys (conversation and
  message), so every message the export holds is one message;
* a monchat line that carries an ``id`` (monchat's export) keeps it;
* a SillyTavern line, or a monchat line without an ``id``, gets the content's id when it is the first
  with that content in the file, and for its n-th repeat the content's id with n: a repeat is a
  message, and the ids do not depend on lines elsewhere in the file (a message deleted in SillyTavern
  does not shift the ids of the ones after it, as a line number would).

Importing the same file twice adds nothing: the ids come out the same. A file imported with the old
scheme and imported again: the first message with each content still has the old id (SillyTavern,
monchat without ids), or it is matched to it (``Keyed.content_id``, once per old id, in
``transfer.place_messages``), so nothing doubles and the repeats the old import dropped are added.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..types import Message, content_message_id


@dataclass
class Keyed:
    """An imported message and the id its content alone gives it (an import before issue 25 gave it
    that id, so an earlier copy of it may carry it)."""

    message: Message
    content_id: str


def _digest(*parts: str) -> str:
    return "i" + hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:19]


class ImportIds:
    """Gives the messages of one import their ids, in the order the source holds them.

    Args:
        source: the export's format (``chatgpt``, ``claude``, ``sillytavern``, ``monchat``).
    """

    def __init__(self, source: str = "monchat") -> None:
        self.source = source
        self._seen: set[bytes] = set()  # content ids met so far (8 bytes each: a million messages stay small)
        self._repeats: dict[bytes, int] = {}  # how often a content id came again
        self._keys: set[str] = set()  # source ids given so far
        self._legacy = ""

    def assign(self, ts: str, role: str, text: str, persona: str, *, own_id: str | None = None,
               key: tuple | None = None) -> str:
        """The id of the next message.

        Args:
            own_id: the message's own id in a monchat file (kept as it is).
            key: its key in the source (e.g. conversation id and node id).
        """
        self._legacy = content_message_id(ts, role, text, persona)
        if own_id:
            return own_id
        if key is not None:
            message_id = _digest("source", self.source, *map(str, key))
            n = 1
            while message_id in self._keys:  # an export that holds one key twice: still two messages
                message_id = _digest("source", self.source, *map(str, key), str(n))
                n += 1
            self._keys.add(message_id)
            return message_id
        short = bytes.fromhex(self._legacy[1:17])
        if short not in self._seen:
            self._seen.add(short)
            return self._legacy
        n = self._repeats.get(short, 0) + 1
        self._repeats[short] = n
        return _digest("repeat", self._legacy, str(n))

    def keyed(self, message: Message) -> Keyed:
        """``message`` (just given its id by ``assign``) with the id its content alone gives it."""
        return Keyed(message, self._legacy)
