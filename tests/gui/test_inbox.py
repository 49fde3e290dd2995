"""The inbox shows what a real flush's background track kept: insights and gaps, the diary, the profile bars."""

from __future__ import annotations

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer


def reflect_with_a_gap(system, turns, schema):
    if "insights" in schema.get("properties", {}):
        return {"insights": [{"text": "The user is settling into a new city", "slots": ["home/city"]}],
                "gaps": [{"text": "Work never comes up", "slots": ["home/city"]}]}
    return NO_ITEMS(system, turns, schema)


def test_the_inbox_shows_insights_gaps_the_diary_and_the_profile(app, backend, make_window, qtbot):
    backend.default_reply = reflect_with_a_gap
    log_message(app, 30, "I live in Sendai, remember that.")
    log_message(app, 2, "Today I walked by the river.")
    backend.enqueue(item_answer("Lives in Sendai", "home/city"))
    report = app.flush.run()
    assert len(report.background["diary"]) == 2
    window = make_window("en")
    dialog = window.memory_menu.open_inbox()
    rows = [[dialog.insights.topLevelItem(i).text(c) for c in range(4)]
            for i in range(dialog.insights.topLevelItemCount())]
    assert ["The user is settling into a new city", "insight", "home: city", "1"] in rows  # the slot home/city in words
    assert ["Work never comes up", "suspected gap", "home: city", "1"] in rows
    assert ["Work never comes up", "never mentioned", "home: city", "1"] in rows  # the gap mark it made
    assert not dialog.insights_empty.isVisible()

    dialog.tabs.setCurrentIndex(1)
    assert dialog.days.count() == 2 and dialog.days.currentItem().text() == report.background["diary"][-1]
    assert dialog.page.toPlainText().startswith("Today I walked by the river.")
    dialog.days.setCurrentRow(1)
    assert "Topics: home." in dialog.page.toPlainText()

    dialog.tabs.setCurrentIndex(2)
    for days in ("7", "30", "90"):
        [(name, bar, trend)] = dialog.bars[days]
        assert name.text() == "home" and bar.value() == 100 and bar.format() == "1" and trend.text() == "→ steady"
        assert name.toolTip() == "Filed by the program as “home”"
        assert bar.toolTip() == "Messages about it in these days: 1 (1 more than last time)"
    dialog.close()


def test_the_inbox_reads_in_japanese_and_says_when_it_is_empty(make_window):
    window = make_window("ja")
    dialog = window.memory_menu.open_inbox()
    assert dialog.windowTitle() == "受信箱"
    assert dialog.insights_empty.isVisible() and "ギャップ" in dialog.insights_empty.text()
    assert dialog.tabs.tabText(2) == "関心" and dialog.windows["30"].title() == "直近 30 日"
    assert "日記" in dialog.page.toPlainText()
    dialog.close()


def test_the_memory_browser_shows_a_skills_level(app, backend, window):
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "Wrote a Rust async server today")
    backend.enqueue(item_answer("Rust async", "skill/rust-async", kind="skill", score=0.8))
    app.flush.run()
    browser = window.memory_menu.open_memory()
    browser.set_view("all")
    browser.table.setCurrentItem(browser.table.topLevelItem(0))
    assert "Kind: a skill" in browser.facts.text() and "Level L1 (1 day of use)" in browser.facts.text()
    assert "Evidence on 1 day ·" in browser.facts.text()  # one day, not "1 days"
    browser.close()


def test_the_inbox_lists_lint_findings_in_both_languages(app, backend, make_window, qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "My tea is green tea")
    backend.enqueue(item_answer("green tea", "drink/tea"))
    app.flush.run()
    with app.store.atomic():  # damaged into a slot of one part (the guard drops one from a filter): malformed
        app.store.db.execute("UPDATE memories SET slot = 'tea' WHERE text = 'green tea'")
    app.lint.run(no_llm=True)  # as the next flush (or Check now) would
    window = make_window("en")
    dialog = window.memory_menu.open_inbox()
    tab = dialog.lint_tab
    assert dialog.tabs.tabText(dialog.tabs.indexOf(tab)) == "Check" and not tab.empty.isVisible()
    row = [tab.findings.topLevelItem(0).text(c) for c in range(4)]
    assert row == ["Malformed: empty text, filed under no topic and detail, or a value out of range", "green tea",
                   "structure", "marked: checked again at the next flush"]
    dialog.close()
    dialog = make_window("ja").memory_menu.open_inbox()
    assert dialog.tabs.tabText(dialog.tabs.indexOf(dialog.lint_tab)) == "点検"
    assert dialog.lint_tab.findings.topLevelItem(0).text(3) == "印を付けました: 次の整理で再点検"
    dialog.close()


