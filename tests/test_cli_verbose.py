import os
import subprocess
import sys

import pytest

from anima.models.gpu import gpu_report


@pytest.mark.slow
def test_chat_verbose_says_which_model_runs_and_on_what(anima_home, tmp_path):
    env = {**os.environ, "ANIMA_PASSPHRASE": "a long enough passphrase 42", "ANIMA_NAME": "Anima"}
    done = subprocess.run([sys.executable, "-m", "anima", "chat", "--verbose"], input="", capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"Model: SmolLM2-135M-Instruct.Q4_1; {gpu_report()}." in done.stderr


def test_a_model_on_a_server_is_not_said_to_run_here():
    from anima.models.openai_http import OpenAIChatModel
    said = gpu_report(OpenAIChatModel("http://127.0.0.1:9/v1", "some-model"))
    assert said.startswith("the model runs on its server")
