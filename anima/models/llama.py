"""Chat through llama.cpp (llama-cpp-python) on any GGUF file."""

import ctypes
import dataclasses
import json
import logging
import os
import threading
from collections.abc import Generator, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from .chat import DEFAULT_CONTEXT_TOKENS, Capabilities, ChatModel, Message, ModelClosed, ModelError, StopReason
from .defaults import default_gguf
from .loading import Background
from .reencode import ReencodeFailed, reencoded
from .shift import PromptTokens, common_prefix, drop_block, exact_prompt, shiftable

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from llama_cpp import Llama, LlamaGrammar
    from llama_cpp.llama_types import ChatCompletionRequestMessage, CreateChatCompletionStreamResponse

log = logging.getLogger(__name__)

GGUF_MAGIC = b"GGUF"
COUNTS_KEPT = 4096  # token counts remembered (a session's transcript, with room to spare)
# A side call (reflection, learning) reads its prompt this many tokens at a time and looks for a cancel between
# pieces: llama.cpp reads a whole prompt in one go otherwise, and a turn that pre-empts deep reflection waited
# for all of it (16 messages, ~20 s on two cores). See bench/reflection.py for what it costs and saves.
PIECE = 64
# And every call, a turn's too, has llama.cpp look for the cancel between the steps of reading a piece (its
# abort callback, set while a prompt is read): the person who pressed Stop while a long prompt was read waited
# for all of it (~6 s; 31 s for 2,900 tokens on two busy cores), and now waits ~0.06 s. While a reply is
# written the cancel is looked at between tokens: the callback is not kept then, as llama.cpp calls it at every
# step of every token (a thousand calls into Python each). STOP_S: the longest a reply may go on after Stop
# (tests/models/test_llama_stop.py measures it).
STOP_S = 0.5


def check_gguf(path: Path) -> Path:
    """A clear error for the common wrong files, before llama.cpp sees them."""
    path = Path(path).expanduser()
    if not path.exists():
        raise ModelError(f"There is no model file at {path}.")
    if not path.is_file():
        raise ModelError(f"{path} is not a file; choose a .gguf model file.")
    with open(path, "rb") as f:
        if f.read(4) != GGUF_MAGIC:
            raise ModelError(f"{path} is not a GGUF model file.")
    return path


def machine_threads() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _computed(llm: "Llama") -> "tuple[bytes, npt.NDArray[np.intc], int]":
    """What the context has computed: the cache, and which tokens it holds. Not Llama.save_state, which also
    copies the logits of the last batch (512 x the vocabulary, 100 MB for the default model) that nothing here
    reads: restoring them took 1.7 of the 1.8 s a turn waited for deep reflection to step aside (measured)."""
    import llama_cpp

    size = llama_cpp.llama_state_get_size(llm._ctx.ctx)
    buffer = (ctypes.c_uint8 * int(size))()
    n = int(llama_cpp.llama_state_get_data(llm._ctx.ctx, buffer, size))
    if n > size:
        raise RuntimeError("llama.cpp wrote more state than it said it would")
    return ctypes.string_at(buffer, n), llm.input_ids.copy(), llm.n_tokens


def _restore(llm: "Llama", state: "tuple[bytes, npt.NDArray[np.intc], int]") -> None:
    import llama_cpp

    data, input_ids, n_tokens = state
    buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
    if llama_cpp.llama_state_set_data(llm._ctx.ctx, buffer, len(data)) != len(data):
        raise RuntimeError("llama.cpp did not take back its state")
    llm.input_ids = input_ids
    llm.n_tokens = n_tokens
    llm._requires_eval = True  # the next call reads its last token again, for fresh logits


