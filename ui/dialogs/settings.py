"""Settings: the mind (a model from the catalogue, a GGUF file, or an OpenAI-compatible endpoint and its API key),
GPU layers, context size, data folder.

A catalogue model is downloaded only when Download is pressed, in a thread of its own (the window never waits on
the network or the disk), into the data folder's models/; it can be cancelled, and goes on from where it stopped
the next time. A file chosen from disk is checked to be a GGUF model before it is put in the field.

The API key goes to the OS keychain, off the window's thread, when Save is pressed; where there is no keychain it
is kept until Anima closes and asked for again the next time. It is never written to the settings file.
"""

import dataclasses

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFrame,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from anima.errors import KnownError
from anima.models.catalogue import CATALOGUE, downloaded, in_use, local_path
from anima.models.dialects import CHOICES, LABELS, SPOKEN_BY
from anima.models.gpu import gpu_report
from anima.settings import THEMES, Settings
from anima.store import keychain

from .. import errors, tasks
from ..entries import Entries, head_and_tip
from .form import FormDialog
from .model_download import Download, DownloadPanel
from .reaching_out import ReachingOutGroup


class SettingsDialog(FormDialog):
    def __init__(self, settings: Settings, parent=None, catalogue=CATALOGUE):
        super().__init__(
            "Settings",
            "A change of model takes effect from the next reply, without a restart (the data folder, from the next "
            "start). See models/README.md for which model suits which machine.",
            parent,
            "Save",
        )
        self.settings = settings
        self.models = tuple(catalogue)
        self._scrolled()
        self.catalogue = QListWidget()
        self.catalogue.addItems([self._described(m) for m in self.models])
        self.catalogue.setCurrentRow(0)
        self.catalogue.setWordWrap(True)
        self.catalogue.setItemDelegate(Entries(self.catalogue))
        self.heading("The model")
        self.form.addRow(
            QLabel(
                "A better mind: these run on a laptop. Nothing is downloaded until you press Download.", wordWrap=True
            )
        )
        self.form.addRow(self.catalogue)
        self.download = DownloadPanel(
            "Download", "{name} is downloaded and checked. Save to use it from the next reply.", self.status
        )
        self.choose_button = QPushButton("Use a GGUF file I have…")
        self.download.row.addWidget(self.choose_button)
        self.form.addRow(self.download)
        # What the tests and the rest of the dialog reach: the panel's own.
        self.download_button, self.cancel_button = self.download.download_button, self.download.cancel_button
        self.download_progress, self.download_status = self.download.progress, self.download.status
        self.download_button.clicked.connect(self.start_download)
        self.download.downloaded.connect(self._downloaded)
        self.choose_button.clicked.connect(self.choose_file)
        self.model_path = self.text("Model file (GGUF; empty = bundled)", settings.model_path)
        self.heading("A model server instead")
        self.endpoint_url = self.text("Address (OpenAI-compatible)", settings.endpoint_url)
        self.endpoint_url.setPlaceholderText("http://127.0.0.1:11434/v1")
        self.endpoint_model = self.text("Model name on that server", settings.endpoint_model)
        self.dialect = QComboBox()
        for choice in CHOICES:
            self.dialect.addItem(LABELS[choice], choice)
            self.dialect.setItemData(self.dialect.count() - 1, SPOKEN_BY[choice], Qt.ItemDataRole.ToolTipRole)
        # Listed as the catalogues are: the name, and under it where it is spoken (the long labels were cut in the
        # closed box at 900 px: "Find out (try each, remember the first that").
        self.dialect.setItemDelegate(Entries(self.dialect, html=head_and_tip))
        # A hand-edited settings file may name none of them: shown as auto, and Save writes a valid one.
        self.dialect.setCurrentIndex(max(0, self.dialect.findData(settings.endpoint_dialect)))
        self.dialect.setToolTip(
            "How the server is asked to keep a reply to a JSON schema. Whatever it does, "
            "every reply is still checked here and asked again when it is not valid."
        )
        self.form.addRow("Structured output", self.dialect)
        self.uses_key = QCheckBox("This server needs an API key")
        self.uses_key.setChecked(settings.endpoint_uses_key)
        self.form.addRow(self.uses_key)
        self.has_keychain = keychain.available()
        self.api_key = self.secret("API key")
        self.api_key.setPlaceholderText(
            (
                "kept in the keychain; type a new one to replace it"
                if self.has_keychain
                else "kept until Anima closes; asked for again next time"
            )
            if settings.endpoint_uses_key
            else ("kept in the system keychain" if self.has_keychain else "no keychain here: kept until Anima closes")
        )
        self.api_key.setEnabled(settings.endpoint_uses_key)
        self.uses_key.toggled.connect(self.api_key.setEnabled)
        self.heading("On this computer")
        self.gpu_layers = QSpinBox()
        self.gpu_layers.setRange(-1, 999)
        self.gpu_layers.setValue(settings.gpu_layers)
        self.gpu_layers.setSpecialValueText("all")
        self.form.addRow("GPU layers", self.gpu_layers)
        # What this llama.cpp build does with them (anima/models/gpu.py), asked off the UI thread: it may load
        # llama.cpp.
        self.gpu = QLabel("")
        self.gpu.setWordWrap(True)
        self.form.addRow("", self.gpu)
        companion = getattr(parent, "companion", None)  # the window's, once one is shown: its model's report

        def show_gpu(said: str) -> None:
            if shiboken6.isValid(self.gpu):
                self.gpu.setText(said)

        tasks.run(lambda: companion.gpu_report() if companion is not None else gpu_report(), show_gpu)
        self.context = QSpinBox()
        self.context.setRange(1024, 131072)
        self.context.setSingleStep(1024)
        self.context.setValue(settings.context_tokens)
        self.form.addRow("Context size (tokens)", self.context)
        self.data_folder = self.text("Data folder (empty = default)", settings.data_folder)
        self.heading("Look")
        self.theme = QComboBox()  # applied when saved, at once
        for choice in THEMES:
            self.theme.addItem("Like the system" if choice == "system" else choice.capitalize(), choice)
        self.theme.setCurrentIndex(max(0, self.theme.findData(settings.theme)))
        self.form.addRow("Theme", self.theme)
        self.reaching_out = ReachingOutGroup(settings)
        self.form.addRow(self.reaching_out)
        self.first_field = self.catalogue  # it opens on the models to choose from, first in the form
        folder = settings.data_folder
        tasks.run(
            lambda: [downloaded(m, folder) for m in self.models],
            tasks.while_open(self, self._mark_downloaded),
            parent=self,
        )

    def _scrolled(self) -> None:
        """The form in a scroll area, the dialog no taller than the screen: its fields (the catalogue, the model,
        the look, reaching out) were 850 px tall, past a 600 px screen, Save out of reach."""
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.removeItem(self.form)
        body = QWidget()
        body.setLayout(self.form)
        # As wide as the scroll area, never wider (its catalogue's lines wrap): a form scrolls down, not across.
        body.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        layout.insertWidget(1, scroll, 1)
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        self.resize(640, min(780, screen.height() - 40) if screen is not None else 780)

    # ---- the catalogue ----------------------------------------------------------

    def _described(self, model, on_disk: bool = False) -> str:
        """A catalogue line, marked when it is on disk and when it is the model in use (the saved settings')."""
        used = not self.settings.endpoint_url and in_use(model, self.settings.model_path, self.settings.data_folder)
        marks = (["downloaded"] if on_disk else []) + (["in use"] if used else [])
        head, _, body = model.describe().partition(": ")
        return head + (f" ({', '.join(marks)})" if marks else "") + "\n" + body

    def _mark_downloaded(self, on_disk: list[bool]) -> None:
        for i, yes in enumerate(on_disk):
            if yes:
                self.catalogue.item(i).setText(self._described(self.models[i], True))

    @property
    def downloading(self) -> Download | None:
        return self.download.downloading

    def start_download(self) -> None:
        row = self.catalogue.currentRow()
        if row < 0 or self.downloading is not None:
            return
        model = self.models[row]
        self.download.start(model, local_path(model, self.data_folder.text().strip()))

    def cancel_download(self) -> None:
        self.download.cancel()

    def _downloaded(self, path) -> None:
        self.model_path.setText(str(path))
        self.endpoint_url.clear()  # the model chosen is this file, not a server
        self._mark_downloaded([m.file == path.name for m in self.models])

    def status(self, text: str, error: bool = False) -> None:
        """What the download or the file chosen came to, under the catalogue; a failure in the error colour."""
        self.download_status.setText(text)
        self.download_status.setStyleSheet(f"color: {errors.colour(self)};" if error else "")
        self.fit()

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "A GGUF model file", "", "GGUF models (*.gguf);;All files (*)")
        if path:
            self.use_file(path)

    def use_file(self, path: str) -> None:
        """Put a model file in the field once it has been read to be a GGUF model (off this thread)."""
        from anima.models.gguf import read_header

        def checked(_header):
            self.model_path.setText(path)
            self.endpoint_url.clear()
            self.status("Save to use this model from the next reply.")

        def failed(error):
            if not isinstance(error, KnownError):
                raise error
            self.status(str(error), error=True)

        tasks.run(lambda: read_header(path), tasks.while_open(self, checked), tasks.while_open(self, failed), self)

    def done(self, result) -> None:
        self.cancel_download()  # closing the dialog stops a download; what came is kept for the next time
        super().done(result)

    # ---- saving -------------------------------------------------------------------

    def chosen(self) -> Settings:
        # What this dialog does not show (the window's size and place) stays as it was.
        return dataclasses.replace(
            self.settings,
            model_path=self.model_path.text().strip(),
            endpoint_url=self.endpoint_url.text().strip(),
            endpoint_model=self.endpoint_model.text().strip(),
            endpoint_dialect=self.dialect.currentData(),
            endpoint_uses_key=self.uses_key.isChecked() and bool(self.endpoint_url.text().strip()),
            gpu_layers=self.gpu_layers.value(),
            context_tokens=self.context.value(),
            data_folder=self.data_folder.text().strip(),
            theme=self.theme.currentData(),
            **self.reaching_out.chosen(),
            # The companion opened by default is one of this data folder's: another folder opens its first one.
            companion=self.settings.companion if self.data_folder.text().strip() == self.settings.data_folder else "",
        )

    def submit(self):
        new, old, key = self.chosen(), self.settings, self.api_key.text()
        if new.endpoint_uses_key and not key and not (old.endpoint_uses_key and old.endpoint_url == new.endpoint_url):
            return self.say("Enter the server's API key, or untick “This server needs an API key”.")

        def save():
            from anima.models import endpoint_key

            new.save()
            if new.endpoint_uses_key and key:
                endpoint_key.keep(new.endpoint_url, key)
            if (
                old.endpoint_uses_key
                and old.endpoint_url
                and (not new.endpoint_uses_key or old.endpoint_url != new.endpoint_url)
            ):
                endpoint_key.drop(old.endpoint_url)
            return new

        self.work(save)
