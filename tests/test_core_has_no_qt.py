"""monchat.core never imports Qt: every module under it imports in a process without PySide6."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = r"""
import importlib, json, pkgutil, sys
import monchat.core
names = [m.name for m in pkgutil.walk_packages(monchat.core.__path__, "monchat.core.", onerror=lambda n: None)]
for name in names:
    importlib.import_module(name)
print(json.dumps({"modules": names, "qt": sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6"))}))
"""


def test_no_core_module_imports_qt():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert "monchat.core.chat.service" in result["modules"] and "monchat.core.store.db" in result["modules"]
    assert result["qt"] == []
