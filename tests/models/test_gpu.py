import llama_cpp
import pytest

from anima.models.gpu import gpu_report, offloaded_layers


@pytest.mark.slow
def test_the_report_says_plainly_whether_this_build_offloads_and_how_much(real_model):
    real_model.llama  # loaded
    if not llama_cpp.llama_supports_gpu_offload():  # the CPU build `make setup` makes
        assert gpu_report().startswith("CPU only: this llama.cpp build has no GPU backend")
        assert gpu_report(real_model) == gpu_report()
        assert offloaded_layers(real_model) is None
    else:  # `make setup GPU=cuda` or `GPU=vulkan`: all layers by default
        on, total = offloaded_layers(real_model)
        assert on == total == 30  # SmolLM2-135M has 30 layers
        assert gpu_report(real_model) == "GPU: 30 of 30 layers offloaded"
