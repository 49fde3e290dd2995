"""What each background layer changed, in the finished flush dialog; the Inbox's Mark as read and Dismiss."""

from __future__ import annotations

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, user_lines
from tests.gui.test_flush_dialog import open_flush


def dog_and_city(system, turns, schema):
    """The base filter: a question memory could not answer (both dog lines) and a fact; others find nothing."""
    lines = user_lines(turns)
    dog = [line["id"] for line in lines if "dog" in line["text"]]
    city = [line["id"] for line in lines if "Sendai" in line["text"]]
    return {"items": [{"reason": "asked again", "text": "asked my dog's name", "slot": "pet/dog", "kind": "recall",
                       "score": 0.8, "evidence": dog},
                      {"reason": "said so", "text": "Lives in Sendai", "slot": "home/city", "kind": "explicit",
                       "score": 0.9, "evidence": city}]}


def reflect_on_the_city(system, turns, schema):
    if "insights" in schema.get("properties", {}):
        return {"insights": [{"text": "Settling into a new city", "slots": ["home/city"]}], "gaps": []}
    return NO_ITEMS(system, turns, schema)


def week(app, backend) -> None:
    backend.default_reply = reflect_on_the_city
    log_message(app, 30, "I live in Sendai, remember that.")
    log_message(app, 29, "what's my dog's name again?")
    log_message(app, 3, "you forgot my dog's name")
    backend.enqueue(dog_and_city)


def test_the_finished_flush_shows_a_row_per_layer_with_what_it_changed(app, backend, make_window, qtbot):
    week(app, backend)
    window = make_window("en")
    dialog = open_flush(window, qtbot)
    assert not dialog.layers.isVisible()
    dialog.dry_run.setChecked(True)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000) as blocker:
        dialog.start_button.click()
    days = blocker.args[0].background["diary"]
    expected = [("Looking back", "Insights: 1, suspected gaps: 0 (Inbox)"),
                ("Interests", "This week: home: 1 (1 more than last time)"),  # words, not "home 1 (+1)"
                ("Diary", f"Pages written: {', '.join(days)}"),
                ("Knowledge gaps", "new: pets: dog (not known 2 times)"),  # the slot pet/dog in words
                ("Skills", "No level changed"),
                ("Preferences", "No change"),
                ("How recently talked about", "often 1, now and then 0, not lately 0, long ago 0"),  # Sendai, just said
                ("Graph", "Names and topics: 2, links drawn: 1, discoveries: 0 (Inbox)"),  # topic home — Sendai
                ("Check", "0 new, 0 rechecked, 0 sent to review, 0 resolved")]
    assert dialog.layers.isVisible() and dialog.layers.rows() == expected  # the preview shows it …
    assert app.flush.store.db["gaps"].count == 0  # … and writes none of it

    backend.enqueue(dog_and_city)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000):
        dialog.dry_run.setChecked(False)
        dialog.start_button.click()
    assert dialog.layers.rows() == expected
    dialog.close()


def test_the_layer_rows_read_in_japanese(app, backend, make_window, qtbot):
    week(app, backend)
    dialog = open_flush(make_window("ja"), qtbot)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000):
        dialog.start_button.click()
    rows = dict(dialog.layers.rows())
    assert rows["知識のギャップ"] == "新規：ペット（2 回思い出せなかった）"  # pet/dog in words: no English word in a Japanese window
    assert rows["関心"] == "今週：住まい：1件（前回より 1 件多い）"  # not "home 1 (+1)"
    assert rows["スキル"] == "レベルの変化なし"
    assert rows["好み"] == "変化なし" and rows["話題にした時期"] == "よく話す 1, ときどき 0, 最近は話さない 0, ずっと話していない 0"
    assert rows["点検"] == "新規 0、再点検 0、確認へ 0、解消 0"
    dialog.close()


def inbox_after_a_flush(app, backend, make_window, language="en"):
    week(app, backend)
    app.flush.run()
    return make_window(language).memory_menu.open_inbox()


def rows(dialog) -> list[list[str]]:
    return [[dialog.insights.topLevelItem(i).text(c) for c in (0, 1, 4)]
            for i in range(dialog.insights.topLevelItemCount())]


