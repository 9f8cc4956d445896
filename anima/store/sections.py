"""The sections of the self, declared once (as store/kinds.py declares the kinds of record).

The SELF floor is made of these texts: what the companion is (origin and guardrails, shipped), who it is (persona,
identity, intentions), what it has learned helps the person (the rules in force), what it knows of them (the human
block) and what it holds for now (working memory, the inner state). The migrations (which rows there are), the self
model (where each is kept, its cap), the gate (what it guards, and how full a section is), the workspace (what is
always in the prompt, under which heading, in which order), the exports and the Open Mind (each section's title and
limit) all read this table; none of them writes a name's title or cap out again.

The order is the floor's: from the most stable text to the most volatile, so that the prefix the model computed
stays valid longest (workspace/assemble.py).
"""

from dataclasses import dataclass
from enum import Enum


class Writer(Enum):
    """Who may write a section."""

    # The person, and governed reflection, through the gate (trust/gate.py): the person's own edits and their own
    # words about themselves apply, the rest waits as a proposal. What is always in context and steers behaviour.
    GOVERNED = "governed"
    # The companion's own reflection writes it as it is (quick reflection), and so does the person's edit.
    OWN = "own"
    # Nobody: shipped with the app (origin, guardrails), or made from other records (the rules in force).
    NEVER = "never"


class Kept(Enum):
    """Where a section's text is kept (the value: the table, or the folder it ships in)."""

    SHIPPED = "resources"  # a file in anima/resources, read-only
    BLOCK = "blocks"  # a row of the blocks table
    SECTION = "self_model"  # a row of the self_model table
    RULES = "behavioral_rules"  # the behavioural rules in force, one a line (knowledge/rules.py)


@dataclass(frozen=True)
class Section:
    name: str  # "human": how code, the proposals, the edit history and SelfFloor name it
    title: str  # how a person reads its name in a sentence ("the human block was changed")
    heading: str  # its heading in the prompt, the companion's own ("What I know about the person")
    shown: str | None  # its heading in the Open Mind, said to the person ("What I know about you"); None: not there
    cap: int | None  # at most this many characters (a person sees them); None: not written as text
    writer: Writer
    kept: Kept
    always: bool = True  # always in the prompt, in the floor (else in a turn's note, when it changed)
    lined: bool = False  # kept as lines ("- fact"): learning adds and replaces lines


_ALL = (
    Section("origin", "origin", "Who I am", "Origin", None, Writer.NEVER, Kept.SHIPPED),
    Section("guardrails", "guardrails", "My guardrails", "Guardrails", None, Writer.NEVER, Kept.SHIPPED),
    Section("persona", "persona", "My persona", "My persona", 1200, Writer.GOVERNED, Kept.BLOCK),
    Section(
        "identity",
        "identity",
        "Who I am in this relationship",
        "Who I am with you",
        1200,
        Writer.GOVERNED,
        Kept.SECTION,
    ),
    Section(
        "intentions",
        "intentions",
        "What I am trying to do",
        "What I am trying to do",
        800,
        Writer.GOVERNED,
        Kept.SECTION,
    ),
    # The Open Mind shows the rules in a view of their own, with their evidence.
    Section(
        "rules", "behavioural rules", "What I have learned helps them", None, None, Writer.NEVER, Kept.RULES, lined=True
    ),
    Section(
        "human",
        "human block",
        "What I know about the person",
        "What I know about you",
        1200,
        Writer.GOVERNED,
        Kept.BLOCK,
        lined=True,
    ),
    Section(
        "working_memory",
        "working memory",
        "What I am holding for a few days",
        "What I hold for a few days",
        800,
        Writer.OWN,
        Kept.SECTION,
        lined=True,
    ),
    # In a turn's note when it changed, not in the floor: it changes after nearly every turn.
    Section(
        "inner_state", "inner state", "On my mind", "What is on my mind", 600, Writer.OWN, Kept.SECTION, always=False
    ),
)

# Read at the time of use, never copied: a test may put another entry in its place.
SECTIONS: dict[str, Section] = {s.name: s for s in _ALL}
# Names only (an entry's other fields are read from SECTIONS when used).
GATED: tuple[str, ...] = tuple(s.name for s in _ALL if s.writer is Writer.GOVERNED)
WRITTEN: tuple[str, ...] = tuple(s.name for s in _ALL if s.writer is not Writer.NEVER)  # each with a cap
ALWAYS: tuple[str, ...] = tuple(s.name for s in _ALL if s.always)


def section(name: str) -> Section:
    try:
        return SECTIONS[name]
    except KeyError:
        raise ValueError(f"unknown section of the self: {name!r}") from None


def kept_in(kept: Kept) -> tuple[str, ...]:
    """The sections kept in one place: the rows of a table, the files shipped."""
    return tuple(s.name for s in _ALL if s.kept is kept)


def cap(name: str) -> int:
    """How many characters a written section holds at most."""
    most = section(name).cap
    if most is None:
        raise ValueError(f"{name!r} is not written as text")
    return most


def title(name: str) -> str:
    """How a person reads a section's name in a sentence ("human block", "working memory")."""
    return section(name).title
