"""Widgets receive the service of their feature, never the ``App`` nor the raw ``Store`` (docs/services.md, issue 23).

Never remember… took ``app`` to reach ``app.never``; it now takes ``NeverRules``. Only the main window holds the
``App`` (``gui/main_window.py``; ``gui/main.py`` builds it).
"""

from __future__ import annotations

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parents[2] / "monchat" / "gui"
HOLDS_THE_APP = {"main_window.py", "main.py"}


def given_app_or_store(path: Path) -> list[str]:
    """``Class.__init__(… app …)`` / a parameter typed ``App`` or ``Store`` in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                for arg in item.args.args + item.args.kwonlyargs:
                    kind = ast.unparse(arg.annotation) if arg.annotation is not None else ""
                    if arg.arg in ("app", "store") or kind.split(".")[-1].strip("\"'") in ("App", "Store"):
                        found.append(f"{node.name}({arg.arg})")
    return found


def test_no_widget_is_given_the_app_or_the_raw_store():
    found = {path.relative_to(GUI).as_posix(): names for path in sorted(GUI.rglob("*.py"))
             if path.relative_to(GUI).as_posix() not in HOLDS_THE_APP and (names := given_app_or_store(path))}
    assert found == {}


def test_never_remember_is_given_its_rules(app, make_window):
    from monchat.core.memory.never import NeverRules
    window = make_window("en")
    dialog = window.controls.open_never_remember()
    assert isinstance(dialog.never, NeverRules) and not hasattr(dialog, "app")
    dialog.close()
