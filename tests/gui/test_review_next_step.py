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
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000) as blocker:
        dialog.start_button.click()
    assert blocker.args[0].queued == 8
    assert dialog.review_button.isVisible() and dialog.review_button.text() == "Open review queue (8)"
    qtbot.waitUntil(lambda: window.menus.queue_action.text() == "Review queue (8)…", timeout=5000)

    dialog.review_button.click()
    queue = next(d for d in window.dialogs if isinstance(d, ReviewQueueDialog) and d.isVisible())
    assert not queue.isModal() and queue.table.topLevelItemCount() == 8
    queue.select_all_button.click()  # one selection
    assert queue.reject_button.text() == "Reject 8 selected"
    with qtbot.waitSignal(queue.memory_changed, timeout=10000):
        queue.reject_button.click()  # one click
    assert app.memory.queue() == [] and queue.table.topLevelItemCount() == 0
    assert {m.state for m in app.memory.list(all=True) if m.text in JUNK} == {"rejected"}
    qtbot.waitUntil(lambda: window.menus.queue_action.text() == "Review queue…", timeout=5000)
    queue.close()
    dialog.close()


def test_a_flush_without_reviews_has_no_review_button(app, make_window, backend, qtbot):
    backend.default_reply = NO_ITEMS
    log_message(app, 3, "hello there")
    window = make_window("en")
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    assert not dialog.review_button.isVisible() and window.menus.queue_action.text() == "Review queue…"
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
    ids = [str(row.id) for row in app.memory.queue()]

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
    dialog = make_window("en").memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000):
        dialog.start_button.click()
    tree = dialog.changes
    kinds = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    widest = max(tree.fontMetrics().horizontalAdvance(k) for k in kinds)
    assert tree.columnWidth(0) >= widest, kinds  # "New · Waiting for your review" is not cut to "New · Wai…"
    dialog.close()


def six_junk_and_two_alike(app, backend) -> list[str]:
    """Eight items wait for review, three of them near-duplicates: a flush queues six junk items, then two more
    proposals of the bicycle's change wait beside it (as later flushes leave them: the same slot, the same words
    but for case and punctuation). Returns the three alike items' texts."""
    from dataclasses import replace

    from monchat.core.memory import Action, State
    app.settings.flush.ask_before_layer1 = True
    backend.default_reply = NO_ITEMS
    for n, text in enumerate(JUNK[:6]):
        log_message(app, 3 - n * 0.01, text)
    backend.enqueue(lines_as_items(0), lines_as_items(3))
    assert app.flush.run().queued == 6
    bicycle = next(m for m in app.memory.list(all=True) if m.text == JUNK[2])
    alike = ["I ride a bicycle to work.", "i ride a Bicycle to work!"]
    with app.memory.change() as t:
        for n, text in enumerate(alike):
            copy = t.create(replace(bicycle, id=f"mem-alike-{n}", text=text, state=State.CANDIDATE),
                            app.memory.memories.ledger_rows(bicycle.id))
            t.hold_for_review(copy, Action.LAYER1, "enough evidence", 0.9)
    return [JUNK[2], *alike]


def test_near_duplicates_wait_as_one_row_and_one_reject_rejects_them_all(app, make_window, backend, qtbot):
    alike = six_junk_and_two_alike(app, backend)
    assert len(app.memory.queue()) == 8
    queue = make_window("en").memory_menu.open_review_queue()
    assert queue.table.topLevelItemCount() == 6  # 8 items, 3 of them alike: 6 rows
    rows = [queue.table.topLevelItem(i) for i in range(6)]
    [folded] = [row for row in rows if row.text(0).startswith(JUNK[2])]
    assert folded.text(0) == f"{JUNK[2]}  ×3"
    queue.table.setCurrentItem(folded)
    assert all(f"“{text}”" in queue.reason.text() for text in alike)  # each of them in the detail
    [said] = queue.evidence.texts()  # the message all three rest on, once
    assert said.endswith(JUNK[2])
    assert queue.reject_button.text() == "Reject all 3"  # one row: all of its alike items
    with qtbot.waitSignal(queue.memory_changed, timeout=10000):
        queue.reject_button.click()
    assert queue.table.topLevelItemCount() == 5 and len(app.memory.queue()) == 5
    assert {m.state for m in app.memory.list(all=True) if m.text in alike} == {"rejected"}
    queue.close()


def test_the_cli_lists_near_duplicates_once_with_their_numbers(app, backend, capsys):
    import json

    from monchat.cli.main import build_parser
    from monchat.cli.memory import cmd_memory
    alike = six_junk_and_two_alike(app, backend)
    ids = {row.text: row.id for row in app.memory.queue()}
    capsys.readouterr()
    assert cmd_memory(app, build_parser().parse_args(["memory", "queue"])) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6
    [line] = [line for line in lines if JUNK[2] in line]
    assert f"×3 (alike: {' '.join('#' + str(ids[t]) for t in alike)})" in line
    assert cmd_memory(app, build_parser().parse_args(["memory", "list"])) == 0
    assert capsys.readouterr().out.count("×3 (alike:") == 1
    assert cmd_memory(app, build_parser().parse_args(["memory", "queue", "--json"])) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 8 and {r["text"]: r["alike"] for r in rows}[alike[1]] == [ids[t] for t in alike]


def test_the_menu_the_flush_button_status_and_the_queue_count_the_same_rows(app, make_window, backend, qtbot,
                                                                            capsys):
    """Eight items wait in six rows (three are near-duplicates); a flush in the window adds a ninth: every count a
    user sees is the seven rows the queue shows, not the nine items."""
    from monchat.cli.main import build_parser
    from monchat.cli.memory import cmd_memory
    from monchat.cli.status import cmd_status
    from tests.gui.flush_script import item_answer
    six_junk_and_two_alike(app, backend)
    log_message(app, 1, JUNK[6])
    backend.enqueue(item_answer(JUNK[6], "teapot/thing"))
    window = make_window("en")
    dialog = window.memory_menu.open_flush()
    qtbot.waitUntil(dialog.start_button.isEnabled, timeout=5000)
    with qtbot.waitSignal(dialog.flush_finished, timeout=20000) as blocker:
        dialog.start_button.click()
    assert blocker.args[0].queued == 1 and len(app.memory.queue()) == 9
    assert dialog.review_button.isVisible() and dialog.review_button.text() == "Open review queue (7)"
    qtbot.waitUntil(lambda: window.menus.queue_action.text() == "Review queue (7)…", timeout=5000)
    dialog.review_button.click()
    queue = next(d for d in window.dialogs if isinstance(d, ReviewQueueDialog) and d.isVisible())
    assert queue.table.topLevelItemCount() == 7
    capsys.readouterr()
    assert cmd_memory(app, build_parser().parse_args(["memory", "queue"])) == 0
    assert len(capsys.readouterr().out.splitlines()) == 7
    assert cmd_status(app, build_parser().parse_args(["status"])) == 0
    assert "7 waiting for your review (9 items, near-duplicates as one)" in capsys.readouterr().out

    queue.table.setCurrentItem(queue.table.topLevelItem(0))  # one row decided: every count goes down by one
    with qtbot.waitSignal(queue.memory_changed, timeout=10000):
        queue.reject_button.click()
    assert queue.table.topLevelItemCount() == 6
    qtbot.waitUntil(lambda: window.menus.queue_action.text() == "Review queue (6)…", timeout=5000)
    assert dialog.review_button.text() == "Open review queue (6)"
    queue.close()
    dialog.close()