class LlamaChatModel(ChatModel):
    """A GGUF model in this process. Loads in the background; uses the model's own chat template."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        n_ctx: int = DEFAULT_CONTEXT_TOKENS,
        n_gpu_layers: int = -1,
        n_threads: int | None = None,
        seed: int = 0,
        repeat_penalty: float = 1.1,
    ):
        self.path = check_gguf(Path(path) if path else default_gguf())
        self.bundled = not path  # the bundled model runs from a re-encoded copy (reencode.py)
        self.running_from = self.path
        self.name = self.path.stem
        self.n_ctx = n_ctx
        self.n_gpu_layers = n_gpu_layers
        self.n_threads = n_threads or machine_threads()
        self.seed = seed
        # Small models loop inside a string without it.
        self.repeat_penalty = repeat_penalty
        # One generation at a time on one llama context. Re-entrant: a side call holds it from saving
        # the context to restoring it, and streams inside.
        self._lock = threading.RLock()
        self._grammars: dict[str, LlamaGrammar] = {}
        self._counts: dict[str, int] = {}
        self.dropped = 0  # tokens the last trim dropped from the computed prompt
        self._sent: list[Message] = []  # the messages whose prompt the context holds (shift.py)
        # Set at load where a trim can be dropped from the cache.
        self._prompt_tokens: PromptTokens | None = None
        self._exact_prompt: PromptTokens | None = None  # set at load where the model uses its own template
        self._asides = 0  # side calls under way (aside): they read their prompts in pieces
        self._closed = False
        self._llm = Background(f"chat model {self.name}", self._load)
        self.capabilities = Capabilities(
            streaming=True, schema_constrained=True, gpu_offload=False, context_tokens=n_ctx, keeps_prefix=True
        )

    def start_loading(self) -> "LlamaChatModel":
        self._llm.start()
        return self

    @property
    def ready(self) -> bool:
        return self._llm.ready

    def _load(self) -> "Llama":
        if self._closed:  # closed while its load waited for its turn (models/loading.py): it is never opened
            raise ModelClosed(self.name)
        import llama_cpp

        _keep_output(llama_cpp)
        gpu = bool(llama_cpp.llama_supports_gpu_offload())
        layers = self.n_gpu_layers if gpu else 0
        log.info(
            "loading %s: %s, %d threads, context %d",
            self.path.name,
            f"offloading {'all' if layers < 0 else layers} layers to the GPU"
            if gpu
            else "CPU only (this llama.cpp build has no GPU backend)",
            self.n_threads,
            self.n_ctx,
        )
        self.capabilities = Capabilities(
            streaming=True, schema_constrained=True, gpu_offload=gpu, context_tokens=self.n_ctx, keeps_prefix=True
        )
        if self.bundled:
            try:
                copy = reencoded(self.path, threads=self.n_threads)
                try:
                    return self._open(llama_cpp, copy, layers)
                except ModelError as e:
                    copy.unlink(missing_ok=True)  # damaged since it was made: made again next time
                    log.warning("the re-encoded copy of the default model did not load (%s); using the original", e)
            except ReencodeFailed as e:
                log.warning("%s; using the original (prompts read more slowly)", e)
        return self._open(llama_cpp, self.path, layers)

    def _open(self, llama_cpp: ModuleType, path: Path, layers: int) -> "Llama":
        try:
            # Keys cached as Q8_0: every new token is compared with every cached key, and on a CPU that
            # comparison is ~10% of a warm turn's wait faster in Q8_0 than in F16 at 2,000-3,000 tokens, for
            # +0.3% perplexity (measured on LoCoMo dialogue with the default model); half the memory too.
            llm: Llama = llama_cpp.Llama(
                str(path),
                n_ctx=self.n_ctx,
                n_gpu_layers=layers,
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads,
                seed=self.seed,
                verbose=False,
                type_k=llama_cpp.GGML_TYPE_Q8_0,
            )
        except ValueError as e:
            raise ModelError(f"{path} could not be loaded as a model (damaged or truncated?): {e}") from None
        self.running_from = path
        self._prompt_tokens = shiftable(llm)
        self._exact_prompt = exact_prompt(llm)
        self.capabilities = dataclasses.replace(self.capabilities, drops_blocks=self._prompt_tokens is not None)
        return llm

    @property
    def llama(self) -> "Llama":
        """The loaded llama_cpp.Llama (waits for the background load). ModelClosed once closed: llama.cpp's
        freed model, used again, crashes the whole process."""
        if self._closed:
            raise ModelClosed(self.name)
        return self._llm.get()

    def tokenize(self, text: str) -> list[int]:
        return self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)

    def count_tokens(self, text: str) -> int:
        # Every turn counts the whole transcript again, and it is mostly the same texts: remember the counts.
        n = self._counts.get(text)
        if n is None:
            if len(self._counts) >= COUNTS_KEPT:
                self._counts.clear()
            n = self._counts[text] = len(self.tokenize(text))
        return n

    @contextmanager
    def aside(self) -> Iterator[None]:
        """Save the context (the conversation's computed prefix) and put it back after the side call.
        Nothing else uses the model in between, so what others evaluate is never rolled back."""
        llm = self.llama
        with self._lock:
            state, sent = _computed(llm), self._sent
            self._asides += 1
            try:
                yield
            finally:
                self._asides -= 1
                _restore(llm, state)
                self._sent = sent

    def _grammar(self, schema: dict[str, Any]) -> "LlamaGrammar":
        from llama_cpp import LlamaGrammar

        key = json.dumps(schema)  # property order is the order the model writes them in
        if key not in self._grammars:
            self._grammars[key] = LlamaGrammar.from_json_schema(key, verbose=False)
        return self._grammars[key]

    def stream_text(
        self,
        messages: list[Message],
        *,
        max_tokens: int,
        temperature: float,
        stop: tuple[str, ...],
        cancel: threading.Event,
        schema: dict[str, Any] | None,
    ) -> Generator[str, None, StopReason]:
        llm = self.llama
        grammar = self._grammar(schema) if schema else None
        with self._lock:
            self._drop_trimmed(llm, messages)
            if not self._read_prompt(llm, messages, cancel, PIECE if self._asides else llm.n_batch):
                return StopReason.CANCELLED
            # Streamed: a generator of chunks. Our messages' roles are the chat roles llama_cpp names.
            chunks = cast(
                "Generator[CreateChatCompletionStreamResponse, None, None]",
                llm.create_chat_completion(
                    cast("list[ChatCompletionRequestMessage]", list(messages)),
                    stream=True,
                    max_tokens=max_tokens,
                    temperature=temperature,
                    stop=list(stop) or None,
                    grammar=grammar,
                    repeat_penalty=self.repeat_penalty,
                ),
            )
            try:
                for chunk in chunks:
                    if cancel.is_set():
                        return StopReason.CANCELLED
                    choice = chunk["choices"][0]
                    # A streamed delta's content: a str, or absent (the last chunk's empty delta).
                    text = cast("str | None", choice["delta"].get("content"))
                    if text:
                        yield text
                    if choice.get("finish_reason") == "length":
                        return StopReason.LENGTH
                return StopReason.END
            finally:
                chunks.close()

    def _read_prompt(self, llm: "Llama", messages: list[Message], cancel: threading.Event, piece: int) -> bool:
        """Read the prompt, all but its last token, `piece` tokens at a time; False if cancelled while it reads
        (between pieces, or within one: _aborting). What was read is the computed prefix create_chat_completion
        then finds (it reads the last token itself, for the logits it samples from)."""
        if self._exact_prompt is None:
            return not cancel.is_set()
        import numpy as np

        tokens = self._exact_prompt(list(messages))
        have = common_prefix(llm.input_ids[: llm.n_tokens], np.asarray(tokens))
        llm.n_tokens = min(have, len(tokens) - 1)  # eval() drops the rest of the cache
        with _aborting(llm, cancel):
            for i in range(llm.n_tokens, len(tokens) - 1, piece):
                if cancel.is_set():
                    return False
                try:
                    llm.eval(tokens[i : min(i + piece, len(tokens) - 1)])
                except RuntimeError:  # llama_decode returned 2: aborted. What it read of the piece is dropped
                    if cancel.is_set():  # by the next eval (it removes the cache past n_tokens, not counted).
                        return False
                    raise
        return not cancel.is_set()

    def _drop_trimmed(self, llm: "Llama", messages: list[Message]) -> None:
        """When the transcript lost a run of entries since the last call (its oldest turns, trimmed; or notes that
        aged out, conversation/live.py), the floor unchanged, drop them from the computed prompt instead of
        reading everything after them again."""
        sent, self._sent = self._sent, list(messages)
        if len(sent) < 2 or len(messages) < 2 or messages[0] != sent[0]:
            return  # a first call, or a new floor (all after it must be read again anyway)
        differ = next((i for i, (now, then) in enumerate(zip(messages, sent, strict=False)) if now != then), None)
        if differ is None or messages[differ] not in sent[differ + 1 :]:
            return  # a continuation, or a new end (a note, a message): nothing sent before comes back later
        if self._prompt_tokens:
            self.dropped = drop_block(llm, self._prompt_tokens(list(messages)))

    def _loaded(self) -> "Llama | None":
        """The model if it has loaded (never waits for it, never loads it); None otherwise, and once closed."""
        if not self._llm.ready or self._closed:
            return None
        try:
            return self._llm.get()
        except ModelError:
            return None

    def forget_computed(self) -> None:
        """The next prompt is read from its first token; the cached keys and values and the remembered texts go."""
        with self._lock:
            self._sent = []
            self._counts.clear()
            llm = self._loaded()
            if llm is not None:
                llm.reset()  # type: ignore[no-untyped-call]
                clear = getattr(llm, "_ctx", None) and getattr(llm._ctx, "kv_cache_clear", None)
                if clear:
                    clear()

    def close(self) -> None:
        llm = self._loaded()
        self._closed = True
        if llm is not None:
            llm.close()


@contextmanager
def _aborting(llm: "Llama", cancel: threading.Event) -> Iterator[None]:
    """llama.cpp stops reading (llama_decode returns 2) as soon as `cancel` is set, while this lasts."""
    import llama_cpp

    ctx = llm._ctx.ctx
    callback = llama_cpp.ggml_abort_callback(lambda _data: cancel.is_set())  # kept alive until it is unset
    llama_cpp.llama_set_abort_callback(ctx, callback, None)
    try:
        yield
    finally:
        llama_cpp.llama_set_abort_callback(ctx, llama_cpp.ggml_abort_callback(), None)


def _keep_output(llama_cpp: ModuleType) -> None:
    """Leave the process's output alone while a model loads, and send llama.cpp's own messages to the log.

    With verbose=False, llama-cpp-python points the whole process's stdout and stderr at /dev/null for the load
    (its suppress_stdout_stderr: os.dup2 on both, and sys.stdout and sys.stderr swapped), from the thread that
    loads, which here is not the one that writes: QA found lines the window and the terminal wrote meanwhile lost,
    and sys.stdout is set back afterwards to what it was when the load began. llama.cpp's messages come through
    its log callback, whose default prints errors to stderr ("llama_model_load: error loading model: …" beside
    Anima's own sentence for a damaged file, and even for the re-encoded copy it recovers from): they go to the
    log instead, where `--verbose` shows them."""
    global _log_callback
    for module in (llama_cpp._internals, llama_cpp.llama):
        if hasattr(module, "suppress_stdout_stderr"):
            module.suppress_stdout_stderr = _nothing_suppressed
    if _log_callback is None:
        _log_callback = llama_cpp.llama_log_callback(_logged)  # kept: llama.cpp calls it for as long as it runs
        llama_cpp.llama_log_set(_log_callback, None)


_log_callback: object = None  # llama_cpp.llama_log_callback(_logged), once made
# ggml_log_level as this llama.cpp has it: 1 debug, 2 info, 3 warn, 4 error, 5 the line before goes on (the
# numbers llama-cpp-python's own callback reads are older ones: it took errors for debug).
_GGML_WARN_AND_ERROR = (3, 4)


def _logged(level: int, text: bytes, user_data: object) -> None:
    line = text.decode("utf-8", errors="replace").rstrip()
    if line:
        log.log(logging.INFO if level in _GGML_WARN_AND_ERROR else logging.DEBUG, "llama.cpp: %s", line)


def _nothing_suppressed(disable: bool = True) -> AbstractContextManager[None]:
    return nullcontext()
