"""The portable core: export, import into an empty home, and every bad file refused."""

import hashlib
import json
import struct

import pytest

from anima.errors import BadCore, CompanionExists, WrongPassphrase
from anima.store import SOUL_TABLES, Home, core
from tests.conftest import PASSPHRASE
from tests.store.records import fill

EXPORT = "export passphrase"


def all_rows(soul):
    return {t: soul.query(f"SELECT * FROM {t} ORDER BY rowid") for t in SOUL_TABLES}


def home_digest(home):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in home.dir.iterdir() if p.is_file()}


@pytest.fixture
def exported(anima_home, tmp_path):
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        fill(soul)
        for i in range(50):
            soul.add("message", "user", session="s2", role="user", content=f"line {i} ✓ ünïcode 😀", created_at="2026")
        rows = all_rows(soul)
        Home.export(soul, tmp_path / "soul.core", EXPORT)
    return tmp_path / "soul.core", rows


def test_export_then_import_into_an_empty_home_gives_equal_rows(exported, tmp_path):
    path, rows = exported
    target = Home(tmp_path / "elsewhere")
    progress = []
    target.import_core(path, EXPORT, "new machine passphrase", progress=lambda d, t: progress.append((d, t)))
    with target.unlock("new machine passphrase") as soul:
        got = all_rows(soul)
        soul.check()
        # Full-text search is rebuilt too.
        assert soul.query("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'memory'")
    for table in SOUL_TABLES:
        if table == "meta":
            continue  # the companion id is the new home's own
        assert got[table] == rows[table], table
    assert progress and progress[-1][0] == progress[-1][1]


def test_conversations_keep_their_titles_and_counts_on_the_new_machine(anima_home, tmp_path):
    from anima.knowledge.conversations import Conversations

    with Home(anima_home).create(PASSPHRASE) as soul:
        for i in range(3):
            soul.add("message", "user", session="boat", role="user", content=f"boat plan {i}", created_at="2026")
        soul.add("message", "user", session="cello", role="user", content="the recital", created_at="2026")
        Conversations(soul).rename("boat", "Plans for the boat")
        Home.export(soul, tmp_path / "soul.core", EXPORT)
    target = Home(tmp_path / "elsewhere")
    target.import_core(tmp_path / "soul.core", EXPORT, "new machine passphrase")
    with target.unlock("new machine passphrase") as soul:
        got = {c.session: (c.title, c.messages) for c in Conversations(soul).listed()}
    assert got == {"boat": ("Plans for the boat", 3), "cello": ("the recital", 1)}


