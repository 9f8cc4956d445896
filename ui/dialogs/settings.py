"""Settings: the mind (a GGUF file or an OpenAI-compatible endpoint and its API key), GPU layers, context size,
data folder.

The API key goes to the OS keychain, off the window's thread, when Save is pressed; where there is no keychain it
is kept until Anima closes and asked for again the next time. It is never written to the settings file.
"""

from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from anima.models.dialects import CHOICES, LABELS
from anima.settings import Settings
from anima.store import keychain

from .form import FormDialog


class SettingsDialog(FormDialog):
    def __init__(self, settings: Settings, parent=None):
        super().__init__("Settings", "Changes to the model take effect the next time Anima starts. "
                         "See models/README.md for which model suits which machine.", parent, "Save")
        self.settings = settings
        self.model_path = self.text("Model file (GGUF; empty = bundled)", settings.model_path)
        self.endpoint_url = self.text("Or an OpenAI-compatible server", settings.endpoint_url)
        self.endpoint_url.setPlaceholderText("http://127.0.0.1:11434/v1")
        self.endpoint_model = self.text("Model name on that server", settings.endpoint_model)
        self.dialect = QComboBox()
        for choice in CHOICES:
            self.dialect.addItem(LABELS[choice], choice)
        self.dialect.setCurrentIndex(CHOICES.index(settings.endpoint_dialect))
        self.dialect.setToolTip("How the server is asked to keep a reply to a JSON schema. Whatever it does, "
                                "every reply is still checked here and asked again when it is not valid.")
        self.form.addRow("Structured output", self.dialect)
        self.uses_key = QCheckBox("This server needs an API key")
        self.uses_key.setChecked(settings.endpoint_uses_key)
        self.form.addRow(self.uses_key)
        self.has_keychain = keychain.available()
        self.api_key = self.secret("API key")
        self.api_key.setPlaceholderText(
            ("kept in the keychain; type a new one to replace it" if self.has_keychain
             else "kept until Anima closes; asked for again next time")
            if settings.endpoint_uses_key else
            ("kept in the system keychain" if self.has_keychain
             else "no keychain here: kept until Anima closes"))
        self.api_key.setEnabled(settings.endpoint_uses_key)
        self.uses_key.toggled.connect(self.api_key.setEnabled)
        self.gpu_layers = QSpinBox()
        self.gpu_layers.setRange(-1, 999)
        self.gpu_layers.setValue(settings.gpu_layers)
        self.gpu_layers.setSpecialValueText("all")
        self.form.addRow("GPU layers", self.gpu_layers)
        self.context = QSpinBox()
        self.context.setRange(1024, 131072)
        self.context.setSingleStep(1024)
        self.context.setValue(settings.context_tokens)
        self.form.addRow("Context size (tokens)", self.context)
        self.data_folder = self.text("Data folder (empty = default)", settings.data_folder)

    def chosen(self) -> Settings:
        return Settings(model_path=self.model_path.text().strip(), endpoint_url=self.endpoint_url.text().strip(),
                        endpoint_model=self.endpoint_model.text().strip(), endpoint_dialect=self.dialect.currentData(),
                        endpoint_uses_key=self.uses_key.isChecked() and bool(self.endpoint_url.text().strip()),
                        gpu_layers=self.gpu_layers.value(), context_tokens=self.context.value(),
                        data_folder=self.data_folder.text().strip())

    def submit(self):
        new, old, key = self.chosen(), self.settings, self.api_key.text()
        if new.endpoint_uses_key and not key and not (old.endpoint_uses_key and old.endpoint_url == new.endpoint_url):
            return self.say("Enter the server's API key, or untick “This server needs an API key”.")

        def save():
            from anima.models import endpoint_key
            new.save()
            if new.endpoint_uses_key and key:
                endpoint_key.keep(new.endpoint_url, key)
            if old.endpoint_uses_key and old.endpoint_url and (
                    not new.endpoint_uses_key or old.endpoint_url != new.endpoint_url):
                endpoint_key.drop(old.endpoint_url)
            return new
        self.work(save)
