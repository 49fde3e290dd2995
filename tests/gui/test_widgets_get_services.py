"""Widgets receive the service of their feature, never the ``App``, the raw ``Store`` nor the main window
(docs/services.md, issue 23; docs/architecture.md, issue 37).

Never remember… took ``app`` to reach ``app.never``; it now takes ``NeverRules``. Only the main window holds the
``App`` (``gui/main_window.py``; ``gui/main.py`` builds it). The helpers the window builds (the File and Memory
menus, your controls, the meter's counter, Help's entries, the long-message reader) used to take the window and
reach ``window.app`` and the window's private ``_open``; they are now given the services they use and the
window's ``OpenDialogs`` (``gui/kit/dialogs.py``), and the window connects their signals in one block. The menus
are an object of their own (``gui/window_menus.py``: ``MainMenu``), so nothing sets attributes on the window from
outside.
"""

from __future__ import annotations

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parents[2] / "monchat" / "gui"
HOLDS_THE_APP = {"main_window.py", "main.py"}
THE_WINDOW = "main_window.py"
# What may take the main window itself: the frame is the window's own look before any app exists (menu titles, an
# empty toolbar and status bar); it holds no service and there is no app to reach.
TAKES_THE_WINDOW = {"window_frame.py": {"Frame"}}
WINDOW_NAMES = {"window", "w", "win", "main_window", "main"}


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


def _is_the_window(node: ast.expr) -> bool:
    """``window``, ``w``… or ``self.window``, ``self.main_window``…: a name the main window goes by."""
    if isinstance(node, ast.Name):
        return node.id in WINDOW_NAMES
    return isinstance(node, ast.Attribute) and node.attr in WINDOW_NAMES


def reaches_through_the_window(source: str) -> list[str]:
    """``window.app`` / ``w.app`` / ``self.window.app``, any ``._open(`` call, and ``window.x = …`` (an attribute
    set on the window from outside), each with its line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "app" and _is_the_window(node.value):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_open":
            found.append(f"{node.lineno}: {ast.unparse(node.func)}(")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Attribute) and _is_the_window(target.value):
                    found.append(f"{node.lineno}: {ast.unparse(target)} =")
    return found


def takes_the_window(source: str) -> list[str]:
    """A class whose ``__init__`` takes ``window`` (or a parameter typed ``MainWindow``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                for arg in item.args.args + item.args.kwonlyargs:
                    kind = ast.unparse(arg.annotation) if arg.annotation is not None else ""
                    if arg.arg in WINDOW_NAMES - {"w"} or kind.split(".")[-1].strip("\"'") == "MainWindow":
                        found.append(f"{node.name}({arg.arg})")
    return found


def _modules():
    return [(path.relative_to(GUI).as_posix(), path.read_text(encoding="utf-8")) for path in sorted(GUI.rglob("*.py"))]


def test_no_widget_is_given_the_app_or_the_raw_store():
    found = {path.relative_to(GUI).as_posix(): names for path in sorted(GUI.rglob("*.py"))
             if path.relative_to(GUI).as_posix() not in HOLDS_THE_APP and (names := given_app_or_store(path))}
    assert found == {}


def test_nothing_outside_the_main_window_reaches_through_it():
    found = {name: hits for name, source in _modules()
             if name != THE_WINDOW and (hits := reaches_through_the_window(source))}
    assert found == {}


def test_no_helper_takes_the_main_window():
    found = {name: names for name, source in _modules()
             if name != THE_WINDOW and (names := [n for n in takes_the_window(source)
                                                  if n.split("(")[0] not in TAKES_THE_WINDOW.get(name, set())])}
    assert found == {}


def test_the_checks_see_what_they_forbid():
    """Each pattern of the old wiring is caught (the checks above would pass on nothing)."""
    planted = ("class FileMenu:\n"
               "    def __init__(self, window):\n"
               "        self.window = window\n"
               "    def open_backup(self):\n"
               "        w = self.window\n"
               "        return w._open(BackupDialog(w.app.paths, w.runner, w))\n"
               "    def memory(self):\n"
               "        return self.window.app.memory\n"
               "def build_menus(window):\n"
               "    window.regenerate_action = QAction()\n")
    assert sorted(reaches_through_the_window(planted)) == ["10: window.regenerate_action =", "6: w._open(",
                                                           "6: w.app", "8: self.window.app"]
    assert takes_the_window(planted) == ["FileMenu(window)"]
    assert reaches_through_the_window("def f(window, app):\n    return app.chat, window.menus\n") == []


def test_never_remember_is_given_its_rules(app, make_window):
    from monchat.core.memory.never import NeverRules
    window = make_window("en")
    dialog = window.controls.open_never_remember()
    assert isinstance(dialog.never, NeverRules) and not hasattr(dialog, "app")
    dialog.close()
