"""Qt's own words follow the window's language (issue 38: the import file dialog said "Look in:" in Japanese):
Qt's translations (``qtbase_ja``, from PySide6's translations folder) are loaded with monchat's."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLabel


def labels(dialog) -> dict[str, str]:
    return {label.objectName(): label.text() for label in dialog.findChildren(QLabel) if label.objectName()}


@pytest.mark.parametrize("language, look_in, file_type, cancel", [
    ("ja", "アドレス(&L):", "ファイルの種類(&T):", "キャンセル"), ("en", "&Look in:", "Files of &type:", "Cancel")])
def test_the_file_dialogs_labels_are_in_the_windows_language(make_window, qtbot, language, look_in, file_type,
                                                             cancel):
    window = make_window(language)
    dialog = QFileDialog(window, "import")
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # Qt's own dialog, as under Xvfb or no desktop portal
    qtbot.addWidget(dialog)
    dialog.show()
    found = labels(dialog)
    assert found["lookInLabel"] == look_in and found["fileTypeLabel"] == file_type
    buttons = dialog.findChild(QDialogButtonBox)
    assert cancel in buttons.button(QDialogButtonBox.StandardButton.Cancel).text()
    dialog.close()

