"""Learning about the person during the conversation: the update_human_memory step (seed 003, "the human layer").

When the person says something about themselves, the companion writes it down
at once, with no reflection cycle: each new fact becomes a memory (stated by
the user, citing their message) and a line of the human block, and a fact that
changes a line supersedes the memory behind that line, so the old one keeps its
dates and the change is recorded. Every line goes through the gate
(trust/gate.py): what is not the person's own statement about themselves waits
for their say as a proposal, and a secret is never written.

The model decides what was stated, through a schema (constrained decoding). A
small model guesses, so its guesses are checked against the text: most of a
fact's content words must come from the messages it was read from, and it
replaces a line only when the two share a word; otherwise it is added, so a
bad guess is never destructive.

The step remembers the last message it read (meta `human_read_through`), so a
step pre-empted by a turn is picked up by the next one, messages included.
"""

import logging
import re
import threading
from typing import Any

from ..knowledge.memories import Memories
from ..knowledge.messages import own_words, said_before
from ..models.chat import ChatModel, Message
from ..models.structured import StructuredOutputFailed, ask_structured
from ..retrieval.fts import stems
from ..self.feelings import FEELING_WORDS
from ..self.selfmodel import SelfModel
from ..store.provenance import Provenance, Source
from ..store.soul import Soul
from ..trust import secrets
from ..trust.gate import Gate, block_lines
from ..trust.kin import KIN
from ..trust.verdict import Change, Verdict, unfit
from .statements import CORRECTS, facts_in, name_line, near, slot, stated_name, statements, states_nothing

log = logging.getLogger(__name__)


def dropped(what: str, why: str) -> None:
    """A model's answer left out, and why (the log holds no message text: only the reason)."""
    log.info("learning left out %s: %s", what, why)


FACT_CHARS = 160
FACTS_PER_STEP = 3
MESSAGES_PER_STEP = 4
READ_THROUGH = "human_read_through"

# Only a message that speaks of its writer can state something about them; the rest costs no model call.
# The person's voice, in English and in the languages most written in Latin letters (French, German, Spanish,
# Italian, Portuguese, Dutch): read in any of them (the gate's checks, in English, decide what waits for them).
# Chat drops the "I" ("Got the job!!!", "Moved to Bristol yesterday", "ive just moved"): a sentence that opens
# with what happened to its writer speaks of them too.
SPEAKS_OF_SELF = re.compile(
    r"\b(i|i'm|im|i've|ive|i'd|i'll|my|mine|me|myself|we|we're|our|call me)\b|"
    r"\b(?:j['’]|je|moi|mon|ma|mes|ich|mein|meine|meinen|mich|mir|yo|mis|mío|mía|io|mio|mia|miei|eu|meu|minha|"
    r"ik|mijn)\b|(?:^|[.!?]\s+)(?:(?:just|finally|"
    r"(?:lol|omg|ok|so|well|guess what)\W*)\s*)*(?:got|moved|started|finished|passed|quit|lost|bought|adopted|went|met|"
    r"became|married|joined|left|graduated|turned|booked|found|had|broke|failed|won|signed|landed|retired|"
    r"starting|moving|getting|going|off to|back from|just|new|first)\b",
    re.I,
)

INSTRUCTIONS = (
    "List the facts the person states about themselves in their messages below: their name, work, family, pets, "
    "home, plans, likes. Each fact in a few words. If a fact changes one of your numbered notes, replaces is "
    "that note's number; otherwise 0."
)
_HIDDEN = re.compile(r"<!--.*?(?:-->|$)", re.S)
# A fact must be mostly their own words: a small model otherwise writes down a life nobody described.
GROUNDED = 0.6

