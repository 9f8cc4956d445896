import pytest

from anima.models.chat import Capabilities
from anima.models.fake import FakeChatModel
from anima.models.structured import StructuredOutputFailed, UncappedSchema, ask_structured, check_caps
from anima.parts.part import PART_CREATION_SCHEMA, PART_SCHEMA

SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["mood", "reasons"],
    "properties": {
        "mood": {"type": "string", "maxLength": 20},
        "reasons": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 50}},
    },
}
ASK = [{"role": "user", "content": "How do they seem?"}]


def test_a_valid_reply_comes_back_as_an_object():
    model = FakeChatModel().enqueue('Sure! ```json\n{"mood": "calm", "reasons": ["slow replies"]}\n```')
    assert ask_structured(model, ASK, SCHEMA) == {"mood": "calm", "reasons": ["slow replies"]}
    assert len(model.history) == 1
    assert model.history[0]["schema"] == SCHEMA


def test_control_characters_inside_strings_are_accepted():
    model = FakeChatModel().enqueue('{"mood": "calm\tbut\ntired", "reasons": []}')
    assert ask_structured(model, ASK, SCHEMA)["mood"] == "calm\tbut\ntired"


def test_the_model_is_shown_its_error_and_a_second_try_can_succeed():
    model = FakeChatModel().enqueue('{"mood": "calm"}', '{"mood": "calm", "reasons": ["it said so"]}')
    assert ask_structured(model, ASK, SCHEMA)["reasons"] == ["it said so"]
    retry_prompt = model.history[1]["messages"][-1]["content"]
    assert "reasons" in retry_prompt and "not valid" in retry_prompt


def test_each_retry_samples_warmer():
    model = FakeChatModel().enqueue("no", "still no", '{"mood": "calm", "reasons": []}')
    ask_structured(model, ASK, SCHEMA, temperature=0.2, retries=2)
    assert [h["temperature"] for h in model.history] == pytest.approx([0.2, 0.45, 0.7])


def test_an_ask_for_names_only_names_fields_where_decoding_keeps_to_the_schema_and_elsewhere_describes_them():
    # The bundled model copied what a field was said to hold into the answer (models/structured.py's outline).
    described = {
        **SCHEMA,
        "properties": {
            **SCHEMA["properties"],
            "mood": {"type": "string", "description": "how they seem", "maxLength": 20},
        },
    }
    shown = {}
    for constrained, names_only in ((True, True), (False, True), (True, False)):
        model = FakeChatModel(Capabilities(schema_constrained=constrained))
        ask_structured(model.enqueue('{"mood": "calm", "reasons": []}'), ASK, described, names_only=names_only)
        shown[constrained, names_only] = model.history[0]["messages"][-1]["content"].splitlines()
    assert "- mood" in shown[True, True] and "- reasons: a list" in shown[True, True]
    assert not any("how they seem" in line or "at most" in line for line in shown[True, True])
    for described_and_capped in (shown[False, True], shown[True, False]):
        assert "- mood: how they seem (at most 20 characters)" in described_and_capped
        assert "- reasons: a list of at most 3 short strings" in described_and_capped  # not described


@pytest.mark.parametrize(
    "replies",
    [
        ["not json at all"] * 3,
        ['{"mood": "calm"}'] * 3,  # missing a required field
        ['{"mood": "calm", "reasons": [], "extra": 1}'] * 3,  # a field that is not in the schema
        ['{"mood": "' + "a" * 100 + '", "reasons": []}'] * 3,  # over its cap
        ['{"mood": "' + "loop " * 100_000] * 3,  # endless text
    ],
)
def test_bad_replies_fail_cleanly_after_the_retries_with_the_raw_text_kept(replies):
    model = FakeChatModel().enqueue(*replies)
    with pytest.raises(StructuredOutputFailed, match="after 3 tries") as failed:
        ask_structured(model, ASK, SCHEMA, retries=2)
    assert len(failed.value.attempts) == 3
    assert all(a.raw for a in failed.value.attempts)
    assert len(model.history) == 3
    # Every call was capped: endless text stops at the token cap.
    assert all(h["max_tokens"] <= 2048 for h in model.history)
    assert all(len(a.raw.split()) <= model.history[0]["max_tokens"] for a in failed.value.attempts)


@pytest.mark.parametrize(
    "reply, why",
    [
        ('{"mood": ' + "[" * 5000 + "]" * 5000 + "}", "nests more than 64 levels deep"),  # json itself would recurse
        ('{"mood": ' + "[" * 65 + "]" * 65 + ', "reasons": []}', "nests more than 64 levels deep"),
        ('{"mood": "calm \\ud800", "reasons": []}', "half of a surrogate pair"),  # no UTF-8 can hold it
        ('{"mood": "calm", "reasons": [], "n": ' + "9" * 5000 + "}", "a number too long to read"),
        ('{"mood": NaN, "reasons": []}', "NaN, which is not a number"),
    ],
)
def test_a_reply_json_cannot_keep_is_malformed_like_any_invalid_one(reply, why):
    model = FakeChatModel().enqueue(reply, reply, reply)
    with pytest.raises(StructuredOutputFailed, match="after 3 tries") as failed:
        ask_structured(model, ASK, SCHEMA, retries=2)
    assert all(why in a.error for a in failed.value.attempts)
    assert why in model.history[1]["messages"][-1]["content"]  # the model is told what was wrong


def test_a_whole_number_written_as_a_float_comes_back_an_int_where_the_schema_says_integer():
    schema = {
        "type": "object",
        "additionalProperties": False,
        "required": ["pick", "notes", "weight"],
        "properties": {
            "pick": {"type": "array", "maxItems": 3, "items": {"type": "integer", "enum": [1, 2, 3]}},
            "notes": {
                "type": "array",
                "maxItems": 2,
                "items": {
                    "anyOf": [
                        {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["line"],
                            "properties": {"line": {"type": "integer", "minimum": 1, "maximum": 9}},
                        },
                        {"type": "string", "maxLength": 9},
                    ]
                },
            },
            "weight": {"type": "number"},
        },
    }
    model = FakeChatModel().enqueue('{"pick": [2.0, 3], "notes": [{"line": 4.0}, "x"], "weight": 2.0}')
    got = ask_structured(model, ASK, schema)
    assert got == {"pick": [2, 3], "notes": [{"line": 4}, "x"], "weight": 2.0}
    assert [type(i) for i in got["pick"]] == [int, int] and type(got["notes"][0]["line"]) is int
    assert ["a", "b", "c"][got["pick"][0]] == "c"  # an index, as code uses it
    assert type(got["weight"]) is float  # a number stays what it was written as


def test_schemas_without_caps_are_refused_before_any_call():
    with pytest.raises(UncappedSchema, match="maxLength"):
        check_caps({"type": "object", "properties": {"x": {"type": "string"}}})
    with pytest.raises(UncappedSchema, match="maxItems"):
        check_caps(
            {"type": "object", "properties": {"x": {"type": "array", "items": {"type": "string", "maxLength": 3}}}}
        )
    with pytest.raises(UncappedSchema, match=r"llama\.cpp"):  # its grammar refuses it, by crashing the process
        check_caps({"type": "object", "properties": {"x": {"type": "string", "maxLength": 1200}}})
    check_caps(PART_SCHEMA)
    check_caps(PART_CREATION_SCHEMA)
