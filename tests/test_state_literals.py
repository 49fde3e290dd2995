"""Every vocabulary is spelled in one module; everything else takes the names from there.

A second spelling is how lists came to disagree ("is this memory history?" had four answers):
this test fails as soon as a module compares a memory's ``state``, a gate's ``state``, a review row's
``action``, an item's or a change's ``kind``, a report line's ``change`` or a progress ``stage`` with a
string of its own, or sets one (``state="queued"``, ``FlushProgress("judge", …)``), or keys a table of
words by such strings (``{"new": …, "queued": …, "superseded": …}``). So do a dropped proposal's ``category``,
a message's ``status``, a verdict's ``applied`` and the gate banner's ``notice``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import monchat
from monchat.core.memory import ChangeKind, State, Verdict, View
from monchat.core.vocabulary.states import (Action, Applied, BackgroundLayer, DropCategory, FlushStage, GateNotice,
                                            GateState, Kind, ReplyStatus)

PACKAGE = Path(monchat.__file__).parent
HOME = PACKAGE / "core" / "vocabulary" / "states.py"
NAMES = {str(s) for s in State}
VOCABULARIES = (State, GateState, Action, Kind, ChangeKind, FlushStage, BackgroundLayer, DropCategory, ReplyStatus,
                Applied, GateNotice)
# The names a value of each vocabulary is held in (an attribute, a key, a variable, a keyword).
HELD_IN = {
    "state": NAMES | {str(g) for g in GateState},
    "action": {str(a) for a in Action},
    "kind": {str(k) for k in Kind} | {str(c) for c in ChangeKind},
    "change": {str(c) for c in ChangeKind},
    "stage": {str(f) for f in FlushStage},
    "layer": {str(b) for b in BackgroundLayer},
    "category": {str(d) for d in DropCategory},
    "status": {str(r) for r in ReplyStatus},
    "applied": {str(a) for a in Applied},
    "notice": {str(n) for n in GateNotice},
}
MADE_WITH_FIRST = {"FlushProgress": {str(f) for f in FlushStage}}  # a record whose first field is one
TABLE = 3  # a table of words (its values tr(…) or strings) keyed by this many words of one vocabulary
STAGE_GRAPH_PENDING: set[str] = set()  # every module names its flush stages with FlushStage


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for element in node.elts for s in _strings(element)]
    return []


def _set_to(node: ast.AST) -> list[str]:
    """The strings a value may be: ``"yes"``, or either branch of ``"yes" if sure else "review"``."""
    if isinstance(node, ast.IfExp):
        return _set_to(node.body) + _set_to(node.orelse)
    return _strings(node)


def _holder(node: ast.AST) -> str | None:
    """The vocabulary name ``node`` reads: ``x.state``, ``row["action"]``, ``row.get("kind")``, ``stage``."""
    if isinstance(node, ast.Attribute) and node.attr in HELD_IN:
        return node.attr
    if isinstance(node, ast.Name) and node.id in HELD_IN:
        return node.id
    if isinstance(node, ast.Subscript) and len(keys := _strings(node.slice)) == 1 and keys[0] in HELD_IN:
        return keys[0]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and node.args and len(keys := _strings(node.args[0])) == 1 and keys[0] in HELD_IN):
        return keys[0]
    return None


def _is_state(node: ast.AST) -> bool:
    return _holder(node) == "state"


def _words_table(node: ast.Dict) -> bool:
    """Every value a word: ``self.tr("…")``, ``tr("…")`` or a string (not a JSON record's counts)."""
    def word(value: ast.AST) -> bool:
        return bool(_strings(value)) or (isinstance(value, ast.Call) and (
            (isinstance(value.func, ast.Attribute) and value.func.attr == "tr")
            or (isinstance(value.func, ast.Name) and value.func.id == "tr")))
    return bool(node.values) and all(word(v) for v in node.values)


def vocabulary_literals(tree: ast.AST, made_with: bool = True) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for holder in {h for o in operands if (h := _holder(o))}:
                found += [(node.lineno, s) for o in operands for s in _strings(o) if s in HELD_IN[holder]]
        elif isinstance(node, ast.keyword) and node.arg in HELD_IN:
            found += [(node.value.lineno, s) for s in _set_to(node.value) if s in HELD_IN[node.arg]]
        elif (made_with and isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in MADE_WITH_FIRST and node.args):
            found += [(node.lineno, s) for s in _strings(node.args[0]) if s in MADE_WITH_FIRST[node.func.id]]
        elif isinstance(node, ast.Dict) and not _words_table(node):  # a record: ``{"applied": "yes", …}``
            for key, value in zip(node.keys, node.values):
                if key is not None and len(held := _strings(key)) == 1 and held[0] in HELD_IN:
                    found += [(value.lineno, s) for s in _set_to(value) if s in HELD_IN[held[0]]]
        elif isinstance(node, ast.Dict):
            keys = [k for key in node.keys if key is not None for k in _strings(key)]
            for vocabulary in VOCABULARIES:
                words = {str(v) for v in vocabulary}
                if len([k for k in keys if k in words]) >= TABLE:
                    found += [(node.lineno, k) for k in keys if k in words]
                    break
    return sorted(set(found))


def state_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """The memory states among ``vocabulary_literals`` (the gate's "warn"/"stop" are not memory)."""
    return [(line, text) for line, text in vocabulary_literals(tree) if text in NAMES]


def test_no_module_spells_a_vocabulary_of_its_own():
    offences = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == HOME:
            continue
        name = path.relative_to(PACKAGE).as_posix()
        for line, text in vocabulary_literals(ast.parse(path.read_text(encoding="utf-8")),
                                              made_with=name not in STAGE_GRAPH_PENDING):
            offences.append(f"{path.relative_to(PACKAGE)}:{line}: {text!r}")
    assert offences == [], "use the enums of monchat.core.vocabulary.states:\n" + "\n".join(offences)


def test_the_check_sees_each_vocabulary():
    source = ('gate.state != "stop"\nif action == "layer1": pass\nrow.get("action") == "judge"\n'
              'data["kind"] == "preference"\nFlushProgress("judge", None, 0, 1)\nprogress.stage in ("diary", "x")\n'
              'words = {"new": tr("new"), "queued": "waits", "superseded": tr("replaced")}\nc.change == "merged"\n'
              'args.action == "import"\nkind == "bridge"\npromoted = {"layer1": 0, "layer2": 0}\n'
              'counts = {"pending": n, "dormant": m, "superseded": k}\n'
              'Dropped(p, t, r, category="limit")\nif reply.status == "partial": pass\n'
              'row["applied"] == "review"\ngate.notice != ""\n'
              'verdict = {"verdict": v, "applied": "yes" if sure else "review"}\n'
              'marks = {"ok": "", "stopped": tr("(stopped)"), "partial": tr("(cut off)")}\n')
    assert [t for _, t in vocabulary_literals(ast.parse(source))] == [
        "stop", "layer1", "judge", "preference", "judge", "diary", "new", "queued", "superseded", "merged",
        "limit", "partial", "review", "", "review", "yes", "ok", "partial", "stopped"]


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
    from monchat.gui.flush.dropped_rows import DroppedWords
    from monchat.gui.flush.words import FlushWords
    from monchat.gui.memory.memory_words import memory_words

    # The label tables are keyed by the enums: a new member without words raises KeyError here.
    assert len({memory_words.state_name(s) for s in State}) == len(State)
    assert len({memory_words.view_name(v) for v in View}) == len(View)
    assert len({FlushWords.change_name(_Tr(), k) for k in ChangeKind}) == len(ChangeKind)
    assert all(review_words.verdict_name(v) != str(v) and review_words.verdict_effect(v) for v in Verdict)
    assert all(DroppedWords.reason(_Tr(), d) != str(d) for d in DropCategory)


class _Tr:
    """Just enough of a widget for the label methods: ``tr`` returns the English text."""

    @staticmethod
    def tr(text: str) -> str:
        return text


def test_a_progress_stage_is_a_flush_stage():
    """Where a stage is still named as a string (``STAGE_GRAPH_PENDING``), a misspelt one fails at once."""
    import pytest

    from monchat.core.flush.records import FlushProgress

    assert FlushProgress("judge", None, 0, 1).stage is FlushStage.JUDGE
    with pytest.raises(ValueError):
        FlushProgress("jugde", None, 0, 1)


def stage_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """``FlushProgress("score", …)`` or ``FlushProgress(stage="score", …)``: a flush stage spelled as a string."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "FlushProgress":
            values = node.args[:1] + [k.value for k in node.keywords if k.arg == "stage"]
            found += [(node.lineno, s) for v in values for s in _strings(v)]
    return found


def test_no_module_spells_a_flush_stage_of_its_own():
    offences = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, text in stage_literals(ast.parse(path.read_text(encoding="utf-8"))):
            offences.append(f"{path.relative_to(PACKAGE)}:{line}: {text!r}")
    assert offences == [], "use monchat.core.memory.FlushStage:\n" + "\n".join(offences)
    assert stage_literals(ast.parse('FlushProgress("diary", None, 0, 1)\nFlushProgress(stage="judge")\n'
                                    'FlushProgress(FlushStage.SCORE, None, 0, 1)\n')) == [(1, "diary"), (2, "judge")]