# Someone else's state, as the person tells it ("Alex is stressed about work", "My sister Jo seems tired"): the
# person's account, not a fact about that person (seed 003, 13.7), kept as "Ada mentioned that ..." and never in
# the human block, which is about them. "My partner is Sam" or "My sister is called Jo" is about them.
_RELATIONS = rf"(?i:{KIN}s?)"
_NAME = r"[A-Z][a-z][\w'’-]*"  # "Alex", "Jo"; not "PIN" or "BA1234"
_OTHER = re.compile(
    rf"^(?:(?i:my|her|his|their)\s+)?(?P<who>{_RELATIONS}(?:\s+{_NAME})?|{_NAME}(?:\s+{_NAME})?)\s+"
    r"(?P<verb>(?P<seems>(?i:seems?|seemed|feels?|felt|looks?|looked|sounds?|sounded|thinks?|thought|hates?|loves?|"
    r"wants?|doesn['’]?t|does\s+not|didn['’]?t|can['’]?t))|(?i:is|was|are|were|has\s+been|had\s+been|gets?|got|"
    r"became|becomes))\s+(?P<rest>.+)$"
)
_ONLY_A_NAME = re.compile(rf"^(?:(?i:called|named)\s+)?{_NAME}(?:\s+{_NAME})?\.?$")
_PRONOUNS = {"i", "she", "he", "they", "we", "it", "this", "that", "there"}
# Words a line about the person opens with that look like a name only by their capital: "Really wants a dog",
# "Still loves skateboarding", "Never wants to fly again", "Would love to write a book".
_NOT_A_NAME = {
    "still",
    "never",
    "always",
    "also",
    "just",
    "would",
    "could",
    "should",
    "might",
    "must",
    "often",
    "sometimes",
    "now",
    "finally",
    "recently",
    "currently",
    "only",
    "even",
    "actually",
    "already",
    "soon",
    "once",
    "usually",
    "rarely",
    "mostly",
    "maybe",
    "perhaps",
    "no",
    "not",
    "very",
    "quite",
    "truly",
}


def someone_else(fact: str, person: str) -> str | None:
    """Who a fact is about when that is someone other than the person ("Alex", "sister Jo"), else None."""
    m = _OTHER.match(fact.strip())
    if not m or _ONLY_A_NAME.match(m["rest"].strip()):
        return None
    # How they seem, what they think or feel: an assessment. What happened ("Mum is visiting") is their life too.
    if not m["seems"] and not FEELING_WORDS & set(re.findall(r"[a-z]+", m["rest"].lower())):
        return None
    who = m["who"]
    first = who.split()[0].lower()
    if (
        first in _PRONOUNS
        or first in _NOT_A_NAME
        or first.endswith("ly")
        or "n't" in first.replace("’", "'")
        or (person and who.lower() == person.lower())
    ):
        return None
    return who


def account(fact: str, person: str) -> str:
    """Their words as their account: "Ada mentioned that Alex seemed stressed"."""
    fact = re.sub(r"^(?i:my)\s+", "their ", fact.strip().rstrip("."))
    if re.match(_RELATIONS + r"\b", fact):
        fact = fact[0].lower() + fact[1:]
    return f"{person or 'They'} mentioned that {fact}"


def schema(lines: int) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["facts"],
        "properties": {
            "facts": {
                "type": "array",
                "maxItems": FACTS_PER_STEP,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["fact", "replaces"],
                    "properties": {
                        "fact": {"type": "string", "maxLength": FACT_CHARS},
                        "replaces": {"type": "integer", "enum": list(range(lines + 1))},
                    },
                },
            }
        },
    }


def _holds(line: str, named: str) -> bool:
    """Whether a line holds the name of a name line ("Name is Abdulrahman" holds "Is called Abdulrahman")."""
    return named.split()[-1] in line.split()


