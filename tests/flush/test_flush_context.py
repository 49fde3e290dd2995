"""The flush's stages take a ``FlushContext``, never the service that runs them (``flush/context.py``).

``FlushService`` builds one frozen context per run and hands it to the stage modules (``stages.py``,
``commit.py``, ``paused.py`` …); none of them imports ``service``, names ``FlushService`` or takes a parameter
called ``service``, so the walk service → stage → service cannot come back. The check reads the code (an AST
pass); the second test plants such a module in a temporary folder and sees the check find it.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import monchat
from monchat.core.flush.context import FlushContext

FLUSH = Path(monchat.__file__).parent / "core" / "flush"
SERVICE = "monchat.core.flush.service"
# What only the service may name; a stage receives its values through the context.
NAMES = {"FlushService", "service"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes (a docstring may say who calls a stage: words, not a reach)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def reaches_the_service(source: str, package: str = "monchat.core.flush") -> list[str]:
    """What in ``source`` (a module of ``package``) imports the flush's service or names it."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if a.name == SERVICE or a.name.startswith(SERVICE + ".")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names = {base, *(f"{base}.{a.name}" for a in node.names)}
            if SERVICE in names or any(a.name == "FlushService" for a in node.names):
                found.append(f"from {'.' * node.level}{node.module or ''} import "
                             f"{', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.Name) and node.id in NAMES:
            found.append(f"name {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr == "FlushService":
            found.append(f"attribute {node.attr}")
        elif isinstance(node, ast.arg) and node.arg in NAMES:
            found.append(f"parameter {node.arg}")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
              and "FlushService" in node.value and node.value.replace('"', "").strip().isidentifier()):
            found.append(f"annotation {node.value!r}")  # a quoted annotation: "FlushService"
    return found


def test_no_stage_module_imports_or_names_the_service():
    reached = {}
    for path in sorted(FLUSH.glob("*.py")):
        if path.name == "service.py":
            continue
        if found := reaches_the_service(path.read_text(encoding="utf-8")):
            reached[path.name] = found
    assert reached == {}, "a stage reads what it needs from its FlushContext (flush/context.py), never the service"


@pytest.mark.parametrize("planted", [
    "from .service import FlushService\n",
    "from . import service\n",
    "from monchat.core.flush.service import LINE_ID_KEY\n",
    "import monchat.core.flush.service\n",
    "def stage(service, report):\n    return service.settings\n",
    "def stage(flush: \"FlushService\"):\n    return flush.settings\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .service import FlushService\n",
])
def test_the_check_finds_a_planted_reach_into_the_service(tmp_path, planted):
    module = tmp_path / "planted.py"
    module.write_text('"""A stage module; FlushService runs it (words in a docstring are fine)."""\n' + planted)
    assert reaches_the_service(module.read_text()) != []


def test_words_in_a_docstring_are_not_a_reach():
    assert reaches_the_service('"""Run by ``FlushService._run``."""\n\ndef f(ctx):\n    """FlushService"""\n') == []


def test_the_context_is_frozen_and_holds_no_service():
    fields = {f.name: str(f.type) for f in dataclasses.fields(FlushContext)}
    assert {"settings", "store", "prompts", "tz", "background", "lint", "backend", "escalation",
            "line_id_key", "report", "progress", "cancel", "dry_run", "now"} <= set(fields)
    assert not [name for name, kind in fields.items() if "FlushService" in kind or name == "service"]
    assert FlushContext.__dataclass_params__.frozen
