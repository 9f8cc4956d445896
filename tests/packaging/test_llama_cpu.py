"""The CPU flags llama.cpp is built with (packaging/llama_cpu.py): the machine's own instruction sets, never AMX."""

import importlib.util
import platform
from pathlib import Path

import pytest

# By its path: packaging/ is the bundle's folder, not a package (the name is PyPI's `packaging`).
_SPEC = importlib.util.spec_from_file_location("llama_cpu", Path(__file__).parents[2] / "packaging" / "llama_cpu.py")
llama_cpu = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(llama_cpu)

SAPPHIRE = (
    "processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 fma f16c bmi2 avx512f avx512bw avx512dq avx512vl avx512cd "
    "avx512_vnni avx512_bf16 avx512vbmi avx_vnni amx_tile amx_int8 amx_bf16\n"
)
HASWELL = "flags\t\t: fpu sse4_2 avx avx2 fma f16c bmi2\n"


def test_an_amx_cpu_gets_its_avx512_and_no_amx():
    args = llama_cpu.cmake_args("x86_64", SAPPHIRE).split()
    assert "-DGGML_NATIVE=OFF" in args and "-DGGML_AVX512=ON" in args and "-DGGML_AVX512_VNNI=ON" in args
    assert {"-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF", "-DGGML_AMX_BF16=OFF"} <= set(args)
    assert not any(a.startswith("-DGGML_AMX") and a.endswith("=ON") for a in args)


def test_an_older_cpu_gets_only_what_it_has():
    args = llama_cpu.cmake_args("x86_64", HASWELL).split()
    assert "-DGGML_AVX2=ON" in args and "-DGGML_FMA=ON" in args
    assert not any("AVX512" in a or "VNNI" in a for a in args)


def test_other_machines_stay_native():
    assert llama_cpu.cmake_args("arm64", None) == ""
    assert llama_cpu.cmake_args("aarch64", "flags : fp asimd") == ""


@pytest.mark.skipif(platform.machine() != "x86_64", reason="AMX is an x86_64 instruction set")
def test_the_installed_llama_cpp_was_built_without_amx():
    import llama_cpp

    assert "AMX" not in llama_cpp.llama_print_system_info().decode()