class HumanNotes:
    """Reads the person's new messages and keeps the human block and their stated facts current."""

    def __init__(self, soul: Soul, chat: ChatModel, self_model: SelfModel, memories: Memories, gate: Gate):
        self.soul = soul
        self.chat = chat
        self.self_model = self_model
        self.memories = memories
        self.gate = gate

    def unread(self) -> tuple[list[dict[str, Any]], int | None]:
        """The person's messages since the last step, the newest few, that speak of themselves; and the id of
        the newest unread one (None when nothing is unread)."""
        through = self.soul.get_int(READ_THROUGH, 0)
        # Their own words only: text they pasted or attached is information, never their statement.
        rows = own_words(self.soul, through, MESSAGES_PER_STEP)
        newest = rows[0]["id"] if rows else None
        # What a person does not see of their own message (an HTML comment, hidden when it is shown) is not theirs.
        rows = [{**r, "content": _HIDDEN.sub(" ", r["content"]).strip()} for r in reversed(rows)]
        # A correction need not speak of its writer ("Actually the recital moved to 21 March"); a question or
        # feedback on the talk states nothing about them.
        return [
            r
            for r in rows
            if SPEAKS_OF_SELF.search(statements(r["content"]))
            or CORRECTS.search(statements(r["content"]))
            or stated_name(r["content"])  # "Mi chiamo Dana": their name, in any language code reads it in
        ], newest

    def _mark_read(self, newest: int | None) -> None:
        if newest is not None:
            self.soul.set_meta(READ_THROUGH, str(newest))

    def step(self, cancel: threading.Event | None = None) -> tuple[list[tuple[int, str]], str | None]:
        """Read what is unread; returns what was learned as (memory id, fact), and the human block as this step
        wrote it (None if it did not). Pre-empted: nothing changes and the messages stay unread."""
        messages, newest = self.unread()
        if not messages:
            self._mark_read(newest)
            return [], None
        lines = block_lines(self.self_model.read().human)
        known = "\n".join(f"{i}. {ln}" for i, ln in enumerate(lines, 1)) or "(none yet)"
        said = "\n".join(f"- {m['content'][:1000]}" for m in messages)
        prompt: list[Message] = [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": f"Their newest messages:\n{said}\n\nYour notes:\n{known}"},
        ]
        try:
            with self.chat.aside():
                reply = ask_structured(
                    self.chat, prompt, schema(len(lines)), what="note about the person", temperature=0.0, cancel=cancel
                )
        except StructuredOutputFailed as e:
            if cancel is not None and cancel.is_set():
                return [], None
            # The error quotes what the model wrote about them: the log (plaintext) gets only its shape.
            log.warning(
                "learning about the person skipped %d messages: no valid answer in %d tries",
                len(messages),
                len(e.attempts),
            )
            learned, block = self.apply([], messages)  # what code reads (their name) is still learned
            self._mark_read(newest)
            return learned, block
        learned, block = self.apply(reply["facts"], messages)
        self._mark_read(newest)
        return learned, block

    def apply(
        self, facts: list[dict[str, Any]], messages: list[dict[str, Any]]
    ) -> tuple[list[tuple[int, str]], str | None]:
        """Facts grounded in their words go through the gate (trust/gate.py): what passes is written into the human
        block and remembered; the rest waits as a proposal for the person, or is refused (a secret)."""
        # Only their statements ground a fact: a question ("What's my cat's name?") or feedback states none.
        said = "\n".join(statements(m["content"]) for m in messages)
        # Stems: "I hate driving" is written about them as "Hates driving".
        said_words = stems(said)
        before = self.self_model.read().human  # again: a person may have edited it meanwhile
        lines = block_lines(before)
        person = self._learn_name(messages, lines)
        changes: list[Change] = []
        learned: list[tuple[int, str]] = []
        for f, fact in [(given, fact) for given in facts for fact in facts_in(given["fact"])]:
            words = stems(fact)
            if not words or len(words & said_words) < GROUNDED * len(words):
                dropped("a fact", "most of its words are not what they said")
                continue
            if re.fullmatch(r"[A-Za-z\u00c0-\u024f'’-]+", fact):  # "Dana"; not a line in an unspaced script
                dropped("a fact", "one word states nothing (their name is read from their words)")
                continue
            if (why := states_nothing(fact)) is not None:
                dropped("a fact", why)
                continue
            # Beside a line it waits to join, only the same again: a shorter line may pass where a longer one waits.
            if any(near(fact, ln) for ln in lines) or any(
                near(fact, c.content) and near(c.content, fact) for c in changes
            ):
                dropped("a fact", "it is already held")
                continue
            source = max(messages, key=lambda m: len(words & stems(m["content"])))
            if (who := someone_else(fact, person)) is not None:
                told = account(fact, person)
                if why := unfit(told):
                    dropped("a fact about someone else", f"not fit to keep ({why})")
                else:  # a memory, recalled when it matters; never always in mind
                    learned.append(
                        (
                            self.memories.remember(
                                told,
                                kind="fact",
                                source="user_stated",
                                message_id=source["id"],
                                provenance=Provenance(Source.THIRD_PARTY, source["id"], who),
                            ),
                            told,
                        )
                    )
                continue
            r = f["replaces"]
            replaced = lines[r - 1] if 0 < r <= len(lines) and words & stems(lines[r - 1]) else None
            if replaced is None and CORRECTS.search(source["content"]) and (i := slot(fact, lines)) is not None:
                replaced = lines[i]  # they said it changed: the line it is about, whatever number the model gave
            changes.append(
                Change(
                    "human",
                    "replace" if replaced else "add",
                    fact,
                    Provenance(Source.PERSON, source["id"]),
                    replaced,
                    self._said(source),
                )
            )
        # Their name, when the model wrote no line that holds it.
        changes += [n for n in self._named(messages, lines) if not any(_holds(c.content, n.content) for c in changes)]
        for d in self.gate.submit(changes):
            if d.verdict is Verdict.APPLY:
                c = d.change
                learned.append((self._remember(c.content, c.replaces, c.provenance), c.content))
        after = self.self_model.read().human
        return learned, (after if after != before else None)

    def _said(self, source: dict[str, Any]) -> str:
        """The words a line was read from, for the gate's checks: the message, or, when it is the rest of a secret
        split over several ("my recovery words are: apple river", then "stone orange ..."), the person's messages
        up to it read together, so that the line holding its words is refused as the whole would be."""
        before = said_before(self.soul, source["id"])
        if secrets.across(before) - secrets.values(source["content"]):
            return "\n".join(before)
        return str(source["content"])

    def _learn_name(self, messages: list[dict[str, Any]], lines: list[str]) -> str:
        """Their name, as they gave it: the name the companion calls them (meta user_name, the export's person)
        when none was set; a different one is theirs to confirm, as the line that replaces it."""
        person = self.soul.get_meta("user_name", "")
        for m in messages:
            if (name := stated_name(m["content"])) is not None and not person:
                self.soul.set_meta("user_name", name)
                person = name
        return person

    def _named(self, messages: list[dict[str, Any]], lines: list[str]) -> list[Change]:
        """The line of the human block that holds the name they gave, read by code: a small model writes a bare
        "Dana" that no check can read, or nothing."""
        for m in reversed(messages):
            name = stated_name(m["content"])
            if name is None or any(_holds(ln, name_line(name)) for ln in lines):
                continue
            old = next((ln for ln in lines if ln.startswith(name_line(""))), None)
            return [
                Change(
                    "human",
                    "replace" if old else "add",
                    name_line(name),
                    Provenance(Source.PERSON, m["id"]),
                    old,
                    m["content"],
                )
            ]
        return []

    def _remember(self, fact: str, replaced: str | None, provenance: Provenance) -> int:
        if replaced is not None:
            old = self.memories.current_saying(replaced)
            if old is not None:
                return self.memories.supersede(old, fact, message_id=provenance.message_id, provenance=provenance)
        return self.memories.remember(
            fact, kind="fact", source="user_stated", message_id=provenance.message_id, provenance=provenance
        )
