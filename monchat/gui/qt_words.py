"""Qt's own words that its Japanese catalogue lacks, translated in monchat's (issue 38: "Look in:" in Japanese).

``qtbase_ja`` as PySide6 ships it predates Qt's current file-dialog labels ("&Look in:", "Files of &type:"), so
Qt asks for texts it does not hold. Naming them here puts them in ``monchat_ja.ts`` under Qt's own context; Qt
asks every installed translator, so monchat's answers where ``qtbase_ja`` has nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def file_dialog_words() -> list[str]:
    """The file dialog's labels ``qtbase_ja`` does not translate, in the window's language."""
    return [QCoreApplication.translate("QFileDialog", "&Look in:"),
            QCoreApplication.translate("QFileDialog", "Files of &type:")]
