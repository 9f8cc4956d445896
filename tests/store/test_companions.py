"""Several companions in one data folder: each its own encrypted soul, passphrase and keychain entry."""

import keyring
import pytest

from anima.errors import CompanionExists, KnownError, NoCompanion, SoulInUse, WrongPassphrase
from anima.settings import Settings, choose_companion, chosen_home
from anima.store import Home, PassphraseNeeded
from anima.store.companions import FOLDER, MAIN, Companions, check_name
from tests.conftest import PASSPHRASE
from tests.store.test_keychain import MemoryKeyring

OTHER = "another passphrase, for Bea alone"


def make(companions: Companions, name: str, passphrase: str, **kw) -> Home:
    home = companions.new_home(name)
    home.create(passphrase, name=name, **kw).close()
    return home


def test_the_first_companion_stays_where_it_was_and_opens_as_before(anima_home):
    Home(anima_home).create(PASSPHRASE, name="Old").close()
    before = sorted(p.name for p in anima_home.iterdir())
    companions = Companions(anima_home)
    make(companions, "Bea", OTHER)
    listed = companions.list()
    assert [c.name for c in listed] == [MAIN, "Bea"]
    assert listed[0].home.dir == anima_home  # not moved
    assert sorted(p.name for p in anima_home.iterdir()) == sorted([*before, FOLDER])
    # The default, with nothing chosen, is the first one: the same folder every command opened before.
    assert chosen_home(None) is None
    with Home(chosen_home(None)).unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Old"


def test_two_companions_each_open_with_their_own_passphrase_only(anima_home):
    companions = Companions(anima_home)
    ada, bea = make(companions, "Ada", PASSPHRASE), make(companions, "Bea", OTHER)
    assert ada.dir == anima_home / FOLDER / "Ada"
    with ada.unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Ada"
    with bea.unlock(OTHER) as soul:
        assert soul.get_meta("name") == "Bea"
    with pytest.raises(WrongPassphrase):
        ada.unlock(OTHER)
    with pytest.raises(WrongPassphrase):
        bea.unlock(PASSPHRASE)
    assert ada.keyfile().companion_id != bea.keyfile().companion_id


def test_the_keychain_keeps_one_entry_per_companion(anima_home):
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    companions = Companions(anima_home)
    Home(anima_home).create(PASSPHRASE, name="First", remember=True).close()
    bea = make(companions, "Bea", OTHER, remember=True)
    ada = make(companions, "Ada", PASSPHRASE)  # not remembered
    assert len(backend.secrets) == 2
    with Home(anima_home).unlock() as first, bea.unlock() as second:  # each from its own entry
        assert (first.get_meta("name"), second.get_meta("name")) == ("First", "Bea")
    with pytest.raises(PassphraseNeeded):
        ada.unlock()
    companions.remove("Bea", OTHER)
    assert len(backend.secrets) == 1  # Bea's entry went with her; the first one's stays
    Home(anima_home).unlock().close()


def test_removing_one_deletes_it_for_good_and_leaves_the_other(anima_home):
    companions = Companions(anima_home)
    ada, bea = make(companions, "Ada", PASSPHRASE), make(companions, "Bea", OTHER)
    with pytest.raises(WrongPassphrase):
        companions.remove("Bea", PASSPHRASE)  # Ada's passphrase does not delete Bea
    assert bea.exists()
    removed = companions.remove("bea", OTHER)  # any case finds her folder
    assert removed.name == "Bea"
    assert not bea.dir.exists()
    assert [c.name for c in companions.list()] == ["Ada"]
    with ada.unlock(PASSPHRASE) as soul:
        assert soul.get_meta("name") == "Ada"
    with pytest.raises(NoCompanion, match="Ada"):
        companions.remove("Bea", OTHER)


def test_removing_the_first_keeps_the_others_and_the_persons_files(anima_home):
    Home(anima_home).create(PASSPHRASE).close()
    companions = Companions(anima_home)
    bea = make(companions, "Bea", OTHER)
    (anima_home / "notes.txt").write_text("mine")
    companions.remove(MAIN, PASSPHRASE)
    assert not Home(anima_home).exists() and not Home(anima_home).key_path.exists()
    assert (anima_home / "notes.txt").read_text() == "mine"
    assert [c.name for c in companions.list()] == ["Bea"]
    assert chosen_home(None) == str(bea.dir)  # the one left opens, not a first run in the empty data folder
    bea.unlock(OTHER).close()


def test_an_open_companion_is_not_removed(anima_home):
    companions = Companions(anima_home)
    bea = make(companions, "Bea", OTHER)
    with bea.unlock(OTHER):
        with pytest.raises(SoulInUse):
            companions.remove("Bea", OTHER)
    assert bea.exists()


def test_a_name_is_one_folder_never_a_path(anima_home):
    companions = Companions(anima_home)
    for bad in ("../escape", "a/b", ".hidden", "", "main", "MAIN", "x" * 65):
        with pytest.raises(KnownError):
            companions.new_home(bad)
    assert check_name("  Émilie 2 ") == "Émilie 2"
    make(companions, "Bea", OTHER)
    with pytest.raises(CompanionExists):
        companions.new_home("BEA")


def test_a_free_name_for_a_card_never_takes_an_existing_companion(anima_home):
    companions = Companions(anima_home)
    make(companions, "Seraphina", OTHER)
    assert companions.free_name("Seraphina") == "Seraphina 2"
    assert companions.free_name("../../etc/passwd") == "etc passwd"
    assert companions.free_name("main") == "Companion"
    assert companions.free_name("///") == "Companion"


def test_the_default_companion_is_chosen_in_the_settings(anima_home):
    Home(anima_home).create(PASSPHRASE).close()
    companions = Companions(anima_home)
    bea = make(companions, "Bea", OTHER)
    choose_companion("Bea")
    assert Settings.load().companion == "Bea"
    assert chosen_home(None) == str(bea.dir)
    assert chosen_home(None, MAIN) == str(anima_home)  # named for this command: it wins
    choose_companion(MAIN)
    assert Settings.load().companion == "" and chosen_home(None) is None


def test_a_default_removed_by_hand_opens_the_first_not_a_new_one(anima_home):
    import shutil

    Home(anima_home).create(PASSPHRASE).close()
    companions = Companions(anima_home)
    bea = make(companions, "Bea", OTHER)
    choose_companion("Bea")
    shutil.rmtree(bea.dir)  # the person moved the folder away
    assert companions.opening("Bea").dir == anima_home
    assert chosen_home(None) is None  # the first: the data folder, as $ANIMA_HOME names it
    assert companions.opening("").dir == anima_home
