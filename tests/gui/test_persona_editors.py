"""Persona editors: surface personas and card import; the filter pool with its locked base."""

from __future__ import annotations

import json
import tomllib

import pytest

from PySide6.QtCore import Qt

from monchat.core.personas.library import BASE_FILTER_ID
from tests.test_cards import png_with_chunks, text_chunk, v2_card


# ---- surface personas --------------------------------------------------------
def test_surface_persona_edit_and_save(window, app, qtbot):
    dialog = window.open_surface_personas()
    assert dialog.current_id() == "hana"
    dialog.greeting_edit.setPlainText("やっほー、待ってたよ。")
    dialog.temperature.setValue(0.4)
    with qtbot.waitSignal(dialog.personas_changed, timeout=1000):
        assert dialog.save_current()
    saved = tomllib.loads((app.paths.user_surface_dir / "hana.toml").read_text(encoding="utf-8"))
    assert saved["greeting"] == "やっほー、待ってたよ。" and saved["temperature"] == 0.4
    assert app.personas.surface["hana"].greeting == "やっほー、待ってたよ。"
    assert window.chat_view.greeting.text() == "やっほー、待ってたよ。"  # the window followed
    dialog.close()


def test_new_surface_persona_needs_valid_fields(window, app, qtbot):
    dialog = window.open_surface_personas()
    dialog.new_persona()
    dialog.name_edit.setText("")
    assert not dialog.save_current()
    assert "cannot be saved" in dialog.message.text() and "Name is required." in dialog.message.text()
    assert "Id" not in dialog.message.text()  # the id is made from the name: only the name is asked for
    qtbot.keyClicks(dialog.name_edit, "Sora")
    dialog.system_edit.setPlainText("あなたはソラ。静かに話します。")
    assert dialog.save_current()
    assert "sora" in app.personas.surface and window.persona_box.findData("sora") >= 0
    dialog.close()


def test_card_import_json_and_png_create_surface_personas(window, app, tmp_path, qtbot):
    dialog = window.open_surface_personas()
    json_card = tmp_path / "aoi.json"
    json_card.write_text(json.dumps(v2_card()), encoding="utf-8")
    with qtbot.waitSignal(dialog.personas_changed, timeout=1000):
        persona = dialog.import_card_file(json_card)
    assert persona is not None and persona.id == "aoi"
    assert app.personas.surface["aoi"].extensions == v2_card()["data"]["extensions"]
    assert dialog.current_id() == "aoi" and dialog.name_edit.text() == "Aoi"
    assert "Works best with short messages." in dialog.notes.text()  # creator notes shown, not sent

    png = tmp_path / "aoi.png"
    card = v2_card(name="葵", description="{{char}}は司書。", first_mes="いらっしゃい、{{user}}。")
    png.write_bytes(png_with_chunks(text_chunk("chara", card)))
    persona = dialog.import_card_file(png)
    assert persona is not None and persona.name == "葵"
    saved = app.personas.surface[persona.id]
    assert saved.greeting == "いらっしゃい、ユーザー。" and saved.language == "ja"
    assert window.persona_box.findData(persona.id) >= 0
    assert (app.paths.user_surface_dir / f"{persona.id}.toml").exists()
    dialog.close()


def test_a_file_that_is_not_a_card_is_refused_with_the_reason(window, app, tmp_path):
    dialog = window.open_surface_personas()
    before = set(app.personas.surface)
    bad = tmp_path / "photo.png"
    bad.write_bytes(png_with_chunks())
    assert dialog.import_card_file(bad) is None
    assert "no character card" in dialog.message.text()
    assert set(app.personas.surface) == before
    dialog.close()


