"""This machine's memory, measured, and whether a model fits in it."""

import pytest

from anima.models.machine import GB, Fit, Memory, fit, measure


def test_this_machine_is_measured_from_what_the_system_says():
    memory = measure()
    with open("/proc/meminfo") as f:
        said = {line.split(":")[0]: int(line.split()[1]) * 1024 for line in f}
    assert memory.total == said["MemTotal"] and memory.available is not None
    assert 0 < memory.available <= memory.total
    assert memory.describe().startswith(f"This machine has {memory.total / GB:.1f} GB of memory")


def test_meminfo_without_memavailable_leaves_it_unknown(tmp_path):
    p = tmp_path / "meminfo"
    p.write_text("MemTotal:       8000000 kB\nMemFree:         100000 kB\n")
    assert measure(p) == Memory(8_192_000_000, None)


def test_without_meminfo_sysconf_measures(tmp_path):
    memory = measure(tmp_path / "none")
    assert memory.total is not None and memory.total > GB


@pytest.mark.parametrize(
    ("need_gb", "total_gb", "free_gb", "judged"),
    [
        (2, 16, 10, Fit.FITS),
        (4, 8, 6, Fit.TIGHT),  # half of all memory: little room for the rest
        (4, 16, 3, Fit.TIGHT),  # fits the machine, not what is free now
        (4, 4.5, 4, Fit.TOO_BIG),
        (1.5, 8, None, Fit.FITS),  # free unknown: judged on the total
    ],
)
def test_a_model_fits_is_tight_or_is_too_big(need_gb, total_gb, free_gb, judged):
    memory = Memory(int(total_gb * GB), None if free_gb is None else int(free_gb * GB))
    assert fit(need_gb, memory) is judged


def test_unmeasured_memory_says_unknown_never_a_guess():
    assert fit(1, Memory(None, None)) is Fit.UNKNOWN
    assert Memory(None, None).describe() == "This machine's memory could not be measured."
