import pytest

from bench.crashloop import run

pytestmark = pytest.mark.slow  # starts a writer process and kills it 20 times


def test_sigkill_mid_write_never_loses_an_acknowledged_write_or_damages_the_file(tmp_path):
    result = run(kills=20, home=str(tmp_path / "crash"))
    assert result.kills == 20
    assert result.acknowledged > 20  # the writer really was writing when killed
    assert result.acknowledged_lost == 0
    assert result.integrity_failures == 0