# ---- filter personas -----------------------------------------------------------
def test_the_base_filter_persona_is_visible_but_locked(window, app):
    dialog = window.open_filter_personas()
    assert dialog.current_id() == BASE_FILTER_ID
    assert "(locked)" in dialog.list.currentItem().text()
    assert not dialog.save_button.isEnabled()
    assert dialog.locked_label.isVisible()
    assert dialog.name_edit.isReadOnly() and dialog.picks_edit.isReadOnly()
    assert not dialog.delete_button.isEnabled()
    # Even if the form were forced, the registry refuses it and nothing is written.
    dialog.name_edit.setReadOnly(False)
    dialog.name_edit.setText("my base")
    assert not dialog.save_current()
    assert "locked" in dialog.message.text()
    assert not (app.paths.user_filter_dir / "base.toml").exists()
    assert app.personas.filters[BASE_FILTER_ID].name != "my base"
    dialog.close()


def test_edit_add_and_remove_pool_personas(window, app, qtbot):
    dialog = window.open_filter_personas()
    rows = {dialog.list.item(i).data(Qt.ItemDataRole.UserRole): i for i in range(dialog.list.count())}
    dialog.list.setCurrentRow(rows["lifestyle"])
    assert dialog.save_button.isEnabled() and not dialog.name_edit.isReadOnly()
    dialog.max_items.setValue(2)
    dialog.ignores_edit.setPlainText(dialog.ignores_edit.toPlainText() + "\nweather")
    assert dialog.save_current()
    assert app.personas.filters["lifestyle"].max_items == 2
    assert "weather" in app.personas.filters["lifestyle"].ignores
    assert dialog.delete_button.isEnabled()  # the user's copy can go (the shipped one comes back)

    dialog.new_persona()
    qtbot.keyClicks(dialog.name_edit, "Music")
    dialog.talent_edit.setText("music the user listens to and plays")
    dialog.picks_edit.setPlainText("songs and artists\ninstruments practised")
    dialog.ignores_edit.setPlainText("everything that is not music")
    dialog.max_items.setValue(1)
    dialog.style_box.setCurrentIndex(dialog.style_box.findData("timeline"))
    assert dialog.save_current()
    assert app.personas.filters["music"].style == "timeline"
    assert dialog.current_id() == "music" and dialog.delete_button.isEnabled()

    dialog.fixed.boxes[0].setCurrentIndex(dialog.fixed.boxes[0].findData("music"))
    dialog.fixed.boxes[1].setCurrentIndex(dialog.fixed.boxes[1].findData("emotional"))
    assert dialog.save_fixed()
    assert app.settings.flush.fixed_personas == ["music", "emotional"]
    assert tomllib.loads(app.paths.settings_path.read_text())["flush"]["fixed_personas"] == ["music", "emotional"]

    box = dialog.delete_selected()  # asked first, as in the chat personas' window
    assert "Music" in box.text() and "music" in app.personas.filters
    box.button(box.StandardButton.Yes).click()
    assert "music" not in app.personas.filters and dialog.message.text() == "Deleted Music."
    assert app.settings.flush.fixed_personas == ["emotional"]  # a removed persona cannot stay fixed
    dialog.close()


def test_fixed_personas_must_differ(window, app):
    dialog = window.open_filter_personas()
    for box in dialog.fixed.boxes:
        box.setCurrentIndex(box.findData("project"))
    assert not dialog.save_fixed()
    assert "two different" in dialog.message.text()
    dialog.close()


def test_the_random_persona_of_the_last_flush_is_shown(app, window, backend, qtbot):
    from tests.gui.conftest import log_message
    from tests.gui.flush_script import NO_ITEMS
    backend.default_reply = NO_ITEMS
    log_message(app, 1, "today I walked")
    report = app.flush.run()
    random_id = next(p["id"] for p in report.personas if p["role"] == "random")
    dialog = window.open_filter_personas()
    name = app.personas.filters[random_id].name
    qtbot.waitUntil(lambda: name in dialog.last_random.text(), timeout=5000)
    assert dialog.last_random.text() == f"Picked at the last flush: {name}"
    dialog.close()


def test_no_flush_yet(window, qtbot):
    dialog = window.open_filter_personas()
    qtbot.waitUntil(lambda: dialog.last_random.text() == "No flush has run yet.", timeout=5000)
    dialog.close()


