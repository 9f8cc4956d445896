"""The one family of errors a person can cause or the environment can cause.

Anything raised that is *not* a `KnownError` is a bug: it is never swallowed,
and the command line shows its traceback and exits 1. A `KnownError` carries a
message written for people; the command line prints it on one line and exits 2,
the window shows it in a dialog.
"""


class KnownError(Exception):
    """A mistake of the user's or the environment's, with a message for people."""

    exit_status = 2


class WrongPassphrase(KnownError):
    def __init__(self, what: str = "this companion"):
        super().__init__(f"Wrong passphrase for {what}. Nothing was changed.")


class WeakPassphrase(KnownError):
    """A newly chosen passphrase that breaks the one rule for them (store/keys.py: passphrase_problem)."""


class NoCompanion(KnownError):
    pass


class CompanionExists(KnownError):
    pass


class SoulClosed(KnownError):
    """Work that reached a soul after it was closed (the window closed, the companion locked, an import replaced
    it): nothing was read or written. Background work that meets it has outlived what it was for."""

    def __init__(self):
        super().__init__("This companion was closed; nothing more was read or written in it.")


class DamagedSoul(KnownError):
    """The database (or its key file) fails its integrity checks."""


class NewerSchema(KnownError):
    pass


class BadCore(KnownError):
    """A portable core file that cannot be imported: not a core, damaged, wrong passphrase, too new."""


class DiskFull(KnownError):
    pass


class SoulBusy(KnownError):
    """Another program on the same soul held its write lock past the busy timeout: nothing of this change was
    saved, and trying again shortly is the remedy."""


class DiskError(KnownError):
    """The disk failed to read or write the soul, and it is not full (an I/O error of the device or the system)."""


class ReadOnlyRecord(KnownError):
    """An attempt to change what the store keeps append-only (the growth log)."""


class InvalidEdit(KnownError):
    """An edit that breaks a rule of the store; the old value is kept."""


class NotFound(KnownError):
    pass
