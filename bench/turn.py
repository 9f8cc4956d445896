"""`python -m anima bench turn`: time to first token of a turn with a full workspace, cold and warm.

Cold is the first message of a conversation whose transcript already holds
about 1,500 tokens; warm is a later message of the same conversation, recall
included, after a side call (a part's structured bid or a reflection) has used
the model in between, and after the companion's reading ahead between turns
(reflect/read_ahead.py) has finished, as it does while a person reads the
reply. Each message is also sent a second time as typed in the window: with a
pause before Enter, so the companion has read along. Raw llama-cpp-python on
the same prompt, cold and with its prefix computed, is measured in the same run
as the reference (on the file the companion runs from, and cold on the file as
it ships). A turn's time is to the model's first token, as raw llama.cpp's is;
the first words a warm turn shows, a sentence later, are reported beside it.
"""

import argparse
import statistics
import tempfile
import time

from anima.companion import Companion
from anima.knowledge.messages import NewMessage
from anima.models.chat import DEFAULT_CONTEXT_TOKENS
from anima.models.embedder import MiniLMEmbedder
from anima.models.llama import LlamaChatModel
from anima.models.structured import StructuredOutputFailed, ask_structured
from anima.parts.part import CREATION_PROMPT, PART_CREATION_SCHEMA
from anima.store import Home

from . import locomo
from .first_token import FirstToken
from .kept import close_keeping_model
from .report import emit, say, table

# Eight: on a shared machine one turn's time moves by a third from run to run, so the median needs several.
WARM_MESSAGES = [
    "What did I say about painting last week?",
    "And how is my sister doing, do you think?",
    "Remind me what we planned for the weekend.",
    "Thanks. What should I read next?",
    "I finally finished the blue painting!",
    "Do you remember what I told you about my job?",
    "My friend wants to go camping again, any ideas?",
    "Good night, talk tomorrow.",
]


def first_token_ms(pieces, since: float | None = None) -> float:
    t = time.perf_counter() if since is None else since
    for _ in pieces:
        return (time.perf_counter() - t) * 1000
    return float("nan")


def side_call(chat) -> None:
    """A part's bid or a reflection: another prompt on the same model, kept aside from the conversation."""
    with chat.aside():
        try:
            ask_structured(
                chat,
                [
                    {"role": "system", "content": CREATION_PROMPT},
                    {"role": "user", "content": "Moment: they mentioned their sister again."},
                ],
                PART_CREATION_SCHEMA,
                what="part",
                retries=0,
                max_tokens=64,
            )
        except StructuredOutputFailed:
            pass  # capped at 64 tokens it may not finish: what matters is that it ran on the model


