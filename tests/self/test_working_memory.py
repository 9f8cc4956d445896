"""Working memory: items a line, each held through its day; a person's undated line never lapses."""

from datetime import date

from anima.self import working_memory as wm


def test_an_item_is_held_through_its_day_and_gone_the_day_after():
    text = "- Ask how the presentation went (until 2026-05-14)\n- Water the plants\n- Call back (until 2026-05-12)"
    assert wm.held(text, date(2026, 5, 12)) == text  # nothing lapsed: the very same text (the floor stays)
    assert wm.held(text, date(2026, 5, 13)) == (
        "- Ask how the presentation went (until 2026-05-14)\n- Water the plants"
    )
    assert wm.held(text, date(2027, 1, 1)) == "- Water the plants"  # a person's line has no day to lapse on


def test_items_parse_render_and_a_new_one_is_held_one_to_fourteen_days():
    items = wm.parse("* Ask about Oslo (until 2026-05-12)\nplain line\n\n- Bad date (until 2026-02-30)")
    assert [(i.note, i.until) for i in items] == [
        ("Ask about Oslo", date(2026, 5, 12)),
        ("plain line", None),
        ("Bad date (until 2026-02-30)", None),
    ]
    assert wm.render(items[:2]) == "- Ask about Oslo (until 2026-05-12)\n- plain line"
    assert wm.item("  Check   in ", 30, date(2026, 5, 1)).line() == "- Check in (until 2026-05-15)"
    assert wm.item("Check in", 0, date(2026, 5, 1)).until == date(2026, 5, 2)


def test_the_floor_and_the_open_mind_never_show_a_lapsed_item(companion):
    c = companion
    c.self_model.write("working_memory", "- Ask about the exam (until 2026-05-14)", "ai")
    c.self_model.today = lambda: date(2026, 5, 14)
    assert "exam" in c.self_model.read().working_memory
    c.self_model.today = lambda: date(2026, 5, 15)
    assert c.self_model.read().working_memory == ""
    assert "exam" in c.self_model.stored("working_memory")  # until quick reflection prunes it
