"""`anima bench faults` at its smallest: a few kills over every write path, the full-disk steps (where a tmpfs can
be mounted), two programs writing at once; whatever the faults, nothing acknowledged is lost or comes back."""

import pytest

from tests.bench.running import bench


@pytest.mark.slow  # kills children on every write path, mounts a disk
def test_the_soul_under_faults_loses_nothing_and_says_so_in_its_last_line():
    ran = bench("faults", "--kills", "6")
    assert ran.returncode == 0, ran.err
    figures = ran.figures
    assert figures["bench"] == "faults" and figures["kills"] == 6
    assert {
        k: figures[k]
        for k in (
            "acknowledged_lost",
            "integrity_failures",
            "vectors_missing",
            "locked_errors",
            "tracebacks",
            "forgotten_back",
            "leftovers",
            "full_disk_cases_failed",
        )
    } == {
        "acknowledged_lost": 0,
        "integrity_failures": 0,
        "vectors_missing": 0,
        "locked_errors": 0,
        "tracebacks": 0,
        "forgotten_back": 0,
        "leftovers": 0,
        "full_disk_cases_failed": 0,
    }
