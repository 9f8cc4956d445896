import os
import subprocess
import sys

import pytest

from anima.models.gpu import gpu_report


@pytest.mark.slow
def test_chat_verbose_says_which_model_runs_and_on_what(anima_home, tmp_path):
    env = {**os.environ, "ANIMA_PASSPHRASE": "a long enough passphrase 42", "ANIMA_NAME": "Anima"}
    done = subprocess.run(
        [sys.executable, "-m", "anima", "chat", "--verbose"],
        input="",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"Model: SmolLM2-135M-Instruct.Q4_1; {gpu_report()}." in done.stderr


def test_a_model_on_a_server_is_not_said_to_run_here():
    from anima.models.openai_http import OpenAIChatModel

    said = gpu_report(OpenAIChatModel("http://127.0.0.1:9/v1", "some-model"))
    assert said.startswith("the model runs on its server")


# A chat whose learning meets a full disk, on the fake models (a script, so the terminal's logging is its own).
_LEARNING_FAILS = """
import sys
from anima import cli, cli_open
from anima.errors import DiskFull
from anima.models import embedder, fake
from anima.reflect.reflector import Reflector
def full(self, preempt):
    raise DiskFull("The disk holding the soul is full: nothing of this change was saved.")
Reflector._learn = full
def chat(args):
    model = fake.FakeChatModel()
    for _ in range(4):
        model.enqueue("Hello!")
    return model
cli_open.chosen_chat_model = chat
embedder.MiniLMEmbedder = fake.FakeEmbedder
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("verbose", [False, True])
def test_work_between_turns_that_stops_is_said_in_a_sentence_and_the_log_only_when_asked(anima_home, tmp_path, verbose):
    env = {**os.environ, "ANIMA_PASSPHRASE": "a long enough passphrase 42", "ANIMA_NAME": "Anima"}
    done = subprocess.run(
        [sys.executable, "-c", _LEARNING_FAILS, "chat", *(["--verbose"] if verbose else [])],
        input="I moved to Leeds.\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Hello!" in done.stdout
    assert (
        "Learning about the person stopped: The disk holding the soul is full: nothing of this change was saved."
        in done.stderr
    )
    assert ("learning about the person stopped: DiskFull" in done.stderr) == verbose
