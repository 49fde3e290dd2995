"""Install weight and the supported systems: what pyproject promises matches what the code uses."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import tomllib
from pathlib import Path

import monchat

ROOT = Path(__file__).resolve().parents[1]


def dependencies() -> list[str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]


def qt_modules_used() -> set[str]:
    used = set()
    for path in (ROOT / "monchat").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("PySide6."):
                used.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                used |= {a.name.split(".")[1] for a in node.names if a.name.startswith("PySide6.")}
    return used


def test_the_gui_depends_on_pyside6_essentials_not_the_meta_package():
    names = [re.split(r"[<>=!~ ;\[]", d, maxsplit=1)[0].lower() for d in dependencies()]
    assert "pyside6-essentials" in names and "pyside6" not in names


def test_every_qt_module_the_app_imports_ships_in_essentials():
    files = {str(f) for f in importlib.metadata.files("PySide6-Essentials") or []}
    shipped = {m.group(1) for f in files if (m := re.match(r"PySide6/(Qt\w+)\.(abi3\.so|pyd|pyi)$", f))}
    used = qt_modules_used()
    assert used and used <= shipped, f"not in PySide6-Essentials: {sorted(used - shipped)}"


def test_the_linguist_tools_ship_in_essentials():
    files = {str(f) for f in importlib.metadata.files("PySide6-Essentials") or []}
    for tool in ("lupdate", "lrelease"):
        assert any(re.match(rf"PySide6/{tool}(\.exe)?$", f) for f in files), tool


def test_the_supported_systems_are_stated_and_enforced():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "Operating System :: POSIX :: Linux" in meta["classifiers"]
    assert not any("Windows" in c for c in meta["classifiers"])
    assert monchat.unsupported_system_message("posix") == ""
    message = monchat.unsupported_system_message("nt")
    assert "Linux and macOS" in message and "WSL" in message
    assert "Linux and macOS" in (ROOT / "README.md").read_text(encoding="utf-8")
