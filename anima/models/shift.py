"""Dropping a block from the middle of llama.cpp's computed prompt, so what follows it is not read again.

When the workspace trims the transcript, its oldest turns go from between the
SELF floor and the rest of the conversation. Every token after them moves, so
llama.cpp's prefix reuse keeps only the floor, and the model reads the whole
conversation again: seconds on a laptop (2,000 tokens take 6-8 s on two cores).
Instead, the dropped tokens are removed from the cache and the positions after
them shifted back (llama.cpp's context shift, the same thing llama-server does
when its context fills). The kept turns keep what they computed while the
dropped ones were still before them: an approximation llama.cpp accepts, and
the model only reads what is new.

Used only where the prompt the model will see can be tokenized exactly as
llama-cpp-python will (the model's own chat template from its metadata).
"""

import logging
from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from .chat import Message

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_types import ChatCompletionRequestMessage

log = logging.getLogger(__name__)

# A shift is worth it only when it saves reading at least this many tokens.
WORTH = 32


class PromptTokens:
    """The tokens llama-cpp-python's create_chat_completion will build for `messages` (the GGUF's own template)."""

    def __init__(self, llm: "Llama", template: str):
        from llama_cpp import llama_chat_format

        self.llm = llm
        eos, bos = llm.token_eos(), llm.token_bos()
        self._format = llama_chat_format.Jinja2ChatFormatter(
            template=template,
            eos_token=llm._model.token_get_text(eos) if eos != -1 else "",
            bos_token=llm._model.token_get_text(bos) if bos != -1 else "",
            stop_token_ids=[eos],
        )

    def __call__(self, messages: list[Message]) -> list[int]:
        # Our messages' roles are the chat roles llama_cpp names.
        result = self._format(messages=cast("list[ChatCompletionRequestMessage]", messages))
        return self.llm.tokenize(result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True)


def exact_prompt(llm: "Llama") -> PromptTokens | None:
    """How to tokenize prompts exactly as create_chat_completion will, where the model uses its own template."""
    template = llm.metadata.get("tokenizer.chat_template") if llm.chat_format == "chat_template.default" else None
    return PromptTokens(llm, template) if template else None


def shiftable(llm: "Llama") -> PromptTokens | None:
    """How to tokenize prompts for drop_block, where a shift can be made: the tokens can be known exactly
    (exact_prompt), this llama-cpp-python exposes the cache operations, and the cache can shift."""
    return exact_prompt(llm) if can_shift(llm) else None


def can_shift(llm: "Llama") -> bool:
    """Whether this llama-cpp-python exposes what a shift needs, and this model's cache can shift positions
    (not every architecture can)."""
    import llama_cpp

    ctx = getattr(llm, "_ctx", None)
    needed = (
        hasattr(ctx, "kv_cache_seq_rm")
        and hasattr(ctx, "kv_cache_seq_shift")
        and hasattr(ctx, "memory")
        and hasattr(llama_cpp, "llama_memory_can_shift")
        and hasattr(llm, "_model")
    )
    if not needed or ctx is None:  # (None has no memory: not needed)
        log.info("this llama-cpp-python cannot drop tokens from its cache: a trim reads the prompt again")
        return False
    return bool(llama_cpp.llama_memory_can_shift(ctx.memory))


def common_prefix(a: npt.NDArray[np.intc], b: npt.NDArray[np.intc]) -> int:
    n = min(len(a), len(b))
    differ = np.flatnonzero(a[:n] != b[:n])
    return int(differ[0]) if len(differ) else n


def drop_block(llm: "Llama", wanted: list[int]) -> int:
    """If `wanted` is the cached prompt with one block removed after their common prefix, remove that block from
    the cache and shift what follows it back. Returns how many tokens were dropped (0: nothing done).
    Only for a model where shiftable(llm)."""
    n = llm.n_tokens
    cached = llm.input_ids[:n].copy()
    new = np.asarray(wanted)
    p = common_prefix(cached, new)
    if p >= len(new) or p >= n - WORTH:
        return 0
    # Where the rest of the new prompt resumes in the cache: the first place its next WORTH tokens match.
    window = new[p : p + WORTH]
    if len(window) < WORTH:
        return 0
    for start in np.flatnonzero(cached[p + 1 : n - WORTH + 1] == window[0]) + p + 1:
        if np.array_equal(cached[start : start + WORTH], window):
            break
    else:
        return 0
    end = int(start)  # where the block ends (a numpy integer as found)
    gap = end - p
    kept = common_prefix(cached[end:], new[p:])  # the tokens after the block that stay valid
    if not llm._ctx.kv_cache_seq_rm(-1, p, end):
        return 0
    llm._ctx.kv_cache_seq_rm(-1, end + kept, -1)  # what follows the kept run no longer matches anything
    llm._ctx.kv_cache_seq_shift(0, end, end + kept, -gap)
    llm.input_ids[p : p + kept] = cached[end : end + kept]
    llm.n_tokens = p + kept
    if hasattr(llm, "_requires_eval"):
        llm._requires_eval = True  # the last logits belong to the old prompt
    log.info("dropped %d tokens from the computed prompt at %d; %d after them kept", gap, p, kept)
    return gap
