"""The benchmarks that run a whole benchmark at its smallest on the real models (minutes each: a scale run did
not end in 14 minutes on two loaded cores) run when asked, `pytest --benches tests/bench`, not in `make test`:
there they are deselected (counted as such), never skipped."""

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--benches", action="store_true", help="also run the slow tests that run whole benchmarks")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--benches"):
        return
    whole = [i for i in items if i.get_closest_marker("slow") and "tests/bench/" in i.nodeid]
    if whole:
        config.hook.pytest_deselected(items=whole)
        items[:] = [i for i in items if i not in whole]
