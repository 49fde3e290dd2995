"""The history import is one walk a reader follows front to back (``core/transfer/importers.py``): detect →
stream → parse → place, each stage a module that imports none of the stages before it nor the walk itself."""

from __future__ import annotations

import ast
from pathlib import Path

TRANSFER = Path(__file__).resolve().parent.parent / "monchat" / "core" / "transfer"
WALK = "importers"
STAGES = ("import_detect", "json_stream", "import_parse", "messages")  # detect, stream, parse, place


def imported_modules(text: str) -> set[str]:
    """The ``core/transfer`` modules a module imports (lazy and ``TYPE_CHECKING`` imports too)."""
    names = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names |= {node.module} if node.module else {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("monchat.core.transfer"):
            parts = node.module.split(".")
            names |= {parts[3]} if len(parts) > 3 else {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.name.split(".")[3] for a in node.names if a.name.startswith("monchat.core.transfer.")}
    return names


def calls_back(sources: dict[str, str]) -> list[str]:
    """``stage → earlier stage`` (or the walk) for each import that runs against the walk's direction."""
    found = []
    for n, stage in enumerate(STAGES):
        earlier = {WALK, *STAGES[:n]}
        found += [f"{stage} → {other}" for other in sorted(imported_modules(sources[stage]) & earlier)]
    return found


def sources() -> dict[str, str]:
    return {name: (TRANSFER / f"{name}.py").read_text(encoding="utf-8") for name in (WALK, *STAGES)}


def test_no_stage_calls_back_into_an_earlier_one():
    assert calls_back(sources()) == []


def test_the_walk_calls_every_stage():
    assert set(STAGES) <= imported_modules(sources()[WALK])


def test_the_rule_sees_a_planted_call_back():
    code = sources()
    for stage, planted, seen in (("messages", "from .import_parse import parse\n", "import_parse"),
                                 ("import_parse", "def f():\n    from .json_stream import loads\n", "json_stream"),
                                 ("json_stream", "from monchat.core.transfer.import_detect import Source\n",
                                  "import_detect"),
                                 ("import_detect", "from . import importers\n", "importers")):
        assert calls_back({**code, stage: code[stage] + planted}) == [f"{stage} → {seen}"], planted
    assert calls_back({**code, "import_detect": code["import_detect"] + "from .messages import BATCH\n"}) == []
