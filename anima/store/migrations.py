"""Append-only schema migrations, each a small function, recorded in the file.

Never edit or reorder a migration that has shipped: add a new one at the end.
A file whose recorded version is newer than the last migration here was
written by a newer Anima and is refused, untouched.
"""

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime

import sqlcipher3
from sqlcipher3 import complete_statement as sqlite_complete

from ..errors import NewerSchema
from .sections import Kept, kept_in


def m001_soul(con: sqlcipher3.Connection) -> None:
    """The soul: everything the companion is and knows."""
    run_script(
        con,
        """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        session TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'companion', 'system')),
        speaker TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX messages_session ON messages(session, id);

    CREATE TABLE memories (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('fact', 'preference')),
        content TEXT NOT NULL CHECK (length(trim(content)) > 0),
        -- who said it and how: the user stated it, the companion inferred it,
        -- or it came from untrusted outside text
        source TEXT NOT NULL CHECK (source IN ('user_stated', 'inferred', 'untrusted')),
        source_message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
        importance REAL NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
        valid_from TEXT NOT NULL,
        valid_to TEXT,
        superseded_by INTEGER REFERENCES memories(id) ON DELETE SET NULL,
        suppression REAL NOT NULL DEFAULT 0 CHECK (suppression BETWEEN 0 AND 1),
        loads INTEGER NOT NULL DEFAULT 0,
        uses INTEGER NOT NULL DEFAULT 0,
        last_used_at TEXT,
        needs_regeneration INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
    );

    CREATE TABLE episodes (
        id INTEGER PRIMARY KEY,
        summary TEXT NOT NULL CHECK (length(trim(summary)) > 0),
        started_at TEXT NOT NULL,
        ended_at TEXT NOT NULL,
        emotional_arc TEXT NOT NULL DEFAULT '',
        significance REAL NOT NULL DEFAULT 0.5 CHECK (significance BETWEEN 0 AND 1),
        self_assessment TEXT NOT NULL DEFAULT '',
        needs_regeneration INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
    );

    -- A part is the JSON object of seed 000's part schema, kept whole.
    CREATE TABLE parts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
        data TEXT NOT NULL CHECK (json_valid(data) AND json_type(data) = 'object'),
        archived INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );

    CREATE TABLE predictions (
        id INTEGER PRIMARY KEY,
        part_id INTEGER NOT NULL REFERENCES parts(id) ON DELETE CASCADE,
        suggestion TEXT NOT NULL,
        predicted_result TEXT NOT NULL,
        confidence TEXT NOT NULL,
        timeframe_s INTEGER NOT NULL CHECK (timeframe_s >= 0),
        made_at TEXT NOT NULL,
        due_at TEXT NOT NULL,
        result TEXT,
        evaluated_at TEXT
    );
    CREATE INDEX predictions_due ON predictions(due_at) WHERE evaluated_at IS NULL;

    CREATE TABLE self_model (
        id INTEGER PRIMARY KEY,
        section TEXT NOT NULL UNIQUE CHECK (section IN ('identity', 'inner_state', 'working_memory', 'intentions')),
        content TEXT NOT NULL DEFAULT '',
        needs_regeneration INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
    );

    -- Persona and the human block: the editable blocks of the SELF floor.
    -- (Origin and guardrails ship with the app and are not stored.)
    CREATE TABLE blocks (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE CHECK (name IN ('persona', 'human')),
        content TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL
    );

    CREATE TABLE growth_log (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        entry TEXT NOT NULL CHECK (length(trim(entry)) > 0),
        needs_regeneration INTEGER NOT NULL DEFAULT 0
    );

    CREATE TABLE behavioral_rules (
        id INTEGER PRIMARY KEY,
        pattern TEXT NOT NULL CHECK (length(trim(pattern)) > 0),
        confidence REAL NOT NULL DEFAULT 0.5 CHECK (confidence BETWEEN 0 AND 1),
        derived_at TEXT NOT NULL,
        retired_at TEXT,
        needs_regeneration INTEGER NOT NULL DEFAULT 0
    );

    CREATE TABLE emotional_signals (
        id INTEGER PRIMARY KEY,
        message_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
        signal TEXT NOT NULL,
        evidence TEXT NOT NULL,
        at TEXT NOT NULL
    );

    CREATE TABLE world_cards (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'place', 'situation', 'project', 'platform', 'thread')),
        title TEXT NOT NULL CHECK (length(trim(title)) > 0),
        body TEXT NOT NULL CHECK (length(trim(body)) > 0),
        keywords TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(keywords) AND json_type(keywords) = 'array'),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );

    -- What cites what: a rule's evidence, a growth-log entry's, a self-model
    -- section's, an episode's messages. Forgetting an item deletes its links
    -- and flags the owners for regeneration.
    CREATE TABLE evidence (
        owner_kind TEXT NOT NULL,
        owner_id INTEGER NOT NULL,
        item_kind TEXT NOT NULL,
        item_id INTEGER NOT NULL,
        PRIMARY KEY (owner_kind, owner_id, item_kind, item_id)
    );
    CREATE INDEX evidence_item ON evidence(item_kind, item_id);

    CREATE TABLE embeddings (
        item_kind TEXT NOT NULL,
        item_id INTEGER NOT NULL,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL CHECK (length(vector) = 4 * dim),
        PRIMARY KEY (item_kind, item_id)
    );

    CREATE TABLE edit_history (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL CHECK (actor IN ('user', 'ai')),
        item_kind TEXT NOT NULL,
        item_id INTEGER NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
        before TEXT CHECK (before IS NULL OR json_valid(before)),
        after TEXT CHECK (after IS NULL OR json_valid(after))
    );
    CREATE INDEX edit_history_item ON edit_history(item_kind, item_id);

    -- Present (one row) only inside a user's forget transaction: the one
    -- time the growth log may lose a row.
    CREATE TABLE forget_gate (open INTEGER PRIMARY KEY CHECK (open = 1));

    CREATE TRIGGER growth_log_append_only BEFORE UPDATE OF at, entry ON growth_log
    BEGIN SELECT RAISE(ABORT, 'the growth log is append-only'); END;
    CREATE TRIGGER growth_log_no_delete BEFORE DELETE ON growth_log
    WHEN NOT EXISTS (SELECT 1 FROM forget_gate)
    BEGIN SELECT RAISE(ABORT, 'the growth log is append-only'); END;
    """,
    )
    now = _now()
    # A row for each section kept in a table (store/sections.py). A section added there later needs a migration
    # that lets its table hold it (the CHECKs above name each) and adds its row.
    for section in kept_in(Kept.SECTION):
        con.execute("INSERT INTO self_model(section, content, updated_at) VALUES (?, '', ?)", (section, now))
    for name in kept_in(Kept.BLOCK):
        con.execute("INSERT INTO blocks(name, content, updated_at) VALUES (?, '', ?)", (name, now))