def test_every_table_with_what_the_companion_knows_is_carried(anima_home):
    """A table the core leaves out is lost at every move to another machine (conversations' titles were): each
    table is carried, or derived from those that are (full-text indexes, the vector index's feed and snapshots,
    the migrations' ledger)."""
    derived = ("_fts", "_grams", "vector_", "sqlite_", "schema_migrations", "forget_gate")
    with Home(anima_home).create(PASSPHRASE) as soul:
        tables = {r["name"] for r in soul.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
    left = {t for t in tables if not any(d in t for d in derived)}
    assert left <= set(SOUL_TABLES), sorted(left - set(SOUL_TABLES))


def test_import_refuses_a_home_that_already_has_a_companion_unless_asked(exported, anima_home):
    path, rows = exported
    home = Home(anima_home)
    with home.unlock(PASSPHRASE) as soul:
        soul.add("message", "user", session="s3", role="user", content="said after the export", created_at="2026")
    before = home_digest(home)
    with pytest.raises(CompanionExists):
        home.import_core(path, EXPORT, PASSPHRASE)
    with pytest.raises(WrongPassphrase):
        home.import_core(path, EXPORT, "not the owner", replace=True)
    assert home_digest(home) == before
    home.import_core(path, EXPORT, PASSPHRASE, replace=True)
    with home.unlock(PASSPHRASE) as soul:
        assert all_rows(soul)["messages"] == rows["messages"]


def corrupt(data: bytes, how: str) -> bytes:
    if how == "truncated":
        return data[: len(data) - 100]
    if how == "cut at a chunk boundary":
        header_len = struct.unpack(">I", data[len(core.MAGIC) : len(core.MAGIC) + 4])[0]
        return data[: len(core.MAGIC) + 4 + header_len]
    if how == "flipped byte":
        b = bytearray(data)
        b[len(b) // 2] ^= 0x01
        return bytes(b)
    if how == "not a core":
        return b"PK\x03\x04 this is a zip file, or anything else" * 100
    if how == "empty":
        return b""
    if how == "costly header":  # asks for 1 GiB of scrypt memory: refused before any is spent
        header_len = struct.unpack(">I", data[len(core.MAGIC) : len(core.MAGIC) + 4])[0]
        start = len(core.MAGIC) + 4
        h = json.loads(data[start : start + header_len])
        h["kdf"]["n"] = 2**20
        newh = json.dumps(h).encode()
        return core.MAGIC + struct.pack(">I", len(newh)) + newh + data[start + header_len :]
    if how == "newer version":
        header_len = struct.unpack(">I", data[len(core.MAGIC) : len(core.MAGIC) + 4])[0]
        start = len(core.MAGIC) + 4
        h = json.loads(data[start : start + header_len])
        h["schema_version"] = 999
        newh = json.dumps(h).encode()
        return core.MAGIC + struct.pack(">I", len(newh)) + newh + data[start + header_len :]
    raise AssertionError(how)


@pytest.mark.parametrize(
    "how",
    ["truncated", "cut at a chunk boundary", "flipped byte", "not a core", "empty", "newer version", "costly header"],
)
def test_a_bad_core_is_refused_and_the_target_stays_as_it_was(exported, tmp_path, how):
    path, _ = exported
    bad = tmp_path / "bad.core"
    bad.write_bytes(corrupt(path.read_bytes(), how))
    target = Home(tmp_path / "target")
    with pytest.raises(BadCore) as err:
        target.import_core(bad, EXPORT, "pw")
    assert str(err.value)
    assert not target.dir.exists() or list(target.dir.iterdir()) == []


def test_a_core_cut_inside_its_magic_is_truncated_not_newer(exported, tmp_path):
    """Cut after the magic's name but inside the version it ends with: not "from a newer version of Anima"."""
    path, _ = exported
    for length in range(10, len(core.MAGIC)):
        bad = tmp_path / f"cut{length}.core"
        bad.write_bytes(path.read_bytes()[:length])
        with pytest.raises(BadCore, match="is truncated"):
            Home(tmp_path / "target").import_core(bad, EXPORT, "pw")


def test_a_wrong_export_passphrase_is_refused(exported, tmp_path):
    path, _ = exported
    target = Home(tmp_path / "target")
    with pytest.raises(WrongPassphrase):
        target.import_core(path, "wrong", "pw")
    assert not target.exists()


def test_an_older_core_is_migrated_on_import(anima_home, tmp_path):
    """A core written at schema 1 imports and comes up at the current schema."""
    from anima.store import Soul
    from anima.store.keys import new_database_key

    key = new_database_key()
    with Soul(tmp_path / "old.db", key, create=True, migrate_to=1) as old:
        old.set_meta("name", "Anima")  # as Home.create has named every soul since the first version
        old.add(
            "memory",
            "user",
            kind="fact",
            content="plays the cello",
            source="user_stated",
            valid_from="2020",
            created_at="2020",
        )
        core.write_core(tmp_path / "old.core", core.dump_tables(old.con, SOUL_TABLES), 1, EXPORT)
    home = Home(anima_home)
    home.import_core(tmp_path / "old.core", EXPORT, PASSPHRASE)
    with home.unlock(PASSPHRASE) as soul:
        assert soul.query("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'cello'")


def test_a_core_wrapped_at_the_old_cost_still_imports(anima_home, tmp_path, monkeypatch):
    """Cores exported before the cost rose (scrypt N=2^14) carry their cost in the header and import as before."""
    from anima.store import keys

    with monkeypatch.context() as mp, Home(tmp_path / "old").create(PASSPHRASE) as soul:
        fill(soul)
        mp.setattr(keys, "wrap_cost", lambda: keys.LEGACY_COST)
        Home.export(soul, tmp_path / "old.core", EXPORT)
    header = core.MAGIC + b"...."
    data = (tmp_path / "old.core").read_bytes()
    (length,) = struct.unpack(">I", data[len(core.MAGIC) : len(header)])
    assert json.loads(data[len(header) : len(header) + length])["kdf"]["n"] == 2**14
    home = Home(anima_home)
    home.import_core(tmp_path / "old.core", EXPORT, PASSPHRASE)
    with home.unlock(PASSPHRASE) as soul:
        assert soul.query("SELECT content FROM memories")[0]["content"] == "CANARY-memory"
    with pytest.raises(WrongPassphrase, match="Wrong passphrase for the core"):
        Home(tmp_path / "third").import_core(tmp_path / "old.core", "not the export passphrase", PASSPHRASE)


def _message_keys(soul):
    return soul.query("SELECT rowid, speaker, content, context FROM messages_fts ORDER BY rowid")


def test_an_import_indexes_messages_for_full_text_as_the_turns_did(anima_home, tmp_path):
    """An import fills the messages' full-text rows in one pass, after the last message (one by one, each also
    rewrote the one before: most of an import's time at 100,000 messages). The rows, each message's context key
    from its session's neighbours included, are what the turns themselves had made; later turns index as before."""
    home = Home(anima_home)
    with home.create(PASSPHRASE) as soul:
        for i in range(12):  # two sessions, interleaved: a neighbour is the session's, not the table's
            soul.add(
                "message",
                "user",
                session=f"s{i % 2}",
                role="user",
                speaker="Ada" if i % 3 else "",
                content=f"turn {i} about {'sailing' if i % 2 else 'pottery'}",
                created_at="2026",
            )
        soul.forget("message", 5)  # a gap: its neighbours' keys were rewritten
        made = _message_keys(soul)
        Home.export(soul, tmp_path / "soul.core", EXPORT)
    target = Home(tmp_path / "elsewhere")
    target.import_core(tmp_path / "soul.core", EXPORT, "new machine passphrase")
    with target.unlock("new machine passphrase") as soul:
        assert _message_keys(soul) == made
        new = soul.add("message", "user", session="s1", role="user", content="turn 12 about knots", created_at="2026")
        assert soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'content:knots'") == [{"rowid": new}]
        # The message before it in its session is found by the new one's words too (its context key).
        assert soul.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'context:knots'") == [{"rowid": 12}]


def test_a_companion_made_here_by_another_program_during_an_import_is_kept(exported, tmp_path):
    """The import reads and builds as it goes; another program makes a companion in the same home meanwhile. The
    import, begun as a new companion's, is refused at the swap: the other's soul is not replaced by one no key
    file opens."""
    path, _ = exported
    target, made = Home(tmp_path / "target"), []

    def progress(done, total):
        if not made:
            made.append(1)
            Home(tmp_path / "target").create("the other program's passphrase", name="Bea").close()

    with pytest.raises(CompanionExists):
        target.import_core(path, EXPORT, "new machine passphrase", progress=progress)
    with target.unlock("the other program's passphrase") as soul:
        assert soul.get_meta("name") == "Bea"
        soul.check()
    assert sorted(p.name for p in target.dir.iterdir() if not p.name.startswith(".")) == ["soul.db", "soul.key"]
