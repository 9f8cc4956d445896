"""Lexical recall in scripts written without spaces: Chinese and Japanese questions find what shares a word.

The fake embedder makes a whole run of Chinese one "word", so its vectors never
match a question worded differently: what is found here, the full-text side
found (bm25_rank 1).
"""

import pytest

from anima.knowledge.messages import NewMessage
from anima.retrieval import fts


@pytest.fixture
def mind(companion):
    m = companion.memories
    ids = {
        "coffee": m.remember("用户喜欢在周末喝咖啡"),
        "beijing": m.remember("用户住在北京，在医院当护士"),
        "bicycle": m.remember("她每天骑自行车上班"),
        "tama": m.remember("猫の名前はタマです"),
        "kyoto": m.remember("週末は京都で写真を撮る"),
        "cat": m.remember("Ada's cat is called Miso"),
        "hospital": m.remember("Ada works at the hospital in Leeds"),
    }
    return companion, ids


@pytest.mark.parametrize(
    "question, wanted",
    [
        ("你喜欢喝什么咖啡？", "coffee"),  # 咖啡, two characters
        ("你住在哪里？", "beijing"),  # 住在
        ("你有自行车吗", "bicycle"),  # 自行车, three
        ("猫の名前は何ですか", "tama"),  # 猫の名前
        ("京都で何をしましたか", "kyoto"),  # 京都
        ("Miso the cat?", "cat"),
    ],
)
def test_a_question_finds_the_memory_that_shares_a_word(mind, question, wanted):
    c, ids = mind
    found = c.recall(question, 3)
    assert found[0].key == ("memory", ids[wanted])
    assert found[0].components["bm25_rank"] == 1


def test_an_english_question_searches_as_before(mind):
    c, ids = mind
    assert fts.terms("Where does Ada work? 她在医院工作") == ["ada", "work", "她在", "在医", "医院", "院工", "工作"]
    hits = fts.search(c.soul, "where does Ada work", ["memory"])
    assert [key for key, _ in hits] == [("memory", ids["hospital"]), ("memory", ids["cat"])]
    assert fts.search(c.soul, "zzqx vorpal", ["memory"]) == []


def test_a_question_in_both_adds_up_what_each_index_finds(mind):
    c, ids = mind
    best = fts.search(c.soul, "hospital 医院", ["memory"])
    assert {key for key, _ in best[:2]} == {("memory", ids["hospital"]), ("memory", ids["beijing"])}
    c.memories.edit(ids["hospital"], "Ada works at the hospital 医院 in Leeds")  # now in both indexes
    key = ("memory", ids["hospital"])
    alone = [dict(fts.search(c.soul, q, ["memory"]))[key] for q in ("hospital", "医院")]
    assert dict(fts.search(c.soul, "hospital 医院", ["memory"]))[key] == pytest.approx(sum(alone))


def test_one_character_and_messages_are_found_too(mind):
    c, ids = mind
    assert fts.search(c.soul, "猫", ["memory"])[0][0] == ("memory", ids["tama"])
    [said] = c.messages.record_many([NewMessage("user", "我昨天在北京吃了烤鸭", "Ada")])
    c.messages.record_many([NewMessage("user", "I had duck yesterday", "Ada")])
    assert fts.search(c.soul, "烤鸭好吃吗？", ["message"])[0][0] == ("message", said)


def test_only_text_in_such_scripts_is_in_the_trigram_index_and_it_follows_edits_and_forgetting(mind):
    c, ids = mind
    held = {r["rowid"] for r in c.soul.query("SELECT rowid FROM memories_grams")}
    assert held == {ids[k] for k in ("coffee", "beijing", "bicycle", "tama", "kyoto")}
    c.memories.edit(ids["coffee"], "Ada likes coffee at the weekend")
    assert ("memory", ids["coffee"]) not in dict(fts.search(c.soul, "你喜欢喝什么咖啡？", ["memory"]))
    c.memories.edit(ids["cat"], "Ada's cat is called 小白")
    assert fts.search(c.soul, "小白是谁", ["memory"])[0][0] == ("memory", ids["cat"])
    c.forget("memory", ids["tama"])
    assert fts.search(c.soul, "猫の名前", ["memory"]) == []
    assert c.soul.query("SELECT rowid FROM memories_grams WHERE memories_grams MATCH '名前は'") == []


def test_in_a_large_table_common_pairs_leave_the_query(companion, monkeypatch):
    monkeypatch.setattr(fts, "COMMON_FROM_ITEMS", 50)
    c = companion
    c.messages.record_many(
        [NewMessage("user", f"我觉得今天很好，第{i}天", "Ada") for i in range(60)]
        + [NewMessage("user", "我觉得今天的烤鸭很好吃", "Ada")]
    )
    expr = fts.gram_expression(c.soul, "messages", ["我觉得烤鸭"])
    assert "烤鸭" in expr and "我觉" not in expr  # 我觉 is in every message
    assert "我觉" in fts.gram_expression(c.soul, "messages", ["我觉得"])  # nothing rarer: all


@pytest.mark.parametrize(
    "draft, text, same",
    [
        ("do you remember the painting I finished?", "do you remember the painting I finished? Say more.", True),
        ("who teaches me piano?", "who teaches me piano? Thanks!", True),
        ("who teaches me piano?", "who teaches me piano?", True),
        ("what did I say about", "what did I say about my sister?", False),  # a word that names something
        ("who tunes the pian", "who tunes the piano", False),  # the draft ended inside a word
        ("what happened", "what happened yesterday?", False),  # a time recall reads
        ("who teaches me piano?", "who teaches me guitar?", False),  # not the draft with words after it
        ("我的", "我的画", False),  # unspaced script: a new pair
        ("open my_file", "open my_file_x", False),  # one word goes on
        ("", "thanks", False),
    ],
)
def test_words_after_a_draft_that_search_for_nothing(draft, text, same):
    assert fts.adds_no_terms(draft, text) is same
