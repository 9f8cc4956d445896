"""The catalogue: the current small instruct models, honest about what is known, judged against this machine."""

import re

from anima.models.catalogue import CATALOGUE, fitting, in_use, local_path
from anima.models.machine import GB, Fit, Memory


def test_every_entry_is_a_q4_k_m_gguf_with_its_page_licence_and_figures():
    assert len(CATALOGUE) >= 8
    for m in CATALOGUE:
        assert m.url == f"{m.page}/resolve/main/{m.file}" and m.url.startswith("https://huggingface.co/")
        assert "q4_k_m" in m.file.lower() and m.file.endswith(".gguf")
        assert m.licence and m.summary and 0.5e9 < m.approx_bytes < 3e9 and m.memory_gb > m.approx_bytes / GB


def test_exact_figures_are_exact_where_stated_and_close_to_the_round_ones():
    for m in CATALOGUE:
        if m.size is not None:
            assert abs(m.size - m.approx_bytes) / m.size < 0.01
        if m.sha256 is not None:
            assert re.fullmatch(r"[0-9a-f]{64}", m.sha256)
    assert sum(m.size is not None for m in CATALOGUE) == 4  # the ones a readable source states; the rest None


def test_every_exact_figure_cites_a_source_the_module_describes():
    import inspect

    from anima.models import catalogue

    source = inspect.getsource(catalogue)
    lines = [line for line in source.splitlines() if re.match(r"\s+(size|sha256)=", line)]
    stated = [v for m in CATALOGUE for v in (m.size, m.sha256) if v is not None]
    assert len(lines) == len(stated) == 5
    for line in lines:
        marks = re.findall(r"\[([a-z]+)\]", line.partition("#")[2])
        assert marks, line
        for mark in marks:
            assert f"# [{mark}] " in source or f"# [{mark}]  " in source  # the source described at the top


def test_on_an_8_gb_laptop_the_small_ones_fit_and_the_4b_ones_are_tight():
    judged = dict((m.name, f) for m, f in fitting(Memory(8 * GB, 6 * GB)))
    assert judged["Llama 3.2 1B Instruct"] is Fit.FITS
    assert judged["Qwen3 4B Instruct 2507"] is Fit.TIGHT
    order = [f for _, f in fitting(Memory(8 * GB, 6 * GB))]
    assert order == sorted(order, key=[Fit.FITS, Fit.UNKNOWN, Fit.TIGHT, Fit.TOO_BIG].index)


def test_on_a_4_gb_machine_the_4b_ones_are_too_big():
    judged = dict((m.name, f) for m, f in fitting(Memory(4 * GB, 3 * GB)))
    assert judged["Gemma 3 4B Instruct"] is Fit.TOO_BIG and judged["Llama 3.2 1B Instruct"] is Fit.FITS


def test_the_model_in_use_is_the_one_whose_file_the_settings_name(anima_home):
    first, second = CATALOGUE[0], CATALOGUE[1]
    path = str(local_path(first))
    assert in_use(first, path) and not in_use(second, path) and not in_use(first, "")
