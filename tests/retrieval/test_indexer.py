"""The indexer on a real encrypted soul: an item and its vector go together; the feed that keeps several
programs' indexes in step (here two connections in one process: tests/store/test_two_programs.py has two real
processes); the built graph kept in the soul, without a single vector."""

import hashlib
import logging
import shutil
import threading

import numpy as np
import pytest
import sqlcipher3

from anima.errors import DiskFull
from anima.knowledge.memories import Memories
from anima.knowledge.messages import Messages, NewMessage
from anima.knowledge.world import WorldCards
from anima.models.fake import FakeEmbedder
from anima.retrieval import snapshot
from anima.retrieval.indexer import Indexer
from anima.retrieval.recall import Recall
from anima.retrieval.vectors import VectorIndex
from anima.store import Home
from anima.store import soul as soul_module
from tests.conftest import PASSPHRASE, until

WORDS = (
    "apple banana cherry dog eagle falcon grape house island jungle kite lemon mango night ocean piano "
    "queen river sun tree violin window yarn zebra amber basil cedar delta ember fjord"
).split()


def texts(n: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, 6)) + f" number{i}" for i in range(n)]


class DenseEmbedder(FakeEmbedder):
    """Each text a dense random unit vector, seeded by the text: no run of zeros to be mistaken for it."""

    name = "dense-fake"

    def embed_batch(self, texts: list[str]) -> np.ndarray:
        out = []
        for t in texts:
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).normal(size=self.dim).astype(np.float32)
            out.append(v / np.linalg.norm(v))
        return np.vstack(out)


def any_piece_in(vector: bytes, blob: bytes) -> bool:
    """Whether any 16 bytes of a vector (four of its numbers) are anywhere in a blob."""
    return any(vector[i : i + 16] in blob for i in range(0, len(vector), 4))


def opened(home: Home, embedder=None) -> tuple:
    soul = home.unlock(PASSPHRASE)
    indexer = Indexer(soul, embedder or FakeEmbedder())
    indexer.load()
    return soul, indexer, Messages(soul, indexer)


def counts(soul) -> tuple[int, int]:
    return (
        soul.query("SELECT count(*) AS n FROM messages")[0]["n"],
        soul.query("SELECT count(*) AS n FROM embeddings WHERE item_kind = 'message'")[0]["n"],
    )


@pytest.fixture
def home(anima_home):
    h = Home(anima_home)
    h.create(PASSPHRASE).close()
    return h


@pytest.fixture
def small_graphs(monkeypatch):
    """The graph takes over from a few hundred vectors, so building it takes a fraction of a second; its shards
    are small, so a few hundred vectors make several (as 100,000 do at the real size)."""
    monkeypatch.setattr(VectorIndex, "APPROXIMATE_FROM", 300)
    monkeypatch.setattr(VectorIndex, "SHARD", 128)


# ---- a message and its vector go together ---------------------------------------------------------------------


class _FullAtVectors(sqlcipher3.Connection):
    """A real connection on which storing a vector fails as SQLite fails on a full disk (SQLITE_FULL)."""

    def executemany(self, sql, *args):
        if sql.startswith("INSERT INTO embeddings"):
            e = sqlcipher3.OperationalError("database or disk is full")
            e.sqlite_errorcode = 13
            raise e
        return super().executemany(sql, *args)


def test_a_full_disk_at_the_vectors_leaves_no_message_without_its_vector(home, monkeypatch):
    real = sqlcipher3.connect
    soul, indexer, messages = opened(home)
    messages.record("user", "kept before the disk filled")
    soul.close()
    monkeypatch.setattr(soul_module.sqlcipher3, "connect", lambda *a, **k: real(*a, factory=_FullAtVectors, **k))
    soul, indexer, messages = opened(home)
    with pytest.raises(DiskFull, match="nothing of this change was saved"):
        messages.record_many([NewMessage("user", "one"), NewMessage("user", "two")])
    with pytest.raises(DiskFull):
        Memories(soul, indexer).remember("Ada's cat is called Miso")
    with pytest.raises(DiskFull):
        WorldCards(soul, indexer).create("place", "Leeds", "A city in the north")
    assert counts(soul) == (1, 1)
    assert soul.query("SELECT count(*) AS n FROM memories")[0]["n"] == 0
    assert soul.query("SELECT count(*) AS n FROM world_cards")[0]["n"] == 0
    assert len(indexer.index) == 1  # nothing that was not stored is in the index either
    soul.close()


