"""The English window says things in plain words: the program's vocabulary (Layer 1/2, the tiers hot/warm/cold/
frozen, superseded, lint, dry run, slot, schema, digest, the filter personas' role ids base/fixed/random) shows only
in tooltips, never on a label, button, title, tab or list row (issue 24, point 7)."""

from __future__ import annotations

import re

from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, user_lines
from tests.gui.walker import openers, shown_texts

# Case-insensitive words, and the role ids as the program spells them (lower case: "Base" is a persona's name).
PROGRAM_WORDS = re.compile(r"\blayers?\b|\b(?:hot|warm|cold|frozen)\b|supersed|\blint\b|\bdry[ -]run\b|"
                           r"\bslots?\b|(?<!JSON )\bschema\b|\bdigests?\b|\btiers?\b", re.I)
ROLE_IDS = re.compile(r"\b(?:base|fixed|random)\b")


def program_words(texts: list[str]) -> list[str]:
    return sorted({t for t in texts if PROGRAM_WORDS.search(t) or ROLE_IDS.search(t)})


def three_items(system, turns, schema) -> dict:
    """A filter's answer: each user line an item of its own (so the flush window lists changes)."""
    return {"items": [{"reason": "the user said so", "text": line["text"], "slot": f"thing{n}/name",
                       "kind": "explicit", "score": 0.9, "evidence": [line["id"]]}
                      for n, line in enumerate(user_lines(turns)[:3])]}


def test_no_window_shows_the_programs_vocabulary_outside_tooltips(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(["I water the garden every Sunday", "My kitchen has a blue kettle",
                              "I ride a bicycle to work"]):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(three_items)
    window = make_window("en")
    flush = window.memory_menu.open_flush()
    qtbot.waitUntil(flush.start_button.isEnabled, timeout=5000)
    before = program_words(shown_texts(flush, tooltips=False))  # the plan: the personas and their roles
    with qtbot.waitSignal(flush.flush_finished, timeout=20000):
        flush.start_button.click()
    found = {"flush (plan)": before, "flush (done)": program_words(shown_texts(flush, tooltips=False))}
    assert flush.changes.topLevelItemCount() >= 3  # the change list is there to be read
    assert any("“random”" in label.toolTip() for label in flush.role_labels.values())  # the term: in the tooltip
    flush.close()
    for name, open_dialog in sorted(openers(window).items()):
        if name == "open_flush":
            continue
        dialog = open_dialog()
        if hasattr(dialog, "set_view"):  # the memory browser: every memory, history included
            dialog.set_view("all")
        found[name] = program_words(shown_texts(dialog, tooltips=False))
        dialog.close()
    found["main window"] = program_words(shown_texts(window, tooltips=False))
    assert {name: texts for name, texts in found.items() if texts} == {}
