"""Anima: a local-first AI companion whose whole soul lives in one encrypted file.

This package is the core. It never imports Qt: the window in `ui/` drives it
through `anima.companion.Companion`, and so do the terminal and the tests.
"""

__version__ = "0.1.0"
