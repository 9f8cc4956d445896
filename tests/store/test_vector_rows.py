"""The rows behind each program's vector index (store/vector_rows.py): the feed other programs follow, and the
kept graph, written in parts, made the one read at unlock, retired and removed."""

import time

from anima.store import Home, vector_rows
from tests.conftest import PASSPHRASE


def message(soul, text: str) -> int:
    return soul.add("message", "user", session="s", role="user", content=text, created_at="2026")


def test_the_feed_says_what_changed_in_order_and_pruning_keeps_the_sequence(anima_home):
    with Home(anima_home).create(PASSPHRASE) as soul:
        assert vector_rows.has_feed(soul) and vector_rows.sequence(soul) == 0
        a, b = message(soul, "one"), message(soul, "two")
        soul.put_vectors("message", [a, b], "model", [[1.0, 0.0], [0.0, 1.0]])
        soul.forget("message", a)
        top = vector_rows.sequence(soul)
        assert vector_rows.changes(soul, 0) == [("message", b, "put"), ("message", a, "drop")]
        assert vector_rows.changes(soul, 0, top - 1) == [("message", b, "put")]
        with soul.transaction() as con:
            vector_rows.prune(con, top, made_by=int(time.time()) - 3600)  # none is that old: all stay
        assert len(vector_rows.changes(soul, 0)) == 2 and vector_rows.pruned_through(soul) == 0
        with soul.transaction() as con:
            vector_rows.prune(con, top - 1, made_by=int(time.time()) + 1)
        assert vector_rows.changes(soul, 0) == [("message", a, "drop")]
        assert vector_rows.pruned_through(soul) == top - 1 and vector_rows.sequence(soul) == top


def test_a_kept_graph_is_read_once_complete_and_one_missing_parts_is_retired_and_removed(anima_home):
    with Home(anima_home).create(PASSPHRASE) as soul:
        assert vector_rows.kept_graph(soul, "model", 2) is None
        with soul.transaction() as con:
            whole = vector_rows.begin_graph(con, "model", 2, 7, 2, '{"n": 1}', int(time.time()))
            vector_rows.add_graph_part(con, whole, 0, b"ab")
            vector_rows.add_graph_part(con, whole, 1, b"cd")
        assert vector_rows.kept_graph(soul, "model", 2) is None  # still being written
        with soul.transaction() as con:
            assert vector_rows.complete_graph(con, whole, "model", 2, 7, 2)
        assert vector_rows.kept_graph(soul, "model", 2) == vector_rows.KeptGraph(7, 2, '{"n": 1}', [b"ab", b"cd"])
        assert vector_rows.kept_graph(soul, "other model", 2) is None
        with soul.transaction() as con:
            short = vector_rows.begin_graph(con, "model", 2, 9, 3, "{}", int(time.time()))
            vector_rows.add_graph_part(con, short, 0, b"ef")
            assert not vector_rows.complete_graph(con, short, "model", 2, 9, 3)
        assert vector_rows.kept_graph(soul, "model", 2).through == 7
        assert vector_rows.graphs_to_remove(soul, begun_before=0) == [short]
        for n in vector_rows.graph_parts(soul, short):
            with soul.transaction() as con:
                vector_rows.remove_graph_part(con, short, n)
        with soul.transaction() as con:
            vector_rows.remove_graph(con, short)
        assert vector_rows.graphs_to_remove(soul, begun_before=int(time.time()) + 10) == []
