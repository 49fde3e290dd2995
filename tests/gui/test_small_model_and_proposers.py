"""The window is honest about a small model (first start, flush dialog) and shows one review row per change.

A model known to be small (under a billion parameters: the embedded SmolLM2-135M, or a server stating
"135M") is named as unreliable for memory, with what to use instead, in both languages; its flush puts
nothing into lasting memory unasked. A change several filter personas proposed is one review row that
says who proposed it. Without the rules these tests fail: no warning label, "Lasting memory: +1", no
"Proposed by" line.
"""

from __future__ import annotations

import pytest

from monchat.core.backends.model_size import ModelSize
from monchat.gui.chat.first_start import welcome_text
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, item_answer

WARNING = {"en": ("memory built with it will be unreliable", "ollama pull gemma3:4b", "lasting memory"),
           "ja": ("記憶は当てになりません", "ollama pull gemma3:4b", "長期の記憶")}


def _flush(window, qtbot):
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    return dialog


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_flush_dialog_says_a_small_model_makes_unreliable_memory_and_nothing_goes_in_unasked(
        app, make_window, backend, qtbot, language):
    backend.size_label = "135M"
    backend.default_reply = NO_ITEMS
    log_message(app, 2, "Remember: I live in Sendai")
    backend.enqueue(item_answer("Lives in Sendai", "home/city", "explicit", 0.95))
    window = make_window(language)
    dialog = _flush(window, qtbot)
    assert dialog.small_model.isVisible()
    for words in WARNING[language]:
        assert words in dialog.small_model.text(), (words, dialog.small_model.text())
    assert "135M" in dialog.small_model.text() and "Layer" not in dialog.small_model.text()

    with qtbot.waitSignal(dialog.flush_finished, timeout=10000):
        dialog.start_button.click()
    summary = dialog.summary.text()
    assert ("Lasting memory: +0" if language == "en" else "長期の記憶: +0") in summary, summary
    note = {"en": "nothing from this flush went into lasting memory without your approval",
            "ja": "この整理から、あなたの承認なしに長期の記憶に入ったものはありません"}[language]
    assert note in summary, summary
    assert [row.held for row in app.memory.queue()] == ["small_model"]
    dialog.close_button.click()


def test_a_model_of_4_3b_is_not_warned_about_and_auto_approves(app, make_window, backend, qtbot):
    backend.size_label = "4.3B"
    backend.default_reply = NO_ITEMS
    log_message(app, 2, "Remember: I live in Sendai")
    backend.enqueue(item_answer("Lives in Sendai", "home/city", "explicit", 0.95))
    dialog = _flush(make_window("en"), qtbot)
    assert not dialog.small_model.isVisible() and dialog.small_model.text() == ""
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000):
        dialog.start_button.click()
    assert "Lasting memory: +1" in dialog.summary.text() and app.memory.queue() == []
    dialog.close_button.click()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_first_start_welcome_says_a_small_model_makes_unreliable_memory(app, make_window, backend, qtbot,
                                                                             language):
    backend.size_label = "135M"
    window = make_window(language)
    welcome = window.chat_view.welcome
    qtbot.waitUntil(lambda: WARNING[language][0] in welcome.text(), timeout=5000)
    assert all(words in welcome.text() for words in WARNING[language])
    plainly = {"en": "Its Japanese replies will be nonsense", "ja": "日本語の返事は意味をなしません"}[language]
    assert plainly in welcome.text()  # issue 38: not only "memory unreliable"


def test_the_embedded_model_is_called_unreliable_for_memory_in_the_welcome(translators):
    """The bundled SmolLM2 states 135M in its GGUF file: the welcome says what it means for memory."""
    from monchat.core.backends.embedded import EmbeddedBackend
    size = EmbeddedBackend().model_size()
    for language in ("en", "ja"):
        translators.install(language)
        text = welcome_text("embedded", "embedded:SmolLM2-135M-Instruct", size)
        assert all(words in text for words in WARNING[language]), text
    translators.install("en")
    assert "unreliable" not in welcome_text("ollama", "ollama:gemma3:4b", ModelSize.from_label("4.3B"))
    assert "unreliable" not in welcome_text("ollama", "ollama:gemma3:4b", None)  # unknown is not small


@pytest.mark.parametrize(("language", "proposed", "held"), [
    ("en", "Proposed by Base, Lifestyle, Project.", "made with a small model"),
    ("ja", "提案したペルソナ: ベースペルソナ、ライフスタイルペルソナ、プロジェクトペルソナ。", "小さなモデル")])
def test_the_review_queue_shows_one_row_with_who_proposed_it(app, make_window, backend, qtbot, language, proposed,
                                                            held):
    backend.size_label = "135M"
    backend.default_reply = NO_ITEMS
    log_message(app, 2, "Remember: I live in Sendai")
    for wording in ("Lives in Sendai", "lives in Sendai.", "The user lives in Sendai"):  # base, lifestyle, project
        backend.enqueue(item_answer(wording, "home/city", "explicit", 0.95))
    report = app.flush.run(seed=7)
    window = make_window(language)
    dialog = window.memory_menu.open_review_queue()
    assert dialog.table.topLevelItemCount() == 1
    assert proposed in dialog.reason.text(), dialog.reason.text()
    assert held in dialog.reason.text()
    dialog.close()
    flush_dialog = window.memory_menu.open_flush()  # the summary's words for the fold
    [note] = [n for n in report.notes if n.code == "folded"]
    worded = {"en": "Base, Lifestyle, Project proposed the same change; it is one item: “Lives in Sendai”.",
              "ja": "ベースペルソナ、ライフスタイルペルソナ、プロジェクトペルソナ が同じ変更を提案しました。"
                    "ひとつの項目にまとめています:「Lives in Sendai」"}[language]
    assert flush_dialog.report_words(note) == worded
    flush_dialog.close()
    del app.personas.filters["project"]  # a persona since deleted: its id is all there is to show
    dialog = window.memory_menu.open_review_queue()
    assert proposed.replace({"en": "Project", "ja": "プロジェクトペルソナ"}[language], "project") in dialog.reason.text()
    dialog.close()