def test_a_full_disk_while_indexing_at_opening_is_told_in_a_line_not_a_traceback(home, monkeypatch):
    """Items with no vector for this embedder are indexed in the background as the soul opens: a full disk there
    stopped the indexer's thread with a traceback on the terminal (the window's bug dialog)."""
    real = sqlcipher3.connect
    soul, indexer, messages = opened(home)
    messages.record("user", "said before the disk filled")
    soul.close()
    monkeypatch.setattr(soul_module.sqlcipher3, "connect", lambda *a, **k: real(*a, factory=_FullAtVectors, **k))
    raised, told = [], []
    monkeypatch.setattr(threading, "excepthook", raised.append)
    soul = home.unlock(PASSPHRASE)
    indexer = Indexer(soul, DenseEmbedder())  # another embedder: the message has no vector of its
    indexer.start(told=told.append).join()
    assert raised == []
    assert len(told) == 1 and told[0].startswith("Indexing for recall by meaning stopped: The disk is full")
    assert counts(soul) == (1, 1)  # the message and the first embedder's vector, as they were
    soul.close()


def test_on_a_really_full_disk_every_message_kept_has_its_vector(small_disk):
    """Room for the messages but not for their vectors, and less: a turn that fails saves neither (when the
    two were separate transactions, 98 KiB free kept 40 messages and none of their vectors)."""
    failed = 0
    for leave in (64, 96, 128, 160, 192):
        home = Home(small_disk / f"home{leave}")
        home.create(PASSPHRASE).close()
        soul, _indexer, messages = opened(home)
        messages.record("user", "first")
        soul.query("PRAGMA wal_checkpoint(TRUNCATE)")
        filler = small_disk / "filler"
        with open(filler, "wb") as f:
            f.write(b"\0" * (shutil.disk_usage(small_disk).free - leave * 1024))
        try:
            messages.record_many([NewMessage("user", f"message {i} " + "word " * 30) for i in range(40)])
        except DiskFull:
            failed += 1
            assert counts(soul) == (1, 1), f"{leave} KiB free"
        else:
            assert counts(soul) == (41, 41)
        filler.unlink()
        soul.close()
        shutil.rmtree(home.dir)
    assert failed  # the disk really was full for some of them


# ---- the feed: what another connection stored or forgot --------------------------------------------------------


def test_what_another_connection_stores_and_forgets_is_in_step_at_the_next_recall(home):
    soul_a, indexer_a, _ = opened(home)
    recall = Recall(soul_a, indexer_a)
    soul_b, indexer_b, messages_b = opened(home)
    mid = messages_b.record("user", "The marmalade needs seville oranges")
    assert indexer_a.index.vector(("message", mid)) is None  # nothing read yet
    found = {r.key: r for r in recall.search("seville marmalade", 5)}
    assert found[("message", mid)].components["vector_rank"] == 1
    soul_b.forget("message", mid)
    assert ("message", mid) not in {r.key for r in recall.search("seville marmalade", 5)}
    assert indexer_a.index.vector(("message", mid)) is None and len(indexer_a.index) == 0
    # A memory edited elsewhere: its new vector replaces the old one here.
    memory = Memories(soul_b, indexer_b)
    m = memory.remember("Ada's cat is called Miso")
    recall.search("cat", 5)
    memory.edit(m, "Ada's dog is called Pretzel")
    recall.search("dog", 5)
    assert np.allclose(indexer_a.index.vector(("memory", m)), FakeEmbedder().embed("Ada's dog is called Pretzel"))
    soul_a.close()
    soul_b.close()


def test_re_indexing_an_item_another_program_forgot_meanwhile_stores_no_vector_of_it(home, monkeypatch):
    """Re-indexing reads the items without a vector, embeds them (seconds, for many), then stores their vectors:
    an item the other program forgot in between must not get one (a vector with no item, that nothing removes)."""
    soul_a, indexer_a, messages_a = opened(home)
    soul_b, _, _ = opened(home)
    kept = messages_a.record("user", "The harbour froze over")
    gone = messages_a.record("user", "Quillonby rang about the boat")
    soul_a.query("DELETE FROM embeddings")  # as a full disk leaves them: stored without their vectors
    real = indexer_a.embed

    def embed(kind, rows):
        vectors = real(kind, rows)
        if any(r["id"] == gone for r in rows):
            soul_b.forget("message", gone)  # the other program, while this one embeds
        return vectors

    monkeypatch.setattr(indexer_a, "embed", embed)
    assert indexer_a.reindex_missing() == 2
    stored = {(r["item_kind"], r["item_id"]) for r in soul_a.query("SELECT item_kind, item_id FROM embeddings")}
    assert stored == {("message", kept)}
    indexer_a.catch_up()  # what a recall does first
    assert indexer_a.index.vector(("message", gone)) is None and indexer_a.index.vector(("message", kept)) is not None
    soul_a.close()
    soul_b.close()


