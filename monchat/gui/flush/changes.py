"""The finished flush dialog's change list: each memory's changes on one row, the log lines below it."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from .dropped_rows import add_dropped_rows
from ..kit.times import shown_time


REFLECT_NOTES = ("reflect_unshown", "reflect_said_nothing", "reflect_echoed")


class FlushNotes(QObject):
    """Words of the flush's notes that need a plural form: ``self.tr(text, "", n)``, the call Qt's lupdate reads as
    plural in every PySide6 (6.11's does not read ``QCoreApplication.translate(context, text, None, n)`` so)."""

    def reflect(self, code: str, count: int) -> str:
        words = {
            "reflect_unshown": self.tr("Looking back: %n finding(s) left out: not in the expected form, or about a "
                                       "topic it was not shown.", "", count),
            "reflect_said_nothing": self.tr("Looking back: %n finding(s) left out: they say nothing (only a number, "
                                            "a list marker, punctuation or one repeated syllable).", "", count),
            "reflect_echoed": self.tr("Looking back: %n finding(s) left out: they repeat the request's "
                                      "instructions, not what your conversations show.", "", count),
        }
        return words[code]


def reflect_note(code: str, count: int = 0) -> str:
    """The looking-back stage's note on findings it left out, in the window's words (``core/background/reflect.py``)."""
    return FlushNotes().reflect(code, count)


def group_changes(changes: list) -> list[list]:
    """Changes of the same memory together (a new memory is often also queued and in Layer 2), in order."""
    groups: dict[str, list] = {}
    for change in changes:
        groups.setdefault(change.memory_id or f"#{len(groups)}", []).append(change)
    return list(groups.values())


def fill_changes(tree: QTreeWidget, report, change_name: Callable, no_changes: str) -> None:
    """Every change of ``report`` with the log lines it came from, then what was dropped (as `monchat flush`)."""
    tree.clear()
    for group in group_changes(report.changes):
        last = group[-1]
        old_text = next((c.old_text for c in group if c.old_text), "")
        text = last.text if not old_text else f"{old_text}  →  {last.text}"
        kinds = " · ".join(dict.fromkeys(change_name(c.kind) for c in group))
        item = QTreeWidgetItem(tree, [kinds, text])
        item.setToolTip(0, kinds)
        item.setToolTip(1, text)
        evidence = {e.get("id") or e.get("text"): e for c in group for e in c.evidence}
        for line in evidence.values():
            child = QTreeWidgetItem(item, [shown_time(line.get("ts")), str(line.get("text", ""))])  # the user's zone
            child.setToolTip(1, str(line.get("text", "")))
        item.setExpanded(True)
    add_dropped_rows(tree, report.dropped_items)
    if not report.changes and not report.dropped_items:
        QTreeWidgetItem(tree, [no_changes, ""])
    fit_kind_column(tree)


def fit_kind_column(tree: QTreeWidget) -> None:
    """The change kinds stay readable: the first column as wide as its longest entry, within limits."""
    metrics = tree.fontMetrics()
    widest = max((metrics.horizontalAdvance(tree.topLevelItem(i).text(0)) for i in range(tree.topLevelItemCount())),
                 default=0)
    # A tree shown for the first time has no width of its own yet: its window's tells the room there is.
    room = tree.width() if tree.isVisible() or tree.parentWidget() is None else tree.parentWidget().width()
    tree.setColumnWidth(0, max(170, min(widest + tree.indentation() + 24, room // 2)))
