"""Migration 6: emotional signals gain their dimensions, confidence, evidence type and trajectory."""

import pytest

from anima.errors import InvalidEdit
from anima.store import migrations
from tests.conftest import PASSPHRASE
from tests.store.records import NOW
from tests.store.test_soul import at_schema


def test_upgrade_from_schema_5_keeps_the_signals_without_dimensions(anima_home):
    home, old = at_schema(anima_home, 5)
    with old:
        old.add("signal", "ai", signal="tired", evidence="said so", at=NOW)
    with home.unlock(PASSPHRASE) as soul:
        assert soul.schema_version() == migrations.SCHEMA_VERSION
        [s] = soul.query("SELECT * FROM emotional_signals")
        assert s["signal"] == "tired" and s["valence"] is None and s["trajectory"] is None


@pytest.mark.parametrize(
    "field, value",
    [
        ("valence", -1.5),
        ("arousal", 2),
        ("dominance", -0.1),
        ("confidence", 1.2),
        ("evidence_type", "hunch"),
        ("trajectory", "up"),
    ],
)
def test_a_signal_out_of_its_ranges_is_refused(soul, field, value):
    with pytest.raises(InvalidEdit):
        soul.add("signal", "ai", signal="tired", evidence="said so", at=NOW, **{field: value})
