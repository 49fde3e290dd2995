"""Never remember…: the user's rules, and the memories already kept that they cover.

Opened from the Memory menu and from Settings → Memory. A rule is added or removed at once (``monchat memory
never add|remove`` does the same: ``core/memory/never.py``); when memories already kept match a rule, the dialog
lists them and offers to forget them (Forget is ``memory forget``: ``memory restore`` undoes it).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QMessageBox, QPushButton, QVBoxLayout, QWidget)

from ...core.errors import KnownError
from ...core.memory.never import NeverRules
from ..kit.confirm import ask_yes_no
from ..failures import explanation, headline
from ..translation import arg
from ..kit.lifetime import alive
from ..kit.workers import Failure, TaskRunner


class NeverRulesDialog(QDialog):
    """Signals:
        changed(): a rule was added or removed, or memories were forgotten.
    """

    changed = Signal()

    def __init__(self, never: NeverRules, runner: TaskRunner, parent: QWidget | None = None) -> None:
        """Args:
            never: ``app.never``, the rules and the memories they cover (a service, never the App).
        """
        super().__init__(parent)
        self.runner = runner
        self.never = never
        self.setWindowTitle(self.tr("Never remember"))
        self.resize(560, 480)
        intro = QLabel(self.tr("Topics, words or kinds of memory that monchat never remembers, whatever a model "
                               "proposes: at every flush a proposal that matches is dropped and listed. Examples: "
                               "health, my ex, password, food/ (every memory under “food/”)."), self)
        intro.setWordWrap(True)
        self.rules = QListWidget(self)
        self.rule_edit = QLineEdit(self)
        self.rule_edit.setPlaceholderText(self.tr("A topic, a word or a kind of memory"))
        self.rule_edit.returnPressed.connect(self.add_rule)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.add_rule)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self.remove_rule)
        adding = QHBoxLayout()
        adding.addWidget(self.rule_edit, 1)
        adding.addWidget(self.add_button)
        adding.addWidget(self.remove_button)
        self.matches_label = QLabel(self)
        self.matches_label.setWordWrap(True)
        self.matches = QListWidget(self)
        self.forget_button = QPushButton(self.tr("Forget these memories…"), self)
        self.forget_button.clicked.connect(self.ask_forget)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.rules, 1)
        layout.addLayout(adding)
        layout.addWidget(self.matches_label)
        layout.addWidget(self.matches, 1)
        layout.addWidget(self.forget_button)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.dialogs: list = []
        self.reload()

    def reload(self) -> None:
        self.rules.clear()
        for rule in self.never.list():
            item = QListWidgetItem(rule["text"], self.rules)
            item.setData(Qt.ItemDataRole.UserRole, rule["id"])
        found = self.never.matching()
        self.matches.clear()
        for memory, rule in found:
            QListWidgetItem(arg(self.tr("%1  (rule: %2)"), memory.text, rule), self.matches)
        self.matches_label.setText(self.tr("%n memory(ies) you already have match a rule:", "", len(found))
                                   if found else self.tr("No memory you have matches a rule."))
        self.matches.setVisible(bool(found))
        self.forget_button.setEnabled(bool(found))
        self.remove_button.setEnabled(self.rules.count() > 0)

    def _failed(self, exc: KnownError) -> None:
        failure = Failure.from_known(exc)
        self.message.setText(f"{headline(failure)}\n{explanation(failure)}")

    def add_rule(self) -> None:
        try:
            rule = self.never.add(self.rule_edit.text())
        except KnownError as exc:
            self._failed(exc)
            return
        self.rule_edit.clear()
        self.message.setText(arg(self.tr("Added: %1. Every flush drops a proposal that matches it."), rule["text"]))
        self.reload()
        self.changed.emit()
        if self.never.matching([rule["text"]]):
            self.ask_forget()

    def remove_rule(self) -> None:
        item = self.rules.currentItem() or (self.rules.item(0) if self.rules.count() == 1 else None)
        if item is None:
            self.message.setText(self.tr("Choose a rule to remove."))
            return
        try:
            self.never.remove(str(item.data(Qt.ItemDataRole.UserRole)))
        except KnownError as exc:
            self._failed(exc)
            return
        self.message.setText(arg(self.tr("Removed: %1."), item.text()))
        self.reload()
        self.changed.emit()

    def ask_forget(self) -> QMessageBox:
        """Offer to forget every kept memory a rule covers."""
        count = len(self.never.matching())
        box = ask_yes_no(self, QMessageBox.Icon.Question, self.tr("Forget memories"),
                         self.tr("Forget the %n memory(ies) a never-remember rule covers? They leave the "
                                 "prompt for good (Memory… can restore one).", "", count), self.forget)
        self.dialogs.append(box)
        return box

    def forget(self) -> None:
        """Forget them on a worker (each forget rebuilds the views and the prompt); ``changed`` when done."""
        never = self.never
        self.forget_button.setEnabled(False)
        self.runner.start("forget what a never-remember rule covers", lambda _report: never.forget_matching(),
                          on_finished=self._forgotten, on_failed=self._forget_failed)

    def _forgotten(self, forgotten: list[str]) -> None:
        if not alive(self):
            return
        self.message.setText(self.tr("%n memory(ies) forgotten.", "", len(forgotten)))
        self.reload()
        self.changed.emit()

    def _forget_failed(self, failure: Failure) -> None:
        if alive(self):
            self.message.setText(f"{headline(failure)}\n{explanation(failure)}")
            self.reload()
