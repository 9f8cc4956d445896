"""A bug in the window or in background work is shown to the person and logged, never lost.

`install()` puts a handler in `sys.excepthook` and `threading.excepthook` (an exception raised in a Qt
slot reaches `sys.excepthook` too) and points `faulthandler` at a file beside the log, for a crash
that takes Python down with it. A bug (anything that is not a `KnownError`) is written with its
traceback to `<data dir>/logs/anima.log` and shown in a dialog that says where that log is; a
bug in another thread is handed to the UI thread before any dialog is shown. A `KnownError` that
escapes is shown as the warning it is, and not logged.

The log never holds what the person said or what the companion knows: a record is its level, its
logger's name and its message (the core's log calls pass counts and names), and a traceback is its
frames and the exception's type. An exception's own message, which may quote what a model wrote, is
never written: not in a traceback, nor where a log call passes the exception as an argument.
"""

import faulthandler
import logging
import os
import sys
import threading
import traceback
from collections.abc import Callable
from io import TextIOWrapper
from pathlib import Path
from types import TracebackType
from typing import Any

import platformdirs
from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QApplication, QMessageBox

from anima.errors import KnownError
from anima.paths import owner_only

LOG_NAME = "anima.log"
FAULTS_NAME = "faults.log"  # written by faulthandler, which cannot go through the logging module
LOGGERS = ("anima", "ui")  # the app's own loggers, whose calls are known not to pass text
log = logging.getLogger("ui.crash")


def log_dir(home_dir: Path | None = None) -> Path:
    """`<home>/logs` once a companion's home is known; before that $ANIMA_HOME/logs or the user log dir."""
    if home_dir is not None:
        return Path(home_dir) / "logs"
    env = os.environ.get("ANIMA_HOME")
    if env:
        return Path(env).expanduser() / "logs"
    return Path(platformdirs.user_log_dir("anima", appauthor=False))


def private(path: str, flags: int) -> int:
    """An `opener` for open(): the file is readable by its owner only, whatever the umask, one an older Anima
    made 0644 too (the mode os.open gives applies only to a file it creates)."""
    fd = os.open(path, flags, 0o600)
    try:
        os.fchmod(fd, 0o600)
    except OSError:  # not ours to change (a log folder shared by hand): it is still written
        pass
    return fd


class PrivateLog(logging.FileHandler):
    """The log, made 0600 as is each new one a rotation starts (its backups are those, renamed): past `max_bytes`
    it is renamed anima.log.1 (.1 to .2 ..., the oldest of `backups` dropped) and a new one begun.

    Not logging.handlers.RotatingFileHandler: importing logging.handlers (socket, pickle, queue) took 8 ms of the
    ~200 ms from start to the first painted window (bench ui's paint ratio), for the dozen lines below."""

    _builtin_open: Callable[..., TextIOWrapper]  # logging.FileHandler's own `open`; typeshed leaves it out

    def __init__(self, path: Path, max_bytes: int, backups: int):
        super().__init__(path, encoding="utf-8", delay=True)
        self.max_bytes, self.backups = max_bytes, backups

    def _open(self) -> TextIOWrapper:
        return self._builtin_open(
            self.baseFilename, self.mode, encoding=self.encoding, errors=self.errors, opener=private
        )

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._full(record):
                self._rotate()
        except OSError:
            self.handleError(record)
            return
        super().emit(record)

    def _full(self, record: logging.LogRecord) -> bool:
        if self.stream is None:
            self.stream = self._open()
        written = self.stream.tell()
        return written > 0 and written + len(self.format(record).encode("utf-8")) + 1 > self.max_bytes

    def _rotate(self) -> None:
        if self.stream is not None:
            self.stream.close()
        self.stream = None  # opened again by the next emit (delay)
        for n in range(self.backups - 1, 0, -1):
            older = Path(f"{self.baseFilename}.{n}")
            if older.exists():
                older.replace(f"{self.baseFilename}.{n + 1}")
        Path(self.baseFilename).replace(f"{self.baseFilename}.1")


def withheld(error: BaseException) -> str:
    kind = type(error)
    return f"{kind.__module__}.{kind.__qualname__} (its message is not logged)"


class WithheldMessages(logging.Formatter):
    """Level, logger, message; a traceback with its frames and exception types, without their messages."""

    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        # A copy: other handlers keep the record whole, and a traceback one of them formatted is not reused.
        record = logging.makeLogRecord(record.__dict__)
        record.exc_text = None
        if isinstance(record.msg, BaseException):
            record.msg = withheld(record.msg)
        if isinstance(record.args, tuple):  # log.warning("...: %s", e) writes e's type
            record.args = tuple(withheld(a) if isinstance(a, BaseException) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: withheld(a) if isinstance(a, BaseException) else a for k, a in record.args.items()}
        return super().format(record)

    def formatException(self, ei) -> str:
        lines: list[str] = []
        error, seen = ei[1], set()
        chain = []
        while error is not None and id(error) not in seen:  # the chain, outermost first
            seen.add(id(error))
            chain.append(error)
            error = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
        for i, error in enumerate(reversed(chain)):
            if i:
                lines.append("\nThe above led to:\n")
            lines.append("Traceback (most recent call last):\n")
            lines.extend(
                traceback.StackSummary.extract(traceback.walk_tb(error.__traceback__), capture_locals=False).format()
            )
            lines.append(f"{withheld(error)}\n")
        return "".join(lines).rstrip("\n")


# The hooks found at install (sys's, threading's), and whether faulthandler was on.
_Hooks = tuple[
    Callable[[type[BaseException], BaseException, TracebackType | None], Any],
    Callable[[threading.ExceptHookArgs], Any],
    bool,
]


