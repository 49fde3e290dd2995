"""Qt warnings during teardown fail the test, as pytest-qt's ``qt_log_level_fail`` does for its body.

pytest-qt captures Qt messages from setup to the end of the test body and
stops there, so a warning printed while a fixture closes a window (workers
drained, ``window.shutdown``) would pass unseen. These hooks capture Qt's
messages around the whole teardown of every test that carries the
``qt_log_level_fail`` marker, honour its ``qt_log_ignore`` patterns, and turn
the teardown report into a failure that lists the messages.

A conftest uses them with ``from tests.support.qt_teardown import *``.
"""

from __future__ import annotations

import re

import pytest

__all__ = ["pytest_runtest_teardown", "pytest_runtest_makereport"]

_MESSAGES = pytest.StashKey[list]()
# pytest-qt's levels: a message fails the test when its type is in the level's set.
_FAILING = {"DEBUG": {"QtDebugMsg", "QtInfoMsg", "QtWarningMsg", "QtCriticalMsg", "QtFatalMsg"},
            "INFO": {"QtInfoMsg", "QtWarningMsg", "QtCriticalMsg", "QtFatalMsg"},
            "WARNING": {"QtWarningMsg", "QtCriticalMsg", "QtFatalMsg"},
            "CRITICAL": {"QtCriticalMsg", "QtFatalMsg"},
            "NO": set()}


def _fail_level(item) -> str:
    marker = item.get_closest_marker("qt_log_level_fail")
    if marker is None or not marker.args:
        return "NO"
    return str(marker.args[0]).upper()


def _ignored(item) -> list[re.Pattern]:
    patterns = [p for m in item.iter_markers("qt_log_ignore") for p in m.args]
    patterns += list(item.config.getini("qt_log_ignore") or [])
    return [re.compile(p) for p in patterns]


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    if not _FAILING.get(_fail_level(item)):
        yield
        return
    from PySide6.QtCore import qInstallMessageHandler

    messages: list[tuple[str, str]] = []

    def capture(mode, context, text) -> None:
        messages.append((getattr(mode, "name", str(mode)).rsplit(".", 1)[-1], text))

    previous = qInstallMessageHandler(capture)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)
        item.stash[_MESSAGES] = messages


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when != "teardown":
        return
    report = outcome.get_result()
    failing = _FAILING.get(_fail_level(item), set())
    ignored = _ignored(item)
    bad = [(kind, text) for kind, text in item.stash.get(_MESSAGES, [])
           if kind in failing and not any(p.search(text) for p in ignored)]
    if bad and report.outcome != "failed":
        report.outcome = "failed"
        report.longrepr = "Qt message(s) during teardown (qt_log_level_fail):\n" + "\n".join(
            f"  {kind}: {text}" for kind, text in bad)
