"""One record of every kind, each carrying a canary string, for the tests that look for leaks."""

import json

NOW = "2026-11-29T10:00:00+00:00"


def fill(soul, canary: str = "CANARY") -> dict[str, int]:
    ids = {}
    ids["message"] = soul.add("message", "user", session="s1", role="user", content=f"{canary}-message", created_at=NOW)
    ids["memory"] = soul.add(
        "memory",
        "ai",
        kind="fact",
        content=f"{canary}-memory",
        source="user_stated",
        source_message_id=ids["message"],
        valid_from=NOW,
        created_at=NOW,
    )
    ids["episode"] = soul.add(
        "episode",
        "ai",
        summary=f"{canary}-episode",
        started_at=NOW,
        ended_at=NOW,
        emotional_arc="curious -> relieved",
        self_assessment=f"{canary}-assessment",
        created_at=NOW,
    )
    part = {
        "name": f"{canary}-part",
        "description": "I keep track of the tea the user likes.",
        "suggestions_and_results": [],
        "core_part": False,
        "needs_evaluation": False,
        "triggers": ["tea"],
        "phrases": [],
        "responses": [],
        "wants": [],
        "emotion": "warmth",
        "intensity": "Low",
        "personality": "Gentle.",
        "conclude_when": "never",
        "originating_event": {"timestamp": NOW, "result": "asked about tea"},
    }
    ids["part"] = soul.add("part", "ai", name=f"{canary}-part", data=json.dumps(part), created_at=NOW, updated_at=NOW)
    ids["prediction"] = soul.add(
        "prediction",
        "ai",
        part_id=ids["part"],
        suggestion=f"{canary}-suggestion",
        predicted_result=f"{canary}-prediction",
        confidence="70%",
        timeframe_s=3600,
        made_at=NOW,
        due_at=NOW,
    )
    ids["growth_log"] = soul.add("growth_log", "ai", at=NOW, entry=f"{canary}-growth")
    ids["rule"] = soul.add("rule", "ai", pattern=f"{canary}-rule", confidence=0.6, derived_at=NOW)
    ids["signal"] = soul.add(
        "signal", "ai", message_id=ids["message"], signal=f"{canary}-signal", evidence=f"{canary}-evidence", at=NOW
    )
    ids["world_card"] = soul.add(
        "world_card",
        "user",
        kind="person",
        title=f"{canary}-card",
        body=f"{canary}-card-body",
        keywords=json.dumps([f"{canary}-keyword"]),
        created_at=NOW,
        updated_at=NOW,
    )
    identity = soul.query("SELECT id FROM self_model WHERE section = 'identity'")[0]["id"]
    soul.update("self_model", identity, "ai", content=f"{canary}-identity", updated_at=NOW)
    human = soul.query("SELECT id FROM blocks WHERE name = 'human'")[0]["id"]
    soul.update("block", human, "user", content=f"{canary}-human", updated_at=NOW)
    soul.set_meta("name", f"{canary}-name")
    soul.put_vector("memory", ids["memory"], "test", [0.25] * 384)
    soul.cite("rule", ids["rule"], "memory", ids["memory"])
    soul.cite("growth_log", ids["growth_log"], "memory", ids["memory"])
    soul.cite("self_model", identity, "memory", ids["memory"])
    soul.cite("episode", ids["episode"], "message", ids["message"])
    ids["self_model"] = identity
    return ids
