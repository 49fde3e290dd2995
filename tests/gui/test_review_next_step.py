"""A flush that leaves items waiting ends with a next step: "Open review queue (N)", the count in the Memory
menu, and a queue where eight junk items go with one selection and one click (one transaction)."""

from __future__ import annotations

from monchat.gui.memory.review_queue import ReviewQueueDialog
from tests.gui.conftest import log_message
from tests.gui.flush_script import NO_ITEMS, user_lines

SHELVES = ("garden", "kitchen", "bicycle", "violin", "passport", "umbrella", "teapot", "lantern")
JUNK = ["I water the garden every Sunday", "My kitchen has a blue kettle", "I ride a bicycle to work",
        "I practise the violin at night", "My passport expires next spring", "I lost an umbrella in Osaka",
        "Grandma gave me a teapot", "I hang a paper lantern outside"]


def lines_as_items(first: int):
    """A filter's answer: three user lines from ``first`` on, each an item of its own (a Layer 1 proposal);
    a filter returns at most three items, so three filters answer."""
    def answer(system, turns, schema) -> dict:
        lines = user_lines(turns)
        return {"items": [{"reason": "the user said so", "text": lines[n]["text"], "slot": f"{SHELVES[n]}/thing",
                           "kind": "explicit", "score": 0.9, "evidence": [lines[n]["id"]]}
                          for n in range(first, min(first + 3, len(lines)))]}
    return answer


def test_a_flush_with_reviews_ends_with_open_review_queue_and_eight_are_rejected_in_one_click(
        app, make_window, backend, qtbot):
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0), lines_as_items(3), lines_as_items(6))
    window = make_window("en")
    dialog = window.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000) as blocker:
        dialog.start_button.click()
    assert blocker.args[0].queued == 8
    assert dialog.review_button.isVisible() and dialog.review_button.text() == "Open review queue (8)"
    qtbot.waitUntil(lambda: window.queue_action.text() == "Review queue (8)…", timeout=5000)

    dialog.review_button.click()
    queue = next(d for d in window.dialogs if isinstance(d, ReviewQueueDialog) and d.isVisible())
    assert not queue.isModal() and queue.table.topLevelItemCount() == 8
    queue.select_all_button.click()  # one selection
    assert queue.reject_button.text() == "Reject 8 selected"
    with qtbot.waitSignal(queue.memory_changed, timeout=10000):
        queue.reject_button.click()  # one click
    assert app.memory.queue() == [] and queue.table.topLevelItemCount() == 0
    assert {m.state for m in app.memory.list(all=True) if m.text in JUNK} == {"rejected"}
    qtbot.waitUntil(lambda: window.queue_action.text() == "Review queue…", timeout=5000)
    queue.close()
    dialog.close()


def test_a_flush_without_reviews_has_no_review_button(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "hello there")
    window = make_window("en")
    dialog = window.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    assert not dialog.review_button.isVisible() and window.queue_action.text() == "Review queue…"
    dialog.close()


def test_the_cli_rejects_several_items_or_all_at_once(app, backend, capsys):
    """`monchat memory reject 1 2` and `monchat memory approve --all`: the same one transaction as the window."""
    import json

    from monchat.cli.main import build_parser
    from monchat.cli.memory import cmd_memory
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0), lines_as_items(3), lines_as_items(6))
    assert app.flush.run().queued == 8
    ids = [str(row["id"]) for row in app.memory.queue()]

    def run(*argv):
        capsys.readouterr()
        assert cmd_memory(app, build_parser().parse_args(["memory", *argv, "--json"])) == 0
        return json.loads(capsys.readouterr().out)
    rejected = run("reject", ids[0], ids[1])
    assert [r["result"] for r in rejected] == ["rejected", "rejected"] and len(app.memory.queue()) == 6
    approved = run("approve", "--all")
    assert len(approved) == 6 and app.memory.queue() == []
    assert {m.state for m in app.memory.list(all=True) if m.text in JUNK[2:]} == {"active"}


def test_the_finished_flush_shows_each_change_kind_whole(app, make_window, backend, qtbot):
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK[:3]):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0))
    dialog = make_window("en").open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    tree = dialog.changes
    kinds = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    widest = max(tree.fontMetrics().horizontalAdvance(k) for k in kinds)
    assert tree.columnWidth(0) >= widest, kinds  # "New · Waiting for your review" is not cut to "New · Wai…"
    dialog.close()