def _neighbours(id_expr: str, session_expr: str) -> str:
    """SQL for a message's context key: the text of the turns just before and after it in its session."""
    return (
        f"coalesce((SELECT content FROM messages WHERE session = {session_expr} AND id < {id_expr} "
        f"ORDER BY id DESC LIMIT 1), '') || ' ' || "
        f"coalesce((SELECT content FROM messages WHERE session = {session_expr} AND id > {id_expr} "
        f"ORDER BY id LIMIT 1), '')"
    )


def _refresh_context(which: str, ref: str) -> str:
    """An UPDATE of one neighbour's context key; `which` is '<' (the one before) or '>' (the one after)."""
    order = "DESC" if which == "<" else ""
    target = (
        f"(SELECT id FROM messages WHERE session = {ref}.session AND id {which} {ref}.id ORDER BY id {order} LIMIT 1)"
    )
    return (
        f"UPDATE messages_fts SET context = {_neighbours('messages_fts.rowid', f'{ref}.session')} "
        f"WHERE rowid = {target};"
    )


@contextlib.contextmanager
def messages_indexed_after(con: sqlcipher3.Connection) -> Iterator[None]:
    """Messages inserted into an empty table in bulk (an import) get their full-text rows once, after the last,
    not one by one: each insert's trigger also rewrites the message before it (its context key), and at 100,000
    messages that took ~40 s of an import's ~55 (measured on two cores). In the caller's transaction: a failure
    rolls the dropped trigger back with the rest."""
    trigger = con.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_ai'"
    ).fetchone()
    if trigger is None:  # a schema before full text (m002)
        yield
        return
    if con.execute("SELECT 1 FROM messages LIMIT 1").fetchone():
        raise ValueError("messages are indexed after a bulk insert only into an empty table")
    con.execute("DROP TRIGGER messages_fts_ai")
    yield
    con.execute(
        "INSERT INTO messages_fts(rowid, speaker, content, context) "
        f"SELECT m.id, m.speaker, m.content, {_neighbours('m.id', 'm.session')} FROM messages AS m"
    )
    con.execute(trigger[0])


