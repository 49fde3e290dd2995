"""Walk (issue 38, point 9): File → Export memory… and File → Import memory… as a user does them, through the
file dialogs (driven by the test: the path typed, the dialog accepted), from one home's window into another's;
the imported memories wait in the other home's review queue, one click away. English and Japanese."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit

from monchat.app import build_app
from monchat.core.vocabulary.states import State
from tests.support.memory_seed import seed
from tests.support.scripted import ScriptedBackend


def answer_file_dialog(qtbot, path, seen: list) -> None:
    """When the next file dialog is up, type ``path`` into its name field and press its accept button, as a
    user would; ``seen`` gets the dialog's title."""
    def fill() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(20, fill)
            return
        seen.append(dialog.windowTitle())
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        name.setText(str(path))
        dialog.accept()
    QTimer.singleShot(50, fill)


@pytest.fixture
def other_window(qtbot, tmp_path, translators):
    """A second home with its own window: where the export is brought in."""
    from monchat.gui.main_window import MainWindow
    other = build_app(str(tmp_path / "other-home"), pinned_backend=ScriptedBackend(delay=0.002))
    made = []

    def make(language: str):
        translators.install(language)
        window = MainWindow(other)
        qtbot.addWidget(window)
        window.show()
        made.append(window)
        return window, other

    yield make
    for window in made:
        assert window.shutdown(10000), "workers did not finish"
    other.store.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_memory_goes_out_through_the_save_dialog_and_comes_in_through_the_open_dialog(
        app, make_window, other_window, qtbot, tmp_path, language):
    seed(app)
    window = make_window(language)
    export = window.file_menu.open_memory_export()
    assert export.json_choice.isChecked()
    path = tmp_path / f"memory-{language}.json"
    titles: list[str] = []
    answer_file_dialog(qtbot, path, titles)
    with qtbot.waitSignal(export.exported, timeout=10000):
        export.save_button.click()
    assert titles == [export.windowTitle()]  # the save dialog says what it saves
    data = json.loads(path.read_text(encoding="utf-8"))
    assert {m["id"] for m in data["memories"]} == {"mem-sendai", "mem-kanazawa", "mem-tea"}
    assert str(path) in export.status.text()
    export.close()

    there, other = other_window(language)
    dialog = there.file_menu.open_memory_import()
    answer_file_dialog(qtbot, path, titles)
    with qtbot.waitSignal(dialog.imported, timeout=10000) as done:
        dialog.choose_button.click()
    report = done.args[0]
    assert report.read >= 1 and report.queued == report.read
    assert titles[-1] == dialog.windowTitle()
    assert dialog.open_queue_button.isVisible() and str(report.queued) in dialog.open_queue_button.text()
    waiting = [m for m in other.memory.memories.all() if m.state == State.QUEUED]
    assert len(waiting) == report.queued and not [m for m in other.memory.memories.all() if m.state == State.ACTIVE]
    dialog.open_queue_button.click()
    queue = next(w for w in QApplication.topLevelWidgets() if type(w).__name__ == "ReviewQueueDialog" and w.isVisible())
    assert queue.isVisible() and queue.table.topLevelItemCount() >= 1
    queue.close()
