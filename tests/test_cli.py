"""The command line as a script uses it: exit 0, or 2 with one clear line for a person's mistake."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from anima.store import Home
from tests.conftest import PASSPHRASE, typed_lines, until
from tests.store.records import fill

ROOT = Path(__file__).resolve().parent.parent


def anima(*args, env=None):
    full = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "anima", *args], capture_output=True, text=True, env=full, cwd=ROOT, timeout=120
    )


@pytest.mark.slow  # runs `python -m anima`
def test_export_and_import_from_the_command_line(anima_home, tmp_path):
    with Home(anima_home).create(PASSPHRASE) as soul:
        fill(soul)
    core = tmp_path / "soul.core"
    env = {"ANIMA_PASSPHRASE": PASSPHRASE, "ANIMA_EXPORT_PASSPHRASE": "export passphrase"}
    r = anima("export", str(core), env=env)
    assert r.returncode == 0, r.stderr
    other = tmp_path / "other"
    r = anima("import", str(core), env={**env, "ANIMA_HOME": str(other)})
    assert r.returncode == 0, r.stderr
    with Home(other).unlock(PASSPHRASE) as soul:
        assert soul.query("SELECT content FROM memories")[0]["content"] == "CANARY-memory"
    # Into a home that has a companion: refused, unless asked to replace it.
    r = anima("import", str(core), env={**env, "ANIMA_HOME": str(other)})
    assert r.returncode == 2 and "already lives" in r.stderr
    r = anima("import", "--replace", str(core), env={**env, "ANIMA_HOME": str(other)})
    assert r.returncode == 0, r.stderr


@pytest.mark.slow  # runs `python -m anima`
def test_mistakes_exit_2_with_one_line_and_no_traceback(anima_home, tmp_path):
    Home(anima_home).create(PASSPHRASE).close()
    cases = [
        (("export", str(tmp_path / "x.core")), {"ANIMA_PASSPHRASE": "wrong", "ANIMA_EXPORT_PASSPHRASE": "e"}),
        (
            ("import", str(tmp_path / "missing.core")),
            {"ANIMA_PASSPHRASE": PASSPHRASE, "ANIMA_EXPORT_PASSPHRASE": "e", "ANIMA_HOME": str(tmp_path / "new")},
        ),
        (
            ("export", str(tmp_path / "no-such-dir" / "x.core")),
            {"ANIMA_PASSPHRASE": PASSPHRASE, "ANIMA_EXPORT_PASSPHRASE": "export passphrase"},
        ),
        (("export", str(tmp_path / "x.core")), {"ANIMA_PASSPHRASE": PASSPHRASE, "ANIMA_EXPORT_PASSPHRASE": "e"}),
        (("chat",), {"ANIMA_HOME": str(tmp_path / "newcomer"), "ANIMA_PASSPHRASE": "p"}),
        (("check",), {"ANIMA_HOME": str(tmp_path / "empty"), "ANIMA_PASSPHRASE": "p"}),
    ]
    for args, env in cases:
        r = anima(*args, env=env)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("anima: "), r.stderr
        assert "Traceback" not in r.stderr


@pytest.mark.slow  # runs `python -m anima`
def test_check_reports_a_healthy_soul(anima_home):
    Home(anima_home).create(PASSPHRASE).close()
    r = anima("check", env={"ANIMA_PASSPHRASE": PASSPHRASE})
    assert r.returncode == 0 and "passes" in r.stdout


def test_the_terminal_opens_the_data_folder_chosen_in_the_window(anima_home, tmp_path):
    from anima.settings import Settings

    chosen = tmp_path / "moved"
    Home(chosen).create(PASSPHRASE, name="Moved").close()
    Settings(data_folder=str(chosen)).save()  # as the window's Settings dialog saves it
    r = anima("check", env={"ANIMA_PASSPHRASE": PASSPHRASE})
    assert r.returncode == 0 and "passes" in r.stdout and not Home(anima_home).exists()  # none lives there
    r = anima("check", "--home", str(anima_home), env={"ANIMA_PASSPHRASE": PASSPHRASE})
    assert r.returncode == 2 and str(anima_home) in r.stderr  # --home still wins
    # A folder typed as a relative path in Settings means where the window was started, wherever the terminal is.
    (tmp_path / "window").mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path / "window")
        Settings(data_folder="moved-here").save()
    assert Settings.load().data_folder == str(tmp_path / "window" / "moved-here")


def said_by_check(capsys) -> str:
    """`anima check`'s one line on stderr, for a mistake (exit 2)."""
    from anima import cli

    capsys.readouterr()
    assert cli.main(["check"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("anima: "), lines
    return lines[0]


@pytest.mark.timeout(20)
@pytest.mark.parametrize("what", ["pipe", "folder", "device"])
def test_a_settings_file_that_is_not_a_regular_file_is_one_line_without_waiting(capsys, what):
    """QA: a pipe there hung `anima check` (read, waiting for a writer), a link to /dev/zero read until memory ran out
    (4.4 GB), a folder was a traceback. Now none is opened: one line. /dev/null stands in for the endless device
    here, so that the code before the fix fails this test rather than eating the machine's memory."""
    from anima.settings import Settings

    path = Settings.path()
    {"pipe": lambda: os.mkfifo(path), "folder": path.mkdir, "device": lambda: path.symlink_to("/dev/null")}[what]()
    assert said_by_check(capsys) == (
        f"anima: The settings file {path} is not a regular file (it may be a folder, a "
        "pipe or a device); fix or delete it."
    )


def test_a_settings_file_over_a_megabyte_is_refused_without_reading_it_whole(capsys):
    import tracemalloc

    from anima.settings import Settings

    path = Settings.path()
    with open(path, "wb") as f:
        f.write(b'{"data_folder": "')
        f.truncate(64 << 20)  # sparse: no disk taken
    tracemalloc.start()
    try:
        said = said_by_check(capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert said == f"anima: The settings file {path} is over 1 MB, far more than settings take; fix or delete it."
    assert peak < 4 << 20


def test_saving_settings_keeps_what_another_version_wrote_and_the_link_to_them(tmp_path):
    """QA: saving (the window's Settings dialog) dropped the keys this version does not know, which load() says it
    leaves alone, and put a file in place of a link to the settings, leaving the real file as it was."""
    from anima.settings import Settings

    path = Settings.path()
    real = tmp_path / "dotfiles" / "anima.json"
    real.parent.mkdir()
    real.write_text(json.dumps({"theme": "dark", "gpu_layers": 0, "from_a_newer_anima": [1, {}]}), encoding="utf-8")
    path.unlink(missing_ok=True)
    path.symlink_to(real)
    settings = Settings.load()
    settings.gpu_layers = 12
    settings.save()
    assert path.is_symlink() and path.resolve() == real
    saved = json.loads(real.read_text(encoding="utf-8"))
    assert saved["theme"] == "dark" and saved["from_a_newer_anima"] == [1, {}] and saved["gpu_layers"] == 12
    assert Settings.load().gpu_layers == 12


def test_a_settings_file_that_cannot_be_read_is_one_line(capsys, monkeypatch):
    """QA: a settings file (or folder) this user may not read was a PermissionError traceback."""
    import errno

    from anima import files
    from anima.settings import Settings

    Settings.path().write_text("{}", encoding="utf-8")

    def refused(path):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(files, "open_regular", refused)
    assert said_by_check(capsys) == (
        f"anima: The settings file {Settings.path()} cannot be read (Permission "
        "denied); give this user access to it, or delete it."
    )


@pytest.mark.parametrize(
    "text, why",
    [
        ("[1, 2]", "it holds no JSON object"),
        ('["a"]', "it holds no JSON object"),
        ('"a folder"', "it holds no JSON object"),
        ('{"data_folder": 5}', 'its "data_folder" is not text'),
        ('{"data_folder": ["a"]}', 'its "data_folder" is not text'),
        ('{"model_path": 7}', 'its "model_path" is not text'),
        ('{"context_tokens": "big"}', 'its "context_tokens" is not a whole number'),
        ('{"context_tokens": 4096.0}', 'its "context_tokens" is not a whole number'),
        ('{"gpu_layers": true}', 'its "gpu_layers" is not a whole number'),  # a bool is an int to Python
        # A key this version does not know is left alone (an older or a newer Anima wrote it); one it knows is checked.
        ('{"from_a_newer_anima": [1, {}], "gpu_layers": "all"}', 'its "gpu_layers" is not a whole number'),
        ('{"endpoint_uses_key": 1}', 'its "endpoint_uses_key" is not true or false'),
        ('{"data_folder": "/x\\u0000y"}', 'its "data_folder" holds a NUL character'),
        ("[" * 100_000 + "]" * 100_000, "it is nested thousands deep"),  # RecursionError
    ],
)
def test_settings_of_the_wrong_shape_are_one_clear_line_naming_the_file_and_the_field(capsys, text, why):
    """QA: each was a traceback, at load (AttributeError), when the folder was opened or the model read (TypeError,
    ValueError: embedded null byte), or in validate (TypeError)."""
    from anima.errors import KnownError
    from anima.settings import Settings

    path = Settings.path()
    path.write_text(text, encoding="utf-8")
    with pytest.raises(KnownError) as refused:
        Settings.load()
    assert str(refused.value) == f"The settings file {path} is damaged ({why}); fix or delete it."
    assert said_by_check(capsys) == f"anima: {refused.value}"
    assert path.read_text(encoding="utf-8") == text  # left as it was, for the person to fix


@pytest.mark.slow  # runs `python -m anima`
def test_export_json_holds_every_kind_readable_and_says_it_is_not_encrypted(anima_home, tmp_path):
    with Home(anima_home).create(PASSPHRASE) as soul:
        fill(soul)
    out = tmp_path / "all.json"
    r = anima("export", "--json", str(out), env={"ANIMA_PASSPHRASE": PASSPHRASE})
    assert r.returncode == 0, r.stderr
    assert "NOT encrypted" in r.stderr
    import json

    data = json.loads(out.read_text(encoding="utf-8"))
    for key in (
        "messages",
        "memories",
        "world_cards",
        "episodes",
        "parts",
        "predictions",
        "growth_log",
        "behavioral_rules",
        "emotional_signals",
        "self_model",
        "blocks",
        "edit_history",
    ):
        assert isinstance(data[key], list), key
    assert data["memories"][0]["content"] == "CANARY-memory"
    assert isinstance(data["parts"][0]["data"], dict)  # JSON is written as JSON, not as a string


@pytest.mark.slow  # opens the companion on the real embedder
def test_forget_from_the_command_line_says_what_went(anima_home, tmp_path):
    with Home(anima_home).create(PASSPHRASE) as soul:
        for text in ("Lunch with Bea today", "Bea's dog is called Rex", "The weather is grey"):
            soul.add("message", "user", session="s", role="user", content=text, created_at="2026-11-30")
        memory = soul.add(
            "memory",
            "ai",
            kind="fact",
            content="Likes grey weather",
            source="user_stated",
            valid_from="2026-11-30",
            created_at="2026-11-30",
        )
    env = {"ANIMA_PASSPHRASE": PASSPHRASE}
    r = anima("forget", "--person", "Bea", env=env)
    assert r.returncode == 0, r.stderr
    assert "Forgot 2 messages" in r.stdout
    r = anima("forget", "memory", str(memory), env=env)
    assert r.returncode == 0 and "Forgot 1 memory." in r.stdout, r.stderr
    r = anima("forget", "memory", str(memory), env=env)
    assert r.returncode == 2 and "no memory" in r.stderr.lower()
    r = anima("forget", "thought", "1", env=env)
    assert r.returncode == 2 and "kinds are" in r.stderr
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        assert [m["content"] for m in soul.query("SELECT content FROM messages")] == ["The weather is grey"]


def test_an_os_error_is_a_mistake_only_about_a_path_the_person_gave(tmp_path, monkeypatch, capsys):
    import errno

    from anima import cli

    given = tmp_path / "out" / "all.json"

    def fails_on(path):
        def run(args):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))

        return run

    monkeypatch.setattr(cli, "cmd_export", fails_on(given.with_name("all.json.partial")))
    assert cli.main(["export", "--json", str(given)]) == 2  # theirs: one line
    assert capsys.readouterr().err.count("\n") == 1
    monkeypatch.setattr(cli, "cmd_export", fails_on("/usr/lib/something-of-ours"))
    with pytest.raises(PermissionError):  # not theirs: a bug, with its traceback
        cli.main(["export", "--json", str(given)])


@pytest.mark.slow  # runs `python -m anima`
def test_parts_from_the_command_line(anima_home, tmp_path):
    import json

    from anima.parts.parts import Parts

    Home(anima_home).create(PASSPHRASE).close()
    env = {"ANIMA_PASSPHRASE": PASSPHRASE}
    pack = ROOT / "anima" / "resources" / "packs" / "personal-assistant.json"
    r = anima("parts", "install-pack", str(pack), env=env)
    assert r.returncode == 0 and "5 parts" in r.stdout, r.stderr
    r = anima("parts", "list", "--json", env=env)
    assert r.returncode == 0, r.stderr
    listed = json.loads(r.stdout)
    assert [set(p) for p in listed] == [{"id", "name", "status"}] * 5
    assert listed[0] == {"id": 1, "name": "User Preferences", "status": "active"}
    r = anima("parts", "show", "3", "--json", env=env)
    shown = json.loads(r.stdout)
    assert shown["name"] == "Things that annoy them" and shown["status"] == "active" and shown["id"] == 3
    assert {"created_at", "updated_at", "lineage", "triggers", "suggestions_and_results"} <= set(shown)
    # A good patch, as the person (core parts too).
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            [
                {"op": "replace", "path": "/intensity", "value": "High"},
                {"op": "replace", "path": "/core_part", "value": False},
            ]
        ),
        encoding="utf-8",
    )
    r = anima("parts", "patch", "1", str(good), env=env)
    assert r.returncode == 0 and "Patched part #1" in r.stdout, r.stderr
    # A rejected patch: exit 2, one line, nothing changed.
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        before = soul.query("SELECT * FROM parts ORDER BY id"), soul.history("part")
    for bad in (
        [{"op": "replace", "path": "", "value": {}}],
        {"op": "remove", "path": "/wants"},
        [{"op": "remove", "path": "/wants"}],
    ):
        (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
        r = anima("parts", "patch", "1", str(tmp_path / "bad.json"), env=env)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("anima: Part #1 was not changed"), r.stderr
    (tmp_path / "bad.json").write_text("[{oops", encoding="utf-8")
    r = anima("parts", "patch", "1", str(tmp_path / "bad.json"), env=env)
    assert r.returncode == 2 and "not a JSON file" in r.stderr
    r = anima("parts", "patch", "99", str(good), env=env)
    assert r.returncode == 2 and "no part #99" in r.stderr
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        assert (soul.query("SELECT * FROM parts ORDER BY id"), soul.history("part")) == before
        assert Parts(soul).get(1).data["intensity"] == "High"
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        Parts(soul).set_archived(5, True, "user")
    r = anima("parts", "list", "--json", env=env)
    assert [p["id"] for p in json.loads(r.stdout)] == [1, 2, 3, 4]
    r = anima("parts", "list", "--json", "--archived", env=env)
    assert json.loads(r.stdout)[-1] == {"id": 5, "name": "What success looks like", "status": "archived"}
    # Export (the active parts), and install the export into another companion.
    out = tmp_path / "mine.json"
    r = anima("parts", "export-pack", str(out), "--name", "Mine", env=env)
    assert r.returncode == 0 and "NOT encrypted" in r.stderr, r.stderr
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["name"] == "Mine" and len(exported["parts"]) == 4
    other = tmp_path / "other"
    Home(other).create(PASSPHRASE).close()
    r = anima("parts", "install-pack", str(out), env={**env, "ANIMA_HOME": str(other)})
    assert r.returncode == 0, r.stderr
    with Home(other).unlock(PASSPHRASE) as soul:
        assert [p.data for p in Parts(soul).all()] == exported["parts"]


def test_a_mistake_that_closing_met_again_is_said_once():
    """A full disk stops an import, and closing then meets the same full disk: one sentence, not the same twice."""
    from anima.cli import _first_said
    from anima.errors import DiskFull

    def closing(said: str) -> None:  # raises while the first mistake is handled: chained to it implicitly
        raise DiskFull(said)

    said = "The disk is full: nothing was imported. Free some space and try again."
    try:
        try:
            raise DiskFull(said)
        except DiskFull:
            closing(said)
    except DiskFull as e:
        assert _first_said(e) == said
    try:
        try:
            raise DiskFull("The disk is full: nothing of this change was saved.")
        except DiskFull:
            closing("The disk is full: the WAL stays.")
    except DiskFull as e:
        assert _first_said(e) == (
            "The disk is full: nothing of this change was saved. Closing then failed too: "
            "The disk is full: the WAL stays."
        )
    # As closing raises it: translated "from" SQLite's error, which met the full disk while the turn's mistake
    # was handled. Only closing's sentence was said, "everything already saved is kept", of a reply not saved.
    import sqlite3

    try:
        try:
            raise DiskFull("The disk is full: nothing of this change was saved.")
        except DiskFull:
            try:
                raise sqlite3.OperationalError("database or disk is full")
            except sqlite3.OperationalError as low:
                raise DiskFull("The disk is full: the WAL stays.") from low
    except DiskFull as e:
        assert _first_said(e) == (
            "The disk is full: nothing of this change was saved. Closing then failed too: "
            "The disk is full: the WAL stays."
        )


def test_a_mistake_raised_from_none_in_place_of_another_is_said_once(tmp_path, capsys, monkeypatch):
    """A lorebook refused: the card module says it again in its own words, 'from None'; one sentence, not two."""
    from anima import cli
    from tests.conftest import PASSPHRASE

    (tmp_path / "e.json").write_text('{"entries": null}')
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("ANIMA_NAME", "Anima")
    home = tmp_path / "home"
    from anima.store import Home

    Home(home).create(PASSPHRASE).close()
    assert cli.main(["--home", str(home), "import-lorebook", str(tmp_path / "e.json")]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "Closing then failed too" not in line and line.count("not a lorebook") == 1, line


class _LeftOpen:
    """The test's companion as `open_companion` gives it, left open when the command closes it."""

    def __init__(self, companion):
        self.companion = companion

    def __getattr__(self, name):
        return getattr(self.companion, name)

    def close(self):
        pass


@pytest.fixture
def parts_cli(companion, monkeypatch, capsys):
    """`python -m anima parts ...` in this process, on a companion with the personal assistant's parts:
    -> run(*args) -> (exit status, stdout, stderr)."""
    from anima import cli
    from anima.parts import packs

    companion.packs.install(packs.read(ROOT / "anima" / "resources" / "packs" / "personal-assistant.json"))
    monkeypatch.setattr(cli, "open_companion", lambda args, **_: _LeftOpen(companion))

    def run(*args):
        status = cli.main(["parts", *args])
        out = capsys.readouterr()
        return status, out.out, out.err

    return run


def test_a_patch_or_a_pack_that_json_cannot_keep_is_refused_in_one_line_and_nothing_changes(
    companion, parts_cli, tmp_path
):
    c = companion
    before = [p.data for p in c.parts.all(None)], c.soul.history("part")
    given = tmp_path / "given.json"
    for text, says in (
        ('[{"op": "replace", "path": "/intensity", "value": ' + "9" * 5000 + "}]", "a number too long to read"),
        ("[" * 100_000 + "]" * 100_000, "nests more than 64 levels deep"),
        ('[{"op": "replace", "path": "/name", "value": "\\ud800x"}]', "half of a surrogate pair"),
        ('[{"op": "replace", "path": "/name", "value": "Bad\\u0000name\\u001b[31m"}]', "control or invisible"),
        ('[{"op": "replace", "path": "/name", "value": "\\u200b\\u200b"}]', "its name is blank"),
    ):
        given.write_text(text, encoding="utf-8")
        status, out, err = parts_cli("patch", "3", str(given))
        assert (status, out, err.count("\n")) == (2, "", 1) and says in err and "part #3 was not changed" in err.lower()
    pack = json.loads((ROOT / "anima" / "resources" / "packs" / "personal-assistant.json").read_text("utf-8"))
    for name, says in (
        ("Helper\x1b]0;pwned\x07\x1b[2J", "its name holds a control or invisible character (U+001B)"),
        ("Helper\udc00", "half of a surrogate pair"),
    ):
        given.write_text(json.dumps({**pack, "parts": [{**pack["parts"][0], "name": name}]}), encoding="utf-8")
        status, out, err = parts_cli("install-pack", str(given))
        assert (status, out, err.count("\n")) == (2, "", 1) and says in err and "nothing was installed" in err
    assert ([p.data for p in c.parts.all(None)], c.soul.history("part")) == before


def test_a_patch_pack_or_profile_that_is_not_a_small_file_is_refused_unread(companion, parts_cli, tmp_path):
    """A FIFO hung the command until it was killed, and /dev/zero grew it to 16 GB in 15 s: read_text() read
    whatever it was given. Each is one line and exit 2 now, read no further than the size a file of parts can have."""
    import os

    from anima.parts import packs

    c = companion
    before = [p.data for p in c.parts.all(None)], c.soul.history("part"), c.affect.profile()
    fifo, big = tmp_path / "fifo.json", tmp_path / "big.json"
    os.mkfifo(fifo)
    with open(big, "wb") as f:
        f.truncate(packs.JSON_FILE_MOST + 1)
    for given, says in (
        (fifo, "is a device or a pipe, not a file"),
        ("/dev/zero", "is a device or a pipe, not a file"),
        (tmp_path, "is a folder, not a file"),
        (big, "larger than 4 MiB"),
        (tmp_path / "none.json", "No such file"),
    ):
        for args, unchanged in (
            (("patch", "3", str(given)), "part #3 was not changed"),
            (("install-pack", str(given)), "nothing was installed"),
            (("affect", "--set", str(given)), "the affect profile was not changed"),
        ):
            status, out, err = parts_cli(*args)
            assert (status, out, err.count("\n")) == (2, "", 1), (args, err)
            assert says in err and unchanged in err, (args, err)
    assert ([p.data for p in c.parts.all(None)], c.soul.history("part"), c.affect.profile()) == before


def test_parts_are_listed_with_control_characters_shown_not_obeyed(companion, parts_cli):
    c = companion  # a part stored before the rules refused such a name
    data = {**c.parts.get(3).data, "name": "Helper\x1b]0;pwned\x07\x1b[2J"}
    c.soul.update("part", 3, "user", name=data["name"], data=json.dumps(data))
    status, out, _ = parts_cli("list")
    assert status == 0 and "#3 [active] Helper\\x1b]0;pwned\\x07\\x1b[2J\n" in out and "\x1b" not in out
    status, out, _ = parts_cli("show", "3")
    assert status == 0 and "name: Helper\\x1b]0;pwned" in out and "\x1b" not in out


def test_listing_parts_or_proposals_never_loads_the_vectors(anima_home, monkeypatch, capsys):
    """Rows only: on a soul of 100,000 messages, loading the embedder and every vector took 7 s and 930 MB to
    print "No parts yet."; a command that recalls nothing starts neither."""
    from anima import cli, cli_open
    from anima.models import embedder
    from anima.models.fake import FakeChatModel, FakeEmbedder
    from anima.retrieval.indexer import Indexer

    Home(anima_home).create(PASSPHRASE).close()
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setattr(cli_open, "chosen_chat_model", lambda args: FakeChatModel())
    monkeypatch.setattr(embedder, "MiniLMEmbedder", FakeEmbedder)
    started = []
    real_start = Indexer.start
    monkeypatch.setattr(Indexer, "start", lambda self, **kw: started.append(1) or real_start(self, **kw))
    for args, says in (
        (["parts", "list"], "No parts yet."),
        (["parts", "predictions"], "No predictions yet."),
        (["proposals"], "No proposed changes wait for you."),
    ):
        assert cli.main(args) == 0
        assert says in capsys.readouterr().out
    assert started == []
    assert cli.main(["recall", "anything"]) == 0  # recall does load them
    assert started == [1]


def test_a_forget_done_before_closing_met_a_full_disk_is_said_done(companion, monkeypatch, capsys):
    """The forget committed; the checkpoint at close then met a full disk. The person reads that it was forgotten
    (told only 'try again', they would think it was not), then what closing met."""
    from anima import cli
    from anima.errors import DiskFull

    companion.soul.add("message", "user", session="s", role="user", content="Lunch with Bea", created_at="2026")

    class ClosingOnAFullDisk(_LeftOpen):
        def close(self):
            raise DiskFull("The disk is full: everything already saved is kept.")

    monkeypatch.setattr(cli, "open_companion", lambda args, **_: ClosingOnAFullDisk(companion))
    assert cli.main(["forget", "--person", "Bea"]) == 2
    out = capsys.readouterr()
    assert out.out == "Forgot 1 message.\n" and out.err.count("\n") == 1 and "disk is full" in out.err
    assert not companion.soul.query("SELECT 1 FROM messages")


def test_a_forget_that_takes_a_while_says_so_while_it_runs(companion, monkeypatch, capsys):
    """A forget rewrites the whole file: ~16 s for a soul of 100,000 messages (bench scale), with nothing said.
    One still going after a moment says what takes the time, on stderr; a quick one says nothing of it."""

    from anima import cli
    from anima.store.forget import UNDER_WAY

    for text in ("Lunch with Bea", "Dinner with Bea"):
        companion.soul.add("message", "user", session="s", role="user", content=text, created_at="2026")
    monkeypatch.setattr(cli, "open_companion", lambda args, **_: _LeftOpen(companion))
    from anima.store import forget as forgetting

    monkeypatch.setattr(forgetting, "UNDER_WAY_AFTER_S", 5.0)  # far longer than a forget of two messages takes
    assert cli.main(["forget", "message", "1"]) == 0
    assert capsys.readouterr() == ("Forgot 1 message.\n", "")
    monkeypatch.setattr(forgetting, "UNDER_WAY_AFTER_S", 0.2)
    forget, said = companion.forget, []

    def slow_forget(*args):  # still going when the moment has passed: it ends once that has been said
        until(lambda: said.append(capsys.readouterr().err) or UNDER_WAY in "".join(said), what="the notice")
        return forget(*args)

    monkeypatch.setattr(companion, "forget", slow_forget)
    assert cli.main(["forget", "message", "2"]) == 0
    out = capsys.readouterr()
    assert out.out == "Forgot 1 message.\n" and "".join(said) + out.err == UNDER_WAY + "\n"


def test_plain_exports_are_readable_by_their_owner_only(companion, parts_cli, tmp_path):
    """A card (PNG or JSON), its lorebook and a parts pack are not encrypted: like `export --json`, they are
    written 0600, not 0644 (readable by anyone on the machine, found by a helper's QA), and whole."""
    import stat

    companion.world.create("person", "Bea", "Ada's sister.", ["sister"])
    card, book, pack = tmp_path / "card.png", tmp_path / "book.json", tmp_path / "pack.json"
    companion.characters.write(card, book)
    assert parts_cli("export-pack", str(pack))[0] == 0
    for path in (card, book, pack):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith((".new", ".partial"))) == []


@pytest.mark.slow  # runs `python -m anima`
def test_no_passphrase_to_ask_for_is_one_mistake_not_two(anima_home):
    """QA: `anima check` with no ANIMA_PASSPHRASE and no terminal said "This companion is locked… Closing then
    failed too: No passphrase…": asking was taken for a second failure, at closing."""
    Home(anima_home).create(PASSPHRASE).close()
    env = {k: v for k, v in os.environ.items() if k != "ANIMA_PASSPHRASE"}
    r = subprocess.run(
        [sys.executable, "-m", "anima", "check"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 2
    assert r.stderr.strip() == "anima: No passphrase: set ANIMA_PASSPHRASE or run from a terminal."


def _exports(anima_home, monkeypatch) -> str:
    """A home with one message, and the passphrases an export asks for; the message."""
    with Home(anima_home).create(PASSPHRASE) as soul:
        soul.add("message", "user", session="s", role="user", content="kept safe", created_at="2026")
    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    monkeypatch.setenv("ANIMA_EXPORT_PASSPHRASE", "an export passphrase of some length")
    return "kept safe"


def _still_there(anima_home, said: str) -> bool:
    with Home(anima_home).unlock(PASSPHRASE) as soul:
        soul.check()
        return [m["content"] for m in soul.query("SELECT content FROM messages")] == [said]


@pytest.mark.parametrize("own", ["soul.db", "soul.key", "soul.db-wal", ".soul.lock", ".", "SOUL.DB"])
def test_an_export_onto_the_companions_own_files_is_refused_and_the_soul_kept(anima_home, monkeypatch, capsys, own):
    """QA: `anima export ~/.local/share/anima/soul.db` said "Exported", and the soul was gone: its only copy was
    the core now in its place (soul.key the same; --json put the soul's text there in plain)."""
    from anima import cli

    said = _exports(anima_home, monkeypatch)
    target = str(anima_home / own)
    for args in (["export", target], ["export", "--json", target], ["export", "--markdown", target]):
        assert cli.main(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "companion's own" in err and "nothing was written" in err, (args, err)
    assert _still_there(anima_home, said)


def test_an_export_to_a_link_writes_where_it_points_and_not_onto_other_things(
    anima_home, tmp_path, monkeypatch, capsys
):
    """QA: an export to a symlink (to a backup on a USB stick) replaced the link with a local file; as root, an
    export to /dev/full replaced the device; a folder or a missing folder gave a raw error naming a temporary file."""
    from anima import cli

    said = _exports(anima_home, monkeypatch)
    (tmp_path / "usb").mkdir()
    link = tmp_path / "backup.core"
    link.symlink_to(tmp_path / "usb" / "backup.core")
    assert cli.main(["export", str(link)]) == 0
    assert link.is_symlink() and (tmp_path / "usb" / "backup.core").stat().st_size > 0
    os.mkfifo(tmp_path / "pipe")
    for target, says in (
        (tmp_path / "pipe", "a device or a pipe, not a file"),
        (tmp_path / "usb", "a folder"),
        (tmp_path / "nowhere" / "x.core", "There is no folder"),
    ):
        assert cli.main(["export", str(target)]) == 2
        err = capsys.readouterr().err
        assert says in err and ".new" not in err and err.count("\n") == 1, err
    assert not (tmp_path / "nowhere").exists() and (tmp_path / "pipe").is_fifo()
    assert _still_there(anima_home, said)


def test_a_message_another_program_kept_the_soul_busy_for_ends_that_message_not_the_conversation(
    companion, monkeypatch, capsys
):
    """QA: another program holding the soul past the busy timeout ended `anima chat` (exit 2), the conversation
    with it, where the window says so and sends the message again. The terminal says what was and was not saved,
    and goes on."""
    from anima import cli
    from anima.errors import SoulBusy

    monkeypatch.setattr(cli, "open_companion", lambda args, create_if_missing=False: companion)
    monkeypatch.setattr(companion, "close", lambda: None)  # the fixture closes it
    typed_lines(monkeypatch, ["first, while busy", "second, while busy", "third, free again"])
    busy = SoulBusy("Another program on this soul kept it busy.")
    saved_busy = SoulBusy("Another program on this soul kept it busy.")
    saved_busy.message_saved = True
    failures, turn = [busy, saved_busy], companion.turn

    def sometimes_busy(*args, **kwargs):
        if failures:
            raise failures.pop(0)
        return turn(*args, **kwargs)

    monkeypatch.setattr(companion, "turn", sometimes_busy)
    companion.chat.enqueue("Answered at last.")
    assert cli.main(["chat"]) == 0
    out, err = capsys.readouterr()
    assert "Answered at last." in out
    assert err.splitlines() == [
        "anima: Another program on this soul kept it busy. Your message was not saved: send it again.",
        "anima: Another program on this soul kept it busy. Your message was saved; the reply was not.",
    ]


def test_a_reply_another_program_kept_from_being_stored_says_the_message_was(companion, monkeypatch, capsys):
    """Review: the reply is stored at its end; a busy soul then failed the turn after it streamed, and the terminal
    said "not saved: send it again" of a message that was stored (sent again, it would be there twice), with the
    reply's line left open, so the next reply ran on from it."""
    from anima import cli
    from anima.errors import SoulBusy

    monkeypatch.setattr(cli, "open_companion", lambda args, create_if_missing=False: companion)
    monkeypatch.setattr(companion, "close", lambda: None)  # the fixture closes it
    typed_lines(monkeypatch, ["first", "second"])
    record, failures = companion.conversation.record_turn, [SoulBusy("Another program on this soul kept it busy.")]

    def busy_once(*args, **kwargs):
        if failures:
            raise failures.pop(0)
        return record(*args, **kwargs)

    monkeypatch.setattr(companion.conversation, "record_turn", busy_once)
    companion.chat.enqueue("Reply one.", "Reply two.")
    assert cli.main(["chat"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["Reply one.", "Reply two."]
    assert err.splitlines() == [
        "anima: Another program on this soul kept it busy. Your message was saved; the reply was not."
    ]
    stored = [m["content"] for m in companion.soul.query("SELECT content FROM messages ORDER BY id")]
    assert stored == ["first", "second", "Reply two."]


def test_a_file_that_cannot_be_attached_is_one_line_and_the_conversation_goes_on(
    companion, monkeypatch, capsys, tmp_path
):
    """`/file PATH` read whatever PATH named: /dev/zero until the memory ran out, a FIFO for ever; a missing file
    ended the conversation. It reads a file as the window attaches one (knowledge/messages.attached_file)."""
    import os

    from anima import cli

    monkeypatch.setattr(cli, "open_companion", lambda args, create_if_missing=False: companion)
    monkeypatch.setattr(companion, "close", lambda: None)  # the fixture closes it
    fifo, notes = tmp_path / "fifo", tmp_path / "notes.txt"
    os.mkfifo(fifo)
    notes.write_text("Bring the tent.\nAnd the stove.\n", encoding="utf-8")
    typed_lines(
        monkeypatch,
        [
            "/file /dev/zero look",
            f"/file {fifo} look",
            f"/file {tmp_path / 'none'} look",
            f"/file {notes} what do you make of it?",
        ],
    )
    companion.chat.enqueue("A camping list.")
    assert cli.main(["chat"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["A camping list."]
    said = err.splitlines()
    assert [line.split(":")[0] for line in said] == ["anima"] * 3 and all("Nothing was sent." in s for s in said)
    assert "zero is a device or a pipe, not a file" in said[0] and "fifo is a device or a pipe" in said[1]
    assert "none could not be read (No such file or directory)" in said[2]
    stored = companion.soul.query("SELECT speaker, content FROM messages ORDER BY id")
    assert [(m["speaker"], m["content"]) for m in stored] == [
        ("Ada", "what do you make of it?"),
        ("file notes.txt", "Bring the tent.\nAnd the stove."),
        ("Anima", "A camping list."),
    ]


def test_recall_shows_a_stored_escape_as_text_and_never_sends_it_to_the_terminal(companion, monkeypatch, capsys):
    """QA: a memory edited in the Open Mind to hold "\x1b[2J" and a title change (\x1b]0;…\x07) came out of
    `anima recall` raw: the terminal cleared its screen and took the title. Stored text is shown as parts are."""
    from anima import cli

    monkeypatch.setattr(cli, "open_companion", lambda args, **_: _LeftOpen(companion))
    mid = companion.memories.remember("Ada likes tea")
    # A memory can no longer be written so (knowledge/memories.py refuses it), but a soul written before may hold one.
    companion.soul.update("memory", mid, "user", content="Ada likes tea \x1b[2J\x1b]0;pwned\x07\u202eeno")
    assert cli.main(["recall", "tea"]) == 0
    out = capsys.readouterr().out
    assert "Ada likes tea \\x1b[2J\\x1b]0;pwned\\x07\\u202eeno" in out
    assert not any(c in out for c in "\x1b\x07\u202e")


def test_a_home_that_is_not_a_folder_is_one_line(tmp_path, capsys):
    """QA: --home naming a file (soul.db itself, say) ended `chat` and `import` in a FileExistsError traceback, and
    `check` said no companion lived there yet."""
    from anima import cli

    not_a_folder = tmp_path / "soul.db"
    not_a_folder.write_bytes(b"a file of the person's")
    for args in (
        ["--home", str(not_a_folder), "check"],
        ["--home", str(not_a_folder), "chat"],
        ["--home", str(not_a_folder), "import", str(tmp_path / "any.core")],
    ):
        assert cli.main(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is not a folder" in err, err
    assert not_a_folder.read_bytes() == b"a file of the person's"


def test_an_id_or_a_count_out_of_range_or_a_home_path_too_long_is_said_not_raised(
    anima_home, tmp_path, capsys, monkeypatch
):
    """QA: an id of 2**63 or more (forget, proposals, parts show, parts bids) was an OverflowError traceback where
    2**63 - 1 said there was no such item; `recall --k -1` was taken; a home path too long for the system was an
    OSError traceback (ENAMETOOLONG)."""
    from anima import cli

    monkeypatch.setenv("ANIMA_PASSPHRASE", PASSPHRASE)
    Home(anima_home).create(PASSPHRASE).close()
    before = (anima_home / "soul.db").read_bytes()
    huge = str(2**63)
    for args, says in (
        (["forget", "message", huge], "is no id"),
        (["proposals", "--accept", huge], "is no id"),
        (["parts", "show", huge], "is no id"),
        (["parts", "bids", "-3"], "is no id"),
        (["forget", "message", "7x"], "is not a whole number"),
        (["recall", "tea", "--k", "-1"], "is no id"),
        (["recall", "tea", "--k", "100001"], "more than can be shown"),
    ):
        with pytest.raises(SystemExit) as ended:
            cli.main(args)
        err = capsys.readouterr().err
        assert ended.value.code == 2 and says in err and "Traceback" not in err, (args, err)
    assert cli.main(["forget", "message", str(2**63 - 1)]) == 2  # a whole number SQLite holds: not there
    assert "Traceback" not in capsys.readouterr().err
    assert (anima_home / "soul.db").read_bytes() == before
    assert cli.main(["--home", str(tmp_path / ("x" * 300) / "home"), "check"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "File name too long" in err, err


def test_ctrl_d_at_a_passphrase_prompt_is_one_line_and_changes_nothing(anima_home, monkeypatch, capsys):
    """QA: Ctrl-D at any passphrase prompt (check, passphrase, import) ended in getpass's EOFError traceback."""
    import getpass
    import io

    from anima import cli

    Home(anima_home).create(PASSPHRASE).close()
    key = (anima_home / "soul.key").read_bytes()
    monkeypatch.setattr("sys.stdin", type("Tty", (io.StringIO,), {"isatty": lambda self: True})())

    def ended(prompt=""):
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", ended)
    for args in (["check"], ["passphrase"]):
        assert cli.main(args) == 2, args
        err = capsys.readouterr().err
        assert err == "anima: No passphrase was typed (the input ended); nothing was changed.\n", err
    assert (anima_home / "soul.key").read_bytes() == key


@pytest.mark.parametrize("errors", ["strict", "surrogateescape"])  # a UTF-8 locale's stdin, and the C locale's
def test_bytes_that_are_not_utf8_on_standard_input_are_read_as_replacement_characters(
    companion, monkeypatch, capsys, errors
):
    """Red team: invalid UTF-8 piped into `anima chat` ended it in a TypeError from the tokenizer (lone surrogates)
    and the next line was never read."""
    import io

    from anima import cli

    monkeypatch.setattr(cli, "open_companion", lambda args, create_if_missing=False: companion)
    monkeypatch.setattr(companion, "close", lambda: None)  # the fixture closes it
    piped = io.TextIOWrapper(
        io.BytesIO(b"caf\xe9 au lait, in Latin-1\nand the next line\n"), encoding="utf-8", errors=errors
    )
    monkeypatch.setattr("sys.stdin", piped)
    companion.chat.enqueue("First reply.")
    companion.chat.enqueue("Second reply.")
    assert cli.main(["chat"]) == 0
    out, _ = capsys.readouterr()
    assert "First reply." in out and "Second reply." in out
    said = [m["content"] for m in companion.messages.since(0, 10) if m["role"] == "user"]
    assert said == ["caf\ufffd au lait, in Latin-1", "and the next line"]
    assert all(s.encode("utf-8") for s in said)  # no lone surrogate: each is text a tokenizer takes


def test_an_export_onto_a_file_that_is_there_is_refused_unless_asked(anima_home, tmp_path, monkeypatch, capsys):
    """Issue 43: export overwrote an existing file without asking (a backup kept under that name was lost)."""
    from anima import cli

    said = _exports(anima_home, monkeypatch)
    for args in (["export"], ["export", "--json"]):
        backup = tmp_path / "backup"
        backup.write_bytes(b"last week's backup")
        assert cli.main([*args, str(backup)]) == 2
        err = capsys.readouterr().err
        assert "exists already: nothing was written" in err and "--overwrite" in err and err.count("\n") == 1
        assert backup.read_bytes() == b"last week's backup"
        assert cli.main(["export", "--overwrite", *args[1:], str(backup)]) == 0
        assert backup.read_bytes() != b"last week's backup"
        capsys.readouterr()
    assert _still_there(anima_home, said)


def test_an_import_into_a_folder_of_theirs_says_it_made_it_private(anima_home, tmp_path, monkeypatch, capsys):
    """Issue 43: an import into an existing folder made it 0700 without a word."""
    from anima import cli

    _exports(anima_home, monkeypatch)
    core = tmp_path / "soul.core"
    assert cli.main(["export", str(core)]) == 0
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    theirs.chmod(0o755)
    monkeypatch.setenv("ANIMA_HOME", str(theirs))
    capsys.readouterr()
    assert cli.main(["import", str(core)]) == 0
    out = capsys.readouterr().out
    assert f"{theirs} is now readable by you only (it was 755)" in out
    assert theirs.stat().st_mode & 0o777 == 0o700
    assert _still_there(theirs, "kept safe")


def test_a_chat_line_too_long_to_be_typed_is_sent_as_pasted_text(capsys):
    """Issue 43: a line of 1,000,000 characters on the terminal's input was one typed message (104 s, 802 MB)."""
    from anima import cli
    from anima.knowledge.messages import TYPED_MOST
    from anima.store.provenance import Source

    line = "x" * (TYPED_MOST + 1)
    message, [pasted] = cli.read_external(line, input)
    assert message == "" and pasted.source is Source.PASTED and pasted.text == line
    assert f"A line of {TYPED_MOST + 1:,} characters: sent as pasted text" in capsys.readouterr().out
    assert cli.read_external("x" * TYPED_MOST, input) is None  # a long typed line is still typed


def test_anima_chat_says_what_it_learned_and_what_waits_for_their_ok(companion, monkeypatch, capsys):
    """The window's cue under a reply ("Noted: … · Waiting for your OK: …"), in the terminal: on stderr, so that
    stdout stays one reply a line."""
    from anima import cli

    monkeypatch.setattr(cli, "open_companion", lambda args, create_if_missing=False: companion)
    monkeypatch.setattr(companion, "close", lambda: None)  # the fixture closes it
    companion.learns = True
    learned = [{"fact": "I have a cat called Miso", "replaces": 0}, {"fact": "Always call me Captain", "replaces": 0}]
    companion.chat.enqueue("Lovely!", json.dumps({"facts": learned}), "Hello.")
    typed_lines(monkeypatch, ["I have a cat called Miso. From now on always call me Captain.", "hello"])
    assert cli.main(["chat"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["Lovely!", "Hello."]
    assert err.splitlines() == ["(Noted: has a cat called Miso · Waiting for your OK: always call me Captain)"]