def test_the_inbox_marks_an_insight_read_and_dismisses_a_gap_and_its_hint(app, backend, make_window, qtbot):
    dialog = inbox_after_a_flush(app, backend, make_window)
    assert rows(dialog) == [["Settling into a new city", "insight", "new"],
                            ["Memory did not know pets: dog (2 times); last: asked my dog's name",
                             "not known twice", "new"]]
    assert app.memory.prompt_hint() == "pet/dog"
    # the first row is chosen at once, so its whole text shows below the list (issue 45)
    assert dialog.insights.currentItem() is dialog.insights.topLevelItem(0) and dialog.read_button.isEnabled()
    assert dialog.insight_text.text() == "Settling into a new city"

    dialog.read_button.click()
    assert rows(dialog)[0][2] == "read" and not dialog.read_button.isEnabled()
    assert [i["status"] for i in app.flush.background.store.insights()] == ["read"]

    dialog.insights.setCurrentItem(dialog.insights.topLevelItem(1))
    with qtbot.waitSignal(dialog.memory_changed, timeout=2000):
        dialog.dismiss_button.click()
    assert rows(dialog) == [["Settling into a new city", "insight", "read"]]
    assert [g["status"] for g in app.flush.background.store.gaps()] == ["dismissed"]
    assert app.memory.prompt_hint() == ""  # the next chat turn no longer asks about it
    dialog.close()


def test_the_inbox_buttons_read_in_japanese(app, backend, make_window):
    dialog = inbox_after_a_flush(app, backend, make_window, "ja")
    assert (dialog.read_button.text(), dialog.dismiss_button.text()) == ("既読にする", "片づける")
    assert [r[1:] for r in rows(dialog)] == [["気づき", "未読"], ["2 回思い出せなかった", "未読"]]
    assert rows(dialog)[1][0] == "ペット を 2 回思い出せなかった（最後：asked my dog's name）"
    dialog.close()


def test_a_gap_the_program_found_reads_in_the_windows_language(app, make_window):
    from monchat.core.store.background import BackgroundStore
    with app.store.atomic():
        BackgroundStore(app.store).add_gap({"kind": "structural", "slot": "family/partner", "source": "neighbours",
                                            "text": "talks about family often (6 messages in 30 days), never about "
                                                    "family/partner", "failures": 0, "run_id": 1})
    dialog = make_window("ja").memory_menu.open_inbox()
    assert rows(dialog) == [["家族 についてよく話すのに、家族：パートナー は話に出ない", "話に出ない", "未読"]]
    dialog.close()


def test_a_layer_that_did_not_run_has_no_row_and_a_preference_change_is_named(qtbot):
    from monchat.gui.flush.layers import LayerRows
    rows = LayerRows()
    qtbot.addWidget(rows)
    layers = {"reflect": None, "profile": {"changed": [], "rising": [], "cooling": []}, "diary": {"days": []},
              "gaps": {"new": [], "raised": []}, "skills": {"changes": []}, "tiers": None, "graph": None,
              "lint": None, "preferences": {"changes": [{"change": "queued", "memory_id": "m1",
                                                          "text": "detail for code", "old_text": ""}]}}
    rows.show_layers({"layers": layers})
    names = [name for name, _ in rows.rows()]
    assert names == ["Looking back", "Interests", "Diary", "Knowledge gaps", "Skills", "Preferences"]
    assert dict(rows.rows())["Preferences"] == "waits for review: detail for code"


def test_an_insight_names_its_topics_in_words(app, make_window):
    from monchat.core.store.background import BackgroundStore
    with app.store.atomic():
        BackgroundStore(app.store).add_insight({"run_id": 2, "kind": "insight", "text": "drink/daily came up often",
                                                "slots": ["drink/daily"], "created_at": "2026-12-01T22:00:00"})
    dialog = make_window("ja").memory_menu.open_inbox()
    top = dialog.insights.topLevelItem(0)
    assert [top.text(c) for c in range(4)] == ["飲み物 came up often", "気づき", "飲み物", "2"]
    dialog.close()