def test_with_nobody_else_writing_a_recall_reads_no_feed(home, monkeypatch):
    soul, indexer, messages = opened(home)
    messages.record_many([NewMessage("user", t) for t in texts(20)])
    assert indexer._applied == indexer._sequence()  # its own writes need no reading back
    seen = []
    real = soul.query
    monkeypatch.setattr(soul, "query", lambda sql, params=(): seen.append(sql) or real(sql, params))
    indexer.catch_up()
    assert seen == ["PRAGMA data_version"]
    soul.close()


def test_a_message_stored_inside_a_callers_transaction_joins_the_index_only_if_it_commits(home):
    soul, indexer, messages = opened(home)
    recall = Recall(soul, indexer)
    with pytest.raises(RuntimeError):
        with soul.transaction():
            gone = messages.record("user", "a walrus in the garden")
            raise RuntimeError("the caller's transaction fails")
    with soul.transaction():
        kept = messages.record("user", "a walrus in the garden")
    assert gone == kept or indexer.index.vector(("message", gone)) is None
    found = {r.key for r in recall.search("walrus garden", 5)}
    assert found == {("message", kept)} and len(indexer.index) == 1
    soul.close()


def test_a_program_that_missed_pruned_changes_reads_its_index_again(home, small_graphs, monkeypatch):
    soul_a, indexer_a, _ = opened(home)
    soul_b, indexer_b, messages_b = opened(home)
    monkeypatch.setattr(Indexer, "PRUNE_AFTER_S", -1)  # prune at once
    ids = messages_b.record_many([NewMessage("user", t) for t in texts(400)])
    indexer_b.index.build()
    assert indexer_b.save()
    assert soul_b.query("SELECT count(*) AS n FROM vector_feed")[0]["n"] == 0  # all pruned
    soul_b.forget("message", ids[0])
    indexer_a.catch_up()  # behind what was pruned: it reads again, in the background
    indexer_a._loader.join()
    assert len(indexer_a.index) == 399 and indexer_a.index.vector(("message", ids[0])) is None
    assert indexer_a.index.approximate  # from the graph b kept
    soul_a.close()
    soul_b.close()


# ---- the graph kept in the soul ---------------------------------------------------------------------------------


def kept_blob(soul) -> bytes:
    return b"".join(r["data"] for r in soul.query("SELECT data FROM vector_snapshot_parts ORDER BY snapshot_id, n"))


def test_the_built_graph_is_kept_read_back_and_caught_up(home, small_graphs, caplog):
    soul, indexer, messages = opened(home)
    ids = messages.record_many([NewMessage("user", t) for t in texts(500)])
    until(lambda: soul.query("SELECT 1 FROM vector_snapshots WHERE state = 'complete'"), what="the graph kept")
    queries = [FakeEmbedder().embed(t) for t in texts(20, seed=1)]
    later = messages.record("user", "apple apple apple after the graph was kept")
    soul.forget("message", ids[3])
    indexer._unsaved = 0  # as if nothing changed: the kept graph is older than the soul now
    indexer.close()
    soul.close()
    with caplog.at_level(logging.INFO, logger="anima.retrieval"):
        soul, indexer, _ = opened(home)
    assert "read from the soul: 500 vectors, 2 changed" in caplog.text  # not built again
    assert indexer.index.approximate and len(indexer.index) == 500
    assert indexer.index.vector(("message", ids[3])) is None and indexer.index.vector(("message", later)) is not None
    indexer.index.wait_graphed(10)
    assert indexer.index.search(FakeEmbedder().embed("apple apple apple"), 1)[0][0] == ("message", later)
    after = [indexer.index.search(q, 10) for q in queries]
    exact = [indexer.index.search(q, 10, exact=True) for q in queries]
    # Bag-of-words vectors tie often: the graph is as good as exact when it finds as close ones.
    as_close = np.mean([np.mean([s >= e[-1][1] - 1e-6 for _, s in a]) for a, e in zip(after, exact, strict=True)])
    assert as_close >= 0.95
    soul.close()


