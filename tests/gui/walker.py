"""Walk every window and dialog of monchat's GUI and gather the texts a user sees.

Dialogs are found generically: every ``MainWindow.open_*`` method is called, and every QDialog
subclass defined in ``monchat.gui`` must be among what they opened (a new dialog that no menu
opens is reported, not silently skipped). Used by ``test_languages.py`` and the screenshot script.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

from PySide6.QtWidgets import (QAbstractButton, QAbstractSpinBox, QComboBox, QDialog, QGroupBox, QLabel, QLineEdit,
                               QListWidget, QMainWindow, QMenu, QPlainTextEdit, QTabBar, QTabWidget, QTextEdit,
                               QToolBar, QTreeWidget, QWidget)

import monchat.gui


def dialog_classes() -> set[type]:
    """Every concrete QDialog subclass defined in a monchat.gui module (a base others derive from is left out)."""
    found = set()
    for module in pkgutil.walk_packages(monchat.gui.__path__, "monchat.gui."):
        mod = importlib.import_module(module.name)
        for _, cls in inspect.getmembers(mod, inspect.isclass):
            if issubclass(cls, QDialog) and cls.__module__ == mod.__name__:
                found.add(cls)
    return {cls for cls in found if not any(other is not cls and issubclass(other, cls) for other in found)}


def openers(window: QMainWindow) -> dict[str, callable]:
    """The ``open_*`` methods that take no argument: the main window's, and those of the helpers it
    keeps as attributes (a menu object such as ``window.file_menu``), by name."""
    found = {}
    owners = [window] + [value for value in vars(window).values()
                         if not isinstance(value, (QWidget, type)) and any(
                             name.startswith("open_") for name in dir(type(value)))]
    for owner in owners:
        for name, method in inspect.getmembers(owner, inspect.ismethod):
            if name.startswith("open_"):
                params = [p for p in inspect.signature(method).parameters.values()
                          if p.default is inspect.Parameter.empty]
                if not params:
                    found.setdefault(name, method)
    return found


def _items(widget: QWidget) -> list[str]:
    if isinstance(widget, QComboBox):
        return [widget.itemText(i) for i in range(widget.count())]
    if isinstance(widget, QListWidget):
        return [widget.item(i).text() for i in range(widget.count())]
    if isinstance(widget, QTreeWidget):
        texts = [widget.headerItem().text(i) for i in range(widget.columnCount())]
        for n in range(widget.topLevelItemCount()):
            item = widget.topLevelItem(n)
            texts += [item.text(i) for i in range(widget.columnCount())]
        return texts
    if isinstance(widget, (QTabWidget, QTabBar)):
        return [widget.tabText(i) for i in range(widget.count())]
    return []


def shown_texts(top: QWidget, include_data: bool = False, tooltips: bool = True) -> list[str]:
    """The texts a user sees on ``top`` and its visible children (labels, buttons, tooltips, lists …).

    Args:
        include_data: also the contents of text boxes (what the user typed or a record holds).
        tooltips: also the tooltips (where the program's own terms may stand beside the plain words).
    """
    texts = [top.windowTitle()]
    for child in [top] + top.findChildren(QWidget):
        if child is not top and not child.isVisibleTo(top):
            continue
        if tooltips:
            texts.append(child.toolTip())
        if isinstance(child, QLabel):
            texts.append(child.text())
        elif isinstance(child, QAbstractButton):
            texts.append(child.text())
        elif isinstance(child, QGroupBox):
            texts.append(child.title())
        elif isinstance(child, QAbstractSpinBox):
            texts += [getattr(child, "suffix", lambda: "")(), getattr(child, "prefix", lambda: "")()]
        elif isinstance(child, (QMenu, QToolBar)):
            texts += [a.text() for a in child.actions()] + ([a.toolTip() for a in child.actions()] if tooltips else [])
        elif isinstance(child, (QLineEdit, QPlainTextEdit, QTextEdit)):
            texts.append(child.placeholderText())
            if include_data:
                texts.append(child.toPlainText() if hasattr(child, "toPlainText") else child.text())
        texts += _items(child)
    if isinstance(top, QMainWindow):
        for menu in top.menuBar().findChildren(QMenu):
            texts += [menu.title()] + [a.text() for a in menu.actions()]
    return [re.sub(r"<[^>]+>", " ", t) for t in texts if t]


JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
# Words that stay Latin in the Japanese window: names of products, models, keys, formats and units.
ALLOWED_LATIN = {
    "monchat", "ollama", "openai", "gemini", "llama", "cpp", "gguf", "api", "url", "http", "https", "json",
    "jsonl", "markdown", "toml", "md", "sqlite", "db", "ctrl", "enter", "shift", "esc", "tab", "id", "ids",
    "ok", "mb", "gb", "kb", "ms", "s", "min", "h", "qwen", "llm", "sillytavern", "png", "chatgpt", "claude",
    "gemini_api_key", "openai_api_key", "v", "b", "q", "k", "m", "x", "ai", "gpu", "cpu", "lm", "studio", "vllm",
    "export", "localhost", "utc", "readme", "pdf", "ggml", "phi", "gemma", "mistral", "google",
}
# Language names are shown in their own script wherever a language is chosen.
LANGUAGE_NAMES = {"日本語", "English"}


def latin_words(text: str, allowed: set[str]) -> list[str]:
    """Latin words in ``text`` that are not product names, paths, keys or units (for the Japanese UI)."""
    text = re.sub(r"`[^`]*`", " ", text)  # commands and code in backticks
    text = re.sub(r"\bmonchat [a-z]+\b|(?<!\w)--[a-z][\w-]*", " ", text)  # a command to type: monchat restore, --force
    text = re.sub(r"\(&\w\)|&(?=\w)", " ", text)  # menu mnemonics: チャット(&C)
    text = re.sub(r"\b[A-Z][A-Z0-9_]{1,}\b", " ", text)  # acronyms and environment variables: API, GEMINI_API_KEY
    text = re.sub(r"\S*[/\\]\S*", " ", text)  # paths and addresses
    text = re.sub(r"\S+\.(toml|md|json|jsonl|db|log|gguf|png|svg|j2)\b", " ", text)
    text = re.sub(r"[\w.-]+:[\w.-]+", " ", text)  # model tags like qwen2.5:7b
    text = re.sub(r"\b\w+(?:[-.]\w+)+\b", " ", text)  # program and host names: llama-server, ollama.com
    text = re.sub(r"\b[\w-]*\d[\w.-]*\b", " ", text)  # model names and versions with digits
    return [w for w in LATIN_WORD.findall(text) if w.lower() not in allowed and w.lower().strip("'’") not in allowed]


def other_script(texts: list[str], language: str, names: set[str] = frozenset()) -> list[str]:
    """Texts with words of the other language: Japanese script in the English UI, Latin words in the Japanese.

    Args:
        names: proper names that may show in either (the surface personas' names: ハナ, Mira).
    """
    texts = [t for t in texts if t not in LANGUAGE_NAMES]
    if language == "en":
        def rest(text: str) -> str:
            for name in names:
                text = text.replace(name, " ")
            return text
        return sorted({t for t in texts if JAPANESE.search(rest(t))})
    allowed_words = ALLOWED_LATIN | {word.lower() for name in names for word in LATIN_WORD.findall(name)}
    return sorted({t for t in texts if latin_words(t, allowed_words)})
