"""The portable core of a large soul is written a piece at a time: neither its JSON text nor the sealed file is
ever whole in memory (a 100,000-message soul's export peaked at 1.7 GB holding both, and copies of them)."""

import json
import os
import secrets

import pytest

from anima.store import core
from anima.store.migrations import SCHEMA_VERSION

EXPORT = "export passphrase for the streamed core"


def big_tables(rows: int = 6_000) -> dict:
    # Incompressible text, so the payload spans several 1 MiB chunks.
    return {
        "messages": {
            "columns": ["id", "content", "created_at"],
            "rows": [[i, secrets.token_hex(200) + " é", "2026-11-29"] for i in range(1, rows + 1)],
        },
        "meta": {"columns": ["key", "value"], "rows": [["name", "Anima"]]},
    }


def test_a_large_core_is_encoded_and_written_in_pieces_and_reads_back_whole(tmp_path, monkeypatch):
    tables = big_tables()
    whole = len(json.dumps({"tables": tables}, ensure_ascii=False))
    longest, writes = [0], []
    real_dumps, real_write = json.dumps, os.write

    def dumps(obj, *args, **kwargs):
        text = real_dumps(obj, *args, **kwargs)
        longest[0] = max(longest[0], len(text))
        return text

    def write(fd, data):
        writes.append(len(data))
        return real_write(fd, data)

    monkeypatch.setattr(json, "dumps", dumps)
    monkeypatch.setattr(os, "write", write)
    path = tmp_path / "big.core"
    core.write_core(path, tables, SCHEMA_VERSION, EXPORT)
    monkeypatch.undo()
    assert longest[0] < whole / 4  # the text a thousand rows at a time, never whole
    assert len(writes) > 2 and max(writes) <= core.CHUNK + 4 + 16  # a sealed chunk at a time
    assert sum(writes) == path.stat().st_size
    assert core.read_core(path, EXPORT).tables == tables


def souls_export_peak(home, rows: int, tmp_path) -> tuple[int, int]:
    """(the most Python memory exporting a soul of `rows` messages held, the length of their text)."""
    import tracemalloc

    from anima.store import Home

    with home.unlock(PASSPHRASE) as soul:
        with soul.transaction() as con:
            con.execute("DELETE FROM messages")
            con.executemany(
                "INSERT INTO messages(session, role, speaker, content, created_at) VALUES (?, ?, ?, ?, ?)",
                [("s", "user", "Sam", secrets.token_hex(1000), "2026") for _ in range(rows)],
            )
        path = tmp_path / f"{rows}.core"
        tracemalloc.start()
        try:
            Home.export(soul, path, EXPORT)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    return peak, rows * 2000


PASSPHRASE = "the soul's own passphrase"


def test_an_export_holds_a_batch_of_rows_not_the_soul(tmp_path):
    """Read whole, a 100,000-message soul's rows took 740 MB before a byte was written; read as written, what
    is held is a thousand rows and a chunk or two, however large the soul."""
    from anima.store import Home

    home = Home(tmp_path / "home")
    home.create(PASSPHRASE, name="Ada").close()
    small, _ = souls_export_peak(home, 2_000, tmp_path)  # both past a few chunks of the file
    large, text = souls_export_peak(home, 8_000, tmp_path)
    assert large < small * 1.5 and large < text, (small, large, text)
    assert len(core.read_core(tmp_path / "8000.core", EXPORT).tables["messages"]["rows"]) == 8_000


def test_what_is_written_while_an_export_runs_waits_for_none_and_is_not_in_it(tmp_path):
    """The core is one snapshot, read through a connection of its own: this program writes meanwhile through the
    soul's (a turn is not held up for the export), and the core holds the soul as it was when the export began."""
    import threading

    from anima.store import Home

    home = Home(tmp_path / "home")
    home.create(PASSPHRASE, name="Ada").close()
    with home.unlock(PASSPHRASE) as soul:
        with soul.transaction() as con:
            con.executemany(
                "INSERT INTO messages(session, role, speaker, content, created_at) VALUES (?, ?, ?, ?, ?)",
                [("s", "user", "Sam", secrets.token_hex(500), "2026") for _ in range(5_000)],
            )
        written = []

        def progress(done, total):
            if not written:  # mid-export, from another thread, as the window's turn would
                t = threading.Thread(
                    target=lambda: written.append(
                        soul.add(
                            "message",
                            "user",
                            session="s",
                            role="user",
                            speaker="Sam",
                            content="said during the export",
                            created_at="2026",
                        )
                    )
                )
                t.start()
                t.join(timeout=10)
                assert written, "the write waited for the export"

        path = tmp_path / "during.core"
        Home.export(soul, path, EXPORT, progress)
        assert soul.get("message", written[0])["content"] == "said during the export"
    rows = core.read_core(path, EXPORT).tables["messages"]["rows"]
    assert len(rows) == 5_000 and all("said during the export" not in r for r in rows)


