"""A plain-text view of the mind, for a person to read: SELF.md and world/*.md.

This copy is NOT encrypted; the command that writes it says so.
"""

import re
from pathlib import Path

from ..store.soul import Soul
from .selfmodel import SelfModel

WARNING = ("This folder is a plain-text copy of the companion's mind. It is NOT encrypted: "
           "anyone who can read these files can read it.")


def _slug(title: str, used: set[str]) -> str:
    base = re.sub(r"[^\w-]+", "-", title.lower()).strip("-")[:60] or "card"
    slug, n = base, 2
    while slug in used:
        slug, n = f"{base}-{n}", n + 1
    used.add(slug)
    return slug


def write_markdown(soul: Soul, directory: Path) -> list[Path]:
    directory = Path(directory)
    (directory / "world").mkdir(parents=True, exist_ok=True)
    f = SelfModel(soul).read()
    name = soul.get_meta("name", "Anima")
    sections = [f"# {name}\n\n> {WARNING}", f"## Origin\n\n{f.origin}", f"## Guardrails\n\n{f.guardrails}"]
    for title, text in (("Persona", f.persona), ("Identity", f.identity), ("Inner state", f.inner_state),
                        ("Working memory", f.working_memory), ("Intentions", f.intentions),
                        ("What I know about the person", f.human)):
        sections.append(f"## {title}\n\n{text.strip() or '_(empty)_'}")
    growth = soul.query("SELECT at, entry FROM growth_log ORDER BY id")
    sections.append("## Growth log\n\n" + ("\n".join(f"- {g['at'][:10]}: {g['entry']}" for g in growth)
                                           or "_(empty)_"))
    facts = soul.query("SELECT content, source, valid_from, valid_to FROM memories ORDER BY valid_from")
    lines = [f"- {m['content']} ({m['source'].replace('_', ' ')}; {m['valid_from'][:10]} to "
             f"{(m['valid_to'] or 'now')[:10]})" for m in facts]
    sections.append("## Memories\n\n" + ("\n".join(lines) or "_(none)_"))
    written = [directory / "SELF.md"]
    written[0].write_text("\n\n".join(sections) + "\n", encoding="utf-8")
    used: set[str] = set()
    for card in soul.query("SELECT kind, title, body, keywords FROM world_cards ORDER BY kind, title"):
        path = directory / "world" / f"{_slug(card['title'], used)}.md"
        path.write_text(f"# {card['title']}\n\n_{card['kind']}_ · keywords: {card['keywords']}\n\n{card['body']}\n",
                        encoding="utf-8")
        written.append(path)
    return written
