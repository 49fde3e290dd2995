"""No English in the Japanese window, no Japanese in the English one: every window and dialog, walked.

The walker (``walker.py``) opens every dialog the main window's ``open_*`` methods open, and fails
when a QDialog subclass of monchat.gui is not among them, so dialogs added later are walked too.
Beyond the first look it visits states whose words once came from core's English: Test connection
against a server that is not running, a persona that cannot be saved, a failed reply.
"""

from __future__ import annotations

import pytest

from monchat.core.errors import BackendUnreachable
from monchat.gui.main import create_main_window
from tests.fakes.fake_ollama import dead_url
from tests.gui.walker import dialog_classes, openers, other_script, shown_texts


@pytest.fixture
def first_window(qtbot, app, translators):
    """The window as a first start builds it (``create_main_window``), in a language."""
    windows = []

    def make(language: str):
        app.settings.chat.language = language
        window = create_main_window(app, translators)
        qtbot.addWidget(window)
        windows.append(window)
        window.show()
        qtbot.waitUntil(lambda: window.meter.meter is not None, timeout=5000)
        return window

    yield make
    for window in windows:
        assert window.shutdown(10000), "workers did not finish"


def names_of(app) -> set[str]:
    return {p.name for p in app.personas.surface.values()}


def settle(dialog, qtbot) -> None:
    """Wait for what a dialog reads when it opens (the flush plan)."""
    if hasattr(dialog, "start_button"):
        qtbot.waitUntil(lambda: dialog.plan_label.text() not in ("", dialog.tr("Reading the plan…")), timeout=5000)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_window_and_dialog_speaks_only_its_language(app, first_window, backend, qtbot, language):
    window = first_window(language)
    from monchat.core.models.catalog import load_catalog
    # proper names either window shows as they are: the personas', and the catalog models' titles, licences and
    # language codes (Help → A model for this computer…)
    names = names_of(app) | {word for model in load_catalog()
                             for word in (model.title, model.licence, *model.languages)}
    found = {"main window": other_script(shown_texts(window), language, names)}
    opened = set()
    for name, open_dialog in sorted(openers(window).items()):
        dialog = open_dialog()
        assert dialog is not None and dialog.isVisible(), name
        opened.add(type(dialog))
        settle(dialog, qtbot)
        found[name] = other_script(shown_texts(dialog), language, names)
        dialog.close()
    missing = {cls.__name__ for cls in dialog_classes() - opened}
    assert not missing, f"dialogs no open_* method of the main window opens (so never walked): {missing}"
    assert {k: v for k, v in found.items() if v} == {}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_results_and_errors_speak_the_window_language(app, first_window, backend, qtbot, language):
    window = first_window(language)
    names = names_of(app)
    # Test connection against a server that is not running.
    settings = window.open_settings()
    settings.model.backend_box.setCurrentIndex(settings.model.backend_box.findData("ollama"))
    settings.model.ollama_host.setText(dead_url())
    with qtbot.waitSignal(settings.tested, timeout=10000):
        settings.model.test_button.click()
    tested = settings.model.test_output.toPlainText()
    assert "✗" in tested
    found = {"test connection": other_script(tested.splitlines(), language, names)}
    settings.close()
    # A persona that cannot be saved.
    editor = window.open_surface_personas()
    editor.new_persona()  # no name, no instructions
    assert not editor.save_current()
    assert editor.message.text().count("•") >= 2  # each problem on its own line
    found["persona problems"] = other_script(shown_texts(editor), language, names)
    editor.close()
    # A reply that failed: the notice and its Retry.
    backend.enqueue(BackendUnreachable("Ollama is not running at http://127.0.0.1:11434.", "Start it."))
    window.composer.edit.setPlainText("hello")
    with qtbot.waitSignal(window.turn_failed, timeout=5000):
        window.composer.submit()
    qtbot.waitUntil(lambda: bool(window.chat_view.notices()) and window.chat_view.notices()[0].isVisible(),
                    timeout=2000)
    notice_texts = shown_texts(window.chat_view.notices()[0])
    found["failed reply"] = other_script(notice_texts, language, names)
    assert {k: v for k, v in found.items() if v} == {}


def test_the_walker_notices_the_other_script():
    assert other_script(["設定", "Settings…"], "en") == ["設定"]
    assert other_script(["設定", "Settings…", "monchat の設定", "チャット(&C)", "`ollama pull` を実行"], "ja") \
        == ["Settings…"]
    assert other_script(["ハナ", "Mira"], "en", {"ハナ"}) == [] and other_script(["Mira"], "ja", {"Mira"}) == []


def test_the_walker_finds_dialogs_and_openers_generically(window):
    from PySide6.QtWidgets import QDialog

    import monchat.gui.flush.dialog as module

    class Helper:  # a menu object another part of the window may keep, as window.file_menu
        def __init__(self, owner):
            self.owner = owner

        def open_flush_again(self):
            return self.owner.memory_menu.open_flush()

    window.file_menu = Helper(window)
    assert {"open_settings", "open_flush_again"} <= set(openers(window))

    class Base(QDialog):
        pass

    class Concrete(Base):
        pass
    Base.__module__ = Concrete.__module__ = module.__name__
    module.Base, module.Concrete = Base, Concrete
    try:
        found = dialog_classes()
        assert Concrete in found and Base not in found  # a base class is not a dialog of its own
    finally:
        del module.Base, module.Concrete


def test_an_ollama_pull_speaks_the_window_language(make_window, qtbot):
    from tests.fakes.fake_ollama import running_fake_ollama
    window = make_window("ja")
    with running_fake_ollama() as server:
        dialog = window.open_settings()
        dialog.model.ollama_host.setText(server.url)
        dialog.model.ollama_model.setText("llama3.2:1b")
        seen = []
        original = dialog.model.pull._progress

        def progress(step):
            original(step)
            seen.append(dialog.model.pull.state.text())
        dialog.model.pull.runner.start = _with_progress(dialog.model.pull.runner.start, original, progress)
        with qtbot.waitSignal(dialog.pull_finished, timeout=5000):
            dialog.model.pull.button.click()
        assert seen and all(other_script([text], "ja") == [] for text in seen), seen
        assert other_script([dialog.model.pull.state.text()], "ja") == []
        dialog.close()


def _with_progress(start, shown, replacement):
    def wrapped(name, fn, **kwargs):
        if kwargs.get("on_progress") == shown:
            kwargs["on_progress"] = replacement
        return start(name, fn, **kwargs)
    return wrapped
