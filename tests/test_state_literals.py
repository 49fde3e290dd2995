"""The memory states are spelled in one module; everything else takes the names from there.

A second spelling is how lists came to disagree ("is this memory history?" had four answers):
this test fails as soon as a module compares a ``state`` with a string of its own, or sets one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import monchat
from monchat.core.memory import ChangeKind, State, Verdict, View

PACKAGE = Path(monchat.__file__).parent
HOME = PACKAGE / "core" / "memory" / "states.py"
NAMES = {str(s) for s in State}


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for element in node.elts for s in _strings(element)]
    return []


def _is_state(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "state") or (
        isinstance(node, ast.Subscript) and _strings(node.slice) == ["state"])


def state_literals(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_state(o) for o in operands):
                found += [(node.lineno, s) for o in operands for s in _strings(o)]
        elif isinstance(node, ast.keyword) and node.arg == "state":
            found += [(node.value.lineno, s) for s in _strings(node.value)]
    return [(line, text) for line, text in found if text in NAMES]  # the gate's "warn"/"stop" are not memory


def test_no_module_spells_a_state_of_its_own():
    offences = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == HOME:
            continue
        for line, text in state_literals(ast.parse(path.read_text(encoding="utf-8"))):
            offences.append(f"{path.relative_to(PACKAGE)}:{line}: {text!r}")
    assert offences == [], "use monchat.core.memory.State:\n" + "\n".join(offences)


def test_the_check_sees_each_way_of_spelling_a_state():
    source = ('a.state == "queued"\nb.state in ("pending", "dormant")\nrow["state"] != "active"\n'
              'update(m, state="forgotten")\nc.state is State.ACTIVE\n')
    assert sorted(t for _, t in state_literals(ast.parse(source))) == ["active", "dormant", "forgotten",
                                                                         "pending", "queued"]


def test_the_gui_has_words_for_every_state_view_verdict_and_change():
    from monchat.gui.memory import review_words
    from monchat.gui.flush.dialog import FlushDialog
    from monchat.gui.memory.browser import MemoryBrowser

    # The label tables are keyed by the enums: a new member without words raises KeyError here.
    assert len({MemoryBrowser.state_name(_Tr(), s) for s in State}) == len(State)
    assert len({MemoryBrowser.view_name(_Tr(), v) for v in View}) == len(View)
    assert len({FlushDialog.change_name(_Tr(), k) for k in ChangeKind}) == len(ChangeKind)
    assert all(review_words.verdict_name(v) != str(v) and review_words.verdict_effect(v) for v in Verdict)


class _Tr:
    """Just enough of a widget for the label methods: ``tr`` returns the English text."""

    @staticmethod
    def tr(text: str) -> str:
        return text
