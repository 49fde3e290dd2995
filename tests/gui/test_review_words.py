"""Review items worded from codes; an unsure judgement approved as the user decides.

The memory comes from real flushes (``memory_scenes``: an oracle plays the LLM, the clock
moves from day to day); the dialogs change it through the real MemoryService.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from monchat.app import build_app
from monchat.core.memory.review_item import ReviewItem
from monchat.gui.memory import review_words
from tests.gui import memory_scenes as scenes

JST = timezone(timedelta(hours=9))
DAY1 = datetime(2026, 11, 23, 8, 0, tzinfo=JST)
LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture
def clock():
    return scenes.Clock(DAY1)


@pytest.fixture
def backend():
    return scenes.oracle()


@pytest.fixture
def app(home, backend, clock):
    application = build_app(str(home), pinned_backend=backend, clock=clock, tz=JST)
    yield application
    application.store.close()


def memory_record(app, text: str):
    return next(m for m in app.memory.list(all=True) if m.text == text)


# ---- approving an unsure judgement ----------------------------------------------
def test_a_judgement_approved_as_something_else_keeps_the_memory(app, clock, make_window, qtbot):
    row = scenes.unsure_green_tea(app, clock, DAY1, leaning="SUPERSEDE")
    window = make_window("en")
    dialog = window.memory_menu.open_review_queue()
    assert dialog.current().id == row.id
    assert dialog.table.currentItem().text(2) == "Decide (leaning: Replace)"
    assert dialog.approve_button.text() == "Approve: Replace"
    assert dialog.other_verdict_button.isVisible()
    offered = {v for v, action in dialog.verdict_actions.items() if action.isVisible()}
    assert offered == {"SAME", "MERGE", "CONTRADICT", "COEXIST"}  # the leaning is the Approve button

    with qtbot.waitSignal(dialog.memory_changed, timeout=5000):
        dialog.verdict_actions["COEXIST"].trigger()
    kept = memory_record(app, scenes.GREEN)
    assert kept.superseded_by is None and kept.state == "candidate"  # the leaning (replace) was not applied
    assert app.memory.get(row.memory_id).state == "candidate"  # both stay, apart
    assert app.memory.queue() == [] and dialog.table.topLevelItemCount() == 0
    dialog.close()


def test_approving_a_judgement_applies_the_leaning(app, clock, make_window, qtbot):
    row = scenes.unsure_green_tea(app, clock, DAY1, leaning="SUPERSEDE")
    window = make_window("en")
    dialog = window.memory_menu.open_review_queue()
    with qtbot.waitSignal(dialog.memory_changed, timeout=5000):
        dialog.approve_button.click()
    assert memory_record(app, scenes.GREEN).superseded_by == row.memory_id
    dialog.close()


def test_a_judgement_can_be_approved_as_the_same_thing(app, clock, make_window, qtbot):
    row = scenes.unsure_green_tea(app, clock, DAY1, leaning="COEXIST")
    window = make_window("ja")
    dialog = window.memory_menu.open_review_queue()
    assert dialog.approve_button.text() == "承認: 別のこと"
    offered = {action.text().split(" — ")[0] for action in dialog.verdict_actions.values() if action.isVisible()}
    assert offered == {"同じこと", "まとめる", "置き換え", "食い違い"}
    assert dialog.verdict_actions["SAME"].text() == "同じこと — 新しい発言を、今ある記憶の根拠として加えます。"
    with qtbot.waitSignal(dialog.memory_changed, timeout=5000):
        dialog.verdict_actions["SAME"].trigger()
    kept = memory_record(app, scenes.GREEN)
    assert kept.days == 2  # the second day now supports the kept memory
    assert app.memory.get(row.memory_id).superseded_by == kept.id
    dialog.close()


# ---- the words ---------------------------------------------------------------
def test_the_review_queue_words_a_judgement_in_japanese(app, clock, make_window):
    row = scenes.unsure_green_tea(app, clock, DAY1, leaning="SUPERSEDE")
    assert "leaned" in row.reason  # core's English prose, which the window must not show
    window = make_window("ja")
    dialog = window.memory_menu.open_review_queue()
    assert dialog.reason.text() == ("理由: 「毎食、緑茶を飲む」との関係を判断できませんでした。判定の傾き: 置き換え（確信度 0.30）\n"
                                    "提案したペルソナ: ベースペルソナ。")  # who proposed it, by name (tests/gui/test_small_model_and_proposers.py)
    assert dialog.table.currentItem().text(2) == "判断（傾き: 置き換え）"
    assert dialog.effect.text() == "新しい発言で今ある記憶を置き換えます。古いほうは履歴に残ります。"
    assert dialog.other_verdict_button.text() == "別の判定で承認…"
    evidence = dialog.evidence.texts()
    assert evidence[0] == "提案「最近は緑茶ばかり飲んでいる」の根拠" and evidence[1].endswith("最近も緑茶ばかり")
    assert evidence[2] == "今ある記憶「毎食、緑茶を飲む」の根拠"
    assert evidence[3].endswith("毎食、緑茶を飲んでる")  # both sides, to compare
    assert dialog.evidence_label.text() == "根拠: あなたの発言"  # lines of the user's are there
    dialog.close()


def item(**fields) -> ReviewItem:
    """A review item with only the fields its words are made from."""
    return ReviewItem.of({"id": 1, "memory_id": "mem-1", **fields})


ROWS = [item(**fields) for fields in [
    {"action": "layer1", "text": "朝はコーヒー", "old_text": "", "confidence": 0.72, "verdict": None},
    {"action": "supersede", "text": "金沢に住む", "old_text": "仙台に住む", "confidence": 0.9, "verdict": None},
    {"action": "merge", "text": "猫を二匹飼う", "old_text": "猫を飼う", "confidence": 0.85, "verdict": None},
    {"action": "retract", "text": "取り消し", "old_text": "仙台に住む", "confidence": 0.9, "verdict": None},
    {"action": "retract", "text": "取り消し", "old_text": "仙台に住む", "confidence": 0.4, "verdict": None},
    *({"action": "judge", "text": "緑茶ばかり", "old_text": "緑茶を飲む", "confidence": 0.3, "verdict": v}
      for v in ("SAME", "MERGE", "SUPERSEDE", "CONTRADICT", "COEXIST")),
    {"action": "judge", "text": "緑茶ばかり", "old_text": "緑茶を飲む", "confidence": 0.0, "verdict": "COEXIST"},
    {"action": "merge", "text": "猫を二匹飼う", "old_text": "猫を飼う", "confidence": None, "held": "sync_conflict"},
    {"action": "merge", "text": "猫を飼う", "old_text": "猫を飼う", "confidence": None, "held": "sync_conflict"},
]]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.action}-{r.verdict or r.confidence}")
def test_every_review_reason_is_worded_from_codes(translators, row):
    translators.install("ja")
    japanese = review_words.reason(row, judge_confidence=0.7)
    assert not LATIN.search(japanese) and "%" not in japanese, japanese
    if row.old_text:
        assert f"「{row.old_text}」" in japanese
    translators.install("en")
    english = review_words.reason(row, judge_confidence=0.7)
    assert english != japanese and "%" not in english
    assert row.action != "layer1" or english.endswith("(confidence 0.72).")


def test_the_judge_wording_reads_as_designed(translators):
    translators.install("ja")
    row = item(action="judge", old_text="緑茶を飲む", text="緑茶ばかり", confidence=0.3, verdict="SUPERSEDE")
    assert review_words.reason(row) == "「緑茶を飲む」との関係を判断できませんでした。判定の傾き: 置き換え（確信度 0.30）"
    layer1 = item(action="layer1", text="x", old_text="", confidence=0.72)
    assert review_words.reason(layer1) == "根拠が十分にそろったので長期の記憶にします（確信度 0.72）"
    supersede = item(action="supersede", text="新", old_text="旧", confidence=0.9)
    assert review_words.reason(supersede) == "長期の記憶「旧」を「新」に置き換えます"
    assert review_words.reason(item(action="retract", old_text="旧", confidence=0.9)) == "「旧」を取り消します"
    names = [review_words.verdict_name(v) for v in ("SAME", "MERGE", "SUPERSEDE", "CONTRADICT", "COEXIST")]
    assert names == ["同じこと", "まとめる", "置き換え", "食い違い", "別のこと"]


def test_an_item_sent_from_what_the_limit_cut_says_so(translators, app, backend, clock):
    """A flush whose persona's limit cut what it proposed past three; the user sent the cut ones to review (the
    window's "Send what was cut to review"). Their "Why" used to read "Enough evidence has come together", as if
    the flush had chosen them (seen in a 40-item queue at 1366x768)."""
    from monchat.core.flush.cut import queue_cut
    from tests.support.oracle import Rule
    app.settings.flush.ask_before_layer1 = True
    said = ["朝はコーヒーを飲む", "猫を二匹飼っている", "仙台に住んでいる", "ピアノを習っている", "納豆が苦手"]
    slots = ["drink/morning", "pet/cat", "home/city", "hobby/piano", "food/dislikes"]
    backend.rules = [Rule(text, text, slot, "explicit", 0.9) for text, slot in zip(said, slots)]
    for n, text in enumerate(said):
        scenes.say(app, DAY1 + timedelta(minutes=n), text)
    report = scenes.flush(app, clock, DAY1 + timedelta(hours=12))
    assert report.accounting["dropped"]["limit"] == 2 and len(app.memory.queue()) == 3
    queue_cut(app.memory, app.archive, report.run_id)
    queue = app.memory.queue()
    sent = [row for row in queue if row.sent_from_cut]
    assert len(queue) == 5 and len(sent) == 2
    translators.install("ja")
    assert {review_words.reason(row) for row in sent} == {
        "フラッシュでペルソナの上限を超えて外れ、あなたがここへ送りました。承認すると長期の記憶になります（確信度 0.90）"}
    kept = {review_words.reason(row) for row in queue if not row.sent_from_cut}
    assert kept == {"根拠が十分にそろったので長期の記憶にします（確信度 0.90）"}
    translators.install("en")
    assert {review_words.reason(row) for row in sent} == {
        "The flush left this out (over its persona's limit) and you sent it here. Approve keeps it as lasting memory "
        "(confidence 0.90)."}


# ---- the memory browser with a history -------------------------------------------
def test_the_memory_browser_shows_history_evidence_and_reasons_in_japanese(app, clock, make_window):
    app.settings.flush.ask_before_layer1 = False
    made = scenes.memory_with_history(app, clock, DAY1)
    window = make_window("ja")
    browser = window.memory_menu.open_memory()
    browser.set_view("layer1")
    shown = {browser.table.topLevelItem(i).text(0) for i in range(browser.table.topLevelItemCount())}
    assert shown == {scenes.KANAZAWA_EDITED, scenes.CAT}
    browser.refresh(made["kanazawa"])
    history = [[browser.history.topLevelItem(i).text(c) for c in range(4)]
               for i in range(browser.history.topLevelItemCount())]
    assert [row[:2] for row in history] == [[scenes.SENDAI, "置き換え済み"], [scenes.KANAZAWA, "置き換え済み"],
                                           ["▶ " + scenes.KANAZAWA_EDITED, "有効"]]
    assert history[0][2] < history[0][3] == history[1][2] and history[2][3] == ""  # when each held
    evidence = browser.evidence.texts()
    assert any("金沢に引っ越したんだ" in line for line in evidence)
    assert "種類: 訂正" in browser.facts.text() and not LATIN.search(browser.facts.text())

    browser.set_view("history")
    shown = {browser.table.topLevelItem(i).text(0) for i in range(browser.table.topLevelItemCount())}
    assert shown == {scenes.SENDAI, scenes.KANAZAWA}
    browser.refresh(made["sendai"])
    assert browser.current().text == scenes.SENDAI and browser.history.topLevelItemCount() == 3
    assert browser.history.topLevelItem(0).text(0) == "▶ " + scenes.SENDAI
    assert not browser.save_text_button.isEnabled()

    browser.set_view("all")
    browser.refresh(made["judge"].memory_id)  # the proposal waits: its reason is worded here too
    assert "あなたの確認待ち: 「毎食、緑茶を飲む」との関係を判断できませんでした" in browser.facts.text()
    browser.refresh(made["judge"].target_id)
    assert "この記憶への変更案が確認を待っています" in browser.facts.text()
    assert "leaned" not in browser.facts.text()
    browser.close()


def test_the_memory_browser_approves_a_waiting_judgement_with_its_leaning(app, clock, make_window, qtbot):
    row = scenes.unsure_green_tea(app, clock, DAY1, leaning="SUPERSEDE")
    window = make_window("ja")
    browser = window.memory_menu.open_memory()
    browser.set_view("all")
    browser.refresh(row.target_id)  # the kept memory: a proposal targets it, but nothing of its own waits
    assert not browser.approve_button.isEnabled() and browser.approve_button.text() == "承認"
    browser.refresh(row.memory_id)
    assert browser.approve_button.isEnabled() and browser.approve_button.text() == "承認: 置き換え"
    assert "確認待ち" in browser.approve_button.toolTip()
    with qtbot.waitSignal(browser.memory_changed, timeout=5000):
        browser.approve_button.click()
    assert memory_record(app, scenes.GREEN).superseded_by == row.memory_id
    browser.close()


def test_a_conflict_between_two_devices_says_which_choice_keeps_which_version(translators, tmp_path):
    """Two devices changed one memory while apart (``core/sync/replaying.py``): the review queue says that, and
    which of Approve and Reject keeps which device's version — not "Merges the lasting memory" (its action)."""
    from tests.test_sync_decisions import SUKIYAKI, chat_and_flush, conflicts, pair, sync
    shared = tmp_path / "shared"
    shared.mkdir()
    a, b = pair(tmp_path, shared)
    chat_and_flush(a, "I made sukiyaki tonight")
    sync(a, b)
    a.memory.pin(a.mem(SUKIYAKI).id)
    b.memory.forget(a.mem(SUKIYAKI).id)
    sync(a, b)
    [row] = [item for item in b.memory.queue() if item.sync_conflict]
    assert conflicts(b)
    translators.install("en")
    words = f"“{row.text}”"
    assert review_words.reason(row) == (f"Two of your devices did different things with {words} while they were "
                                        "apart. Approve takes what the other device did; reject keeps what this "
                                        "one did.")
    translators.install("ja")
    assert f"「{row.text}」" in review_words.reason(row) and "承認" in review_words.reason(row)