class CrashHandler(QObject):
    """Made and installed on the UI thread (after the QApplication); `report` may be called from any thread."""

    _bug = Signal(object, str)  # (the exception, where), queued to the UI thread

    def __init__(self, folder: Path | None = None):
        super().__init__()
        self.folder = folder or log_dir()
        self.log_path: Path | None = self.folder / LOG_NAME  # None: on stderr alone
        self.file_handler: PrivateLog | None = None
        self.faults: TextIOWrapper | None = None
        self.showing = False
        self._previous: _Hooks | None = None
        self._bug.connect(self._show, Qt.ConnectionType.QueuedConnection)

    # ---- installing ----------------------------------------------------------

    def install(self) -> "CrashHandler":
        self._previous = (sys.excepthook, threading.excepthook, faulthandler.is_enabled())
        self._open(self.folder)
        sys.excepthook = self._excepthook
        threading.excepthook = self._thread_excepthook
        return self

    def uninstall(self) -> None:
        """Puts back the hooks found at install; faulthandler goes back to stderr if it was on."""
        if self._previous is None:
            return
        hook, thread_hook, faults_were_on = self._previous
        self._previous = None
        sys.excepthook, threading.excepthook = hook, thread_hook
        self._close()
        if faults_were_on and sys.__stderr__ is not None:
            faulthandler.enable(sys.__stderr__, all_threads=True)

    def use_home(self, home_dir: Path) -> None:
        """The companion's home is known: the log moves to `<home>/logs` from here on."""
        folder = log_dir(home_dir)
        if folder == self.folder:
            return
        if self._previous is not None:
            self._close()
            self._open(folder)
        else:
            self.folder, self.log_path = folder, folder / LOG_NAME

    def _open(self, folder: Path) -> None:
        """The log in `folder`; where it cannot be (the home is a file, or on a read-only disk, or its logs/ is a
        file), in the user's log folder; where neither can be, on stderr alone. The window must start all the same
        and say what is wrong with the home: this raised before anything was shown, and it never started (QA)."""
        for place in dict.fromkeys((folder, log_dir())):
            try:
                return self._open_in(place)
            except OSError as e:
                self._close()
                log.warning("cannot keep the log in %s (%s)", place, e.strerror or type(e).__name__)
        self.folder, self.log_path = folder, None
        if sys.stderr is not None:  # (none in a windowed program on Windows)
            faulthandler.enable(sys.stderr, all_threads=True)

    def _open_in(self, folder: Path) -> None:
        # Private, as the home is: made here first when the window starts before a companion exists.
        folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        folder.mkdir(exist_ok=True, mode=0o700)
        owner_only(folder)
        self.folder, self.log_path = folder, folder / LOG_NAME
        self.file_handler = PrivateLog(self.log_path, max_bytes=1_000_000, backups=3)
        self.file_handler.setFormatter(WithheldMessages())
        for name in LOGGERS:
            logging.getLogger(name).addHandler(self.file_handler)
        # Kept open: faulthandler writes to its fd.
        self.faults = open(folder / FAULTS_NAME, "a", encoding="utf-8", opener=private)
        faulthandler.enable(self.faults, all_threads=True)

    def _close(self) -> None:
        faulthandler.disable()
        if self.faults is not None:
            self.faults.close()
            self.faults = None
        if self.file_handler is not None:
            for name in LOGGERS:
                logging.getLogger(name).removeHandler(self.file_handler)
            self.file_handler.close()
            self.file_handler = None

    # ---- reporting -------------------------------------------------------------

    def _excepthook(self, kind, error, tb) -> None:
        if issubclass(kind, KeyboardInterrupt):
            assert self._previous is not None  # it is sys.excepthook only while installed
            self._previous[0](kind, error, tb)
            return
        self.report(error.with_traceback(tb), "the window")

    def _thread_excepthook(self, args) -> None:
        if issubclass(args.exc_type, SystemExit):
            return  # as the default hook does
        error = args.exc_value if args.exc_value is not None else args.exc_type()
        name = args.thread.name if args.thread is not None else "a thread"
        self.report(error.with_traceback(args.exc_traceback), f"background work ({name})")

    def report(self, error: BaseException, where: str = "the window") -> None:
        """Log a bug (a KnownError is not one) and show it; from any thread."""
        if not isinstance(error, KnownError):
            log.error("a bug in %s", where, exc_info=(type(error), error, error.__traceback__))
        self._bug.emit(error, where)

    @Slot(object, str)
    def _show(self, error: BaseException, where: str) -> None:
        parent = QApplication.activeWindow()
        if isinstance(error, KnownError):
            QMessageBox.warning(parent, "Anima", str(error))
            return
        if self.showing:
            return  # one dialog at a time; this bug is in the log
        self.showing = True
        try:
            QMessageBox.critical(
                parent,
                "Anima: a bug",
                f"Anima hit a bug ({type(error).__name__} in {where}). "
                + (
                    f"It is written in the log, {self.log_path}, without anything you said."
                    if self.log_path is not None
                    else "No log file could be written here; the details went to the terminal."
                ),
            )
        finally:
            self.showing = False


_installed: CrashHandler | None = None


def install(folder: Path | None = None) -> CrashHandler:
    """Install the one crash handler (on the UI thread, with a QApplication)."""
    global _installed
    if _installed is None:
        _installed = CrashHandler(folder).install()
    return _installed


def uninstall() -> None:
    global _installed
    if _installed is not None:
        _installed.uninstall()
        _installed = None


def installed() -> CrashHandler | None:
    return _installed