def m002_full_text(con: sqlcipher3.Connection) -> None:
    """FTS5 (BM25) over what recall searches, kept in step by triggers, inside the encrypted file.

    A message is found by its own words and by its neighbours' (the turn before
    and the turn after, in its session): an answer like "Yes, last Sunday" is
    found through the question it answers. So messages_fts keeps its own
    content, and forgetting a message also rewrites its neighbours' keys.
    """
    # Each backslash joins a statement's two lines: the schema's text is the one that shipped.
    run_script(
        con,
        """
    CREATE VIRTUAL TABLE messages_fts USING fts5(speaker, content, context, \
tokenize='porter unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE memories_fts USING fts5(content, content='memories', content_rowid='id', \
tokenize='porter unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE episodes_fts USING fts5(summary, content='episodes', content_rowid='id', \
tokenize='porter unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE world_cards_fts USING fts5(title, body, keywords, content='world_cards', content_rowid='id', \
tokenize='porter unicode61 remove_diacritics 2');
    """,
    )
    run_script(
        con,
        f"""
    CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, speaker, content, context)
            VALUES (new.id, new.speaker, new.content, {_neighbours("new.id", "new.session")});
        {_refresh_context("<", "new")}
    END;
    CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN
        DELETE FROM messages_fts WHERE rowid = old.id;
        {_refresh_context("<", "old")}
        {_refresh_context(">", "old")}
    END;
    CREATE TRIGGER messages_fts_au AFTER UPDATE OF speaker, content ON messages BEGIN
        UPDATE messages_fts SET speaker = new.speaker, content = new.content WHERE rowid = new.id;
        {_refresh_context("<", "new")}
        {_refresh_context(">", "new")}
    END;
    INSERT INTO messages_fts(rowid, speaker, content, context)
        SELECT m.id, m.speaker, m.content, {_neighbours("m.id", "m.session")} FROM messages AS m;
    """,
    )
    for table, cols in _M002_FTS_COLUMNS.items():
        if table == "messages":
            continue
        new = ", ".join(f"new.{c}" for c in cols)
        old = ", ".join(f"old.{c}" for c in cols)
        names = ", ".join(cols)
        run_script(
            con,
            f"""
        CREATE TRIGGER {table}_fts_ai AFTER INSERT ON {table} BEGIN
            INSERT INTO {table}_fts(rowid, {names}) VALUES (new.id, {new}); END;
        CREATE TRIGGER {table}_fts_ad AFTER DELETE ON {table} BEGIN
            INSERT INTO {table}_fts({table}_fts, rowid, {names}) VALUES ('delete', old.id, {old}); END;
        CREATE TRIGGER {table}_fts_au AFTER UPDATE OF {names} ON {table} BEGIN
            INSERT INTO {table}_fts({table}_fts, rowid, {names}) VALUES ('delete', old.id, {old});
            INSERT INTO {table}_fts(rowid, {names}) VALUES (new.id, {new}); END;
        INSERT INTO {table}_fts({table}_fts) VALUES ('rebuild');
        """,
        )


def m003_workspace_record(con: sqlcipher3.Connection) -> None:
    """What each reply's workspace held and why: the "why did you recall that" of the window."""
    run_script(
        con,
        """
    CREATE TABLE recalls (
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        item_kind TEXT NOT NULL,
        item_id INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        score REAL NOT NULL,
        components TEXT NOT NULL CHECK (json_valid(components)),
        PRIMARY KEY (message_id, item_kind, item_id)
    );
    CREATE INDEX recalls_item ON recalls(item_kind, item_id);
    """,
    )


