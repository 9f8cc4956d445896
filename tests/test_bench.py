"""`python -m anima bench NAME`: a name that is no benchmark, or a copy of Anima without the repository's bench/
folder, is one line that says what there is."""

import pytest

from anima import bench
from anima.errors import KnownError


def test_an_unknown_name_lists_the_benchmarks_and_all():
    with pytest.raises(KnownError) as said:
        bench.run("nope", [])
    assert str(said.value) == f"No benchmark named 'nope'; there are: {', '.join(bench.NAMES)}, all."


def test_every_name_is_a_module_of_bench_with_a_main():
    import importlib

    for name in bench.NAMES:
        assert callable(importlib.import_module(f"bench.{name}").main), name


def test_without_the_bench_folder_beside_anima_it_says_where_it_looked(monkeypatch, tmp_path):
    (tmp_path / "anima").mkdir()
    monkeypatch.setattr(bench, "__file__", str(tmp_path / "anima" / "bench.py"))
    with pytest.raises(KnownError, match="The benchmarks live in the repository's bench/ folder, which is not beside"):
        bench.run("store", [])
