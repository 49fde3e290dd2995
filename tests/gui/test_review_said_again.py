"""The review queue says where a waiting item's words came from, and when the user said them again (issue 45).

Measured before: a pasted ChatGPT memory showed "Evidence: what you said" above an empty box; a waiting item a later
flush heard the user say again showed nothing of it. Now an item not from the user's chat is headed by its source
("From your ChatGPT memory: no message of yours backs it yet") and the lines said again since it was proposed are
under its evidence, "Said again on 2026-11-23: “…”", in English and Japanese; they are not its evidence until approved.
"""

from __future__ import annotations

import pytest

from monchat.core.types import Message
from monchat.core.vocabulary.states import Origin

SAID = "I have two cats at home, Miso and Kinako"
WORDS = {"en": ("From your ChatGPT memory: no message of yours backs it yet",
                f"Said again on 2026-11-23: “{SAID}”"),
         "ja": ("ChatGPT のメモリから：裏づけるあなたの発言はまだありません",
                f"2026-11-23 にもう一度話しました：「{SAID}」")}


def said_again_for(app, memory_id: str, text: str, ts: str) -> str:
    """The user's line ``text`` archived, and kept beside the waiting memory as said again (what a flush does when
    the line says its words: ``core/memory/waiting.py``)."""
    message = Message(id="said-1", ts=ts, role="user", text=text, persona="hana")
    app.archive.archive([message])
    line = app.archive.get_many([message.id])[message.id]
    with app.memory.change() as t:
        t.said_again(app.memory.memories.get(memory_id), [{"message_id": message.id, "day": line["day"],
                                                           "session": line["session"], "kind": "explicit",
                                                           "persona": "base"}])
    return message.id


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_chatgpt_item_says_where_it_came_from_and_the_line_that_said_it_again(app, make_window, language):
    heading, again = WORDS[language]
    app.transfer.import_memory(text="- Has two cats\n", source="chatgpt")
    [item] = app.memory.queue()
    assert item.origin is Origin.CHATGPT
    said_again_for(app, item.memory_id, SAID, "2026-11-23T12:00:00+09:00")
    dialog = make_window(language).memory_menu.open_review_queue()
    assert dialog.evidence_label.text() == heading  # never "what you said": nothing of the user's backs it
    shown = [dialog.evidence.topLevelItem(i).text(0) for i in range(dialog.evidence.topLevelItemCount())]
    assert shown == [again]  # under its evidence (none yet), said again on its day
    assert app.memory.evidence(item.memory_id) == []  # shown beside it, not its evidence until approved
    dialog.close()


def test_an_item_with_nothing_said_again_shows_no_such_line(app, make_window):
    app.transfer.import_memory(text="- Works as a nurse\n", source="claude")
    dialog = make_window("en").memory_menu.open_review_queue()
    assert dialog.evidence_label.text() == "From your Claude memory: no message of yours backs it yet"
    assert dialog.evidence.topLevelItemCount() == 0
    dialog.close()
