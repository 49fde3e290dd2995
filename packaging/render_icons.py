"""Render assets/monchat.svg into the hicolor PNG sizes a launcher and a dock ask for (run by packaging/build).

    python packaging/render_icons.py SVG OUT_DIR APP_ID

writes OUT_DIR/<size>x<size>/apps/APP_ID.png for each size and OUT_DIR/scalable/apps/APP_ID.svg. Qt renders
them (QtSvg is in PySide6-Essentials), so the build needs no image tool of the system.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def render(svg: Path, out: Path, app_id: str) -> list[Path]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841  (QPainter needs one)
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render_icons: {svg} is not an SVG Qt can read")
    written = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = out / f"{size}x{size}" / "apps" / f"{app_id}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            raise SystemExit(f"render_icons: could not write {target}")
        written.append(target)
    scalable = out / "scalable" / "apps" / f"{app_id}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    return written + [scalable]


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    for path in render(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]):
        print(f"  {path}")
