"""The bundle's one executable: the window, or `--version`, `--selftest`, `cli COMMAND ...` (ui/app.py main)."""

import sys

from ui.app import main

if __name__ == "__main__":
    sys.exit(main())
