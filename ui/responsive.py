"""The window's thread never waits long for Python: the interpreter's switch interval, set as a window opens.

The window's thread needs the GIL at each Python slot and event filter it enters. While another thread runs
Python (a turn over a pasted million characters, the indexer reading 100,000 vectors back), each of those waits
up to the switch interval, Python's 5 ms by default: ~35 in one event loop turn stalled the window 175 ms. At
SWITCH_S the other threads lose little (a switch costs microseconds) and the window keeps up.
"""

import sys

SWITCH_S = 0.001  # s: the longest a thread running Python keeps the GIL from another that asks for it


def keep_up() -> None:
    """Set for this process: the app's window, `--first-paint`'s and the benchmarks' all come through here
    (MainWindow's constructor)."""
    sys.setswitchinterval(SWITCH_S)
