"""`python -m anima bench mind`: the default model raw and through our interface, structured output, the embedder."""

import argparse
import statistics
import time

from anima.models.chat import Message
from anima.models.embedder import MiniLMEmbedder
from anima.models.llama import LlamaChatModel, machine_threads
from anima.models.structured import StructuredOutputFailed, ask_structured
from anima.parts.part import CREATION_PROMPT, PART_CREATION_SCHEMA

from . import locomo
from .report import emit, table

GEN_TOKENS = 96


def long_prompt(model: LlamaChatModel, run: int, target_tokens: int = 1500) -> list[Message]:
    """About 1,500 tokens of conversation; a unique first line per run so no computed prefix is reused."""
    lines, text = [], f"Run {run}. You are a warm companion. Here is what was said before:\n"
    for speaker, said in locomo.turns(locomo.load()):
        lines.append(f"{speaker}: {said}")
        if len(lines) % 10 == 0 and len(model.tokenize(text + "\n".join(lines))) >= target_tokens - 30:
            break
    return [
        {"role": "system", "content": text + "\n".join(lines)},
        {"role": "user", "content": "What should I cook tonight? Answer in a few sentences."},
    ]


def timed(pieces) -> tuple[float, float, int]:
    """(time to first token, tokens per second after it, tokens) for an iterator of streamed pieces."""
    t0 = time.perf_counter()
    first, n = None, 0
    for _ in pieces:
        n += 1
        if first is None:
            first = time.perf_counter()
    end = time.perf_counter()
    if first is None:  # was a TypeError on None; said, not hidden
        raise RuntimeError("the model streamed nothing")
    return (first - t0) * 1000, (n - 1) / (end - first) if n > 1 and end > first else 0.0, n


def raw_pieces(llm, messages, repeat_penalty):
    for chunk in llm.create_chat_completion(
        messages, stream=True, max_tokens=GEN_TOKENS, temperature=0.0, repeat_penalty=repeat_penalty
    ):
        if chunk["choices"][0]["delta"].get("content"):
            yield chunk


def bench_generation(runs: int) -> dict:
    import llama_cpp

    ours = LlamaChatModel(n_ctx=4096).start_loading()
    ours.llama  # loaded: running_from now names the file it runs from (the re-encoded copy)
    # The same file and cache types as ours: what is compared is our interface, not the weights.
    raw = llama_cpp.Llama(
        str(ours.running_from),
        n_ctx=4096,
        n_gpu_layers=0 if not llama_cpp.llama_supports_gpu_offload() else -1,
        n_threads=machine_threads(),
        n_threads_batch=machine_threads(),
        seed=0,
        verbose=False,
        type_k=llama_cpp.GGML_TYPE_Q8_0,
    )
    r_ttft: list[float] = []
    r_tps: list[float] = []
    o_ttft: list[float] = []
    o_tps: list[float] = []
    prompt_tokens = 0
    for run in range(runs):
        prompt = long_prompt(ours, run)
        prompt_tokens = len(ours.tokenize(prompt[0]["content"] + prompt[1]["content"]))
        # Alternate which goes first, so neither always meets a warmer cache.
        order = [("raw", prompt), ("ours", prompt)] if run % 2 == 0 else [("ours", prompt), ("raw", prompt)]
        for who, p in order:
            if who == "raw":
                ttft, tps, _ = timed(raw_pieces(raw, p, ours.repeat_penalty))
                r_ttft.append(ttft)
                r_tps.append(tps)
            else:
                ttft, tps, _ = timed(ours.stream(p, max_tokens=GEN_TOKENS, temperature=0.0))
                o_ttft.append(ttft)
                o_tps.append(tps)
    raw.close()
    ours.close()
    m = statistics.median
    return {
        "prompt_tokens": prompt_tokens,
        "raw_ttft_ms": round(m(r_ttft), 1),
        "ttft_ms": round(m(o_ttft), 1),
        "ttft_ratio": round(m(o_ttft) / m(r_ttft), 3),
        "raw_tok_s": round(m(r_tps), 1),
        "tok_s": round(m(o_tps), 1),
        "tok_s_ratio": round(m(o_tps) / m(r_tps), 3),
    }


def bench_structured(calls: int) -> dict:
    model = LlamaChatModel().start_loading()
    moments = [f"{s}: {t}" for s, t in locomo.turns(locomo.load()) if len(t) > 60][:calls]
    valid, seconds, tries = 0, [], []
    for moment in moments:
        t = time.perf_counter()
        try:
            ask_structured(
                model,
                [{"role": "system", "content": CREATION_PROMPT}, {"role": "user", "content": f"Moment: {moment}"}],
                PART_CREATION_SCHEMA,
                what="part",
            )
            valid += 1
        except StructuredOutputFailed as e:
            tries.append(len(e.attempts))
        seconds.append(time.perf_counter() - t)
    model.close()
    return {
        "structured_calls": len(moments),
        "structured_valid_rate": round(valid / len(moments), 3),
        "structured_median_s": round(statistics.median(seconds), 2),
    }


def bench_embedder(n: int) -> dict:
    texts = [f"{s}: {t}" for s, t in locomo.turns(locomo.load())][:n]
    e = MiniLMEmbedder()
    t = time.perf_counter()
    e.embed_batch(texts[:4])  # loading is measured apart from throughput
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    e.embed_batch(texts)
    return {
        "embed_texts": len(texts),
        "embed_per_s": round(len(texts) / (time.perf_counter() - t), 1),
        "embed_load_s": round(load_s, 2),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="anima bench mind")
    p.add_argument("--runs", type=int, default=5, help="long-prompt generations each, raw and ours")
    p.add_argument("--structured-calls", type=int, default=50)
    p.add_argument("--embed-texts", type=int, default=1000)
    p.add_argument("--locomo", help="LoCoMo-format file (default: ../shared/eval/locomo_dev.json)")
    args = p.parse_args(argv or [])
    if args.locomo:
        locomo.DEFAULT = args.locomo
    gen = bench_generation(args.runs)
    table(
        f"mind: default model, ~{gen['prompt_tokens']}-token prompt, {GEN_TOKENS} tokens out, median of {args.runs}",
        ["path", "ttft_ms", "tok_s"],
        [
            ["raw llama-cpp-python", gen["raw_ttft_ms"], gen["raw_tok_s"]],
            ["anima LlamaChatModel", gen["ttft_ms"], gen["tok_s"]],
            ["ratio (ours / raw)", gen["ttft_ratio"], gen["tok_s_ratio"]],
        ],
    )
    st = bench_structured(args.structured_calls)
    table(
        "mind: structured output, part-creation schema",
        ["calls", "valid_rate", "median_s"],
        [[st["structured_calls"], st["structured_valid_rate"], st["structured_median_s"]]],
    )
    em = bench_embedder(args.embed_texts)
    table(
        "mind: embedder (all-MiniLM-L6-v2, CPU)",
        ["texts", "per_s", "load_s"],
        [[em["embed_texts"], em["embed_per_s"], em["embed_load_s"]]],
    )
    emit(
        "mind",
        {
            **{k: gen[k] for k in ("raw_ttft_ms", "ttft_ms", "ttft_ratio", "raw_tok_s", "tok_s")},
            "structured_valid_rate": st["structured_valid_rate"],
            "embed_per_s": em["embed_per_s"],
            "tok_s_ratio": gen["tok_s_ratio"],
            "structured_median_s": st["structured_median_s"],
            "prompt_tokens": gen["prompt_tokens"],
        },
    )
    return 0
