"""The window asks the same passphrase rule as the terminal (store/keys.py), in every dialog where one is chosen."""

from anima.store import Home, keys
from tests.conftest import PASSPHRASE
from ui.dialogs.core_io import ExportDialog, ImportDialog
from ui.dialogs.unlock import ChangePassphraseDialog, FirstRunDialog


def imported(qtbot, home: Home, core, passphrase: str) -> ImportDialog:
    """The import dialog for a new home, filled in and submitted (the core's export passphrase is the tests')."""
    dialog = ImportDialog(home, replacing=False)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(core))
    dialog.export_pass.setText("export passphrase")
    dialog.passphrase.setText(passphrase)
    dialog.submit()
    return dialog


def test_first_run_refuses_a_one_letter_passphrase(qtbot, anima_home):
    home = Home(anima_home)
    dialog = FirstRunDialog(home)
    qtbot.addWidget(dialog)
    dialog.passphrase.setText("x")
    dialog.again.setText("x")
    dialog.submit()
    assert dialog.error.text() == keys.passphrase_problem("x") and not home.exists()


def test_changing_to_a_short_passphrase_is_refused(qtbot, anima_home):
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    before = home.key_path.read_bytes()
    dialog = ChangePassphraseDialog(home)
    qtbot.addWidget(dialog)
    dialog.old.setText(PASSPHRASE)
    dialog.new.setText("x")
    dialog.again.setText("x")
    dialog.submit()
    assert dialog.error.text() == "Choose a new passphrase of at least 8 characters."
    assert home.key_path.read_bytes() == before


def test_export_and_import_refuse_short_passphrases(qtbot, companion, tmp_path):
    export = ExportDialog(companion)
    qtbot.addWidget(export)
    export.path.setText(str(tmp_path / "soul.anima"))
    export.passphrase.setText("short")
    export.again.setText("short")
    export.submit()
    assert export.error.text() == "Choose an export passphrase of at least 8 characters."
    assert not (tmp_path / "soul.anima").exists()
    companion.export_core(tmp_path / "soul.anima", "export passphrase")
    elsewhere = Home(tmp_path / "elsewhere")
    dialog = imported(qtbot, elsewhere, tmp_path / "soul.anima", "x")
    assert dialog.error.text() == "Choose a passphrase for this computer of at least 8 characters."
    assert not elsewhere.exists()


def test_replacing_asks_the_existing_passphrase_which_no_rule_judges(qtbot, anima_home, tmp_path):
    """Replacing proves ownership with the passphrase the companion already has, whatever its length."""
    home = Home(anima_home)
    home.create(PASSPHRASE).close()
    dialog = ImportDialog(home, replacing=True)
    qtbot.addWidget(dialog)
    dialog.path.setText(str(tmp_path / "missing.anima"))
    dialog.export_pass.setText("export passphrase")
    dialog.passphrase.setText("x")
    dialog.submit()
    qtbot.waitUntil(lambda: bool(dialog.error.text()), timeout=30_000)
    assert "There is no file" in dialog.error.text()  # it went on to read the file


def test_the_strength_of_a_new_passphrase_shows_as_it_is_typed(qtbot, anima_home):
    dialog = FirstRunDialog(Home(anima_home))
    qtbot.addWidget(dialog)
    meter = dialog.passphrase.meter
    assert meter.text() == ""
    dialog.passphrase.setText("password1")
    assert meter.text().startswith("Strength: Very weak") and "common" in meter.text()
    dialog.passphrase.setText("tangerine lighthouse orbit")
    assert meter.text().startswith("Strength: Very strong")
    dialog.name.setText("Quillonwood")
    dialog.passphrase.setText("Quillonwood")  # its own name: the first thing a thief tries
    assert meter.estimate is not None and not meter.estimate.accepted
    dialog.again.setText("Quillonwood")
    dialog.submit()
    assert dialog.error.text().startswith("Choose a passphrase that is harder to guess.")
    assert not Home(anima_home).exists()


def test_every_dialog_that_chooses_a_passphrase_shows_its_strength(qtbot, companion, anima_home, tmp_path):
    change = ChangePassphraseDialog(Home(anima_home))
    export = ExportDialog(companion)
    new_home = ImportDialog(Home(tmp_path / "elsewhere"), replacing=False)
    replacing = ImportDialog(Home(anima_home), replacing=True)
    for dialog in (change, export, new_home, replacing):
        qtbot.addWidget(dialog)
    for field in (change.new, export.passphrase, new_home.passphrase):
        field.setText("12345678")
        assert field.meter.text().startswith("Strength: Very weak")
    assert not hasattr(replacing.passphrase, "meter")  # an existing passphrase is not judged


