"""The first start: the persona speaks the window's language, a welcome explains the window, and the
empty chat offers nothing dead (no "Show older messages")."""

from __future__ import annotations

import tomllib

import pytest

from monchat.app import build_app
from monchat.gui.chat.first_start import welcome_text
from tests.gui.conftest import log_message
from tests.gui.test_languages import first_window  # noqa: F401 (fixture)


@pytest.mark.parametrize(("language", "persona", "greeting"), [("en", "mira", "Hey"), ("ja", "hana", "こんにちは")])
def test_a_first_start_talks_with_a_persona_of_the_window_language(app, first_window, language,  # noqa: F811
                                                                   persona, greeting):
    window = first_window(language)
    assert window.persona_id() == persona and window.chat_view.greeting.text().startswith(greeting)
    saved = tomllib.loads(app.paths.settings_path.read_text(encoding="utf-8"))
    assert saved["chat"]["persona"] == persona  # chosen once: the next start keeps it


def test_a_later_start_keeps_the_chosen_persona(home, backend, qtbot, translators):
    first = build_app(str(home), pinned_backend=backend)
    first.settings.chat.persona = "ren"
    first.save_settings()
    first.store.close()
    app = build_app(str(home), pinned_backend=backend)
    try:
        from monchat.gui.chat.first_start import adopt_language
        assert not adopt_language(app, "en") and app.settings.chat.persona == "ren"
    finally:
        app.store.close()


def test_the_welcome_explains_the_window_and_names_the_backend(app, first_window, backend, qtbot):  # noqa: F811
    window = first_window("en")
    welcome = window.chat_view.welcome
    qtbot.waitUntil(welcome.isVisible, timeout=2000)
    text = welcome.text()
    for word in ("persona", "log files", "Flush", "memory", "scripted:scripted-1"):
        assert word in text, word
    assert not window.chat_view.older_button.isVisible()  # nothing older to show in an empty chat
    backend.enqueue("hi!")
    window.composer.edit.setPlainText("hello")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    assert not welcome.isVisible()


def test_the_tiny_embedded_model_comes_with_the_way_to_a_better_one(translators):
    translators.install("en")
    assert "install Ollama" in welcome_text("embedded", "embedded:qwen2.5-0.5b")
    assert "install Ollama" not in welcome_text("ollama", "ollama:qwen2.5:7b")
    translators.install("ja")
    assert "Ollama（ollama.com）" in welcome_text("embedded", "embedded:x") and "ようこそ" in welcome_text("", "")


def test_older_messages_are_offered_only_when_there_are_some(app, make_window):
    window = make_window("en")
    assert not window.chat_view.older_button.isVisible()
    log_message(app, 30, "an old message outside the window")
    log_message(app, 0.1, "a recent one")
    window.reload_conversation()
    assert window.chat_view.older_button.isVisible() and not window.chat_view.welcome.isVisible()


@pytest.mark.parametrize(("language", "name", "pick"), [("en", "Lifestyle", "food and drink in detail"),
                                                        ("ja", "ライフスタイルペルソナ", "食べ物や飲み物の細部")])
def test_filter_personas_show_the_texts_of_the_window_language(make_window, language, name, pick):
    window = make_window(language)
    dialog = window.open_filter_personas()
    rows = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert name in rows
    dialog.list.setCurrentRow(rows.index(name))
    assert dialog.name_edit.text() == name and dialog.picks_edit.toPlainText().startswith(pick)
    dialog.close()


def test_saving_a_filter_persona_unchanged_keeps_both_languages(app, make_window):
    window = make_window("ja")
    dialog = window.open_filter_personas()
    rows = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    dialog.list.setCurrentRow(rows.index("プロジェクトペルソナ"))
    dialog.max_items.setValue(2)
    assert dialog.save_current()
    saved = app.personas.filters["project"]
    assert saved.max_items == 2 and saved.name == "Project" and saved.texts("ja").name == "プロジェクトペルソナ"
    dialog.picks_edit.setPlainText("仕事で使っている道具")  # the user's own words: now what the model reads
    assert dialog.save_current()
    saved = app.personas.filters["project"]
    assert saved.picks == ["仕事で使っている道具"] and saved.translations == {}
    dialog.close()


def test_settings_problems_at_start_speak_the_window_language(translators):
    from monchat.gui.main import startup_notes
    translators.install("en")
    assert startup_notes(["unknown setting chat.x ignored"]) == ["unknown setting chat.x ignored"]
    translators.install("ja")
    [note] = startup_notes(["unknown setting chat.x ignored"])
    assert "monchat doctor" in note and "unknown" not in note
    assert startup_notes([]) == []


def test_a_first_start_offers_no_empty_flush_and_no_pause_warning(window):
    """Nothing logged yet: no limits to warn about, and Flush is disabled with the reason."""
    bar = window.gate_bar
    assert bar.count_label.text() == "Unflushed log files: 0" and "pauses" not in bar.count_label.text()
    assert "chat pauses at 5" in bar.count_label.toolTip()
    assert not window.menus.flush_action.isEnabled() and window.menus.flush_action.toolTip() == "Nothing to flush yet: chat first."
    assert not bar.flush_button.isEnabled() and bar.flush_button.toolTip() == "Nothing to flush yet: chat first."


def test_help_shows_the_guide_for_users(app, qtbot, translators):
    from monchat.gui.main import create_main_window
    from monchat.gui.user_guide import UserGuideWindow
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    guide = window.user_guide.open_help()
    assert isinstance(guide, UserGuideWindow) and guide.isVisible() and not guide.isModal()
    text = guide.text.toPlainText()
    assert text.startswith("monchat Help") and "Logs and Flush" in text and "Choosing a model" in text
    assert "Development" not in text and "MONCHAT_HOME" not in text
    assert window.user_guide.open_help() is guide  # one window, raised again
    guide.close()
    assert window.shutdown(10000)
