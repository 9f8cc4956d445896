"""The crash handler: a bug in a thread or in a Qt slot is logged and shown; a KnownError is not a bug."""

import logging
import os
import stat
import sys
import threading
from contextlib import contextmanager

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox, QWidget

from anima.errors import KnownError
from ui import crash, errors

# The handler is installed inside each test's own body: pytest-qt and pytest put their hooks in place
# around each phase of a test, and the handler must find them there and give them back.
SECRET = "my cat is called Miso"


@pytest.fixture
def dialogs(monkeypatch):
    """The dialogs the handler shows, recorded instead of shown: (kind, text, on the UI thread)."""
    shown = []

    def record(kind):
        return lambda parent, title, text, *a, **k: shown.append(
            (kind, text, threading.current_thread() is threading.main_thread())
        )

    monkeypatch.setattr(QMessageBox, "critical", record("critical"))
    monkeypatch.setattr(QMessageBox, "warning", record("warning"))
    return shown


@contextmanager
def installed(folder):
    before = (sys.excepthook, threading.excepthook)
    handler = crash.install(folder)
    try:
        yield handler
    finally:
        crash.uninstall()
        assert (sys.excepthook, threading.excepthook) == before, "the handler did not give the hooks back"
        assert crash.installed() is None


def learn():
    raise ValueError(f"could not read {SECRET!r}")  # a message that quotes what the person said


def test_a_bug_in_a_thread_is_logged_and_shown_on_the_ui_thread(qtbot, tmp_path, dialogs):
    with installed(tmp_path / "logs"):
        worker = threading.Thread(target=learn, name="between turns")
        worker.start()
        worker.join()
        qtbot.waitUntil(lambda: bool(dialogs))
    [(kind, text, on_ui_thread)] = dialogs
    assert kind == "critical" and on_ui_thread
    assert "ValueError" in text and str(tmp_path / "logs" / "anima.log") in text
    log = (tmp_path / "logs" / "anima.log").read_text(encoding="utf-8")
    assert "ERROR ui.crash: a bug in background work (between turns)" in log
    assert "Traceback (most recent call last)" in log and "in learn" in log and "builtins.ValueError" in log
    assert SECRET not in log and "Miso" not in log  # the exception's message is never written


def test_a_bug_in_a_qt_slot_is_logged_and_shown(qtbot, tmp_path, dialogs):
    with installed(tmp_path / "logs") as handler:
        QTimer.singleShot(0, learn)  # raised inside Qt's event loop, as a slot's bug is
        qtbot.waitUntil(lambda: bool(dialogs))
        assert handler.log_path == tmp_path / "logs" / "anima.log"
    [(kind, text, _)] = dialogs
    assert kind == "critical" and "ValueError" in text
    log = (tmp_path / "logs" / "anima.log").read_text(encoding="utf-8")
    assert "a bug in the window" in log and "in learn" in log and "Miso" not in log


def test_a_chained_bug_logs_each_traceback_without_messages(qtbot, tmp_path, dialogs):
    def wrap():
        try:
            learn()
        except ValueError as e:
            raise RuntimeError(f"learning failed: {e}") from e

    with installed(tmp_path / "logs"):
        threading.Thread(target=wrap).start()
        qtbot.waitUntil(lambda: bool(dialogs))
    log = (tmp_path / "logs" / "anima.log").read_text(encoding="utf-8")
    assert log.index("builtins.ValueError") < log.index("The above led to") < log.index("builtins.RuntimeError")
    assert "Miso" not in log


def test_a_known_error_is_not_a_bug(qtbot, tmp_path, dialogs):
    def fill_the_disk():
        raise KnownError("The disk is full.")

    with installed(tmp_path / "logs"):
        threading.Thread(target=fill_the_disk).start()
        qtbot.waitUntil(lambda: bool(dialogs))
        errors.show(QWidget(), KnownError("Wrong passphrase."))
    assert [(kind, text) for kind, text, _ in dialogs] == [
        ("warning", "The disk is full."),
        ("warning", "Wrong passphrase."),
    ]
    assert not (tmp_path / "logs" / "anima.log").exists()  # nothing was logged


def test_errors_show_hands_a_bug_to_the_handler_instead_of_raising(qtbot, tmp_path, dialogs):
    try:
        learn()
    except ValueError as e:
        bug = e
    with pytest.raises(ValueError):
        errors.show(QWidget(), bug)  # with no handler installed a bug still cannot pass unseen
    with installed(tmp_path / "logs"):
        errors.show(QWidget(), bug)
        qtbot.waitUntil(lambda: bool(dialogs))
    assert dialogs[0][0] == "critical"
    assert "in learn" in (tmp_path / "logs" / "anima.log").read_text(encoding="utf-8")


def test_the_log_moves_to_the_companions_home(qtbot, tmp_path, dialogs):
    with installed(tmp_path / "early") as handler:
        handler.use_home(tmp_path / "home")
        assert handler.log_path == tmp_path / "home" / "logs" / "anima.log"
        assert (tmp_path / "home" / "logs" / "faults.log").exists()
        assert (tmp_path / "home").stat().st_mode & 0o077 == 0  # as private as the home it may have made
        threading.Thread(target=learn).start()
        qtbot.waitUntil(lambda: bool(dialogs))
    assert "in learn" in (tmp_path / "home" / "logs" / "anima.log").read_text(encoding="utf-8")
    assert not (tmp_path / "early" / "anima.log").exists()


