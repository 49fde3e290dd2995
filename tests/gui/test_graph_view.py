"""The inbox's Graph tab draws what a real flush computed: top nodes with their labels, drawn edges, no held ones."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPainter

from tests.gui.conftest import log_message
from tests.support.oracle import Oracle, Rule

RULES = [Rule("ギター", "ギターを練習する", "hobby/guitar", "habit", 0.9),
         Rule("緑茶", "緑茶を飲む", "drink/daily", "habit", 0.8, persona="lifestyle"),
         Rule("Mira", "Met Mira in Sendai", "friend/mira", "fact", 0.9)]


@pytest.fixture
def backend():
    return Oracle(RULES)


def flush_a_graph(app) -> dict:
    log_message(app, 30, "ギターを弾いた、緑茶も")
    log_message(app, 24, "ギターの練習")
    log_message(app, 12, "緑茶をいれた")
    log_message(app, 2, "Met Mira in Sendai")
    app.settings.graph.edge_threshold = 0.4  # drink–hobby and drink–ギター are held
    app.flush.run()
    from monchat.core.background.inbox import Inbox
    return Inbox(app.store).graph()


def painted_pixels(view) -> int:
    """How many pixels of the rendered scene differ from its background (0: nothing drawn)."""
    image = QImage(400, 400, QImage.Format.Format_RGB32)
    background = QColor("#ffffff")
    image.fill(background)
    painter = QPainter(image)
    view.scene().render(painter)
    painter.end()
    return sum(1 for x in range(0, 400, 4) for y in range(0, 400, 4) if image.pixelColor(x, y) != background)


def test_the_graph_tab_draws_the_top_nodes_their_labels_and_only_drawn_edges(app, make_window):
    graph = flush_a_graph(app)
    held = {(e["source"], e["target"]) for e in graph["edges"] if e["held"]}
    drawn = {(e["source"], e["target"]) for e in graph["edges"] if not e["held"]}
    assert held and drawn
    dialog = make_window("en").memory_menu.open_inbox()
    dialog.tabs.setCurrentIndex(3)
    view = dialog.graph_view
    assert dialog.tabs.tabText(3) == "Graph" and not dialog.graph_empty.isVisible()
    assert set(view.node_items) == {n["id"] for n in graph["nodes"]}
    # a topic in words (hobby → "hobbies"), its key only in the tooltip; a name as said
    assert {t.text() for t in view.label_items.values()} == {"hobbies", "drinks", "friends", "ギター", "Mira", "Sendai"}
    assert "“hobby”" in view.node_items["topic:hobby"].toolTip()
    assert set(view.edge_items) == drawn  # a held edge is stored, never a line
    assert painted_pixels(view) > 50
    line = view.edge_items[("entity:ギター", "topic:hobby")].line()
    dot = view.node_items["entity:ギター"].rect().center()
    assert (round(line.p1().x()), round(line.p1().y())) == (round(dot.x()), round(dot.y()))
    dialog.close()


def test_the_graph_tab_reads_in_japanese_and_says_when_there_is_no_graph(make_window):
    dialog = make_window("ja").memory_menu.open_inbox()
    dialog.tabs.setCurrentIndex(3)
    assert dialog.tabs.tabText(3) == "グラフ"
    assert dialog.graph_empty.isVisible() and "整理" in dialog.graph_empty.text()
    assert dialog.graph_view.node_items == {} and painted_pixels(dialog.graph_view) == 0
    dialog.close()


def test_a_discovery_is_shown_in_the_inbox_in_the_windows_words(app, make_window):
    log_message(app, 30, "Met Mira in Sendai, ギターを弾いた")  # the item's words are all the user's
    log_message(app, 20, "ギターの練習、緑茶を飲んだ")
    app.flush.run()
    dialog = make_window("en").memory_menu.open_inbox()
    rows = [[dialog.insights.topLevelItem(i).text(c) for c in range(3)]
            for i in range(dialog.insights.topLevelItemCount())]
    two_hop = [r for r in rows if r[1] == "two steps apart"]
    assert two_hop and all(" both go with " in r[0] and "never came up together" in r[0] for r in two_hop)
    dialog.close()


def test_a_discovery_dismissed_in_the_inbox_leaves_the_list(app, make_window):
    log_message(app, 30, "Met Mira in Sendai, ギターを弾いた")  # the item's words are all the user's
    log_message(app, 20, "ギターの練習、緑茶を飲んだ")
    app.flush.run()
    dialog = make_window("en").memory_menu.open_inbox()

    def discoveries():
        return [dialog.insights.topLevelItem(i) for i in range(dialog.insights.topLevelItemCount())
                if dialog.insights.topLevelItem(i).text(1) == "two steps apart"]

    before = len(discoveries())
    assert before >= 1
    dialog.insights.setCurrentItem(discoveries()[0])
    assert dialog.dismiss_button.isEnabled()
    dialog.dismiss_button.click()
    assert len(discoveries()) == before - 1
    assert sum(d["status"] == "dismissed" for d in dialog.inbox.discoveries()) == 1
    dialog.close()


def test_a_long_name_is_cut_so_it_does_not_squeeze_the_graph(qtbot):
    from monchat.gui.memory.graph_view import LABEL_PX, GraphView
    view = GraphView()
    qtbot.addWidget(view)
    long_name = "a really long name of a place somebody once mentioned in passing " * 3
    nodes = [{"id": f"n{i}", "label": label, "type": "topic", "cluster": 0, "sessions": 1}
             for i, label in enumerate(("tea", long_name, "bike"))]
    view.show_graph({"nodes": nodes, "edges": []})
    shown = view.label_items["n1"].text()
    assert shown.endswith("…") and len(shown) < len(long_name)
    assert view.label_items["n1"].boundingRect().width() <= LABEL_PX + 2
    assert view.node_items["n1"].toolTip() == long_name
