"""Choosing the companion's mind: shown once before the first chat, and from the menu (Anima ▸ Choose the mind…).

It says plainly that the bundled model is tiny and only keeps Anima working offline, and offers three ways to a
real one: a catalogue model that fits this machine's memory (downloaded only when the person presses Download,
with progress, cancel and resume, and checked before use), a model server already running here (Ollama, LM
Studio: found on their usual ports), or a GGUF file on disk. Whatever is chosen is saved and answers from the
next reply on, without a restart (Companion.use_model). Measuring the memory, looking for servers, reading a
file's header, downloading and switching all run off the window's thread.
"""

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from anima.errors import KnownError
from anima.models import servers
from anima.models.catalogue import CATALOGUE, CatalogueModel, downloaded, fitting, in_use, local_path
from anima.models.machine import Fit, Memory, measure
from anima.settings import Settings

from .. import tasks, theme
from ..entries import Entries
from .model_download import Download, DownloadPanel

if TYPE_CHECKING:
    from anima.companion import Companion

IN_USE = "in use"
TINY = (
    "Anima came with a tiny model (SmolLM2, 135 million parameters) so that it works offline from the first "
    "minute. It is too small to be a real companion: it loses track of what you said, and may answer as if it "
    "were you. Give it a real mind below; nothing is downloaded unless you ask."
)
_MARKS = {
    Fit.FITS: "fits this machine",
    Fit.TIGHT: "tight on this machine",
    Fit.TOO_BIG: "too big for this machine",
    Fit.UNKNOWN: "memory not measured",
}


def model_choice(settings: Settings) -> tuple[str, str, str]:
    """What the settings choose, as (model file, server, model on it): the fields a choice changes."""
    return settings.model_path, settings.endpoint_url, settings.endpoint_model


def described(model: CatalogueModel, judged: Fit, on_disk: bool, used: bool) -> str:
    marks = [_MARKS[judged]] + (["downloaded"] if on_disk else []) + ([IN_USE] if used else [])
    # The exact size where the catalogue knows it (and checks it), else a round one said to be round.
    if model.size is None:
        size = f"about {model.approx_bytes / 1e9:.1f} GB"
    else:
        size = f"{model.size / 1e9:.2f} GB" if model.size >= 100_000_000 else f"{model.size / 1e6:,.0f} MB"
    return (
        f"{model.name} ({', '.join(marks)})\n{size} to download, about {model.memory_gb:g} GB of memory; "
        f"{model.licence}. {model.summary}"
    )


