from anima.store import Home, keychain
from anima.store.keys import passphrase_problem

from .form import FormDialog


class FirstRunDialog(FormDialog):
    """Create a companion: its name, a passphrase, and whether this computer may remember it."""

    def __init__(self, home: Home, parent=None):
        super().__init__(
            "Meet your companion",
            "Your companion lives only on this computer, in one encrypted "
            "file. The passphrase unlocks it; there is no way to recover it if lost.",
            parent,
            "Create",
        )
        self.home = home
        self.name = self.text("Its name", "Anima")
        self.user_name = self.text("Your name")
        self.passphrase = self.new_secret("Passphrase", known=self.known)
        self.again = self.secret("Again")
        self.first_field = self.passphrase  # the name has one already; the passphrase is what only they can give
        from PySide6.QtWidgets import QCheckBox

        self.remember = QCheckBox("Remember on this computer (in the system keychain)")
        if not keychain.available():
            self.remember.setEnabled(False)
            self.remember.setToolTip(
                "No system keychain is available here, so the passphrase will be asked for each time."
            )
            self.remember.setText(self.remember.text() + " — no keychain available here")
        self.form.addRow(self.remember)

    def known(self) -> tuple[str, ...]:
        """The names a thief who knows this companion would try first."""
        return (self.name.text().strip(), self.user_name.text().strip())

    def submit(self):
        name, passphrase = self.name.text().strip(), self.passphrase.text()
        if not name:
            return self.say("Give your companion a name.")
        if problem := passphrase_problem(passphrase, known=self.known()):
            return self.say(problem)
        if passphrase != self.again.text():
            return self.say("The two passphrases differ.")
        user, remember = self.user_name.text().strip(), self.remember.isChecked()

        def create():
            soul = self.home.create(passphrase, name=name, remember=remember)
            if user:
                soul.set_meta("user_name", user)
            return soul

        self.work(create)


class UnlockDialog(FormDialog):
    def __init__(self, home: Home, parent=None):
        super().__init__("Unlock", f"Enter the passphrase of the companion in {home.dir}.", parent, "Unlock")
        self.home = home
        self.passphrase = self.secret("Passphrase")

    def submit(self):
        passphrase = self.passphrase.text()
        if not passphrase:
            return self.say("Enter the passphrase.")
        self.work(lambda: self.home.unlock(passphrase))


class ChangePassphraseDialog(FormDialog):
    def __init__(self, home: Home, parent=None, known: tuple[str, ...] = ()):
        """`known`: the companion's name and the person's (the names a thief would try first)."""
        super().__init__("Change passphrase", "", parent, "Change")
        self.home = home
        self.known = known
        self.old = self.secret("Current passphrase")
        self.new = self.new_secret("New passphrase", known=lambda: self.known)
        self.again = self.secret("Again")

    def submit(self):
        if problem := passphrase_problem(self.new.text(), "a new passphrase", self.known):
            return self.say(problem)
        if self.new.text() != self.again.text():
            return self.say("The two new passphrases differ.")
        old, new = self.old.text(), self.new.text()
        self.work(lambda: self.home.change_passphrase(old, new))
