"""Renders anima/resources/anima.svg to anima.png (256 px): the window and the .desktop entry use the PNG, so the
bundle needs no SVG plugin. Run after changing the SVG: `python packaging/render_icon.py`."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

RESOURCES = Path(__file__).resolve().parent.parent / "anima" / "resources"


def main(size: int = 256) -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841  (QSvgRenderer needs one)
    renderer = QSvgRenderer(str(RESOURCES / "anima.svg"))
    if not renderer.isValid():
        raise SystemExit("anima.svg is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    if not image.save(str(RESOURCES / "anima.png")):
        raise SystemExit("could not write anima.png")
    print(f"Wrote {RESOURCES / 'anima.png'} ({size} px).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