def test_a_log_folder_that_cannot_be_made_falls_back_and_the_window_still_starts(qtbot, tmp_path, dialogs, monkeypatch):
    """QA: ANIMA_HOME naming a file, a home on a read-only disk, or a home whose logs/ is a file raised from
    install(), before the window showed anything: it never started, with a traceback. The log goes to the user's
    log folder then, or nowhere but stderr, and a bug is still shown."""
    a_file = tmp_path / "a file"
    a_file.write_text("not a folder")
    monkeypatch.setenv("ANIMA_HOME", str(tmp_path / "elsewhere"))  # where log_dir() falls back to here
    with installed(a_file / "logs") as handler:
        assert handler.log_path == tmp_path / "elsewhere" / "logs" / "anima.log"
        (tmp_path / "home").mkdir()
        (tmp_path / "home" / "logs").write_text("a file where the logs would go")
        handler.use_home(tmp_path / "home")
        assert handler.log_path == tmp_path / "elsewhere" / "logs" / "anima.log"
        threading.Thread(target=learn).start()
        qtbot.waitUntil(lambda: bool(dialogs))
    assert str(tmp_path / "elsewhere" / "logs" / "anima.log") in dialogs[0][1]
    assert "in learn" in (tmp_path / "elsewhere" / "logs" / "anima.log").read_text(encoding="utf-8")
    monkeypatch.setenv("ANIMA_HOME", str(a_file))  # nowhere at all
    dialogs.clear()
    with installed(a_file / "logs") as handler:
        assert handler.log_path is None
        threading.Thread(target=learn).start()
        qtbot.waitUntil(lambda: bool(dialogs))
    assert "No log file could be written here" in dialogs[0][1]


def test_the_log_folder_before_a_home_is_known(anima_home, monkeypatch):
    assert crash.log_dir() == anima_home / "logs"
    assert crash.log_dir(anima_home / "other") == anima_home / "other" / "logs"
    monkeypatch.delenv("ANIMA_HOME")
    assert crash.log_dir().name in ("log", "logs", "Logs")  # the platform's user log dir


def test_an_exception_passed_to_a_log_call_is_written_as_its_type(qtbot, tmp_path, dialogs):
    try:
        learn()
    except ValueError as e:
        bug = e
    with installed(tmp_path / "logs"):
        logging.getLogger("anima.reflect.human").warning("learning skipped %d messages: %s", 3, bug)
        logging.getLogger("anima.reflect").error("the work between turns failed", exc_info=bug)
    log = (tmp_path / "logs" / "anima.log").read_text(encoding="utf-8")
    assert "WARNING anima.reflect.human: learning skipped 3 messages: builtins.ValueError" in log
    assert "ERROR anima.reflect: the work between turns failed" in log and "in learn" in log
    assert "Miso" not in log


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")
def test_the_log_its_rotated_backups_and_the_faults_file_are_readable_by_their_owner_only(qtbot, tmp_path):
    old = os.umask(0o022)  # the usual one: files are 0644 unless made otherwise
    try:
        with installed(tmp_path / "logs") as handler:
            handler.file_handler.max_bytes = 1  # each record starts a new file
            for n in range(3):
                logging.getLogger("anima.store").warning("record %d", n)
    finally:
        os.umask(old)
    written = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert {"anima.log", "anima.log.1", "anima.log.2", "faults.log"} <= set(written)
    assert {name: oct(stat.S_IMODE((tmp_path / "logs" / name).stat().st_mode)) for name in written} == {
        name: oct(0o600) for name in written
    }


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")
def test_a_log_folder_and_logs_an_older_version_left_readable_are_made_owner_only(qtbot, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    for name in ("anima.log", "faults.log"):
        (folder / name).write_text("old\n")
        os.chmod(folder / name, 0o644)
    with installed(folder):
        logging.getLogger("anima.store").warning("a record")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {name: oct(stat.S_IMODE((folder / name).stat().st_mode)) for name in ("anima.log", "faults.log")} == {
        "anima.log": oct(0o600),
        "faults.log": oct(0o600),
    }


def test_the_log_keeps_three_backups_newest_first_and_never_loses_the_record_that_rotates_it(qtbot, tmp_path):
    with installed(tmp_path / "logs") as handler:
        handler.file_handler.max_bytes = 1  # each record starts a new file
        for n in range(6):
            logging.getLogger("anima.store").warning("record %d", n)
    logs = tmp_path / "logs"
    assert sorted(p.name for p in logs.glob("anima.log*")) == ["anima.log", "anima.log.1", "anima.log.2", "anima.log.3"]
    said = {p.name: p.read_text(encoding="utf-8") for p in logs.glob("anima.log*")}
    assert "record 5" in said["anima.log"] and "record 4" in said["anima.log.1"] and "record 2" in said["anima.log.3"]
    assert not any("record 1" in text for text in said.values())  # the oldest went
