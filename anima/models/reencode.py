"""The bundled chat model, re-encoded once into the layout llama.cpp's CPU kernels read fastest.

The default model ships as Q4_1 (98 MB). llama.cpp multiplies Q8_0 weights with
faster kernels on x86 (AVX2) and ARM alike, and a Q8_0 copy of Q4_1 weights
holds them to within rounding: on LoCoMo dialogue, perplexity 12.25 (Q4_1) and
12.26 (Q8_0). On two cores it reads a prompt in about 3-4 ms a token instead of
5-6, and a warm turn's few dozen new tokens ~15-20% faster (bench/turn.py).
Making the copy takes about a second and 137 MB of the user's cache; it is made
on the first load and reused after. A model the user chose is used as it is:
its quantization is their choice, and it may be gigabytes.
"""

import ctypes
import logging
import os
import threading
import time
from pathlib import Path

from ..paths import cache

log = logging.getLogger(__name__)

PARTIAL_LITTER_S = 600  # making a copy takes seconds: a partial file this old was abandoned


class ReencodeFailed(Exception):
    pass


def copy_path(source: Path, folder: Path | None = None) -> Path:
    """Where the copy of `source` lives; its name changes when the source file does (a reinstall)."""
    st = source.stat()
    return (folder or cache() / "models") / f"{source.stem}.{st.st_size}-{st.st_mtime_ns}.Q8_0.gguf"


def reencoded(source: Path, folder: Path | None = None, threads: int = 1) -> Path:
    """The Q8_0 copy of a Q4_1 `source`, made now if it is not there yet. Raises ReencodeFailed (the caller then
    uses the source: slower, never wrong). Older copies of the same model are removed."""
    target = copy_path(source, folder)
    if target.is_file():
        return target
    import llama_cpp

    # llama.cpp logs every tensor it converts to stderr unless told to keep its log to errors.
    logging.getLogger("llama-cpp-python").setLevel(logging.ERROR)
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0
    params.allow_requantize = True  # from Q4_1: each weight is kept as it was, to within Q8_0's rounding
    params.nthread = threads
    # Two loads at once (the app and a bench) each write their own partial file.
    partial = target.with_name(f"{target.name}.{os.getpid()}-{threading.get_ident()}.partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        rc = llama_cpp.llama_model_quantize(str(source).encode(), str(partial).encode(), ctypes.byref(params))
        if rc != 0:
            raise ReencodeFailed(f"llama.cpp could not re-encode {source.name} (code {rc})")
        # Only a finished copy ever takes the name a later load looks for.
        os.replace(partial, target)
    except OSError as e:  # a full disk, a read-only cache
        raise ReencodeFailed(f"no room for a re-encoded copy of {source.name} in {target.parent}: {e}") from None
    finally:
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass  # its folder could not be made: there is nothing to remove
    for old in target.parent.glob(f"{source.stem}.*.Q8_0.gguf"):
        if old != target:
            old.unlink(missing_ok=True)
    # A copy whose making was cut short (the app killed meanwhile) leaves its partial file: an old one is litter.
    for left in target.parent.glob(f"{source.stem}.*.partial"):
        try:
            if time.time() - left.stat().st_mtime > PARTIAL_LITTER_S:
                left.unlink()
        except OSError:
            pass  # another load just finished or removed it
    log.info("re-encoded %s as Q8_0 in %s", source.name, target)
    return target
