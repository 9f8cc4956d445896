"""Migration 7: a part's lineage, kept beside it in the parts table."""

import json

import pytest

from anima.errors import InvalidEdit
from anima.interchange.export import everything
from anima.store import migrations
from tests.conftest import PASSPHRASE
from tests.store.records import NOW, fill
from tests.store.test_soul import at_schema


def test_upgrading_keeps_the_parts_and_gives_each_an_empty_lineage(anima_home):
    home, old = at_schema(anima_home, migrations.MIGRATIONS.index(migrations.m007_part_lineage))
    with old:
        ids = fill(old)
    with home.unlock(PASSPHRASE) as soul:
        assert soul.schema_version() == migrations.SCHEMA_VERSION
        [part] = soul.query("SELECT * FROM parts")
        assert part["id"] == ids["part"] and part["lineage"] == "{}" and json.loads(part["data"])["triggers"] == ["tea"]


@pytest.mark.parametrize("lineage", ["not json", "[1, 2]", "3"])
def test_a_lineage_that_is_not_an_object_is_refused(soul, lineage):
    with pytest.raises(InvalidEdit):
        soul.add("part", "ai", name="Tea", data="{}", lineage=lineage, created_at=NOW, updated_at=NOW)


def test_the_readable_export_shows_lineage_as_json(soul):
    soul.add("part", "ai", name="Tea", data="{}", created_at=NOW, updated_at=NOW)
    soul.add(
        "part",
        "ai",
        name="Tea at four",
        data="{}",
        lineage=json.dumps({"from": [1], "how": "split"}),
        created_at=NOW,
        updated_at=NOW,
    )
    assert [p["lineage"] for p in everything(soul)["parts"]] == [{}, {"from": [1], "how": "split"}]
