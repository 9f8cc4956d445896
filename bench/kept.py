"""Closing a companion in a benchmark whose chat model goes on to the next companion.

Companion.close frees the model's native memory (llama.cpp), so a model used
after it crashes the process instead of answering.
"""


class _Kept:
    def close(self) -> None:
        pass


def close_keeping_model(c) -> None:
    """Close the companion `c` (its soul, its index, the work between turns), leaving its chat model open."""
    c.chat = _Kept()
    c.close()
