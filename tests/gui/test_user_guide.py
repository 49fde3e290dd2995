"""Help → monchat Help… (F1): a short guide for people, in the window's language (gui/user_guide.py, gui/guide/)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from tests.gui.walker import other_script

TOPICS = {"en": ("Personas", "Logs and Flush", "Memory", "Review", "Off the record", "Choosing a model",
                 "Where your data lives"),
          "ja": ("ペルソナ", "ログと整理", "記憶", "確認待ち", "オフレコ", "モデルの選び方", "データの保存場所")}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_guide_covers_what_a_user_meets_and_names_no_developer_things(language):
    from monchat.gui.user_guide import read_guide
    guide = read_guide(language)
    headings = re.findall(r"^## (.+)$", guide, re.M)
    assert tuple(headings) == TOPICS[language]
    assert "MONCHAT_" not in guide and not re.search(r"(^|\s)--\w", guide)  # no environment variables, no flags
    assert "docs/" not in guide and "README" not in guide and "pytest" not in guide
    assert "nonsense" in guide or "意味をなしません" in guide  # the tiny model's Japanese, said plainly


@pytest.mark.parametrize("language", ["en", "ja"])
def test_f1_opens_the_guide_of_the_windows_language(app, qtbot, translators, language):
    from monchat.gui.main import create_main_window
    from monchat.gui.user_guide import UserGuideWindow
    app.settings.chat.language = language
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    window.show()
    help_menu = window.menuBar().actions()[-1].menu()
    entry = help_menu.actions()[0]
    assert entry.shortcut() == QKeySequence(Qt.Key.Key_F1)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    guides = [d for d in window.findChildren(UserGuideWindow) if d.isVisible()]
    assert len(guides) == 1
    text = guides[0].text.toPlainText()
    assert all(topic in text for topic in TOPICS[language])
    if language == "ja":
        prose = [line.replace("Ctrl+Shift+O", "") for line in text.splitlines() if line.strip()]  # a key is a key
        assert other_script(prose, "ja") == [], "the Japanese guide is Japanese"
        assert "英語" not in guides[0].windowTitle()
    guides[0].close()
    assert window.shutdown(10000)
