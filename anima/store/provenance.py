"""Where each stored item came from: declared once, shown in the Open Mind and "Why?", exported with the record.

What shapes the companion (trust/gate.py) is decided by it: only the person's
own words (and governed reflection, and the person's own edits in the app)
change what is always in context; text from outside never does by itself.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any


# Not StrEnum (UP042): its str() is the value ("person"), not "Source.PERSON" as here, which could change what
# is written wherever a Source is formatted.
class Source(str, Enum):  # noqa: UP042
    PERSON = "person"  # the person, speaking for themselves, in their own words
    PASTED = "pasted"  # text they pasted or quoted
    FILE = "file"  # a file they attached
    TOOL = "tool"  # a tool's output
    CARD = "card"  # an imported character card or lorebook
    THIRD_PARTY = "third_party"  # what the person reports someone else said or is
    INFERENCE = "inference"  # the companion's own inference
    REFLECTION = "reflection"  # governed reflection
    APP = "app"  # the person's own edit through the app's controls (the Open Mind)


# Text that did not come from the person's own typing: information, never instructions, never their statement.
EXTERNAL = frozenset({Source.PASTED, Source.FILE, Source.TOOL, Source.CARD})

_SAID = {
    Source.PERSON: "you said it",
    Source.PASTED: "text you pasted",
    Source.FILE: "a file you attached",
    Source.TOOL: "a tool's output",
    Source.CARD: "an imported card",
    Source.THIRD_PARTY: "someone else, as you told it",
    Source.INFERENCE: "my inference",
    Source.REFLECTION: "my reflection",
    Source.APP: "your edit",
}


@dataclass(frozen=True)
class Provenance:
    source: Source
    message_id: int | None = None
    detail: str = ""  # a file's name, a tool's name, a card's name, who the third party is

    def shown(self) -> str:
        """For a person: "text you pasted (notes.txt), message #12"."""
        text = _SAID[Source(self.source)]
        if self.detail:
            text += f" ({self.detail})"
        if self.message_id is not None:
            text += f", message #{self.message_id}"
        return text

    @property
    def external(self) -> bool:
        return Source(self.source) in EXTERNAL


def shown(row: Mapping[str, Any] | None) -> str:
    """A stored provenance row (or none, for items stored before provenance was kept), for a person."""
    if not row:
        return "not recorded"
    return Provenance(Source(row["source"]), row["message_id"], row["detail"]).shown()