def test_closing_the_soul_waits_for_an_export_it_is_read_for(tmp_path):
    """The export reads through a connection of its own; closing the soul meanwhile (the window quits) waits for
    it, so the export is whole, and the WAL is emptied and the presence let go only once nothing reads the file
    (another program could otherwise put a soul in its place under this one's WAL)."""
    import threading

    from anima.store import Home

    home = Home(tmp_path / "home")
    soul = home.create(PASSPHRASE, name="Ada")
    with soul.transaction() as con:
        con.executemany(
            "INSERT INTO messages(session, role, speaker, content, created_at) VALUES (?, ?, ?, ?, ?)",
            [("s", "user", "Sam", secrets.token_hex(500), "2026") for _ in range(3_000)],
        )
    soul.set_meta("late", "x" * 100_000)  # in the WAL
    reading, closed = threading.Event(), []

    def progress(done, total):
        reading.set()

    path = tmp_path / "closing.core"
    export = threading.Thread(target=lambda: Home.export(soul, path, EXPORT, progress))
    export.start()
    reading.wait(timeout=30)
    soul.close()  # on this thread, while the export reads on its own
    closed.append(export.is_alive())
    export.join()
    assert closed == [False]  # the close came after the export
    assert len(core.read_core(path, EXPORT).tables["messages"]["rows"]) == 3_000
    wal = home.soul_path.with_name("soul.db-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    with home.unlock(PASSPHRASE) as again:  # the presence was let go
        assert again.get_meta("late") == "x" * 100_000


def test_a_soul_closed_from_inside_its_own_export_is_a_bug_not_a_hang(tmp_path):
    from anima.store import Home

    home = Home(tmp_path / "home")
    soul = home.create(PASSPHRASE, name="Ada")
    try:
        with pytest.raises(RuntimeError, match="inside its own reading"):
            Home.export(soul, tmp_path / "x.core", EXPORT, lambda done, total: soul.close())
    finally:
        soul.close()
    assert not (tmp_path / "x.core").exists()


@pytest.mark.parametrize("where", ["this program", "another program"])
def test_a_forget_while_the_export_is_written_leaves_no_core_holding_it(tmp_path, where):
    """The core is written from a snapshot taken as the export began: a forget committed meanwhile (by this
    program or another) would leave what it forgot in the file. No file is written then, and the person is told
    to export again; the next export holds none of it."""
    import threading

    from anima.errors import ForgottenWhileExporting
    from anima.store import Home

    home = Home(tmp_path / "home")
    soul = home.create(PASSPHRASE, name="Ada")
    ids = [
        soul.add(
            "message",
            "user",
            session="s",
            role="user",
            content=f"line {i} " + secrets.token_hex(400),
            created_at="2026",
        )
        for i in range(2_500)
    ]
    soul.add("message", "user", session="s", role="user", content="the secret sparrowhawk", created_at="2026")
    [gone] = [r["id"] for r in soul.query("SELECT id FROM messages WHERE content LIKE '%sparrowhawk%'")]
    forgot = []

    def progress(done, total):
        if not forgot:
            forgot.append(1)
            if where == "this program":
                t = threading.Thread(target=lambda: soul.forget("message", gone))
                t.start()
                t.join()
            else:
                with home.unlock(PASSPHRASE) as other:
                    other.forget("message", gone)

    path = tmp_path / "during.core"
    try:
        with pytest.raises(ForgottenWhileExporting, match="Export again"):
            Home.export(soul, path, EXPORT, progress)
        assert not path.exists() and not list(tmp_path.glob("during.core.*"))
        Home.export(soul, path, EXPORT)
    finally:
        soul.close()
    rows = core.read_core(path, EXPORT).tables["messages"]["rows"]
    assert len(rows) == len(ids) and not any("sparrowhawk" in str(r) for r in rows)


def test_a_forget_while_the_finished_core_is_synced_lets_it_go_too(tmp_path, monkeypatch):
    """The last check is made once the file is written and synced (on a slow disk the sync alone takes seconds),
    just before it takes its name."""
    import os

    from anima.errors import ForgottenWhileExporting
    from anima.store import Home

    home = Home(tmp_path / "home")
    with home.create(PASSPHRASE, name="Ada") as soul:
        gone = soul.add(
            "message", "user", session="s", role="user", content="the secret sparrowhawk", created_at="2026"
        )
        real, forgot = os.fsync, []

        def fsync(fd):
            if not forgot:
                forgot.append(1)
                with home.unlock(PASSPHRASE) as other:  # another program forgets it meanwhile
                    other.forget("message", gone)
            return real(fd)

        monkeypatch.setattr(os, "fsync", fsync)
        with pytest.raises(ForgottenWhileExporting):
            Home.export(soul, tmp_path / "synced.core", EXPORT)
    assert forgot and not (tmp_path / "synced.core").exists()
