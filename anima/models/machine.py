"""This machine's memory, measured, and whether a model of a given size fits in it.

Read from what the system says without a new dependency: /proc/meminfo on Linux (MemAvailable counts the page
cache that can be given back), os.sysconf elsewhere on POSIX, GlobalMemoryStatusEx on Windows. A figure that
cannot be read is None, and then no model is said to fit or not: "unknown", never a guess.
"""

import ctypes
import os
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

GB = 1_000_000_000


@dataclass(frozen=True)
class Memory:
    total: int | None  # bytes
    available: int | None  # bytes free for a new program now (the page cache that can be given back included)

    def describe(self) -> str:
        if self.total is None:
            return "This machine's memory could not be measured."
        free = f", {self.available / GB:.1f} GB of it free now" if self.available is not None else ""
        return f"This machine has {self.total / GB:.1f} GB of memory{free}."


class Fit(Enum):
    FITS = "fits"  # leaves room for the rest of the app and what else runs
    TIGHT = "tight"  # fits, but only if little else is open
    TOO_BIG = "too big"
    UNKNOWN = "unknown"  # the memory could not be measured


# A model should take at most this share of all memory to fit, and of what is free now; beyond it, up to
# TOO_BIG_SHARE of all memory, it is tight: the system, the window and the embedder (~0.5 GB) need the rest.
FITS_SHARE = 0.5
TOO_BIG_SHARE = 0.8


def fit(memory_gb: float, memory: Memory) -> Fit:
    """Whether a model needing `memory_gb` GB (weights and its context) fits `memory`."""
    if memory.total is None:
        return Fit.UNKNOWN
    need = memory_gb * GB
    if need > memory.total * TOO_BIG_SHARE:
        return Fit.TOO_BIG
    free = memory.available if memory.available is not None else memory.total
    if need < memory.total * FITS_SHARE and need <= free * TOO_BIG_SHARE:
        return Fit.FITS
    return Fit.TIGHT


def measure(meminfo: Path = Path("/proc/meminfo")) -> Memory:
    """This machine's memory now (about a millisecond: call it off the window's thread all the same)."""
    found = _meminfo(meminfo)
    if found is not None:
        return found
    if sys.platform == "win32":
        return _windows()
    return _sysconf()


def _meminfo(path: Path) -> Memory | None:
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    kb: dict[str, int] = {}
    for line in lines:
        key, _, rest = line.partition(":")
        figures = rest.split()
        if figures and figures[0].isdigit():
            kb[key] = int(figures[0])
    if "MemTotal" not in kb:
        return None
    available = kb.get("MemAvailable")
    return Memory(kb["MemTotal"] * 1024, available * 1024 if available is not None else None)


def _sysconf() -> Memory:
    try:
        page = os.sysconf("SC_PAGE_SIZE")
        total = os.sysconf("SC_PHYS_PAGES") * page
    except (ValueError, OSError, AttributeError):
        return Memory(None, None)
    try:
        available: int | None = os.sysconf("SC_AVPHYS_PAGES") * page  # Linux and Solaris; not macOS
    except (ValueError, OSError):
        available = None
    return Memory(total if total > 0 else None, available if available and available > 0 else None)


def _windows() -> Memory:  # pragma: no cover - runs on Windows only
    class Status(ctypes.Structure):
        _fields_ = [
            ("dwLength", ctypes.c_ulong),
            ("dwMemoryLoad", ctypes.c_ulong),
            ("ullTotalPhys", ctypes.c_ulonglong),
            ("ullAvailPhys", ctypes.c_ulonglong),
            ("ullTotalPageFile", ctypes.c_ulonglong),
            ("ullAvailPageFile", ctypes.c_ulonglong),
            ("ullTotalVirtual", ctypes.c_ulonglong),
            ("ullAvailVirtual", ctypes.c_ulonglong),
            ("ullAvailExtendedVirtual", ctypes.c_ulonglong),
        ]

    status = Status()
    status.dwLength = ctypes.sizeof(Status)
    if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
        return Memory(None, None)
    return Memory(int(status.ullTotalPhys), int(status.ullAvailPhys))