def long_insight(system, turns, schema):
    if "insights" in schema.get("properties", {}):
        return {"insights": [{"text": "You talk about how you like answers more and more, mostly about code",
                              "slots": ["communication/answer-length"]}], "gaps": []}
    return NO_ITEMS(system, turns, schema)


def test_the_inbox_fits_its_texts_and_all_three_profile_windows_in_japanese(app, backend, make_window, qtbot):
    backend.default_reply = long_insight
    log_message(app, 3, "答えは簡潔なのが好き")
    backend.enqueue(item_answer("簡潔な答えが好き", "communication/answer-length", kind="preference"))
    app.flush.run()
    dialog = make_window("ja").memory_menu.open_inbox()
    qtbot.waitUntil(dialog.isVisible)
    header = dialog.insights.header()
    # The insight's words get the width; the kind, slot, flush and status columns fit their contents.
    assert header.sectionSize(0) > dialog.insights.viewport().width() / 2
    assert header.sectionSize(4) < header.sectionSize(0) / 2
    top = dialog.insights.topLevelItem(0)
    assert top.toolTip(0) == top.text(0) == "You talk about how you like answers more and more, mostly about code"
    dialog.tabs.setCurrentIndex(2)
    qtbot.waitUntil(dialog.profile_scroll.isVisible)
    body = dialog.profile_scroll.widget()
    [(name, _bar, _trend)] = dialog.bars["90"]
    assert name.text() == "コミュニケーション" and "communication" in name.toolTip()  # a topic in words, its key a tip
    # At the dialog's own size the 90-day window is not cut off behind a scroll bar.
    assert body.minimumSizeHint().width() <= dialog.profile_scroll.viewport().width()
    assert not dialog.profile_scroll.horizontalScrollBar().isVisible()
    dialog.close()


def test_interests_and_the_graph_show_nothing_that_waits_for_review_until_it_is_approved(app, backend, make_window):
    from tests.gui.flush_script import user_lines
    log_message(app, 30, "I play the guitar every evening.")
    log_message(app, 29, "I live in Sendai, remember that.")

    def junk_and_unsure(system, turns, schema):  # a tiny model's slots, and a statement not sure enough
        lines = {line["text"]: line["id"] for line in user_lines(turns)}
        guitar, sendai = lines["I play the guitar every evening."], lines["I live in Sendai, remember that."]
        return {"items": [
            {"reason": "r", "text": "Plays the guitar every evening", "slot": "hobby/guitar", "kind": "habit",
             "score": 0.9, "evidence": [guitar]},
            {"reason": "r", "text": "role_id_1", "slot": "role_id_1", "kind": "fact", "score": 0.8, "evidence": [guitar]},
            {"reason": "r", "text": "Lives in Sendai", "slot": "home/city", "kind": "explicit", "score": 0.6,
             "evidence": [sendai]}]}
    backend.default_reply = NO_ITEMS
    backend.enqueue(junk_and_unsure)
    app.flush.run()
    assert {r.action for r in app.memory.queue()} == {"layer1"}  # the guard dropped the placeholder
    window = make_window("en")
    dialog = window.memory_menu.open_inbox()
    assert [name.text() for name, _bar, _trend in dialog.bars["90"]] == ["hobbies"]  # Interests
    assert "topic:role_id_1" not in dialog.graph_view.node_items and "topic:home" not in dialog.graph_view.node_items
    assert "topic:hobby" in dialog.graph_view.node_items
    dialog.close()

    [sendai] = [r for r in app.memory.queue() if r.text == "Lives in Sendai"]
    app.memory.approve(str(sendai.id))
    dialog = window.memory_menu.open_inbox()
    assert sorted(name.text() for name, _bar, _trend in dialog.bars["90"]) == ["hobbies", "home"]
    assert {"topic:home", "entity:sendai"} <= set(dialog.graph_view.node_items)
    assert "topic:role_id_1" not in dialog.graph_view.node_items
    dialog.close()