def test_every_dialog_weighs_a_new_passphrase_against_the_names_as_the_first_run_does(qtbot, companion, tmp_path):
    """'Lisbonanima' is weak for a companion named Anima (a thief tries its name first): refused on export, on a
    passphrase change, and on an import into a new home, where the names are inside the core."""
    weak = "Lisbonanima"
    assert keys.passphrase_problem(weak) is None and keys.passphrase_problem(weak, known=("Anima",))
    export = ExportDialog(companion, known=(companion.name, companion.user_name))  # as the window reads them
    qtbot.addWidget(export)
    export.path.setText(str(tmp_path / "soul.anima"))
    export.passphrase.setText(weak)
    export.again.setText(weak)
    assert not export.passphrase.meter.estimate.accepted
    export.submit()
    assert export.error.text().startswith("Choose an export passphrase that is harder to guess.")
    assert not (tmp_path / "soul.anima").exists()

    change = ChangePassphraseDialog(companion.home, known=(companion.name, companion.user_name))
    qtbot.addWidget(change)
    before = companion.home.key_path.read_bytes()
    change.old.setText(PASSPHRASE)
    change.new.setText(weak)
    change.again.setText(weak)
    change.submit()
    assert change.error.text().startswith("Choose a new passphrase that is harder to guess.")
    assert companion.home.key_path.read_bytes() == before

    companion.export_core(tmp_path / "soul.anima", "export passphrase")
    elsewhere = Home(tmp_path / "elsewhere")
    dialog = imported(qtbot, elsewhere, tmp_path / "soul.anima", weak)
    qtbot.waitUntil(lambda: bool(dialog.error.text()), timeout=30_000)
    assert dialog.error.text().startswith("Choose a passphrase for this computer that is harder to guess.")
    assert not elsewhere.exists()


def test_the_window_reads_the_names_off_the_ui_thread_for_a_new_passphrase(qtbot, window, monkeypatch):
    """A turn may hold the soul for seconds: opening "Change passphrase…" or "Export soul…" and typing in them
    runs no soul query on the UI thread, yet each still weighs the names a thief would try first."""
    import threading

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from anima.store.soul import Soul

    on_ui, real = [], Soul.query

    def query(self, sql, params=()):
        if threading.current_thread() is threading.main_thread():
            on_ui.append(sql)
        return real(self, sql, params)

    monkeypatch.setattr(Soul, "query", query)
    seen = []

    def type_and_close():  # as a person would, once the dialog is open
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, (ChangePassphraseDialog, ExportDialog)):
            field = dialog.passphrase if isinstance(dialog, ExportDialog) else dialog.new
            qtbot.keyClicks(field, "Lisbonanima")
            seen.append((type(dialog).__name__, field.meter.estimate.accepted))
            dialog.reject()

    person = QTimer(interval=50)
    person.timeout.connect(type_and_close)
    person.start()
    for menu_item in (window.passphrase, window.export):
        count = len(seen)
        menu_item()
        qtbot.waitUntil(lambda count=count: len(seen) > count, timeout=10_000)
    person.stop()
    assert seen == [("ChangePassphraseDialog", False), ("ExportDialog", False)]  # "Anima" weighed: too guessable
    assert on_ui == []


def test_an_export_to_a_place_that_cannot_be_written_is_said_in_the_form_not_a_bug(qtbot, companion, monkeypatch):
    """QA: exporting to a read-only disk or into /proc showed the bug dialog (OSError, FileNotFoundError): only a
    full disk was a KnownError in files.write_pieces_atomically. The dialog says it, and stays open."""
    from PySide6.QtWidgets import QMessageBox

    bugs = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: bugs.append(a))
    export = ExportDialog(companion)
    qtbot.addWidget(export)
    export.path.setText("/proc/soul.anima")  # /proc takes no new file, whoever asks
    export.passphrase.setText("export passphrase")
    export.again.setText("export passphrase")
    export.submit()
    qtbot.waitUntil(lambda: bool(export.error.text()), timeout=30000)
    assert (
        export.error.text().startswith("/proc/soul.anima cannot be written (")
        and "it was not changed" in export.error.text()
    )
    assert bugs == []