# As m002 shipped them (the registry, store/kinds.py, may grow; a shipped migration never changes).
_M002_FTS_COLUMNS = {
    "messages": ("speaker", "content", "context"),
    "memories": ("content",),
    "episodes": ("summary",),
    "world_cards": ("title", "body", "keywords"),
}

# Scripts written without spaces between words, as m004 shipped them (code point ranges): Thai, Lao, Tibetan,
# Myanmar, Khmer, the ideographic iteration marks, Hiragana, Katakana, Han (and its extensions), halfwidth Katakana.
UNSPACED_RANGES = (
    (0x0E00, 0x0EFF),
    (0x0F00, 0x0FFF),
    (0x1000, 0x109F),
    (0x1780, 0x17FF),
    (0x3005, 0x3007),
    (0x3040, 0x30FF),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x3134F),
)
# Each text's own words, as m004 shipped them (a message's context key, its neighbours' words, is not its own).
_M004_GRAM_COLUMNS = {
    "messages": ("speaker", "content"),
    "memories": ("content",),
    "episodes": ("summary",),
    "world_cards": ("title", "body", "keywords"),
}
# Two characters after each text, so every character of it begins a trigram: a search for one or two characters
# then looks up the trigrams that begin with them (retrieval/fts.py).
GRAM_END = "  "


def m004_unspaced_scripts(con: sqlcipher3.Connection) -> None:
    """A trigram index beside the stemmed one, for text in scripts written without spaces.

    FTS5's unicode61 tokenizer keeps a run of Chinese, Japanese or Thai as one
    token, and the Porter stemmer is English, so "咖啡" in a question never
    matched "我喜欢喝咖啡" in a memory. {table}_grams holds, in trigrams, the
    own words of the rows that contain such characters, and only those: a
    soul written in English pays one GLOB per written row and stores nothing.
    """
    script = "".join(f"{chr(a)}-{chr(b)}" for a, b in UNSPACED_RANGES)
    for table, cols in _M004_GRAM_COLUMNS.items():
        names = ", ".join(cols)

        def has_unspaced(row: str, cols: tuple[str, ...] = cols) -> str:
            return " OR ".join(f"{row}.{c} GLOB '*[{script}]*'" for c in cols)

        def ended(row: str, cols: tuple[str, ...] = cols) -> str:
            return ", ".join(f"{row}.{c} || '{GRAM_END}'" for c in cols)

        run_script(
            con,
            f"""
        CREATE VIRTUAL TABLE {table}_grams USING fts5({names}, tokenize='trigram');
        CREATE TRIGGER {table}_grams_ai AFTER INSERT ON {table} WHEN {has_unspaced("new")} BEGIN
            INSERT INTO {table}_grams(rowid, {names}) VALUES (new.id, {ended("new")}); END;
        CREATE TRIGGER {table}_grams_ad AFTER DELETE ON {table} BEGIN
            DELETE FROM {table}_grams WHERE rowid = old.id; END;
        CREATE TRIGGER {table}_grams_au AFTER UPDATE OF {names} ON {table} BEGIN
            DELETE FROM {table}_grams WHERE rowid = old.id;
            INSERT INTO {table}_grams(rowid, {names}) SELECT new.id, {ended("new")} WHERE {has_unspaced("new")}; END;
        INSERT INTO {table}_grams(rowid, {names}) SELECT id, {ended(table)} FROM {table} WHERE {has_unspaced(table)};
        """,
        )


