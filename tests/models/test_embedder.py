import logging
import subprocess
import sys

import numpy as np
import pytest

from anima.models.embedder import MODEL_FILE, MiniLMEmbedder, onnx_dir

pytestmark = pytest.mark.slow  # the real embedder

TEXTS = [
    "What did Caroline say about her painting last week?",
    "",
    "猫の名前はミソです 🐱",
    "Привет, как дела? مرحبا",
    "  Leading and trailing spaces, CAPITALS and accents: café, naïve.  ",
    "word " * 2000,  # far over the model's 256 tokens: truncated there, as sentence-transformers does
    "I have a puppy named Max.\nHe likes the park.\tTabs, too.",
    "x",
]


@pytest.fixture(scope="module")
def onnx():
    e = MiniLMEmbedder().start_loading()
    assert e.runtime == "onnxruntime", f"no ONNX embedder in {onnx_dir()}: `make setup` exports it"
    return e


def test_the_bundled_minilm_embeds_offline_normalised_and_by_meaning(onnx):
    v = onnx.embed_batch(["My dog is called Max.", "I have a puppy named Max.", "The quarterly tax return is due."])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2
    assert np.allclose(onnx.embed("My dog is called Max."), v[0], atol=1e-5)
    assert onnx.embed_batch([]).shape == (0, 384)


def test_onnx_vectors_equal_sentence_transformers_alone_and_in_padded_batches(onnx):
    torch = MiniLMEmbedder(onnx="/nonexistent").start_loading()
    assert torch.runtime == "torch"
    expected = torch.embed_batch(TEXTS)
    batched = onnx.embed_batch(TEXTS)  # padded to the longest (256 tokens) around the short ones
    small_batches = MiniLMEmbedder(batch_size=3).embed_batch(TEXTS)
    for i, text in enumerate(TEXTS):
        alone = onnx.embed(text)
        assert alone.dtype == np.float32 and alone.shape == (384,)
        for got in (alone, batched[i], small_batches[i]):
            assert float(got @ expected[i]) > 0.9999, text[:30]


def test_without_the_onnx_file_it_falls_back_to_torch_and_says_so(tmp_path, caplog):
    caplog.set_level(logging.WARNING, "anima.models.embedder")
    e = MiniLMEmbedder(onnx=tmp_path).start_loading()
    v = e.embed("My dog is called Max.")
    assert e.runtime == "torch" and v.shape == (384,)
    assert any(str(tmp_path) in r.getMessage() and "torch" in r.getMessage() for r in caplog.records)


def test_embedding_imports_neither_torch_nor_transformers():
    assert (onnx_dir() / MODEL_FILE).is_file(), "`make setup` exports the ONNX embedder"
    code = (
        "import sys\nfrom anima.models.embedder import MiniLMEmbedder\n"
        "e = MiniLMEmbedder(); v = e.embed_batch(['a', 'b c'])\n"
        "print(e.runtime, v.shape, sorted(m for m in ('torch', 'transformers', 'sentence_transformers') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split("\n")[0] == "onnxruntime (2, 384) []"


def test_the_export_writes_a_graph_that_gives_the_same_vectors(tmp_path, onnx):
    from anima.models.export_onnx import main

    assert main(["--dest", str(tmp_path / "out")]) == 0
    fresh = MiniLMEmbedder(onnx=tmp_path / "out").start_loading()
    assert fresh.runtime == "onnxruntime"
    assert np.allclose(fresh.embed_batch(TEXTS[:4]), onnx.embed_batch(TEXTS[:4]), atol=1e-6)
    assert main(["--dest", str(tmp_path / "out"), "--if-missing"]) == 0


def test_embedding_writes_nothing_outside_the_companions_folders(tmp_path):
    """ONNX Runtime 1.32 writes a device id and queued telemetry events under ~/.cache/Microsoft and a session
    file in the temporary folder as soon as it is imported; an offline companion writes nowhere but its own."""
    import os

    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "from anima.models.embedder import MiniLMEmbedder; print(MiniLMEmbedder().embed_batch(['hello']).shape)",
        ],
        env={**env, "HOME": str(home), "TMPDIR": str(tmp)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0 and "(1, 384)" in r.stdout, r.stderr[-2000:]
    assert [str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()] == []


def test_a_text_of_a_million_characters_gives_the_vector_of_its_whole_and_little_memory(onnx):
    """Issue 43: the tokenizer split all of a 1,000,000-character paste before the model kept its first 256
    tokens. Only READ_MOST characters are read now: the vector is the one the whole text gives."""
    import resource

    from anima.models.embedder import READ_MOST

    text = "the quick brown fox jumps over a lazy dog, " * 1000  # 43,000 characters, words of every length
    assert len(text) > READ_MOST
    whole = onnx._model.get().embed([text], 1)[0]  # the model on all of it, no cut
    assert np.allclose(onnx.embed(text), whole, atol=1e-5)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    onnx.embed("word " * 200_000)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50 * 1024  # KB: under 50 MB more
