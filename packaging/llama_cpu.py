"""The CMake flags that build llama.cpp for this machine's CPU, less AMX: printed for `make setup` (CMAKE_ARGS).

llama.cpp builds with -march=native, which turns on every instruction set the CPU reports. Where a hypervisor or
sandbox reports AMX but does not grant its tile state to the process, the first matrix product of a turn kills the
process (SIGSEGV at `ldtilecfg` in ggml_backend_amx_mul_mat, seen on a two-core x86_64 sandbox with llama-cpp-python
0.3.36 on the default model; raw llama.cpp crashed the same way). AMX speeds up server CPUs only. So on x86_64 the
build names the CPU's own instruction sets one by one, as -march=native would, and leaves AMX out; elsewhere
(ARM, macOS) it stays native.
"""

import platform
from pathlib import Path

# ggml's CMake option for each instruction set, by the flag Linux's /proc/cpuinfo gives it (all must be present).
OPTIONS = (
    ("GGML_SSE42", ("sse4_2",)),
    ("GGML_AVX", ("avx",)),
    ("GGML_AVX2", ("avx2",)),
    ("GGML_AVX_VNNI", ("avx_vnni",)),
    ("GGML_FMA", ("fma",)),
    ("GGML_F16C", ("f16c",)),
    ("GGML_BMI2", ("bmi2",)),
    ("GGML_AVX512", ("avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512cd")),
    ("GGML_AVX512_VBMI", ("avx512vbmi",)),
    ("GGML_AVX512_VNNI", ("avx512_vnni",)),
    ("GGML_AVX512_BF16", ("avx512_bf16",)),
)


def cpu_flags(cpuinfo: str) -> set[str]:
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def cmake_args(machine: str, cpuinfo: str | None) -> str:
    if machine not in ("x86_64", "AMD64") or cpuinfo is None:
        return ""
    have = cpu_flags(cpuinfo)
    on = [name for name, needs in OPTIONS if all(f in have for f in needs)]
    return " ".join(
        [
            "-DGGML_NATIVE=OFF",
            *(f"-D{name}=ON" for name in on),
            "-DGGML_AMX_TILE=OFF",
            "-DGGML_AMX_INT8=OFF",
            "-DGGML_AMX_BF16=OFF",
        ]
    )


def main() -> None:
    info = Path("/proc/cpuinfo")
    print(cmake_args(platform.machine(), info.read_text() if info.exists() else None))


if __name__ == "__main__":
    main()
