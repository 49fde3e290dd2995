"""Qt translations: monchat's own (``i18n/monchat_<lang>.qm``) and Qt's (``qtbase_<lang>.qm``).

English is the source language; Japanese ships as a translation. The language
is ``settings.chat.language`` when set, else the system locale.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

log = logging.getLogger(__name__)

I18N_DIR = Path(__file__).resolve().parent / "i18n"
LANGUAGES = ("en", "ja")


_PLACEHOLDER = re.compile(r"%([1-9])")


def arg(text: str, *values) -> str:
    """Fill ``%1``…``%9`` of a translated string in one pass (Qt's ``QString::arg``; PySide6 has none).

    Translations may reorder the placeholders; a value containing ``%2`` is never filled again.
    """
    def fill(match: re.Match) -> str:
        n = int(match.group(1))
        return str(values[n - 1]) if n <= len(values) else match.group(0)
    return _PLACEHOLDER.sub(fill, text)


def ui_is_english() -> bool:
    """Whether the window speaks English, the language core writes its messages in."""
    return QLocale().language() in (QLocale.Language.English, QLocale.Language.C)


def ui_language() -> str:
    """``ja`` or ``en``: the language the window speaks now (for data that carries both)."""
    return "ja" if QLocale().language() == QLocale.Language.Japanese else "en"


def system_language() -> str:
    """``ja`` when the system prefers Japanese, else ``en``."""
    for name in QLocale.system().uiLanguages():
        if name.lower().startswith("ja"):
            return "ja"
        if name.lower().startswith("en"):
            return "en"
    return "en"


def resolve_language(setting: str) -> str:
    """The language to show: the setting (``ja``/``en``) or, when empty, the system's."""
    return setting if setting in LANGUAGES else system_language()


def qm_path(language: str) -> Path:
    return I18N_DIR / f"monchat_{language}.qm"


class Translators:
    """The translators installed for one language; ``remove()`` undoes ``install()``."""

    def __init__(self) -> None:
        self.language = "en"
        self._installed: list[QTranslator] = []

    def install(self, language: str) -> bool:
        """Install monchat's and Qt's translations. Returns False if monchat's could not load."""
        self.remove()
        self.language = language
        QLocale.setDefault(QLocale(QLocale.Language.Japanese if language == "ja" else QLocale.Language.English))
        ok = True
        own = QTranslator()  # English too: its plural forms ("1 message", "3 messages")
        if own.load(str(qm_path(language))):
            self._add(own)
        else:
            log.warning("translation %s could not be loaded", qm_path(language))
            ok = False
        if language == "en":
            return ok
        qt = QTranslator()
        if qt.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            self._add(qt)
        return ok

    def _add(self, translator: QTranslator) -> None:
        QCoreApplication.installTranslator(translator)
        self._installed.append(translator)

    def remove(self) -> None:
        for translator in self._installed:
            QCoreApplication.removeTranslator(translator)
        self._installed.clear()
        self.language = "en"
        QLocale.setDefault(QLocale.system())
