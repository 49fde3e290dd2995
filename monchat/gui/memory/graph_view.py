"""A picture of the graph of what the user talks about: the top nodes on a circle, drawn edges as lines.

Deterministic: the nodes with the most sessions (``TOP_NODES``) are placed on a circle in the order
of their cluster, then name, so a cluster sits together; only drawn edges are lines (a held edge
is stored, not drawn), thicker for a heavier weight, the heaviest ``LINES_PER_NODE`` × nodes of them. Labels sit outside the circle on a plate of the
window's base colour, so they stay readable in either language and theme.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import (QGraphicsEllipseItem, QGraphicsLineItem, QGraphicsRectItem, QGraphicsScene,
                               QGraphicsSimpleTextItem, QGraphicsView, QWidget)

from .memory_words import memory_words

TOP_NODES = 20
LINES_PER_NODE = 3  # at most this many lines per node shown, the heaviest: a dense graph stays legible
LABEL_PX = 160  # the widest a node's name is drawn
TOPIC = "topic:"  # a topic node's id: "topic:" and the slot's first part (core/background/graph.py)
COLOURS = {"topic": "#4f7cc4", "person": "#d0704a", "place": "#4e9a5b", "thing": "#9a6cc0"}
MARGIN = 24


class GraphView(QGraphicsView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.node_items: dict[str, QGraphicsEllipseItem] = {}
        self.label_items: dict[str, QGraphicsSimpleTextItem] = {}
        self.edge_items: dict[tuple[str, str], QGraphicsLineItem] = {}

    def show_graph(self, graph: dict, top: int = TOP_NODES) -> None:
        """Draw ``graph`` (``Inbox.graph()``): its ``top`` nodes by sessions and the drawn edges between them."""
        scene = self.scene()
        scene.clear()
        self.node_items, self.label_items, self.edge_items = {}, {}, {}
        nodes = graph["nodes"][:top]  # already ordered by sessions, then memories
        if not nodes:
            return
        ordered = sorted(nodes, key=lambda n: (n["cluster"], node_name(n).casefold(), n["id"]))
        radius = max(110.0, 14.0 * len(ordered))
        most = max(n["sessions"] for n in ordered) or 1
        centre: dict[str, QPointF] = {}
        for i, node in enumerate(ordered):
            angle = 2 * math.pi * i / len(ordered) - math.pi / 2
            centre[node["id"]] = QPointF(radius * math.cos(angle), radius * math.sin(angle))
        palette = self.palette()
        line = palette.text().color()
        shown = [e for e in graph["edges"] if not e["held"] and e["source"] in centre and e["target"] in centre]
        for edge in sorted(shown, key=lambda e: -e["weight"])[:LINES_PER_NODE * len(ordered)]:
            a, b = edge["source"], edge["target"]
            colour = QColor(line)
            colour.setAlphaF(0.15 + 0.45 * edge["weight"])
            item = scene.addLine(centre[a].x(), centre[a].y(), centre[b].x(), centre[b].y(),
                                 QPen(colour, 1.0 + 5.0 * edge["weight"]))
            item.setZValue(0)
            self.edge_items[(a, b)] = item
        for i, node in enumerate(ordered):
            size = 8.0 + 10.0 * node["sessions"] / most
            point = centre[node["id"]]
            dot = scene.addEllipse(QRectF(point.x() - size, point.y() - size, 2 * size, 2 * size),
                                   QPen(palette.base().color(), 2.0),
                                   QBrush(QColor(COLOURS.get(node["type"], COLOURS["thing"]))))
            dot.setZValue(2)
            name = node_name(node)
            dot.setToolTip(name if name == node["label"] else f"{name}\n{memory_words.topic_tip(node['label'])}")
            self.node_items[node["id"]] = dot
            self._label(name, node["id"], point, size, 2 * math.pi * i / len(ordered) - math.pi / 2)
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))
        self._fit()

    def _label(self, text: str, node_id: str, point: QPointF, size: float, angle: float) -> None:
        """The node's name just outside the circle, on a plate so lines never run through it."""
        scene = self.scene()
        # A long name is cut (its whole text is the dot's tooltip): one long name must not shrink the graph.
        label = QGraphicsSimpleTextItem(self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, LABEL_PX))
        label.setBrush(QBrush(self.palette().text().color()))
        box = label.boundingRect()
        gap = size + 6.0
        x = point.x() + gap * math.cos(angle)
        y = point.y() + gap * math.sin(angle)
        dx = math.cos(angle)
        x -= box.width() if dx < -0.3 else box.width() / 2 if dx <= 0.3 else 0.0
        y -= box.height() / 2 if abs(math.sin(angle)) < 0.7 else box.height() if math.sin(angle) < 0 else 0.0
        plate = QGraphicsRectItem(QRectF(x - 3, y - 1, box.width() + 6, box.height() + 2))
        base = QColor(self.palette().base().color())
        base.setAlphaF(0.85)
        plate.setBrush(QBrush(base))
        plate.setPen(QPen(Qt.PenStyle.NoPen))
        plate.setZValue(3)
        label.setPos(x, y)
        label.setZValue(4)
        scene.addItem(plate)
        scene.addItem(label)
        self.label_items[node_id] = label

    def _fit(self) -> None:
        """Shrink to fit the view, never enlarge (labels keep the window's font size at most)."""
        rect = self.sceneRect()
        if rect.isEmpty() or not self.viewport().width():
            return
        scale = min(1.0, self.viewport().width() / rect.width(), self.viewport().height() / rect.height())
        self.resetTransform()
        self.scale(scale, scale)
        self.centerOn(rect.center())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()


def node_name(node: dict) -> str:
    """A node's name as the window shows it: a topic in words (``food`` → "food and drink"), a name as said."""
    return memory_words.topic_name(node["label"]) if node["id"].startswith(TOPIC) else node["label"]