def m005_provenance_and_proposals(con: sqlcipher3.Connection) -> None:
    """Where everything came from, and the changes that wait for the person's say (the trust gate).

    provenance: one row per item of any kind: who it came from (the person in
    their own words, text they pasted, a file, a tool, a card, a third party
    they report, the companion's inference, reflection, the person's own edit
    in the app) and the message it came from. Items stored before this
    migration have none; they read as "not recorded".

    proposals: a change to what is always in context or steers behaviour that
    the gate did not apply (trust/gate.py): pending until the person accepts or
    rejects it in the Open Mind.
    """
    run_script(
        con,
        """
    CREATE TABLE provenance (
        item_kind TEXT NOT NULL,
        item_id INTEGER NOT NULL,
        source TEXT NOT NULL,
        message_id INTEGER,
        detail TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (item_kind, item_id)
    );
    CREATE INDEX provenance_message ON provenance(message_id);

    CREATE TABLE proposals (
        id INTEGER PRIMARY KEY,
        target TEXT NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('add', 'replace', 'rewrite')),
        content TEXT NOT NULL CHECK (length(trim(content)) > 0),
        replaces TEXT,
        reason TEXT NOT NULL,
        source TEXT NOT NULL,
        message_id INTEGER,
        detail TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
        created_at TEXT NOT NULL,
        resolved_at TEXT
    );
    CREATE INDEX proposals_pending ON proposals(status, id);
    """,
    )


def m006_signal_dimensions(con: sqlcipher3.Connection) -> None:
    """An emotional signal as a reading along dimensions, with how sure and on what evidence (seed 003, 4.2, 4.5).

    valence (-1..1), arousal (0..1) and dominance (0..1) are the reading; `signal`
    stays its label, derived in context. confidence (0..1) and evidence_type
    (their explicit statement, their wording, their behaviour) say how much it
    may weigh; trajectory is computed by code against the earlier signals
    (escalating, easing, stable, shifted; empty when there was none to compare).
    Signals written before this migration have none of these.
    """
    run_script(
        con,
        """
    ALTER TABLE emotional_signals ADD COLUMN valence REAL CHECK (valence IS NULL OR valence BETWEEN -1 AND 1);
    ALTER TABLE emotional_signals ADD COLUMN arousal REAL CHECK (arousal IS NULL OR arousal BETWEEN 0 AND 1);
    ALTER TABLE emotional_signals ADD COLUMN dominance REAL CHECK (dominance IS NULL OR dominance BETWEEN 0 AND 1);
    ALTER TABLE emotional_signals ADD COLUMN confidence REAL CHECK (confidence IS NULL OR confidence BETWEEN 0 AND 1);
    ALTER TABLE emotional_signals ADD COLUMN evidence_type TEXT
        CHECK (evidence_type IS NULL OR evidence_type IN ('explicit', 'wording', 'behaviour'));
    ALTER TABLE emotional_signals ADD COLUMN trajectory TEXT
        CHECK (trajectory IS NULL OR trajectory IN ('escalating', 'easing', 'stable', 'shifted'));
    CREATE INDEX emotional_signals_at ON emotional_signals(at);
    """,
    )


def m007_part_lineage(con: sqlcipher3.Connection) -> None:
    """A part's lineage, beside it: the parts it was split or merged from (seed 000, split / merge).

    {"from": [part ids], "how": "split" | "merge"}, or {} for a part born on its
    own (every part stored before this migration). Only the runtime writes it
    (parts/parts.py); a patch to the part never reaches it.
    """
    run_script(
        con,
        """
    ALTER TABLE parts ADD COLUMN lineage TEXT NOT NULL DEFAULT '{}'
        CHECK (json_valid(lineage) AND json_type(lineage) = 'object');
    """,
    )


def m008_rule_evidence(con: sqlcipher3.Connection) -> None:
    """A behavioural rule's evidence, counted both ways (seed 003, 6.2): the exchanges that support it and those
    that contradict it. Which messages they were is in `evidence` (cite); its confidence follows from these two
    (knowledge/rules.py), and it is in force only once enough support has come in."""
    run_script(
        con,
        """
    ALTER TABLE behavioral_rules ADD COLUMN support INTEGER NOT NULL DEFAULT 0 CHECK (support >= 0);
    ALTER TABLE behavioral_rules ADD COLUMN against INTEGER NOT NULL DEFAULT 0 CHECK (against >= 0);
    """,
    )


