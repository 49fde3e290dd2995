"""Japanese and English: the .ts holds every string, the .qm is compiled from it, every screen translates."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QMenu, QTabBar, QTabWidget, QTreeWidget, QWidget

from monchat.gui import i18n_tools
from monchat.gui.translation import Translators, arg, resolve_language


def catalog(language: str) -> dict[tuple[str, str], str]:
    root = ET.parse(i18n_tools.ts_path(language)).getroot()
    return {(c.findtext("name"), m.findtext("source")): (m.find("translation").text or "")
            for c in root.findall("context") for m in c.findall("message")}


def test_the_ts_files_hold_every_string_of_the_gui(tmp_path):
    for language in i18n_tools.LANGUAGES:
        fresh = tmp_path / f"monchat_{language}.ts"
        shutil.copy(i18n_tools.ts_path(language), fresh)
        i18n_tools.update(fresh, language)
        assert fresh.read_bytes() == i18n_tools.ts_path(language).read_bytes(), (
            f"monchat_{language}.ts is out of date: run `python -m monchat.gui.i18n_tools update` "
            "and translate the new strings")


def test_every_japanese_string_is_translated():
    root = ET.parse(i18n_tools.ts_path("ja")).getroot()
    unfinished = [m.findtext("source") for m in root.iter("message")
                  if m.find("translation").get("type") == "unfinished" or not m.findtext("translation")]
    assert unfinished == []
    japanese = catalog("ja")
    assert len(japanese) > 200
    assert japanese[("GateBar", "Flush now…")] == "今すぐ整理…"


def test_the_qm_files_are_compiled_from_the_current_ts(tmp_path):
    for language in i18n_tools.LANGUAGES:
        qm = tmp_path / f"monchat_{language}.qm"
        i18n_tools.release(i18n_tools.ts_path(language), qm)
        assert qm.read_bytes() == i18n_tools.qm_path(language).read_bytes(), (
            f"monchat_{language}.qm is stale: run `python -m monchat.gui.i18n_tools release`")


def test_the_tools_are_found():
    lrelease = i18n_tools.tool("lrelease")
    result = subprocess.run([lrelease, "-version"], capture_output=True, text=True)
    assert "lrelease" in (result.stdout + result.stderr)


def test_the_japanese_qm_loads_and_translates(qapp):
    translators = Translators()
    try:
        assert translators.install("ja")
        assert QCoreApplication.translate("MainWindow", "Settings…") == "設定…"
        assert arg(QCoreApplication.translate("Failures", "What to do: %1"), "x") == "対処法: x"
    finally:
        translators.remove()
    assert QCoreApplication.translate("MainWindow", "Settings…") == "Settings…"


def test_language_follows_the_setting_or_the_system():
    assert resolve_language("ja") == "ja" and resolve_language("en") == "en"
    assert resolve_language("") in ("ja", "en")


# ---- every screen in both languages ---------------------------------------------
def shown_texts(widget: QWidget) -> list[str]:
    """Texts a user sees on a widget and its children."""
    texts = [widget.windowTitle()]
    for child in widget.findChildren(QWidget):
        if isinstance(child, QLabel):
            texts.append(child.text())
        elif isinstance(child, QAbstractButton):
            texts += [child.text(), child.toolTip()]
        elif isinstance(child, QGroupBox):
            texts.append(child.title())
        elif isinstance(child, QTabWidget):
            texts += [child.tabText(i) for i in range(child.count())]
        elif isinstance(child, QTabBar):
            texts += [child.tabText(i) for i in range(child.count())]
        elif isinstance(child, QTreeWidget):
            texts += [child.headerItem().text(i) for i in range(child.columnCount())]
        elif isinstance(child, QMenu):
            texts += [a.text() for a in child.actions()]
        placeholder = getattr(child, "placeholderText", None)
        if callable(placeholder):
            texts.append(placeholder())
    return [t for t in texts if t]


def untranslated(texts: list[str]) -> list[str]:
    """English source strings still showing although they have a (different) Japanese translation."""
    english = {source for (_, source), text in catalog("ja").items() if text != source and "%" not in source}
    return sorted({t for t in texts if t in english})


SCREENS = {
    "main window": (lambda w: w, "設定…", "Settings…"),
    "settings": (lambda w: w.open_settings(), "設定", "Settings"),
    "surface personas": (lambda w: w.open_surface_personas(), "会話ペルソナ", "Chat personas"),
    "filter personas": (lambda w: w.open_filter_personas(), "フィルターペルソナ", "Filter personas"),
    "flush": (lambda w: w.memory_menu.open_flush(), "整理（フラッシュ）", "Flush"),
    "memory": (lambda w: w.memory_menu.open_memory(), "記憶", "Memory"),
    "review queue": (lambda w: w.memory_menu.open_review_queue(), "確認待ちの変更", "Review queue"),
}


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_screen_opens_in_both_languages(make_window, qtbot, language, screen):
    window = make_window(language)
    opener, japanese, english = SCREENS[screen]
    shown = opener(window)
    assert shown is not None and shown.isVisible()
    texts = shown_texts(shown)
    if screen == "main window":
        texts += [a.text() for a in window.findChildren(type(window.menus.settings_action))]
        texts += shown_texts(window.composer) + shown_texts(window.gate_bar)
    expected = japanese if language == "ja" else english
    assert expected in texts, f"{expected!r} not shown on the {screen}"
    if language == "ja":
        assert untranslated(texts) == [], f"English left on the {screen}"
        assert "未整理のログファイル: 0" in window.gate_bar.count_label.text()
    else:
        assert untranslated(texts), "the check above would not notice English"
    if shown is not window:
        if hasattr(shown, "start_button"):
            qtbot.waitUntil(lambda: bool(shown.persona_rows), timeout=5000)  # the plan was read
        shown.close()


# ---- words from codes, never core's English prose ---------------------------------
LATIN = re.compile(r"[A-Za-z]")
KANA_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def known_error_codes() -> dict[str, type]:
    """Every KnownError subclass in monchat.core (all of its modules imported) by code."""
    import importlib
    import pkgutil

    import monchat.core
    from monchat.core.errors import KnownError
    for module in pkgutil.walk_packages(monchat.core.__path__, "monchat.core."):
        importlib.import_module(module.name)
    found, todo = {}, [KnownError]
    while todo:
        cls = todo.pop()
        found.setdefault(cls.code, cls)
        todo += cls.__subclasses__()
    return found


def test_every_error_code_has_words_in_both_languages(translators):
    from monchat.gui.failures import advice, explanation, headline
    from monchat.gui.kit.workers import Failure
    codes = known_error_codes()
    assert {"flush_cancelled", "gate_closed", "backend_unreachable", "error"} <= set(codes)
    translators.install("en")
    fallback = headline(Failure("no-such-code", ""))
    english = {code: headline(Failure(code, "")) for code in codes}
    assert [code for code, words in english.items() if words == fallback] == []
    translators.install("ja")
    for code in codes:
        japanese = headline(Failure(code, "English detail.", "English hint."))
        assert japanese != english[code] and KANA_KANJI.search(japanese), code
        shown = explanation(Failure(code, "English detail.", "English hint."))
        if advice(code):  # a code with its own advice: core's English stays out of the Japanese window
            assert "English" not in shown and shown.startswith("対処法: "), code
        else:  # too general to word here: core's message is the only account of what happened
            assert "English detail." in shown


def test_flush_progress_and_summary_read_in_japanese(app, make_window, backend, qtbot):
    from tests.gui.conftest import log_message
    from tests.gui.flush_script import NO_ITEMS, item_answer
    backend.default_reply = NO_ITEMS
    log_message(app, 30, "覚えておいて、私は仙台に住んでいます。")
    log_message(app, 2, "今日はすき焼きを食べた")
    backend.enqueue(item_answer("仙台に住んでいる", "home/city"))
    window = make_window("ja")
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    statuses, messages = [], []
    original = dialog.show_progress

    def recording(progress):
        original(progress)
        messages.append(progress.message)
        statuses.append(dialog.status.text())
    dialog.runner.start = _wrap_progress(dialog.runner.start, dialog.show_progress, recording)
    with qtbot.waitSignal(dialog.flush_finished, timeout=10000):
        dialog.start_button.click()
    names = [label.text() for label, _ in dialog.persona_rows.values()]
    assert len(statuses) >= 10 and any("がログを読んでいます" in s for s in statuses)
    assert any("照らし合わせ" in s for s in statuses)
    for status in statuses:
        for name in names:
            status = status.replace(name, "")
        assert not LATIN.search(status), status
    assert not any(m and m in s for m in messages for s in statuses)  # core's English progress text
    assert [label.text() for label in dialog.role_labels.values()].count("あなたが選んだ") == 2
    assert "長期の記憶: +1" in dialog.summary.text() and not LATIN.search(dialog.summary.text())
    kinds = dialog.changes.topLevelItem(0).text(0)
    assert "長期の記憶へ" in kinds and not LATIN.search(kinds)
    dialog.close()


def _wrap_progress(start, shown, recording):
    """The runner's ``start`` with the dialog's progress slot replaced by ``recording``."""
    def wrapped(name, fn, **kwargs):
        if kwargs.get("on_progress") == shown:
            kwargs["on_progress"] = recording
        return start(name, fn, **kwargs)
    return wrapped


def test_every_change_kind_and_stage_has_japanese_words(make_window):
    from monchat.core.flush.records import STAGES
    window = make_window("ja")
    dialog = window.memory_menu.open_flush()
    kinds = ("new", "reinforced", "merged", "superseded", "retracted", "queued", "layer1", "layer2", "pending",
             "dormant", "expired", "contradicted")
    for names, words in ((kinds, dialog.change_name), (STAGES, dialog.stage_name),
                         (("base", "fixed", "random"), dialog.role_name)):
        japanese = {name: words(name) for name in names}
        for name, word in japanese.items():  # Japanese words, not the code nor a blank
            assert KANA_KANJI.search(word) and not LATIN.search(word), (name, word)
        assert len(set(japanese.values())) == len(names), japanese  # one word per code, no catch-all
    dialog.close()


# ---- plural forms (issue 24, second pass) ------------------------------------------------------------------------
def test_no_window_words_say_s_in_brackets():
    """Counts use Qt's plural forms (``tr("%n message(s)", "", n)`` with numerus entries), never "(s)" shown."""
    import re
    from pathlib import Path
    gui = Path(__file__).resolve().parents[2] / "monchat" / "gui"
    left: set[str] = set()
    found = set()
    for path in gui.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for call in re.finditer(r'tr\((?:"[^"]*"\s*)+(?P<rest>[,)])', text):
            words = call.group(0)
            if re.search(r"\w\((s|es|ies)\)", words) and not _numerus(text, call):
                found.add(path.relative_to(gui).as_posix())
    assert found <= left, sorted(found - left)


def _numerus(text, call) -> bool:
    """Whether the tr() call passes a count (its third argument), so Qt picks the plural form."""
    after = text[call.end() - 1:call.end() + 60]
    return after.startswith(",") and after[1:].lstrip().startswith('""')


def test_every_english_plural_has_its_singular_and_plural_form():
    """monchat_en.ts carries the English forms of every "%n … (s)" text: without them "1 message(s)" shows."""
    import xml.etree.ElementTree as ET
    from monchat.gui.i18n_tools import ts_path
    missing = []
    for message in ET.parse(ts_path("en")).getroot().iter("message"):
        if message.get("numerus") == "yes":
            forms = [form.text or "" for form in message.find("translation").findall("numerusform")]
            if len(forms) != 2 or not all(forms) or any("(s)" in f or "(ies)" in f for f in forms):
                missing.append(message.find("source").text)
    assert missing == []