def test_no_vector_is_in_the_kept_graph_so_a_forgotten_one_is_in_no_blob(home, small_graphs):
    soul, indexer, messages = opened(home, DenseEmbedder())
    ids = messages.record_many([NewMessage("user", t) for t in texts(400)])
    indexer.index.build()
    indexer.save()
    forgotten = indexer.index.vector(("message", ids[7])).astype("<f4").tobytes()
    kept = indexer.index.vector(("message", ids[8])).astype("<f4").tobytes()
    blob = kept_blob(soul)
    assert len(blob) > 400 * 100 and not any_piece_in(kept, blob) and not any_piece_in(forgotten, blob)
    soul.forget("message", ids[7])
    indexer.save()
    assert not any_piece_in(forgotten, kept_blob(soul))
    assert soul.query("SELECT count(*) AS n FROM vector_snapshots")[0]["n"] == 1  # the older one is gone
    soul.close()
    # And it works: the graph read back finds what it held, and not what was forgotten.
    soul, indexer, _ = opened(home, DenseEmbedder())
    assert indexer.index.approximate and indexer.index.vector(("message", ids[7])) is None
    assert indexer.index.search(np.frombuffer(kept, dtype="<f4"), 1)[0][0] == ("message", ids[8])
    soul.close()


def test_a_damaged_kept_graph_is_built_again(home, small_graphs, caplog):
    soul, indexer, messages = opened(home)
    messages.record_many([NewMessage("user", t) for t in texts(400)])
    indexer.index.build()
    indexer.save()
    with soul.transaction() as con:
        con.execute("UPDATE vector_snapshots SET header = json_set(header, '$.state.dim', 12)")
    soul.close()
    with caplog.at_level(logging.WARNING, logger="anima.retrieval"):
        soul, indexer, _ = opened(home)
    assert "cannot be used" in caplog.text and len(indexer.index) == 400
    until(lambda: indexer.index.approximate, what="the graph read back")
    soul.close()


def test_snapshot_format_round_trip_holds_no_vector(monkeypatch):
    monkeypatch.setattr(VectorIndex, "SHARD", 256)  # three shards, the last not full
    rng = np.random.default_rng(3)
    data = rng.normal(size=(600, 384)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    index = VectorIndex(384)
    keys = [("memory", i) for i in range(600)]
    index.add_many(keys, data)
    index.build()
    index.remove(("memory", 5))
    header, payload = snapshot.pack(*index.snapshot())
    assert not any(any_piece_in(data[i].tobytes(), payload) for i in range(0, 600, 50))
    states, got, shard = snapshot.unpack(header, payload, 384)
    assert got[5] is None and got[6] == ("memory", 6)
    rows = [("memory", i, data[i].tobytes()) for i in range(600) if i != 5]
    again = VectorIndex(384)
    again.restore(states, got, rows, shard=shard)
    assert again.approximate and len(again) == 599
    # Read back a shard at a time, each no larger than it was kept (hnswlib holds the GIL while it reads one).
    assert [s.get_current_count() for s in again._shards] == [256, 256, 88]
    for q in data[:30]:
        assert again.search(q, 10) == index.search(q, 10)
    for other in (1, 99):  # format 1 kept one graph whole: it is built again, as shards
        with pytest.raises(snapshot.BadSnapshot):
            snapshot.unpack({**header, "format": other}, payload, 384)
    with pytest.raises(snapshot.BadSnapshot):
        snapshot.unpack(header, payload[:1000], 384)


def test_the_garbage_collector_waits_while_the_vectors_are_read_back_and_runs_again_after(home, monkeypatch):
    """Reading back a big soul's vectors made objects enough to set the collector off hundreds of times, each
    holding the GIL while the window waited to paint: it is held off for the read, and on again after it, also
    when the read fails."""
    import gc

    soul, indexer, messages = opened(home)
    messages.record("user", "a message with its vector")
    soul.close()
    for fails in (False, True):
        seen: list[bool] = []
        real = Indexer.load

        def load(self, fails=fails, seen=seen, real=real):
            seen.append(gc.isenabled())
            if fails:
                raise DiskFull("vectors")
            return real(self)

        monkeypatch.setattr(Indexer, "load", load)
        soul = home.unlock(PASSPHRASE)
        indexer = Indexer(soul, FakeEmbedder())
        assert gc.isenabled()
        indexer.start().join()
        assert seen == [False] and gc.isenabled()
        assert fails or len(indexer.index) == 1
        soul.close()
