"""Character cards and lorebooks written the way SillyTavern and the apps that share its formats write them."""

import base64
import json

from anima.interchange import png_text

PICTURE = png_text.plain(4, 6, (200, 120, 40))


def book(*entries) -> dict:
    return {
        "name": "Eldoria",
        "description": "",
        "scan_depth": 4,
        "token_budget": 512,
        "recursive_scanning": False,
        "extensions": {},
        "entries": list(entries),
    }


def entry(i, keys, content, **more) -> dict:
    return {
        "id": i,
        "keys": keys,
        "secondary_keys": [],
        "comment": f"entry {i}",
        "content": content,
        "constant": False,
        "selective": True,
        "insertion_order": 100 + i,
        "enabled": True,
        "position": "before_char",
        "use_regex": True,
        "extensions": {"position": 0, "depth": 4, "probability": 100},
        **more,
    }


def v2(**data) -> dict:
    base = {
        "name": "Mira",
        "description": "{{char}} is a lighthouse keeper on a windy island. She collects "
        "sea glass and names every gull.",
        "personality": "Patient, dry humour, curious about {{user}}.",
        "scenario": "{{user}} arrives on the supply boat.",
        "first_mes": "*waves from the rocks* Hello, {{user}}! You must be the new supply runner.",
        "mes_example": "<START>\n{{user}}: Hi\n{{char}}: Ahoy.",
        "creator_notes": "Best with a slow pace.",
        "system_prompt": "Write in the third person.",
        "post_history_instructions": "Keep replies short.",
        "alternate_greetings": ["*lights the lamp* Evening."],
        "tags": ["sea", "cozy"],
        "creator": "someone",
        "character_version": "1.2",
        "extensions": {"talkativeness": "0.5", "world": "Eldoria"},
        "character_book": book(entry(0, ["Saltmarsh"], "Saltmarsh is the village across the bay.")),
    }
    base.update(data)
    return {"spec": "chara_card_v2", "spec_version": "2.0", "data": base}


def v3(**data) -> dict:
    card = v2(**data)
    card["spec"], card["spec_version"] = "chara_card_v3", "3.0"
    card["data"].update(
        {
            "nickname": "Mi",
            "group_only_greetings": [],
            "creation_date": 1700000000,
            "assets": [{"type": "icon", "uri": "ccdefault:", "name": "main", "ext": "png"}],
            "a_field_from_the_future": {"x": 1},
        }
    )
    return card


def png(card: dict | None, keyword: str = "chara", extra: dict | None = None) -> bytes:
    texts = dict(extra or {})
    if card is not None:
        texts[keyword] = base64.b64encode(json.dumps(card).encode("utf-8")).decode("ascii")
    return png_text.with_texts(PICTURE, texts) if texts else PICTURE


def world_info(*entries) -> dict:
    return {"entries": {str(e["uid"]): e for e in entries}}


def wi_entry(uid, keys, content, disable=False, **more) -> dict:
    return {
        "uid": uid,
        "key": keys,
        "keysecondary": [],
        "comment": f"lore {uid}",
        "content": content,
        "constant": False,
        "vectorized": False,
        "selective": True,
        "selectiveLogic": 0,
        "addMemo": True,
        "order": 100,
        "position": 0,
        "disable": disable,
        "excludeRecursion": False,
        "probability": 100,
        "useProbability": True,
        "depth": 4,
        "group": "",
        "displayIndex": uid,
        "sticky": 0,
        **more,
    }