def raw_same_prompt(chat, before, messages) -> float:
    """Raw llama-cpp-python's time to first token on a warm turn's own prompt, from the prefix that turn found
    computed (`before`, the context's tokens then): the same tokens left to read, with no recall and no
    companion. The conversation's context is put back afterwards."""
    llm = chat.llama
    with chat.aside():
        now = llm.input_ids[: llm.n_tokens]
        kept = next(
            (i for i, (a, b) in enumerate(zip(before, now, strict=False)) if a != b), min(len(before), len(now))
        )
        llm.n_tokens = kept  # forget what the turn read and said: the model must read it again
        return first_token_ms(
            llm.create_chat_completion(
                messages, stream=True, max_tokens=1, temperature=0.0, repeat_penalty=chat.repeat_penalty
            )
        )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench turn")
    p.add_argument("--transcript-tokens", type=int, default=1300)
    p.add_argument("--context", type=int, default=DEFAULT_CONTEXT_TOKENS, help="the model's context (the app's)")
    args = p.parse_args(argv or [])
    chat = LlamaChatModel(n_ctx=args.context).start_loading()
    embedder = MiniLMEmbedder().start_loading()
    with tempfile.TemporaryDirectory(prefix="anima-bench-") as tmp:
        home = Home(tmp)
        c = Companion.create(home, "bench passphrase", "Anima", chat, embedder, user_name="Caroline")
        # Earlier sessions to recall from, and this session's transcript of about 1,300 tokens.
        turns = list(locomo.turns(locomo.load()))
        c.messages.record_many([NewMessage("user", t, s, None, "earlier") for s, t in turns[:400]])
        current: list[NewMessage] = []
        tokens = 0
        for s, t in turns[400:]:
            current.append(
                NewMessage("user" if len(current) % 2 == 0 else "companion", t, s, None, c.conversation.session)
            )
            tokens += chat.count_tokens(t) + 4
            if tokens >= args.transcript_tokens:
                break
        c.messages.record_many(current)
        close_keeping_model(c)  # reopened below, on the same model
        c = Companion(home, home.unlock("bench passphrase"), chat, embedder, session=c.conversation.session)
        c.indexer_thread.join()
        c.temperature, c.reply_tokens = 0.0, 24

        # Timed from the message's arrival: recording it and recall are part of the wait. The model's first token,
        # as raw llama.cpp's is timed; the turn shows its first words a sentence later (first_token.py).
        first = FirstToken(chat)
        cold, _, cold_turn = first.turn(c, "How have you been since we last talked?")
        prompt_tokens = sum(chat.count_tokens(m["content"]) + 4 for m in cold_turn.workspace.messages)
        warm: list[float] = []
        typed: list[float] = []
        shown: list[float] = []
        new_tokens: list[int] = []
        raw_same: list[float] = []
        # Each message twice: sent at once (Enter with no pause before it), and typed with a pause before
        # Enter (the window hands the draft over; the companion reads along).
        for text, read_along in [(m, r) for m in WARM_MESSAGES for r in (False, True)]:
            c.settle()  # the person reads the reply: the companion learns and reads ahead meanwhile
            side_call(chat)
            if read_along:
                c.read_draft(text)
                c.settle()
            before = chat.llama.input_ids[: chat.llama.n_tokens].copy()
            ttft, words, t = first.turn(c, text)
            prepared = first.prepared_ms
            (typed if read_along else warm).append(ttft)
            if not read_along:
                shown.append(words)
                new_tokens.append(t.workspace.tiers["note"] + t.workspace.tiers["message"])
                raw_same.append(raw_same_prompt(chat, before, t.workspace.messages))
            say(
                f"warm turn{' (read along)' if read_along else ''}: {ttft:.0f} ms to first "
                f"token ({prepared:.0f} ms recording and recall), prompt {sum(t.workspace.tiers.values())} tokens, "
                f"note {t.workspace.tiers['note']}, message {t.workspace.tiers['message']}, transcript trimmed at "
                f"{t.workspace.kept_from}"
                + ("" if read_along else f"; raw llama.cpp on the same prompt and prefix: {raw_same[-1]:.0f} ms")
            )
        messages = cold_turn.workspace.messages
        close_keeping_model(c)  # the raw reference below runs on it

    # The reference: raw llama-cpp-python on the cold prompt, first from scratch, then with its prefix computed.
    llm = chat.llama
    llm.reset()
    # llama_cpp types a message as its own TypedDicts, stricter than the workspace's Message.
    raw_cold = first_token_ms(llm.create_chat_completion(messages, stream=True, max_tokens=8, temperature=0.0))  # type: ignore[arg-type]
    raw_warm = first_token_ms(
        llm.create_chat_completion(
            [*messages[:-1], {"role": "user", "content": "And then?"}],  # type: ignore[list-item]
            stream=True,
            max_tokens=8,
            temperature=0.0,
        )
    )
    chat.close()
    # And the model file as it ships (Q4_1), before the re-encoding (anima/models/reencode.py) and with F16 keys.
    import llama_cpp

    shipped = llama_cpp.Llama(
        str(chat.path), n_ctx=args.context, n_threads=chat.n_threads, n_threads_batch=chat.n_threads, verbose=False
    )
    # llama_cpp types messages as its own TypedDicts (a Literal role each); ours are the same dicts.
    shipped_cold = first_token_ms(
        shipped.create_chat_completion(messages, stream=True, max_tokens=8, temperature=0.0)  # type: ignore[arg-type]
    )
    shipped.close()
    figures = {
        "cold_ttft_ms": round(cold, 1),
        "warm_ttft_ms": round(statistics.median(warm), 1),
        "warm_ttft_max_ms": round(max(warm), 1),
        "warm_read_along_ttft_ms": round(statistics.median(typed), 1),
        "warm_first_words_shown_ms": round(statistics.median(shown), 1),
        "prompt_tokens": prompt_tokens,
        "warm_new_tokens": round(statistics.median(new_tokens)),
        "raw_cold_ttft_ms": round(raw_cold, 1),
        "raw_warm_ttft_ms": round(raw_warm, 1),
        "raw_same_as_warm_ttft_ms": round(statistics.median(raw_same), 1),
        "raw_shipped_file_cold_ttft_ms": round(shipped_cold, 1),
    }
    table(
        "turn: time to first token, default model, full workspace (a side call before each warm turn)",
        ["figure", "value"],
        [[k, v] for k, v in figures.items()],
    )
    emit(
        "turn",
        {
            "cold_ttft_ms": figures["cold_ttft_ms"],
            "warm_ttft_ms": figures["warm_ttft_ms"],
            **{k: v for k, v in figures.items() if k not in ("cold_ttft_ms", "warm_ttft_ms")},
        },
    )
    return 0
