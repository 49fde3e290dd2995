"""A Qt warning printed while a fixture tears down fails its test (pytest-qt alone sees only the body)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = "from tests.support.qt_teardown import *  # noqa\n"
TESTS = '''
import pytest
from PySide6.QtCore import qWarning


@pytest.fixture
def noisy_teardown(qapp):
    yield
    qWarning("{text}")


@pytest.mark.qt_log_level_fail("WARNING")
@pytest.mark.qt_log_ignore("harmless platform noise")
def test_the_body_is_quiet(noisy_teardown):
    assert True
'''


def run_inner(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_inner.py").write_text(TESTS.replace("{text}", text), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "QT_QPA_PLATFORM": "offscreen"}
    env.pop("CI", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "qt_api=pyside6",
                           "--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("text, fails", [("the window was closed twice", True),
                                         ("harmless platform noise", False)])
def test_a_qt_warning_in_teardown_fails_the_test(tmp_path, text, fails):
    done = run_inner(tmp_path, text)
    out = done.stdout + done.stderr
    if fails:
        assert done.returncode == 1, out
        assert "Qt message(s) during teardown" in out and "QtWarningMsg: the window was closed twice" in out
        assert "1 passed, 1 error" in out  # the body passed; its teardown is the error
    else:  # an ignored pattern stays ignored in teardown too
        assert done.returncode == 0, out
        assert "1 passed" in out
