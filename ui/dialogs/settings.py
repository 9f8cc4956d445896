"""Settings: the mind (a GGUF file or an OpenAI-compatible endpoint), GPU layers, context size, data folder."""

from PySide6.QtWidgets import QSpinBox

from anima.settings import Settings

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

    def submit(self):
        new = Settings(model_path=self.model_path.text().strip(), endpoint_url=self.endpoint_url.text().strip(),
                       endpoint_model=self.endpoint_model.text().strip(), gpu_layers=self.gpu_layers.value(),
                       context_tokens=self.context.value(), data_folder=self.data_folder.text().strip())
        self.work(lambda: (new.save(), new)[1])
