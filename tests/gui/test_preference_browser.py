"""The memory browser shows a preference's category and its version chain, in English and Japanese."""

from __future__ import annotations

import re

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer


def coexist(system, turns, schema):
    """The judge says every pair coexists; the program sees the same slot and makes a new version."""
    if "verdicts" in schema.get("properties", {}):
        user = "\n".join(t.content for t in turns if t.role == "user")
        return {"verdicts": [{"pair": p, "reasoning": "different", "verdict": "COEXIST", "confidence": 0.95}
                             for p in re.findall(r"^(p\d+):", user, re.M)]}
    return NO_ITEMS(system, turns, schema)


def two_versions(app, backend) -> None:
    backend.default_reply = coexist
    log_message(app, 30, "I like concise answers")
    backend.enqueue(item_answer("Likes concise answers", "communication/answer-length", kind="preference"))
    app.flush.run()
    log_message(app, 2, "For code I like detailed explanations")
    backend.enqueue(item_answer("Likes detailed explanations for code", "communication/answer-length",
                                kind="preference"))
    app.flush.run()
    [row] = app.memory.queue()  # a new version waits for review
    app.memory.approve(str(row.id))


def select(browser, text: str) -> None:
    browser.set_view("all")
    [item] = [browser.table.topLevelItem(i) for i in range(browser.table.topLevelItemCount())
              if text in browser.table.topLevelItem(i).text(0)]
    browser.table.setCurrentItem(item)


def test_the_browser_shows_the_category_and_the_version_chain(app, backend, window):
    two_versions(app, backend)
    browser = window.memory_menu.open_memory()
    select(browser, "detailed explanations")
    facts = browser.facts.text()
    assert "Kind: a preference" in facts
    assert "Preference: communication, version 2 of 2, weight 1.00" in facts
    chain = [browser.history.topLevelItem(i).text(0) for i in range(browser.history.topLevelItemCount())]
    assert chain == ["v1 ×0.50: Likes concise answers", "▶ v2 ×1.00: Likes detailed explanations for code"]
    assert browser.history.topLevelItem(0).text(1) == "replaced"
    select(browser, "concise")
    assert "version 1 of 2, weight 0.50" in browser.facts.text()
    browser.close()


def test_the_chain_reads_in_japanese(app, backend, make_window):
    two_versions(app, backend)
    browser = make_window("ja").memory_menu.open_memory()
    select(browser, "detailed explanations")
    facts = browser.facts.text()
    assert "種類: 好み" in facts and "好み: コミュニケーション、版 2/2、重み 1.00" in facts
    assert browser.history.topLevelItem(0).text(0) == "版1 ×0.50: Likes concise answers"
    browser.close()