def m009_bids(con: sqlcipher3.Connection) -> None:
    """The bids a reply weighed (seed 000, "One turn"): each activated part's focus, suggestion and prediction,
    and whether the Self followed it, for the "Why?" of the reply. A bid goes with the reply that weighed it,
    the message it was made for, and the part that made it (forgetting any of them removes it); a followed
    bid's prediction is in `predictions`."""
    run_script(
        con,
        """
    CREATE TABLE bids (
        id INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        about_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
        part_id INTEGER NOT NULL REFERENCES parts(id) ON DELETE CASCADE,
        rank INTEGER NOT NULL,
        focus TEXT NOT NULL,
        suggestion TEXT NOT NULL,
        predicted_result TEXT NOT NULL,
        confidence TEXT NOT NULL,
        timeframe_s INTEGER NOT NULL CHECK (timeframe_s >= 0),
        followed INTEGER NOT NULL CHECK (followed IN (0, 1)),
        prediction_id INTEGER REFERENCES predictions(id) ON DELETE SET NULL,
        made_at TEXT NOT NULL
    );
    CREATE INDEX bids_message ON bids(message_id);
    CREATE INDEX bids_part ON bids(part_id);
    """,
    )


def m010_character_cards(con: sqlcipher3.Connection) -> None:
    """Character cards and lorebooks (SillyTavern's chara_card_v2 / v3 and World Info; interchange/cards.py).

    A world card gains `enabled` (a lorebook's disabled entry comes in disabled: the clerk never wakes it) and
    `options`: what a lorebook entry says beyond its keys and text (secondary keys and their logic, constant,
    order, position, case sensitivity, its id, name and extensions), kept so an export gives it back; {} for a
    card written in Anima.

    character_cards: each imported card, its fields kept whole as JSON (`data`: the card's own field names;
    its lorebook's entries are world cards, not here), the persona that was made from it (`persona`: export
    knows whether the person changed it since), and its picture (`avatar`: base64 PNG, '' for none).
    """
    run_script(
        con,
        """
    ALTER TABLE world_cards ADD COLUMN enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1));
    ALTER TABLE world_cards ADD COLUMN options TEXT NOT NULL DEFAULT '{}'
        CHECK (json_valid(options) AND json_type(options) = 'object');
    CREATE TABLE character_cards (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
        spec TEXT NOT NULL,
        data TEXT NOT NULL CHECK (json_valid(data) AND json_type(data) = 'object'),
        persona TEXT NOT NULL DEFAULT '',
        avatar TEXT NOT NULL DEFAULT '',
        imported_at TEXT NOT NULL
    );
    """,
    )


