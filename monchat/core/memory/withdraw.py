"""Evidence the user took back: a message deleted, or edited away after a flush had read it.

Every memory whose ledger cites one of the messages loses those rows (``Transitions.lose_evidence``). A live
memory that rested only on them is retracted: out of the prompt, kept as history with the reason in its audit
trail ("the message it rested on was deleted"). A memory that also rests on other lines keeps living: its days
of evidence are counted again from what is left and it stays in the layer it is in (a Layer 1 memory is not
demoted; a candidate needs the days it now lacks before it reaches Layer 1). A memory it had replaced stays
history. The caller holds the transaction and rebuilds the prompt afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store.memories import MemoryStore
from .transitions import Transitions

DELETED = "the message it rested on was deleted"
EDITED_AWAY = "the message it rested on was edited away"


@dataclass
class Withdrawn:
    """What taking the messages back did to memory (memory ids)."""

    retracted: list[str] = field(default_factory=list)  # rested only on them: history now
    weakened: list[str] = field(default_factory=list)  # live, rest on other lines too: one less evidence row each

    def as_dict(self) -> dict:
        return {"retracted": self.retracted, "weakened": self.weakened}


def withdraw(memories: MemoryStore, t: Transitions, message_ids: list[str], why: str) -> Withdrawn:
    """Take ``message_ids`` out of every memory's evidence (see the module's docstring)."""
    done = Withdrawn()
    for memory_id, cited in memories.citing(sorted(set(message_ids))).items():
        memory = memories.get(memory_id)
        if memory is None:
            continue
        if t.lose_evidence(memory, cited, why):
            done.retracted.append(memory_id)
        elif memory.live:  # history loses the rows too, silently: it takes part in nothing
            done.weakened.append(memory_id)
    return done
