"""Help → monchat Help… (F1): the README's part for users in a window beside the chat (gui/user_guide.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

README = """```sh
bash scripts/setup && .venv/bin/monchat
```

Setup notes for a checkout.
# monchat

For users.

## The flush

Press Flush.

## Development

How to run the tests.
"""


def test_the_guide_is_the_readme_from_its_title_up_to_the_developers_part():
    from monchat.gui.user_guide import user_part
    guide = user_part(README)
    assert guide.startswith("# monchat\n") and "scripts/setup" not in guide and "Setup notes" not in guide
    assert "## The flush\n\nPress Flush." in guide and "Development" not in guide and "run the tests" not in guide
    assert user_part("# monchat\n\nOnly users.\n") == "# monchat\n\nOnly users.\n"  # no setup lines, no dev part


def test_f1_and_the_help_menu_open_the_guide(app, qtbot, translators):
    from monchat.gui.main import create_main_window
    from monchat.gui.user_guide import UserGuideWindow
    window = create_main_window(app, translators)
    qtbot.addWidget(window)
    window.show()
    help_menu = window.menuBar().actions()[-1].menu()
    assert help_menu.title().replace("&", "") == "Help"
    entry = help_menu.actions()[0]
    assert entry.text() == "monchat Help…" and entry.shortcut() == QKeySequence(Qt.Key.Key_F1)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    guides = [d for d in window.findChildren(UserGuideWindow) if d.isVisible()]
    assert len(guides) == 1 and "The flush" in guides[0].text.toPlainText()
    guides[0].close()
    assert window.shutdown(10000)


def test_the_guide_names_only_files_a_user_has():
    """The README's user part once sent readers to ``../shared/DESIGN.md``, outside the project (and Help showed it).
    Every path it names is in the source folder."""
    import re
    from monchat.gui.user_guide import README as path, read_guide
    guide = read_guide()
    assert "../" not in guide and "shared/" not in guide
    named = set(re.findall(r"`((?:docs|scripts|personas|prompts)/[^`\s]+)`", guide))
    assert named and all((path.parent / name).exists() for name in named), named
