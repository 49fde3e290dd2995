"""Start the desktop app: one QApplication, translations, the main window, the event loop."""

from __future__ import annotations

import logging
import sys
import traceback
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QApplication

from ..core.paths import Paths

from .translation import Translators, resolve_language, ui_is_english
from .window_frame import FirstPaint, read_gate, settings_language

if TYPE_CHECKING:  # what the frame's first paint does not need is imported after it (``open_window``)
    from PySide6.QtWidgets import QMessageBox

    from ..core.errors import KnownError

log = logging.getLogger(__name__)

# Workers (flush, model calls) run Python while the GUI thread waits for the GIL to run
# each slot, timer and event override. With the default 5 ms hand-over interval a busy
# worker held the event loop for up to ~80 ms; at 1 ms it stays far under 50 ms.
GUI_SWITCH_INTERVAL_S = 0.001
LATE_FILL_MS = 1000  # the window is filled after its frame's first paint, or by then


def tune_interpreter_for_gui() -> float:
    """Hand the GIL over faster so the GUI thread never waits long; returns the old interval."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
    return previous


def background_below_window() -> None:
    """From now on the window's workers and a flush's threads run below the window's thread
    (``core/asking/baton.py``); set as the window is filled, after its frame's first paint."""
    from ..core.asking.baton import BACKGROUND_NICE, BATON
    BATON.set_background(BACKGROUND_NICE)


def restore_interpreter(previous_interval: float) -> None:
    """The window closed: the old interval, and background work no longer below anything."""
    from ..core.asking.baton import BATON
    BATON.set_background(0)
    sys.setswitchinterval(previous_interval)


def ensure_qapplication() -> QApplication:
    """The one QApplication (an existing one is reused)."""
    qapp = QApplication.instance()
    if qapp is None:
        qapp = QApplication(sys.argv[:1])
    qapp.setApplicationName("monchat")
    qapp.setApplicationDisplayName("monchat")
    qapp.setOrganizationName("monchat")
    qapp.setDesktopFileName("io.github.monchat.monchat")  # packaging/<this>.desktop: docks show its icon (Wayland)
    return qapp


def install_tab_style(qapp: QApplication) -> None:
    """The dark-theme style while the palette is dark (``gui/kit/tab_style.py``), when the window is filled: a
    Python style makes every style query of every widget a Python call, which the frame's paint does without."""
    from .kit.tab_style import install
    install(qapp)


def create_main_window(app, translators: Translators | None = None):
    """Install the translations for the configured language and build the window, filled (not shown)."""
    from .main_window import MainWindow

    translators = translators or Translators()
    install_tab_style(QApplication.instance())
    language = resolve_language(app.settings.chat.language)
    translators.install(language)
    window = MainWindow(config_dir=app.paths.config_dir, translators=translators)
    fill_window(window, app, language)
    return window


def fill_window(window, app, language: str) -> None:
    """Attach ``app`` to the window's frame, with the helpers the filled window carries."""
    from .chat.first_start import adopt_language

    first_start = adopt_language(app, language)
    background_below_window()
    window.attach(app)
    if first_start:
        window.save_settings()  # chosen once: the next start finds settings.toml
        if app.backends.pinned is None:  # offered, never forced: the window works without it
            from .settings.model_offer import offer_model
            QTimer.singleShot(0, lambda: offer_model(app.models, app.paths.data_dir, window.runner, window.dialogs,
                                                     window))


def install_excepthook(window, crash_dir) -> None:
    """An exception escaping a slot is our bug: log it, write a crash report (in ``crash_dir``), show it."""
    from .kit.workers import Failure, write_crash_report

    def hook(kind, value, tb):
        details = "".join(traceback.format_exception(kind, value, tb))
        log.error("unhandled exception in the GUI:\n%s", details)
        failure = Failure(code="bug", message=f"{kind.__name__}: {value}", known=False, details=details,
                          crash_report=write_crash_report(crash_dir, details))
        from .failures import show_failure
        QTimer.singleShot(0, lambda: window.dialogs.keep(show_failure(window, failure)))
    sys.excepthook = hook


def startup_notes(settings_warnings: list[str]) -> list[str]:
    """What the status bar says about settings.toml: core's English lines in an English window, else
    one line in the window's language pointing at ``monchat doctor`` (which names each)."""
    if not settings_warnings or ui_is_english():
        return list(settings_warnings)
    return [QCoreApplication.translate(
        "Startup", "settings.toml has settings monchat could not use (defaults are used); "
                   "`monchat doctor` says which.")]


def run_gui(app) -> int:
    """Open the window for an app already built and run the event loop; returns the exit code."""
    return open_window(lambda: app)


def open_window(build) -> int:
    """Paint the window's frame, then ``build()`` the app and fill the window; run the event loop.

    The frame imports only PySide6 (``window_frame.py``), so the window is on the screen before the app's core is
    imported. An exception from ``build`` (a locked or damaged database…) or from filling the window closes the
    frame, ends the loop and is raised here, for the caller to show as before (``cli/gui.py``).
    """
    qapp = ensure_qapplication()
    previous_interval = tune_interpreter_for_gui()
    from .kit.collector import GuiThreadCollector
    collector = GuiThreadCollector(qapp)  # cycles holding Qt objects are freed on this thread only
    paths = Paths.from_env()
    translators = Translators()
    language = resolve_language(settings_language(paths.settings_path))
    translators.install(language)
    from .main_window import MainWindow
    window = MainWindow(config_dir=paths.config_dir, translators=translators)
    window.frame.show_gate(read_gate(paths))  # a banner at "warn" or "stop" is there before the first paint
    failed: list[BaseException] = []

    def fill() -> None:
        if window.closing or window.filled or failed:
            return
        try:
            from .kit.pyside_check import check_signals
            check_signals()  # before the app is built: a PySide6 that would abort it later is named now
            app = build()
            install_tab_style(qapp)
            wanted = resolve_language(app.settings.chat.language)
            if wanted != translators.language:
                translators.install(wanted)
            fill_window(window, app, wanted)
            install_excepthook(window, app.paths.crash_dir)
            for warning in startup_notes(app.settings_warnings):
                window.statusBar().showMessage(warning, 20000)
        except BaseException as exc:  # noqa: BLE001 (raised again below, after the loop)
            failed.append(exc)
            window.hide()
            qapp.quit()

    FirstPaint(window, fill)  # the window's child: Qt keeps it until the paint it waits for
    QTimer.singleShot(LATE_FILL_MS, window, fill)  # a window that is not painted (minimised) fills anyway
    window.show()
    try:
        code = qapp.exec()
    finally:
        if window.filled:
            window.shutdown()
        window.close()
        translators.remove()
        sys.excepthook = sys.__excepthook__
        collector.stop()
        restore_interpreter(previous_interval)
    if failed:
        raise failed[0]
    return code


def startup_error_box(exc: KnownError) -> QMessageBox:
    """A message box for a KnownError that stopped the app before its window (e.g. a damaged database).

    Opened with ``open()`` and returned, so tests never block; ``show_startup_error`` runs it.
    """
    from .failures import show_failure
    from .kit.workers import Failure
    return show_failure(None, Failure.from_known(exc))


def show_startup_error(exc: KnownError) -> None:
    """Tell a user who started the app from the desktop (no terminal) why it cannot open."""
    qapp = ensure_qapplication()
    box = startup_error_box(exc)
    box.finished.connect(qapp.quit)
    qapp.exec()