def test_a_surface_persona_of_yours_can_be_deleted_and_chat_falls_back(window, app, qtbot):
    from PySide6.QtWidgets import QMessageBox
    dialog = window.open_surface_personas()
    dialog.new_persona()
    qtbot.keyClicks(dialog.name_edit, "Sora")
    dialog.system_edit.setPlainText("あなたはソラ。")
    assert dialog.save_current()
    window.persona_box.setCurrentIndex(window.persona_box.findData("sora"))
    assert app.settings.chat.persona == "sora"
    dialog.reload("hana")
    assert not dialog.delete_button.isEnabled() and "Only personas you made" in dialog.delete_button.toolTip()
    dialog.reload("sora")
    assert dialog.delete_button.isEnabled()
    box = dialog.delete_selected()
    assert isinstance(box, QMessageBox) and "Sora" in box.text()
    box.button(QMessageBox.StandardButton.Yes).click()
    assert "sora" not in app.personas.surface and not (app.paths.user_surface_dir / "sora.toml").exists()
    assert app.settings.chat.persona == "hana" and window.persona_id() == "hana"
    assert 'persona = "hana"' in app.paths.settings_path.read_text(encoding="utf-8")
    dialog.close()


def test_the_cli_deletes_a_surface_persona(app, capsys):
    from monchat.cli.main import build_parser
    from monchat.core.personas.library import SurfacePersona
    app.personas.save_surface(SurfacePersona(id="sora", name="ソラ", system="あなたはソラ。"))
    args = build_parser().parse_args(["personas", "delete", "sora"])
    assert args.run(app, args) == 0
    assert "deleted surface persona sora" in capsys.readouterr().out and "sora" not in app.personas.surface


def test_a_png_card_refused_in_the_editor_leaves_no_picture(window, app, tmp_path):
    """Issue 25: the card's picture is written only with its saved persona, also from the window's Import."""
    dialog = window.open_surface_personas()
    png = tmp_path / "big.png"
    png.write_bytes(png_with_chunks(text_chunk("chara", v2_card(name="Big", description="d" * 3_000_000))))
    for _ in range(2):
        assert dialog.import_card_file(png) is None
        assert "at most 1 MB" in dialog.message.text()
    assert sorted(p.name for p in app.paths.user_surface_dir.iterdir()) == []
    dialog.close()


def test_a_new_personas_id_is_made_from_its_name(window, qtbot):
    from monchat.gui.kit.ids import id_from_name
    dialog = window.open_surface_personas()
    dialog.new_persona()
    qtbot.keyClicks(dialog.name_edit, "Sora Blue")
    assert dialog.persona_id() == "sora-blue" and dialog.id_note.text() == "Saved as: sora-blue"
    assert id_from_name("ハナ", {"persona"}) == "persona-2" and id_from_name("Mira", {"mira"}) == "mira-2"
    dialog.close()


# ---- the one editor both are built on (gui/personas/editor.py) -----------------------------------------------
def test_both_editors_save_a_new_persona_once_and_refuse_its_id_a_second_time(window, app, qtbot):
    """New → a name → Save lists and selects it; a second new persona with the same id is refused in words,
    nothing overwritten: the base editor's one save, in the chat personas and the filter personas alike."""
    def surface_text(dialog):
        dialog.system_edit.setPlainText("You are Kumo. You speak calmly.")

    def filter_text(dialog):
        dialog.talent_edit.setText("the weather the user lives in")
        dialog.picks_edit.setPlainText("rain and sun\nseasons")
        dialog.ignores_edit.setPlainText("everything that is not weather")

    for open_editor, known, fill in ((window.open_surface_personas, lambda: app.personas.surface, surface_text),
                                     (window.open_filter_personas, lambda: app.personas.filters, filter_text)):
        dialog = open_editor()
        dialog.new_persona()
        qtbot.keyClicks(dialog.name_edit, "Kumo")  # the id follows the name
        assert dialog.persona_id() == "kumo"
        fill(dialog)
        with qtbot.waitSignal(dialog.personas_changed, timeout=1000):
            assert dialog.save_current()
        assert dialog.current_id() == "kumo" and dialog.message.text() == "Saved."
        first = known()["kumo"]
        dialog.new_persona()
        dialog.name_edit.setText("Kumo again")
        dialog.set_persona_id("kumo")  # as if another window had saved a "kumo" meanwhile
        fill(dialog)
        assert not dialog.save_current()
        assert "already" in dialog.message.text() and "kumo" in dialog.message.text()
        assert known()["kumo"].name == first.name == "Kumo"
        dialog.close()


