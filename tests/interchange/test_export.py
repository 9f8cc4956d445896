"""`export --json` on a large soul: written as it is read, a page of rows at a time, never whole in memory."""

import json

import pytest

from anima.errors import DiskFull
from anima.interchange import export
from anima.store import Home, forget
from tests.conftest import PASSPHRASE
from tests.store.records import NOW, fill


def many_messages(soul, n: int) -> None:
    with soul.transaction() as con:
        con.executemany(
            "INSERT INTO messages(session, role, speaker, content, created_at) VALUES (?, ?, ?, ?, ?)",
            [("day", "user", "Sam", f'message {i} with "quotes", a line\nbreak and café', NOW) for i in range(n)],
        )


@pytest.fixture
def big_soul(anima_home):
    with Home(anima_home).create(PASSPHRASE) as soul:
        fill(soul)
        many_messages(soul, 3_000)
        yield soul


def test_the_file_reads_as_the_whole_soul_did_and_no_query_holds_a_whole_table(big_soul, tmp_path, monkeypatch):
    whole = json.dumps(export.everything(big_soul), ensure_ascii=False, indent=1)
    most = []
    real = type(big_soul).query

    def query(self, sql, params=()):
        rows = real(self, sql, params)
        most.append(len(rows))
        return rows

    monkeypatch.setattr(type(big_soul), "query", query)
    out = tmp_path / "all.json"
    counts = export.export_json(big_soul, out)
    # 100,000 messages read at once took 434 MB; a page at a time, a page's worth.
    assert max(most) <= export.PAGE
    assert out.read_text(encoding="utf-8") == whole  # byte for byte what it was
    assert counts["messages"] == 3_001 and counts["memories"] == 1 and counts["edit_history"] > 0
    assert isinstance(json.loads(whole)["parts"][0]["data"], dict)


def test_a_full_disk_in_the_middle_leaves_the_old_file_and_nothing_beside_it(big_soul, tmp_path, monkeypatch):
    import errno
    import os

    out = tmp_path / "all.json"
    out.write_text("old", encoding="utf-8")
    writes = []
    real = os.write

    def write(fd, data):
        writes.append(len(data))
        if len(writes) == 2:  # after the first piece went out
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(export, "_FLUSH", 4096)
    monkeypatch.setattr(os, "write", write)
    with pytest.raises(DiskFull):
        export.export_json(big_soul, out)
    assert out.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["all.json", "home"]


def test_a_forget_while_the_file_is_written_lets_it_go(big_soul, tmp_path, monkeypatch):
    """Paged, the file is not one snapshot: a message forgotten meanwhile (here, as its second page of messages
    is read) could be in a page already read. The old file stays, nothing is left beside it, and the person is
    told to export again."""
    from anima.errors import ForgottenWhileExporting

    [first] = big_soul.query("SELECT min(id) AS id FROM messages")
    out = tmp_path / "all.json"
    out.write_text("old", encoding="utf-8")
    real, forgot = type(big_soul).query, []

    def query(self, sql, params=()):
        if "FROM messages WHERE rowid >" in sql and not forgot:
            forgot.append(1)
            self.forget("message", first["id"])
        return real(self, sql, params)

    monkeypatch.setattr(type(big_soul), "query", query)
    with pytest.raises(ForgottenWhileExporting, match="Export again"):
        export.export_json(big_soul, out)
    monkeypatch.undo()
    assert forgot and out.read_text(encoding="utf-8") == "old" and not list(tmp_path.glob("all.json.*"))
    export.export_json(big_soul, out)
    assert not [m for m in json.loads(out.read_text(encoding="utf-8"))["messages"] if m["id"] == first["id"]]


def test_a_name_that_matches_nothing_forgets_nothing_an_export_must_drop(big_soul, tmp_path, monkeypatch):
    """Forgetting a person the soul never heard of removes nothing: the export written meanwhile holds nothing
    that went, so it is kept (it was refused as if something had), while the file is still rebuilt (copies of the
    name may sit in free space from text that went another way)."""
    out = tmp_path / "all.json"
    real, asked, rebuilt = type(big_soul).query, [], []

    def query(self, sql, params=()):
        if "FROM messages WHERE rowid >" in sql and not asked:
            asked.append(self.forget_person("Zarnuvexil"))
        return real(self, sql, params)

    monkeypatch.setattr(type(big_soul), "query", query)
    monkeypatch.setattr(forget, "rewrite_file", lambda con, path: rebuilt.append(path))
    export.export_json(big_soul, out)
    assert asked and asked[0].total == 0 and rebuilt == [big_soul.path]
    assert (
        len(json.loads(out.read_text(encoding="utf-8"))["messages"])
        == big_soul.query("SELECT count(*) AS n FROM messages")[0]["n"]
    )