def m011_vector_feed(con: sqlcipher3.Connection) -> None:
    """What other programs on the same soul need to keep their in-memory vector index in step, and the built
    approximate index kept inside the encrypted file (retrieval/indexer.py, retrieval/snapshot.py).

    vector_feed: one row per stored vector changed (put) or removed (drop), in commit order (`seq`), written by
    triggers on `embeddings`, so every path that writes a vector (a turn, an import, re-indexing, a forget)
    feeds it. Only the newest row of an item is kept: an older one says nothing the newer does not. `at`: when
    (Unix seconds), so old rows can be pruned once a saved index holds them (vector_state.pruned_through).

    vector_snapshots / vector_snapshot_parts: the built hnswlib graph, in parts of at most 1 MiB, written by a
    background job and read at unlock instead of building the graph again. It holds the graph's links and which
    item each node is, never a vector (those are in `embeddings`, read at unlock): a forgotten item's vector is
    in no blob. `through`: the feed's seq it reflects; `state`: 'writing' until every part is written, then
    'complete' (the one read at unlock), then 'retired' once a newer one is complete (and removed).

    None of these is carried by an export: they are remade from the embeddings.
    """
    run_script(
        con,
        """
    CREATE TABLE vector_feed (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        item_kind TEXT NOT NULL,
        item_id INTEGER NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('put', 'drop')),
        at INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
    );
    CREATE INDEX vector_feed_item ON vector_feed(item_kind, item_id);

    CREATE TRIGGER embeddings_feed_insert AFTER INSERT ON embeddings BEGIN
        DELETE FROM vector_feed WHERE item_kind = new.item_kind AND item_id = new.item_id;
        INSERT INTO vector_feed(item_kind, item_id, op) VALUES (new.item_kind, new.item_id, 'put');
    END;
    CREATE TRIGGER embeddings_feed_update AFTER UPDATE ON embeddings BEGIN
        DELETE FROM vector_feed WHERE (item_kind = old.item_kind AND item_id = old.item_id)
            OR (item_kind = new.item_kind AND item_id = new.item_id);
        INSERT INTO vector_feed(item_kind, item_id, op)
            SELECT old.item_kind, old.item_id, 'drop'
            WHERE old.item_kind != new.item_kind OR old.item_id != new.item_id;
        INSERT INTO vector_feed(item_kind, item_id, op) VALUES (new.item_kind, new.item_id, 'put');
    END;
    CREATE TRIGGER embeddings_feed_delete AFTER DELETE ON embeddings BEGIN
        DELETE FROM vector_feed WHERE item_kind = old.item_kind AND item_id = old.item_id;
        INSERT INTO vector_feed(item_kind, item_id, op) VALUES (old.item_kind, old.item_id, 'drop');
    END;

    CREATE TABLE vector_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT INTO vector_state VALUES ('pruned_through', 0);

    CREATE TABLE vector_snapshots (
        id INTEGER PRIMARY KEY,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        through INTEGER NOT NULL,
        parts INTEGER NOT NULL,
        header TEXT NOT NULL CHECK (json_valid(header)),
        state TEXT NOT NULL DEFAULT 'writing' CHECK (state IN ('writing', 'complete', 'retired')),
        made_at INTEGER NOT NULL
    );
    CREATE TABLE vector_snapshot_parts (
        snapshot_id INTEGER NOT NULL REFERENCES vector_snapshots(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (snapshot_id, n)
    );
    """,
    )


def m012_evidence_stance(con: sqlcipher3.Connection) -> None:
    """Which way a message bears on a behavioural rule, 'for' or 'against' (NULL for every other owner's
    evidence, and for a rule's evidence cited before this, whose direction was not kept). A rule's support then
    counts conversations, not messages (seed 003, 6.1: "three conversations where you interrupted"): a second
    piece of feedback in a conversation that already spoke for a rule is cited, and not counted again."""
    run_script(
        con,
        """
    ALTER TABLE evidence ADD COLUMN stance TEXT CHECK (stance IS NULL OR stance IN ('for', 'against'));
    """,
    )


# meta: the soul holds character cards stored before an import kept a card without what must not be kept
# (m013_cards_to_keep); the mind removes it once it has kept them so.
CARDS_TO_KEEP = "cards_to_keep"


def m013_cards_to_keep(con: sqlcipher3.Connection) -> None:
    """Character cards stored whole, before an import left out a card's secrets, trackers and words that make the
    companion answer to someone else (interchange/card_kept.py): marked to be kept as a card imported now is.

    What is left out is the mind's judgement, and the store does not import the mind: this marks a soul that holds
    a card, or the edit history of one, and the mind does the rest when it opens the soul
    (card_kept.keep_stored: each card's data and its edits' old and new values as kept, in one transaction that
    also removes the mark, then the file scrubbed as after a forget). A soul with no card is not marked."""
    con.execute(
        "INSERT OR IGNORE INTO meta(key, value) SELECT ?, '1' WHERE EXISTS (SELECT 1 FROM character_cards) "
        "OR EXISTS (SELECT 1 FROM edit_history WHERE item_kind = 'character_card')",
        (CARDS_TO_KEEP,),
    )


def m014_actions_branches(con: sqlcipher3.Connection) -> None:
    """Versions of a message (a reply made again, a message edited and sent again), which one the conversation
    goes on from, and how a reply ended when it did not end by itself (knowledge/branches.py). Each row goes with
    its message when that is forgotten."""
    run_script(
        con,
        """
    CREATE TABLE message_versions (
        message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        slot INTEGER NOT NULL,
        follows INTEGER
    );
    CREATE INDEX message_versions_slot ON message_versions(slot);
    CREATE TABLE version_chosen (
        slot INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        chosen_at TEXT NOT NULL
    );
    CREATE INDEX version_chosen_message ON version_chosen(message_id);
    CREATE TABLE reply_endings (
        message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
        ending TEXT NOT NULL CHECK (ending IN ('stopped', 'cut_off'))
    );
    """,
    )


