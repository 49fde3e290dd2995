"""Persona avatars: the persona's image (``avatar``: a shipped file in ``assets/avatars``, or an imported
card's picture in the user's persona folder), round; else a coloured circle with the name's first letter."""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPixmap

from ...core.paths import resource_dir


def avatar_file(avatar: str, user_dir: Path) -> Path | None:
    """Where a persona's ``avatar`` is: an absolute path, the user's persona folder, or shipped assets."""
    if not avatar:
        return None
    for candidate in (Path(avatar), user_dir / avatar, resource_dir("assets") / "avatars" / avatar):
        if candidate.is_file():
            return candidate
    return None


def initial_pixmap(name: str, size: int) -> QPixmap:
    """A circle in a colour of the name, with its first letter."""
    hue = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:4], 16) % 360
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(QBrush(QColor.fromHsv(hue, 110, 200)))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(0, 0, size, size)
    font = QFont()
    font.setPixelSize(int(size * 0.5))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("white"))
    painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, (name.strip() or "?")[0].upper())
    painter.end()
    return pixmap


def round_pixmap(path: Path, size: int) -> QPixmap | None:
    """The image at ``path`` cropped to a circle of ``size`` pixels (None when it cannot be read)."""
    image = QPixmap(str(path))
    if image.isNull():
        return None
    image = image.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatioByExpanding,
                         Qt.TransformationMode.SmoothTransformation)
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    clip = QPainterPath()
    clip.addEllipse(0, 0, size, size)
    painter.setClipPath(clip)
    painter.drawPixmap((size - image.width()) // 2, (size - image.height()) // 2, image)
    painter.end()
    return pixmap


class Avatars:
    """Pixmaps per persona, made once (``clear()`` after personas change)."""

    def __init__(self, personas, size: int) -> None:
        self.personas = personas
        self.size = size
        self._made: dict[str, QPixmap] = {}

    def clear(self) -> None:
        self._made.clear()

    def __call__(self, persona_id: str) -> QPixmap:
        if persona_id not in self._made:
            persona = self.personas.surface.get(persona_id)
            name = persona.name if persona else persona_id
            path = avatar_file(persona.avatar, self.personas.user_surface_dir) if persona else None
            self._made[persona_id] = (round_pixmap(path, self.size) if path else None) or \
                initial_pixmap(name, self.size)
        return self._made[persona_id]
