"""A table of the soul read a page at a time (store/paged.py), in rowid order, each row with its rowid."""

import pytest

from anima.store import Home, paged
from tests.conftest import PASSPHRASE


def test_a_table_is_read_a_page_at_a_time_in_rowid_order(anima_home):
    with Home(anima_home).create(PASSPHRASE) as soul:
        ids = [
            soul.add("message", "user", session="s", role="user", content=str(i), created_at="2026") for i in range(5)
        ]
        first = paged.page(soul, "messages", None, 2)
        assert [rowid for rowid, _ in first] == ids[:2] and first[0][1]["content"] == "0"
        assert "rowid_" not in first[0][1]
        rest = paged.page(soul, "messages", first[-1][0], 10)
        assert [r["content"] for _, r in rest] == ["2", "3", "4"]


def test_only_the_souls_own_tables_are_read(anima_home):
    with Home(anima_home).create(PASSPHRASE) as soul, pytest.raises(ValueError, match="not a table of the soul"):
        paged.page(soul, "sqlite_master", None, 10)