# ---- issue 24, second pass: the id is no field, one word for Delete, a long text shows its start -------------------
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_id_is_a_note_made_from_the_name_never_a_field_and_never_changes(app, make_window, qtbot, language):
    """A user never types an id: no line edit holds it; a new persona's follows its name, an existing one's
    stays what it is when the name changes (its file keeps its name)."""
    from PySide6.QtWidgets import QLineEdit
    window = make_window(language)
    for dialog in (window.open_surface_personas(), window.open_filter_personas()):
        assert dialog.persona_id() and dialog.id_note.isHidden()  # an existing persona's id: nothing to see
        assert [edit for edit in dialog.findChildren(QLineEdit) if edit.text() == dialog.persona_id()] == []
        dialog.new_persona()
        qtbot.keyClicks(dialog.name_edit, "Umi")
        assert dialog.persona_id() == "umi" and "umi" in dialog.id_note.text() and not dialog.id_note.isHidden()
        dialog.close()
    dialog = window.open_filter_personas()
    rows = {dialog.list.item(i).data(Qt.ItemDataRole.UserRole): i for i in range(dialog.list.count())}
    dialog.list.setCurrentRow(rows["project"])
    dialog.name_edit.clear()
    qtbot.keyClicks(dialog.name_edit, "Work and study")
    assert dialog.persona_id() == "project"  # an existing persona's id cannot change
    assert dialog.save_current()
    assert (app.paths.user_filter_dir / "project.toml").is_file() and "work-and-study" not in app.personas.filters
    dialog.close()


@pytest.mark.parametrize(("language", "word"), [("en", "Delete…"), ("ja", "削除…")])
def test_both_persona_windows_say_delete_with_the_same_word_and_ask_first(app, make_window, language, word):
    from PySide6.QtWidgets import QMessageBox
    from monchat.core.personas.library import FilterPersona
    app.personas.save_filter(FilterPersona(id="kumo", name="Kumo", talent="weather", picks=["rain"],
                                           ignores=["the rest"]))
    window = make_window(language)
    surface, filters = window.open_surface_personas(), window.open_filter_personas()
    assert surface.delete_button.text() == filters.delete_button.text() == word
    filters.reload("kumo")
    filters.delete_button.click()  # asks before it deletes, as the chat personas' window does
    [box] = [w for w in filters.findChildren(QMessageBox) if w.isVisible()]
    assert "Kumo" in box.text() and "kumo" in app.personas.filters
    box.button(QMessageBox.StandardButton.No).click()
    assert "kumo" in app.personas.filters
    surface.close()
    filters.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_long_talent_shows_its_start_when_a_persona_is_chosen(app, make_window, qtbot, language):
    """The English base persona's Talent opened scrolled to its end ("ay: what the user ate…")."""
    window = make_window(language)
    dialog = window.open_filter_personas()
    dialog.resize(700, 600)
    for row in range(dialog.list.count()):
        dialog.list.setCurrentRow(row)
        for edit in (dialog.name_edit, dialog.talent_edit):
            assert edit.cursorPosition() == 0, (row, edit.text())
    dialog.close()
    surface = window.open_surface_personas()
    for edit in (surface.name_edit, surface.description_edit):
        assert edit.cursorPosition() == 0, edit.text()
    surface.close()
