"""The one family of errors a person can cause or the environment can cause.

Anything raised that is *not* a `KnownError` is a bug: it is never swallowed,
and the command line shows its traceback and exits 1. A `KnownError` carries a
message written for people; the command line prints it on one line and exits 2,
the window shows it in a dialog.
"""


class KnownError(Exception):
    """A mistake of the user's or the environment's, with a message for people."""

    exit_status = 2
    # Set by a turn that failed after the person's message was stored (conversation/turn.py): the window and the
    # terminal then say it was saved, and the message's ids, so it is not sent twice.
    message_saved: bool = False
    user_ids: list[int]


class WrongPassphrase(KnownError):
    def __init__(self, what: str = "this companion") -> None:
        super().__init__(f"Wrong passphrase for {what}. Nothing was changed.")


class PassphraseNotText(WrongPassphrase):
    """A passphrase holding bytes that are not text (not UTF-8: the environment or a terminal in another encoding
    gave them, and Python holds them as escapes). Anima never locks anything with one, so none unlocks anything;
    and it says so rather than blame the file it was tried on."""

    def __init__(self) -> None:
        KnownError.__init__(
            self,
            "That passphrase holds bytes that are not text (it is not valid UTF-8), so it "
            "neither locks nor unlocks anything; nothing was changed.",
        )


class WeakPassphrase(KnownError):
    """A newly chosen passphrase that breaks the one rule for them (store/keys.py: passphrase_problem)."""


class NoCompanion(KnownError):
    pass


class CompanionExists(KnownError):
    pass


class SoulClosed(KnownError):
    """Work that reached a soul after it was closed (the window closed, the companion locked, an import replaced
    it): nothing was read or written. Background work that meets it has outlived what it was for."""

    def __init__(self) -> None:
        super().__init__("This companion was closed; nothing more was read or written in it.")


class ForgottenMeanwhile(KnownError):
    """Work between turns (learning, reflection) read the soul before a forget committed, by this program or
    another: what it made of that may hold what went, so none of it is written. Not the person's to act on: the
    work is done again, from what is left, the next time it runs."""

    def __init__(self) -> None:
        super().__init__(
            "Something was forgotten while this was being worked out from what was there before: "
            "nothing of it was written."
        )


class ForgottenWhileExporting(KnownError):
    """A forget committed while the portable core was written from a snapshot taken before it: the core would have
    carried what was forgotten, so it is not written."""

    def __init__(self) -> None:
        super().__init__(
            "Something was forgotten while the export was being written, and the file would still "
            "have held it: nothing was exported. Export again."
        )


class DamagedSoul(KnownError):
    """The database (or its key file) fails its integrity checks."""


class SoulInUse(KnownError):
    """A swap of soul.db (an import over it) while another program has it open: refused, since that program would
    go on writing to the old file and its -wal would be read as the new one's (store/locks.py)."""

    def __init__(self, again: str = "import again") -> None:
        super().__init__(
            "Another program has this companion open (the window or `anima chat`): close it and "
            f"{again}; nothing was changed."
        )


class KeyFileChanged(KnownError):
    """The key file changed between reading it and writing it (another program changed the passphrase)."""

    def __init__(self) -> None:
        super().__init__(
            "Another program changed this companion's key file meanwhile (its passphrase, say): "
            "nothing was changed here; try again with the passphrase it has now."
        )


class KeyWithoutSoul(KnownError):
    """A home with a companion's key file and no soul file: the key to a soul moved away, never to be replaced."""


class NewerSchema(KnownError):
    pass


class BadCore(KnownError):
    """A portable core file that cannot be imported: not a core, damaged, wrong passphrase, too new."""


class DiskFull(KnownError):
    """The disk has no room for what was being written: said as full_disk() says it."""


def full_disk(outcome: str, holding: object = None, free: int | None = None, again: str = "try again") -> str:
    """The one wording of a full disk, wherever it is met: "The disk [holding <folder>] is full[, <n> KiB free]:
    <what that left>. Free some space and <try again>." `free`: bytes free, where they were measured."""
    where = f" holding {holding}" if holding else ""
    room = "" if free is None else f", {free // 1024} KiB free"
    return f"The disk{where} is full{room}: {outcome}. Free some space and {again}."


class SoulBusy(KnownError):
    """Another program on the same soul held its write lock past the busy timeout: nothing of this change was
    saved, and trying again shortly is the remedy."""


class DiskError(KnownError):
    """The disk failed to read or write the soul, and it is not full (an I/O error of the device or the system):
    said as failing_disk() says it."""


def failing_disk(path: object, why: object, outcome: str, doing: str = "read or write") -> str:
    """The one wording of a disk that failed (not for want of room): "The disk failed to <read or write> <path>
    (<why>): <what that left>. Check the disk, then try again." """
    return f"The disk failed to {doing} {path} ({why}): {outcome}. Check the disk, then try again."


class NoAccess(KnownError):
    """A file or folder this program cannot open or write (the soul, an export's target): a read-only disk, a
    place such as /proc, or permissions."""


class ReadOnlyRecord(KnownError):
    """An attempt to change what the store keeps append-only (the growth log)."""


class InvalidEdit(KnownError):
    """An edit that breaks a rule of the store; the old value is kept."""


class NotFound(KnownError):
    pass
