"""docs/guarantees.md names the tests that prove each promise: every file and test it names exists, so a
renamed or deleted test cannot leave a row proved by nothing. (That the named tests pass is the suite's own
business.) ``::name`` right after a ``file::name`` names another test of that file."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "guarantees.md"
CODE = re.compile(r"`([^`]+)`")


def named_tests(text: str) -> list[tuple[str, str | None]]:
    """``(file, test or None)`` for each test file or test the doc's table rows name."""
    found: list[tuple[str, str | None]] = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        current = None
        for code in CODE.findall(line):
            path, _, name = code.partition("::")
            if path.startswith("tests/") and path.endswith(".py"):
                current = path
                found.append((path, name or None))
            elif not path and name and current:
                found.append((current, name))
    return found


def _defined(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def missing(text: str) -> list[str]:
    gone = []
    for path, name in named_tests(text):
        file = ROOT / path
        if not file.is_file():
            gone.append(path)
        elif name and name.split("[")[0] not in _defined(file):
            gone.append(f"{path}::{name}")
    return gone


def test_every_test_the_guarantees_name_exists():
    text = DOC.read_text(encoding="utf-8")
    assert len(named_tests(text)) > 40
    assert missing(text) == []


def test_the_check_sees_a_renamed_test_and_a_lost_file():
    row = ("| a door | a promise | `tests/test_guarantees_doc.py::test_every_test_the_guarantees_name_exists`, "
           "`::no_such_test`, `tests/no_such_file.py` |")
    assert missing(row) == ["tests/test_guarantees_doc.py::no_such_test", "tests/no_such_file.py"]
