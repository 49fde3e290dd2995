"""A look that invites chatting: avatars beside replies, the user's words apart on the right, code with
a background and its own copy button, a readable column on a wide window, light and dark."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QTextFormat

from tests.gui.screenshot_main import dark_palette

REPLY = "Here you go:\n\n```python\nprint('hi')\n```\n\nand `x = 1`, then\n\n```\nsecond block\n```\n"


def talk(window, backend, qtbot, reply: str = REPLY):
    backend.enqueue(reply)
    window.composer.edit.setPlainText("show me code")
    with qtbot.waitSignal(window.turn_finished, timeout=5000):
        window.composer.submit()
    return window.chat_view.bubbles[-2:]


def test_replies_have_the_personas_avatar_and_the_user_is_on_the_right(window, backend, qtbot):
    user, reply = talk(window, backend, qtbot)
    assert reply.avatar.isVisible() and not reply.avatar.pixmap().isNull()
    assert not user.avatar.isVisible()
    assert user.card.geometry().left() > reply.card.geometry().left()  # apart: the user's words to the right
    assert user.card.palette().color(QPalette.ColorRole.Window) != reply.card.palette().color(QPalette.ColorRole.Window)


def test_a_shipped_persona_shows_its_own_picture_and_an_unknown_one_its_initial(app):
    from monchat.gui.personas.avatars import Avatars, avatar_file
    assert avatar_file("hana.svg", app.paths.user_surface_dir) is not None
    avatars = Avatars(app.personas, 36)
    assert not avatars("hana").isNull() and avatars("hana").width() == 36
    assert not avatars("someone-gone").isNull()  # a circle with the first letter


def link_colours(reply) -> set[str]:
    """The colours the Copy links are drawn in."""
    found = set()
    block = reply.body.document().begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fmt = iterator.fragment().charFormat()
            if fmt.isAnchor() and fmt.anchorHref().startswith("copy:"):
                found.add(fmt.foreground().color().name())
            iterator += 1
        block = block.next()
    return found


def copy_links(reply) -> list[tuple[str, str]]:
    """The (href, text) of every Copy link in a reply's code block labels."""
    links = []
    block = reply.body.document().begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fmt = iterator.fragment().charFormat()
            if fmt.isAnchor() and fmt.anchorHref().startswith("copy:"):
                links.append((fmt.anchorHref(), iterator.fragment().text()))
            iterator += 1
        block = block.next()
    return links


def test_code_has_a_background_a_language_label_and_a_copy_link_on_each_block(window, backend, qtbot):
    _, reply = talk(window, backend, qtbot)
    assert copy_links(reply) == [("copy:0", "Copy"), ("copy:1", "Copy")]
    text = reply.body.toPlainText()
    assert "python   Copy\nprint('hi')" in text and "code   Copy\nsecond block" in text
    reply.body.anchorClicked.emit(QUrl("copy:0"))
    assert QGuiApplication.clipboard().text() == "print('hi')" and copy_links(reply)[0][1] == "Copied"
    reply.body.anchorClicked.emit(QUrl("copy:1"))
    assert QGuiApplication.clipboard().text() == "second block"
    block = reply.body.document().begin()
    shaded = []
    while block.isValid():
        if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeLanguage):
            shaded.append(block.blockFormat().background().color())
        block = block.next()
    base = reply.body.palette().color(QPalette.ColorRole.Base)
    assert shaded and all(c.isValid() and c != base and c != QColor(0, 0, 0) for c in shaded)


def test_code_is_coloured_by_its_language_readably_on_light_and_dark(window, backend, qtbot, qapp):
    from monchat.gui.kit.colours import contrast
    _, reply = talk(window, backend, qtbot)
    old = qapp.palette()
    try:
        for palette in (old, dark_palette()):
            qapp.setPalette(palette)
            qtbot.wait(20)
            colours = set()
            block = reply.body.document().begin()
            while block.isValid():
                if block.text() == "print('hi')":
                    shade = block.blockFormat().background().color()
                    iterator = block.begin()
                    while not iterator.atEnd():
                        colours.add(iterator.fragment().charFormat().foreground().color().name())
                        iterator += 1
                block = block.next()
            assert len(colours) >= 2, "print, the string: coloured apart"
            assert all(contrast(QColor(c), shade) >= 4.5 for c in colours)
            assert all(contrast(QColor(c), shade) >= 4.5 for c in link_colours(reply)), "the Copy link reads"
    finally:
        qapp.setPalette(old)


def test_single_line_breaks_in_a_reply_are_kept(window, backend, qtbot):
    _, reply = talk(window, backend, qtbot, "first line\nsecond line\n\n- a\n- b")
    assert reply.body.toPlainText().startswith("first line\nsecond line")  # a line break, not a space


def test_the_hard_breaks_stay_out_of_code():
    from monchat.gui.chat.markdown import keep_line_breaks
    assert keep_line_breaks("a\nb\n\n```\nx\ny\n```\nTitle\n===") == "a  \nb\n\n```\nx\ny\n```\nTitle\n==="


def test_a_reply_without_code_has_no_copy_links(window, backend, qtbot):
    _, reply = talk(window, backend, qtbot, "just words")
    assert copy_links(reply) == [] and reply.body.code == []


def test_a_wide_window_keeps_a_readable_column(window, backend, qtbot):
    _, reply = talk(window, backend, qtbot, "hello")
    window.resize(1800, 800)
    qtbot.waitUntil(lambda: window.chat_view.viewport().width() > 1500, timeout=2000)
    qtbot.wait(50)
    assert reply.width() <= 900 and reply.geometry().left() > 300


def test_dark_palette_is_followed(window, backend, qtbot, qapp):
    user, reply = talk(window, backend, qtbot, "hello")
    before = user.card.palette().color(QPalette.ColorRole.Window)
    old = qapp.palette()
    try:
        qapp.setPalette(dark_palette())
        qtbot.waitUntil(lambda: user.card.palette().color(QPalette.ColorRole.Window) != before, timeout=2000)
        assert user.card.palette().color(QPalette.ColorRole.Window).lightness() < 100  # dark, not a light tint
    finally:
        qapp.setPalette(old)


def test_an_imported_png_cards_picture_becomes_the_avatar(window, app, tmp_path):
    from tests.test_cards import png_with_chunks, text_chunk, v2_card
    path = tmp_path / "aoi.png"
    path.write_bytes(png_with_chunks(text_chunk("chara", v2_card())))
    editor = window.open_surface_personas()
    persona = editor.import_card_file(path)
    assert persona is not None and persona.avatar == f"{persona.id}.png"
    assert (app.paths.user_surface_dir / persona.avatar).read_bytes() == path.read_bytes()
    editor.close()
