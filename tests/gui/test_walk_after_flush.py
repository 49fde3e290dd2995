"""Walk (issue 38, point 9): Interests, Graph and search after a real flush run from the window (the scripted
model answers each filter call with what its lines say), English and Japanese: the Inbox's Interests tab shows the
topics talked about as bars named in words, the Graph tab draws their nodes with labels, and search finds the
flushed messages in the archive and opens their conversation."""

from __future__ import annotations

import pytest

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, user_lines
from tests.gui.test_history_dialogs import search_for

SAID = {  # what the user said (hours ago) and what a filter makes of it: (memory text, slot, kind, score)
    "ja": [(50, "覚えておいて、私は仙台に住んでいます。", ("仙台に住んでいる", "home/city", "explicit", 0.9)),
           (49.9, "毎朝ブラックコーヒーを飲むのが習慣。", ("毎朝ブラックコーヒーを飲む", "drink/morning", "habit", 0.9)),
           (26, "週末はギターを練習している。", ("週末はギターを練習している", "hobby/guitar", "habit", 0.9)),
           (25.9, "今朝もブラックコーヒーを飲んだ。", ("毎朝ブラックコーヒーを飲む", "drink/morning", "habit", 0.9)),
           (2, "妹のミホと金沢に行った。ギターも持って行った。", ("妹のミホと金沢に行った", "family/sister", "explicit", 0.9))],
    "en": [(50, "Remember: I live in Sendai.", ("Lives in Sendai", "home/city", "explicit", 0.9)),
           (49.9, "Every morning I drink black coffee.", ("Black coffee every morning", "drink/morning",
                                                           "habit", 0.9)),
           (26, "On weekends I practise the guitar.", ("Practises the guitar on weekends", "hobby/guitar", "habit",
                                                     0.9)),
           (25.9, "Black coffee again this morning.", ("Black coffee every morning", "drink/morning", "habit",
                                                     0.9)),
           (2, "I went to Kanazawa with my sister Miho. I took the guitar.", ("Went to Kanazawa with sister Miho",
                                                                           "family/sister", "explicit", 0.9))],
}
SEARCHED = {"ja": "ブラックコーヒー", "en": "black coffee"}


def reader(language: str):
    """The scripted model: a filter call gets what its user lines say, one item per memory with every line it rests
    on, at most three a call (the filters' limit), each call starting one further along (so every memory is
    proposed by three of the four personas); every other call gets nothing."""
    places = {said: item for _hours, said, item in SAID[language]}
    calls = [0]

    def answer(system, turns, schema):
        if "items" not in schema.get("properties", {}):
            return NO_ITEMS(system, turns, schema)
        found: dict[tuple, list[str]] = {}
        for line in user_lines(turns):
            if line["text"] in places:
                found.setdefault(places[line["text"]], []).append(line["id"])
        ordered = list(found.items())
        start, calls[0] = calls[0] % max(1, len(ordered)), calls[0] + 1
        chosen = (ordered[start:] + ordered[:start])[:3]
        return {"items": [{"reason": "the user said so", "text": text, "slot": slot, "kind": kind, "score": score,
                           "evidence": ids} for (text, slot, kind, score), ids in chosen]}
    return answer


@pytest.mark.parametrize("language", ["en", "ja"])
def test_interests_graph_and_search_after_a_flush_from_the_window(app, make_window, backend, qtbot, language):
    for hours, said, _item in SAID[language]:
        log_message(app, hours, said)
    backend.default_reply = reader(language)
    window = make_window(language)
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=60000) as done:
        dialog.start_button.click()
    report = done.args[0]
    assert report.messages_archived == len(SAID[language]) and not report.dry_run
    kept = {m.text for m in app.memory.memories.all() if m.state.live}
    assert {item[0] for _h, _s, item in SAID[language]} <= kept
    dialog.close()

    inbox = window.memory_menu.open_inbox()
    inbox.tabs.setCurrentIndex(2)  # Interests
    assert inbox.tabs.tabText(2) == ("Interests" if language == "en" else inbox.tr("Interests"))
    bars = {name.text(): bar.value() for name, bar, _trend in inbox.bars["7"]}
    assert len(bars) == 4, bars  # home, drink, hobby, family: one bar each
    if language == "en":
        assert set(bars) == {"home", "drinks", "hobbies", "family"}, bars  # topics in words, not slot keys
    else:
        assert not any(name.isascii() for name in bars), bars  # 住まい, 飲み物 …: not "home", "drink"
    assert sum(bars.values()) in range(98, 103)  # shares of the window
    assert "No profile yet" not in inbox.profile_day.text()

    inbox.tabs.setCurrentIndex(3)  # Graph
    assert not inbox.graph_empty.isVisible() and inbox.graph_view.isVisible()
    nodes = inbox.inbox.graph()["nodes"]
    assert len(nodes) >= 4, nodes  # the four topics, and the names found in the memories
    drawn = [label.text() for label in inbox.graph_view.label_items.values()]
    assert len(drawn) >= 4 and not any("/" in label or label.startswith("topic:") for label in drawn), drawn
    if language == "ja":
        assert any(label in drawn for label in ("仙台", "ミホ", "金沢")), drawn
    inbox.close()

    search = window.file_menu.open_search()
    rows = search_for(search, qtbot, SEARCHED[language])
    assert len(rows) == 2 and all(SEARCHED[language].lower() in row[3].lower() for row in rows)
    with qtbot.waitSignal(search.conversation_shown, timeout=10000):
        search.results.setCurrentItem(search.results.topLevelItem(0))
    assert SEARCHED[language].lower() in search.conversation.toPlainText().lower()
    search.close()