class FirstModelDialog(QDialog):
    """`result_value`: the Settings saved, once a choice was made and the companion switched to it."""

    switched = Signal(object)  # the Settings now in use

    def __init__(
        self,
        settings: Settings,
        companion: "Companion | None" = None,
        parent: QWidget | None = None,
        catalogue: Sequence[CatalogueModel] = CATALOGUE,
        places: Sequence[servers.Place] | None = None,  # None: Ollama's and LM Studio's usual ports
    ):
        super().__init__(parent)
        self.setWindowTitle("Choose your companion's mind")
        self.settings, self.companion = settings, companion
        self.catalogue, self.places = tuple(catalogue), tuple(servers.PLACES if places is None else places)
        self.result_value: Settings | None = None
        self.judged: list[tuple[CatalogueModel, Fit]] = []
        self.found: list[servers.Server] = []
        self.resize(760, 560)
        layout = QVBoxLayout(self)
        title = QLabel("Choose your companion's mind")
        title.setObjectName("title")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        title.setFont(font)
        layout.addWidget(title)
        tiny = QLabel(TINY)
        tiny.setWordWrap(True)
        layout.addWidget(tiny)
        self.now = QLabel(self._now_text())
        self.now.setObjectName("in-use")
        self.now.setWordWrap(True)
        layout.addWidget(self.now)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._catalogue_tab(), "Download a model")
        self.tabs.addTab(self._servers_tab(), "A model server on this computer")
        self.tabs.addTab(self._file_tab(), "A GGUF file on disk")
        layout.addWidget(self.tabs, 1)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        theme.tone(self.error, "error")  # the theme's error colour, readable on light and dark
        self.error.hide()
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox()
        bundled = not (settings.model_path or settings.endpoint_url)
        self.keep = self.buttons.addButton(
            "Keep the tiny one for now" if bundled else "Keep the one in use", QDialogButtonBox.ButtonRole.RejectRole
        )
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        folder = settings.data_folder
        tasks.run(lambda: measure(), tasks.while_open(self, self._measured), tasks.while_open(self, self._failed), self)
        tasks.run(
            lambda: [downloaded(m, folder) for m in self.catalogue],
            tasks.while_open(self, self._on_disk),
            tasks.while_open(self, self._failed),
            self,
        )
        self.look()

    # ---- what is in use ----------------------------------------------------------

    def _now_text(self) -> str:
        s = self.settings
        if s.endpoint_url:
            what = f"{s.endpoint_model} on the server at {s.endpoint_url}"
        elif s.model_path:
            what = Path(s.model_path).name
        else:
            what = "the tiny bundled model (SmolLM2 135M)"
        running = self.companion.model_name if self.companion is not None else None
        return f"In use now: {what}" + (f" — answering as “{running}”." if running else ".")

    def say(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))

    def _failed(self, error) -> None:
        if not isinstance(error, KnownError):
            raise error
        self.say(str(error))

    # ---- the catalogue -------------------------------------------------------------

    def _catalogue_tab(self) -> QWidget:
        tab = QWidget()
        col = QVBoxLayout(tab)
        self.memory = QLabel("Measuring this machine's memory…")
        self.memory.setWordWrap(True)
        col.addWidget(self.memory)
        self.models = QListWidget()
        self.models.setWordWrap(True)
        self.models.setItemDelegate(Entries(self.models))  # the name, then its details, room between them
        self.models.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.models.setResizeMode(QListWidget.ResizeMode.Adjust)
        col.addWidget(self.models, 1)
        self.download = DownloadPanel("Download and use")
        self.download.download_button.setDefault(True)
        self.download.row.addStretch(1)
        col.addWidget(self.download)
        # What the tests and the rest of the dialog reach: the panel's own.
        self.download_button, self.cancel_button = self.download.download_button, self.download.cancel_button
        self.progress, self.download_status = self.download.progress, self.download.status
        self.download_button.clicked.connect(self.start_download)
        self.download.downloaded.connect(lambda path: self.choose(model_path=str(path)))
        self._show_catalogue(Memory(None, None), [False] * len(self.catalogue))
        return tab

    def _measured(self, memory: Memory) -> None:
        self.memory.setText(memory.describe() + " Those that fit it come first.")
        self._show_catalogue(memory, self._disk)

    def _on_disk(self, on_disk: list[bool]) -> None:
        self._show_catalogue(self._memory, on_disk)

    def _show_catalogue(self, memory: Memory, on_disk: list[bool]) -> None:
        self._memory, self._disk = memory, on_disk
        chosen = self.models.currentRow()
        was = self.judged[chosen][0] if 0 <= chosen < len(self.judged) else None
        self.judged = fitting(memory, self.catalogue)
        present = dict(zip(self.catalogue, on_disk, strict=True))
        self.models.clear()
        for model, judged in self.judged:
            used = in_use(model, self.settings.model_path, self.settings.data_folder)
            item = QListWidgetItem(described(model, judged, present[model], used))
            if judged is Fit.TOO_BIG:
                item.setForeground(self.palette().placeholderText())
            self.models.addItem(item)
        # The one chosen stays chosen when the list is redrawn if it fits; else the first that fits (row 0).
        rows = [m for m, judged in self.judged if judged is Fit.FITS]
        self.models.setCurrentRow(rows.index(was) if was in rows else 0)  # those that fit come first

    @property
    def downloading(self) -> Download | None:
        return self.download.downloading

    def start_download(self) -> None:
        row = self.models.currentRow()
        if row < 0 or self.downloading is not None:
            return
        model = self.judged[row][0]
        self.say("")
        self.download.start(model, local_path(model, self.settings.data_folder))

    def cancel_download(self) -> None:
        self.download.cancel()

    # ---- servers running here -------------------------------------------------------

    def _servers_tab(self) -> QWidget:
        tab = QWidget()
        col = QVBoxLayout(tab)
        self.servers_status = QLabel("")
        self.servers_status.setWordWrap(True)
        col.addWidget(self.servers_status)
        self.server_models = QListWidget()
        self.server_models.setStyleSheet("QListWidget::item { padding-top: 4px; padding-bottom: 4px; }")
        col.addWidget(self.server_models, 1)
        row = QHBoxLayout()
        self.use_server_button = QPushButton("Use this model")
        self.use_server_button.setEnabled(False)
        self.look_button = QPushButton("Look again")
        row.addWidget(self.use_server_button)
        row.addWidget(self.look_button)
        row.addStretch(1)
        col.addLayout(row)
        self.use_server_button.clicked.connect(self.use_server_model)
        self.look_button.clicked.connect(self.look)
        self.server_models.itemDoubleClicked.connect(lambda _: self.use_server_model())
        return tab

    def look(self) -> None:
        """Ask Ollama's and LM Studio's usual ports what they serve (off this thread, a second at most)."""
        self.looking = True
        self.look_button.setEnabled(False)
        self.servers_status.setText("Looking for Ollama and LM Studio on this computer…")
        places = self.places
        asked = self._asked = object()  # only the latest look's answer is shown: an earlier one may come later

        def found(servers_found: list[servers.Server]) -> None:
            if self._asked is asked:
                self._found(servers_found)

        tasks.run(
            lambda: servers.find(places), tasks.while_open(self, found), tasks.while_open(self, self._failed), self
        )

    def _found(self, found: list[servers.Server]) -> None:
        self.looking = False
        self.look_button.setEnabled(True)
        self.found = found
        self.server_models.clear()
        self.server_rows: list[tuple[servers.Server, str]] = []
        for server in found:
            for name in server.models:
                used = self.settings.endpoint_url == server.url and self.settings.endpoint_model == name
                self.server_models.addItem(f"{name} — {server.kind}" + (f" ({IN_USE})" if used else ""))
                self.server_rows.append((server, name))
        if not found:
            kinds = " or ".join(p.kind for p in self.places)
            self.servers_status.setText(
                f"No {kinds} is running on this computer. Start one (with a model pulled) and press Look again; "
                "any other OpenAI-compatible server can be named in Settings."
            )
        else:
            said = "; ".join(s.describe() for s in found)
            self.servers_status.setText(f"Found {said}. Choose a model to talk through it.")
        self.server_models.setCurrentRow(0 if self.server_rows else -1)
        self.use_server_button.setEnabled(bool(self.server_rows))

    def use_server_model(self) -> None:
        row = self.server_models.currentRow()
        if 0 <= row < len(self.server_rows):
            server, name = self.server_rows[row]
            self.choose(endpoint_url=server.url, endpoint_model=name)

    # ---- a file on disk ----------------------------------------------------------------

    def _file_tab(self) -> QWidget:
        tab = QWidget()
        col = QVBoxLayout(tab)
        said = QLabel(
            "Any instruct model in GGUF format that llama.cpp runs: downloaded from a model page, or made with "
            "llama.cpp's tools. It is read to be a GGUF model before it is used."
        )
        said.setWordWrap(True)
        col.addWidget(said)
        self.file_button = QPushButton("Choose a GGUF file…")
        row = QHBoxLayout()
        row.addWidget(self.file_button)
        row.addStretch(1)
        col.addLayout(row)
        col.addStretch(1)
        self.file_button.clicked.connect(self.choose_file)
        return tab

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "A GGUF model file", "", "GGUF models (*.gguf);;All files (*)")
        if path:
            self.use_file(path)

    def use_file(self, path: str) -> None:
        """Use a model file once it has been read to be a GGUF model (off this thread); else say why not."""
        from anima.models.gguf import read_header

        self.say("")
        tasks.run(
            lambda: read_header(path),
            tasks.while_open(self, lambda _header: self.choose(model_path=path)),
            tasks.while_open(self, self._failed),
            self,
        )

    # ---- the choice ----------------------------------------------------------------------

    def choose(self, *, model_path: str = "", endpoint_url: str = "", endpoint_model: str = "") -> None:
        """Save the choice and have the companion answer with it from the next reply (off this thread)."""
        s = self.settings
        new = replace(
            s, model_path=model_path, endpoint_url=endpoint_url, endpoint_model=endpoint_model, endpoint_uses_key=False
        )
        companion = self.companion
        self.setEnabled(False)

        def apply() -> Settings:
            new.save()
            if companion is not None:
                companion.use_model(new.chat_model())
            return new

        def done(saved: Settings) -> None:
            self.setEnabled(True)
            self.result_value = saved
            self.switched.emit(saved)
            self.accept()

        def failed(error) -> None:
            self.setEnabled(True)
            self._failed(error)

        tasks.run(apply, tasks.while_open(self, done), tasks.while_open(self, failed), self)

    def done(self, result) -> None:
        self.cancel_download()  # what came is kept: Download goes on from there next time
        super().done(result)


# What a chat model is made from: a change to any of them makes a new one (Settings.chat_model).
MODEL_FIELDS = (
    "model_path",
    "endpoint_url",
    "endpoint_model",
    "endpoint_dialect",
    "endpoint_uses_key",
    "gpu_layers",
    "context_tokens",
)


def switch_if_changed(window, old: Settings, new: Settings | None) -> None:
    """Settings were saved: when they choose another model, the window's companion answers with it from the next
    reply on (made and switched off the window's thread), without a restart."""
    if new is None:
        return
    window.settings = new
    companion = window.companion
    if companion is None or all(getattr(old, f) == getattr(new, f) for f in MODEL_FIELDS):
        return
    from .. import errors

    tasks.run(lambda: companion.use_model(new.chat_model()), None, lambda e: errors.show(window, e), window)


def choose_mind(window) -> FirstModelDialog:
    """Open the dialog over `window` (not blocking it); the window's settings follow the choice."""
    dialog = FirstModelDialog(window.settings or Settings.load(), window.companion, window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def switched(saved: Settings) -> None:
        window.settings = saved

    dialog.switched.connect(switched)
    dialog.open()
    return dialog
