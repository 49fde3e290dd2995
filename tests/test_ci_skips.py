"""Under CI=true a skipped test is a failure (a lost dependency must not look green); elsewhere a skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = "from tests.conftest import pytest_make_collect_report, pytest_runtest_makereport  # noqa\n"
SKIPS_IN_A_TEST = '''
import pytest


def test_needs_something():
    pytest.skip("something is not installed")


def test_fine():
    assert True
'''
SKIPS_THE_MODULE = '''
import pytest

pytest.importorskip("a_module_that_is_not_installed", reason="the extra is not installed")


def test_never_collected():
    assert True
'''


def run_inner(tmp_path: Path, source: str, ci: str | None,
              workers: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_inner.py").write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("CI", None)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers, "--rootdir",
                           str(tmp_path), str(tmp_path / "test_inner.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one process", "xdist workers"])
@pytest.mark.parametrize("source", [SKIPS_IN_A_TEST, SKIPS_THE_MODULE], ids=["in a test", "a whole module"])
def test_a_skip_fails_under_ci(tmp_path, source, workers):
    done = run_inner(tmp_path, source, "true", workers)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "skipped under CI=true" in out and "not installed" in out
    assert "skipped" not in out.splitlines()[-1]  # nothing is counted as skipped


@pytest.mark.parametrize("source", [SKIPS_IN_A_TEST, SKIPS_THE_MODULE], ids=["in a test", "a whole module"])
def test_a_skip_is_a_skip_outside_ci(tmp_path, source):
    done = run_inner(tmp_path, source, None)
    out = done.stdout + done.stderr
    assert done.returncode in (0, 5), out  # 5: the skipped module left nothing to run
    assert "1 skipped" in out.splitlines()[-1]
