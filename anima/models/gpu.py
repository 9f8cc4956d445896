"""Whether this llama.cpp build runs on a GPU, and how much of the loaded model it put there, in words.

For `python -m anima chat --verbose`, the settings dialog and the selftest. A CPU build says so plainly;
`make setup GPU=cuda` or `GPU=vulkan` rebuilds llama-cpp-python with a GPU backend (macOS builds get Metal).
"""

from .chat import ChatModel
from .llama import LlamaChatModel


def supports_offload() -> bool:
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


def offloaded_layers(model: ChatModel) -> tuple[int, int] | None:
    """(layers on the GPU, layers in the model) for a loaded LlamaChatModel; None before it has loaded or for a
    model of another kind (a server's)."""
    # Only a LlamaChatModel loads one (its _llm).
    if not isinstance(model, LlamaChatModel) or not model._llm.ready or not supports_offload():
        return None
    import llama_cpp

    llm = model._llm.get()
    total = int(llama_cpp.llama_model_n_layer(llm._model.model))
    # llama.cpp reads n_gpu_layers as "this many of the repeating layers" (-1: all of them, and the output layer).
    asked = model.n_gpu_layers
    return (total if asked < 0 else min(asked, total)), total


def gpu_report(model: ChatModel | None = None) -> str:
    """One line for a person, e.g. "CPU only: this llama.cpp build has no GPU backend" or
    "GPU: 30 of 30 layers offloaded"."""
    if model is not None and not isinstance(model, LlamaChatModel):  # only a LlamaChatModel has an _llm
        return "the model runs on its server (an endpoint): the GPU, if any, is the server's"
    if not supports_offload():
        return "CPU only: this llama.cpp build has no GPU backend (make setup GPU=cuda or GPU=vulkan builds one)"
    if model is None:
        return "GPU offload available in this llama.cpp build"
    layers = offloaded_layers(model)
    if layers is None:
        return "GPU offload available; the model has not loaded yet"
    on, total = layers
    return f"GPU: {on} of {total} layers offloaded" if on else "GPU offload available, but no layers offloaded"