def m015_conversations(con: sqlcipher3.Connection) -> None:
    """Conversations: each session is one, listed newest first with its last activity and how many messages it
    holds (issue 39). Triggers keep the list in step with the messages, whoever writes them (the window, the
    terminal, an import), so listing 200 conversations never counts 10,000 messages.

    `title`: the person's name for it, or the model's for its first exchange; NULL reads as the first line of the
    person's first message (knowledge/conversations.py). `titled_upto`: the last message the model's title was
    made from: forgetting any message up to it clears that title, which may hold its words (a rename, the
    person's own words, is kept). A conversation whose last message goes goes with it. Existing sessions become
    conversations here, untitled."""
    run_script(
        con,
        """
    CREATE TABLE conversations (
        session TEXT PRIMARY KEY,
        title TEXT,
        titled_upto INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        messages INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX conversations_updated ON conversations(updated_at, session);
    INSERT INTO conversations(session, created_at, updated_at, messages)
        SELECT session, min(created_at), max(created_at), count(*) FROM messages GROUP BY session;
    CREATE TRIGGER conversations_ai AFTER INSERT ON messages BEGIN
        INSERT INTO conversations(session, created_at, updated_at, messages)
            VALUES (new.session, new.created_at, new.created_at, 1)
            ON CONFLICT(session) DO UPDATE SET
                updated_at = max(updated_at, excluded.updated_at), messages = messages + 1;
    END;
    CREATE TRIGGER conversations_ad AFTER DELETE ON messages BEGIN
        UPDATE conversations SET
            messages = messages - 1,
            title = CASE WHEN old.id <= titled_upto THEN NULL ELSE title END,
            titled_upto = CASE WHEN old.id <= titled_upto THEN NULL ELSE titled_upto END
            WHERE session = old.session;
        DELETE FROM conversations WHERE session = old.session AND messages <= 0;
    END;
    """,
    )


MIGRATIONS = (
    m001_soul,
    m002_full_text,
    m003_workspace_record,
    m004_unspaced_scripts,
    m005_provenance_and_proposals,
    m006_signal_dimensions,
    m007_part_lineage,
    m008_rule_evidence,
    m009_bids,
    m010_character_cards,
    m011_vector_feed,
    m012_evidence_stance,
    m013_cards_to_keep,
    m014_actions_branches,
    m015_conversations,
)
SCHEMA_VERSION = len(MIGRATIONS)


def run_script(con: sqlcipher3.Connection, script: str) -> None:
    """Run statements one by one inside the caller's transaction (executescript would commit first)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite_complete(pending):
            con.execute(pending)
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement in migration: {pending!r}")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def current_version(con: sqlcipher3.Connection) -> int:
    con.execute("""CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)""")
    row = con.execute("SELECT max(version) FROM schema_migrations").fetchone()
    return row[0] or 0


def migrate(con: sqlcipher3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to `target`, one recorded transaction per migration."""
    version = current_version(con)
    if version > SCHEMA_VERSION:
        raise NewerSchema(
            f"This soul was written by a newer Anima (schema {version}; this one knows up to "
            f"{SCHEMA_VERSION}). Update Anima to open it; the file was not changed."
        )
    for number in range(version + 1, target + 1):
        step = MIGRATIONS[number - 1]
        con.execute("BEGIN IMMEDIATE")
        try:
            if current_version(con) >= number:  # another program opening this soul applied it meanwhile
                con.execute("COMMIT")
                continue
            step(con)
            con.execute(
                "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                (number, step.__name__, _now()),
            )
            con.execute("COMMIT")
        except BaseException:
            # After a full disk SQLite has already rolled back: a second ROLLBACK would fail and hide why.
            if con.in_transaction:
                with contextlib.suppress(sqlcipher3.Error):
                    con.execute("ROLLBACK")
            raise
    return max(version, target)
