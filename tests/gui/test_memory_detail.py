"""The memory windows' list over its detail (gui/kit/detail_splitter.py): the list takes the room, and every
evidence row reads in one font."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextLayout

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, user_lines

KANJI_FIRST = "駅でおでんを食べたよ。"
KANA_FIRST = "でも駅のおでんは高かった。"


def oden(system, turns, schema) -> dict:
    """One memory resting on both lines: one starts with a kanji, the other with kana."""
    ids = [line["id"] for line in user_lines(turns)]
    return {"items": [{"reason": "said so", "text": "駅でおでんを食べた", "slot": "food/oden", "kind": "fact",
                       "score": 0.9, "evidence": ids}]}


def drawn_in(font, text: str) -> str:
    """The font family the first characters of ``text`` are drawn in."""
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return layout.glyphRuns()[0].rawFont().familyName()


def test_every_evidence_row_draws_its_time_in_one_font(app, backend, make_window):
    backend.default_reply = NO_ITEMS
    log_message(app, 3, KANJI_FIRST)
    log_message(app, 2, KANA_FIRST)
    backend.enqueue(oden)
    app.flush.run()
    browser = make_window("ja").memory_menu.open_memory()
    browser.set_view("all")
    evidence = browser.evidence
    assert [line.split("  ", 1)[1] for line in evidence.texts()] == [KANJI_FIRST, KANA_FIRST]
    rows = [evidence.topLevelItem(i) for i in range(evidence.topLevelItemCount())]
    # In one string a time before kana is drawn in the CJK font, before a kanji in the Latin one.
    assert len({drawn_in(evidence.font(), row.text(0)) for row in rows}) == 1
    assert {row.font(0).pointSizeF() for row in rows} == {evidence.font().pointSizeF()}
    assert browser.table.topLevelItem(0).text(1) == "食べ物"  # food/oden: no English word in a ja window
    assert "food/oden" in browser.table.topLevelItem(0).toolTip(1)
    browser.close()


@pytest.mark.parametrize("opener", ["open_memory", "open_review_queue"])
def test_the_list_takes_the_room_and_the_detail_what_it_needs(app, make_window, qtbot, opener):
    window = make_window("en")
    dialog = getattr(window.memory_menu, opener)()
    dialog.resize(1000, 700)  # a window on a 1366×768 screen
    qtbot.waitUntil(lambda: dialog.table.viewport().height() > 0)
    listing = dialog.table.viewport().height()
    rows = listing // dialog.table.fontMetrics().height()
    assert rows >= 20, f"the list has room for only {rows} lines"  # half the height each: 14
    dialog.resize(1000, 740)
    qtbot.waitUntil(lambda: dialog.table.viewport().height() > listing)
    assert dialog.table.viewport().height() - listing >= 30  # a taller window: the list grows, not the detail
    dialog.close()


def test_a_long_message_wraps_in_the_evidence_instead_of_being_cut(qtbot):
    from monchat.gui.kit.detail_splitter import EvidenceList
    evidence = EvidenceList()
    qtbot.addWidget(evidence)
    evidence.resize(600, 300)
    evidence.show()
    long = "I had oden at the station and the kurumabu was great, " * 3
    evidence.add_messages([{"ts": "2026-12-01T20:00:00+09:00", "text": long}])

    def height() -> int:
        return evidence.visualItemRect(evidence.topLevelItem(0)).height()
    line = evidence.fontMetrics().height()
    qtbot.waitUntil(lambda: height() >= 2 * line, timeout=2000)  # wrapped, not one line cut with "…"
    wide = height()
    evidence.resize(300, 300)  # a narrower window: more lines
    qtbot.waitUntil(lambda: height() >= wide + line, timeout=2000)
