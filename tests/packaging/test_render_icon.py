"""The icon the window and the .desktop entry use (anima.png) is what packaging/render_icon.py renders from
anima.svg: a changed SVG whose PNG was not rendered again fails here."""

import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_shipped_png_is_the_svg_rendered_at_256_px(tmp_path):
    (tmp_path / "packaging").mkdir()
    (tmp_path / "anima" / "resources").mkdir(parents=True)
    shutil.copy(ROOT / "packaging" / "render_icon.py", tmp_path / "packaging")
    shutil.copy(ROOT / "anima" / "resources" / "anima.svg", tmp_path / "anima" / "resources")
    done = subprocess.run(
        [sys.executable, str(tmp_path / "packaging" / "render_icon.py")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"Wrote {tmp_path / 'anima' / 'resources' / 'anima.png'} (256 px)."
    rendered, shipped = (
        QImage(str(tmp_path / "anima" / "resources" / "anima.png")),
        QImage(str(ROOT / "anima" / "resources" / "anima.png")),
    )
    assert rendered.width() == rendered.height() == 256
    assert rendered == shipped, "anima.svg changed: run `python packaging/render_icon.py` and commit anima.png"


def test_a_damaged_svg_is_one_line_and_no_png_is_written(tmp_path):
    (tmp_path / "packaging").mkdir()
    (tmp_path / "anima" / "resources").mkdir(parents=True)
    shutil.copy(ROOT / "packaging" / "render_icon.py", tmp_path / "packaging")
    (tmp_path / "anima" / "resources" / "anima.svg").write_text("<svg", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(tmp_path / "packaging" / "render_icon.py")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and done.stderr.strip().endswith("anima.svg is not a valid SVG")
    assert not (tmp_path / "anima" / "resources" / "anima.png").exists()
